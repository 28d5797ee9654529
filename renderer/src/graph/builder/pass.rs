//! Declaring one pass: the [`PassBuilder`] a pass's closure gets, with the
//! reads, writes, targets and recording function it declares.

use std::marker::PhantomData;

use super::{AccessKind, MAX_COLOR_TARGETS, Needs, PassExec, RenderGraph};
use crate::graph::error::CompileError;
use crate::graph::execute::PassResources;
use crate::graph::handle::{BufferHandle, Handle, PassId, TextureHandle};

/// Marker: the pass being built is a render pass.
#[derive(Debug)]
pub enum Render {}
/// Marker: the pass being built is a compute pass.
#[derive(Debug)]
pub enum Compute {}
/// Marker: the pass being built records into the command encoder.
#[derive(Debug)]
pub enum Encoder {}

/// Declares what one pass reads and writes, and how it records.
///
/// `K` is [`Render`], [`Compute`] or [`Encoder`]: colour and depth targets
/// exist only on render passes, and the recording closure receives the
/// matching wgpu pass.
pub struct PassBuilder<'g, 'a, K> {
    pub(super) graph: &'g mut RenderGraph<'a>,
    pub(super) pass: PassId,
    pub(super) colors: usize,
    pub(super) depth: bool,
    pub(super) kind: PhantomData<K>,
}

impl<K> std::fmt::Debug for PassBuilder<'_, '_, K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PassBuilder")
            .field("pass", &self.graph.passes[self.pass.index()].name)
            .finish_non_exhaustive()
    }
}

impl<'a, K> PassBuilder<'_, 'a, K> {
    /// The id of the pass being built.
    #[must_use]
    pub fn id(&self) -> PassId {
        self.pass
    }

    /// Keeps the pass even when nothing imported depends on it (for side
    /// effects the graph cannot see, such as writing a buffer the CPU maps).
    #[inline]
    pub fn keep(&mut self) {
        self.graph.passes[self.pass.index()].keep = true;
    }

    /// Samples `texture` (needs `TEXTURE_BINDING`).
    #[inline]
    pub fn read_texture(&mut self, texture: TextureHandle) {
        self.read_texture_as(texture, wgpu::TextureUsages::TEXTURE_BINDING);
    }

    /// Reads `texture` with another usage (`COPY_SRC`, read-only
    /// `STORAGE_BINDING`).
    #[inline]
    pub fn read_texture_as(&mut self, texture: TextureHandle, usage: wgpu::TextureUsages) {
        self.graph.push_read(
            self.pass,
            texture.raw,
            AccessKind::Read,
            Needs::Texture(usage),
        );
    }

    /// Writes `texture` as a storage texture or copy destination. Returns
    /// the new version. The previous contents count as unused unless the
    /// pass also reads `texture` (an update in place).
    #[must_use = "later passes must use the returned version"]
    #[inline]
    pub fn write_texture(
        &mut self,
        texture: TextureHandle,
        usage: wgpu::TextureUsages,
    ) -> TextureHandle {
        let (raw, v) = self.graph.push_write(
            self.pass,
            texture.raw,
            AccessKind::Write,
            Needs::Texture(usage),
        );
        Handle::new(raw, v)
    }

    /// Reads `buffer` with `usage` (`UNIFORM`, `STORAGE`, `VERTEX`, `INDEX`,
    /// `INDIRECT`, `COPY_SRC`).
    #[inline]
    pub fn read_buffer(&mut self, buffer: BufferHandle, usage: wgpu::BufferUsages) {
        self.graph.push_read(
            self.pass,
            buffer.raw,
            AccessKind::Read,
            Needs::Buffer(usage),
        );
    }

    /// Writes `buffer` (`STORAGE`, `COPY_DST`). Returns the new version.
    /// The previous contents count as unused unless the pass also reads
    /// `buffer` (an update in place).
    #[must_use = "later passes must use the returned version"]
    #[inline]
    pub fn write_buffer(
        &mut self,
        buffer: BufferHandle,
        usage: wgpu::BufferUsages,
    ) -> BufferHandle {
        let (raw, v) = self.graph.push_write(
            self.pass,
            buffer.raw,
            AccessKind::Write,
            Needs::Buffer(usage),
        );
        Handle::new(raw, v)
    }
}

