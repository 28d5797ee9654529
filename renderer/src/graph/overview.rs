//! A compiled graph as plain data: its passes (kind, position in the
//! execution order or culled), its resources (imported or transient, size,
//! physical allocation, aliased), their versions, and the edges between
//! them. The one walk over a compiled graph that the text dumps
//! ([`to_dot`](super::CompiledGraph::to_dot),
//! [`to_mermaid`](super::CompiledGraph::to_mermaid)) and debug overlays share.
//!
//! It owns everything it holds (names are `&'static str`), so it outlives
//! the frame's graph: keep one and refill it each frame with
//! [`CompiledGraph::overview_into`], which reuses its memory.

use super::builder::{PassKind, RenderGraph};
use super::compile::{CompiledGraph, Lifetime, PhysicalId};
use super::desc::ResourceDesc;
use super::handle::PassId;

/// One pass of a compiled graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassOverview {
    /// The pass's id in its graph (registration order).
    pub id: PassId,
    /// The name it was added with.
    pub name: &'static str,
    /// Render, compute or encoder pass.
    pub kind: PassKind,
    /// Position in the execution order; `None` when the pass was culled.
    pub position: Option<usize>,
}

impl PassOverview {
    /// True when the pass was culled (nothing imported depends on it).
    #[must_use]
    pub fn is_culled(&self) -> bool {
        self.position.is_none()
    }
}

/// One resource of a compiled graph (all its versions together).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceOverview {
    /// The label it was added with.
    pub label: &'static str,
    /// What it is created with (texture or buffer, size, format, usage).
    pub desc: ResourceDesc,
    /// Estimated bytes of memory ([`ResourceDesc::byte_size`]).
    pub bytes: u64,
    /// Lives outside the graph (the surface, a history texture); `false`
    /// for transients, which the graph allocates.
    pub imported: bool,
    /// When it is in use; `None` when no live pass touches it.
    pub lifetime: Option<Lifetime>,
    /// The physical allocation of a live transient; `None` for imports and
    /// unused transients.
    pub physical: Option<PhysicalId>,
    /// A live transient sharing its physical allocation with another
    /// transient whose lifetime does not overlap.
    pub aliased: bool,
}

impl ResourceOverview {
    /// True for textures, false for buffers.
    #[must_use]
    pub fn is_texture(&self) -> bool {
        matches!(self.desc, ResourceDesc::Texture(_))
    }
}

/// One version of a resource: `hdr v2` is what the second write made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VersionOverview {
    /// Index of the resource in [`GraphOverview::resources`].
    pub resource: usize,
    /// 0 for the contents the resource starts with, then one per write.
    pub version: u32,
    /// Some pass (live or culled) reads or writes this version.
    pub used: bool,
}

/// An end of a [`GraphEdge`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphNode {
    /// Index in [`GraphOverview::passes`].
    Pass(usize),
    /// Index in [`GraphOverview::versions`].
    Version(usize),
}

/// A dependency: a version read by a pass, or a pass making a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphEdge {
    /// Where the data comes from.
    pub from: GraphNode,
    /// Where it goes.
    pub to: GraphNode,
}

/// A compiled graph as plain data, from [`CompiledGraph::overview`]: its
/// passes (kind, execution position or culled), resources (imported or
/// transient, size, physical allocation, aliased), their versions and the
/// edges between them. The text dumps are written from it, and debug
/// overlays draw it. It owns what it holds (names are `&'static str`), so
/// it outlives the frame's graph; [`CompiledGraph::overview_into`] refills
/// one without allocating.
///
/// ```
/// use taos_renderer::graph::{GraphCompiler, ImportedTexture, RenderGraph, TextureDesc};
/// use wgpu::{LoadOp, TextureFormat, TextureUsages};
///
/// let usage = TextureUsages::RENDER_ATTACHMENT | TextureUsages::TEXTURE_BINDING;
/// let desc = TextureDesc::new_2d(64, 64, TextureFormat::Rgba8Unorm, usage);
/// let mut graph = RenderGraph::new();
/// let surface = graph.import_texture("surface", ImportedTexture::declared(desc));
/// let scratch = graph.create_texture("scratch", desc);
/// graph.add_render_pass("draw", |pass| {
///     let _ = pass.write_color(surface, LoadOp::Clear(wgpu::Color::BLACK));
/// });
/// graph.add_render_pass("unused", |pass| {
///     let _ = pass.write_color(scratch, LoadOp::Clear(wgpu::Color::BLACK));
/// });
/// let mut compiler = GraphCompiler::new();
/// let overview = compiler.compile(&graph)?.overview(&graph);
/// let ran: Vec<_> = overview.executed().map(|pass| pass.name).collect();
/// assert_eq!(ran, ["draw"]);
/// assert!(overview.culled().all(|pass| pass.name == "unused"));
/// assert!(overview.resources[0].imported);
/// # Ok::<(), taos_renderer::graph::CompileError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GraphOverview {
    /// Every pass, culled ones included, in registration order.
    pub passes: Vec<PassOverview>,
    /// Every resource, in registration order.
    pub resources: Vec<ResourceOverview>,
    /// Every version of every resource, in the order they were made.
    pub versions: Vec<VersionOverview>,
    /// Reads and writes, pass by pass in registration order. A write that
    /// loads the previous contents also has an edge from that version.
    pub edges: Vec<GraphEdge>,
    /// Bytes the live transients would take with one allocation each.
    pub transient_bytes: u64,
    /// Bytes of the physical allocations actually used.
    pub allocated_bytes: u64,
}

