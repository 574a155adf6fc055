//! A grid seen by one movement profile: which positions a unit may stand
//! on, and what each costs.

use crate::coords::Point;
use crate::grid::{Grid, MAX_TERRAIN_KINDS};
use crate::profile::Profile;
use std::sync::Arc;

/// The positions of a [`Grid`] under a [`Profile`] of size `k`.
///
/// Position `(x, y)` covers the cells `x..x+k` × `y..y+k` (top-left
/// anchor); it is *usable* when all of them are in the map and have a cost
/// in the profile, and its cost is the largest of theirs.
/// [`ProfileGrid::grid`] is a [`Grid`] of the same size whose passable
/// cells are exactly the usable positions, so the grid's move rule (a
/// diagonal only when both orthogonal neighbours are passable) is the
/// profile's rule (a diagonal only when both intermediate positions are
/// usable), and every search over a `Grid` runs on it unchanged where costs
/// are uniform ([`ProfileGrid::is_uniform`]). Under the default profile, on
/// a map of the Moving AI kinds, that grid has the source's passability
/// bit for bit.
///
/// Costs are grouped in *classes*: the distinct costs of usable positions,
/// in increasing order ([`ProfileGrid::class_costs`], at most
/// [`MAX_TERRAIN_KINDS`]); each usable position has one, stored only when
/// there are two or more classes, at the fewest bits per padded cell that
/// hold them: 1 bit for two classes, 2 for up to four, 4 beyond. For a unit
/// of size 1 on a map that keeps kinds per cell, a position's class is its
/// cell's kind's: the view then reads the map's own kind layer, shared
/// rather than copied, through a table of 16 codes
/// ([`ProfileGrid::shares_kinds`]; an edit of the map copies the layer
/// first, so the view keeps the kinds it was made from).
///
/// Built in O(cells · k) time; holds the position grid: 2 bits per cell
/// when uniform (rows and columns, for jump point search), else 1 bit per
/// cell (no column copy: searches under differing costs are A*; the few
/// jump point searches over it, reachability checks, read columns from
/// the rows) plus the classes at 1, 2 or 4 bits per cell (none of its own
/// when it shares the map's kinds). Why packed: a painted
/// map usually has two to four classes per profile, and the view is most
/// of a profiled hierarchy's bytes. A view does not follow later
/// edits of its source: compare [`ProfileGrid::source_revision`] with the
/// source's [`Grid::revision`].
#[derive(Clone, Debug)]
pub struct ProfileGrid {
    positions: Grid,
    size: u32,
    class_costs: Vec<f64>,
    /// `1 << class_bits` bits per padded index of `positions`, packed from
    /// the low bits of each byte; empty when uniform or when `kinds` holds
    /// the classes.
    classes: Vec<u8>,
    /// For a unit of size 1 on a map that stores kinds per cell: the map's
    /// own kind layer (4 bits per padded cell, shared with the source, not
    /// copied), whose codes `class_of_code` turns into classes.
    kinds: Option<Arc<Vec<u8>>>,
    /// The class of each kind code (0 for codes no usable position has).
    class_of_code: [u8; MAX_TERRAIN_KINDS],
    /// log2 of the bits per entry in `classes` (0, 1 or 2), or 2 when the
    /// classes are read from `kinds`.
    bits_log: u32,
    source_revision: u64,
}

/// A [`ProfileGrid`]'s cost classes as packed: `1 << bits_log` bits per
/// padded index, from the low bits of each byte. Why a type of its own: a
/// search that learns the width once ([`PackedClasses::bits_log`]) and
/// reads with it as a constant ([`PackedClasses::get`]) skips the choice
/// of width that [`ProfileGrid::cost_class_padded`] makes at every read
/// (the weighted legs took 15 % more instructions with the width read per
/// call; `benches/PROFILES.md` P61).
///
/// A view of a unit of size 1 reads the map's own kind codes instead
/// ([`PackedClasses::is_mapped`]): 4 bits per cell, each code turned into
/// its class by a table of 16.
#[derive(Clone, Copy, Debug)]
pub struct PackedClasses<'a> {
    bytes: &'a [u8],
    bits_log: u32,
    /// Class per stored value: the kind codes' classes when mapped, else
    /// the identity.
    map: &'a [u8; MAX_TERRAIN_KINDS],
    mapped: bool,
}

