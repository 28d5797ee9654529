//! The presenter hands every active `Decal` to the renderer: a red decal
//! under a camera looking straight down shows in the forward and deferred
//! presets, and goes when its object is switched off.

use std::f32::consts::FRAC_PI_2;

use glam::{Quat, Vec3};
use taos_engine::prelude::*;
use taos_engine::renderer::Renderer;
use taos_engine::renderer::presets::{
    DeferredOptions, PresetOptions, deferred_preset, forward_preset,
};
use taos_engine::renderer::resources::{ColorSpace, MeshData, PbrMaterial, Texture};
use taos_engine::{Decal, Engine, EngineConfig};

type Preset = Box<dyn FnOnce(&mut Renderer)>;

fn centre_pixel(engine: &mut Engine) -> [u8; 3] {
    let pixels = engine.read_pixels().unwrap();
    let at = (24 * 64 + 32) * 4;
    [pixels[at], pixels[at + 1], pixels[at + 2]]
}

fn is_red([r, g, b]: [u8; 3]) -> bool {
    r > 60 && r > g.saturating_add(40) && r > b.saturating_add(40)
}

fn engine_with_a_decal(preset: impl FnOnce(&mut Renderer) + 'static) -> (Engine, GameObject) {
    let mut engine = Engine::headless(EngineConfig::new(64, 48), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let (assets, gpu) = engine.renderer().assets_mut();
    let floor = assets.add_mesh(gpu, "floor", &MeshData::plane(20.0));
    let grey = assets.add_material(PbrMaterial::color(Vec3::splat(0.7)));
    let red = image::RgbaImage::from_pixel(2, 2, image::Rgba([255, 0, 0, 255]));
    let red = assets.add_texture(Texture::from_rgba8(gpu, "red", &red, ColorSpace::Srgb).unwrap());
    let scene = engine.scene_mut();
    let ground = scene.spawn("Floor");
    scene
        .add_component(ground, MeshRenderer::new(floor.handle(), grey.handle()))
        .unwrap();
    let sun = scene.spawn("Sun");
    scene
        .add_component(
            sun,
            DirectionalLight::new(Vec3::new(0.2, -1.0, 0.1), Vec3::ONE, 2.0),
        )
        .unwrap();
    let looking_down = Quat::from_rotation_x(-FRAC_PI_2);
    let camera = scene.spawn_with(
        "Camera",
        Transform::from_trs(Vec3::new(0.0, 6.0, 0.0), looking_down, Vec3::ONE),
    );
    scene
        .add_component(
            camera,
            Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0).unwrap(),
        )
        .unwrap();
    // The object's +Z turned up: the decal projects down onto the floor.
    let decal = scene.spawn_with(
        "Decal",
        Transform::from_trs(Vec3::ZERO, looking_down, Vec3::ONE),
    );
    scene
        .add_component(decal, Decal::new(red, Vec3::new(2.0, 2.0, 1.0)))
        .unwrap();
    (engine, decal)
}

#[test]
fn an_active_decal_is_drawn_in_the_forward_and_deferred_presets() {
    let presets: [Preset; 2] = [
        Box::new(forward_preset(PresetOptions::default())),
        Box::new(deferred_preset(DeferredOptions {
            common: PresetOptions::default(),
            ao: None,
            ..DeferredOptions::default()
        })),
    ];
    for (i, preset) in presets.into_iter().enumerate() {
        let (mut engine, decal) = engine_with_a_decal(preset);
        engine.frame().unwrap();
        let seen = centre_pixel(&mut engine);
        assert!(is_red(seen), "preset {i}: {seen:?}");
        engine.scene_mut().set_enabled(decal, false).unwrap();
        engine.frame().unwrap();
        let seen = centre_pixel(&mut engine);
        assert!(!is_red(seen), "preset {i}, switched off: {seen:?}");
    }
}
