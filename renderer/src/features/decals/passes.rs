//! The decal passes: over the lit frame (one pass blending the boxes into
//! [`Frame::hdr`]), or into the G-buffer (the boxes blend into three
//! layers, then a full-screen pass folds them into a new G-buffer version,
//! which replaces the [`GBuffer`] slot).

use super::feature::Gpu;
use super::pipelines::{LAYER_FORMATS, resolve_source};
use crate::feature::Frame;
use crate::features::GBuffer;
use crate::features::gpu_util::{fullscreen_pipeline, texture_entry};
use crate::frame::GBUFFER_FORMAT;
use crate::graph::{PassResources, TextureDesc};

/// Blends the decals over the lit frame; needs [`Frame::hdr`] and
/// [`Frame::depth`] (the lit pass writes both).
pub(crate) fn add_lit_pass<'a>(gpu: &'a Gpu, frame: &mut Frame<'a>) {
    let (Some(hdr), Some(depth)) = (frame.hdr, frame.depth) else {
        return;
    };
    let shadow_map = frame
        .slots
        .get::<crate::features::ShadowMap>()
        .map(|map| map.0);
    let environment = frame
        .slots
        .get::<crate::features::ibl::Environment>()
        .cloned();
    let hdr = frame.graph.add_render_pass("decals", |pass| {
        let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
        pass.read_texture(depth);
        if let Some(shadow_map) = shadow_map {
            pass.read_texture(shadow_map);
        }
        pass.execute(move |rp, res| {
            let Some(depth) = res.texture_view(depth) else {
                return;
            };
            let scene = scene_group(gpu, res, depth, None);
            let shadow = gpu.lit.shadow_group(res, shadow_map, environment.as_ref());
            gpu.lit.bind_frame(rp, &shadow);
            draw_boxes(gpu, rp, &scene);
        });
        hdr
    });
    frame.hdr = Some(hdr);
}

/// Blends the decals into the G-buffer: layers, then the fold into a new
/// G-buffer version.
pub(crate) fn add_gbuffer_passes<'a>(gpu: &'a Gpu, frame: &mut Frame<'a>) {
    let (Some(gbuffer), Some(resolve)) = (frame.slots.get::<GBuffer>().copied(), &gpu.resolve)
    else {
        return;
    };
    let (width, height) = frame.data.size;
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
    let layers = LAYER_FORMATS.map(|format| {
        frame.graph.create_texture(
            "decal layer",
            TextureDesc::new_2d(width, height, format, usage),
        )
    });
    let layers = frame.graph.add_render_pass("decal layers", |pass| {
        let clear = wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT);
        let layers = layers.map(|layer| pass.write_color(layer, clear));
        pass.read_texture(gbuffer.surface);
        pass.read_texture(gbuffer.depth);
        pass.execute(move |rp, res| {
            let (Some(depth), Some(surface)) = (
                res.texture_view(gbuffer.depth),
                res.texture_view(gbuffer.surface),
            ) else {
                return;
            };
            let scene = scene_group(gpu, res, depth, Some(surface));
            gpu.lit
                .bind_frame(rp, &gpu.lit.shadow_group(res, None, None));
            draw_boxes(gpu, rp, &scene);
        });
        layers
    });
    let surface = frame.graph.create_texture(
        "gbuffer",
        TextureDesc::new_2d(width, height, GBUFFER_FORMAT, usage),
    );
    let surface = frame.graph.add_render_pass("decal resolve", |pass| {
        let surface = pass.write_color(surface, wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT));
        pass.read_texture(gbuffer.surface);
        for layer in layers {
            pass.read_texture(layer);
        }
        pass.execute(move |rp, res| {
            let views: Option<Vec<_>> = std::iter::once(gbuffer.surface)
                .chain(layers)
                .map(|texture| res.texture_view(texture))
                .collect();
            let Some(views) = views else { return };
            let entries: Vec<_> = views
                .into_iter()
                .enumerate()
                .map(|(binding, view)| wgpu::BindGroupEntry {
                    binding: binding as u32,
                    resource: wgpu::BindingResource::TextureView(view),
                })
                .collect();
            let group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("decal resolve"),
                layout: &resolve.layout,
                entries: &entries,
            });
            rp.set_pipeline(&resolve.pipeline);
            rp.set_bind_group(0, &group, &[]);
            rp.draw(0..3, 0..1);
        });
        surface
    });
    frame.slots.insert(GBuffer {
        surface,
        depth: gbuffer.depth,
    });
}

/// The full-screen fold of the decal layers into a new G-buffer.
#[derive(Debug)]
pub(crate) struct Resolve {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
}

impl Resolve {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let unfilterable = wgpu::TextureSampleType::Float { filterable: false };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("decal resolve"),
            entries: &[
                texture_entry(0, wgpu::TextureSampleType::Uint),
                texture_entry(1, unfilterable),
                texture_entry(2, unfilterable),
                texture_entry(3, unfilterable),
            ],
        });
        let pipeline = fullscreen_pipeline(
            device,
            "decal resolve",
            &resolve_source(),
            &layout,
            GBUFFER_FORMAT,
        );
        Self { layout, pipeline }
    }
}

/// The scene group: the decal uniforms, the depth, and the old G-buffer
/// surface for the G-buffer target.
fn scene_group(
    gpu: &Gpu,
    res: &PassResources<'_>,
    depth: &wgpu::TextureView,
    surface: Option<&wgpu::TextureView>,
) -> wgpu::BindGroup {
    let mut entries = vec![
        wgpu::BindGroupEntry {
            binding: 0,
            resource: gpu.uniforms.binding(),
        },
        wgpu::BindGroupEntry {
            binding: 1,
            resource: wgpu::BindingResource::TextureView(depth),
        },
        wgpu::BindGroupEntry {
            binding: 2,
            resource: wgpu::BindingResource::Sampler(&gpu.depth_sampler),
        },
    ];
    if let Some(surface) = surface {
        entries.push(wgpu::BindGroupEntry {
            binding: 3,
            resource: wgpu::BindingResource::TextureView(surface),
        });
    }
    res.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("decal scene"),
        layout: &gpu.scene_layout,
        entries: &entries,
    })
}

/// Draws every box of the frame, in order (groups 0 and 2 bound).
fn draw_boxes(gpu: &Gpu, rp: &mut wgpu::RenderPass<'_>, scene: &wgpu::BindGroup) {
    let mut bound = None;
    for (index, draw) in gpu.draws.iter().enumerate() {
        let Some(textures) = gpu.textures.group(&draw.textures) else {
            continue;
        };
        if bound != Some(draw.mirrored) {
            rp.set_pipeline(gpu.boxes.for_box(draw.mirrored));
            bound = Some(draw.mirrored);
        }
        rp.set_bind_group(1, textures, &[]);
        rp.set_bind_group(3, scene, &[gpu.uniforms.offset(index)]);
        rp.draw(0..36, 0..1);
    }
}