/// The map of [`PackedClasses`] whose stored values are the classes.
const IDENTITY: [u8; MAX_TERRAIN_KINDS] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

impl PackedClasses<'_> {
    /// log2 of the bits per stored value: 0, 1 or 2 (0 when the view is
    /// uniform; 2 when mapped).
    #[inline]
    pub fn bits_log(&self) -> u32 {
        self.bits_log
    }

    /// Whether the stored values are the map's kind codes, turned into
    /// classes by a table ([`PackedClasses::class_of_value`]).
    #[inline]
    pub fn is_mapped(&self) -> bool {
        self.mapped
    }

    /// The class of stored value `v` (`v` itself unless
    /// [`PackedClasses::is_mapped`]; only the low 4 bits count). For a
    /// search that indexes its tables by stored value.
    #[inline]
    pub fn class_of_value(&self, v: u8) -> u8 {
        self.map[v as usize & (MAX_TERRAIN_KINDS - 1)]
    }

    /// The value stored at padded index `i` (the class unless
    /// [`PackedClasses::is_mapped`]); `BITS_LOG` must be
    /// [`PackedClasses::bits_log`] (else the value is unspecified, never
    /// out of bounds). O(1).
    #[inline(always)]
    pub fn get<const BITS_LOG: u32>(&self, i: usize) -> u8 {
        debug_assert_eq!(BITS_LOG, self.bits_log);
        let byte_shift = 3 - BITS_LOG;
        match self.bytes.get(i >> byte_shift) {
            Some(b) => {
                let slot = (i & ((1 << byte_shift) - 1)) << BITS_LOG;
                (b >> slot) & ((1u16 << (1 << BITS_LOG)) - 1) as u8
            }
            None => 0,
        }
    }
}

impl PackedClasses<'_> {
    /// The `64 >> BITS_LOG` values stored from padded index `i` on, packed
    /// as stored (value `j` at bits `j << BITS_LOG`), zero past the end;
    /// `BITS_LOG` must be [`PackedClasses::bits_log`]. O(1): for a search
    /// that splits a window row into cost classes by word operations.
    #[inline(always)]
    pub fn chunk<const BITS_LOG: u32>(&self, i: usize) -> u64 {
        debug_assert_eq!(BITS_LOG, self.bits_log);
        let bit = i << BITS_LOG;
        let (byte, shift) = (bit >> 3, bit & 7);
        (u128::from_le_bytes(self.bytes_from::<16>(byte)) >> shift) as u64
    }

    /// The `N` stored bytes from byte `at` on, zero past the end.
    #[inline(always)]
    fn bytes_from<const N: usize>(&self, at: usize) -> [u8; N] {
        if let Some(Ok(whole)) = self.bytes.get(at..at + N).map(<[u8; N]>::try_from) {
            return whole;
        }
        let mut buf = [0u8; N];
        let rest = self.bytes.get(at..).unwrap_or(&[]);
        buf[..rest.len()].copy_from_slice(rest);
        buf
    }

    /// For 4-bit values (`bits_log` 2): the values at padded indices
    /// `i..i + 32` turned by `table` two at a time (`table[byte]` for the
    /// byte holding two values, the first in its low bits), 2 bits each:
    /// value `j` at bits `2 j`, zero past the end. With a table of classes
    /// this splits a row of kind codes into classes a byte at a time.
    #[inline(always)]
    pub fn pairs_through(&self, i: usize, table: &[u8; 256]) -> u64 {
        debug_assert_eq!(self.bits_log, 2);
        let buf = self.bytes_from::<17>(i >> 1);
        let mut lo = 0u64;
        for (k, &b) in buf[..16].iter().enumerate() {
            lo |= u64::from(table[b as usize] & 15) << (4 * k);
        }
        let last = u64::from(table[buf[16] as usize] & 15);
        if i & 1 == 0 {
            lo
        } else {
            lo >> 2 | last << 62
        }
    }
}

