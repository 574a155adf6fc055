//! Consistency of a loaded `.rph` file with itself and with its grid.
//!
//! A file whose CRC was recomputed after a change passes the header
//! checks; these checks refuse it ([`HierarchyError::Inconsistent`], naming
//! the record) unless what it says still holds. They run after the tables
//! are parsed and range-checked and before anything is derived from them,
//! in time linear in the file plus O(1) grid reads per cell a record names
//! and a popcount of each sector's rows (O(cells / 64) words, like the
//! grid checksum every load compares):
//!
//! - regions: bounding box inside the sector, representative inside the
//!   box and passable, cells between a connected piece's least (`w + h −
//!   1`) and the box's area, representatives of one sector distinct; per
//!   sector, the regions' cells sum to the sector's passable cells and their
//!   boxes join to the box of those cells; a sector whose regions hold
//!   fewer cells has sealed pieces (no move out of the sector, no region),
//!   and is labelled again: it must give exactly the stored regions, each
//!   representative in its region's piece (only such sectors pay for
//!   labelling).
//! - edges: in ascending `(a, b)` order (so none twice; `a < b`, so no self
//!   loop; stored once, so symmetric by construction); the crossing run
//!   lies along the border of two different sectors, inside `a`'s and `b`'s
//!   sectors, every cell passable (a diagonal crossing: one pair, a legal
//!   step); its first cell on each side inside the box of the region named
//!   there; its cost the one the build gives that crossing (octile legs
//!   from both representatives to the run's middle, plus the step, to the
//!   stored 1/64 cell), which ties every link to both representatives.
//!
//! The same pass over each sector's cells also gives its sealed bit and its
//! digest (equal to `SealedSectors::build` and `sector::digests`, which
//! are not run on load). The landmark distances are stored and checked by
//! `Landmarks::check` (every edge: both unreached or differing by at most
//! its integer weight; each landmark at 0 from itself), which keeps the
//! heuristic admissible and consistent; a stored portal layer is checked
//! by `Portals::read` (fields legal, acyclic and shortest; its landmark
//! distances along every portal edge). The region graph, connectivity and
//! block-cut tree are not stored: they are rebuilt from the checked tables
//! and the grid, so they agree with them by construction (components by
//! union-find over the graph).
//!
//! What is not checked, because only labelling every sector would (about
//! as many instructions as the build's own labelling: maze512-1 10.5 M,
//! against 13.5 M for the whole load before these checks): which piece of
//! a sector of several regions a crossing cell or representative lies in
//! beyond the boxes and the cost tie above, the exact box of each of those
//! regions (their union is exact), that a link is the cheapest of several
//! crossings and its "more crossings" bit (these two steer the route and
//! whether a path is reported `exact`, never its validity). Random damage
//! of those kinds was always caught by the checks above in the tests
//! (`tests/corruption.rs`).

use super::EdgeRecords;
use crate::build::sectors::{sector_data, SectorScratch};
use crate::derived::SealedSectors;
use crate::graph::{Link, Region};
use crate::sector::{Layout, Rect};
use crate::{FilePart, HierarchyError};
use regionpath_grid::{octile, Dir, Grid, Point, SQRT2};

fn bad(part: FilePart, reason: &'static str) -> HierarchyError {
    HierarchyError::Inconsistent { part, reason }
}

/// The passable cells of sector `s` (`rect`, at most 256 a side): their
/// number, their bounding box (`None` when there are none) and the
/// sector's digest ([`crate::sector::digests`], from the same words).
fn passable_in(grid: &Grid, s: u32, rect: Rect) -> (u64, Option<Rect>, u64) {
    let mut digest = crate::sector::digest_seed(s);
    let mut count = 0u64;
    let (mut cols, mut y0, mut y1) = ([0u64; 4], u32::MAX, 0);
    // Rows of at most 32 cells are counted several to a word (`packed`,
    // `fill` bits of it used): one popcount per 64 cells, a library-free
    // bit count being most of this pass on x86-64 without `popcnt`
    // (P74).
    let (mut packed, mut fill) = (0u64, 0u32);
    let narrow = rect.x1 - rect.x0 <= 32;
    for y in rect.y0..rect.y1 {
        let base = grid.padded_index(Point::new(rect.x0, y));
        let mut any = 0u64;
        for (c, x) in (rect.x0..rect.x1).step_by(64).enumerate() {
            let n = (rect.x1 - x).min(64);
            let mut bits = grid.padded_bits(base + (x - rect.x0) as usize);
            if n < 64 {
                bits &= (1u64 << n) - 1;
            }
            if narrow {
                if fill + n > 64 {
                    count += u64::from(packed.count_ones());
                    (packed, fill) = (0, 0);
                }
                packed |= bits << fill;
                fill += n;
            } else {
                count += u64::from(bits.count_ones());
            }
            digest = crate::sector::digest_step(digest, bits);
            cols[c] |= bits;
            any |= bits;
        }
        if any != 0 {
            y0 = y0.min(y);
            y1 = y + 1;
        }
    }
    count += u64::from(packed.count_ones());
    if count == 0 {
        return (0, None, digest);
    }
    // Columns with a passable cell: the first and last set bit across the
    // (at most four) 64-column words.
    let (mut x0, mut x1) = (u32::MAX, 0);
    for (c, &w) in cols.iter().enumerate() {
        if w != 0 {
            let at = rect.x0 + 64 * c as u32;
            x0 = x0.min(at + w.trailing_zeros());
            x1 = x1.max(at + 64 - w.leading_zeros());
        }
    }
    (count, Some(Rect { x0, y0, x1, y1 }), digest)
}

