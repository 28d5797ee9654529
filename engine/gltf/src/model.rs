//! [`GltfModel`] and the load entry points.

use std::path::Path;

use glam::Mat4;

use crate::animation::{Animation, import_animations};
use crate::budget::Budget;
use crate::camera_light::{Camera, Light, import_cameras, import_lights};
use crate::error::GltfError;
use crate::external::ExternalFiles;
use crate::files::{Files, ReadProblem, read_regular_file};
use crate::images::{Image, import_images};
use crate::index::{NodeIndex, SceneIndex};
use crate::material::{ImageUsage, Material, import_materials};
use crate::mesh::{Mesh, import_meshes};
use crate::nodes::{Node, Scene, import_nodes_and_scenes};
use crate::options::LoadOptions;
use crate::skin::{Skin, check_skin_nodes, check_skin_usage, import_skins};
use crate::source::{load_buffers, split_container};

/// Extensions this importer implements; a file *requiring* any other is refused.
pub const SUPPORTED_EXTENSIONS: &[&str] = &[
    "KHR_lights_punctual",
    "KHR_materials_emissive_strength",
    "KHR_materials_unlit",
    MESH_QUANTIZATION,
    crate::basisu::KHR_TEXTURE_BASISU,
    "KHR_texture_transform",
];

/// `KHR_mesh_quantization`: 8- and 16-bit integer vertex attributes.
pub(crate) const MESH_QUANTIZATION: &str = "KHR_mesh_quantization";

/// A stage of loading, reported through [`LoadProgress`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadStage {
    /// Reading the file and parsing and validating the JSON (done/total 0/1 then 1/1).
    Parsing,
    /// Resolving buffers (data URIs, external files, GLB chunk).
    Buffers,
    /// Decoding images.
    Images,
    /// Reading mesh primitives (and generating normals and tangents).
    Meshes,
    /// Reading nodes, scenes, cameras and lights.
    Nodes,
    /// Reading animations.
    Animations,
}

/// A progress report: `done` of `total` items of `stage` are finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadProgress {
    /// The stage.
    pub stage: LoadStage,
    /// Items finished.
    pub done: usize,
    /// Items in the stage.
    pub total: usize,
}

impl LoadStage {
    /// What the stage does, for a progress line (`decoding images`).
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Self::Parsing => "parsing",
            Self::Buffers => "reading buffers",
            Self::Images => "decoding images",
            Self::Meshes => "reading meshes",
            Self::Nodes => "reading nodes",
            Self::Animations => "reading animations",
        }
    }

    /// Where the stage lies in the whole load, as a fraction `[start, end)`
    /// (images and meshes take most of a typical load).
    #[must_use]
    pub fn span(self) -> (f32, f32) {
        match self {
            Self::Parsing => (0.0, 0.05),
            Self::Buffers => (0.05, 0.1),
            Self::Images => (0.1, 0.55),
            Self::Meshes => (0.55, 0.9),
            Self::Nodes => (0.9, 0.97),
            Self::Animations => (0.97, 1.0),
        }
    }
}

impl LoadProgress {
    /// How far the whole load is, from 0 to 1 (for a progress bar).
    #[must_use]
    pub fn fraction(&self) -> f32 {
        let (start, end) = self.stage.span();
        let within = if self.total == 0 {
            1.0
        } else {
            self.done.min(self.total) as f32 / self.total as f32
        };
        start + (end - start) * within
    }
}

impl std::fmt::Display for LoadProgress {
    /// `decoding images 3/10`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}/{}", self.stage.describe(), self.done, self.total)
    }
}