/// A cell or position no class covers (impassable, or off the map).
const NONE: u8 = u8::MAX;

impl ProfileGrid {
    /// The positions of `grid` under `profile`. O(cells · k).
    pub fn new(grid: &Grid, profile: &Profile) -> ProfileGrid {
        let (w, h) = (grid.width() as usize, grid.height() as usize);
        let k = profile.size() as usize;
        // The distinct costs of the kinds present, in increasing order; a
        // cell's rank orders its cost, and NONE is above every rank, so the
        // largest rank of a footprint is NONE exactly when a cell of it is
        // impassable.
        let mut costs: Vec<f64> = grid
            .terrain_kinds()
            .iter()
            .filter_map(|&t| profile.cost(t))
            .collect();
        costs.sort_by(f64::total_cmp);
        costs.dedup();
        let mut rank_of = [NONE; 128];
        for &t in grid.terrain_kinds() {
            if let Some(c) = profile.cost(t) {
                let r = costs.iter().position(|&x| x == c).unwrap_or(0);
                rank_of[t.to_char() as usize] = r as u8;
            }
        }
        let mut pos = vec![NONE; w * h];
        let mut rank_of_code = [NONE; MAX_TERRAIN_KINDS];
        let kind_codes = grid.kind_codes();
        if let Some((codes, kinds)) = kind_codes {
            // A rank per code, then the codes row by row.
            for (r, t) in rank_of_code.iter_mut().zip(kinds) {
                *r = rank_of[t.to_char() as usize];
            }
            let stride = grid.stride();
            for (y, row) in pos.chunks_exact_mut(w).enumerate() {
                let start = (y + 1) * stride + 1;
                for (x, r) in row.iter_mut().enumerate() {
                    *r = rank_of_code[crate::grid::code_at(codes, start + x) as usize];
                }
            }
        } else {
            for y in 0..h {
                for x in 0..w {
                    let t = grid.kind_at(Point::new(x as u32, y as u32));
                    pos[y * w + x] = rank_of[t.to_char() as usize];
                }
            }
        }
        if k > 1 {
            // Largest rank over the k cells to the right, then over the k
            // rows below (in place: each entry reads only itself and later
            // ones, row-major so the inner loops run along rows); a
            // footprint leaving the map is NONE.
            for row in pos.chunks_exact_mut(w) {
                // After pass s, row[x] is the largest of x..=x+s (each
                // pass reads row[x + 1] before writing it).
                for _ in 1..k {
                    for x in 0..w - 1 {
                        row[x] = row[x].max(row[x + 1]);
                    }
                }
                row[w.saturating_sub(k - 1)..].fill(NONE);
            }
            for y in 0..h {
                if y + k > h {
                    pos[y * w..(y + 1) * w].fill(NONE);
                    continue;
                }
                for r in 1..k {
                    let (head, tail) = pos.split_at_mut((y + r) * w);
                    let below = &tail[..w];
                    for (v, &u) in head[y * w..(y + 1) * w].iter_mut().zip(below) {
                        *v = (*v).max(u);
                    }
                }
            }
        }
        // Keep only the classes some usable position has.
        let mut present = [false; MAX_TERRAIN_KINDS];
        for &r in pos.iter().filter(|&&r| r != NONE) {
            present[r as usize] = true;
        }
        let mut remap = [NONE; MAX_TERRAIN_KINDS];
        let mut class_costs = Vec::new();
        for (r, &c) in costs.iter().enumerate() {
            if present[r] {
                remap[r] = class_costs.len() as u8;
                class_costs.push(c);
            }
        }
        // Searches under differing costs are A*, not jump point search, the
        // reader of the column copy.
        let positions = grid.with_open_cells(|i| pos[i] != NONE, class_costs.len() <= 1);
        let mut classes = Vec::new();
        let mut class_bits: u8 = match class_costs.len() {
            0..=2 => 0,
            3..=4 => 1,
            _ => 2,
        };
        // Size 1: a position's class is its cell's kind's, so the map's
        // kind layer, shared, holds them (the layer and the positions
        // share the padded layout).
        let mut kinds = None;
        let mut class_of_code = [0u8; MAX_TERRAIN_KINDS];
        if class_costs.len() > 1 && k == 1 {
            if let Some((layer, _)) = kind_codes {
                for (c, &r) in class_of_code.iter_mut().zip(&rank_of_code) {
                    if r != NONE && remap[r as usize] != NONE {
                        *c = remap[r as usize];
                    }
                }
                kinds = Some(Arc::clone(layer));
                class_bits = 2;
            }
        }
        if class_costs.len() > 1 && kinds.is_none() {
            let stride = positions.stride();
            let per_byte = 8 >> class_bits;
            classes = vec![0u8; (stride * (h + 2)).div_ceil(per_byte)];
            for y in 0..h {
                for x in 0..w {
                    let r = pos[y * w + x];
                    if r != NONE {
                        let i = (y + 1) * stride + x + 1;
                        classes[i / per_byte] |=
                            remap[r as usize] << ((i % per_byte) << class_bits);
                    }
                }
            }
        }
        ProfileGrid {
            positions,
            size: k as u32,
            class_costs,
            classes,
            kinds,
            class_of_code,
            bits_log: u32::from(class_bits),
            source_revision: grid.revision(),
        }
    }

