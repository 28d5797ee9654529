//! [`ParticleFeature`]: spawns, simulates and draws every emitter of the
//! frame (see the [module docs](super)).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::time::Duration;

use super::emitter::{EmitterState, Ring, StepInputs};
use super::particle::{PARTICLE_SIZE, Particle};
use super::pipelines::{DrawPipelines, SimulatePipeline, WORKGROUP};
use super::uniforms::ViewUniform;
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::features::TaaJitter;
use crate::features::counter_readback::CounterReadback;
use crate::frame::{FrameData, HDR_FORMAT, HDR_USAGE};
use crate::graph::{BufferHandle, ImportedBuffer, TextureDesc, TextureHandle};
use crate::resources::Assets;
use crate::{GpuContext, RenderStats};

/// Which path simulates the particles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ParticlePath {
    /// The GPU where the device has compute shaders, else the CPU.
    #[default]
    Auto,
    /// Compute shaders (falls back to the CPU, logged, where there are none).
    Gpu,
    /// The CPU (WebGL2's path; also for comparing the two).
    Cpu,
}

/// Why a device cannot simulate particles on the GPU.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("particles on the GPU need {missing}, which the {backend} backend lacks")]
pub struct ParticleUnsupported {
    /// The backend.
    pub backend: String,
    /// What it lacks.
    pub missing: &'static str,
}

/// The longest step a frame takes, in seconds: a longer frame (a stall, a
/// debugger) steps this much, so particles do not leap.
const MAX_STEP: f32 = 0.25;

/// Draws the frame's particle emitters ([`FrameData::particles`]) into the
/// HDR target. The presets register it after TAA and before depth of field,
/// bloom and the tonemap: drawn after TAA, particles do not smear, and the
/// depth it reads (resolved under MSAA) is every preset's.
#[derive(Debug, Default)]
pub struct ParticleFeature {
    /// The path asked for (read at setup; [`set_path`](Self::set_path)
    /// changes it later).
    pub path: ParticlePath,
    rebuild: bool,
    objects: Option<Objects>,
    emitters: HashMap<u64, EmitterState>,
    /// This frame's emitters to draw, farthest first.
    order: Vec<u64>,
    on_gpu: bool,
    readback_slot: Option<wgpu::Buffer>,
    alive: u32,
    cpu_time: Duration,
    warned_world: bool,
    /// The frame number last stepped.
    last_frame: Option<u64>,
    warned_texture: std::sync::atomic::AtomicBool,
}

#[derive(Debug)]
struct Objects {
    draw: DrawPipelines,
    simulate: Option<SimulatePipeline>,
    view: wgpu::Buffer,
    readback: CounterReadback,
}

impl ParticleFeature {
    /// A particle feature on `path`.
    #[must_use]
    pub fn new(path: ParticlePath) -> Self {
        Self {
            path,
            ..Self::default()
        }
    }

    /// Switches to `path` from the next frame on: the emitters start over
    /// on the new path.
    pub fn set_path(&mut self, path: ParticlePath) {
        self.path = path;
        self.rebuild = true;
    }

    /// Builds the GPU objects for [`path`](Self::path) on `gpu`.
    fn build(&mut self, gpu: &GpuContext) {
        self.rebuild = false;
        let device = gpu.device();
        let supported = Self::check_gpu_support(gpu);
        self.on_gpu = match (self.path, &supported) {
            (ParticlePath::Cpu, _) => false,
            (_, Ok(())) => true,
            (ParticlePath::Gpu, Err(why)) => {
                log::warn!("{why}: particles run on the CPU, at lower counts");
                false
            }
            (ParticlePath::Auto, Err(why)) => {
                log::info!("{why}: particles run on the CPU, at lower counts");
                false
            }
        };
        self.objects = Some(Objects {
            draw: DrawPipelines::new(device, gpu.queue()),
            simulate: self
                .on_gpu
                .then(|| SimulatePipeline::new(device, gpu.queue())),
            view: crate::features::gpu_util::uniform_buffer(
                device,
                "particle view",
                std::mem::size_of::<ViewUniform>(),
            ),
            readback: CounterReadback::new(device, 3),
        });
        self.emitters.clear();
        self.alive = 0;
    }

