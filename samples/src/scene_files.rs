//! Samples through scene files: [`reload_through_scene_file`] saves a
//! sample's scene, empties it and loads the text back, which is what the
//! round-trip tests do to the samples built in code.

use taos_engine::Engine;
use taos_engine::renderer::resources::{MaterialId, MeshId};
use taos_engine::scene_file::{SceneTypes, load_scene, save_scene};

/// Names a sample's meshes and materials in its scene's
/// [`AssetNames`](taos_engine::scene_file::AssetNames), so its scene saves
/// to a scene file.
///
/// # Errors
/// A name used twice.
pub fn name_assets(
    engine: &mut Engine,
    meshes: &[(&str, MeshId)],
    materials: &[(&str, MaterialId)],
) -> anyhow::Result<()> {
    for (name, mesh) in meshes {
        engine.name_mesh(name, *mesh)?;
    }
    for (name, material) in materials {
        engine.name_material(name, *material)?;
    }
    Ok(())
}

/// Saves `engine`'s scene as scene-file text, removes every object, and
/// loads the text back; returns the text. The sample's assets stay (they
/// live in the renderer and are named in the scene's `AssetNames`), so a
/// sample that names its meshes and materials comes back as it was.
///
/// # Errors
/// If the scene does not save (an unnamed mesh or material, a value that
/// does not serialise) or its text does not load.
pub fn reload_through_scene_file(
    engine: &mut Engine,
    types: &SceneTypes,
) -> anyhow::Result<String> {
    let text = save_scene(engine.scene(), types)?.text;
    let scene = engine.scene_mut();
    for root in scene.roots() {
        scene.remove(root)?;
    }
    load_scene(scene, &text, "sample.scene.json", types, None)?;
    Ok(text)
}