    /// The position grid: passable exactly at the usable positions.
    #[inline]
    pub fn grid(&self) -> &Grid {
        &self.positions
    }

    /// The unit size `k` the view was built for.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The [`Grid::revision`] of the source grid when the view was built.
    pub fn source_revision(&self) -> u64 {
        self.source_revision
    }

    /// Whether every usable position costs the same (one class, or none
    /// when nothing is usable): searches over [`ProfileGrid::grid`] are then
    /// exact as they are, their costs scaled by that one cost.
    #[inline]
    pub fn is_uniform(&self) -> bool {
        self.class_costs.len() <= 1
    }

    /// The cost of each class, in increasing order (one entry when uniform,
    /// none when no position is usable).
    #[inline]
    pub fn class_costs(&self) -> &[f64] {
        &self.class_costs
    }

    /// Whether `p` is a usable position.
    #[inline]
    pub fn is_usable(&self, p: Point) -> bool {
        self.positions.is_passable(p)
    }

    /// The cost class of a usable position, `None` for any other point.
    pub fn cost_class(&self, p: Point) -> Option<u8> {
        self.is_usable(p)
            .then(|| self.cost_class_padded(self.positions.padded_index(p)))
    }

    /// The cost of a usable position, `None` for any other point.
    pub fn position_cost(&self, p: Point) -> Option<f64> {
        self.cost_class(p).map(|c| self.class_costs[c as usize])
    }

    /// The cost class at padded index `i` of [`ProfileGrid::grid`] (see
    /// [`Grid::padded_index`]); meaningful at usable positions (0
    /// elsewhere). O(1), for searches.
    #[inline]
    pub fn cost_class_padded(&self, i: usize) -> u8 {
        let classes = self.packed_classes();
        let v = match self.bits_log {
            0 => classes.get::<0>(i),
            1 => classes.get::<1>(i),
            _ => classes.get::<2>(i),
        };
        classes.class_of_value(v)
    }

