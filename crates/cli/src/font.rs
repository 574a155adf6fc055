//! A tiny hand-drawn 3×5 bitmap font for the legend of `render`: capital
//! letters (lower case is drawn as capitals, except a small `x`), digits
//! and a few signs. Each glyph is five rows of three bits (4 = left
//! column, 2 = middle, 1 = right), top row first.

/// Glyph width in font pixels.
pub const WIDTH: u32 = 3;
/// Glyph height in font pixels.
pub const HEIGHT: u32 = 5;
/// Advance from one glyph to the next, in font pixels.
pub const ADVANCE: u32 = WIDTH + 1;

/// The rows of `c`'s glyph; `None` for characters the font lacks (drawn as
/// blanks).
pub fn glyph(c: char) -> Option<[u8; 5]> {
    Some(match c {
        'x' => [0, 5, 2, 5, 0],
        c if c.is_ascii_lowercase() => return glyph(c.to_ascii_uppercase()),
        'A' => [2, 5, 7, 5, 5],
        'B' => [6, 5, 6, 5, 6],
        'C' => [3, 4, 4, 4, 3],
        'D' => [6, 5, 5, 5, 6],
        'E' => [7, 4, 6, 4, 7],
        'F' => [7, 4, 6, 4, 4],
        'G' => [3, 4, 5, 5, 3],
        'H' => [5, 5, 7, 5, 5],
        'I' => [7, 2, 2, 2, 7],
        'J' => [1, 1, 1, 5, 2],
        'K' => [5, 5, 6, 5, 5],
        'L' => [4, 4, 4, 4, 7],
        'M' => [5, 7, 7, 5, 5],
        'N' => [6, 5, 5, 5, 5],
        'O' => [2, 5, 5, 5, 2],
        'P' => [6, 5, 6, 4, 4],
        'Q' => [2, 5, 5, 6, 3],
        'R' => [6, 5, 6, 5, 5],
        'S' => [3, 4, 2, 1, 6],
        'T' => [7, 2, 2, 2, 2],
        'U' => [5, 5, 5, 5, 7],
        'V' => [5, 5, 5, 5, 2],
        'W' => [5, 5, 7, 7, 5],
        'X' => [5, 5, 2, 5, 5],
        'Y' => [5, 5, 2, 2, 2],
        'Z' => [7, 1, 2, 4, 7],
        '0' => [7, 5, 5, 5, 7],
        '1' => [2, 6, 2, 2, 7],
        '2' => [6, 1, 2, 4, 7],
        '3' => [6, 1, 2, 1, 6],
        '4' => [5, 5, 7, 1, 1],
        '5' => [7, 4, 6, 1, 6],
        '6' => [3, 4, 7, 5, 7],
        '7' => [7, 1, 2, 2, 2],
        '8' => [7, 5, 7, 5, 7],
        '9' => [7, 5, 7, 1, 6],
        '.' => [0, 0, 0, 0, 2],
        ',' => [0, 0, 0, 2, 4],
        ':' => [0, 2, 0, 2, 0],
        '=' => [0, 7, 0, 7, 0],
        '-' => [0, 0, 7, 0, 0],
        '/' => [1, 1, 2, 4, 4],
        '(' => [2, 4, 4, 4, 2],
        ')' => [2, 1, 1, 1, 2],
        _ => return None,
    })
}

/// Calls `set(x, y)` for every lit font pixel of `text` drawn from the
/// origin, each font pixel `scale` × `scale` output pixels.
pub fn draw(text: &str, scale: u32, mut set: impl FnMut(u32, u32)) {
    for (i, c) in text.chars().enumerate() {
        let Some(rows) = glyph(c) else { continue };
        let x0 = i as u32 * ADVANCE * scale;
        for (row, bits) in rows.iter().enumerate() {
            for col in 0..WIDTH {
                if bits & (4 >> col) != 0 {
                    for dy in 0..scale {
                        for dx in 0..scale {
                            set(x0 + col * scale + dx, row as u32 * scale + dy);
                        }
                    }
                }
            }
        }
    }
}

/// Width in output pixels of `text` at `scale`.
pub fn width(text: &str, scale: u32) -> u32 {
    (text.chars().count() as u32 * ADVANCE).saturating_sub(1) * scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_fit_and_differ() {
        let chars: Vec<char> = ('A'..='Z')
            .chain('0'..='9')
            .chain(".,:=-/()x".chars())
            .collect();
        let glyphs: Vec<[u8; 5]> = chars.iter().map(|&c| glyph(c).unwrap()).collect();
        for (c, g) in chars.iter().zip(&glyphs) {
            assert!(g.iter().all(|&r| r < 8), "{c}");
            assert!(g.iter().any(|&r| r != 0), "{c} is blank");
        }
        for i in 0..glyphs.len() {
            for j in i + 1..glyphs.len() {
                assert_ne!(glyphs[i], glyphs[j], "{} and {}", chars[i], chars[j]);
            }
        }
        assert_eq!(glyph('q'), glyph('Q'));
        assert_eq!(glyph('~'), None);
    }

    #[test]
    fn draw_lights_the_glyph_pixels_at_scale() {
        let mut lit = Vec::new();
        draw("1", 2, |x, y| lit.push((x, y)));
        // '1' has 2 + 3 ... lit font pixels: 1 + 2 + 1 + 1 + 3 = 8.
        assert_eq!(lit.len(), 8 * 4);
        assert!(lit.iter().all(|&(x, y)| x < 6 && y < 10));
        assert_eq!(width("ab", 2), 14);
    }
}
