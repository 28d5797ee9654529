//! The contact sheet: tiles in a grid, rows labelled on the left, columns
//! on top, in the built-in bitmap font.

use image::{Rgba, RgbaImage};

use super::font::{GLYPH_HEIGHT, draw_text, text_width};

/// Font pixels per label pixel.
const SCALE: u32 = 2;
/// Space around the labels and the sheet's edge.
const PAD: u32 = 8;
/// Space between tiles.
const GAP: u32 = 4;
const BACKGROUND: Rgba<u8> = Rgba([22, 24, 28, 255]);
const INK: Rgba<u8> = Rgba([230, 230, 230, 255]);

/// Where a sheet puts things.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Tile size.
    pub(crate) tile: (u32, u32),
    /// Left edge of the first column (after the row labels).
    pub(crate) left: u32,
    /// Top edge of the first row (under the column labels).
    pub(crate) top: u32,
    /// The whole sheet.
    pub(crate) size: (u32, u32),
}

impl Layout {
    pub(crate) fn new(rows: &[&str], columns: usize, tile: (u32, u32)) -> Self {
        let label_width = rows
            .iter()
            .map(|label| text_width(label, SCALE))
            .max()
            .unwrap_or(0);
        let left = label_width + 2 * PAD;
        let top = GLYPH_HEIGHT * SCALE + 2 * PAD;
        let count = |n: u32, side: u32| n * side + n.saturating_sub(1) * GAP;
        let size = (
            left + count(columns as u32, tile.0) + PAD,
            top + count(rows.len() as u32, tile.1) + PAD,
        );
        Self {
            tile,
            left,
            top,
            size,
        }
    }

    /// Top-left corner of the tile in `row`, `column`.
    pub(crate) fn tile_origin(&self, row: usize, column: usize) -> (u32, u32) {
        (
            self.left + column as u32 * (self.tile.0 + GAP),
            self.top + row as u32 * (self.tile.1 + GAP),
        )
    }
}

/// Lays `tiles` (row-major, `rows.len()` x `columns.len()`, each `tile`
/// pixels) out under their labels.
///
/// # Panics
/// If the tile count or a tile's size does not match (a bug in the caller).
pub(crate) fn contact_sheet(
    rows: &[&str],
    columns: &[&str],
    tiles: &[&RgbaImage],
    tile: (u32, u32),
) -> RgbaImage {
    assert_eq!(tiles.len(), rows.len() * columns.len(), "one tile per cell");
    let layout = Layout::new(rows, columns.len(), tile);
    let mut sheet = RgbaImage::from_pixel(layout.size.0, layout.size.1, BACKGROUND);
    for (column, label) in columns.iter().enumerate() {
        let (x, _) = layout.tile_origin(0, column);
        draw_text(&mut sheet, label, (x, PAD), SCALE, INK);
    }
    for (row, label) in rows.iter().enumerate() {
        let (_, y) = layout.tile_origin(row, 0);
        let centred = y + (tile.1.saturating_sub(GLYPH_HEIGHT * SCALE)) / 2;
        draw_text(&mut sheet, label, (PAD, centred), SCALE, INK);
        for column in 0..columns.len() {
            let image = tiles[row * columns.len() + column];
            assert_eq!(image.dimensions(), tile, "tile size");
            let (x, y) = layout.tile_origin(row, column);
            image::imageops::replace(&mut sheet, image, i64::from(x), i64::from(y));
        }
    }
    sheet
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_land_in_their_cells_under_their_labels() {
        let colour = |i: u8| RgbaImage::from_pixel(8, 6, Rgba([i * 40, 200, 100, 255]));
        let tiles: Vec<_> = (0..6).map(colour).collect();
        let refs: Vec<_> = tiles.iter().collect();
        let rows = ["forward", "deferred"];
        let columns = ["off", "dof", "bloom"];
        let sheet = contact_sheet(&rows, &columns, &refs, (8, 6));
        let layout = Layout::new(&rows, 3, (8, 6));
        assert_eq!(sheet.dimensions(), layout.size);
        // "deferred" is 8 glyphs: 47 font pixels, 94 at scale 2.
        assert_eq!(layout.left, 94 + 2 * PAD);
        assert_eq!(layout.size.0, layout.left + 3 * 8 + 2 * GAP + PAD);
        for row in 0..2 {
            for column in 0..3 {
                let (x, y) = layout.tile_origin(row, column);
                let expected = tiles[row * 3 + column].get_pixel(0, 0);
                assert_eq!(sheet.get_pixel(x, y), expected);
                assert_eq!(sheet.get_pixel(x + 7, y + 5), expected);
                assert_eq!(*sheet.get_pixel(x + 8, y), BACKGROUND, "the gap");
            }
        }
        // The labels are inked: the column labels above the tiles, the row
        // labels left of them.
        let inked = |x0: u32, x1: u32, y0: u32, y1: u32| {
            (x0..x1).any(|x| (y0..y1).any(|y| *sheet.get_pixel(x, y) == INK))
        };
        assert!(inked(layout.left, layout.size.0, 0, layout.top));
        assert!(inked(0, layout.left, layout.top, layout.size.1));
        assert!(!inked(
            layout.left,
            layout.size.0,
            layout.top,
            layout.size.1
        ));
    }
}
