//! Building a graph: resources, passes, and what each pass touches.

use std::marker::PhantomData;
use std::ops::Range;

use super::desc::{BufferDesc, ResourceDesc, TextureDesc};
use super::error::CompileError;
use super::execute::PassResources;
use super::handle::{BufferHandle, GraphId, Handle, PassId, RawHandle, TextureHandle};

mod pass;

pub use pass::{Compute, Encoder, PassBuilder, Render};

/// Most colour targets one render pass may declare (wgpu's default
/// `max_color_attachments`).
pub const MAX_COLOR_TARGETS: usize = 8;

/// A texture that lives outside the graph: the surface, a read-back target,
/// or a history texture kept across frames.
#[derive(Debug, Clone)]
pub struct ImportedTexture {
    pub(crate) desc: TextureDesc,
    pub(crate) texture: Option<wgpu::Texture>,
}

impl ImportedTexture {
    /// Imports `texture`; its description is read from it.
    #[must_use]
    pub fn new(texture: wgpu::Texture) -> Self {
        Self {
            desc: TextureDesc::of_texture(&texture),
            texture: Some(texture),
        }
    }

    /// Declares an import without a wgpu object: enough to compile (tests,
    /// tools, dumps), but executing a live pass that uses it fails with
    /// [`ExecuteError::UnboundImport`](super::ExecuteError::UnboundImport).
    #[must_use]
    pub fn declared(desc: TextureDesc) -> Self {
        Self {
            desc,
            texture: None,
        }
    }
}

/// A buffer that lives outside the graph (a read-back buffer, a persistent
/// storage buffer).
#[derive(Debug, Clone)]
pub struct ImportedBuffer {
    pub(crate) desc: BufferDesc,
    pub(crate) buffer: Option<wgpu::Buffer>,
}

impl ImportedBuffer {
    /// Imports `buffer`; its description is read from it.
    #[must_use]
    pub fn new(buffer: wgpu::Buffer) -> Self {
        Self {
            desc: BufferDesc::of_buffer(&buffer),
            buffer: Some(buffer),
        }
    }

    /// Declares an import without a wgpu object (see [`ImportedTexture::declared`]).
    #[must_use]
    pub fn declared(desc: BufferDesc) -> Self {
        Self { desc, buffer: None }
    }
}

#[derive(Debug)]
pub(crate) enum Import {
    Texture(Option<wgpu::Texture>),
    Buffer(Option<wgpu::Buffer>),
}

#[derive(Debug)]
pub(crate) struct ResourceEntry {
    pub(crate) label: &'static str,
    pub(crate) desc: ResourceDesc,
    /// Index in [`RenderGraph::imports`]; `None` for transients, which the
    /// graph allocates. (The wgpu objects live apart so this stays small.)
    pub(crate) import: Option<u32>,
    /// Versions made so far (the next write makes version `versions`).
    pub(crate) versions: u32,
    /// The last pass that read it as a texture, and the last that rendered
    /// to it (`u32::MAX`: none): a pass doing both reads its own target.
    pub(crate) sampled_by: u32,
    pub(crate) target_of: u32,
}

/// One version of a resource.
#[derive(Debug, Clone, Copy)]
pub(crate) struct VersionNode {
    pub(crate) resource: u32,
    pub(crate) version: u32,
    /// The pass that made this version (`None` for version 0).
    pub(crate) writer: Option<PassId>,
    /// The version this one was written over.
    pub(crate) prev: Option<u32>,
    /// The pass that wrote over this version, if any.
    pub(crate) overwritten_by: Option<PassId>,
}

/// How a pass touches one version node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum AccessKind {
    /// Reads `node`.
    Read,
    /// Writes `node` (storage writes, copies). The previous version is not
    /// read: a pass that updates in place also reads it.
    Write,
    /// Colour target `node`; `Clear` discards the previous version. The
    /// clear colour is [`RenderGraph::clear_colors`]`[i]` for `Clear(i)`
    /// (kept apart, it would make every access five times larger).
    Color(wgpu::LoadOp<u32>),
    /// Depth target `node`, written.
    Depth(wgpu::LoadOp<f32>),
    /// Depth target `node`, tested but not written.
    DepthReadOnly,
}

/// The usage flags an access needs from the resource description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Needs {
    Texture(wgpu::TextureUsages),
    Buffer(wgpu::BufferUsages),
}

