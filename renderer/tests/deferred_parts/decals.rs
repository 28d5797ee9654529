//! Projected decals in every preset: a red decal on the floor shows inside
//! its footprint and nowhere else; a wall at 90 degrees to the projection
//! shows none under a 60-degree fade (and shows it with no fade); of two
//! overlapping decals the higher order wins; a camera inside the box still
//! sees it, through a mirrored box too; normal and roughness maps change
//! the shading; bad decals are skipped without a panic.

use glam::{Affine3A, Quat, Vec3, Vec4};
use taos_renderer::features::{DecalDraw, DecalFeature, SkyOption};
use taos_renderer::frame::{CameraView, DrawItem, SunLight};
use taos_renderer::presets::{
    DeferredOptions, PresetOptions, deferred_preset, forward_plus_preset, forward_preset,
};
use taos_renderer::resources::{ColorSpace, MeshData, PbrMaterial, Texture, TextureId};
use taos_renderer::{FrameData, OffscreenTarget, Renderer};

use crate::support::{FORMAT, HEIGHT, WIDTH, camera, gpu};

type Preset = fn() -> Box<dyn FnOnce(&mut Renderer)>;

fn options() -> PresetOptions {
    PresetOptions {
        shadow: None,
        sky: SkyOption::None,
        ..PresetOptions::default()
    }
}

/// The three presets, with nothing on that blurs or jitters.
const PRESETS: [(&str, Preset); 3] = [
    ("forward", || Box::new(forward_preset(options()))),
    ("forward-plus", || Box::new(forward_plus_preset(options()))),
    ("deferred", || {
        Box::new(deferred_preset(DeferredOptions {
            common: options(),
            ao: None,
            ..DeferredOptions::default()
        }))
    }),
];

/// The scene's textures: solid red, blue and white colours; a normal map
/// leaning every normal 37 degrees towards the box's -X; roughness maps
/// of 0.05 and 1.
struct Textures {
    red: TextureId,
    blue: TextureId,
    white: TextureId,
    leaning: TextureId,
    smooth: TextureId,
    rough: TextureId,
}

/// A grey floor and, with `wall`, a grey wall facing the camera whose
/// front (z = -1) stands on the floor's far edge of the decal box.
fn scene(renderer: &mut Renderer, wall: bool) -> (Vec<DrawItem>, Textures) {
    let (assets, gpu) = renderer.assets_mut();
    let solid = |assets: &mut taos_renderer::resources::Assets, rgba: [u8; 4], space| {
        let image = image::RgbaImage::from_pixel(4, 4, image::Rgba(rgba));
        let texture = Texture::from_rgba8(gpu, "decal", &image, space).unwrap();
        assets.add_texture(texture)
    };
    let textures = Textures {
        red: solid(assets, [255, 0, 0, 255], ColorSpace::Srgb),
        blue: solid(assets, [0, 0, 255, 255], ColorSpace::Srgb),
        white: solid(assets, [255; 4], ColorSpace::Srgb),
        // (-0.6, 0, 0.8) encoded as (n + 1) / 2.
        leaning: solid(assets, [51, 128, 230, 255], ColorSpace::Linear),
        smooth: solid(assets, [0, 13, 0, 255], ColorSpace::Linear),
        rough: solid(assets, [0, 255, 0, 255], ColorSpace::Linear),
    };
    let plane = assets.add_mesh(gpu, "floor", &MeshData::plane(20.0));
    let cube = assets.add_mesh(gpu, "wall", &MeshData::cube(1.0));
    let grey = assets.add_material(PbrMaterial {
        roughness: 0.8,
        ..PbrMaterial::color(Vec3::splat(0.7))
    });
    let mut items = vec![DrawItem {
        mesh: plane,
        material: grey,
        world: Affine3A::IDENTITY,
        cast_shadows: false,
    }];
    if wall {
        items.push(DrawItem {
            mesh: cube,
            material: grey,
            world: Affine3A::from_scale_rotation_translation(
                Vec3::new(4.0, 2.0, 0.2),
                Quat::IDENTITY,
                Vec3::new(0.0, 1.0, -1.1),
            ),
            cast_shadows: false,
        });
    }
    (items, textures)
}