impl<'a> PassBuilder<'_, 'a, Render> {
    /// Renders into `target` as the next colour attachment (location 0, 1,
    /// ... in call order, so several calls make a G-buffer). `Clear` starts
    /// from a colour; `Load` keeps the previous version. Returns the new
    /// version.
    #[must_use = "later passes must use the returned version"]
    #[inline]
    pub fn write_color(
        &mut self,
        target: TextureHandle,
        load: wgpu::LoadOp<wgpu::Color>,
    ) -> TextureHandle {
        if self.colors == MAX_COLOR_TARGETS {
            let error = CompileError::TooManyColorTargets {
                pass: self.graph.passes[self.pass.index()].name,
                resource: self.graph.label(target).unwrap_or("?"),
                max: MAX_COLOR_TARGETS,
            };
            self.graph.record(error);
        }
        self.colors += 1;
        let load = match load {
            wgpu::LoadOp::Clear(color) => {
                let colors = &mut self.graph.clear_colors;
                colors.push(color);
                wgpu::LoadOp::Clear(colors.len() as u32 - 1)
            }
            wgpu::LoadOp::Load => wgpu::LoadOp::Load,
            wgpu::LoadOp::DontCare(token) => wgpu::LoadOp::DontCare(token),
        };
        let needs = Needs::Texture(wgpu::TextureUsages::RENDER_ATTACHMENT);
        let (raw, v) = self
            .graph
            .push_write(self.pass, target.raw, AccessKind::Color(load), needs);
        Handle::new(raw, v)
    }

    #[inline]
    fn claim_depth(&mut self, target: TextureHandle) {
        if self.depth {
            let error = CompileError::SecondDepthAttachment {
                pass: self.graph.passes[self.pass.index()].name,
                resource: self.graph.label(target).unwrap_or("?"),
            };
            self.graph.record(error);
        }
        self.depth = true;
    }

    /// Uses `target` as the depth(-stencil) attachment, written. A stencil
    /// aspect is cleared to 0 or kept along with depth. Returns the new
    /// version.
    #[must_use = "later passes must use the returned version"]
    #[inline]
    pub fn write_depth(&mut self, target: TextureHandle, load: wgpu::LoadOp<f32>) -> TextureHandle {
        self.claim_depth(target);
        let needs = Needs::Texture(wgpu::TextureUsages::RENDER_ATTACHMENT);
        let (raw, v) = self
            .graph
            .push_write(self.pass, target.raw, AccessKind::Depth(load), needs);
        Handle::new(raw, v)
    }

    /// Uses `target` as a read-only depth attachment: depth-tested against,
    /// not written (a sky drawn behind the scene).
    #[inline]
    pub fn read_depth(&mut self, target: TextureHandle) {
        self.claim_depth(target);
        let needs = Needs::Texture(wgpu::TextureUsages::RENDER_ATTACHMENT);
        self.graph
            .push_read(self.pass, target.raw, AccessKind::DepthReadOnly, needs);
    }

    /// Sets what the pass records. The graph begins the render pass with the
    /// declared targets and hands it over.
    pub fn execute(
        &mut self,
        record: impl FnOnce(&mut wgpu::RenderPass<'_>, &PassResources<'_>) + 'a,
    ) {
        self.graph
            .set_exec(self.pass, PassExec::Render(Box::new(record)));
    }
}

impl<'a> PassBuilder<'_, 'a, Compute> {
    /// Sets what the pass records into its compute pass.
    pub fn execute(
        &mut self,
        record: impl FnOnce(&mut wgpu::ComputePass<'_>, &PassResources<'_>) + 'a,
    ) {
        self.graph
            .set_exec(self.pass, PassExec::Compute(Box::new(record)));
    }
}

impl<'a> PassBuilder<'_, 'a, Encoder> {
    /// Sets what the pass records into the command encoder.
    pub fn execute(
        &mut self,
        record: impl FnOnce(&mut wgpu::CommandEncoder, &PassResources<'_>) + 'a,
    ) {
        self.graph
            .set_exec(self.pass, PassExec::Encoder(Box::new(record)));
    }
}