    /// Whether `gpu` can simulate particles in compute shaders.
    ///
    /// # Errors
    /// [`ParticleUnsupported`] naming what the device lacks (WebGL2 has no
    /// compute shaders).
    pub fn check_gpu_support(gpu: &GpuContext) -> Result<(), ParticleUnsupported> {
        let backend = gpu.adapter_info().backend.to_string();
        let flags = gpu.adapter().get_downlevel_capabilities().flags;
        let limits = gpu.device().limits();
        let missing = if !flags.contains(wgpu::DownlevelFlags::COMPUTE_SHADERS) {
            Some("compute shaders")
        } else if limits.max_storage_buffers_per_shader_stage < 3 {
            Some("three storage buffers per shader stage")
        } else if limits.max_compute_invocations_per_workgroup < WORKGROUP
            || limits.max_compute_workgroup_size_x < WORKGROUP
        {
            Some("256-wide compute workgroups")
        } else {
            None
        };
        missing.map_or(Ok(()), |missing| {
            Err(ParticleUnsupported { backend, missing })
        })
    }

    /// The path in use: [`ParticlePath::Gpu`] or [`ParticlePath::Cpu`]
    /// once set up ([`ParticlePath::Auto`] before).
    #[must_use]
    pub fn path_in_use(&self) -> ParticlePath {
        match (&self.objects, self.on_gpu) {
            (None, _) => ParticlePath::Auto,
            (Some(_), true) => ParticlePath::Gpu,
            (Some(_), false) => ParticlePath::Cpu,
        }
    }

    /// Living particles: this frame's on the CPU path; on the GPU path the
    /// count read back without a stall, from a frame or two earlier.
    #[must_use]
    pub fn alive(&self) -> u32 {
        self.alive
    }

    /// Emitters the renderer keeps particles for.
    #[must_use]
    pub fn emitter_count(&self) -> usize {
        self.emitters.len()
    }

    /// CPU time of the last frame's particle work: spawning on both paths;
    /// also the simulation, sort and upload on the CPU path. (The GPU
    /// path's simulation is the `particle simulate` pass in the renderer's
    /// [timings](crate::timings).)
    #[must_use]
    pub fn cpu_time(&self) -> Duration {
        self.cpu_time
    }

    /// The ring of the emitter `key` (living and dead slots), read back
    /// from the GPU and waited for on the GPU path: for tests and tools,
    /// never per frame.
    #[must_use]
    pub fn particles(&self, gpu: &GpuContext, key: u64) -> Option<Vec<Particle>> {
        let state = self.emitters.get(&key)?;
        match &state.ring {
            Ring::Cpu { particles, .. } => Some(particles.clone()),
            Ring::Gpu { particles, .. } => read_ring(gpu, particles),
        }
    }
}

impl ParticleFeature {
    /// The particles of the emitter `key` as the last frame drew them, in
    /// draw order: alpha-blended emitters farthest first, living particles
    /// before dead slots (the GPU path draws every slot; the CPU path only
    /// the living). Waits for the GPU: for tests and tools.
    #[must_use]
    pub fn drawn(&self, gpu: &GpuContext, key: u64) -> Option<Vec<Particle>> {
        let state = self.emitters.get(&key)?;
        match &state.ring {
            Ring::Cpu { drawn, .. } => Some(drawn.clone()),
            Ring::Gpu {
                sort: Some(sort), ..
            } => read_ring(gpu, &sort.drawn),
            Ring::Gpu { particles, .. } => read_ring(gpu, particles),
        }
    }
}