impl GraphOverview {
    /// The passes that ran, in execution order.
    pub fn executed(&self) -> impl Iterator<Item = &PassOverview> + '_ {
        let mut live: Vec<&PassOverview> = self.passes.iter().filter(|p| !p.is_culled()).collect();
        live.sort_by_key(|p| p.position);
        live.into_iter()
    }

    /// The passes that were culled, in registration order.
    pub fn culled(&self) -> impl Iterator<Item = &PassOverview> + '_ {
        self.passes.iter().filter(|p| p.is_culled())
    }

    /// Bytes saved by aliasing transients.
    #[must_use]
    pub fn bytes_saved(&self) -> u64 {
        self.transient_bytes.saturating_sub(self.allocated_bytes)
    }
}

impl CompiledGraph {
    /// This compilation of `graph` as plain data (see [`GraphOverview`]).
    /// `graph` must be the graph this was compiled from; for any other
    /// graph, every pass reads as culled and no resource as live.
    #[must_use]
    pub fn overview(&self, graph: &RenderGraph<'_>) -> GraphOverview {
        let mut overview = GraphOverview::default();
        self.overview_into(graph, &mut overview);
        overview
    }

    /// [`overview`](Self::overview) into `out`, reusing its memory: once
    /// `out` has held a graph as large, this allocates nothing.
    pub fn overview_into(&self, graph: &RenderGraph<'_>, out: &mut GraphOverview) {
        let ours = self.graph == Some(graph.id);
        out.passes.clear();
        out.passes.extend(
            graph
                .passes
                .iter()
                .enumerate()
                .map(|(p, pass)| PassOverview {
                    id: PassId(p as u32),
                    name: pass.name,
                    kind: pass.kind,
                    position: None,
                }),
        );
        if ours {
            for (position, id) in self.order.iter().enumerate() {
                if let Some(pass) = out.passes.get_mut(id.index()) {
                    pass.position = Some(position);
                }
            }
        }
        let physical = |r: usize| {
            ours.then(|| self.physical.get(r).copied().flatten())
                .flatten()
        };
        out.resources.clear();
        out.resources
            .extend(graph.resources.iter().enumerate().map(|(r, res)| {
                let physical = physical(r);
                ResourceOverview {
                    label: res.label,
                    desc: res.desc,
                    bytes: res.desc.byte_size(),
                    imported: res.import.is_some(),
                    lifetime: ours
                        .then(|| self.lifetimes.get(r).copied().flatten())
                        .flatten(),
                    physical,
                    aliased: false,
                }
            }));
        // A slot is aliased when two resources share it.
        for r in 0..out.resources.len() {
            if let Some(slot) = out.resources[r].physical {
                let shared = out
                    .resources
                    .iter()
                    .enumerate()
                    .any(|(other, res)| other != r && res.physical == Some(slot));
                out.resources[r].aliased = shared;
            }
        }
        out.versions.clear();
        out.versions
            .extend(graph.nodes.iter().map(|n| VersionOverview {
                resource: n.resource as usize,
                version: n.version,
                used: false,
            }));
        out.edges.clear();
        for (p, pass) in graph.passes.iter().enumerate() {
            let span = pass.accesses.start as usize..pass.accesses.end as usize;
            for a in graph.accesses.get(span).unwrap_or_default() {
                if let Some(v) = out.versions.get_mut(a.node as usize) {
                    v.used = true;
                }
                if let Some(read) = a.reads(&graph.nodes) {
                    if let Some(v) = out.versions.get_mut(read as usize) {
                        v.used = true;
                    }
                    out.edges.push(GraphEdge {
                        from: GraphNode::Version(read as usize),
                        to: GraphNode::Pass(p),
                    });
                }
                if a.is_write() {
                    out.edges.push(GraphEdge {
                        from: GraphNode::Pass(p),
                        to: GraphNode::Version(a.node as usize),
                    });
                }
            }
        }
        (out.transient_bytes, out.allocated_bytes) = if ours {
            (self.transient_bytes(), self.allocated_bytes())
        } else {
            (0, 0)
        };
    }
}
