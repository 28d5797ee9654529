//! Executing a compiled graph: bind physical resources, record every live
//! pass into one command encoder, submit once.

use web_time::Instant;

use super::builder::{AccessKind, Import, PassExec, PassKind, RenderGraph};
use super::compile::CompiledGraph;
use super::desc::ResourceDesc;
use super::error::ExecuteError;
use super::handle::{BufferHandle, GraphId, TextureHandle};
use super::pool::ResourcePool;
use crate::timings::{GpuPassTimer, PassCpuTiming};

/// A resource bound to its wgpu object for this frame.
#[derive(Debug)]
enum Bound {
    Texture {
        texture: wgpu::Texture,
        view: wgpu::TextureView,
    },
    Buffer(wgpu::Buffer),
}

/// What a pass's recording closure can reach: the device and queue, and the
/// wgpu objects behind the graph's handles.
#[derive(Debug)]
pub struct PassResources<'r> {
    device: &'r wgpu::Device,
    queue: &'r wgpu::Queue,
    graph: GraphId,
    bound: &'r [Option<Bound>],
}

impl PassResources<'_> {
    /// The device (to make bind groups over graph resources).
    #[must_use]
    pub fn device(&self) -> &wgpu::Device {
        self.device
    }

    /// The queue (to upload uniforms before the submit).
    #[must_use]
    pub fn queue(&self) -> &wgpu::Queue {
        self.queue
    }

    fn bound(&self, graph: GraphId, resource: u32) -> Option<&Bound> {
        if graph != self.graph {
            return None;
        }
        self.bound.get(resource as usize)?.as_ref()
    }

    /// The texture behind `handle`, or `None` if no live pass uses it or the
    /// handle is from another graph.
    #[must_use]
    pub fn texture(&self, handle: TextureHandle) -> Option<&wgpu::Texture> {
        match self.bound(handle.raw.graph, handle.raw.resource)? {
            Bound::Texture { texture, .. } => Some(texture),
            Bound::Buffer(_) => None,
        }
    }

    /// A view of the whole texture behind `handle` (see [`texture`](Self::texture)).
    #[must_use]
    pub fn texture_view(&self, handle: TextureHandle) -> Option<&wgpu::TextureView> {
        match self.bound(handle.raw.graph, handle.raw.resource)? {
            Bound::Texture { view, .. } => Some(view),
            Bound::Buffer(_) => None,
        }
    }

    /// The buffer behind `handle` (see [`texture`](Self::texture)).
    #[must_use]
    pub fn buffer(&self, handle: BufferHandle) -> Option<&wgpu::Buffer> {
        match self.bound(handle.raw.graph, handle.raw.resource)? {
            Bound::Buffer(b) => Some(b),
            Bound::Texture { .. } => None,
        }
    }
}

fn bind_texture(texture: wgpu::Texture) -> Bound {
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    Bound::Texture { texture, view }
}