/// A new HDR texture holding `hdr`'s pixels. The particles draw over the
/// copy: the HDR target after TAA is TAA's history for the next frame,
/// and particles drawn into it would smear over the frames after.
fn fresh_copy(frame: &mut Frame<'_>, hdr: TextureHandle) -> TextureHandle {
    let (width, height) = frame.data.size;
    let usage = HDR_USAGE | wgpu::TextureUsages::COPY_DST;
    let copy = frame.graph.create_texture(
        "particle hdr",
        TextureDesc::new_2d(width.max(1), height.max(1), HDR_FORMAT, usage),
    );
    frame.graph.add_encoder_pass("particle hdr copy", |pass| {
        pass.read_texture_as(hdr, wgpu::TextureUsages::COPY_SRC);
        let copy = pass.write_texture(copy, wgpu::TextureUsages::COPY_DST);
        pass.execute(move |encoder, res| {
            if let (Some(from), Some(to)) = (res.texture(hdr), res.texture(copy)) {
                let size = wgpu::Extent3d {
                    width: from.width().min(to.width()),
                    height: from.height().min(to.height()),
                    depth_or_array_layers: 1,
                };
                encoder.copy_texture_to_texture(from.as_image_copy(), to.as_image_copy(), size);
            }
        });
        copy
    })
}

/// Copies a GPU ring into a mappable buffer and waits for it.
fn read_ring(gpu: &GpuContext, ring: &wgpu::Buffer) -> Option<Vec<Particle>> {
    let device = gpu.device();
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("particle ring read-back"),
        size: ring.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("particle ring read-back"),
    });
    encoder.copy_buffer_to_buffer(ring, 0, &staging, 0, ring.size());
    gpu.queue().submit([encoder.finish()]);
    let (sender, receiver) = std::sync::mpsc::channel();
    staging.map_async(wgpu::MapMode::Read, .., move |result| {
        let _ = sender.send(result);
    });
    device.poll(wgpu::PollType::wait_indefinitely()).ok()?;
    receiver.recv().ok()?.ok()?;
    let bytes = staging.get_mapped_range(..).ok()?;
    let particles = bytemuck::pod_collect_to_vec(&bytes);
    drop(bytes);
    staging.unmap();
    Some(particles)
}