/// A glTF file imported into plain, validated data.
///
/// Every typed index inside it ([`NodeIndex`], [`MeshIndex`](crate::MeshIndex)...) is in range of
/// the matching `Vec`, the node hierarchy is a forest, every float is finite, and every mesh
/// index is below its primitive's vertex count.
#[derive(Debug, Clone, PartialEq)]
pub struct GltfModel {
    /// Scenes; never empty (a file without scenes gets one implicit scene of all root nodes).
    pub scenes: Vec<Scene>,
    /// The scene to show: glTF `scene`, else scene 0.
    pub default_scene: SceneIndex,
    /// Every node, in file order.
    pub nodes: Vec<Node>,
    /// Every mesh, in file order.
    pub meshes: Vec<Mesh>,
    /// Every material, in file order (primitives without one use [`Material::default`]).
    pub materials: Vec<Material>,
    /// Every image, decoded.
    pub images: Vec<Image>,
    /// Every camera.
    pub cameras: Vec<Camera>,
    /// Every KHR_lights_punctual light.
    pub lights: Vec<Light>,
    /// Every animation.
    pub animations: Vec<Animation>,
    /// Every skin ([`Node::skin`] indexes it).
    pub skins: Vec<Skin>,
    /// What was ignored or approximated: unsupported optional extensions, skipped primitives
    /// and channels, ignored joint sets. Each is also logged with `log::warn!`.
    pub warnings: Vec<String>,
}

/// `gltf-json` 1.4.1's validation indexes `accessors[POSITION]` without a bounds check (a
/// panic on a bad index), so primitive accessor indices are checked before it runs.
fn check_primitive_accessor_indices(root: &gltf::json::Root, file: &str) -> Result<(), GltfError> {
    let accessors = root.accessors.len();
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let attributes = prim.attributes.iter().map(|(semantic, index)| {
                let name = match semantic {
                    gltf::json::validation::Checked::Valid(s) => s.to_string(),
                    gltf::json::validation::Checked::Invalid => "(invalid)".to_owned(),
                };
                (format!("attribute {name}"), index.value())
            });
            let indices = prim.indices.map(|i| ("indices".to_owned(), i.value()));
            let targets = prim
                .targets
                .iter()
                .flatten()
                .enumerate()
                .flat_map(|(t, target)| {
                    [
                        ("POSITION", target.positions),
                        ("NORMAL", target.normals),
                        ("TANGENT", target.tangents),
                    ]
                    .into_iter()
                    .filter_map(move |(name, i)| {
                        i.map(|i| (format!("target {t} {name}"), i.value()))
                    })
                });
            if let Some((usage, accessor)) = attributes
                .chain(indices)
                .chain(targets)
                .find(|(_, i)| *i >= accessors)
            {
                return Err(GltfError::Primitive {
                    file: file.to_owned(),
                    mesh: crate::ElementName::new(
                        crate::ElementKind::Mesh,
                        m,
                        mesh.name.as_deref(),
                    ),
                    primitive: p,
                    problem: crate::PrimitiveProblem::AccessorIndexOutOfRange {
                        usage: usage.into(),
                        accessor,
                        accessors,
                    },
                });
            }
        }
    }
    Ok(())
}