impl RenderGraph<'_> {
    /// Runs the graph: takes physical transients from `pool`, records every
    /// live pass in `compiled` order into one command encoder, and submits
    /// it with one `queue.submit`. The graph's memory goes back to `pool`
    /// for its next [`new_graph`](ResourcePool::new_graph).
    ///
    /// # Errors
    /// [`ExecuteError::GraphMismatch`] when `compiled` came from another
    /// graph; [`ExecuteError::UnboundImport`] when a live pass uses an import
    /// that was only declared.
    pub fn execute(
        self,
        compiled: &CompiledGraph,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        pool: &mut ResourcePool,
    ) -> Result<wgpu::SubmissionIndex, ExecuteError> {
        self.execute_timed(compiled, device, queue, pool, None, None)
    }

    /// [`execute`](Self::execute), writing a timestamp when each pass
    /// begins and ends into `timer`'s queries (render and compute passes
    /// through their descriptors; encoder passes only where the device
    /// allows timestamps between passes) and resolving them at the end of
    /// the encoder; and, into `cpu_passes`, the CPU time each pass took to
    /// record.
    pub(crate) fn execute_timed(
        mut self,
        compiled: &CompiledGraph,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        pool: &mut ResourcePool,
        mut timer: Option<&mut GpuPassTimer>,
        mut cpu_passes: Option<&mut Vec<PassCpuTiming>>,
    ) -> Result<wgpu::SubmissionIndex, ExecuteError> {
        if compiled.graph != Some(self.id) {
            return Err(ExecuteError::GraphMismatch {
                compiled: compiled.graph.map_or(0, |g| g.0),
                graph: self.id.0,
            });
        }
        let bound = self.bind(compiled, device, pool)?;
        let resources = PassResources {
            device,
            queue,
            graph: self.id,
            bound: &bound,
        };
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("taos render graph"),
        });
        if let Some(cpu_passes) = cpu_passes.as_deref_mut() {
            cpu_passes.clear();
        }
        for &id in &compiled.order {
            let started = Instant::now();
            let exec = self.take_exec(id);
            let pass = &self.passes[id.index()];
            let (kind, name) = (pass.kind, pass.name);
            let timed = match (kind, timer.as_deref_mut()) {
                (PassKind::Encoder, Some(t)) if !t.times_encoder_passes() => None,
                (_, Some(t)) => t.reserve(name, kind),
                (_, None) => None,
            };
            match kind {
                PassKind::Render => {
                    let pass = &self.passes[id.index()];
                    let span = pass.accesses.start as usize..pass.accesses.end as usize;
                    let accesses = &self.accesses[span];
                    let view = |node: u32| {
                        let r = self.nodes[node as usize].resource as usize;
                        match &bound[r] {
                            Some(Bound::Texture { view, .. }) => view,
                            _ => unreachable!("a live pass's targets are bound textures"),
                        }
                    };
                    let colors: Vec<Option<wgpu::RenderPassColorAttachment<'_>>> = accesses
                        .iter()
                        .filter_map(|a| match a.kind {
                            AccessKind::Color(load) => {
                                Some(Some(wgpu::RenderPassColorAttachment {
                                    view: view(a.node),
                                    depth_slice: None,
                                    resolve_target: None,
                                    ops: wgpu::Operations {
                                        load: self.color_load(load),
                                        store: wgpu::StoreOp::Store,
                                    },
                                }))
                            }
                            _ => None,
                        })
                        .collect();
                    let depth = accesses.iter().find_map(|a| {
                        let r = self.nodes[a.node as usize].resource as usize;
                        let has_stencil = match self.resources[r].desc {
                            ResourceDesc::Texture(d) => d.format.has_stencil_aspect(),
                            ResourceDesc::Buffer(_) => false,
                        };
                        let (depth_ops, stencil_ops) = match a.kind {
                            AccessKind::Depth(load) => {
                                let stencil = match load {
                                    wgpu::LoadOp::Clear(_) => wgpu::LoadOp::Clear(0),
                                    _ => wgpu::LoadOp::Load,
                                };
                                (
                                    Some(wgpu::Operations {
                                        load,
                                        store: wgpu::StoreOp::Store,
                                    }),
                                    has_stencil.then_some(wgpu::Operations {
                                        load: stencil,
                                        store: wgpu::StoreOp::Store,
                                    }),
                                )
                            }
                            AccessKind::DepthReadOnly => (None, None),
                            _ => return None,
                        };
                        Some(wgpu::RenderPassDepthStencilAttachment {
                            view: view(a.node),
                            depth_ops,
                            stencil_ops,
                        })
                    });
                    let mut rpass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                        label: Some(pass.name),
                        color_attachments: &colors,
                        depth_stencil_attachment: depth,
                        timestamp_writes: timed.as_ref().map(|(query_set, begin)| {
                            wgpu::RenderPassTimestampWrites {
                                query_set,
                                beginning_of_pass_write_index: Some(*begin),
                                end_of_pass_write_index: Some(begin + 1),
                            }
                        }),
                        occlusion_query_set: None,
                        multiview_mask: None,
                    });
                    if let Some(PassExec::Render(record)) = exec {
                        record(&mut rpass, &resources);
                    }
                }
                PassKind::Compute => {
                    let mut cpass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: Some(name),
                        timestamp_writes: timed.as_ref().map(|(query_set, begin)| {
                            wgpu::ComputePassTimestampWrites {
                                query_set,
                                beginning_of_pass_write_index: Some(*begin),
                                end_of_pass_write_index: Some(begin + 1),
                            }
                        }),
                    });
                    if let Some(PassExec::Compute(record)) = exec {
                        record(&mut cpass, &resources);
                    }
                }
                PassKind::Encoder => {
                    if let Some((query_set, begin)) = &timed {
                        encoder.write_timestamp(query_set, *begin);
                    }
                    if let Some(PassExec::Encoder(record)) = exec {
                        record(&mut encoder, &resources);
                    }
                    if let Some((query_set, begin)) = &timed {
                        encoder.write_timestamp(query_set, begin + 1);
                    }
                }
            }
            if let Some(cpu_passes) = cpu_passes.as_deref_mut() {
                cpu_passes.push(PassCpuTiming {
                    name,
                    kind,
                    record: started.elapsed(),
                });
            }
        }
        if let Some(timer) = timer.as_deref_mut() {
            timer.resolve(&mut encoder);
        }
        let index = queue.submit(Some(encoder.finish()));
        if let Some(timer) = timer {
            timer.submitted();
        }
        pool.keep_graph_storage(self.recycle());
        Ok(index)
    }

    /// The wgpu object of every resource a live pass touches.
    fn bind(
        &mut self,
        compiled: &CompiledGraph,
        device: &wgpu::Device,
        pool: &mut ResourcePool,
    ) -> Result<Vec<Option<Bound>>, ExecuteError> {
        pool.begin_frame();
        let mut physical: Vec<Bound> = Vec::with_capacity(compiled.slots.len());
        for slot in &compiled.slots {
            let label = self.resources[slot.first_resource as usize].label;
            physical.push(match &slot.desc {
                ResourceDesc::Texture(d) => bind_texture(pool.texture(device, d, label)),
                ResourceDesc::Buffer(d) => Bound::Buffer(pool.buffer(device, d, label)),
            });
        }
        let mut bound = Vec::with_capacity(self.resources.len());
        for (r, res) in self.resources.iter().enumerate() {
            if compiled.lifetimes[r].is_none() {
                bound.push(None);
                continue;
            }
            let import = res.import.map(|i| &mut self.imports[i as usize]);
            let b = match (import, compiled.physical[r]) {
                (Some(Import::Texture(t)), _) => {
                    bind_texture(t.take().ok_or(ExecuteError::UnboundImport {
                        resource: res.label,
                    })?)
                }
                (Some(Import::Buffer(b)), _) => {
                    Bound::Buffer(b.take().ok_or(ExecuteError::UnboundImport {
                        resource: res.label,
                    })?)
                }
                (None, Some(slot)) => match &physical[slot.index()] {
                    Bound::Texture { texture, view } => Bound::Texture {
                        texture: texture.clone(),
                        view: view.clone(),
                    },
                    Bound::Buffer(b) => Bound::Buffer(b.clone()),
                },
                (None, None) => unreachable!("every live transient has a physical slot"),
            };
            bound.push(Some(b));
        }
        Ok(bound)
    }
}
