//! Compiling a graph: validate, cull, order, assign lifetimes, alias
//! transients. CPU only: no wgpu device is needed.
//!
//! A [`GraphCompiler`] keeps its scratch space and its [`CompiledGraph`]
//! between frames, so compiling a graph no larger than an earlier one
//! allocates nothing.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::builder::{Access, AccessKind, Needs, RenderGraph, VersionNode};
use super::desc::ResourceDesc;
use super::error::{CompileError, CycleEdge};
use super::handle::{GraphId, Handle, PassId};

/// The span of a resource's use: positions in [`CompiledGraph::order`]
/// of the first and last live pass that touches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetime {
    /// Position of the first pass using it.
    pub first: usize,
    /// Position of the last pass using it.
    pub last: usize,
}

impl Lifetime {
    /// True when the two spans share a pass.
    #[must_use]
    pub fn overlaps(self, other: Self) -> bool {
        self.first <= other.last && other.first <= self.last
    }
}

/// One physical texture or buffer that transients are placed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhysicalId(pub(crate) u32);

impl PhysicalId {
    /// Index among [`CompiledGraph::physical_count`] allocations.
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Slot {
    pub(crate) desc: ResourceDesc,
    /// The resource that first took the slot (its label names the allocation).
    pub(crate) first_resource: u32,
    /// Last order position in use so far.
    last: usize,
    /// `desc.byte_size()`, worked out once per slot.
    bytes: u64,
}

/// The result of compiling a [`RenderGraph`]: which passes run and in what
/// order, how long each resource lives, and which physical allocation each
/// transient uses.
#[derive(Debug, Clone, Default)]
pub struct CompiledGraph {
    pub(crate) graph: Option<GraphId>,
    pub(crate) order: Vec<PassId>,
    pub(crate) culled: Vec<PassId>,
    pub(crate) alive: Vec<bool>,
    pub(crate) lifetimes: Vec<Option<Lifetime>>,
    pub(crate) physical: Vec<Option<PhysicalId>>,
    pub(crate) slots: Vec<Slot>,
    transient_bytes: u64,
    allocated_bytes: u64,
}

impl CompiledGraph {
    /// The graph this was compiled from.
    #[must_use]
    pub fn graph(&self) -> Option<GraphId> {
        self.graph
    }

    /// Live passes in execution order: every pass after the passes it
    /// depends on; independent passes keep their registration order.
    #[must_use]
    pub fn order(&self) -> &[PassId] {
        &self.order
    }

    /// Passes that were culled because nothing imported depends on them, in
    /// registration order.
    #[must_use]
    pub fn culled(&self) -> &[PassId] {
        &self.culled
    }

    /// True when `pass` was culled.
    #[must_use]
    pub fn is_culled(&self, pass: PassId) -> bool {
        !self.alive.get(pass.index()).copied().unwrap_or(false)
    }

    /// When the resource behind `handle` is in use, or `None` if no live
    /// pass touches it (or the handle is from another graph).
    #[must_use]
    pub fn lifetime<K>(&self, handle: Handle<K>) -> Option<Lifetime> {
        if Some(handle.raw.graph) != self.graph {
            return None;
        }
        self.lifetimes
            .get(handle.raw.resource as usize)
            .copied()
            .flatten()
    }

    /// The physical allocation a transient was given; `None` for imports and
    /// for transients no live pass touches.
    #[must_use]
    pub fn physical<K>(&self, handle: Handle<K>) -> Option<PhysicalId> {
        if Some(handle.raw.graph) != self.graph {
            return None;
        }
        self.physical
            .get(handle.raw.resource as usize)
            .copied()
            .flatten()
    }

    /// Number of physical transient allocations.
    #[must_use]
    pub fn physical_count(&self) -> usize {
        self.slots.len()
    }

    /// The description of a physical allocation.
    #[must_use]
    pub fn physical_desc(&self, id: PhysicalId) -> ResourceDesc {
        self.slots[id.index()].desc
    }

    /// Bytes the live transients would take with one allocation each.
    #[must_use]
    pub fn transient_bytes(&self) -> u64 {
        self.transient_bytes
    }

