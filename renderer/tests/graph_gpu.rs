//! The render graph on a real device (lavapipe in CI): a G-buffer pass
//! clears two colour targets and a depth target, a second pass reads both
//! targets in a shader and writes their sum to an imported texture, and an
//! encoder pass copies one pixel into an imported read-back buffer. All of
//! it is one command encoder and one submit.
//!
//! Without an adapter the test fails, naming the package to install: GPU
//! tests never skip (`.ci/run` installs lavapipe where there is no GPU).

use taos_renderer::graph::{
    ExecuteError, GraphCompiler, ImportedBuffer, ImportedTexture, RenderGraph, ResourcePool,
    TextureDesc,
};
use wgpu::{BufferUsages as BU, Color, LoadOp, TextureFormat as TF, TextureUsages as TU};

const SIZE: u32 = 64;

fn device() -> (wgpu::Device, wgpu::Queue) {
    let gpu = taos_renderer::GpuContext::headless()
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    eprintln!("adapter: {:?}", gpu.adapter_info());
    (gpu.device().clone(), gpu.queue().clone())
}

const SHADER: &str = r"
@group(0) @binding(0) var a: texture_2d<f32>;
@group(0) @binding(1) var b: texture_2d<f32>;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    let xy = vec2<i32>(p.xy);
    return textureLoad(a, xy, 0) + textureLoad(b, xy, 0);
}
";

struct Combine {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
}

fn combine_pipeline(device: &wgpu::Device) -> Combine {
    let entry = |binding| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    };
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("combine"),
        entries: &[entry(0), entry(1)],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("combine"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("combine"),
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    });
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("combine"),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(TF::Rgba8Unorm.into())],
        }),
        multiview_mask: None,
        cache: None,
    });
    Combine { layout, pipeline }
}

/// Builds, compiles and runs one frame; returns the pixel read back.
fn frame(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    combine: &Combine,
    compiler: &mut GraphCompiler,
    pool: &mut ResourcePool,
) -> [u8; 4] {
    let output = device.create_texture(
        &TextureDesc::new_2d(
            SIZE,
            SIZE,
            TF::Rgba8Unorm,
            TU::RENDER_ATTACHMENT | TU::COPY_SRC,
        )
        .to_descriptor(Some("output")),
    );
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: 256,
        usage: BU::MAP_READ | BU::COPY_DST,
        mapped_at_creation: false,
    });

    let mut graph = RenderGraph::new();
    let out = graph.import_texture("output", ImportedTexture::new(output));
    let rb = graph.import_buffer("readback", ImportedBuffer::new(readback.clone()));
    let target = TextureDesc::new_2d(
        SIZE,
        SIZE,
        TF::Rgba8Unorm,
        TU::RENDER_ATTACHMENT | TU::TEXTURE_BINDING,
    );
    let a = graph.create_texture("gbuffer a", target);
    let b = graph.create_texture("gbuffer b", target);
    let depth = graph.create_texture(
        "depth",
        TextureDesc::new_2d(SIZE, SIZE, TF::Depth32Float, TU::RENDER_ATTACHMENT),
    );
    let (a, b) = graph.add_render_pass("gbuffer", |pass| {
        let a = pass.write_color(
            a,
            LoadOp::Clear(Color {
                r: 1.0,
                g: 0.0,
                b: 0.0,
                a: 0.5,
            }),
        );
        let b = pass.write_color(
            b,
            LoadOp::Clear(Color {
                r: 0.0,
                g: 0.0,
                b: 1.0,
                a: 0.5,
            }),
        );
        let _ = pass.write_depth(depth, LoadOp::Clear(1.0));
        (a, b)
    });
    let out = graph.add_render_pass("combine", |pass| {
        pass.read_texture(a);
        pass.read_texture(b);
        let out = pass.write_color(out, LoadOp::Clear(Color::BLACK));
        pass.execute(move |rpass, res| {
            let bind = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("combine"),
                layout: &combine.layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(res.texture_view(a).unwrap()),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(res.texture_view(b).unwrap()),
                    },
                ],
            });
            rpass.set_pipeline(&combine.pipeline);
            rpass.set_bind_group(0, &bind, &[]);
            rpass.draw(0..3, 0..1);
        });
        out
    });
    graph.add_encoder_pass("read back", |pass| {
        pass.read_texture_as(out, TU::COPY_SRC);
        let rb2 = pass.write_buffer(rb, BU::COPY_DST);
        pass.execute(move |encoder, res| {
            encoder.copy_texture_to_buffer(
                wgpu::TexelCopyTextureInfo {
                    texture: res.texture(out).unwrap(),
                    mip_level: 0,
                    origin: wgpu::Origin3d { x: 5, y: 7, z: 0 },
                    aspect: wgpu::TextureAspect::All,
                },
                wgpu::TexelCopyBufferInfo {
                    buffer: res.buffer(rb2).unwrap(),
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(256),
                        rows_per_image: Some(1),
                    },
                },
                wgpu::Extent3d {
                    width: 1,
                    height: 1,
                    depth_or_array_layers: 1,
                },
            );
        });
    });

    let compiled = compiler.compile(&graph).expect("graph compiles");
    assert_eq!(compiled.order().len(), 3);
    graph
        .execute(compiled, device, queue, pool)
        .expect("graph executes");

    readback
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("map"));
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let bytes = readback.slice(..4).get_mapped_range().expect("mapped");
    let pixel = [bytes[0], bytes[1], bytes[2], bytes[3]];
    drop(bytes);
    readback.unmap();
    pixel
}

