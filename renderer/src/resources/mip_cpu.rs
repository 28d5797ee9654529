//! The CPU's mip chain, for where no GPU is at hand (an offline import):
//! the same box filter as `mipmaps.wgsl`, so both give the same levels.
//!
//! Each level-`k + 1` texel averages the level-`k` texels its footprint
//! covers, each weighted by its area inside the footprint: a 2x2 average for
//! even sizes; for odd ones a texel on the footprint's edge counts for the
//! part inside it (a 5-texel row becomes 2 texels, each covering 2.5). sRGB
//! values are averaged in linear light and encoded again.

use super::ColorSpace;
use super::texel_format::{full_mip_count, mip_size};

/// Every level of `image`'s full chain, level 0 (a copy) first.
pub(crate) fn mip_chain(image: &image::RgbaImage, color_space: ColorSpace) -> Vec<Vec<u8>> {
    let (width, height) = image.dimensions();
    // Alpha is linear in every format.
    let srgb = |i: usize| color_space == ColorSpace::Srgb && i % 4 != 3;
    let mut levels = vec![image.as_raw().clone()];
    for k in 1..full_mip_count(width, height) {
        // Each level is made from the 8-bit one above it, as on the GPU.
        let above: Vec<f32> = (levels[levels.len() - 1].iter().enumerate())
            .map(|(i, &v)| {
                if srgb(i) {
                    srgb_to_linear(v)
                } else {
                    f32::from(v) / 255.0
                }
            })
            .collect();
        let src = mip_size(width, height, k - 1);
        let dst = mip_size(width, height, k);
        let level = downsample(&above, src, dst);
        levels.push(
            (level.iter().enumerate())
                .map(|(i, &v)| {
                    if srgb(i) {
                        linear_to_srgb(v)
                    } else {
                        unorm8(v)
                    }
                })
                .collect(),
        );
    }
    levels
}

/// One box-filtered level: `src` (RGBA, `src_size`) down to `dst_size`.
fn downsample(src: &[f32], src_size: (u32, u32), dst_size: (u32, u32)) -> Vec<f32> {
    let (sw, sh) = src_size;
    let (dw, dh) = dst_size;
    let scale_x = sw as f32 / dw as f32;
    let scale_y = sh as f32 / dh as f32;
    let mut out = vec![0.0; (dw * dh * 4) as usize];
    for y in 0..dh {
        let rows = footprint(y, scale_y, sh);
        for x in 0..dw {
            let columns = footprint(x, scale_x, sw);
            let mut sum = [0.0f32; 4];
            for &(sy, wy) in &rows {
                for &(sx, wx) in &columns {
                    let at = ((sy * sw + sx) * 4) as usize;
                    for (c, total) in sum.iter_mut().enumerate() {
                        *total += wx * wy * src[at + c];
                    }
                }
            }
            let at = ((y * dw + x) * 4) as usize;
            for (c, total) in sum.iter().enumerate() {
                out[at + c] = total / (scale_x * scale_y);
            }
        }
    }
    out
}

/// The source texels (index, covered length) under destination texel `i`
/// of a level scaled down by `scale` (1 to 3) from `size` texels.
fn footprint(i: u32, scale: f32, size: u32) -> Vec<(u32, f32)> {
    let start = i as f32 * scale;
    let end = start + scale;
    (start.floor() as u32..size)
        .take(4)
        .filter_map(|s| {
            let covered = end.min(s as f32 + 1.0) - start.max(s as f32);
            (covered > 0.0).then_some((s, covered))
        })
        .collect()
}

/// An 8-bit sRGB value in linear light.
fn srgb_to_linear(v: u8) -> f32 {
    let c = f32::from(v) / 255.0;
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// A linear value as 8-bit sRGB.
fn linear_to_srgb(v: f32) -> u8 {
    let c = v.clamp(0.0, 1.0);
    let encoded = if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    unorm8(encoded)
}

/// A 0..=1 value as 8 bits, rounded.
fn unorm8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_sizes_weigh_by_covered_area() {
        // 3 texels to 1: each covers a third.
        assert_eq!(footprint(0, 3.0, 3), vec![(0, 1.0), (1, 1.0), (2, 1.0)]);
        // 5 to 2: the middle texel is shared.
        assert_eq!(footprint(1, 2.5, 5), vec![(2, 0.5), (3, 1.0), (4, 1.0)]);
    }

    #[test]
    fn chain_reaches_one_texel_and_averages_in_linear_light() {
        // Black and white columns: the average is linear 0.5, sRGB 188.
        let image = image::RgbaImage::from_fn(2, 1, |x, _| {
            let v = if x == 0 { 0 } else { 255 };
            image::Rgba([v, v, v, 255])
        });
        let srgb = mip_chain(&image, ColorSpace::Srgb);
        assert_eq!(srgb.len(), 2);
        assert_eq!(srgb[1], vec![188, 188, 188, 255]);
        let linear = mip_chain(&image, ColorSpace::Linear);
        assert_eq!(linear[1], vec![128, 128, 128, 255]);
    }
}
