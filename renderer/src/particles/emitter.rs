//! One emitter's life in the renderer: its spawning clock, its ring of
//! particles (a `Vec` on the CPU path, a GPU buffer on the GPU path) and
//! the buffers its draw reads.

use std::sync::Arc;

use glam::{Affine3A, Mat4, Vec3};

use super::effect::{MAX_CPU_PARTICLES, ParticleBlend, ParticleEffect, SimulationSpace};
use super::gpu_sort::{SortBuffers, SortUniform};
use super::particle::{PARTICLE_SIZE, Particle};
use super::simulate::{Step, integrate};
use super::spawn::{Spawner, spawn_particle};
use super::uniforms::{EmitterUniform, StepUniform, gravity_in_space};
use super::{ParticleEmitterDraw, cpu_sort};
use crate::GpuContext;
use crate::frame::CameraView;

/// Where an emitter's particles live.
#[derive(Debug)]
pub(crate) enum Ring {
    /// On the CPU: simulated here, the living ones copied to `instances`.
    Cpu {
        particles: Vec<Particle>,
        /// This frame's living particles in draw order (scratch).
        drawn: Vec<Particle>,
        instances: Option<wgpu::Buffer>,
    },
    /// On the GPU: `particles` is the ring itself, simulated by compute.
    Gpu {
        particles: wgpu::Buffer,
        step: wgpu::Buffer,
        /// The back-to-front copy of an alpha-blended emitter.
        sort: Option<SortBuffers>,
    },
}

/// One emitter's state, kept from frame to frame by its key.
#[derive(Debug)]
pub(crate) struct EmitterState {
    /// The effect as the game gave it (compared by pointer).
    source: Arc<ParticleEffect>,
    /// The effect as drawn (sanitized).
    pub(crate) effect: ParticleEffect,
    pub(crate) seed: u64,
    spawner: Spawner,
    /// Ring slots.
    pub(crate) slots: u32,
    pub(crate) ring: Ring,
    pub(crate) uniform: wgpu::Buffer,
    /// Instances the draw covers this frame.
    pub(crate) instances: u32,
    /// Living particles after this frame's step (CPU path; the GPU path
    /// counts them on the GPU).
    pub(crate) alive: u32,
    /// Seconds since this emitter last spawned (everything has died once
    /// it passes the longest lifetime).
    quiet: f32,
    pub(crate) world: Affine3A,
    /// Whether the emitter was in this frame's list.
    pub(crate) seen: bool,
    /// Whether the GPU collides this frame.
    pub(crate) collide: bool,
    /// The spawn cap was logged.
    warned_cap: bool,
}

/// What one frame's step needs.
pub(crate) struct StepInputs<'a> {
    pub(crate) gpu: &'a GpuContext,
    pub(crate) camera: &'a CameraView,
    pub(crate) dt: f32,
}