    /// The packed classes, for a search that reads them in its inner loop
    /// ([`PackedClasses::get`] with the width as a constant).
    #[inline]
    pub fn packed_classes(&self) -> PackedClasses<'_> {
        match &self.kinds {
            Some(layer) => PackedClasses {
                bytes: layer,
                bits_log: 2,
                map: &self.class_of_code,
                mapped: true,
            },
            None => PackedClasses {
                bytes: &self.classes,
                bits_log: self.bits_log,
                map: &IDENTITY,
                mapped: false,
            },
        }
    }

    /// Whether the classes are read from the map's own kind layer, shared
    /// with the source grid (a unit of size 1 whose costs differ, on a map
    /// that stores kinds per cell) rather than held by the view.
    pub fn shares_kinds(&self) -> bool {
        self.kinds.is_some()
    }

    /// Bytes held on the heap: the position grid's bits (row-major, and
    /// column-major where uniform) and the classes; a kind layer shared
    /// with the source grid ([`ProfileGrid::shares_kinds`]) counts only
    /// once nothing else holds it (the source edited or dropped).
    pub fn bytes(&self) -> usize {
        let padded = self.positions.stride() * (self.positions.height() as usize + 2);
        let planes = if self.positions.has_column_copy() {
            2
        } else {
            1
        };
        let kinds = self
            .kinds
            .as_ref()
            .filter(|k| Arc::strong_count(k) == 1)
            .map_or(0, |k| k.capacity());
        planes * (padded.div_ceil(64) + 1) * 8 + self.classes.capacity() + kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Profile, Terrain};

    /// Usable positions and costs against a cell-by-cell reading of the
    /// rule, for sizes 1 to 3 on a small mixed map.
    #[test]
    fn positions_follow_the_footprint_rule() {
        let rows = [".....SS.", "..W..SS.", ".....SSG", "T.......", "....W..."];
        let g = Grid::from_rows(&rows).unwrap();
        for k in 1..=3u32 {
            let p = Profile::builder("u")
                .size(k)
                .cost('.', 1.0)
                .cost('G', 1.5)
                .cost('S', 4.0)
                .build()
                .unwrap();
            let v = ProfileGrid::new(&g, &p);
            for y in 0..5u32 {
                for x in 0..8u32 {
                    let mut worst: Option<f64> = Some(0.0);
                    for dy in 0..k {
                        for dx in 0..k {
                            let c = rows
                                .get((y + dy) as usize)
                                .and_then(|r| r.chars().nth((x + dx) as usize))
                                .and_then(|c| p.cost(Terrain::from_char(c).unwrap()));
                            worst = match (worst, c) {
                                (Some(a), Some(b)) => Some(a.max(b)),
                                _ => None,
                            };
                        }
                    }
                    let at = Point::new(x, y);
                    assert_eq!(v.position_cost(at), worst, "k {k} at {at}");
                    assert_eq!(v.is_usable(at), worst.is_some());
                }
            }
            assert!(!v.is_uniform());
        }
        // Only ground reachable by a 2-wide unit that cannot swim or wade:
        // one class, uniform.
        let p = Profile::builder("u")
            .size(2)
            .cost('.', 2.0)
            .build()
            .unwrap();
        let v = ProfileGrid::new(&g, &p);
        assert!(v.is_uniform());
        assert_eq!(v.class_costs(), &[2.0]);
        assert_eq!(v.cost_class(Point::new(0, 0)), Some(0));
        assert_eq!(v.cost_class(Point::new(2, 0)), None);
    }

    /// The kinds the random tests draw from, in order.
    const KINDS: &[u8] = b".GSWT=abcdefghij";

    /// A random map of the first 2 to 16 of [`KINDS`], 1 to `max_w` cells
    /// wide and 1 to `max_h` high: how many kinds it draws from, and its
    /// rows.
    fn random_rows(
        next: &mut impl FnMut(u64) -> u64,
        max_w: u64,
        max_h: u64,
    ) -> (usize, Vec<String>) {
        let kinds = 2 + next(15) as usize;
        let (w, h) = (1 + next(max_w) as usize, 1 + next(max_h) as usize);
        let rows = (0..h)
            .map(|_| {
                (0..w)
                    .map(|_| KINDS[next(kinds as u64) as usize] as char)
                    .collect()
            })
            .collect();
        (kinds, rows)
    }

    /// `PackedClasses::chunk` against `PackedClasses::get`, value by value,
    /// at every padded index of random views of every width (1, 2 and 4
    /// bits, and the map's own kind layer), up to and past the end.
    #[test]
    fn chunks_hold_the_values_get_reads() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| crate::xorshift(&mut seed) % n;
        fn check<const B: u32>(p: &PackedClasses<'_>, cells: usize) {
            let per = 64 >> B;
            let mask = (1u64 << (1 << B)) - 1;
            for i in 0..cells + per {
                let x = p.chunk::<B>(i);
                for j in 0..per {
                    let want = u64::from(p.get::<B>(i + j));
                    assert_eq!((x >> (j << B)) & mask, want, "bits {B} at {i} + {j}");
                }
            }
        }
        // `pairs_through` with the class table of the kind layer.
        fn check_pairs(p: &PackedClasses<'_>, cells: usize) {
            let mut table = [0u8; 256];
            for (b, t) in table.iter_mut().enumerate() {
                *t = (p.class_of_value(b as u8 & 15) & 3)
                    | (p.class_of_value((b >> 4) as u8) & 3) << 2;
            }
            for i in 0..cells {
                let x = p.pairs_through(i, &table);
                for j in 0..32.min(cells - i) {
                    let want = u64::from(p.class_of_value(p.get::<2>(i + j)) & 3);
                    assert_eq!((x >> (2 * j)) & 3, want, "pairs at {i} + {j}");
                }
            }
        }
        let mut seen = [false; 4];
        for case in 0..60 {
            let (kinds, rows) = random_rows(&mut next, 70, 9);
            let (w, h) = (rows[0].len(), rows.len());
            let g = Grid::from_rows(&rows).unwrap();
            let mut b = Profile::builder("u").size(1 + (case % 2) as u32);
            for (i, &c) in KINDS[..kinds].iter().enumerate() {
                if i == 0 || next(4) != 0 {
                    b = b.cost(c as char, 0.5 * (1 + next(8)) as f64);
                }
            }
            let v = ProfileGrid::new(&g, &b.build().unwrap());
            let p = v.packed_classes();
            let cells = (w + 2) * (h + 2);
            match (p.bits_log(), p.is_mapped()) {
                (0, _) => check::<0>(&p, cells),
                (1, _) => check::<1>(&p, cells),
                _ => check::<2>(&p, cells),
            };
            if p.is_mapped() {
                check_pairs(&p, cells);
            }
            seen[if p.is_mapped() {
                3
            } else {
                p.bits_log() as usize
            }] = true;
        }
        assert_eq!(seen, [true; 4], "every width and the kind layer");
    }

    /// Random maps of 2 to 16 kinds, random prices (a kind left out is
    /// impassable) and sizes 1 to 3: every position's cost against the
    /// footprint rule read from the rows, whatever the number of classes
    /// (1, 2 or 4 bits each, or the map's own kind layer for size 1), and
    /// the classes' bytes as packed; a view sharing the map's layer keeps
    /// its costs when the map is edited after.
    #[test]
    fn packed_classes_hold_every_position_cost() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let mut seen_bits = [false; 3];
        let mut seen_shared = false;
        for case in 0..120 {
            let (kinds, rows) = random_rows(&mut next, 40, 12);
            let (w, h) = (rows[0].len(), rows.len());
            let g = Grid::from_rows(&rows).unwrap();
            let k = 1 + (case % 3) as u32;
            let mut b = Profile::builder("u").size(k);
            let mut priced = false;
            for &c in &KINDS[..kinds] {
                if next(5) != 0 {
                    b = b.cost(c as char, 0.25 * (1 + next(12)) as f64);
                    priced = true;
                }
            }
            if !priced {
                b = b.cost('.', 1.0);
            }
            let p = b.build().unwrap();
            let v = ProfileGrid::new(&g, &p);
            for y in 0..h as u32 {
                for x in 0..w as u32 {
                    let mut worst: Option<f64> = Some(0.0);
                    for dy in 0..k {
                        for dx in 0..k {
                            let c = rows
                                .get((y + dy) as usize)
                                .and_then(|r| r.as_bytes().get((x + dx) as usize))
                                .and_then(|&c| p.cost(Terrain::from_char(c as char).unwrap()));
                            worst = match (worst, c) {
                                (Some(a), Some(b)) => Some(a.max(b)),
                                _ => None,
                            };
                        }
                    }
                    let at = Point::new(x, y);
                    assert_eq!(v.position_cost(at), worst, "case {case} k {k} at {at}");
                }
            }
            let n = v.class_costs().len();
            if n > 1 {
                let bits = if n == 2 {
                    1
                } else if n <= 4 {
                    2
                } else {
                    4
                };
                // Size 1 on a map with a kind layer: the layer, shared.
                let shared = k == 1 && g.has_terrain_layer();
                assert_eq!(v.shares_kinds(), shared, "case {case}");
                if shared {
                    assert!(v.classes.is_empty(), "case {case}");
                    seen_shared = true;
                } else {
                    seen_bits[bits / 2] = true;
                    let padded = v.grid().stride() * (h + 2);
                    assert_eq!(v.classes.len(), (padded * bits).div_ceil(8), "case {case}");
                }
            } else {
                assert!(v.is_uniform());
            }
            // The column copy only where jump point search runs (uniform
            // costs), and the bytes count the planes held (a shared layer
            // not while the map holds it too).
            assert_eq!(v.grid().has_column_copy(), v.is_uniform(), "case {case}");
            let plane = (v.grid().stride() * (h + 2)).div_ceil(64) * 8 + 8;
            let planes = if v.is_uniform() { 2 } else { 1 };
            assert_eq!(
                v.bytes(),
                planes * plane + v.classes.capacity(),
                "case {case}"
            );
            if v.shares_kinds() {
                // The source edited: the view keeps the kinds it was made
                // from (the map copies its layer), and now holds them alone.
                let costs = |v: &ProfileGrid| -> Vec<Option<f64>> {
                    (0..h as u32)
                        .flat_map(|y| (0..w as u32).map(move |x| Point::new(x, y)))
                        .map(|q| v.position_cost(q))
                        .collect()
                };
                let before = costs(&v);
                let mut edited = g.clone();
                for y in 0..h as u32 {
                    for x in 0..w as u32 {
                        let t = KINDS[next(kinds as u64) as usize] as char;
                        edited
                            .set_terrain(Point::new(x, y), Terrain::from_char(t).unwrap())
                            .unwrap();
                    }
                }
                drop(g);
                assert_eq!(costs(&v), before, "case {case}");
                assert!(v.bytes() >= planes * plane + (v.grid().stride() * (h + 2)).div_ceil(2));
            }
        }
        assert_eq!(seen_bits, [true; 3], "every packing width exercised");
        assert!(seen_shared, "a shared kind layer exercised");
    }

    #[test]
    fn default_profile_keeps_passability() {
        let g = Grid::from_rows(&[".GS@", "OTW.", "S..G"]).unwrap();
        let v = ProfileGrid::new(&g, &Profile::default());
        assert_eq!(v.grid().checksum(), g.checksum());
        assert!(v.is_uniform());
        assert_eq!(v.class_costs(), &[1.0]);
        assert_eq!(v.source_revision(), g.revision());
    }
}