/// A decal box over the floor around `center`, `size` across, `depth`
/// tall, projecting straight down (its +Z turned to the world's +Y).
fn floor_decal(center: Vec3, size: f32, depth: f32, texture: TextureId) -> DecalDraw {
    let world = Affine3A::from_scale_rotation_translation(
        Vec3::new(size, size, depth),
        Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
        center,
    );
    DecalDraw::new(world, texture)
}

/// Renders the scene (with the wall or not) and the decals `decals` picks
/// from its textures, twice (the second frame is read back), seen by
/// `camera`.
fn render(
    preset: Preset,
    wall: bool,
    camera: CameraView,
    decals: impl FnOnce(&Textures) -> Vec<DecalDraw>,
) -> (Vec<u8>, Renderer) {
    let gpu = gpu();
    let target = OffscreenTarget::new(&gpu, WIDTH, HEIGHT, FORMAT).unwrap();
    let mut renderer = Renderer::new(gpu, FORMAT);
    preset()(&mut renderer);
    let (items, textures) = scene(&mut renderer, wall);
    let mut data = FrameData {
        camera,
        size: (WIDTH, HEIGHT),
        decals: decals(&textures),
        ..FrameData::default()
    };
    data.lights.sun = Some(SunLight {
        direction: Vec3::new(-0.3, -1.0, -0.2).normalize(),
        color: Vec3::ONE,
        intensity: 2.0,
        cast_shadows: false,
        cascades: Default::default(),
    });
    data.buckets
        .fill(items.iter().copied(), renderer.assets(), &data.camera);
    renderer.render(&mut data, target.texture()).unwrap();
    renderer.render(&mut data, target.texture()).unwrap();
    (target.read_rgba8(renderer.gpu()).unwrap(), renderer)
}

fn default_camera() -> CameraView {
    camera((WIDTH, HEIGHT))
}

/// The pixel `world` lands on.
fn pixel_of(camera: &CameraView, world: Vec3) -> (usize, usize) {
    let ndc = (camera.projection * camera.view).project_point3(world);
    let x = (ndc.x + 1.0) * 0.5 * WIDTH as f32;
    let y = (1.0 - ndc.y) * 0.5 * HEIGHT as f32;
    (x as usize, y as usize)
}

fn rgb(pixels: &[u8], (x, y): (usize, usize)) -> [u8; 3] {
    let at = (y * WIDTH as usize + x) * 4;
    [pixels[at], pixels[at + 1], pixels[at + 2]]
}

fn is_red([r, g, b]: [u8; 3]) -> bool {
    r > 60 && r > g.saturating_add(40) && r > b.saturating_add(40)
}

fn is_blue([r, g, b]: [u8; 3]) -> bool {
    b > 60 && b > g.saturating_add(40) && b > r.saturating_add(40)
}

/// Pixels whose channels differ by more than `tolerance`.
fn changed(a: &[u8], b: &[u8], tolerance: u8) -> Vec<usize> {
    a.chunks(4)
        .zip(b.chunks(4))
        .enumerate()
        .filter(|(_, (a, b))| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > tolerance))
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn a_floor_decal_shows_inside_its_footprint_and_nowhere_else_in_every_preset() {
    let camera = default_camera();
    let center = Vec3::new(0.5, 0.0, 0.5);
    for (name, preset) in PRESETS {
        let (plain, _) = render(preset, false, camera, |_| Vec::new());
        let (decal, renderer) = render(preset, false, camera, |t| {
            vec![floor_decal(center, 2.0, 1.0, t.red)]
        });
        let decals = renderer.feature::<DecalFeature>().unwrap();
        assert_eq!(decals.drawn(), 1, "{name}");
        let inside = pixel_of(&camera, center);
        assert!(
            !is_red(rgb(&plain, inside)),
            "{name}: {:?}",
            rgb(&plain, inside)
        );
        assert!(
            is_red(rgb(&decal, inside)),
            "{name}: {:?}",
            rgb(&decal, inside)
        );
        // Every changed pixel lies on the footprint (x, z within 1 of the
        // centre), give or take its edge pixels.
        let footprint = |i: usize| {
            let (x, y) = ((i % WIDTH as usize) as f32, (i / WIDTH as usize) as f32);
            let ground = crate::support::ground_at_pixel(&camera, x + 0.5, y + 0.5);
            (ground - center).abs().max_element() <= 1.0 + 0.15
        };
        let changed = changed(&plain, &decal, 2);
        assert!(changed.len() > 100, "{name}: {} pixels", changed.len());
        let stray: Vec<_> = changed.iter().filter(|&&i| !footprint(i)).collect();
        assert!(stray.is_empty(), "{name}: changed outside: {stray:?}");
    }
}

