//! The forward-plus preset on a real adapter (lavapipe in CI): the same
//! scene shaded by forward (every light for every fragment) and by
//! forward-plus (each tile's culled list) must give the same picture, so
//! the culling never drops a visible contribution; overflowing tiles are
//! counted; thousands of lights are all shaded; the compiled graph matches
//! its golden dump.

mod support;

use glam::Vec3;
use support::*;
use taos_image_compare::{Tolerance, assert_matches_golden_text, assert_matches_reference};
use taos_renderer::features::{
    ForwardLitFeature, ForwardPlusFeature, LightBinding, TILE_SIZE, TonemapFeature,
    UNIFORM_LIGHT_CAP,
};
use taos_renderer::frame::SunLight;
use taos_renderer::presets::{PresetOptions, forward_plus_preset, forward_preset};
use taos_renderer::{FrameData, OffscreenTarget, Renderer};

// Forward and forward-plus run the same BRDF on the same lights; only the
// order in which a fragment sums its lights differs (tile lists are filled
// by atomic appends), so the two images may differ by float rounding: at
// most 2 of 255 per channel after tonemapping and sRGB encoding. A light
// wrongly culled from a tile would show as a tile-shaped difference far
// above that.
const SAME_IMAGE: u8 = 2;

#[test]
fn forward_plus_matches_forward_with_64_lights() {
    let (forward, forward_stats, _) = render(forward_preset(no_sun_options()), 64);
    let (plus, plus_stats, renderer) = render(forward_plus_preset(no_sun_options()), 64);
    assert_eq!(
        renderer.feature_names().collect::<Vec<_>>(),
        ["Sky", "ForwardPlus", "Decals", "Particles", "Tonemap"]
    );
    assert_eq!((forward_stats.lights, plus_stats.lights), (64, 64));
    assert_eq!(plus_stats.light_tiles_overflowed, 0);
    let (difference, at) = max_difference(&forward, &plus);
    assert!(
        difference <= SAME_IMAGE,
        "forward-plus differs from forward by {difference} at pixel ({}, {})",
        at % WIDTH as usize,
        at / WIDTH as usize
    );
    // The lights matter: without them the picture is black, so the
    // comparison above could not pass by accident.
    let (dark, _, _) = render(forward_plus_preset(no_sun_options()), 0);
    assert!(max_difference(&dark, &plus).0 > 100);
    assert_matches_reference(
        &reference_dir(),
        "forward_plus_64_lights",
        WIDTH,
        HEIGHT,
        &plus,
        Tolerance {
            per_channel: 3,
            outlier_fraction: 0.01,
        },
    );
}

#[test]
fn every_case_alone_matches_forward() {
    // Each hard case on its own (the first four lights of the scene), so a
    // wrongly culled light cannot hide behind its neighbours.
    for case in 0..4 {
        let keep = |data: &mut FrameData| {
            let (points, spots) = (data.lights.points.clone(), data.lights.spots.clone());
            data.lights.points.clear();
            data.lights.spots.clear();
            match case {
                0 | 1 => data.lights.points.push(points[case]),
                _ => data.lights.spots.push(spots[case - 2]),
            }
        };
        let mut images = Vec::new();
        for plus in [false, true] {
            let gpu = gpu();
            let target = OffscreenTarget::new(&gpu, WIDTH, HEIGHT, FORMAT).unwrap();
            let mut renderer = Renderer::new(gpu, FORMAT);
            if plus {
                forward_plus_preset(no_sun_options())(&mut renderer);
            } else {
                forward_preset(no_sun_options())(&mut renderer);
            }
            let items = scene(&mut renderer);
            let mut data = frame_data(&renderer, &items, 64, (WIDTH, HEIGHT));
            keep(&mut data);
            renderer.render(&mut data, target.texture()).unwrap();
            images.push(target.read_rgba8(renderer.gpu()).unwrap());
        }
        let lit = images[0]
            .chunks_exact(4)
            .filter(|px| px[0] > 8 || px[1] > 8)
            .count();
        assert!(lit > 20, "case {case} lights {lit} pixels only");
        let (difference, at) = max_difference(&images[0], &images[1]);
        assert!(
            difference <= SAME_IMAGE,
            "case {case}: forward-plus differs by {difference} at ({}, {})",
            at % WIDTH as usize,
            at / WIDTH as usize
        );
    }
}

