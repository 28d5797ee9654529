//! Physical transients kept from frame to frame.

use std::collections::HashMap;

use super::builder::{GraphStorage, RenderGraph};
use super::desc::{BufferDesc, TextureDesc};

struct Entry<T> {
    items: Vec<T>,
    /// Frame each item was last handed out in.
    last_used: Vec<u64>,
    /// Items handed out this frame (the first `in_use` items).
    in_use: usize,
}

impl<T> Default for Entry<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            last_used: Vec::new(),
            in_use: 0,
        }
    }
}

impl<T: Clone> Entry<T> {
    fn take(&mut self, frame: u64, create: impl FnOnce() -> T) -> T {
        if self.in_use == self.items.len() {
            self.items.push(create());
            self.last_used.push(frame);
        }
        let i = self.in_use;
        self.in_use += 1;
        self.last_used[i] = frame;
        self.items[i].clone()
    }

    /// Starts a frame: nothing in use, and items idle for more than
    /// `max_idle` frames are dropped (always the tail: items are handed out
    /// front first, so the tail is the least recently used).
    fn begin(&mut self, frame: u64, max_idle: u64) {
        self.in_use = 0;
        while let Some(&last) = self.last_used.last() {
            if frame.saturating_sub(last) <= max_idle {
                break;
            }
            self.items.pop();
            self.last_used.pop();
        }
    }
}

/// Physical textures and buffers for transients, keyed by description and
/// kept across frames: a graph that needs what the last one needed creates
/// nothing. It also keeps the memory of the last graph it executed for the
/// next [`new_graph`](Self::new_graph).
pub struct ResourcePool {
    textures: HashMap<TextureDesc, Entry<wgpu::Texture>>,
    buffers: HashMap<BufferDesc, Entry<wgpu::Buffer>>,
    /// Given back by [`RenderGraph::execute`].
    graph_storage: GraphStorage,
    frame: u64,
    max_idle: u64,
    created: u64,
}

impl Default for ResourcePool {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for ResourcePool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourcePool")
            .field("textures", &self.texture_count())
            .field("buffers", &self.buffer_count())
            .field("frame", &self.frame)
            .finish()
    }
}

impl ResourcePool {
    /// An empty pool that drops allocations unused for 3 frames.
    #[must_use]
    pub fn new() -> Self {
        Self::with_max_idle_frames(3)
    }

    /// An empty pool that drops allocations unused for more than `frames`
    /// frames.
    #[must_use]
    pub fn with_max_idle_frames(frames: u64) -> Self {
        Self {
            textures: HashMap::new(),
            buffers: HashMap::new(),
            graph_storage: GraphStorage::new(),
            frame: 0,
            max_idle: frames,
            created: 0,
        }
    }

    /// Textures held.
    #[must_use]
    pub fn texture_count(&self) -> usize {
        self.textures.values().map(|e| e.items.len()).sum()
    }

    /// Buffers held.
    #[must_use]
    pub fn buffer_count(&self) -> usize {
        self.buffers.values().map(|e| e.items.len()).sum()
    }

    /// wgpu objects created since the pool was made (steady state: this
    /// stops growing).
    #[must_use]
    pub fn created(&self) -> u64 {
        self.created
    }

    /// A new, empty graph (fresh [`GraphId`](super::GraphId)) built in the
    /// memory of the last graph this pool [executed](RenderGraph::execute):
    /// in steady state, building it allocates nothing.
    #[must_use]
    pub fn new_graph<'a>(&mut self) -> RenderGraph<'a> {
        RenderGraph::with_storage(std::mem::take(&mut self.graph_storage))
    }

    /// Keeps `storage` for the next [`new_graph`](Self::new_graph).
    pub(crate) fn keep_graph_storage(&mut self, storage: GraphStorage) {
        self.graph_storage = storage;
    }

    pub(crate) fn begin_frame(&mut self) {
        self.frame += 1;
        let (frame, idle) = (self.frame, self.max_idle);
        self.textures
            .values_mut()
            .for_each(|e| e.begin(frame, idle));
        self.buffers.values_mut().for_each(|e| e.begin(frame, idle));
        self.textures.retain(|_, e| !e.items.is_empty());
        self.buffers.retain(|_, e| !e.items.is_empty());
    }

    pub(crate) fn texture(
        &mut self,
        device: &wgpu::Device,
        desc: &TextureDesc,
        label: &str,
    ) -> wgpu::Texture {
        let created = &mut self.created;
        self.textures
            .entry(*desc)
            .or_default()
            .take(self.frame, || {
                *created += 1;
                device.create_texture(&desc.to_descriptor(Some(label)))
            })
    }

    pub(crate) fn buffer(
        &mut self,
        device: &wgpu::Device,
        desc: &BufferDesc,
        label: &str,
    ) -> wgpu::Buffer {
        let created = &mut self.created;
        self.buffers.entry(*desc).or_default().take(self.frame, || {
            *created += 1;
            device.create_buffer(&desc.to_descriptor(Some(label)))
        })
    }
}
