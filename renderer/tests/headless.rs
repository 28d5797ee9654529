//! The wgpu context on a real adapter (lavapipe in CI): offscreen targets,
//! read-back, and a first image test against a reference PNG.

use std::path::Path;

use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_renderer::{GpuContext, OffscreenTarget, ReadbackError, wgpu};

fn context() -> GpuContext {
    GpuContext::headless().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

fn clear(ctx: &GpuContext, target: &OffscreenTarget, color: wgpu::Color) {
    let mut encoder = ctx
        .device()
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("clear"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target.view(),
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(color),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    });
    ctx.queue().submit([encoder.finish()]);
}

#[test]
fn clear_and_read_back_in_rgba_and_bgra() {
    let ctx = context();
    for format in [
        wgpu::TextureFormat::Rgba8Unorm,
        wgpu::TextureFormat::Bgra8Unorm,
    ] {
        let target = OffscreenTarget::new(&ctx, 67, 3, format).unwrap(); // odd width: row padding
        clear(
            &ctx,
            &target,
            wgpu::Color {
                r: 1.0,
                g: 0.0,
                b: 0.2,
                a: 1.0,
            },
        );
        let pixels = target.read_rgba8(&ctx).unwrap();
        assert_eq!(pixels.len(), 67 * 3 * 4);
        for px in pixels.chunks_exact(4) {
            assert_eq!(px, [255, 0, 51, 255], "{format:?}");
        }
    }
}

#[test]
fn bad_targets_are_refused_with_clear_errors() {
    let ctx = context();
    let zero = OffscreenTarget::new(&ctx, 0, 10, wgpu::TextureFormat::Rgba8Unorm);
    assert!(matches!(
        zero,
        Err(ReadbackError::ZeroSize {
            width: 0,
            height: 10
        })
    ));
    let float = OffscreenTarget::new(&ctx, 4, 4, wgpu::TextureFormat::Rgba32Float);
    let message = float.unwrap_err().to_string();
    assert!(message.contains("Rgba32Float"), "{message}");
    // An HDR output (Rgba16Float) is a target, but reads back as floats only
    // from itself.
    let hdr = OffscreenTarget::new(&ctx, 4, 4, wgpu::TextureFormat::Rgba16Float).unwrap();
    assert_eq!(hdr.read_rgba_f32(&ctx).unwrap().len(), 16);
    let sdr = OffscreenTarget::new(&ctx, 4, 4, wgpu::TextureFormat::Rgba8UnormSrgb).unwrap();
    assert!(matches!(
        sdr.read_rgba_f32(&ctx),
        Err(ReadbackError::UnsupportedFormat { .. })
    ));
}

const TRIANGLE: &str = r"
struct Out { @builtin(position) pos: vec4<f32>, @location(0) color: vec3<f32> };

@vertex
fn vs(@builtin(vertex_index) i: u32) -> Out {
    var positions = array<vec2<f32>, 3>(vec2(-0.8, -0.7), vec2(0.8, -0.7), vec2(0.0, 0.8));
    var colors = array<vec3<f32>, 3>(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0));
    var out: Out;
    out.pos = vec4(positions[i], 0.0, 1.0);
    out.color = colors[i];
    return out;
}

@fragment
fn fs(in: Out) -> @location(0) vec4<f32> {
    return vec4(in.color, 1.0);
}
";

#[test]
fn a_shaded_triangle_matches_its_reference() {
    let ctx = context();
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let target = OffscreenTarget::new(&ctx, 96, 96, format).unwrap();
    let device = ctx.device();
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("triangle"),
        source: wgpu::ShaderSource::Wgsl(TRIANGLE.into()),
    });
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("triangle"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(format.into())],
        }),
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("triangle"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target.view(),
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.draw(0..3, 0..1);
    }
    ctx.queue().submit([encoder.finish()]);
    let pixels = target.read_rgba8(&ctx).unwrap();
    // Rasterisation rules agree across conformant drivers except on edge
    // pixels, and interpolation may round by one step: allow a difference of
    // 2 per channel everywhere and 1% of pixels (the ~90 edge pixels of this
    // triangle) beyond that.
    let tolerance = Tolerance {
        per_channel: 2,
        outlier_fraction: 0.01,
    };
    assert_matches_reference(&reference_dir(), "triangle", 96, 96, &pixels, tolerance);
}

#[test]
fn textures_load_from_png_and_jpeg_with_mips_and_refuse_garbage() {
    use taos_renderer::resources::{ColorSpace, Texture, TextureError};
    let ctx = context();
    let image = image::RgbaImage::from_fn(40, 24, |x, y| {
        image::Rgba([x as u8 * 6, y as u8 * 10, 128, 255])
    });
    let mut png = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let srgb = Texture::from_image_bytes(&ctx, "gradient.png", &png, ColorSpace::Srgb).unwrap();
    assert_eq!(srgb.texture().format(), wgpu::TextureFormat::Rgba8UnormSrgb);
    assert_eq!(
        srgb.texture().mip_level_count(),
        6,
        "40 -> 20 -> 10 -> 5 -> 2 -> 1"
    );
    let rgb = image::DynamicImage::ImageRgba8(image).to_rgb8();
    let mut jpeg = Vec::new();
    rgb.write_to(
        &mut std::io::Cursor::new(&mut jpeg),
        image::ImageFormat::Jpeg,
    )
    .unwrap();
    let linear =
        Texture::from_image_bytes(&ctx, "gradient.jpg", &jpeg, ColorSpace::Linear).unwrap();
    assert_eq!(linear.texture().format(), wgpu::TextureFormat::Rgba8Unorm);

    let garbage =
        Texture::from_image_bytes(&ctx, "save.png", b"definitely not a png", ColorSpace::Srgb);
    let message = garbage.unwrap_err().to_string();
    assert!(message.contains("save.png"), "{message}");
    let missing = Texture::from_file(&ctx, "/nonexistent/sky.png", ColorSpace::Srgb);
    assert!(matches!(missing, Err(TextureError::Io { .. })));
}

fn reference_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}
