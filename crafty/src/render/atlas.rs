//! The block texture atlas: 16 x 16 tiles drawn procedurally (no image
//! files), deterministic from run to run, and each tile's mip chain,
//! averaged in linear light.

use image::{Rgba, RgbaImage};

use crate::world::TILE_COUNT;

/// Texels along each edge of one tile.
pub const ATLAS_TILE_SIZE: u32 = 16;
/// Tiles per atlas row.
pub const ATLAS_COLUMNS: u32 = 4;
/// Tile rows in the atlas.
pub const ATLAS_ROWS: u32 = TILE_COUNT.div_ceil(ATLAS_COLUMNS);

/// Where tile `tile` starts in the atlas, in texels.
#[must_use]
pub const fn tile_origin(tile: u32) -> (u32, u32) {
    (
        (tile % ATLAS_COLUMNS) * ATLAS_TILE_SIZE,
        (tile / ATLAS_COLUMNS) * ATLAS_TILE_SIZE,
    )
}

/// A stable hash of a texel and a seed, in [0, 1).
fn noise(x: u32, y: u32, seed: u32) -> f32 {
    let mut h = x
        .wrapping_mul(0x27d4_eb2d)
        .wrapping_add(y.wrapping_mul(0x1656_67b1))
        .wrapping_add(seed.wrapping_mul(0x9e37_79b9));
    h ^= h >> 15;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    (h & 0xFFFF) as f32 / 65536.0
}

fn shade(rgb: [u8; 3], factor: f32, alpha: u8) -> Rgba<u8> {
    let c = |v: u8| (f32::from(v) * factor).round().clamp(0.0, 255.0) as u8;
    Rgba([c(rgb[0]), c(rgb[1]), c(rgb[2]), alpha])
}

/// One texel of tile `tile` at `(x, y)` inside it (y down, row 0 at the top
/// of a side face).
fn texel(tile: u32, x: u32, y: u32) -> Rgba<u8> {
    let n = noise(x, y, tile);
    let speckle = 0.82 + 0.3 * n;
    const DIRT: [u8; 3] = [134, 96, 67];
    const GRASS: [u8; 3] = [95, 159, 53];
    const SNOW: [u8; 3] = [240, 246, 252];
    // Jagged fringe depth per column for grass and snow sides.
    let fringe = 3 + (noise(x, 0, tile + 100) * 3.0) as u32;
    match tile {
        // Stone.
        0 => shade([128, 128, 128], 0.8 + 0.35 * n, 255),
        // Dirt.
        1 => shade(DIRT, speckle, 255),
        // Grass top.
        2 => shade(GRASS, 0.75 + 0.4 * n, 255),
        // Grass side: dirt under a green fringe.
        3 if y < fringe => shade(GRASS, 0.8 + 0.3 * n, 255),
        3 => shade(DIRT, speckle, 255),
        // Sand.
        4 => shade([219, 207, 163], 0.9 + 0.15 * n, 255),
        // Water: translucent blue with faint ripples.
        5 => {
            let ripple = if (x + 2 * y + (n * 2.0) as u32).is_multiple_of(7) {
                1.15
            } else {
                1.0
            };
            shade([48, 92, 200], ripple * (0.92 + 0.12 * n), 170)
        }
        // Log side: vertical bark stripes.
        6 => {
            let stripe = if (x + (noise(0, y / 4, 6) * 2.0) as u32).is_multiple_of(4) {
                0.7
            } else {
                1.0
            };
            shade([102, 81, 51], stripe * (0.85 + 0.25 * n), 255)
        }
        // Log top: rings.
        7 => {
            let (dx, dy) = (x as f32 - 7.5, y as f32 - 7.5);
            let r = (dx * dx + dy * dy).sqrt();
            if r > 7.0 {
                shade([102, 81, 51], 0.9 + 0.2 * n, 255)
            } else if (r as u32).is_multiple_of(2) {
                shade([176, 143, 92], 0.95 + 0.1 * n, 255)
            } else {
                shade([150, 118, 74], 0.95 + 0.1 * n, 255)
            }
        }
        // Leaves: dark green with holes.
        8 => {
            if n < 0.18 {
                Rgba([0, 0, 0, 0])
            } else {
                shade([58, 120, 40], 0.7 + 0.5 * n, 255)
            }
        }
        // Glass: a light frame, a clear pane and a diagonal glint.
        9 => {
            let edge = x == 0 || y == 0 || x == 15 || y == 15;
            if edge {
                shade([200, 225, 235], 1.0, 255)
            } else if (x + y == 11 || x + y == 12) && (3..=9).contains(&x) {
                shade([235, 245, 250], 1.0, 140)
            } else {
                shade([190, 220, 235], 1.0, 30)
            }
        }
        // Planks: four boards with seams and staggered joints.
        10 => {
            let seam = y % 4 == 3;
            let joint = x == (y / 4 * 5 + 3) % 16;
            let factor = if seam || joint { 0.65 } else { 0.9 + 0.15 * n };
            shade([180, 144, 90], factor, 255)
        }
        // Cobblestone: rounded stones in darker mortar.
        11 => {
            let cell = noise(x / 4 + (y / 4) % 2, y / 4, 11);
            let mortar = (x + 2 * ((y / 4) % 2)).is_multiple_of(4) || y.is_multiple_of(4);
            if mortar {
                shade([80, 80, 80], 0.85 + 0.2 * n, 255)
            } else {
                shade([125, 125, 125], 0.8 + 0.3 * cell + 0.1 * n, 255)
            }
        }
        // Snow top.
        12 => shade(SNOW, 0.93 + 0.07 * n, 255),
        // Snow side: dirt under a white fringe.
        13 if y < fringe => shade(SNOW, 0.93 + 0.07 * n, 255),
        13 => shade(DIRT, speckle, 255),
        // Unused slots: magenta, so a wrong tile index stands out.
        _ => Rgba([255, 0, 255, 255]),
    }
}