    /// Bytes of the physical allocations actually used.
    #[must_use]
    pub fn allocated_bytes(&self) -> u64 {
        self.allocated_bytes
    }

    /// Bytes saved by placing transients with disjoint lifetimes in one
    /// allocation.
    #[must_use]
    pub fn bytes_saved(&self) -> u64 {
        self.transient_bytes - self.allocated_bytes
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Edge {
    from: u32,
    to: u32,
    resource: u32,
}

/// Compiles graphs, keeping scratch memory and the last [`CompiledGraph`]
/// from frame to frame. Keep one per renderer.
#[derive(Debug, Default)]
pub struct GraphCompiler {
    compiled: CompiledGraph,
    edges: Vec<Edge>,
    edge_start: Vec<u32>,
    cursor: Vec<u32>,
    successors: Vec<u32>,
    indegree: Vec<u32>,
    ready: BinaryHeap<Reverse<u32>>,
    by_first: Vec<(usize, u32)>,
}

impl GraphCompiler {
    /// A compiler with no scratch memory yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The last successful compilation.
    #[must_use]
    pub fn compiled(&self) -> &CompiledGraph {
        &self.compiled
    }

    /// Gives up the last compilation (and its memory).
    #[must_use]
    pub fn into_compiled(self) -> CompiledGraph {
        self.compiled
    }

    /// Validates `graph`, culls passes no import depends on, orders the rest,
    /// computes resource lifetimes and places transients in physical
    /// allocations, reusing one for descriptions that match and lifetimes
    /// that do not overlap.
    ///
    /// # Errors
    /// A [`CompileError`] naming the pass and resource at fault.
    pub fn compile(&mut self, graph: &RenderGraph<'_>) -> Result<&CompiledGraph, CompileError> {
        self.compiled.graph = None;
        if let Some(error) = &graph.error {
            return Err(error.clone());
        }
        if graph.suspect {
            validate(graph)?;
        }
        self.cull(graph);
        self.order(graph)?;
        self.lifetimes(graph);
        self.alias(graph);
        self.compiled.graph = Some(graph.id);
        Ok(&self.compiled)
    }

    fn cull(&mut self, graph: &RenderGraph<'_>) {
        let alive = &mut self.compiled.alive;
        alive.clear();
        alive.extend(graph.passes.iter().map(|p| p.keep || p.writes_import));
        // What a pass reads was written by it or an earlier pass, so one
        // sweep from the last pass back reaches every producer.
        for (p, pass) in graph.passes.iter().enumerate().rev() {
            if !alive[p] {
                continue;
            }
            for a in accesses(graph, pass.accesses.clone()) {
                if let Some(read) = a.reads(&graph.nodes)
                    && let Some(writer) = graph.nodes[read as usize].writer
                {
                    alive[writer.index()] = true;
                }
            }
        }
        self.compiled.culled.clear();
        self.compiled.culled.extend(
            alive
                .iter()
                .enumerate()
                .filter(|(_, a)| !**a)
                .map(|(i, _)| PassId(i as u32)),
        );
    }

    /// Orders the live passes: every pass after those it depends on, and
    /// otherwise in registration order.
    fn order(&mut self, graph: &RenderGraph<'_>) -> Result<(), CompileError> {
        if graph.backward {
            return self.sort(graph);
        }
        // Every dependency runs forwards: registration order is the order
        // (the one `sort` finds too, taking the smallest ready index).
        let order = &mut self.compiled.order;
        order.clear();
        order.extend(
            self.compiled
                .alive
                .iter()
                .enumerate()
                .filter(|(_, a)| **a)
                .map(|(i, _)| PassId(i as u32)),
        );
        Ok(())
    }

    /// Collects ordering edges between live passes and sorts them
    /// topologically (Kahn, smallest registration index first).
    fn sort(&mut self, graph: &RenderGraph<'_>) -> Result<(), CompileError> {
        let alive = &self.compiled.alive;
        let nodes = &graph.nodes;
        self.edges.clear();
        for (p, pass) in graph.passes.iter().enumerate() {
            if !alive[p] {
                continue;
            }
            let p = p as u32;
            for a in accesses(graph, pass.accesses.clone()) {
                let node = nodes[a.node as usize];
                // Read after write: the producer of what is read comes first.
                if let Some(read) = a.reads(nodes) {
                    let read_node = nodes[read as usize];
                    if let Some(w) = read_node.writer {
                        self.edges.push(Edge {
                            from: w.0,
                            to: p,
                            resource: read_node.resource,
                        });
                    }
                    // Write after read: whoever overwrites what is read
                    // comes after (a pass may update in place).
                    if let Some(o) = read_node.overwritten_by
                        && o.0 != p
                        && alive[o.index()]
                    {
                        self.edges.push(Edge {
                            from: p,
                            to: o.0,
                            resource: read_node.resource,
                        });
                    }
                }
                // Write after write on one physical resource.
                if a.is_write()
                    && let Some(prev) = node.prev
                    && let Some(w) = nodes[prev as usize].writer
                    && alive[w.index()]
                    && w.0 != p
                {
                    self.edges.push(Edge {
                        from: w.0,
                        to: p,
                        resource: node.resource,
                    });
                }
            }
        }
        // Successor lists by counting sort (duplicate edges are harmless:
        // each adds to and takes from the in-degree once).
        let n = graph.passes.len();
        self.edge_start.clear();
        self.edge_start.resize(n + 1, 0);
        self.indegree.clear();
        self.indegree.resize(n, 0);
        for e in &self.edges {
            self.edge_start[e.from as usize + 1] += 1;
            self.indegree[e.to as usize] += 1;
        }
        for i in 0..n {
            self.edge_start[i + 1] += self.edge_start[i];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.edge_start[..n]);
        self.successors.clear();
        self.successors.resize(self.edges.len(), 0);
        for e in &self.edges {
            let slot = &mut self.cursor[e.from as usize];
            self.successors[*slot as usize] = e.to;
            *slot += 1;
        }

        self.ready.clear();
        for (p, (&live, &deg)) in alive.iter().zip(&self.indegree).enumerate() {
            if live && deg == 0 {
                self.ready.push(Reverse(p as u32));
            }
        }
        let order = &mut self.compiled.order;
        order.clear();
        while let Some(Reverse(p)) = self.ready.pop() {
            order.push(PassId(p));
            let span =
                self.edge_start[p as usize] as usize..self.edge_start[p as usize + 1] as usize;
            for &to in &self.successors[span] {
                let d = &mut self.indegree[to as usize];
                *d -= 1;
                if *d == 0 {
                    self.ready.push(Reverse(to));
                }
            }
        }
        let live = alive.iter().filter(|a| **a).count();
        if order.len() < live {
            return Err(self.find_cycle(graph));
        }
        Ok(())
    }

    /// After Kahn stalls, every pass left has a predecessor that is also
    /// left: walking predecessors must come back to a pass already seen.
    fn find_cycle(&self, graph: &RenderGraph<'_>) -> CompileError {
        let left = |p: u32| self.compiled.alive[p as usize] && self.indegree[p as usize] > 0;
        let start = (0..graph.passes.len() as u32)
            .find(|&p| left(p))
            .expect("Kahn stalled, so some live pass still has predecessors");
        let mut path: Vec<Edge> = Vec::new();
        let mut at = start;
        loop {
            let edge = *self
                .edges
                .iter()
                .find(|e| e.to == at && left(e.from))
                .expect("a pass left after Kahn has a predecessor that is left");
            path.push(edge);
            if let Some(pos) = path.iter().position(|e| e.to == edge.from) {
                path.drain(..pos);
                break;
            }
            at = edge.from;
        }
        // `path` walks backwards; the cycle is the reversed walk.
        path.reverse();
        let edges = path
            .iter()
            .map(|e| CycleEdge {
                from: graph.passes[e.from as usize].name,
                to: graph.passes[e.to as usize].name,
                resource: graph.resources[e.resource as usize].label,
            })
            .collect();
        CompileError::Cycle { edges }
    }

    fn lifetimes(&mut self, graph: &RenderGraph<'_>) {
        let lifetimes = &mut self.compiled.lifetimes;
        lifetimes.clear();
        lifetimes.resize(graph.resources.len(), None);
        // Transients in order of first use, for `alias`.
        self.by_first.clear();
        for (pos, pass) in self.compiled.order.iter().enumerate() {
            for a in accesses(graph, graph.passes[pass.index()].accesses.clone()) {
                let r = a.resource as usize;
                match &mut lifetimes[r] {
                    Some(span) => span.last = pos,
                    None => {
                        lifetimes[r] = Some(Lifetime {
                            first: pos,
                            last: pos,
                        });
                        if graph.resources[r].import.is_none() {
                            self.by_first.push((pos, r as u32));
                        }
                    }
                }
            }
        }
    }

    /// Places live transients in physical slots. Taking them by first use
    /// and reusing any matching slot already free is interval colouring,
    /// which uses the fewest slots per description.
    fn alias(&mut self, graph: &RenderGraph<'_>) {
        let c = &mut self.compiled;
        c.physical.clear();
        c.physical.resize(graph.resources.len(), None);
        c.slots.clear();
        c.transient_bytes = 0;
        c.allocated_bytes = 0;
        for &(first, r) in &self.by_first {
            let desc = graph.resources[r as usize].desc;
            let last = c.lifetimes[r as usize].map_or(first, |s| s.last);
            let slot = match c
                .slots
                .iter()
                .position(|s| s.last < first && s.desc == desc)
            {
                Some(i) => {
                    c.slots[i].last = last;
                    c.transient_bytes += c.slots[i].bytes;
                    i
                }
                None => {
                    let bytes = desc.byte_size();
                    c.slots.push(Slot {
                        desc,
                        first_resource: r,
                        last,
                        bytes,
                    });
                    c.transient_bytes += bytes;
                    c.allocated_bytes += bytes;
                    c.slots.len() - 1
                }
            };
            c.physical[r as usize] = Some(PhysicalId(slot as u32));
        }
    }
}

fn accesses<'g>(graph: &'g RenderGraph<'_>, range: std::ops::Range<u32>) -> &'g [Access] {
    &graph.accesses[range.start as usize..range.end as usize]
}

/// Per-access checks that need no ordering: reads of unwritten transients
/// and usages the description lacks. (Foreign handles and write conflicts
/// are caught while building.) Only needed when the builder marked the
/// graph [`suspect`](RenderGraph::suspect); then it finds the first error in
/// pass and access order.
pub(crate) fn validate(graph: &RenderGraph<'_>) -> Result<(), CompileError> {
    for pass in &graph.passes {
        for a in accesses(graph, pass.accesses.clone()) {
            let node: VersionNode = graph.nodes[a.node as usize];
            let res = &graph.resources[node.resource as usize];
            match (a.needs, res.desc) {
                (Needs::Texture(needed), ResourceDesc::Texture(d)) if !d.usage.contains(needed) => {
                    return Err(CompileError::MissingTextureUsage {
                        pass: pass.name,
                        resource: res.label,
                        needed,
                    });
                }
                (Needs::Buffer(needed), ResourceDesc::Buffer(d)) if !d.usage.contains(needed) => {
                    return Err(CompileError::MissingBufferUsage {
                        pass: pass.name,
                        resource: res.label,
                        needed,
                    });
                }
                _ => {}
            }
            if a.kind == AccessKind::Read
                && let Needs::Texture(_) = a.needs
            {
                let target = accesses(graph, pass.accesses.clone()).iter().any(|b| {
                    matches!(b.kind, AccessKind::Color(_) | AccessKind::Depth(_))
                        && graph.nodes[b.node as usize].resource == node.resource
                });
                if target {
                    return Err(CompileError::ReadsOwnTarget {
                        pass: pass.name,
                        resource: res.label,
                    });
                }
            }
            if let Some(read) = a.reads(&graph.nodes) {
                let read = graph.nodes[read as usize];
                if read.writer.is_none() && res.import.is_none() {
                    return Err(CompileError::ReadBeforeWrite {
                        pass: pass.name,
                        resource: res.label,
                        version: read.version,
                    });
                }
            }
        }
    }
    Ok(())
}
