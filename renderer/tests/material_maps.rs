//! The material's texture slots on a real adapter (lavapipe in CI): normal,
//! occlusion, emissive and metallic-roughness maps, coordinate sets and
//! transforms, samplers, vertex colours, double-sided and unlit materials.
//! Each test renders a flat square seen from straight above (or below) and
//! compares mean colours between materials.

mod support;

use glam::{Affine3A, Vec2, Vec3, Vec4};
use support::{FORMAT, gpu};
use taos_renderer::features::{ForwardLitFeature, SkyOption};
use taos_renderer::frame::{CameraView, DrawItem, SunLight};
use taos_renderer::presets::{
    DeferredOptions, PresetOptions, deferred_preset, forward_plus_preset, forward_preset,
};
use taos_renderer::resources::{
    ColorSpace, Filter, MeshData, PbrMaterial, Texture, TextureSampler, TextureSlot, UvTransform,
    Vertex, Wrap,
};
use taos_renderer::{FrameData, OffscreenTarget, Renderer};

const SIZE: u32 = 32;
const SKY: Vec3 = Vec3::new(0.0, 0.0, 1.0);

/// A preset for one test (a closure that registers its features).
type Preset = Box<dyn FnOnce(&mut Renderer)>;

fn forward() -> Preset {
    Box::new(forward_preset(options()))
}

/// No tonemap curve, no shadows, a blue background.
fn options() -> PresetOptions {
    PresetOptions {
        sky: SkyOption::Color(SKY),
        shadow: None,
        aces: false,
        ..PresetOptions::default()
    }
}

/// What a test draws: the mesh and the material, made with the renderer's
/// GPU at hand (for textures).
struct Subject {
    mesh: MeshData,
    material: PbrMaterial,
}

/// How the square is lit and seen.
#[derive(Clone, Copy)]
struct Lighting {
    /// Direction the sunlight travels, or none.
    sun: Option<Vec3>,
    ambient: f32,
    /// Seen from below (the square's back face).
    from_below: bool,
}

const SUN_FROM_PLUS_X: Lighting = Lighting {
    sun: Some(Vec3::new(-1.0, -1.0, 0.0)),
    ambient: 0.0,
    from_below: false,
};

const AMBIENT_ONLY: Lighting = Lighting {
    sun: None,
    ambient: 0.5,
    from_below: false,
};

/// Renders `make`'s subject, 4 m across, filling a 32 x 32 view; returns
/// linear RGB per pixel.
fn render(
    preset: Preset,
    lighting: Lighting,
    make: impl FnOnce(&mut Renderer) -> Subject,
) -> Vec<Vec3> {
    let gpu = gpu();
    let target = OffscreenTarget::new(&gpu, SIZE, SIZE, FORMAT).unwrap();
    let mut renderer = Renderer::new(gpu, FORMAT);
    preset(&mut renderer);
    if let Some(forward) = renderer.feature_mut::<ForwardLitFeature>() {
        forward.ambient = Vec3::splat(lighting.ambient).into();
    }
    let subject = make(&mut renderer);
    let (assets, gpu) = renderer.assets_mut();
    let item = DrawItem {
        mesh: assets.add_mesh(gpu, "square", &subject.mesh),
        material: assets.add_material(subject.material),
        world: Affine3A::IDENTITY,
        cast_shadows: false,
    };
    let height = if lighting.from_below { -3.0 } else { 3.0 };
    let eye = Vec3::new(0.0, height, 0.0);
    // Above: image right is +X, image up is -Z (u right, v down the image).
    let view = glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, Vec3::NEG_Z);
    let mut data = FrameData {
        camera: CameraView {
            view,
            projection: glam::camera::rh::proj::directx::perspective(
                40f32.to_radians(),
                1.0,
                0.1,
                10.0,
            ),
            position: eye,
            forward: -eye.normalize(),
            near: 0.1,
            far: 10.0,
        },
        size: (SIZE, SIZE),
        ..FrameData::default()
    };
    data.lights.sun = lighting.sun.map(|direction| SunLight {
        direction: direction.normalize(),
        color: Vec3::ONE,
        intensity: 1.0,
        cast_shadows: false,
        cascades: Default::default(),
    });
    data.buckets.fill([item], renderer.assets(), &data.camera);
    renderer.render(&mut data, target.texture()).unwrap();
    let pixels = target.read_rgba8(renderer.gpu()).unwrap();
    pixels
        .chunks(4)
        .map(|p| Vec3::new(linear(p[0]), linear(p[1]), linear(p[2])))
        .collect()
}

