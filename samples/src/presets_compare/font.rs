//! A tiny built-in bitmap font (5 x 7 pixels, upper case, digits and a few
//! signs) for the contact sheet's labels: no font file, no dependency.

use image::{Rgba, RgbaImage};

/// Glyph width in font pixels.
pub(crate) const GLYPH_WIDTH: u32 = 5;
/// Glyph height in font pixels.
pub(crate) const GLYPH_HEIGHT: u32 = 7;
/// Horizontal advance per character (one column of spacing).
const ADVANCE: u32 = GLYPH_WIDTH + 1;

/// Rows of each glyph, top first: `#` is ink.
const GLYPHS: &[(char, [&str; 7])] = &[
    (
        ' ',
        [
            ".....", ".....", ".....", ".....", ".....", ".....", ".....",
        ],
    ),
    (
        'A',
        [
            ".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#",
        ],
    ),
    (
        'B',
        [
            "####.", "#...#", "#...#", "####.", "#...#", "#...#", "####.",
        ],
    ),
    (
        'C',
        [
            ".###.", "#...#", "#....", "#....", "#....", "#...#", ".###.",
        ],
    ),
    (
        'D',
        [
            "####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####.",
        ],
    ),
    (
        'E',
        [
            "#####", "#....", "#....", "####.", "#....", "#....", "#####",
        ],
    ),
    (
        'F',
        [
            "#####", "#....", "#....", "####.", "#....", "#....", "#....",
        ],
    ),
    (
        'G',
        [
            ".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####",
        ],
    ),
    (
        'H',
        [
            "#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#",
        ],
    ),
    (
        'I',
        [
            ".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###.",
        ],
    ),
    (
        'J',
        [
            "..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##..",
        ],
    ),
    (
        'K',
        [
            "#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#",
        ],
    ),
    (
        'L',
        [
            "#....", "#....", "#....", "#....", "#....", "#....", "#####",
        ],
    ),
    (
        'M',
        [
            "#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#",
        ],
    ),
    (
        'N',
        [
            "#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#",
        ],
    ),
    (
        'O',
        [
            ".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###.",
        ],
    ),
    (
        'P',
        [
            "####.", "#...#", "#...#", "####.", "#....", "#....", "#....",
        ],
    ),
    (
        'Q',
        [
            ".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#",
        ],
    ),
    (
        'R',
        [
            "####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#",
        ],
    ),
    (
        'S',
        [
            ".####", "#....", "#....", ".###.", "....#", "....#", "####.",
        ],
    ),
    (
        'T',
        [
            "#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#..",
        ],
    ),
    (
        'U',
        [
            "#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###.",
        ],
    ),
    (
        'V',
        [
            "#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#..",
        ],
    ),
    (
        'W',
        [
            "#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#.",
        ],
    ),
    (
        'X',
        [
            "#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#",
        ],
    ),
    (
        'Y',
        [
            "#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#..",
        ],
    ),
    (
        'Z',
        [
            "#####", "....#", "...#.", "..#..", ".#...", "#....", "#####",
        ],
    ),
    (
        '0',
        [
            ".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###.",
        ],
    ),
    (
        '1',
        [
            "..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###.",
        ],
    ),
    (
        '2',
        [
            ".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####",
        ],
    ),
    (
        '3',
        [
            "#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###.",
        ],
    ),
    (
        '4',
        [
            "...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#.",
        ],
    ),
    (
        '5',
        [
            "#####", "#....", "####.", "....#", "....#", "#...#", ".###.",
        ],
    ),
    (
        '6',
        [
            "..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###.",
        ],
    ),
    (
        '7',
        [
            "#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#...",
        ],
    ),
    (
        '8',
        [
            ".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###.",
        ],
    ),
    (
        '9',
        [
            ".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##..",
        ],
    ),
    (
        '+',
        [
            ".....", "..#..", "..#..", "#####", "..#..", "..#..", ".....",
        ],
    ),
    (
        '-',
        [
            ".....", ".....", ".....", "#####", ".....", ".....", ".....",
        ],
    ),
    (
        '.',
        [
            ".....", ".....", ".....", ".....", ".....", ".##..", ".##..",
        ],
    ),
    (
        '/',
        [
            ".....", "....#", "...#.", "..#..", ".#...", "#....", ".....",
        ],
    ),
    (
        '?',
        [
            ".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#..",
        ],
    ),
];

