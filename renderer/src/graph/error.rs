//! What can go wrong compiling or executing a graph.

use std::fmt;

/// Why [`GraphCompiler::compile`](super::GraphCompiler::compile) refused a
/// graph. Every variant names the pass and the resource involved, by the
/// labels given when they were added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CompileError {
    /// A pass reads a transient that no pass has written: its contents would
    /// be undefined. (Imported resources may be read as they come.)
    #[error(
        "pass `{pass}` reads `{resource}` version {version}, which no pass writes \
         and which is not imported"
    )]
    ReadBeforeWrite {
        /// The reading pass.
        pass: &'static str,
        /// The resource read.
        resource: &'static str,
        /// The version read.
        version: u32,
    },
    /// Two passes write the same version of a resource. Each write returns a
    /// new handle; the second writer must use the handle the first returned.
    #[error(
        "passes `{first}` and `{second}` both write `{resource}` version {version}; \
         `{second}` should write the handle `{first}` returned"
    )]
    WriteConflict {
        /// The resource written twice.
        resource: &'static str,
        /// The version both passes wrote over.
        version: u32,
        /// The pass that wrote it first (in registration order).
        first: &'static str,
        /// The pass that wrote it again.
        second: &'static str,
    },
    /// The dependencies between passes form a cycle, for example a pass that
    /// reads what it writes, or a pass that reads an old version of a resource
    /// after a later version was written by a pass it depends on.
    #[error("the passes form a cycle: {}", CycleDisplay(.edges))]
    Cycle {
        /// The edges of the cycle, in order; the last one leads back to the
        /// first pass.
        edges: Vec<CycleEdge>,
    },
    /// A handle made by another graph (an earlier frame's, say) was used.
    #[error(
        "pass `{pass}` uses a handle from graph {handle_graph}, but this is graph {graph}; \
         handles are valid only in the graph that made them"
    )]
    ForeignHandle {
        /// The pass that used it.
        pass: &'static str,
        /// The graph the handle came from.
        handle_graph: u32,
        /// This graph.
        graph: u32,
    },
    /// A pass uses a texture in a way its description does not allow.
    #[error("pass `{pass}` uses texture `{resource}` as {needed:?}, which its usage flags lack")]
    MissingTextureUsage {
        /// The pass.
        pass: &'static str,
        /// The texture.
        resource: &'static str,
        /// The usage the pass needs.
        needed: wgpu::TextureUsages,
    },
    /// A pass uses a buffer in a way its description does not allow.
    #[error("pass `{pass}` uses buffer `{resource}` as {needed:?}, which its usage flags lack")]
    MissingBufferUsage {
        /// The pass.
        pass: &'static str,
        /// The buffer.
        resource: &'static str,
        /// The usage the pass needs.
        needed: wgpu::BufferUsages,
    },
    /// A render pass declares two depth attachments.
    #[error("pass `{pass}` already has a depth attachment and also declares `{resource}`")]
    SecondDepthAttachment {
        /// The pass.
        pass: &'static str,
        /// The second depth resource.
        resource: &'static str,
    },
    /// A render pass reads a texture it also renders to (as a colour or
    /// depth target); the GPU cannot do both at once.
    #[error("pass `{pass}` reads `{resource}` while rendering to it")]
    ReadsOwnTarget {
        /// The pass.
        pass: &'static str,
        /// The texture.
        resource: &'static str,
    },
    /// A render pass declares more colour targets than wgpu allows.
    #[error("pass `{pass}` declares more than {max} colour targets (`{resource}` is one too many)")]
    TooManyColorTargets {
        /// The pass.
        pass: &'static str,
        /// The first target over the limit.
        resource: &'static str,
        /// The limit ([`MAX_COLOR_TARGETS`](super::MAX_COLOR_TARGETS)).
        max: usize,
    },
}

/// One step of a [`CompileError::Cycle`]: `from` must run before `to`
/// because of `resource`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CycleEdge {
    /// The earlier pass.
    pub from: &'static str,
    /// The later pass.
    pub to: &'static str,
    /// The resource that orders them.
    pub resource: &'static str,
}

struct CycleDisplay<'e>(&'e [CycleEdge]);

impl fmt::Display for CycleDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i == 0 {
                write!(f, "`{}`", e.from)?;
            }
            write!(f, " -({})-> `{}`", e.resource, e.to)?;
        }
        Ok(())
    }
}

/// Why [`RenderGraph::execute`](super::RenderGraph::execute) refused to run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExecuteError {
    /// The compiled graph was compiled from another graph.
    #[error("the compiled graph belongs to graph {compiled}, not to graph {graph}")]
    GraphMismatch {
        /// The graph the compiled graph came from.
        compiled: u32,
        /// The graph being executed.
        graph: u32,
    },
    /// A live pass uses an imported resource that was only declared
    /// ([`ImportedTexture::declared`](super::ImportedTexture::declared)), never
    /// given a wgpu object.
    #[error("imported resource `{resource}` is used by a live pass but has no wgpu object")]
    UnboundImport {
        /// The resource.
        resource: &'static str,
    },
}