impl Needs {
    /// True when `desc` lacks a usage this needs.
    #[inline]
    pub(crate) fn missing_in(self, desc: &ResourceDesc) -> bool {
        match (self, desc) {
            (Needs::Texture(needed), ResourceDesc::Texture(d)) => !d.usage.contains(needed),
            (Needs::Buffer(needed), ResourceDesc::Buffer(d)) => !d.usage.contains(needed),
            _ => false,
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Access {
    /// The node read, or for writes the node made.
    pub(crate) node: u32,
    /// The resource of `node` (saves looking it up).
    pub(crate) resource: u32,
    pub(crate) kind: AccessKind,
    pub(crate) needs: Needs,
}

impl Access {
    /// The node whose contents this access depends on, if any.
    pub(crate) fn reads(&self, nodes: &[VersionNode]) -> Option<u32> {
        match self.kind {
            AccessKind::Read | AccessKind::DepthReadOnly => Some(self.node),
            AccessKind::Color(wgpu::LoadOp::Load) | AccessKind::Depth(wgpu::LoadOp::Load) => {
                nodes[self.node as usize].prev
            }
            AccessKind::Write | AccessKind::Color(_) | AccessKind::Depth(_) => None,
        }
    }

    /// True for accesses that make a new version.
    pub(crate) fn is_write(&self) -> bool {
        matches!(
            self.kind,
            AccessKind::Write | AccessKind::Color(_) | AccessKind::Depth(_)
        )
    }
}

/// The kinds of pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassKind {
    /// A wgpu render pass with colour and depth targets.
    Render,
    /// A wgpu compute pass.
    Compute,
    /// Raw command-encoder work: copies, clears, read-backs.
    Encoder,
}

type RenderFn<'a> = Box<dyn FnOnce(&mut wgpu::RenderPass<'_>, &PassResources<'_>) + 'a>;
type ComputeFn<'a> = Box<dyn FnOnce(&mut wgpu::ComputePass<'_>, &PassResources<'_>) + 'a>;
type EncoderFn<'a> = Box<dyn FnOnce(&mut wgpu::CommandEncoder, &PassResources<'_>) + 'a>;

pub(crate) enum PassExec<'a> {
    Render(RenderFn<'a>),
    Compute(ComputeFn<'a>),
    Encoder(EncoderFn<'a>),
}

/// A pass, less its closure (kept apart in [`RenderGraph::execs`], so that
/// this has no lifetime and its Vec can be kept from frame to frame).
#[derive(Debug, Clone)]
pub(crate) struct PassNode {
    pub(crate) name: &'static str,
    pub(crate) kind: PassKind,
    pub(crate) accesses: Range<u32>,
    /// Never culled (side effects the graph cannot see).
    pub(crate) keep: bool,
    /// Writes an imported resource: an output of the graph, never culled.
    pub(crate) writes_import: bool,
}

/// A render graph for one frame: resources, passes, and what each pass
/// reads and writes. Build it, [compile](super::GraphCompiler::compile) it,
/// then [execute](RenderGraph::execute) it.
///
/// `'a` is how long the pass closures may borrow (pipelines, the frame's
/// draw lists).
///
/// A graph is built anew each frame, but its memory need not be:
/// [`recycle`](Self::recycle) a finished graph and start the next one
/// [`with_storage`](Self::with_storage) (or take graphs from
/// [`ResourcePool::new_graph`](super::ResourcePool::new_graph), which
/// [`execute`](Self::execute) gives the memory back to), and building a graph
/// no larger than an earlier one allocates nothing.
pub struct RenderGraph<'a> {
    pub(crate) id: GraphId,
    pub(crate) resources: Vec<ResourceEntry>,
    pub(crate) nodes: Vec<VersionNode>,
    pub(crate) passes: Vec<PassNode>,
    /// Recording closures by pass index; shorter than `passes` when the last
    /// passes have none (empty, unallocated, when no pass has one). The only
    /// part borrowing for `'a`, so the only part not recycled.
    pub(crate) execs: Vec<Option<PassExec<'a>>>,
    pub(crate) accesses: Vec<Access>,
    /// Clear colours of colour targets, indexed by [`AccessKind::Color`].
    pub(crate) clear_colors: Vec<wgpu::Color>,
    pub(crate) imports: Vec<Import>,
    /// The first error found while building, reported by compile.
    pub(crate) error: Option<CompileError>,
    /// Some dependency may run backwards, from a pass to an earlier one or
    /// to itself: a pass read a version an earlier pass had already written
    /// over, or read what it wrote itself. Otherwise every dependency runs
    /// forwards and registration order is the execution order.
    pub(crate) backward: bool,
    /// Some access may be invalid: it needs a usage its resource lacks, it
    /// reads a transient nobody wrote, or its pass reads its own target.
    /// Compile then validates every access to name the first such; without
    /// this flag no access can fail validation, and compile skips it.
    pub(crate) suspect: bool,
}

/// The memory of a finished [`RenderGraph`], empty and with no lifetime, for
/// the next frame's graph: see [`RenderGraph::recycle`] and
/// [`RenderGraph::with_storage`].
///
/// It holds no resources, passes or wgpu objects, only capacity; a graph
/// made from it gets a fresh [`GraphId`], so handles of the graph it came
/// from are still refused. (The Vec of pass closures, which borrow for the
/// graph's lifetime, is not kept.)
#[derive(Default)]
pub struct GraphStorage {
    resources: Vec<ResourceEntry>,
    nodes: Vec<VersionNode>,
    passes: Vec<PassNode>,
    accesses: Vec<Access>,
    clear_colors: Vec<wgpu::Color>,
    imports: Vec<Import>,
}

impl GraphStorage {
    /// Storage with no memory yet (the first graph built in it allocates).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Passes a graph built in this storage can hold before it allocates.
    #[must_use]
    pub fn pass_capacity(&self) -> usize {
        self.passes.capacity()
    }

    /// Resources a graph built in this storage can hold before it allocates.
    #[must_use]
    pub fn resource_capacity(&self) -> usize {
        self.resources.capacity()
    }
}

impl std::fmt::Debug for GraphStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GraphStorage")
            .field("resources", &self.resources.capacity())
            .field("nodes", &self.nodes.capacity())
            .field("passes", &self.passes.capacity())
            .field("accesses", &self.accesses.capacity())
            .field("clear_colors", &self.clear_colors.capacity())
            .field("imports", &self.imports.capacity())
            .finish()
    }
}

