//! The renderer's features in registration order, each with its on/off
//! switch: a switched-off feature keeps its pipelines and history and is
//! skipped until it is switched on again.

use crate::feature::RenderFeature;
use crate::shaders::ShaderFile;

/// No feature of the asked type is registered (see
/// [`Renderer::set_enabled`](crate::Renderer::set_enabled)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no {type_name} is registered on the renderer")]
pub struct FeatureMissing {
    /// The Rust type asked for.
    pub type_name: &'static str,
}

struct Entry {
    feature: Box<dyn RenderFeature>,
    enabled: bool,
    /// The WGSL files its last `setup` read (see [`crate::shaders`]).
    shaders: Vec<ShaderFile>,
}

/// The registered features. Dropping or clearing the list calls each
/// feature's `destroy` once.
#[derive(Default)]
pub(super) struct FeatureList {
    entries: Vec<Entry>,
}

impl FeatureList {
    /// Adds `feature`, switched on, at the end of the chain.
    pub(super) fn push(&mut self, feature: Box<dyn RenderFeature>, shaders: Vec<ShaderFile>) {
        self.entries.push(Entry {
            feature,
            enabled: true,
            shaders,
        });
    }

    /// The indices of the features whose last setup read the WGSL file at `path`.
    pub(super) fn readers_of(&self, path: &std::path::Path) -> Vec<usize> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, entry)| {
                entry
                    .shaders
                    .iter()
                    .any(|file| file.path_on_disk().as_deref() == Some(path))
            })
            .map(|(index, _)| index)
            .collect()
    }

    /// Every WGSL file the features read, once each.
    pub(super) fn shader_files(&self) -> Vec<ShaderFile> {
        let mut files: Vec<ShaderFile> = Vec::new();
        for file in self.entries.iter().flat_map(|entry| &entry.shaders) {
            if !files.contains(file) {
                files.push(*file);
            }
        }
        files
    }

    /// Feature `index` and where to note the files its next setup reads.
    pub(super) fn entry_mut(
        &mut self,
        index: usize,
    ) -> Option<(&mut (dyn RenderFeature + 'static), &mut Vec<ShaderFile>)> {
        self.entries
            .get_mut(index)
            .map(|entry| (entry.feature.as_mut(), &mut entry.shaders))
    }

    /// How many features are registered, on or off.
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no feature is registered.
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Destroys and removes every feature.
    pub(super) fn clear(&mut self) {
        for entry in &mut self.entries {
            entry.feature.destroy();
        }
        self.entries.clear();
    }

    fn entry_of<T: RenderFeature>(&self) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|entry| (entry.feature.as_ref() as &dyn std::any::Any).is::<T>())
    }

    fn entry_of_mut<T: RenderFeature>(&mut self) -> Option<&mut Entry> {
        self.entries
            .iter_mut()
            .find(|entry| (entry.feature.as_ref() as &dyn std::any::Any).is::<T>())
    }

    /// The first feature of type `T`.
    pub(super) fn get<T: RenderFeature>(&self) -> Option<&T> {
        let entry = self.entry_of::<T>()?;
        (entry.feature.as_ref() as &dyn std::any::Any).downcast_ref::<T>()
    }

    /// The first feature of type `T`, mutable.
    pub(super) fn get_mut<T: RenderFeature>(&mut self) -> Option<&mut T> {
        let entry = self.entry_of_mut::<T>()?;
        (entry.feature.as_mut() as &mut dyn std::any::Any).downcast_mut::<T>()
    }

    /// Switches the first feature of type `T` on or off.
    pub(super) fn set_enabled<T: RenderFeature>(
        &mut self,
        enabled: bool,
    ) -> Result<(), FeatureMissing> {
        let entry = self.entry_of_mut::<T>().ok_or(FeatureMissing {
            type_name: std::any::type_name::<T>(),
        })?;
        entry.enabled = enabled;
        Ok(())
    }

    /// Whether the first feature of type `T` is on (`None`: none registered).
    pub(super) fn is_enabled<T: RenderFeature>(&self) -> Option<bool> {
        self.entry_of::<T>().map(|entry| entry.enabled)
    }

    /// Every feature's name and switch, in order.
    pub(super) fn states(&self) -> impl Iterator<Item = (&'static str, bool)> + '_ {
        self.entries
            .iter()
            .map(|entry| (entry.feature.name(), entry.enabled))
    }

    /// The features that are on, in order.
    pub(super) fn enabled(&self) -> impl Iterator<Item = &(dyn RenderFeature + 'static)> + '_ {
        self.entries
            .iter()
            .filter(|entry| entry.enabled)
            .map(|entry| entry.feature.as_ref())
    }

    /// The features that are on, in order, mutable.
    pub(super) fn enabled_mut(
        &mut self,
    ) -> impl Iterator<Item = &mut (dyn RenderFeature + 'static)> + '_ {
        self.entries
            .iter_mut()
            .filter(|entry| entry.enabled)
            .map(|entry| entry.feature.as_mut())
    }
}

impl Drop for FeatureList {
    fn drop(&mut self) {
        self.clear();
    }
}