impl RenderFeature for ParticleFeature {
    fn name(&self) -> &'static str {
        "Particles"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        self.build(setup.gpu);
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, _assets: &Assets) {
        if self.rebuild {
            self.build(gpu);
        }
        let Some(objects) = &mut self.objects else {
            return;
        };
        let started = web_time::Instant::now();
        // A frame drawn twice (a pre-warm) steps once.
        let dt = if data.time.delta.is_finite() && self.last_frame != Some(data.time.frame) {
            data.time.delta.clamp(0.0, MAX_STEP)
        } else {
            0.0
        };
        self.last_frame = Some(data.time.frame);
        let inputs = StepInputs {
            gpu,
            camera: &data.camera,
            dt,
        };
        for state in self.emitters.values_mut() {
            state.seen = false;
        }
        for draw in &data.particles {
            if !draw.world.is_finite() {
                if !self.warned_world {
                    self.warned_world = true;
                    log::warn!(
                        "particle effect '{}': its emitter's transform is not finite; \
                         the emitter is skipped",
                        draw.effect.name
                    );
                }
                continue;
            }
            let state = match self.emitters.entry(draw.key) {
                Entry::Occupied(entry) if entry.get().matches(draw) => entry.into_mut(),
                Entry::Occupied(mut entry) => {
                    entry.insert(EmitterState::new(draw, gpu, self.on_gpu));
                    entry.into_mut()
                }
                Entry::Vacant(entry) => entry.insert(EmitterState::new(draw, gpu, self.on_gpu)),
            };
            state.seen = true;
            state.step(draw, &inputs);
        }
        self.emitters.retain(|_, state| state.seen);
        let eye = data.camera.position;
        self.order.clear();
        self.order.extend(
            self.emitters
                .iter()
                .filter(|(_, state)| state.active() && state.instances > 0)
                .map(|(key, _)| *key),
        );
        let emitters = &self.emitters;
        let distance = |key: &u64| emitters[key].position().distance_squared(eye);
        self.order
            .sort_by(|a, b| distance(b).total_cmp(&distance(a)).then(a.cmp(b)));
        let projection = data
            .slots
            .get::<TaaJitter>()
            .map_or(data.camera.projection, |jitter| {
                jitter.unjittered_projection
            });
        let queue = gpu.queue();
        queue.write_buffer(
            &objects.view,
            0,
            bytemuck::bytes_of(&ViewUniform::new(&data.camera, projection, data.size)),
        );
        if let Some(simulate) = &objects.simulate {
            queue.write_buffer(&simulate.alive, 0, &0u32.to_le_bytes());
            self.readback_slot = objects.readback.begin_frame(gpu.device());
            self.alive = objects.readback.latest().unwrap_or(0);
        } else {
            self.alive = self.emitters.values().map(|state| state.alive).sum();
        }
        self.cpu_time = started.elapsed();
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let (Some(objects), Some(hdr)) = (&self.objects, frame.hdr) else {
            return;
        };
        if self.order.is_empty() {
            return;
        }
        let depth = frame.depth;
        let rings = match &objects.simulate {
            Some(simulate) => self.add_simulation(frame, simulate),
            None => Vec::new(),
        };
        let assets = frame.assets;
        let hdr = fresh_copy(frame, hdr);
        let out = frame.graph.add_render_pass("particles", |pass| {
            if let Some(depth) = depth {
                pass.read_texture(depth);
            }
            for (_, ring) in &rings {
                pass.read_buffer(*ring, wgpu::BufferUsages::VERTEX);
            }
            let out = pass.write_color(hdr, wgpu::LoadOp::Load);
            pass.execute(move |rp, res| {
                let draw = &objects.draw;
                let depth_view = depth
                    .and_then(|depth| res.texture_view(depth))
                    .unwrap_or(&draw.far);
                let view_group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("particle view"),
                    layout: &draw.view_layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: objects.view.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: wgpu::BindingResource::TextureView(depth_view),
                        },
                        wgpu::BindGroupEntry {
                            binding: 2,
                            resource: wgpu::BindingResource::Sampler(&draw.depth_sampler),
                        },
                    ],
                });
                rp.set_bind_group(0, &view_group, &[]);
                for key in &self.order {
                    let Some(state) = self.emitters.get(key) else {
                        continue;
                    };
                    let buffer = match &state.ring {
                        Ring::Cpu { instances, .. } => instances.as_ref(),
                        Ring::Gpu {
                            sort: Some(sort), ..
                        } => Some(&sort.drawn),
                        Ring::Gpu { sort: None, .. } => rings
                            .iter()
                            .find(|(k, _)| k == key)
                            .and_then(|(_, ring)| res.buffer(*ring)),
                    };
                    let Some(buffer) = buffer else {
                        continue;
                    };
                    let sheet = self.sheet(assets, state, draw);
                    let group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("particle emitter"),
                        layout: &draw.emitter_layout,
                        entries: &[
                            wgpu::BindGroupEntry {
                                binding: 0,
                                resource: state.uniform.as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 1,
                                resource: wgpu::BindingResource::TextureView(sheet),
                            },
                            wgpu::BindGroupEntry {
                                binding: 2,
                                resource: wgpu::BindingResource::Sampler(&draw.sheet_sampler),
                            },
                        ],
                    });
                    rp.set_pipeline(draw.pipeline(state.effect.blend));
                    rp.set_bind_group(1, &group, &[]);
                    let bytes = u64::from(state.instances) * PARTICLE_SIZE;
                    rp.set_vertex_buffer(0, buffer.slice(..bytes));
                    rp.draw(0..4, 0..state.instances);
                }
            });
            out
        });
        frame.hdr = Some(out);
    }

    fn after_frame(&mut self, _gpu: &GpuContext, stats: &mut RenderStats) {
        if self.readback_slot.take().is_some()
            && let Some(objects) = &mut self.objects
        {
            objects.readback.submitted();
        }
        stats.particles += self.alive;
        stats.particle_emitters += self.emitters.len() as u32;
    }

    fn destroy(&mut self) {
        self.emitters.clear();
        self.objects = None;
    }
}