impl GltfModel {
    /// Loads a `.gltf` or `.glb` file with [`LoadOptions::default()`]; external buffers and
    /// images are resolved relative to it and must lie inside its folder (see [`LoadOptions`]).
    /// Messages name the file as `path` displays.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, GltfError> {
        Self::load_with_progress(path, &mut |_| {})
    }

    /// [`GltfModel::load`], reporting progress to `progress` (on the calling thread).
    pub fn load_with_progress(
        path: impl AsRef<Path>,
        progress: &mut dyn FnMut(LoadProgress),
    ) -> Result<Self, GltfError> {
        Self::load_with_options(path, &LoadOptions::default(), progress)
    }

    /// [`GltfModel::load_with_progress`] with other [`LoadOptions`] (a decoded-data budget,
    /// folders besides the model's own that its files may come from).
    pub fn load_with_options(
        path: impl AsRef<Path>,
        options: &LoadOptions,
        progress: &mut dyn FnMut(LoadProgress),
    ) -> Result<Self, GltfError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        progress(LoadProgress {
            stage: LoadStage::Parsing,
            done: 0,
            total: 1,
        });
        let limit = options.max_decoded_bytes;
        let bytes = read_regular_file(path, limit).map_err(|problem| match problem {
            ReadProblem::Io(source) => GltfError::Io {
                file: file.clone(),
                source,
            },
            ReadProblem::NotRegularFile => GltfError::NotRegularFile { file: file.clone() },
            ReadProblem::TooLarge { size } => GltfError::TooLarge {
                file: file.clone(),
                size,
                limit,
            },
        })?;
        let base_dir = path.parent().unwrap_or(Path::new("."));
        Self::from_slice_with_options(&bytes, Some(base_dir), &file, options, progress)
    }

    /// Imports a `.gltf` (JSON text) or `.glb` from memory with [`LoadOptions::default()`].
    /// External URIs are resolved against `base_dir` and must lie inside it (see
    /// [`LoadOptions`]); with `None`, only data URIs and the GLB chunk can be used. `name_for_messages` starts every error message and warning.
    pub fn from_slice(
        bytes: &[u8],
        base_dir: Option<&Path>,
        name_for_messages: &str,
    ) -> Result<Self, GltfError> {
        Self::from_slice_with_progress(bytes, base_dir, name_for_messages, &mut |_| {})
    }

    /// [`GltfModel::from_slice`], reporting progress to `progress` (on the calling thread).
    pub fn from_slice_with_progress(
        bytes: &[u8],
        base_dir: Option<&Path>,
        name_for_messages: &str,
        progress: &mut dyn FnMut(LoadProgress),
    ) -> Result<Self, GltfError> {
        Self::from_slice_with_options(
            bytes,
            base_dir,
            name_for_messages,
            &LoadOptions::default(),
            progress,
        )
    }

    /// [`GltfModel::from_slice_with_progress`] with other [`LoadOptions`].
    pub fn from_slice_with_options(
        bytes: &[u8],
        base_dir: Option<&Path>,
        name_for_messages: &str,
        options: &LoadOptions,
        progress: &mut dyn FnMut(LoadProgress),
    ) -> Result<Self, GltfError> {
        let files = Files::new(base_dir, options);
        Self::import(bytes, name_for_messages, files, options, progress)
    }

    /// Imports a `.gltf` or `.glb` from memory whose external buffers and images are supplied
    /// in memory too: `files` holds each by its URI's percent-decoded path (list them with
    /// [`external_uris`](crate::external_uris)). Nothing is read from the file system, so
    /// [`LoadOptions::allowed_roots`] plays no part: whoever supplied the files decided where
    /// they may come from. Each file is charged to [`LoadOptions::max_decoded_bytes`] once,
    /// as a file read from disk is.
    ///
    /// ```
    /// use taos_gltf::{ExternalFiles, GltfModel, LoadOptions, external_uris, test_models};
    ///
    /// let dir = std::env::temp_dir().join(format!("taos_gltf_memory_{}", std::process::id()));
    /// let path = test_models::texture_transforms(&dir)?; // a .bin and a .png beside it
    /// let bytes = std::fs::read(&path)?;
    /// let mut files = ExternalFiles::new();
    /// for uri in external_uris(&bytes, "texture_transforms.gltf")? {
    ///     // In a browser these would come from `fetch`.
    ///     files.insert(uri.path.clone(), std::fs::read(dir.join(&uri.path))?);
    /// }
    /// let model = GltfModel::from_slice_with_files(
    ///     &bytes,
    ///     "texture_transforms.gltf",
    ///     &files,
    ///     &LoadOptions::default(),
    ///     &mut |_| {},
    /// )?;
    /// assert_eq!(model, GltfModel::load(&path)?);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`GltfModel::from_slice`]; a URI naming a file `files` lacks is a
    /// [`SourceProblem::NotSupplied`](crate::SourceProblem::NotSupplied) naming the URI.
    pub fn from_slice_with_files(
        bytes: &[u8],
        name_for_messages: &str,
        files: &ExternalFiles,
        options: &LoadOptions,
        progress: &mut dyn FnMut(LoadProgress),
    ) -> Result<Self, GltfError> {
        let files = Files::in_memory(files, options);
        Self::import(bytes, name_for_messages, files, options, progress)
    }

    /// The import itself, external files coming from `files`.
    fn import(
        bytes: &[u8],
        name_for_messages: &str,
        mut files: Files<'_>,
        options: &LoadOptions,
        progress: &mut dyn FnMut(LoadProgress),
    ) -> Result<Self, GltfError> {
        let file = name_for_messages;
        let report = |progress: &mut dyn FnMut(LoadProgress), stage, done, total| {
            progress(LoadProgress { stage, done, total });
        };
        let container = split_container(bytes).map_err(|problem| GltfError::Glb {
            file: file.to_owned(),
            problem,
        })?;
        let json_error = |source| GltfError::Json {
            file: file.to_owned(),
            source,
        };
        let mut root: gltf::json::Root = gltf::json::deserialize::from_slice(container.json)
            .map_err(|e| json_error(gltf::Error::Deserialize(e)))?;
        if let Some(extension) = root
            .extensions_required
            .iter()
            .find(|e| !SUPPORTED_EXTENSIONS.contains(&e.as_str()))
        {
            return Err(GltfError::UnsupportedRequiredExtension {
                file: file.to_owned(),
                extension: extension.clone(),
            });
        }
        let mut warnings = Vec::new();
        let mut warn = |message: String| {
            log::warn!("{message}");
            warnings.push(message);
        };
        for extension in root
            .extensions_used
            .iter()
            .filter(|e| !SUPPORTED_EXTENSIONS.contains(&e.as_str()))
        {
            warn(format!(
                "{file}: optional extension {extension} is not supported; ignored"
            ));
        }
        check_primitive_accessor_indices(&root, file)?;
        check_skin_nodes(&root, file)?;
        crate::basisu::use_basisu_sources(&mut root);
        // `gltf-json` refuses required extensions it does not know, KHR_mesh_quantization
        // and KHR_texture_basisu among them; this importer implements them (checked above),
        // so they are moved to `extensionsUsed`, where the mesh import looks for the first.
        for unknown_to_gltf in [MESH_QUANTIZATION, crate::basisu::KHR_TEXTURE_BASISU] {
            if root
                .extensions_required
                .iter()
                .any(|e| e == unknown_to_gltf)
            {
                root.extensions_required.retain(|e| e != unknown_to_gltf);
                if !root.extensions_used.iter().any(|e| e == unknown_to_gltf) {
                    root.extensions_used.push(unknown_to_gltf.to_owned());
                }
            }
        }
        let doc = gltf::Document::from_json(root).map_err(json_error)?;
        report(progress, LoadStage::Parsing, 1, 1);

        let buffer_count = doc.buffers().len();
        report(progress, LoadStage::Buffers, 0, buffer_count);
        let budget = Budget::new(options.max_decoded_bytes);
        let buffers = load_buffers(&doc, container.bin, &mut files, file, budget)?;
        report(progress, LoadStage::Buffers, buffer_count, buffer_count);

        let mut usage = vec![ImageUsage::default(); doc.images().len()];
        let materials = import_materials(&doc, file, &mut usage, &mut warnings);

        let image_count = usage.len();
        report(progress, LoadStage::Images, 0, image_count);
        let cache = options.image_cache.as_ref().map(|c| &*c.0);
        let images = import_images(
            &doc,
            &buffers,
            &mut files,
            file,
            &usage,
            cache,
            &mut |done| {
                report(progress, LoadStage::Images, done, image_count);
            },
        )?;

        let mesh_count = doc.meshes().len();
        report(progress, LoadStage::Meshes, 0, mesh_count);
        let meshes = import_meshes(&doc, &buffers, &materials, file, &mut warnings, |done| {
            report(progress, LoadStage::Meshes, done, mesh_count);
        })?;

        let node_count = doc.nodes().len();
        report(progress, LoadStage::Nodes, 0, node_count);
        let (nodes, scenes, default_scene) = import_nodes_and_scenes(&doc, file)?;
        let skins = import_skins(&doc, &buffers, file)?;
        check_skin_usage(&doc, &nodes, &meshes, &skins, file, &mut |message| {
            log::warn!("{message}");
            warnings.push(message);
        })?;
        let cameras = import_cameras(&doc, file)?;
        let lights = import_lights(&doc);
        report(progress, LoadStage::Nodes, node_count, node_count);

        let animation_count = doc.animations().len();
        report(progress, LoadStage::Animations, 0, animation_count);
        let animations = import_animations(&doc, &buffers, &nodes, &meshes, file, &mut warnings)?;
        report(
            progress,
            LoadStage::Animations,
            animation_count,
            animation_count,
        );

        Ok(Self {
            scenes,
            default_scene,
            nodes,
            meshes,
            materials,
            images,
            cameras,
            lights,
            animations,
            skins,
            warnings,
        })
    }

    /// The material a primitive uses: its own, or the glTF default material.
    #[must_use]
    pub fn material(&self, index: Option<crate::MaterialIndex>) -> &Material {
        index
            .and_then(|i| self.materials.get(i.0))
            .unwrap_or(&Material::DEFAULT)
    }

    /// Each node's world matrix (parent world * local), indexed like [`GltfModel::nodes`].
    #[must_use]
    pub fn world_matrices(&self) -> Vec<Mat4> {
        let mut world = vec![Mat4::IDENTITY; self.nodes.len()];
        let mut stack: Vec<(NodeIndex, Mat4)> = self
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.parent.is_none())
            .map(|(i, _)| (NodeIndex(i), Mat4::IDENTITY))
            .collect();
        // The hierarchy is a validated forest: each node is visited once.
        while let Some((i, parent)) = stack.pop() {
            let m = parent * self.nodes[i.0].transform.to_matrix();
            world[i.0] = m;
            stack.extend(self.nodes[i.0].children.iter().map(|&c| (c, m)));
        }
        world
    }
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;
    use serde_json::json;

    use super::*;

    #[test]
    fn progress_reads_as_a_line_and_a_fraction_that_only_grows() {
        let at = |stage, done, total| LoadProgress { stage, done, total };
        assert_eq!(
            at(LoadStage::Images, 3, 10).to_string(),
            "decoding images 3/10"
        );
        let steps = [
            at(LoadStage::Parsing, 0, 1),
            at(LoadStage::Parsing, 1, 1),
            at(LoadStage::Buffers, 1, 2),
            at(LoadStage::Images, 0, 0),
            at(LoadStage::Meshes, 5, 10),
            at(LoadStage::Nodes, 3, 3),
            at(LoadStage::Animations, 1, 1),
        ];
        let fractions: Vec<f32> = steps.iter().map(LoadProgress::fraction).collect();
        assert!(fractions.windows(2).all(|w| w[0] <= w[1]), "{fractions:?}");
        assert_eq!(fractions[0], 0.0);
        assert_eq!(fractions[6], 1.0);
    }

    #[test]
    fn shared_accessors_cannot_multiply_memory() {
        // 100 primitives share one 2,000-index strip; each is read, triangulated and unwelded
        // on its own (about 480 KB each), so a 10 MB budget runs out part-way.
        let n = 2000u32;
        let mut bin: Vec<u8> = (0..n)
            .flat_map(|i| [i as f32, (i % 2) as f32, 0.0])
            .flat_map(f32::to_le_bytes)
            .collect();
        let pos_len = bin.len();
        bin.extend((0..n).flat_map(|i| (i as u16).to_le_bytes()));
        let uri = format!(
            "data:;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&bin)
        );
        let prim = json!({"attributes": {"POSITION": 0}, "indices": 1, "mode": 5});
        let doc = json!({
            "asset": {"version": "2.0"},
            "buffers": [{"byteLength": bin.len(), "uri": uri}],
            "bufferViews": [
                {"buffer": 0, "byteLength": pos_len},
                {"buffer": 0, "byteOffset": pos_len, "byteLength": n * 2},
            ],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": n, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [n as f32, 1.0, 0.0]},
                {"bufferView": 1, "componentType": 5123, "count": n, "type": "SCALAR"},
            ],
            "meshes": [{"primitives": vec![prim; 100]}],
        });
        let bytes = serde_json::to_vec(&doc).unwrap();
        let load = |budget| {
            let options = LoadOptions::default().with_max_decoded_bytes(budget);
            GltfModel::from_slice_with_options(&bytes, None, "shared.gltf", &options, &mut |_| {})
        };
        let error = load(10_000_000).unwrap_err();
        assert!(error.to_string().contains("decoded-data limit"), "{error}");
        assert!(load(100_000_000).is_ok());
    }
}