#[test]
fn overflowing_tiles_are_counted_and_full_tiles_are_not() {
    let small_tiles = |renderer: &mut Renderer| {
        let mut feature = ForwardPlusFeature::new();
        feature.max_lights_per_tile = 4;
        renderer
            .add_feature(feature)
            .add_feature(TonemapFeature::new(1.0, true));
    };
    let (_, stats, _) = render(small_tiles, 64);
    let tiles = WIDTH.div_ceil(TILE_SIZE) * HEIGHT.div_ceil(TILE_SIZE);
    assert!(
        stats.light_tiles_overflowed > 0 && stats.light_tiles_overflowed <= tiles,
        "{stats:?}"
    );
    let (_, stats, _) = render(forward_plus_preset(no_sun_options()), 64);
    assert_eq!(stats.light_tiles_overflowed, 0);
}

#[test]
fn four_thousand_lights_are_all_shaded() {
    // Larger than the other cases: at 120 x 90 a tile spans a ninth of the
    // view, too coarse for 4,096 lights to stay under 256 per tile.
    let size = (320, 180);
    let (forward, forward_stats, _) = render_sized(forward_preset(no_sun_options()), 4096, size);
    let (plus, plus_stats, _) = render_sized(forward_plus_preset(no_sun_options()), 4096, size);
    assert_eq!((forward_stats.lights, plus_stats.lights), (4096, 4096));
    assert_eq!(forward_stats.lights_dropped, 0);
    assert_eq!(plus_stats.light_tiles_overflowed, 0);
    let (difference, _) = max_difference(&forward, &plus);
    assert!(difference <= SAME_IMAGE, "differs by {difference}");
}

#[test]
fn the_forward_uniform_fallback_reports_what_it_drops() {
    let uniform = |renderer: &mut Renderer| {
        let mut feature = ForwardLitFeature::new();
        feature.light_binding = Some(LightBinding::Uniform);
        renderer
            .add_feature(feature)
            .add_feature(TonemapFeature::new(1.0, true));
    };
    let (_, stats, _) = render(uniform, 200);
    assert_eq!(stats.lights as usize, UNIFORM_LIGHT_CAP);
    assert_eq!(stats.lights_dropped as usize, 200 - UNIFORM_LIGHT_CAP);
    // Below the cap the fallback shades exactly what the storage path does.
    let (fallback, stats, _) = render(uniform, 64);
    assert_eq!(stats.lights_dropped, 0);
    let storage = |renderer: &mut Renderer| {
        renderer
            .add_feature(ForwardLitFeature::new())
            .add_feature(TonemapFeature::new(1.0, true));
    };
    let (pixels, _, _) = render(storage, 64);
    assert!(max_difference(&fallback, &pixels).0 <= SAME_IMAGE);
}

#[test]
fn repeated_meshes_are_drawn_instanced() {
    let (_, stats, _) = render(forward_preset(no_sun_options()), 4);
    // Ground, shiny boxes, shiny balls: three opaque batches, one glass ball.
    assert_eq!(stats.draw_calls, 4, "{stats:?}");
    let one_per_item = |renderer: &mut Renderer| {
        let mut feature = ForwardLitFeature::new();
        feature.instancing = false;
        renderer.add_feature(feature);
    };
    let (_, stats, _) = render(one_per_item, 4);
    assert_eq!(stats.draw_calls, 10);
}

#[test]
fn forward_plus_graph_matches_its_golden_dump() {
    let gpu = gpu();
    let target = OffscreenTarget::new(&gpu, WIDTH, HEIGHT, FORMAT).unwrap();
    let mut renderer = Renderer::new(gpu, FORMAT);
    forward_plus_preset(PresetOptions::default())(&mut renderer);
    let items = scene(&mut renderer);
    let mut data = frame_data(&renderer, &items, 64, (WIDTH, HEIGHT));
    data.lights.sun = Some(SunLight {
        direction: Vec3::new(-0.3, -1.0, -0.2).normalize(),
        color: Vec3::ONE,
        intensity: 2.0,
        cast_shadows: true,
        cascades: Default::default(),
    });
    let dump = renderer
        .dump_graph(&mut data, target.texture(), false)
        .unwrap();
    assert_matches_golden_text(&reference_dir(), "forward_plus_preset_graph.mmd", &dump);
}
