//! Block icons for the HUD: each block drawn as a little isometric cube
//! from its own atlas tiles (top lit, the two sides shaded), so the hotbar
//! and the block picker show what will be placed, not a colour swatch.

use glam::Vec2;
use image::{Rgba, RgbaImage};

use super::atlas::{ATLAS_TILE_SIZE, tile_origin};
use crate::world::{BlockType, Face};

/// Width and height of an icon, in pixels.
pub const ICON_SIZE: u32 = 48;

/// One visible face of the icon's cube: the tile it shows, where its
/// parallelogram starts, its two edges (tile x and y run along them), and
/// how much light it gets.
struct IconFace {
    tile: u32,
    origin: Vec2,
    across: Vec2,
    down: Vec2,
    light: f32,
}

impl IconFace {
    /// Where `p` falls on the face, in [0, 1)², if it does.
    fn uv(&self, p: Vec2) -> Option<Vec2> {
        let d = p - self.origin;
        let det = self.across.perp_dot(self.down);
        let uv = Vec2::new(d.perp_dot(self.down), self.across.perp_dot(d)) / det;
        (uv.cmpge(Vec2::ZERO).all() && uv.cmplt(Vec2::ONE).all()).then_some(uv)
    }
}

/// `block` as an [`ICON_SIZE`]² isometric cube on a clear background,
/// textured from `atlas` ([`block_atlas`](super::block_atlas)); air is
/// all clear. Translucent tiles (water, glass) stay translucent.
#[must_use]
pub fn block_icon(atlas: &RgbaImage, block: BlockType) -> RgbaImage {
    let mut icon = RgbaImage::new(ICON_SIZE, ICON_SIZE);
    if block.is_air() {
        return icon;
    }
    let s = ICON_SIZE as f32 / 48.0;
    // The cube's outline: top corner, the left and right corners of the
    // top face, its near corner (the centre), and the bottom.
    let (left, centre) = (Vec2::new(4.0, 13.0) * s, Vec2::new(24.0, 24.0) * s);
    let right = Vec2::new(44.0, 13.0) * s;
    let up = Vec2::new(20.0, -11.0) * s;
    let drop = Vec2::new(0.0, 22.0) * s;
    let faces = [
        IconFace {
            tile: block.tile(Face::Top),
            origin: left,
            across: up,
            down: centre - left,
            light: 1.0,
        },
        IconFace {
            tile: block.tile(Face::South),
            origin: left,
            across: centre - left,
            down: drop,
            light: 0.78,
        },
        IconFace {
            tile: block.tile(Face::East),
            origin: centre,
            across: right - centre,
            down: drop,
            light: 0.6,
        },
    ];
    for (x, y, pixel) in icon.enumerate_pixels_mut() {
        let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
        let Some((face, uv)) = faces.iter().find_map(|f| f.uv(p).map(|uv| (f, uv))) else {
            continue;
        };
        let texel = (uv * ATLAS_TILE_SIZE as f32).as_uvec2();
        let (ox, oy) = tile_origin(face.tile);
        let t = atlas.get_pixel(ox + texel.x, oy + texel.y);
        let lit = |c: u8| (f32::from(c) * face.light).round() as u8;
        *pixel = Rgba([lit(t[0]), lit(t[1]), lit(t[2]), t[3]]);
    }
    icon
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::block_atlas;

    fn luma(p: &Rgba<u8>) -> u32 {
        u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])
    }

    #[test]
    fn a_stone_icon_is_a_cube_lit_from_above() {
        let icon = block_icon(&block_atlas(), BlockType::Stone);
        assert_eq!(icon.dimensions(), (ICON_SIZE, ICON_SIZE));
        // Corners are clear; the three faces are opaque.
        assert_eq!(icon.get_pixel(0, 0)[3], 0);
        assert_eq!(icon.get_pixel(47, 47)[3], 0);
        let (top, left, right) = ((24, 12), (12, 30), (36, 30));
        for (x, y) in [top, left, right] {
            assert_eq!(icon.get_pixel(x, y)[3], 255, "({x}, {y})");
        }
        // Averaged over each face: the top is brightest, the right darkest.
        let mean = |x0: u32, y0: u32| -> u32 {
            (0..4)
                .flat_map(|dx| (0..4).map(move |dy| (x0 + dx, y0 + dy)))
                .map(|(x, y)| luma(icon.get_pixel(x, y)))
                .sum::<u32>()
                / 16
        };
        let (t, l, r) = (mean(22, 10), mean(10, 28), mean(34, 28));
        assert!(t > l && l > r, "top {t}, left {l}, right {r}");
    }

    #[test]
    fn icons_show_each_blocks_own_tiles() {
        let atlas = block_atlas();
        let grass = block_icon(&atlas, BlockType::Grass);
        let top = grass.get_pixel(24, 12);
        assert!(top[1] > top[0] && top[1] > top[2], "green top {top:?}");
        // Low on a side: dirt under the green fringe.
        let side = grass.get_pixel(12, 36);
        assert!(side[0] > side[1], "dirt side {side:?}");
        let glass = block_icon(&atlas, BlockType::Glass);
        assert!(
            glass.pixels().any(|p| p[3] > 0 && p[3] < 100),
            "glass is see-through"
        );
        assert!(
            block_icon(&atlas, BlockType::Air)
                .pixels()
                .all(|p| p[3] == 0)
        );
        // Every placeable block gets a different picture.
        let icons: Vec<_> = BlockType::PLACEABLE
            .iter()
            .map(|&b| block_icon(&atlas, b))
            .collect();
        for (i, a) in icons.iter().enumerate() {
            for b in &icons[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
