//! Switching features off and on without removing them, on a real adapter
//! (lavapipe in CI): the graph chains around a feature that is off, the
//! features that read its slots do without, switching back on rebuilds
//! nothing, and letting features go destroys each once.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::Vec3;
use support::*;
use taos_renderer::features::{
    AoFeature, BloomFeature, DeferredLightingFeature, DofFeature, ForwardOverlayFeature,
    ForwardPlusFeature, GeometryFeature, PointSpotLightFeature, PointSpotMethod, ShadowFeature,
    SkyFeature, TaaFeature, TonemapFeature,
};
use taos_renderer::frame::SunLight;
use taos_renderer::presets::{
    DeferredOptions, PresetOptions, deferred_preset, forward_plus_preset, forward_preset,
};
use taos_renderer::{
    FeatureMissing, FeatureSetup, Frame, FrameData, OffscreenTarget, RenderFeature, Renderer,
};

/// What a [`Counting`] feature was asked to do.
#[derive(Debug, Default)]
struct Calls {
    setups: AtomicUsize,
    passes: AtomicUsize,
    destroys: AtomicUsize,
}

/// A feature that draws nothing and counts its calls.
struct Counting(Arc<Calls>);

impl RenderFeature for Counting {
    fn name(&self) -> &'static str {
        "Counting"
    }

    fn setup(&mut self, _setup: FeatureSetup<'_>) {
        self.0.setups.fetch_add(1, Ordering::Relaxed);
    }

    fn add_passes<'a>(&'a self, _frame: &mut Frame<'a>) {
        self.0.passes.fetch_add(1, Ordering::Relaxed);
    }

    fn destroy(&mut self) {
        self.0.destroys.fetch_add(1, Ordering::Relaxed);
    }
}

fn count(counter: &AtomicUsize) -> usize {
    counter.load(Ordering::Relaxed)
}

/// The support scene with a shadow-casting sun.
fn sunlit_data(renderer: &mut Renderer) -> FrameData {
    let items = scene(renderer);
    let mut data = frame_data(renderer, &items, 4, (WIDTH, HEIGHT));
    data.lights.sun = Some(SunLight {
        direction: Vec3::new(-0.3, -1.0, -0.2).normalize(),
        color: Vec3::ONE,
        intensity: 2.0,
        cast_shadows: true,
        cascades: Default::default(),
    });
    data
}

/// Renders one frame; returns its pixels and the names of the passes that ran.
fn frame(renderer: &mut Renderer, data: &mut FrameData) -> (Vec<u8>, Vec<&'static str>) {
    let target = OffscreenTarget::new(renderer.gpu(), WIDTH, HEIGHT, FORMAT).unwrap();
    renderer.render(data, target.texture()).unwrap();
    let passes = renderer
        .last_graph()
        .executed()
        .map(|pass| pass.name)
        .collect();
    (target.read_rgba8(renderer.gpu()).unwrap(), passes)
}

/// The first frame of a renderer that `setup` builds, over the sunlit scene.
fn first_frame(setup: impl FnOnce(&mut Renderer)) -> Vec<u8> {
    let mut renderer = Renderer::new(gpu(), FORMAT);
    setup(&mut renderer);
    let mut data = sunlit_data(&mut renderer);
    frame(&mut renderer, &mut data).0
}

fn assert_same(a: &[u8], b: &[u8], what: &str) {
    let (difference, at) = max_difference(a, b);
    assert!(
        difference <= 1,
        "{what}: differs by {difference} at pixel {at}"
    );
}

fn with_bloom() -> PresetOptions {
    PresetOptions {
        bloom: Some(Default::default()),
        ..PresetOptions::default()
    }
}

#[test]
fn a_feature_switched_off_is_skipped_and_comes_back_without_a_rebuild() {
    let mut renderer = Renderer::new(gpu(), FORMAT);
    forward_preset(with_bloom())(&mut renderer);
    let calls = Arc::new(Calls::default());
    renderer.add_feature(Counting(Arc::clone(&calls)));
    let mut data = sunlit_data(&mut renderer);
    let (bloomed, passes) = frame(&mut renderer, &mut data);
    assert!(passes.contains(&"bloom composite"), "{passes:?}");

    renderer.set_enabled::<BloomFeature>(false).unwrap();
    renderer.set_enabled::<Counting>(false).unwrap();
    assert_eq!(renderer.feature_enabled::<BloomFeature>(), Some(false));
    let (plain, passes) = frame(&mut renderer, &mut data);
    assert!(
        !passes.iter().any(|pass| pass.starts_with("bloom")),
        "{passes:?}"
    );
    assert_eq!(count(&calls.passes), 1, "no add_passes while off");
    // The chain runs around bloom: the picture of a preset without it.
    let never_bloomed = first_frame(forward_preset(PresetOptions::default()));
    assert_same(&plain, &never_bloomed, "bloom off");

    renderer.set_enabled::<BloomFeature>(true).unwrap();
    renderer.set_enabled::<Counting>(true).unwrap();
    let (again, passes) = frame(&mut renderer, &mut data);
    assert!(passes.contains(&"bloom composite"), "{passes:?}");
    assert_same(&again, &bloomed, "bloom back on");
    assert_eq!(
        count(&calls.setups),
        1,
        "switching on sets nothing up again"
    );
    assert_eq!(count(&calls.passes), 2);
    assert_eq!(count(&calls.destroys), 0);
    assert_eq!(
        renderer.feature_states().collect::<Vec<_>>(),
        [
            ("Shadow", true),
            ("Sky", true),
            ("ForwardLit", true),
            ("Decals", true),
            ("Particles", true),
            ("Bloom", true),
            ("Tonemap", true),
            ("Counting", true),
        ]
    );
}