/// The glyph for `c` (upper-cased); `?` for characters the font lacks.
fn glyph(c: char) -> &'static [&'static str; 7] {
    let upper = c.to_ascii_uppercase();
    GLYPHS
        .iter()
        .find(|(g, _)| *g == upper)
        .or_else(|| GLYPHS.iter().find(|(g, _)| *g == '?'))
        .map(|(_, rows)| rows)
        .expect("the font has a '?' glyph")
}

/// Width in image pixels of `text` drawn at `scale`.
#[must_use]
pub(crate) fn text_width(text: &str, scale: u32) -> u32 {
    let count = text.chars().count() as u32;
    (count * ADVANCE).saturating_sub(1) * scale
}

/// Draws `text` with its top-left corner at (`x`, `y`), each font pixel a
/// `scale` x `scale` square of `color`; what falls outside the image is
/// clipped.
pub(crate) fn draw_text(
    image: &mut RgbaImage,
    text: &str,
    (x, y): (u32, u32),
    scale: u32,
    color: Rgba<u8>,
) {
    for (index, c) in text.chars().enumerate() {
        let left = x + index as u32 * ADVANCE * scale;
        for (row, bits) in glyph(c).iter().enumerate() {
            for (column, bit) in bits.bytes().enumerate() {
                if bit != b'#' {
                    continue;
                }
                for dy in 0..scale {
                    for dx in 0..scale {
                        let px = left + column as u32 * scale + dx;
                        let py = y + row as u32 * scale + dy;
                        if px < image.width() && py < image.height() {
                            image.put_pixel(px, py, color);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use image::{Rgba, RgbaImage};

    use super::*;

    #[test]
    fn every_glyph_is_five_by_seven_and_listed_once() {
        for (i, (c, rows)) in GLYPHS.iter().enumerate() {
            for row in rows {
                assert_eq!(row.len(), GLYPH_WIDTH as usize, "{c:?}: {row:?}");
                assert!(row.bytes().all(|b| b == b'#' || b == b'.'), "{c:?}");
            }
            assert!(
                GLYPHS[i + 1..].iter().all(|(other, _)| other != c),
                "{c:?} twice"
            );
        }
        // Every label the sample writes can be drawn without '?'.
        for c in "forward-plus deferred off dof bloom taa msaa 0123456789+./".chars() {
            assert!(
                GLYPHS.iter().any(|(g, _)| *g == c.to_ascii_uppercase()),
                "{c:?}"
            );
        }
    }

    #[test]
    fn text_is_drawn_where_and_as_wide_as_measured() {
        let ink = Rgba([255, 255, 255, 255]);
        let mut image = RgbaImage::from_pixel(40, 20, Rgba([0, 0, 0, 255]));
        draw_text(&mut image, "L-", (2, 3), 2, ink);
        // 'L': its stem at x 2..4, its foot on the bottom row (y 15..17).
        assert_eq!(*image.get_pixel(2, 3), ink);
        assert_eq!(*image.get_pixel(3, 16), ink);
        assert_eq!(*image.get_pixel(4, 3), Rgba([0, 0, 0, 255]));
        // '-': the middle row of the second glyph, 12 pixels on.
        assert_eq!(*image.get_pixel(14, 3 + 6), ink);
        assert_eq!(*image.get_pixel(14, 3), Rgba([0, 0, 0, 255]));
        let inked = |x: u32| (0..20).any(|y| *image.get_pixel(x, y) == ink);
        let width = text_width("L-", 2);
        assert_eq!(width, 22);
        assert!(inked(2 + width - 1) && !inked(2 + width));
        // Off the edge is clipped, not a panic.
        draw_text(&mut image, "WIDE TEXT", (30, 15), 3, ink);
    }
}