fn linear(encoded: u8) -> f32 {
    let c = f32::from(encoded) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn mean(pixels: &[Vec3]) -> Vec3 {
    pixels.iter().copied().sum::<Vec3>() / pixels.len() as f32
}

/// Mean of the columns `columns` (all rows).
fn mean_columns(pixels: &[Vec3], columns: std::ops::Range<u32>) -> Vec3 {
    let chosen: Vec<Vec3> = (0..SIZE)
        .flat_map(|y| columns.clone().map(move |x| (x, y)))
        .map(|(x, y)| pixels[(y * SIZE + x) as usize])
        .collect();
    mean(&chosen)
}

/// A texture of one colour (`rgba` in 0..255).
fn solid(renderer: &mut Renderer, rgba: [u8; 4], space: ColorSpace) -> TextureSlot {
    texture(renderer, 1, 1, &rgba, space)
}

fn texture(
    renderer: &mut Renderer,
    width: u32,
    height: u32,
    rgba: &[u8],
    space: ColorSpace,
) -> TextureSlot {
    let image = image::RgbaImage::from_raw(width, height, rgba.to_vec()).unwrap();
    let (assets, gpu) = renderer.assets_mut();
    let texture = Texture::from_rgba8(gpu, "test texture", &image, space).unwrap();
    TextureSlot::new(assets.add_texture(texture))
}

/// A tangent-space normal tilted by `degrees` towards +x (the tangent), as
/// a normal texture stores it.
fn tilted_normal(degrees: f32) -> [u8; 4] {
    let (sin, cos) = degrees.to_radians().sin_cos();
    let encode = |v: f32| ((v * 0.5 + 0.5) * 255.0).round() as u8;
    [encode(sin), encode(0.0), encode(cos), 255]
}

fn white_square() -> MeshData {
    MeshData::plane(4.0)
}

/// The square without tangents: the shader derives them.
fn square_without_tangents() -> MeshData {
    let plane = MeshData::plane(4.0);
    let vertices = plane
        .vertices()
        .iter()
        .map(|v| {
            Vertex::new(
                Vec3::from(v.position),
                Vec3::from(v.normal),
                Vec2::from(v.uv),
            )
        })
        .collect();
    MeshData::new(vertices, plane.indices().to_vec()).unwrap()
}

fn normal_mapped(mesh: fn() -> MeshData, degrees: Option<f32>, scale: f32) -> Vec3 {
    mean(&render(forward(), SUN_FROM_PLUS_X, |renderer| Subject {
        mesh: mesh(),
        material: PbrMaterial {
            normal_texture: degrees.map(|d| solid(renderer, tilted_normal(d), ColorSpace::Linear)),
            normal_scale: scale,
            roughness: 1.0,
            ..PbrMaterial::default()
        },
    }))
}

#[test]
fn a_normal_map_turns_the_surface_towards_or_away_from_the_sun() {
    for mesh in [white_square as fn() -> MeshData, square_without_tangents] {
        let flat = normal_mapped(mesh, None, 1.0).x;
        let towards = normal_mapped(mesh, Some(30.0), 1.0).x;
        let away = normal_mapped(mesh, Some(-30.0), 1.0).x;
        let unscaled = normal_mapped(mesh, Some(30.0), 0.0).x;
        eprintln!("flat {flat:.3}, towards {towards:.3}, away {away:.3}, scale 0 {unscaled:.3}");
        // The sun comes in at 45 degrees: N.L goes from cos 45 (0.71) to
        // cos 15 (0.97) towards it and cos 75 (0.26) away from it.
        assert!(towards > flat * 1.2, "towards: {towards} vs {flat}");
        assert!(away < flat * 0.6, "away: {away} vs {flat}");
        assert!(
            (unscaled - flat).abs() < 0.02,
            "scale 0: {unscaled} vs {flat}"
        );
    }
}

fn occluded(strength: f32, tex_coord: u32, uv1: Option<Vec2>) -> Vec3 {
    mean(&render(forward(), AMBIENT_ONLY, |renderer| {
        // Left texel 25% open, right texel fully open.
        let occlusion = texture(
            renderer,
            2,
            1,
            &[64, 0, 0, 255, 255, 0, 0, 255],
            ColorSpace::Linear,
        )
        .with_tex_coord(tex_coord)
        .with_sampler(TextureSampler {
            mag: Filter::Nearest,
            min: Filter::Nearest,
            mipmap: None,
            ..TextureSampler::default()
        })
        .with_transform(UvTransform {
            // Every point reads the left texel.
            scale: Vec2::ZERO,
            offset: Vec2::new(0.25, 0.5),
            ..UvTransform::default()
        });
        let mut mesh = white_square();
        if let Some(uv1) = uv1 {
            let vertices = mesh.vertices().iter().map(|v| v.with_uv1(uv1)).collect();
            mesh = MeshData::new(vertices, mesh.indices().to_vec()).unwrap();
        }
        Subject {
            mesh,
            material: PbrMaterial {
                occlusion_texture: Some(occlusion),
                occlusion_strength: strength,
                ..PbrMaterial::default()
            },
        }
    }))
}

#[test]
fn occlusion_darkens_the_ambient_light_by_its_strength() {
    let open = occluded(0.0, 0, None).x;
    let full = occluded(1.0, 0, None).x;
    let half = occluded(0.5, 0, None).x;
    eprintln!("open {open:.3}, strength 1 {full:.3}, strength 0.5 {half:.3}");
    // 64/255 = 0.25 of the light at full strength, 0.63 at half.
    assert!((full / open - 0.25).abs() < 0.03, "{full} / {open}");
    assert!((half / open - 0.63).abs() < 0.04, "{half} / {open}");
}

#[test]
fn a_texture_transform_and_the_second_coordinate_set_choose_the_texel() {
    let on_set_0 = occluded(1.0, 0, None).x;
    // The same slot on coordinate set 1, whose transform still pins the
    // left texel: the set does not matter with a zero scale...
    let on_set_1 = occluded(1.0, 1, Some(Vec2::new(0.75, 0.5))).x;
    assert!((on_set_0 - on_set_1).abs() < 0.01);
    // ...while an identity transform on set 1 reads the right texel (open).
    let open = mean(&render(forward(), AMBIENT_ONLY, |renderer| {
        let occlusion = texture(
            renderer,
            2,
            1,
            &[64, 0, 0, 255, 255, 0, 0, 255],
            ColorSpace::Linear,
        )
        .with_tex_coord(1);
        let square = white_square();
        let vertices = square
            .vertices()
            .iter()
            .map(|v| v.with_uv1(Vec2::new(0.75, 0.5)))
            .collect();
        Subject {
            mesh: MeshData::new(vertices, square.indices().to_vec()).unwrap(),
            material: PbrMaterial {
                occlusion_texture: Some(occlusion.with_sampler(TextureSampler {
                    mag: Filter::Nearest,
                    min: Filter::Nearest,
                    mipmap: None,
                    wrap_u: Wrap::ClampToEdge,
                    wrap_v: Wrap::ClampToEdge,
                })),
                ..PbrMaterial::default()
            },
        }
    }))
    .x;
    let unoccluded = occluded(0.0, 0, None).x;
    eprintln!("set 0 {on_set_0:.3}, set 1 pinned {on_set_1:.3}, set 1 right texel {open:.3}");
    assert!((open - unoccluded).abs() < 0.01, "{open} vs {unoccluded}");
}

#[test]
fn the_sampler_filter_decides_between_a_hard_and_a_soft_edge() {
    // Red | green, two texels stretched over the square.
    let render_with = |mag| {
        render(forward(), AMBIENT_ONLY, move |renderer| {
            let base = texture(
                renderer,
                2,
                1,
                &[255, 0, 0, 255, 0, 255, 0, 255],
                ColorSpace::Srgb,
            );
            Subject {
                mesh: white_square(),
                material: PbrMaterial {
                    base_color_texture: Some(base.with_sampler(TextureSampler {
                        mag,
                        wrap_u: Wrap::ClampToEdge,
                        wrap_v: Wrap::ClampToEdge,
                        ..TextureSampler::default()
                    })),
                    unlit: true,
                    ..PbrMaterial::default()
                },
            }
        })
    };
    // Two columns either side of the middle.
    let mixed = |pixels: &[Vec3]| {
        let left = mean_columns(pixels, SIZE / 2 - 2..SIZE / 2 - 1);
        left.x.min(left.y)
    };
    let nearest = render_with(Filter::Nearest);
    let linear = render_with(Filter::Linear);
    eprintln!(
        "near the middle, the weaker channel: nearest {:.3}, linear {:.3}",
        mixed(&nearest),
        mixed(&linear)
    );
    assert!(mixed(&nearest) < 0.01);
    assert!(mixed(&linear) > 0.1);
}

#[test]
fn emissive_texture_and_vertex_colours_multiply_their_factors() {
    let emitted = mean(&render(forward(), AMBIENT_ONLY, |renderer| Subject {
        mesh: white_square(),
        material: PbrMaterial {
            base_color: Vec4::new(0.0, 0.0, 0.0, 1.0),
            emissive: Vec3::splat(0.8),
            emissive_texture: Some(solid(renderer, [255, 0, 255, 255], ColorSpace::Srgb)),
            ..PbrMaterial::default()
        },
    }));
    eprintln!("emitted {emitted}");
    assert!((emitted - Vec3::new(0.8, 0.0, 0.8)).abs().max_element() < 0.03);

    let coloured = mean(&render(forward(), AMBIENT_ONLY, |_| {
        let square = white_square();
        let vertices = square
            .vertices()
            .iter()
            .map(|v| v.with_color(Vec4::new(1.0, 0.5, 0.0, 1.0)))
            .collect();
        Subject {
            mesh: MeshData::new(vertices, square.indices().to_vec()).unwrap(),
            material: PbrMaterial {
                unlit: true,
                ..PbrMaterial::default()
            },
        }
    }));
    eprintln!("vertex-coloured {coloured}");
    assert!((coloured - Vec3::new(1.0, 0.5, 0.0)).abs().max_element() < 0.03);
}

#[test]
fn metallic_roughness_texture_scales_both_factors() {
    // A smooth metal under a sun seen from above: the specular highlight of
    // a sun at 45 degrees misses the camera, so a metal (no diffuse) looks
    // darker than the same surface made rough and dielectric by the texture.
    let shade = |texture: Option<[u8; 4]>| {
        mean(&render(forward(), SUN_FROM_PLUS_X, move |renderer| {
            Subject {
                mesh: white_square(),
                material: PbrMaterial {
                    metallic: 1.0,
                    roughness: 1.0,
                    metallic_roughness_texture: texture
                        .map(|rgba| solid(renderer, rgba, ColorSpace::Linear)),
                    ..PbrMaterial::default()
                },
            }
        }))
        .x
    };
    let metal = shade(None);
    // Blue (metallic) 0 and green (roughness) 255: a rough dielectric.
    let dielectric = shade(Some([0, 255, 0, 255]));
    eprintln!("metal {metal:.3}, textured to dielectric {dielectric:.3}");
    assert!(dielectric > metal * 2.0, "{dielectric} vs {metal}");
}

#[test]
fn double_sided_materials_show_their_back_face_lit_from_its_side() {
    let below = Lighting {
        sun: Some(Vec3::Y),
        ambient: 0.0,
        from_below: true,
    };
    let seen = |double_sided| {
        mean(&render(forward(), below, move |_| Subject {
            mesh: white_square(),
            material: PbrMaterial {
                base_color: Vec4::new(1.0, 1.0, 0.0, 1.0),
                double_sided,
                roughness: 1.0,
                ..PbrMaterial::default()
            },
        }))
    };
    let single = seen(false);
    let double = seen(true);
    eprintln!("from below: single-sided {single}, double-sided {double}");
    // Single-sided: culled, the blue sky shows.
    assert!((single - SKY).abs().max_element() < 0.01);
    // Double-sided: yellow, lit by the sun shining up on the back face.
    assert!(
        double.x > 0.2 && double.y > 0.2 && double.z < 0.05,
        "{double}"
    );
}

#[test]
fn unlit_materials_show_their_colour_in_every_preset() {
    let colour = Vec3::new(0.2, 0.6, 0.3);
    let presets: [(&str, Preset); 3] = [
        ("forward", forward()),
        ("forward-plus", Box::new(forward_plus_preset(options()))),
        (
            "deferred",
            Box::new(deferred_preset(DeferredOptions {
                common: options(),
                ..DeferredOptions::default()
            })),
        ),
    ];
    for (name, preset) in presets {
        let shown = mean(&render(preset, SUN_FROM_PLUS_X, |_| Subject {
            mesh: white_square(),
            material: PbrMaterial {
                base_color: colour.extend(1.0),
                unlit: true,
                ..PbrMaterial::default()
            },
        }));
        eprintln!("{name}: {shown}");
        assert!(
            (shown - colour).abs().max_element() < 0.01,
            "{name}: {shown} vs {colour}"
        );
    }
}