impl Default for RenderGraph<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for RenderGraph<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RenderGraph")
            .field("id", &self.id)
            .field("resources", &self.resources.len())
            .field("passes", &self.passes.len())
            .finish_non_exhaustive()
    }
}

impl<'a> RenderGraph<'a> {
    /// An empty graph with a fresh [`GraphId`].
    #[must_use]
    pub fn new() -> Self {
        Self::with_storage(GraphStorage::new())
    }

    /// An empty graph with a fresh [`GraphId`], built in the memory of an
    /// earlier one (see [`recycle`](Self::recycle)).
    #[must_use]
    pub fn with_storage(storage: GraphStorage) -> Self {
        let GraphStorage {
            resources,
            nodes,
            passes,
            accesses,
            clear_colors,
            imports,
        } = storage;
        Self {
            id: GraphId::fresh(),
            resources,
            nodes,
            passes,
            execs: Vec::new(),
            accesses,
            clear_colors,
            imports,
            error: None,
            backward: false,
            suspect: false,
        }
    }

    /// Ends this graph and keeps its memory for the next one: passes,
    /// resources and imports are dropped, capacity stays (pass closures and
    /// their Vec are dropped).
    #[must_use]
    pub fn recycle(self) -> GraphStorage {
        let Self {
            mut resources,
            mut nodes,
            mut passes,
            mut accesses,
            mut clear_colors,
            mut imports,
            ..
        } = self;
        resources.clear();
        nodes.clear();
        passes.clear();
        accesses.clear();
        clear_colors.clear();
        imports.clear();
        GraphStorage {
            resources,
            nodes,
            passes,
            accesses,
            clear_colors,
            imports,
        }
    }

    /// This graph's identity.
    #[must_use]
    pub fn id(&self) -> GraphId {
        self.id
    }

    /// Number of passes added.
    #[must_use]
    pub fn pass_count(&self) -> usize {
        self.passes.len()
    }

    /// Number of resources (imported and transient; versions not counted).
    #[must_use]
    pub fn resource_count(&self) -> usize {
        self.resources.len()
    }

