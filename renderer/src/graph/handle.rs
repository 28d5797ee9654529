//! Typed handles to graph resources and passes.
//!
//! A handle names one *version* of a resource in one graph. Writing a
//! resource gives back a new handle (rename on write), so a pass that reads
//! `hdr` and writes `hdr'` is a plain edge, and two passes that both write
//! `hdr` version 1 are a write conflict the compiler can name.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU32, Ordering};

/// Identity of one [`RenderGraph`](super::RenderGraph); handles carry it so a
/// handle kept from another frame's graph is refused instead of aliasing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GraphId(pub(crate) u32);

impl GraphId {
    /// A fresh id, never handed out before in this process (wraps after 2^32
    /// graphs, which at 1,000 frames per second is 49 days).
    pub(crate) fn fresh() -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(1);
        Self(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// The untyped part shared by [`TextureHandle`] and [`BufferHandle`]: the
/// graph it belongs to, the version node it names, and the resource behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RawHandle {
    pub(crate) graph: GraphId,
    /// Index of the resource (one physical allocation) in the graph.
    pub(crate) resource: u32,
    /// Index of the version node in the graph.
    pub(crate) node: u32,
}

/// Marker for texture handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Texture {}

/// Marker for buffer handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Buffer {}

/// A typed handle to one version of a graph resource.
///
/// Handles are `Copy` and cheap (12 bytes). They are only valid in the graph
/// that made them; the compiler reports
/// [`CompileError::ForeignHandle`](super::CompileError::ForeignHandle) otherwise.
pub struct Handle<K> {
    pub(crate) raw: RawHandle,
    pub(crate) version: u32,
    kind: PhantomData<fn() -> K>,
}

/// A handle to one version of a texture in a [`RenderGraph`](super::RenderGraph).
pub type TextureHandle = Handle<Texture>;
/// A handle to one version of a buffer in a [`RenderGraph`](super::RenderGraph).
pub type BufferHandle = Handle<Buffer>;

impl<K> Handle<K> {
    pub(crate) fn new(raw: RawHandle, version: u32) -> Self {
        Self {
            raw,
            version,
            kind: PhantomData,
        }
    }

    /// The version this handle names: 0 for the resource as created or
    /// imported, one more for each write.
    #[must_use]
    pub fn version(self) -> u32 {
        self.version
    }

    /// The graph this handle belongs to.
    #[must_use]
    pub fn graph(self) -> GraphId {
        self.raw.graph
    }

    /// True when both handles name the same resource (any version): they
    /// share one physical texture or buffer.
    #[must_use]
    pub fn same_resource(self, other: Self) -> bool {
        self.raw.graph == other.raw.graph && self.raw.resource == other.raw.resource
    }
}

// Manual impls: derives would demand `K: Clone` etc. of the marker.
impl<K> Clone for Handle<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K> Copy for Handle<K> {}
impl<K> PartialEq for Handle<K> {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}
impl<K> Eq for Handle<K> {}
impl<K> std::hash::Hash for Handle<K> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.raw.hash(state);
    }
}
impl<K> std::fmt::Debug for Handle<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Handle(graph {}, resource {}, v{})",
            self.raw.graph.0, self.raw.resource, self.version
        )
    }
}

/// A pass in a [`RenderGraph`](super::RenderGraph), in registration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PassId(pub(crate) u32);

impl PassId {
    /// Registration index of the pass (0 for the first pass added).
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
