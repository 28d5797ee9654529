//! Taos's glTF 2.0 importer, CPU half.
//!
//! `taos_gltf` turns a `.gltf` (with embedded `data:` URIs or external `.bin`/`.png`/`.jpg`
//! files beside it) or a `.glb` into a [`GltfModel`]: plain, validated, documented data with
//! typed indices ([`MeshIndex`], [`MaterialIndex`], [`ImageIndex`], [`NodeIndex`]...).
//!
//! It is **not** a renderer: it has no GPU, wgpu or ECS dependency. Turning the model into GPU
//! meshes, materials and scene objects is a separate step in the engine. It is also not a glTF
//! *exporter*, and it does not keep data it does not understand (see the table).
//!
//! Conventions are glTF's: right-handed, +Y up, metres, counter-clockwise front faces, cameras
//! and lights looking down their node's -Z, UV origin at the image's top-left.
//!
//! Nothing in the input can make it panic or allocate without bound: every accessor is checked
//! against its buffer view and buffer before it is read, every float is checked finite, images
//! are limited to [`MAX_IMAGE_SIZE`] texels a side, the whole load to [`MAX_DECODED_BYTES`]
//! of decoded data (shared accessors and images cannot multiply memory; external files are
//! read no further than what is left), and failures are a [`GltfError`] naming the file and
//! the element, such as
//! `model.gltf: mesh 2 ("Wheel") primitive 0: attribute TEXCOORD_1 accessor 7 reads past the end of buffer view 3 (...)`.
//!
//! External files are confined to the model's folder: `..`, absolute paths and symbolic links
//! leading out of it are refused, as are folders, FIFOs and devices, and each file is read once
//! per load. [`LoadOptions::allowed_roots`] lets models reach other folders (see
//! [`LoadOptions`] for the rules and an example); [`LoadOptions::max_decoded_bytes`] changes
//! the budget.
//!
//! Where the importer cannot read files itself (in a browser, from an archive), a model's
//! external files can be supplied in memory: [`external_uris`] lists what it names,
//! [`ExternalFiles`] holds the bytes and [`GltfModel::from_slice_with_files`] imports it,
//! charging them to the same budget.
//!
//! # Example
//!
//! ```
//! use taos_gltf::{test_models, GltfModel};
//!
//! let dir = std::env::temp_dir().join(format!("taos_gltf_doc_{}", std::process::id()));
//! let path = test_models::textured_box(&dir).unwrap();
//! let model = GltfModel::load(&path).unwrap();
//! let scene = &model.scenes[model.default_scene.0];
//! for &root in &scene.roots {
//!     let node = &model.nodes[root.0];
//!     if let Some(mesh) = node.mesh {
//!         for primitive in &model.meshes[mesh.0].primitives {
//!             let material = model.material(primitive.material);
//!             println!("{} triangles, base colour {}", primitive.indices.len() / 3, material.base_color_factor);
//!         }
//!     }
//! }
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```
//!
//! # Supported glTF features
//!
//! | Feature | Support |
//! | --- | --- |
//! | `.gltf` JSON, `.glb` binary | yes |
//! | Buffers: `data:` base64 URIs, relative external files (percent-decoded), GLB chunk | yes, inside the model's folder; absolute paths, `http:`/`file:` URIs, `..` and links out of the folder are refused unless [`LoadOptions::allowed_roots`] allows more |
//! | Images: PNG and JPEG from URIs or buffer views, decoded to RGBA8; KTX2 kept undecoded | yes; other formats are an error |
//! | Scenes, default scene, node hierarchy, TRS and `matrix` transforms | yes; cycles, two parents, shear or non-finite matrices are errors |
//! | Primitives: triangles, triangle strips and fans (converted to lists) | yes |
//! | Primitives: points, lines, line loops and strips | skipped with a warning |
//! | POSITION, NORMAL, TANGENT, TEXCOORD_0/1, COLOR_0; u8/u16/u32 indices | yes (flat normals and MikkTSpace tangents generated when absent) |
//! | JOINTS_0/1 (u8/u16), WEIGHTS_0/1 (f32, normalized u8/u16) | yes, as [`Primitive::influences`]: four per vertex, renormalised (see [`JointInfluences`]); JOINTS_2+ ignored with a warning |
//! | TEXCOORD_2+, COLOR_1+ | ignored with a warning |
//! | Sparse accessors | yes |
//! | Metallic-roughness materials, every texture slot, alpha modes, double-sided | yes |
//! | Samplers (wrap, mag/min filters) | yes |
//! | Cameras (perspective, orthographic) | yes |
//! | Animations of translation, rotation, scale (STEP, LINEAR, CUBICSPLINE) + sampling | yes |
//! | Skins: joints, inverse bind matrices (identity when absent), skeleton | yes, as [`Skin`] in [`GltfModel::skins`] and [`Node::skin`] |
//! | Morph targets (POSITION/NORMAL/TANGENT displacements), mesh default `weights` | yes, as [`Primitive::morph_targets`] and [`Mesh::weights`] |
//! | Animations of morph target `weights` (STEP, LINEAR, CUBICSPLINE) + sampling | yes, as [`Animation::weight_channels`] ([`WeightsChannel`]); a channel whose node has no morph targets is skipped with a warning |
//!
//! | Extension | Support |
//! | --- | --- |
//! | `KHR_lights_punctual` | yes |
//! | `KHR_texture_transform` | yes, on every texture slot, including its `texCoord` override |
//! | `KHR_materials_unlit` | yes |
//! | `KHR_materials_emissive_strength` | yes |
//! | `KHR_texture_basisu` | yes: the texture uses the extension's KTX2 image, kept undecoded as [`ImagePixels::Ktx2`] for the renderer to transcode |
//! | `KHR_mesh_quantization` | yes: 8/16-bit POSITION, NORMAL, TANGENT, TEXCOORD and morph displacements are dequantised to f32 (normalized values to [-1, 1] or [0, 1], others to their integer value; the node transform carries the rest) |
//! | anything else | if in `extensionsRequired`: error; if only in `extensionsUsed`: a warning |
//!
//! Besides the data, [`GltfModel::world_matrices`] composes the hierarchy, [`GltfModel::material`]
//! resolves a primitive's material (or the glTF default), [`Channel::sample`] evaluates an
//! animation channel at a time, and [`GltfModel::load_with_progress`] reports [`LoadProgress`]
//! for a loading screen. [`LoadOptions::image_cache`] lets an [`ImageCache`] supply decoded
//! images by the hash of their encoded bytes ([`ImageKey`]) and keep those decoded (the
//! engine's is `taos_import_cache`). Loading the 10,000-node [`test_models::many_nodes`] scene takes about
//! 15 ms in release on a 2-core machine (`cargo run --release -p taos_gltf --example load_time`).
//!
//! Skins and morph targets are imported and validated (joint indices in range of every skin
//! the mesh is drawn with, one inverse bind matrix per joint, joints that are nodes, morph
//! attribute and weight counts), but nothing here deforms vertices: that is the renderer's
//! job, and so is its limit on joints per skin ([`Skin::joint_count`] is what to check it
//! against).
//!
//! Tangents: when a primitive has no TANGENT and its material has a normal texture, tangents
//! are generated with MikkTSpace (`bevy_mikktspace`) from the normal texture's UV set; otherwise
//! [`Primitive::tangents`] stays `None`.
#![forbid(unsafe_code)]

mod accessor;
mod animation;
mod basisu;
mod budget;
mod camera_light;
mod error;
mod external;
mod files;
mod image_cache;
mod images;
mod index;
mod influences;
mod material;
mod mesh;
mod model;
mod morph;
mod nodes;
mod options;
mod skin;
mod source;
mod tangents;
pub mod test_models;
mod texture;

pub use animation::{Animation, Channel, ChannelValue, CubicKey, Keyframes, Track, WeightsChannel};
pub use budget::MAX_DECODED_BYTES;
pub use camera_light::{Camera, Light, LightKind, Projection};
pub use error::{
    AccessorProblem, AnimationProblem, ElementKind, ElementName, GlbProblem, GltfError,
    NodeProblem, PrimitiveProblem, SkinProblem, SourceProblem,
};
pub use external::{ExternalFiles, ExternalUri, external_uris};
pub use image_cache::{ContentHash, ImageCache, ImageKey, SharedImageCache};
pub use images::{Image, ImagePixels, MAX_IMAGE_SIZE};
pub use index::{
    AnimationIndex, CameraIndex, ImageIndex, LightIndex, MaterialIndex, MeshIndex, NodeIndex,
    SceneIndex, SkinIndex,
};
pub use influences::JointInfluences;
pub use material::{AlphaMode, Material};
pub use mesh::{Aabb, Mesh, Primitive};
pub use model::{GltfModel, LoadProgress, LoadStage, SUPPORTED_EXTENSIONS};
pub use morph::MorphTarget;
pub use nodes::{LocalTransform, Node, Scene};
pub use options::LoadOptions;
pub use skin::Skin;
pub use tangents::generate_tangents;
pub use texture::{MagFilter, MinFilter, Sampler, TextureRef, TextureTransform, WrapMode};