#[test]
fn a_wall_at_right_angles_to_the_projection_shows_no_decal_under_the_fade() {
    let camera = default_camera();
    // The box reaches 1.5 m up the wall (its front face at z = -1).
    let decal = |texture, fade_angle| DecalDraw {
        fade_angle,
        ..floor_decal(Vec3::new(0.0, 0.0, -0.5), 2.0, 3.0, texture)
    };
    let on_wall = pixel_of(&camera, Vec3::new(0.0, 0.9, -1.0));
    let on_floor = pixel_of(&camera, Vec3::new(0.0, 0.0, -0.2));
    for (name, preset) in PRESETS {
        let (plain, _) = render(preset, true, camera, |_| Vec::new());
        let (faded, _) = render(preset, true, camera, |t| {
            vec![decal(t.red, 60f32.to_radians())]
        });
        assert!(
            is_red(rgb(&faded, on_floor)),
            "{name}: {:?}",
            rgb(&faded, on_floor)
        );
        let wall = rgb(&faded, on_wall);
        assert!(!is_red(wall), "{name}: {wall:?}");
        assert!(
            max_channel_difference(wall, rgb(&plain, on_wall)) <= 2,
            "{name}: {wall:?} vs {:?}",
            rgb(&plain, on_wall)
        );
        // Not vacuous: with no fade the same wall pixel shows the decal.
        let (unfaded, _) = render(preset, true, camera, |t| {
            vec![decal(t.red, std::f32::consts::PI)]
        });
        assert!(
            is_red(rgb(&unfaded, on_wall)),
            "{name}: {:?}",
            rgb(&unfaded, on_wall)
        );
    }
}

fn max_channel_difference(a: [u8; 3], b: [u8; 3]) -> u8 {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.abs_diff(y))
        .max()
        .unwrap_or(0)
}

#[test]
fn of_two_overlapping_decals_the_higher_order_wins() {
    let camera = default_camera();
    let at = pixel_of(&camera, Vec3::ZERO);
    for (name, preset) in PRESETS {
        // Red first in the list but drawn on top by its order, then the
        // other way round.
        for (red_order, blue_order) in [(1, 0), (0, 1)] {
            let (pixels, _) = render(preset, false, camera, |t| {
                vec![
                    DecalDraw {
                        order: red_order,
                        ..floor_decal(Vec3::ZERO, 2.0, 1.0, t.red)
                    },
                    DecalDraw {
                        order: blue_order,
                        ..floor_decal(Vec3::new(0.3, 0.0, 0.3), 2.0, 1.0, t.blue)
                    },
                ]
            });
            let seen = rgb(&pixels, at);
            let red_wins = red_order > blue_order;
            assert!(
                if red_wins {
                    is_red(seen)
                } else {
                    is_blue(seen)
                },
                "{name}: red order {red_order}, blue {blue_order}: {seen:?}"
            );
        }
    }
}

/// A camera 4 m up, looking down at the origin from 2 m to the side.
fn camera_above() -> CameraView {
    let eye = Vec3::new(0.0, 4.0, 2.0);
    CameraView {
        view: glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, Vec3::Y),
        position: eye,
        forward: (-eye).normalize(),
        ..default_camera()
    }
}

#[test]
fn a_camera_inside_the_box_still_sees_the_decal() {
    // Inside a 10 m tall box over the floor.
    let camera = camera_above();
    for (name, preset) in PRESETS {
        let (pixels, _) = render(preset, false, camera, |t| {
            vec![floor_decal(Vec3::ZERO, 20.0, 10.0, t.red)]
        });
        let seen = rgb(&pixels, pixel_of(&camera, Vec3::ZERO));
        assert!(is_red(seen), "{name}: {seen:?}");
    }
}