#[test]
fn without_the_shadow_feature_every_lit_path_shades_unshadowed() {
    type Preset = fn(PresetOptions) -> Box<dyn FnOnce(&mut Renderer)>;
    let presets: [(&str, Preset); 3] = [
        ("forward", |options| Box::new(forward_preset(options))),
        ("forward-plus", |options| {
            Box::new(forward_plus_preset(options))
        }),
        ("deferred", |common| {
            Box::new(deferred_preset(DeferredOptions {
                common,
                ..DeferredOptions::default()
            }))
        }),
    ];
    for (name, preset) in presets {
        let mut renderer = Renderer::new(gpu(), FORMAT);
        preset(PresetOptions::default())(&mut renderer);
        let mut data = sunlit_data(&mut renderer);
        let (shadowed, passes) = frame(&mut renderer, &mut data);
        assert!(passes.contains(&"shadow cascades"), "{name}: {passes:?}");
        renderer.set_enabled::<ShadowFeature>(false).unwrap();
        let (unshadowed, passes) = frame(&mut renderer, &mut data);
        assert!(!passes.contains(&"shadow cascades"), "{name}: {passes:?}");
        assert!(
            max_difference(&shadowed, &unshadowed).0 > 20,
            "{name}: the shadows went"
        );
        let never_shadowed = first_frame(preset(PresetOptions {
            shadow: None,
            ..PresetOptions::default()
        }));
        assert_same(&unshadowed, &never_shadowed, name);
    }
}

#[test]
fn without_the_sky_the_lit_pass_starts_the_hdr_chain() {
    let mut renderer = Renderer::new(gpu(), FORMAT);
    forward_preset(PresetOptions::default())(&mut renderer);
    let mut data = sunlit_data(&mut renderer);
    renderer.set_enabled::<SkyFeature>(false).unwrap();
    let (pixels, passes) = frame(&mut renderer, &mut data);
    assert!(!passes.contains(&"sky"), "{passes:?}");
    assert!(passes.contains(&"tonemap"), "{passes:?}");
    assert!(
        pixels.chunks(4).any(|pixel| pixel[0] > 40),
        "the scene is lit"
    );
}

/// Switches one feature: `Renderer::set_enabled::<F>`.
type Switch = fn(&mut Renderer, bool) -> Result<(), FeatureMissing>;

#[test]
fn every_built_in_feature_can_be_switched_off_and_on_again() {
    let everything = PresetOptions {
        taa: Some(Default::default()),
        dof: Some(Default::default()),
        bloom: Some(Default::default()),
        ..PresetOptions::default()
    };
    let deferred: [Switch; 11] = [
        Renderer::set_enabled::<ShadowFeature>,
        Renderer::set_enabled::<GeometryFeature>,
        Renderer::set_enabled::<AoFeature>,
        Renderer::set_enabled::<SkyFeature>,
        Renderer::set_enabled::<DeferredLightingFeature>,
        Renderer::set_enabled::<PointSpotLightFeature>,
        Renderer::set_enabled::<ForwardOverlayFeature>,
        Renderer::set_enabled::<TaaFeature>,
        Renderer::set_enabled::<DofFeature>,
        Renderer::set_enabled::<BloomFeature>,
        Renderer::set_enabled::<TonemapFeature>,
    ];
    let forward_plus: [Switch; 1] = [Renderer::set_enabled::<ForwardPlusFeature>];
    let mut renderers = [
        (Renderer::new(gpu(), FORMAT), &deferred[..]),
        (Renderer::new(gpu(), FORMAT), &forward_plus[..]),
    ];
    deferred_preset(DeferredOptions {
        common: everything.clone(),
        point_spot_lights: Some(Some(PointSpotMethod::Tiled)),
        ..DeferredOptions::default()
    })(&mut renderers[0].0);
    forward_plus_preset(everything)(&mut renderers[1].0);
    for (renderer, switches) in &mut renderers {
        let mut data = sunlit_data(renderer);
        let (_, all_on) = frame(renderer, &mut data);
        for (i, switch) in switches.iter().enumerate() {
            switch(renderer, false).unwrap();
            let (_, passes) = frame(renderer, &mut data);
            assert!(passes.len() < all_on.len(), "switch {i}: {passes:?}");
            switch(renderer, true).unwrap();
        }
        assert!(renderer.feature_states().all(|(_, on)| on));
        let (_, again) = frame(renderer, &mut data);
        assert_eq!(again, all_on, "the same graph once all are back on");
    }
}

#[test]
fn switching_a_feature_that_is_not_registered_is_an_error() {
    let mut renderer = Renderer::new(gpu(), FORMAT);
    forward_preset(PresetOptions::default())(&mut renderer);
    let error = renderer.set_enabled::<TaaFeature>(false).unwrap_err();
    assert_eq!(
        error,
        FeatureMissing {
            type_name: std::any::type_name::<TaaFeature>()
        }
    );
    assert!(error.to_string().contains("TaaFeature"), "{error}");
    assert_eq!(renderer.feature_enabled::<TaaFeature>(), None);
}

#[test]
fn clearing_the_features_destroys_each_once() {
    let first = Arc::new(Calls::default());
    let second = Arc::new(Calls::default());
    let mut renderer = Renderer::new(gpu(), FORMAT);
    renderer.add_feature(Counting(Arc::clone(&first)));
    renderer.clear_features();
    assert_eq!(count(&first.destroys), 1, "clear_features destroys");
    renderer.add_feature(Counting(Arc::clone(&second)));
    drop(renderer);
    assert_eq!(count(&first.destroys), 1, "not twice");
    assert_eq!(count(&second.destroys), 1, "dropping destroys");
}