/// The block atlas: [`ATLAS_COLUMNS`] x [`ATLAS_ROWS`] tiles of
/// [`ATLAS_TILE_SIZE`]² texels, tile `t` at [`tile_origin`]`(t)`, sRGB
/// colour with straight alpha (water, glass and leaves are not opaque).
#[must_use]
pub fn block_atlas() -> RgbaImage {
    let mut atlas = RgbaImage::new(
        ATLAS_COLUMNS * ATLAS_TILE_SIZE,
        ATLAS_ROWS * ATLAS_TILE_SIZE,
    );
    for tile in 0..ATLAS_COLUMNS * ATLAS_ROWS {
        let (ox, oy) = tile_origin(tile);
        for y in 0..ATLAS_TILE_SIZE {
            for x in 0..ATLAS_TILE_SIZE {
                atlas.put_pixel(ox + x, oy + y, texel(tile, x, y));
            }
        }
    }
    atlas
}

/// Mip levels of each tile: 16, 8, 4, 2 and 1 texels across.
pub const ATLAS_MIP_LEVELS: u32 = ATLAS_TILE_SIZE.ilog2() + 1;

/// Tile `tile` of `atlas` as its own image.
#[must_use]
pub fn atlas_tile(atlas: &RgbaImage, tile: u32) -> RgbaImage {
    let (ox, oy) = tile_origin(tile);
    image::imageops::crop_imm(atlas, ox, oy, ATLAS_TILE_SIZE, ATLAS_TILE_SIZE).to_image()
}

/// True for a tile whose texels are each fully opaque or fully clear, with
/// some of both (leaves): its mips keep hard edges, so it stays alpha
/// tested at any distance.
#[must_use]
pub fn is_cutout_tile(tile: &RgbaImage) -> bool {
    let alpha = || tile.pixels().map(|p| p[3]);
    alpha().all(|a| a == 0 || a == 255) && alpha().any(|a| a == 0) && alpha().any(|a| a == 255)
}

