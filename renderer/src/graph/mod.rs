//! The per-frame render graph.
//!
//! Each frame, features add passes to a fresh [`RenderGraph`]. A pass
//! declares what it reads and writes through typed handles
//! ([`TextureHandle`], [`BufferHandle`]); labels are for messages and dumps
//! only. Writing a resource returns a new *version* of its handle, so
//! features chain through versions (`hdr v0 → v1 → v2`) and two passes
//! writing one version is an error rather than a race.
//!
//! [`GraphCompiler::compile`] then, on the CPU alone:
//! 1. **validates**: reads of transients nobody wrote, write conflicts,
//!    cycles, handles from another graph, missing usage flags, a render pass
//!    reading its own target, each a [`CompileError`] naming the pass and
//!    resource;
//! 2. **culls** passes whose outputs reach no imported resource (the surface,
//!    a read-back target, a history texture) and no pass marked
//!    [`keep`](PassBuilder::keep);
//! 3. **orders** the rest topologically, keeping registration order among
//!    independent passes;
//! 4. **allocates** transients: resources with equal descriptions and
//!    disjoint lifetimes share one physical texture or buffer
//!    ([`CompiledGraph::bytes_saved`]).
//!
//! [`RenderGraph::execute`] binds physical resources from a [`ResourcePool`]
//! kept across frames, records every live pass into one command encoder and
//! submits it once. [`CompiledGraph::overview`] gives the result as plain
//! data (passes, resources, versions, edges: what a debug overlay draws),
//! and [`CompiledGraph::to_dot`] and [`CompiledGraph::to_mermaid`] dump it
//! as text.
//!
//! The graph is new each frame (a fresh [`GraphId`], so handles kept from
//! an earlier frame are refused), its memory is not:
//! [`ResourcePool::new_graph`] builds in the memory of the last graph the
//! pool executed, and [`RenderGraph::recycle`] /
//! [`RenderGraph::with_storage`] do the same by hand through a
//! [`GraphStorage`]. With a warm [`GraphCompiler`] too, a frame whose graph
//! is no larger than an earlier one allocates nothing to build and compile
//! it but its pass closures (a box each that captures anything, and one Vec
//! of them).
//!
//! ```
//! use taos_renderer::graph::{GraphCompiler, ImportedTexture, RenderGraph, TextureDesc};
//! use wgpu::{LoadOp, TextureFormat, TextureUsages};
//!
//! let target = TextureUsages::RENDER_ATTACHMENT | TextureUsages::TEXTURE_BINDING;
//! let mut graph = RenderGraph::new();
//! let surface = graph.import_texture(
//!     "surface",
//!     ImportedTexture::declared(TextureDesc::new_2d(640, 480, TextureFormat::Bgra8Unorm, target)),
//! );
//! let hdr = graph.create_texture(
//!     "hdr",
//!     TextureDesc::new_2d(640, 480, TextureFormat::Rgba16Float, target),
//! );
//! let hdr = graph.add_render_pass("forward", |pass| {
//!     pass.write_color(hdr, LoadOp::Clear(wgpu::Color::BLACK))
//! });
//! graph.add_render_pass("tonemap", |pass| {
//!     pass.read_texture(hdr);
//!     let _ = pass.write_color(surface, LoadOp::Load);
//! });
//! // Nothing imported depends on this pass: it is culled.
//! let debug = graph.create_texture(
//!     "debug",
//!     TextureDesc::new_2d(640, 480, TextureFormat::Rgba8Unorm, target),
//! );
//! graph.add_render_pass("debug overlay", |pass| {
//!     let _ = pass.write_color(debug, LoadOp::Clear(wgpu::Color::RED));
//! });
//!
//! let mut compiler = GraphCompiler::new();
//! let compiled = compiler.compile(&graph)?;
//! let names: Vec<_> = compiled.order().iter().map(|&p| graph.pass_name(p)).collect();
//! assert_eq!(names, ["forward", "tonemap"]);
//! assert_eq!(compiled.culled().len(), 1);
//! # Ok::<(), taos_renderer::graph::CompileError>(())
//! ```

mod builder;
mod compile;
mod desc;
mod dump;
mod error;
mod execute;
mod handle;
mod overview;
mod pool;

pub use builder::{
    Compute, Encoder, GraphStorage, ImportedBuffer, ImportedTexture, MAX_COLOR_TARGETS,
    PassBuilder, PassKind, Render, RenderGraph,
};
pub use compile::{CompiledGraph, GraphCompiler, Lifetime, PhysicalId};
pub use desc::{BufferDesc, ResourceDesc, TextureDesc};
pub use error::{CompileError, CycleEdge, ExecuteError};
pub use execute::PassResources;
pub use handle::{Buffer, BufferHandle, GraphId, Handle, PassId, Texture, TextureHandle};
pub use overview::{
    GraphEdge, GraphNode, GraphOverview, PassOverview, ResourceOverview, VersionOverview,
};
pub use pool::ResourcePool;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