#[test]
fn mrt_targets_are_cleared_sampled_and_read_back_in_one_submit() {
    let (device, queue) = device();
    let combine = combine_pipeline(&device);
    let mut compiler = GraphCompiler::new();
    let mut pool = ResourcePool::new();
    let pixel = frame(&device, &queue, &combine, &mut compiler, &mut pool);
    assert_eq!(pixel, [255, 0, 255, 255], "red + blue, alpha 0.5 + 0.5");
    let created = pool.created();
    assert_eq!(created, 3, "two colour targets and a depth target");
    // A second frame reuses the pool: nothing new is created.
    let pixel = frame(&device, &queue, &combine, &mut compiler, &mut pool);
    assert_eq!(pixel, [255, 0, 255, 255]);
    assert_eq!(pool.created(), created);
}

#[test]
fn execute_refuses_a_foreign_compilation_and_unbound_imports() {
    let (device, queue) = device();
    let usage = TU::RENDER_ATTACHMENT | TU::COPY_SRC;
    let desc = TextureDesc::new_2d(8, 8, TF::Rgba8Unorm, usage);
    let make = |texture: Option<wgpu::Texture>| {
        let mut graph = RenderGraph::new();
        let import = match texture {
            Some(t) => ImportedTexture::new(t),
            None => ImportedTexture::declared(desc),
        };
        let out = graph.import_texture("output", import);
        graph.add_render_pass("clear", |pass| {
            let _ = pass.write_color(out, LoadOp::Clear(Color::WHITE));
        });
        graph
    };
    let mut pool = ResourcePool::new();
    let mut compiler = GraphCompiler::new();

    let declared = make(None);
    let compiled = compiler.compile(&declared).expect("compiles").clone();
    assert_eq!(
        declared
            .execute(&compiled, &device, &queue, &mut pool)
            .unwrap_err(),
        ExecuteError::UnboundImport { resource: "output" }
    );

    let texture = device.create_texture(&desc.to_descriptor(Some("output")));
    let other = make(Some(texture.clone()));
    let err = other
        .execute(&compiled, &device, &queue, &mut pool)
        .unwrap_err();
    assert!(matches!(err, ExecuteError::GraphMismatch { .. }), "{err}");

    let good = make(Some(texture));
    let compiled = compiler.compile(&good).expect("compiles");
    assert!(good.execute(compiled, &device, &queue, &mut pool).is_ok());
}