fn srgb_to_linear(v: u8) -> f32 {
    let c = f32::from(v) / 255.0;
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(c: f32) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

/// The mip chain of one square, power-of-two tile: level 0 is `tile`, each
/// next level half as wide, every texel the average of the four below it
/// taken in linear light (not sRGB numbers, which would darken), colour
/// weighted by alpha (clear texels lend no colour). A cutout tile's alpha
/// is rounded to clear or opaque at every level ([`is_cutout_tile`]).
#[must_use]
pub fn tile_mips(tile: &RgbaImage) -> Vec<RgbaImage> {
    let cutout = is_cutout_tile(tile);
    let mut levels = vec![tile.clone()];
    while let Some(last) = levels.last().filter(|l| l.width() > 1 && l.height() > 1) {
        let (w, h) = (last.width() / 2, last.height() / 2);
        let next = RgbaImage::from_fn(w, h, |x, y| {
            let mut colour = [0.0f32; 3];
            let mut alpha = 0.0f32;
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let p = last.get_pixel(2 * x + dx, 2 * y + dy);
                let a = f32::from(p[3]) / 255.0;
                for (c, &v) in colour.iter_mut().zip(&p.0[..3]) {
                    *c += srgb_to_linear(v) * a;
                }
                alpha += a;
            }
            let rgb = colour.map(|c| if alpha > 0.0 { c / alpha } else { 0.0 });
            let a = alpha / 4.0;
            let a = if cutout {
                if a >= 0.5 { 1.0 } else { 0.0 }
            } else {
                a
            };
            Rgba([
                linear_to_srgb(rgb[0]),
                linear_to_srgb(rgb[1]),
                linear_to_srgb(rgb[2]),
                (a * 255.0).round() as u8,
            ])
        });
        levels.push(next);
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{BlockType, Face};

    #[test]
    fn mips_average_in_linear_light() {
        // A black and white checker: its average is half the light, which
        // sRGB writes as 188, not 128.
        let checker = RgbaImage::from_fn(16, 16, |x, y| {
            let v = if (x + y) % 2 == 0 { 255 } else { 0 };
            Rgba([v, v, v, 255])
        });
        let mips = tile_mips(&checker);
        assert_eq!(mips.len() as u32, ATLAS_MIP_LEVELS);
        assert_eq!(mips[4].dimensions(), (1, 1));
        for level in &mips[1..] {
            for p in level.pixels() {
                assert!((187..=189).contains(&p[0]), "{p:?}");
                assert_eq!(p[3], 255);
            }
        }
    }

    #[test]
    fn leaves_stay_cutout_and_clear_texels_lend_no_colour() {
        let atlas = block_atlas();
        let leaves = atlas_tile(&atlas, BlockType::Leaves.tile(Face::Top));
        assert!(is_cutout_tile(&leaves));
        assert!(!is_cutout_tile(&atlas_tile(
            &atlas,
            BlockType::Glass.tile(Face::Top)
        )));
        assert!(!is_cutout_tile(&atlas_tile(
            &atlas,
            BlockType::Stone.tile(Face::Top)
        )));
        for level in tile_mips(&leaves) {
            for p in level.pixels() {
                assert!(p[3] == 0 || p[3] == 255, "{p:?}");
                // Holes are (0, 0, 0, 0): averaging them in would darken
                // the green.
                if p[3] == 255 {
                    assert!(p[1] > 60, "{p:?}");
                }
            }
        }
    }

    fn alphas(atlas: &RgbaImage, tile: u32) -> Vec<u8> {
        let (ox, oy) = tile_origin(tile);
        (0..ATLAS_TILE_SIZE * ATLAS_TILE_SIZE)
            .map(|i| atlas.get_pixel(ox + i % ATLAS_TILE_SIZE, oy + i / ATLAS_TILE_SIZE)[3])
            .collect()
    }

    #[test]
    fn atlas_is_deterministic_and_holds_every_tile() {
        let atlas = block_atlas();
        assert_eq!(atlas, block_atlas());
        assert_eq!(atlas.dimensions(), (64, 64));
        const { assert!(TILE_COUNT <= ATLAS_COLUMNS * ATLAS_ROWS) };
        for tile in 0..TILE_COUNT {
            let (ox, oy) = tile_origin(tile);
            assert_ne!(atlas.get_pixel(ox + 5, oy + 9).0[..3], [255, 0, 255]);
        }
    }

    #[test]
    fn only_transparent_blocks_have_alpha() {
        let atlas = block_atlas();
        for block in BlockType::ALL.into_iter().filter(|b| !b.is_air()) {
            for face in Face::ALL {
                let tile = block.tile(face);
                let all_opaque = alphas(&atlas, tile).iter().all(|&a| a == 255);
                assert_eq!(all_opaque, block.is_opaque(), "{block:?} {face:?}");
            }
        }
        let glass = alphas(&atlas, BlockType::Glass.tile(Face::Top));
        assert!(
            glass.iter().filter(|&&a| a < 64).count() > 100,
            "glass is mostly clear"
        );
        let leaves = alphas(&atlas, BlockType::Leaves.tile(Face::Top));
        assert!(
            leaves.contains(&0) && leaves.contains(&255),
            "leaves have holes"
        );
    }

    #[test]
    fn grass_side_has_a_green_fringe_over_dirt() {
        let atlas = block_atlas();
        let (ox, oy) = tile_origin(BlockType::Grass.tile(Face::South));
        let top = atlas.get_pixel(ox + 8, oy);
        let bottom = atlas.get_pixel(ox + 8, oy + 15);
        assert!(top[1] > top[0], "green on top: {top:?}");
        assert!(bottom[0] > bottom[1], "dirt below: {bottom:?}");
    }
}
