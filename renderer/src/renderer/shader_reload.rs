//! Rebuilding the features whose WGSL files changed (see
//! [`crate::shaders`]), keeping the last texts that compiled.

use std::path::{Path, PathBuf};
use std::task::{Context, Poll, Waker};

use web_time::{Duration, Instant};

use super::Renderer;
use crate::feature::FeatureSetup;

/// What reloading one WGSL file did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShaderReload {
    /// The file.
    pub path: PathBuf,
    /// The features rebuilt from the new text, or the compiler's or
    /// validator's message (the features were rebuilt from the last text
    /// that compiled, and keep drawing).
    pub outcome: Result<Vec<&'static str>, String>,
    /// How long the rebuild took.
    pub took: Duration,
}

impl Renderer {
    /// For each file in `changed` that some feature's `setup` read through
    /// [`wgsl!`](crate::wgsl): reads it again and runs those features'
    /// `setup` with the new text inside a GPU validation scope. A text that
    /// does not compile, or no longer fits its pipelines, is reported and
    /// the features are set up again from the last text that compiled.
    /// Files no feature read are skipped.
    pub fn reload_shader_files(&mut self, changed: &[PathBuf]) -> Vec<ShaderReload> {
        let mut reports = Vec::new();
        for path in changed {
            let readers = self.features.readers_of(path);
            if readers.is_empty() {
                continue;
            }
            let started = Instant::now();
            let outcome = self.reload_shader_file(path, &readers);
            reports.push(ShaderReload {
                path: path.clone(),
                outcome,
                took: started.elapsed(),
            });
        }
        reports
    }

    /// The WGSL files on disk that the features read (to watch them).
    #[must_use]
    pub fn shader_files_on_disk(&self) -> Vec<PathBuf> {
        self.features
            .shader_files()
            .iter()
            .filter_map(crate::shaders::ShaderFile::path_on_disk)
            .collect()
    }

    fn reload_shader_file(
        &mut self,
        path: &Path,
        readers: &[usize],
    ) -> Result<Vec<&'static str>, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let previous = self.shaders.text_at(path);
        self.shaders.set_text(path, Some(text));
        let mut names = Vec::new();
        for &index in readers {
            match self.set_up_again(index) {
                Ok(name) => names.push(name),
                Err(error) => {
                    self.shaders.set_text(path, previous);
                    for &index in readers {
                        if let Err(again) = self.set_up_again(index) {
                            log::error!("shader reload: the previous text failed too: {again}");
                        }
                    }
                    return Err(error);
                }
            }
        }
        Ok(names)
    }

    /// Runs feature `index`'s setup again inside a validation scope.
    fn set_up_again(&mut self, index: usize) -> Result<&'static str, String> {
        let setup = FeatureSetup {
            gpu: &self.gpu,
            output_format: self.output_format,
        };
        let Some((feature, shaders)) = self.features.entry_mut(index) else {
            return Err("the feature is gone".to_owned());
        };
        let scope = self
            .gpu
            .device()
            .push_error_scope(wgpu::ErrorFilter::Validation);
        let ((), read) = self.shaders.lend(|| feature.setup(setup));
        *shaders = read;
        let name = feature.name();
        match poll_now(scope.pop()) {
            Some(Some(error)) => Err(format!("{name}: {error}")),
            _ => Ok(name),
        }
    }
}

/// The future's value if it is ready now (natively an error scope's pop
/// is; in the browser it may not be, and the reload is taken as good).
fn poll_now<F: Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(value) => Some(value),
        Poll::Pending => None,
    }
}
