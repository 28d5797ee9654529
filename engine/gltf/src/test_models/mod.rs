//! Test models generated in code: each function writes a valid glTF file (and its external
//! files) into a directory and returns the model's path.
//!
//! They cover every feature of the importer and are meant for tests, benches and samples in
//! any crate (nothing is downloaded). The values they contain are documented on each function
//! so that tests can check them.

mod builder;
mod materials;
mod morphs;
mod scenes;
mod skins;

pub use builder::Storage;
pub use materials::{
    alpha_modes, many_textures, texture_transforms, textured_box, textured_box_with, two_uv_sets,
};
pub use morphs::{morph_targets, quantized_mesh};
pub use scenes::{
    MANY_NODES_DEFAULT, animated, cameras_and_lights, hierarchy, hierarchy_child_matrix,
    many_nodes, mirrored_nodes,
};

pub use skins::{
    MANY_JOINTS, TWO_BONE_WEIGHTS_U8, detached_joints_skin, many_joints_skin, mirrored_skin,
    two_bone_inverse_bind_matrices, two_bone_skin,
};

use std::io;
use std::path::{Path, PathBuf};

/// Writes every test model into `dir` (the N-node scene with 100 nodes); returns their paths.
pub fn write_all(dir: &Path) -> io::Result<Vec<PathBuf>> {
    Ok(vec![
        textured_box(dir)?,
        textured_box_with(dir, Storage::Glb)?,
        hierarchy(dir)?,
        two_uv_sets(dir)?,
        alpha_modes(dir)?,
        texture_transforms(dir)?,
        animated(dir)?,
        cameras_and_lights(dir)?,
        many_nodes(dir, 100)?,
    ])
}