/// [`passable_in`] of the four 16-cell-wide sectors `first..first + 4`,
/// side by side in one sector row from column `x0`, rows `y0..y1`: one
/// word read per row for all four (bit `16 k + i` is cell `x0 + 16 k + i`),
/// their counts kept in 16-bit lanes of one word (at most 256 each), four
/// independent digest chains. Why: the load's pass over every sector read
/// a word per sector row and counted each alone; with 16-cell sectors
/// (the default) a map's rows are four sectors to a word.
fn passable_in4(
    grid: &Grid,
    first: u32,
    x0: u32,
    y0: u32,
    y1: u32,
) -> [(u64, Option<Rect>, u64); 4] {
    let mut digest: [u64; 4] =
        std::array::from_fn(|k| crate::sector::digest_seed(first + k as u32));
    let (mut counts, mut cols) = (0u64, 0u64);
    let mut rows = [(u32::MAX, 0u32); 4];
    for y in y0..y1 {
        let w = grid.padded_bits(grid.padded_index(Point::new(x0, y)));
        // Bits set per 16-bit lane (SWAR: pairs, nibbles, bytes, lanes).
        let mut c = w - ((w >> 1) & 0x5555_5555_5555_5555);
        c = (c & 0x3333_3333_3333_3333) + ((c >> 2) & 0x3333_3333_3333_3333);
        c = (c + (c >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        counts += (c + (c >> 8)) & 0x00FF_00FF_00FF_00FF;
        cols |= w;
        for (k, (h, r)) in digest.iter_mut().zip(&mut rows).enumerate() {
            let bits = (w >> (16 * k)) & 0xFFFF;
            *h = crate::sector::digest_step(*h, bits);
            if bits != 0 {
                r.0 = r.0.min(y);
                r.1 = y + 1;
            }
        }
    }
    std::array::from_fn(|k| {
        let count = (counts >> (16 * k)) & 0xFFFF;
        let c = (cols >> (16 * k)) & 0xFFFF;
        let at = x0 + 16 * k as u32;
        let bbox = (count > 0).then(|| Rect {
            x0: at + c.trailing_zeros(),
            y0: rows[k].0,
            x1: at + 64 - c.leading_zeros(),
            y1: rows[k].1,
        });
        (count, bbox, digest[k])
    })
}

/// Checks the region table (see the module comment); `first_region[s]
/// .. first_region[s + 1]` are sector `s`'s regions (already checked to
/// ascend by sector, each representative inside its sector). Returns what
/// the same pass over the sectors' cells gives: the sectors with sealed
/// cells (regions hold fewer cells than are passable) and the sectors'
/// digests, equal to [`SealedSectors::build`] and
/// [`crate::sector::digests`].
///
/// In chunks of sectors, side by side when `parallel`.
pub(super) fn regions(
    grid: &Grid,
    layout: &Layout,
    regions: &[Region],
    first_region: &[u32],
    parallel: bool,
) -> Result<(SealedSectors, Vec<u64>), HierarchyError> {
    const CHUNK: u32 = 256;
    let count = layout.count() as u32;
    let chunks = crate::par::map_range(
        parallel,
        count.div_ceil(CHUNK),
        || (Vec::new(), SectorScratch::default()),
        |(reps, scratch), k| {
            let sectors = k * CHUNK..((k + 1) * CHUNK).min(count);
            sector_range(grid, layout, regions, first_region, sectors, reps, scratch)
        },
    );
    let mut sealed = SealedSectors::none(layout.count());
    let mut digests = Vec::with_capacity(layout.count());
    for chunk in chunks {
        let (bits, d) = chunk?;
        for s in bits {
            sealed.set(s, true);
        }
        digests.extend(d);
    }
    Ok((sealed, digests))
}

/// [`regions`] over `sectors`: the sealed ones among them and their
/// digests, in order.
fn sector_range(
    grid: &Grid,
    layout: &Layout,
    regions: &[Region],
    first_region: &[u32],
    sectors: std::ops::Range<u32>,
    reps: &mut Vec<(u32, u32)>,
    scratch: &mut SectorScratch,
) -> Result<(Vec<u32>, Vec<u64>), HierarchyError> {
    let mut sealed = Vec::new();
    let mut digests = Vec::with_capacity(sectors.len());
    // The last four sectors read together ([`passable_in4`]): their first.
    let mut group = (u32::MAX, [(0, None, 0); 4]);
    for s in sectors {
        let rect = layout.rect(s);
        let (lo, hi) = (first_region[s as usize], first_region[s as usize + 1]);
        let mut cells = 0u64;
        let mut union: Option<Rect> = None;
        reps.clear();
        for i in lo..hi {
            let r = &regions[i as usize];
            let part = FilePart::Region(i);
            let (min, max, rep) = (r.min(), r.max(), r.representative());
            if min.x > max.x || min.y > max.y {
                return Err(bad(part, "bounding box is empty"));
            }
            if !rect.contains(min) || !rect.contains(max) {
                return Err(bad(part, "bounding box leaves the sector"));
            }
            if rep.x < min.x || rep.x > max.x || rep.y < min.y || rep.y > max.y {
                return Err(bad(part, "representative outside the bounding box"));
            }
            if !grid.is_passable(rep) {
                return Err(bad(part, "representative is blocked"));
            }
            let (w, h) = (max.x - min.x + 1, max.y - min.y + 1);
            if r.cells() < w + h - 1 || u64::from(r.cells()) > u64::from(w) * u64::from(h) {
                return Err(bad(part, "cell count does not fit the bounding box"));
            }
            cells += u64::from(r.cells());
            let b = Rect {
                x0: min.x,
                y0: min.y,
                x1: max.x + 1,
                y1: max.y + 1,
            };
            union = Some(union.map_or(b, |u| u.union(&b)));
            reps.push((rep.y, rep.x));
        }
        // The group's first sector column, and its first sector.
        let (sx, _) = layout.coords(s);
        let (gx, first) = (sx - sx % 4, s - sx % 4);
        let four = layout.size == 16 && (gx + 4) * 16 <= layout.width;
        let (open, open_box, digest) = if four {
            if group.0 != first {
                group = (first, passable_in4(grid, first, gx * 16, rect.y0, rect.y1));
            }
            group.1[(s - first) as usize]
        } else {
            passable_in(grid, s, rect)
        };
        digests.push(digest);
        if cells > open {
            return Err(bad(
                FilePart::Sector(s),
                "region cells exceed the sector's passable cells",
            ));
        }
        if cells < open {
            // Cells in no region must be sealed pieces (no move out of the
            // sector): the sector is labelled again and must give exactly
            // these regions. Only sectors with sealed pieces pay for it.
            // A profile whose costs differ moves representatives to their
            // region's cheapest cells: a stored representative need only be
            // in the same piece as the fresh one.
            let fresh = sector_data(grid, layout, s, scratch);
            let stored = &regions[lo as usize..hi as usize];
            let same = |a: &Region, b: &Region| {
                (a.sector(), a.cells(), a.min(), a.max())
                    == (b.sector(), b.cells(), b.min(), b.max())
            };
            let pieces_match = fresh.regions.len() == stored.len()
                && fresh.regions.iter().zip(stored).all(|(a, b)| same(a, b));
            let reps_match = pieces_match && {
                let mut lab = crate::sector::Labeler::default();
                lab.label(grid, rect);
                fresh.regions.iter().zip(stored).all(|(a, b)| {
                    let l = lab.labels[rect.local(a.representative())];
                    l != 0 && lab.labels[rect.local(b.representative())] == l
                })
            };
            if !reps_match {
                return Err(bad(
                    FilePart::Sector(s),
                    "passable cells in no region are not sealed pieces",
                ));
            }
            sealed.push(s);
            continue;
        }
        if union != open_box {
            return Err(bad(
                FilePart::Sector(s),
                "region boxes do not join to the box of the sector's passable cells",
            ));
        }
        reps.sort_unstable();
        if reps.windows(2).any(|w| w[0] == w[1]) {
            return Err(bad(
                FilePart::Sector(s),
                "two regions share a representative",
            ));
        }
    }
    Ok((sealed, digests))
}

/// Whether cell `p` lies in region `r`'s bounding box.
fn in_box(r: &Region, p: Point) -> bool {
    let (a, b) = (r.min(), r.max());
    (a.x..=b.x).contains(&p.x) && (a.y..=b.y).contains(&p.y)
}

/// Whether the two runs of `len` cells that face each other across a
/// sector border, from `from` and from its straight neighbour `to` (both
/// in the grid with their runs), are passable. One read covers a cell of
/// each: a vertical border row by row, one word holding both columns (the
/// edges' sector order walks those rows nearly in sequence; the
/// column-major copy would take a page per border: P74), a horizontal one
/// 64 cells of both rows at a time (P86).
fn facing_runs_open(grid: &Grid, from: Point, to: Point, len: u32) -> bool {
    if from.y == to.y {
        let mut i = grid.padded_index(Point::new(from.x.min(to.x), from.y));
        let mut both = u64::MAX;
        for _ in 0..len {
            both &= grid.padded_bits(i);
            i += grid.stride();
        }
        both & 3 == 3
    } else {
        let (i, j) = (grid.padded_index(from), grid.padded_index(to));
        (0..len as usize).step_by(64).all(|k| {
            let want = u64::MAX >> (64 - (len as usize - k).min(64));
            grid.padded_bits(i + k) & grid.padded_bits(j + k) & want == want
        })
    }
}

/// Checks the records `range` of the edge table `(a, b, link from a)` in
/// file order (see the module comment; the order against the record before
/// `range` too, so two ranges side by side check what one would); indices
/// are already range-checked (`a < b < regions`).
pub(super) fn edges(
    grid: &Grid,
    layout: &Layout,
    regions: &[Region],
    edges: EdgeRecords<'_>,
    range: std::ops::Range<usize>,
    weighted: bool,
) -> Result<(), HierarchyError> {
    let mut last = range.start.checked_sub(1).map(|j| {
        let (a, b, _) = edges.get(j);
        (a, b)
    });
    for i in range {
        let (a, b, link) = edges.get(i);
        let part = FilePart::Edge {
            index: i as u32,
            a,
            b,
        };
        if last.is_some_and(|l| l >= (a, b)) {
            return Err(bad(part, "edges out of order or repeated"));
        }
        last = Some((a, b));
        let (ra, rb) = (&regions[a as usize], &regions[b as usize]);
        let (sa, sb) = (layout.rect(ra.sector()), layout.rect(rb.sector()));
        if ra.sector() == rb.sector() {
            return Err(bad(part, "both regions lie in one sector"));
        }
        let (from, to) = (link.from(), link.to());
        let Some(dir) = Dir::from_delta(to.x as i32 - from.x as i32, to.y as i32 - from.y as i32)
        else {
            return Err(bad(part, "crossing cells are not neighbours"));
        };
        let (cross, along) = link.crossing();
        let diagonal = from.x != to.x && from.y != to.y;
        // A straight line: inside a rectangle when both ends are.
        let end = |run: crate::graph::Run| {
            let k = link.len() - 1;
            if run.vertical {
                Point::new(run.start.x, run.start.y + k)
            } else {
                Point::new(run.start.x + k, run.start.y)
            }
        };
        if !sa.contains(from)
            || !sa.contains(end(cross))
            || !sb.contains(to)
            || !sb.contains(end(along))
        {
            return Err(bad(part, "crossing run leaves the regions' sectors"));
        }
        // Both ends on the map (inside their sectors): the step can be read.
        if diagonal && (link.len() != 1 || !grid.can_step(from, dir)) {
            return Err(bad(
                part,
                "a corner crossing is not one legal diagonal step",
            ));
        }
        // Both ends are in the grid (checked above). A diagonal's `to`
        // was read by `can_step`, which takes `from` as given.
        let open = if diagonal {
            grid.passable_padded(grid.padded_index(from))
        } else {
            facing_runs_open(grid, from, to, link.len())
        };
        if !open {
            return Err(bad(part, "crossing run has a blocked cell"));
        }
        if !in_box(ra, from) || !in_box(rb, to) {
            return Err(bad(part, "crossing cell outside its region's box"));
        }
        // The cost the build gives this crossing (octile legs from each
        // representative to the middle of its side of the run, plus the
        // step), to the stored 1/64 cell: it ties the link to both
        // representatives, so naming another region of the sector, or
        // moving a representative, shows.
        // Under a profile whose costs differ the cost comes from the
        // terrain (a Dijkstra per region): only its range was checked;
        // the landmark check still ties the distances to it.
        let step = if diagonal { SQRT2 } else { 1.0 };
        let w = octile(ra.representative(), cross.mid())
            + step
            + octile(along.mid(), rb.representative());
        if !weighted && Link::cost_units_of(w as f32) != link.cost_units() {
            return Err(bad(
                part,
                "cost differs from its representatives and crossing",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `passable_in4` gives each of its four sectors what `passable_in`
    /// gives it alone (count, box, digest), on random grids of several
    /// densities whose sides are not multiples of 64 or 16 (a shorter last
    /// band), empty sectors included.
    #[test]
    fn four_sectors_read_together_match_one_at_a_time() {
        use regionpath_testkit::{Rng64, SplitMix64};
        let mut rng = SplitMix64(0x2545_F491_4F6C_DD1D);
        let mut next = |n: u32| rng.below(u64::from(n)) as u32;
        let mut checked = 0;
        for (w, h, blocked_per_mille) in
            [(150, 70, 500), (64, 37, 999), (200, 48, 80), (131, 16, 0)]
        {
            let mut g = Grid::new(w, h, true).unwrap();
            for y in 0..h {
                for xx in 0..w {
                    if next(1000) < blocked_per_mille {
                        g.set_passable(Point::new(xx, y), false).unwrap();
                    }
                }
            }
            let layout = Layout::new(w, h, 16);
            for s in 0..layout.count() as u32 {
                let (sx, _) = layout.coords(s);
                if sx % 4 != 0 || (sx + 4) * 16 > w {
                    continue;
                }
                let r = layout.rect(s);
                let four = passable_in4(&g, s, r.x0, r.y0, r.y1);
                for (k, got) in four.iter().enumerate() {
                    let t = s + k as u32;
                    assert_eq!(
                        *got,
                        passable_in(&g, t, layout.rect(t)),
                        "sector {t} of {w}x{h}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked >= 40, "{checked}");
    }

    /// `facing_runs_open` against reading every cell of both runs, on
    /// random grids wide and tall enough for runs over 64 cells, borders in
    /// all four directions.
    #[test]
    fn facing_runs_match_cell_reads() {
        let (w, h) = (150u32, 140u32);
        let mut x = 0x9E37_79B9u64;
        let mut next = |n: u32| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % u64::from(n)) as u32
        };
        let (mut open, mut closed) = (0, 0);
        // A dense grid for short runs, a sparse one so that runs of over
        // 64 cells are open and one blocked cell decides.
        for blocked in [600, 40] {
            let mut g = Grid::new(w, h, true).unwrap();
            for _ in 0..blocked {
                let p = Point::new(next(w), next(h));
                g.set_passable(p, false).unwrap();
            }
            for _ in 0..20_000 {
                let long = next(4) == 0;
                let len = 1 + next(if long { 130 } else { 16 });
                let vertical_border = next(2) == 0;
                // Runs along y (a vertical border) or along x, `to` on either
                // side of `from`.
                let (along_x, along_y) = if vertical_border { (2, len) } else { (len, 2) };
                let (x0, y0) = (next(w - along_x + 1), next(h - along_y + 1));
                let (a, b) = if vertical_border {
                    (Point::new(x0, y0), Point::new(x0 + 1, y0))
                } else {
                    (Point::new(x0, y0), Point::new(x0, y0 + 1))
                };
                let (from, to) = if next(2) == 0 { (a, b) } else { (b, a) };
                let cell = |p: Point, k: u32| {
                    if vertical_border {
                        Point::new(p.x, p.y + k)
                    } else {
                        Point::new(p.x + k, p.y)
                    }
                };
                let want =
                    (0..len).all(|k| g.is_passable(cell(from, k)) && g.is_passable(cell(to, k)));
                assert_eq!(
                    facing_runs_open(&g, from, to, len),
                    want,
                    "{from:?} {to:?} {len}"
                );
                if want {
                    open += 1;
                } else {
                    closed += 1;
                }
            }
        }
        assert!(
            open > 1_000 && closed > 1_000,
            "{open} open, {closed} closed"
        );
    }
}
