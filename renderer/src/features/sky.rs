//! The sky behind everything: nothing, or a flat colour.
//!
//! A textured sky (an equirectangular panorama) comes next; the option type
//! already has its place in the preset vocabulary.

use glam::Vec3;

use crate::feature::{Frame, RenderFeature};
use crate::features::forward_lit::HDR_FORMAT;
use crate::graph::TextureDesc;

/// What fills the background.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum SkyOption {
    /// Black.
    #[default]
    None,
    /// A flat linear colour (HDR: values above 1 are allowed).
    Color(Vec3),
}

/// Creates the frame's HDR target cleared to the sky.
#[derive(Debug, Clone, Copy)]
pub struct SkyFeature {
    /// The sky.
    pub sky: SkyOption,
}

impl RenderFeature for SkyFeature {
    fn name(&self) -> &'static str {
        "Sky"
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let color = match self.sky {
            SkyOption::None => Vec3::ZERO,
            SkyOption::Color(c) if c.is_finite() => c.max(Vec3::ZERO),
            SkyOption::Color(_) => Vec3::ZERO,
        };
        let (width, height) = frame.data.size;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let hdr = frame
            .graph
            .create_texture("hdr", TextureDesc::new_2d(width, height, HDR_FORMAT, usage));
        let clear = wgpu::Color {
            r: f64::from(color.x),
            g: f64::from(color.y),
            b: f64::from(color.z),
            a: 1.0,
        };
        frame.hdr = Some(frame.graph.add_render_pass("sky", |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Clear(clear));
            pass.execute(|_, _| {});
            hdr
        }));
    }
}