impl ParticleFeature {
    /// The emitter's texture, or the white texel (logged once when the
    /// effect names a texture the assets do not have).
    fn sheet<'a>(
        &self,
        assets: &'a Assets,
        state: &EmitterState,
        draw: &'a DrawPipelines,
    ) -> &'a wgpu::TextureView {
        match state.effect.texture {
            None => &draw.white,
            Some(id) => assets.texture(id).map_or_else(
                || {
                    if !self
                        .warned_texture
                        .swap(true, std::sync::atomic::Ordering::Relaxed)
                    {
                        log::warn!(
                            "particle effect '{}': texture {id:?} is not loaded; drawing plain dots",
                            state.effect.name
                        );
                    }
                    &draw.white
                },
                |texture| texture.view(),
            ),
        }
    }

    /// Declares the compute pass that moves every active GPU emitter's ring
    /// and the copy of the living count; returns each ring's new version.
    fn add_simulation<'a>(
        &'a self,
        frame: &mut Frame<'a>,
        simulate: &'a SimulatePipeline,
    ) -> Vec<(u64, BufferHandle)> {
        let imported: Vec<(u64, BufferHandle)> = self
            .order
            .iter()
            .filter_map(|key| match &self.emitters.get(key)?.ring {
                Ring::Gpu { particles, .. } => Some((
                    *key,
                    frame
                        .graph
                        .import_buffer("particle ring", ImportedBuffer::new(particles.clone())),
                )),
                Ring::Cpu { .. } => None,
            })
            .collect();
        let alive = frame.graph.import_buffer(
            "particles alive",
            ImportedBuffer::new(simulate.alive.clone()),
        );
        let collide_depth = frame.depth.filter(|_| {
            imported
                .iter()
                .any(|(key, _)| self.emitters.get(key).is_some_and(|s| s.collide))
        });
        let (rings, alive) = frame.graph.add_compute_pass("particle simulate", |pass| {
            if let Some(depth) = collide_depth {
                pass.read_texture(depth);
            }
            let storage = wgpu::BufferUsages::STORAGE;
            let rings: Vec<(u64, BufferHandle)> = imported
                .iter()
                .map(|(key, ring)| {
                    pass.read_buffer(*ring, storage);
                    (*key, pass.write_buffer(*ring, storage))
                })
                .collect();
            pass.read_buffer(alive, storage);
            let alive = pass.write_buffer(alive, storage);
            pass.keep();
            let handles = rings.clone();
            pass.execute(move |cp, res| {
                let Some(counter) = res.buffer(alive) else {
                    return;
                };
                let scene_depth = collide_depth.and_then(|depth| res.texture_view(depth));
                for (key, ring) in &handles {
                    let (Some(state), Some(buffer)) = (self.emitters.get(key), res.buffer(*ring))
                    else {
                        continue;
                    };
                    let Ring::Gpu { step, sort, .. } = &state.ring else {
                        continue;
                    };
                    let depth = scene_depth
                        .filter(|_| state.collide)
                        .unwrap_or(&simulate.no_depth);
                    let resources = [
                        step.as_entire_binding(),
                        buffer.as_entire_binding(),
                        wgpu::BindingResource::TextureView(depth),
                        counter.as_entire_binding(),
                    ];
                    let entries: Vec<wgpu::BindGroupEntry<'_>> = resources
                        .into_iter()
                        .enumerate()
                        .map(|(binding, resource)| wgpu::BindGroupEntry {
                            binding: binding as u32,
                            resource,
                        })
                        .collect();
                    let group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("particle simulate"),
                        layout: &simulate.layout,
                        entries: &entries,
                    });
                    cp.set_pipeline(&simulate.pipeline);
                    cp.set_bind_group(0, &group, &[]);
                    cp.dispatch_workgroups(state.slots.div_ceil(WORKGROUP), 1, 1);
                    if let Some(sort) = sort {
                        simulate.sort.record(cp, res.device(), buffer, sort);
                    }
                }
            });
            (rings, alive)
        });
        if let Some(slot) = &self.readback_slot {
            let slot = frame.graph.import_buffer(
                "particles alive read-back",
                ImportedBuffer::new(slot.clone()),
            );
            frame
                .graph
                .add_encoder_pass("particles alive stats", |pass| {
                    pass.read_buffer(alive, wgpu::BufferUsages::COPY_SRC);
                    let _ = pass.write_buffer(slot, wgpu::BufferUsages::COPY_DST);
                    pass.execute(move |encoder, res| {
                        if let (Some(from), Some(to)) = (res.buffer(alive), res.buffer(slot)) {
                            encoder.copy_buffer_to_buffer(from, 0, to, 0, 4);
                        }
                    });
                });
        }
        rings
    }
}