    /// The name a pass was added with.
    #[must_use]
    pub fn pass_name(&self, pass: PassId) -> &'static str {
        self.passes[pass.index()].name
    }

    /// The kind of a pass.
    #[must_use]
    pub fn pass_kind(&self, pass: PassId) -> PassKind {
        self.passes[pass.index()].kind
    }

    /// The label a resource was added with, or `None` for a handle of
    /// another graph.
    #[must_use]
    pub fn label<K>(&self, handle: Handle<K>) -> Option<&'static str> {
        (handle.raw.graph == self.id).then(|| self.resources[handle.raw.resource as usize].label)
    }

    #[inline(always)]
    fn add_resource(
        &mut self,
        label: &'static str,
        desc: ResourceDesc,
        import: Option<Import>,
    ) -> RawHandle {
        let resource = self.resources.len() as u32;
        let import = import.map(|i| {
            self.imports.push(i);
            self.imports.len() as u32 - 1
        });
        self.resources.push(ResourceEntry {
            label,
            desc,
            import,
            versions: 1,
            sampled_by: u32::MAX,
            target_of: u32::MAX,
        });
        let node = self.nodes.len() as u32;
        self.nodes.push(VersionNode {
            resource,
            version: 0,
            writer: None,
            prev: None,
            overwritten_by: None,
        });
        RawHandle {
            graph: self.id,
            resource,
            node,
        }
    }

    /// Adds a transient texture, allocated by the graph for this frame only
    /// and possibly shared with other transients whose lifetimes do not
    /// overlap. Its first use must write it.
    #[inline]
    pub fn create_texture(&mut self, label: &'static str, desc: TextureDesc) -> TextureHandle {
        Handle::new(
            self.add_resource(label, ResourceDesc::Texture(desc), None),
            0,
        )
    }

    /// Adds a transient buffer (see [`create_texture`](Self::create_texture)).
    #[inline]
    pub fn create_buffer(&mut self, label: &'static str, desc: BufferDesc) -> BufferHandle {
        Handle::new(
            self.add_resource(label, ResourceDesc::Buffer(desc), None),
            0,
        )
    }

    /// Adds a texture from outside the graph. Passes writing it are the
    /// graph's outputs: they and everything they depend on are kept.
    #[inline]
    pub fn import_texture(
        &mut self,
        label: &'static str,
        texture: ImportedTexture,
    ) -> TextureHandle {
        let import = Some(Import::Texture(texture.texture));
        Handle::new(
            self.add_resource(label, ResourceDesc::Texture(texture.desc), import),
            0,
        )
    }

    /// Adds a buffer from outside the graph (see [`import_texture`](Self::import_texture)).
    #[inline]
    pub fn import_buffer(&mut self, label: &'static str, buffer: ImportedBuffer) -> BufferHandle {
        let import = Some(Import::Buffer(buffer.buffer));
        Handle::new(
            self.add_resource(label, ResourceDesc::Buffer(buffer.desc), import),
            0,
        )
    }

    #[inline]
    fn add_pass<K, R>(
        &mut self,
        name: &'static str,
        kind: PassKind,
        build: impl FnOnce(&mut PassBuilder<'_, 'a, K>) -> R,
    ) -> R {
        let id = PassId(self.passes.len() as u32);
        let start = self.accesses.len() as u32;
        self.passes.push(PassNode {
            name,
            kind,
            accesses: start..start,
            keep: false,
            writes_import: false,
        });
        let mut builder = PassBuilder {
            graph: self,
            pass: id,
            colors: 0,
            depth: false,
            kind: PhantomData,
        };
        let out = build(&mut builder);
        let end = self.accesses.len() as u32;
        self.passes[id.index()].accesses = start..end;
        out
    }

    /// Adds a render pass. The closure declares targets and reads, sets the
    /// recording function, and returns whatever the caller needs (usually the
    /// new handles of what the pass wrote).
    #[inline]
    pub fn add_render_pass<R>(
        &mut self,
        name: &'static str,
        build: impl FnOnce(&mut PassBuilder<'_, 'a, Render>) -> R,
    ) -> R {
        self.add_pass(name, PassKind::Render, build)
    }

    /// Adds a compute pass (see [`add_render_pass`](Self::add_render_pass)).
    #[inline]
    pub fn add_compute_pass<R>(
        &mut self,
        name: &'static str,
        build: impl FnOnce(&mut PassBuilder<'_, 'a, Compute>) -> R,
    ) -> R {
        self.add_pass(name, PassKind::Compute, build)
    }

    /// Adds a pass that records straight into the command encoder: copies,
    /// read-backs, buffer clears.
    #[inline]
    pub fn add_encoder_pass<R>(
        &mut self,
        name: &'static str,
        build: impl FnOnce(&mut PassBuilder<'_, 'a, Encoder>) -> R,
    ) -> R {
        self.add_pass(name, PassKind::Encoder, build)
    }

    #[inline]
    fn set_exec(&mut self, pass: PassId, exec: PassExec<'a>) {
        let i = pass.index();
        if self.execs.len() <= i {
            if self.execs.capacity() == 0 {
                // One allocation a frame: room for as many passes as fit.
                self.execs.reserve(self.passes.capacity());
            }
            self.execs.resize_with(i + 1, || None);
        }
        self.execs[i] = Some(exec);
    }

    /// Takes the recording closure of `pass`, if it has one.
    pub(crate) fn take_exec(&mut self, pass: PassId) -> Option<PassExec<'a>> {
        self.execs.get_mut(pass.index()).and_then(Option::take)
    }

    fn record(&mut self, error: CompileError) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    /// Checks that `raw` belongs to this graph; records an error if not.
    #[inline]
    fn owns(&mut self, raw: RawHandle, pass: PassId) -> bool {
        if raw.graph == self.id && (raw.node as usize) < self.nodes.len() {
            return true;
        }
        self.foreign(raw, pass);
        false
    }

    #[cold]
    #[inline(never)]
    fn foreign(&mut self, raw: RawHandle, pass: PassId) {
        let error = CompileError::ForeignHandle {
            pass: self.passes[pass.index()].name,
            handle_graph: raw.graph.0,
            graph: self.id.0,
        };
        self.record(error);
    }

    /// The load operation of a colour target, with its clear colour.
    pub(crate) fn color_load(&self, load: wgpu::LoadOp<u32>) -> wgpu::LoadOp<wgpu::Color> {
        match load {
            wgpu::LoadOp::Clear(i) => wgpu::LoadOp::Clear(self.clear_colors[i as usize]),
            wgpu::LoadOp::Load => wgpu::LoadOp::Load,
            wgpu::LoadOp::DontCare(token) => wgpu::LoadOp::DontCare(token),
        }
    }

    #[inline(always)]
    fn push_read(&mut self, pass: PassId, raw: RawHandle, kind: AccessKind, needs: Needs) {
        if !self.owns(raw, pass) {
            return;
        }
        let node = &self.nodes[raw.node as usize];
        debug_assert_eq!(node.resource, raw.resource);
        let resource = &mut self.resources[raw.resource as usize];
        // Reading what this pass wrote, or what an earlier pass already
        // wrote over (that pass must then wait for this one).
        if node.writer == Some(pass) || node.overwritten_by.is_some_and(|o| o != pass) {
            self.backward = true;
        }
        let mut suspect = needs.missing_in(&resource.desc)
            || (node.writer.is_none() && resource.import.is_none());
        if kind == AccessKind::Read && matches!(needs, Needs::Texture(_)) {
            suspect |= resource.target_of == pass.0;
            resource.sampled_by = pass.0;
        }
        self.suspect |= suspect;
        self.accesses.push(Access {
            node: raw.node,
            resource: raw.resource,
            kind,
            needs,
        });
    }

    /// Makes the next version of `raw`'s resource, written by `pass`.
    #[inline(always)]
    fn push_write(
        &mut self,
        pass: PassId,
        raw: RawHandle,
        kind: AccessKind,
        needs: Needs,
    ) -> (RawHandle, u32) {
        if !self.owns(raw, pass) {
            return (raw, 0);
        }
        let old = self.nodes[raw.node as usize];
        debug_assert_eq!(old.resource, raw.resource);
        let resource = &mut self.resources[raw.resource as usize];
        let label = resource.label;
        let version = resource.versions;
        resource.versions += 1;
        let loads = matches!(
            kind,
            AccessKind::Color(wgpu::LoadOp::Load) | AccessKind::Depth(wgpu::LoadOp::Load)
        );
        let mut suspect = needs.missing_in(&resource.desc)
            || (loads && old.writer.is_none() && resource.import.is_none());
        if matches!(kind, AccessKind::Color(_) | AccessKind::Depth(_)) {
            suspect |= resource.sampled_by == pass.0;
            resource.target_of = pass.0;
        }
        self.suspect |= suspect;
        if resource.import.is_some() {
            self.passes[pass.index()].writes_import = true;
        }
        if old.writer == Some(pass) {
            // Writing over its own output (a load of it reads it).
            self.backward = true;
        }
        match old.overwritten_by {
            Some(first) => {
                let error = CompileError::WriteConflict {
                    resource: label,
                    version: old.version,
                    first: self.passes[first.index()].name,
                    second: self.passes[pass.index()].name,
                };
                self.record(error);
            }
            None => self.nodes[raw.node as usize].overwritten_by = Some(pass),
        }
        let node = self.nodes.len() as u32;
        self.nodes.push(VersionNode {
            resource: raw.resource,
            version,
            writer: Some(pass),
            prev: Some(raw.node),
            overwritten_by: None,
        });
        self.accesses.push(Access {
            node,
            resource: raw.resource,
            kind,
            needs,
        });
        (RawHandle { node, ..raw }, version)
    }
}