impl EmitterState {
    /// A fresh emitter for `draw`, on the GPU path when `on_gpu`.
    pub(crate) fn new(draw: &ParticleEmitterDraw, gpu: &GpuContext, on_gpu: bool) -> Self {
        let (effect, problems) = draw.effect.sanitized();
        for problem in &problems {
            log::warn!("{problem}: clamped");
        }
        let mut slots = effect.max_particles.max(1);
        if !on_gpu && slots > MAX_CPU_PARTICLES {
            log::warn!(
                "particle effect '{}': {slots} particles is more than the CPU path keeps \
                 (no compute shaders on this device); keeping {MAX_CPU_PARTICLES}",
                effect.name
            );
            slots = MAX_CPU_PARTICLES;
        }
        if !on_gpu && effect.collision.is_some() {
            log::warn!(
                "particle effect '{}': collision with the depth buffer runs in compute shaders; \
                 on the CPU path its particles pass through surfaces",
                effect.name
            );
        }
        let device = gpu.device();
        let ring = if on_gpu {
            Ring::Gpu {
                particles: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("particle ring"),
                    size: u64::from(slots) * PARTICLE_SIZE,
                    usage: wgpu::BufferUsages::STORAGE
                        | wgpu::BufferUsages::VERTEX
                        | wgpu::BufferUsages::COPY_DST
                        | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                }),
                step: crate::features::gpu_util::uniform_buffer(
                    device,
                    "particle step",
                    std::mem::size_of::<StepUniform>(),
                ),
                sort: (effect.blend == ParticleBlend::Alpha)
                    .then(|| SortBuffers::new(device, slots)),
            }
        } else {
            Ring::Cpu {
                particles: vec![Particle::default(); slots as usize],
                drawn: Vec::new(),
                instances: None,
            }
        };
        Self {
            source: Arc::clone(&draw.effect),
            effect,
            seed: draw.seed,
            spawner: Spawner::default(),
            slots,
            ring,
            uniform: crate::features::gpu_util::uniform_buffer(
                device,
                "particle emitter",
                std::mem::size_of::<EmitterUniform>(),
            ),
            instances: 0,
            alive: 0,
            quiet: f32::INFINITY,
            world: draw.world,
            seen: true,
            collide: false,
            warned_cap: false,
        }
    }

    /// Whether `draw` still describes this emitter (same effect, same seed).
    pub(crate) fn matches(&self, draw: &ParticleEmitterDraw) -> bool {
        Arc::ptr_eq(&self.source, &draw.effect) && self.seed == draw.seed
    }

    /// Whether anything may be alive (nothing to simulate or draw otherwise).
    pub(crate) fn active(&self) -> bool {
        self.quiet <= self.effect.lifetime.max
    }

    /// Spawns and (on the CPU path) simulates one frame.
    pub(crate) fn step(&mut self, draw: &ParticleEmitterDraw, inputs: &StepInputs<'_>) {
        self.world = draw.world;
        let (count, capped) = self.spawner.advance(&self.effect, inputs.dt, draw.emitting);
        if capped && !self.warned_cap {
            self.warned_cap = true;
            log::warn!(
                "particle effect '{}': more particles asked for in one frame than its {} slots; \
                 spawning {count}",
                self.effect.name,
                self.slots
            );
        }
        self.quiet = if count > 0 {
            0.0
        } else {
            self.quiet + inputs.dt
        };
        let first = self.spawner.next;
        self.spawner.next += u64::from(count);
        let step = Step {
            dt: inputs.dt,
            gravity: gravity_in_space(&self.effect, &draw.world),
            drag: self.effect.drag,
        };
        let queue = inputs.gpu.queue();
        let local = self.effect.space == SimulationSpace::Local;
        let placement = if local {
            Mat4::from(draw.world)
        } else {
            Mat4::IDENTITY
        };
        let textured = self.effect.texture.is_some();
        queue.write_buffer(
            &self.uniform,
            0,
            bytemuck::bytes_of(&EmitterUniform::new(&self.effect, placement, textured)),
        );
        let slots = u64::from(self.slots);
        let spawned = (0..u64::from(count)).map(|i| {
            let index = first + i;
            (
                (index % slots) as usize,
                spawn_particle(&self.effect, &draw.world, self.seed, index),
            )
        });
        match &mut self.ring {
            Ring::Cpu {
                particles,
                drawn,
                instances,
            } => {
                for (slot, particle) in spawned {
                    particles[slot] = particle;
                }
                self.alive = integrate(particles, &step);
                drawn.clear();
                drawn.extend(particles.iter().filter(|p| p.is_alive()));
                if self.effect.blend == ParticleBlend::Alpha {
                    let to_world = if local {
                        draw.world
                    } else {
                        Affine3A::IDENTITY
                    };
                    cpu_sort::back_to_front(drawn, &to_world, inputs.camera);
                }
                self.instances = drawn.len() as u32;
                upload_instances(inputs.gpu, instances, drawn);
            }
            Ring::Gpu {
                particles,
                step: step_buffer,
                sort,
            } => {
                if let Some(sort) = sort {
                    let uniform = SortUniform::new(
                        placement,
                        inputs.camera.position,
                        inputs.camera.forward,
                        self.slots,
                    );
                    queue.write_buffer(&sort.uniform, 0, bytemuck::bytes_of(&uniform));
                }
                let fresh: Vec<(usize, Particle)> = spawned.collect();
                write_ring(queue, particles, &fresh);
                self.collide = self.effect.collision.is_some() && !local;
                queue.write_buffer(
                    step_buffer,
                    0,
                    bytemuck::bytes_of(&StepUniform::new(
                        &self.effect,
                        &step,
                        inputs.camera,
                        self.slots,
                        self.collide,
                    )),
                );
                self.instances = self.slots;
            }
        }
    }

    /// Where the emitter is, for ordering emitters back to front.
    pub(crate) fn position(&self) -> Vec3 {
        self.world.translation.into()
    }
}

/// Writes spawned particles into their ring slots, one write per run of
/// consecutive slots (two when the frame's spawns wrap around the ring).
fn write_ring(queue: &wgpu::Queue, ring: &wgpu::Buffer, fresh: &[(usize, Particle)]) {
    let mut start = 0;
    while start < fresh.len() {
        let mut end = start + 1;
        while end < fresh.len() && fresh[end].0 == fresh[end - 1].0 + 1 {
            end += 1;
        }
        let run: Vec<Particle> = fresh[start..end].iter().map(|(_, p)| *p).collect();
        queue.write_buffer(
            ring,
            fresh[start].0 as u64 * PARTICLE_SIZE,
            bytemuck::cast_slice(&run),
        );
        start = end;
    }
}

/// Copies this frame's living particles into the instance buffer, growing
/// it (to the next power of two) when they no longer fit.
fn upload_instances(gpu: &GpuContext, buffer: &mut Option<wgpu::Buffer>, drawn: &[Particle]) {
    if drawn.is_empty() {
        return;
    }
    let needed = drawn.len() as u64 * PARTICLE_SIZE;
    if buffer.as_ref().is_none_or(|b| b.size() < needed) {
        *buffer = Some(gpu.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("particle instances"),
            size: needed.next_power_of_two(),
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }));
    }
    if let Some(buffer) = buffer {
        gpu.queue()
            .write_buffer(buffer, 0, bytemuck::cast_slice(drawn));
    }
}