#[test]
fn bad_decals_are_skipped_without_a_panic() {
    let camera = default_camera();
    for (name, preset) in PRESETS {
        let (plain, _) = render(preset, false, camera, |_| Vec::new());
        let (bad, renderer) = render(preset, false, camera, |t| {
            let good = floor_decal(Vec3::ZERO, 2.0, 1.0, t.red);
            vec![
                DecalDraw {
                    world: Affine3A::from_translation(Vec3::NAN),
                    ..good
                },
                DecalDraw {
                    world: Affine3A::from_scale(Vec3::new(2.0, 0.0, 2.0)),
                    ..good
                },
                DecalDraw {
                    tint: Vec4::new(1.0, f32::NAN, 1.0, 1.0),
                    ..good
                },
                DecalDraw {
                    base_color: TextureId(9999),
                    ..good
                },
                DecalDraw {
                    normal: Some(TextureId(4242)),
                    ..good
                },
            ]
        });
        assert_eq!(renderer.feature::<DecalFeature>().unwrap().drawn(), 0);
        assert_eq!(changed(&plain, &bad, 0), Vec::<usize>::new(), "{name}");
    }
}

#[test]
fn normal_and_roughness_maps_change_the_shading_under_the_decal() {
    let camera = default_camera();
    let at = pixel_of(&camera, Vec3::ZERO);
    // The floor's own grey, so only the maps change the picture.
    let grey = |texture| DecalDraw {
        tint: Vec4::new(0.7, 0.7, 0.7, 1.0),
        ..floor_decal(Vec3::ZERO, 2.0, 1.0, texture)
    };
    for (name, preset) in PRESETS {
        let (flat, _) = render(preset, false, camera, |t| vec![grey(t.white)]);
        let (leaning, _) = render(preset, false, camera, |t| {
            vec![DecalDraw {
                normal: Some(t.leaning),
                ..grey(t.white)
            }]
        });
        // The sun comes from +X: normals leaning to -X catch less of it.
        let (flat_at, leaning_at) = (rgb(&flat, at), rgb(&leaning, at));
        assert!(
            leaning_at[1].saturating_add(10) < flat_at[1],
            "{name}: {leaning_at:?} vs {flat_at:?}"
        );
        // Seen from where the sun's mirror image lies in the floor's
        // centre, the smooth map shows a highlight the rough one spreads.
        let eye = Vec3::new(-0.3, 1.0, -0.2) * 6.0;
        let mirror = CameraView {
            view: glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, Vec3::Y),
            position: eye,
            forward: (-eye).normalize(),
            ..camera
        };
        let with_roughness = |roughness: fn(&Textures) -> TextureId| {
            move |t: &Textures| {
                vec![DecalDraw {
                    roughness: Some(roughness(t)),
                    ..grey(t.white)
                }]
            }
        };
        let (smooth, _) = render(preset, false, mirror, with_roughness(|t| t.smooth));
        let (rough, _) = render(preset, false, mirror, with_roughness(|t| t.rough));
        let at = pixel_of(&mirror, Vec3::ZERO);
        let (smooth_at, rough_at) = (rgb(&smooth, at), rgb(&rough, at));
        assert!(
            smooth_at[1] > rough_at[1].saturating_add(20),
            "{name}: {smooth_at:?} vs {rough_at:?}"
        );
    }
}

#[test]
fn a_mirrored_box_draws_like_the_box_it_mirrors() {
    // From inside the box: a box drawn with the wrong faces culled would
    // show nothing there.
    let camera = camera_above();
    for (name, preset) in PRESETS {
        let decal = |t: &Textures| floor_decal(Vec3::ZERO, 20.0, 10.0, t.red);
        let (kept, _) = render(preset, false, camera, |t| vec![decal(t)]);
        let (mirrored, _) = render(preset, false, camera, |t| {
            let decal = decal(t);
            vec![DecalDraw {
                world: decal.world * Affine3A::from_scale(Vec3::new(-1.0, 1.0, 1.0)),
                ..decal
            }]
        });
        assert!(
            is_red(rgb(&mirrored, pixel_of(&camera, Vec3::ZERO))),
            "{name}"
        );
        assert!(changed(&kept, &mirrored, 1).len() < 8, "{name}");
    }
}
