//! Offline build: sectors → regions → region graph → connectivity,
//! landmarks, block-cut tree and portal layer, within the memory budget.

pub(crate) mod profiled;
pub(crate) mod sectors;

use crate::config::{memory_budget, HierarchyConfig, PortalMode};
use crate::derived::{Blocks, Connectivity, Landmarks, SealedSectors, LANDMARKS};
use crate::graph::{region_graph, Link, Region};
use crate::model::Hierarchy;
use crate::portal::Portals;
use crate::sector::{count_runs, Layout};
use crate::HierarchyError;
use regionpath_grid::Grid;
use sectors::{sector_data, sector_edges, EdgeList, SectorData, SectorScratch};
use std::time::Instant;

/// Maps with fewer cells than this build serially even when
/// [`HierarchyConfig::get_parallel`] is set (portal layer included; sectors
/// need [`PARALLEL_MIN_RUNS`] as well). Measured on crops of three Moving AI
/// maps (2 cores): at 48×48 a parallel build took 3–10× as long as a serial
/// one (about 0.06 ms of it waking the pool), at 128×128 about 2×, and
/// parallel first won clearly at 192×192 (1.1–1.3×).
const PARALLEL_MIN_CELLS: u64 = 1 << 15;

/// Sectors are labelled in parallel only on maps with at least this many
/// horizontal runs of passable cells ([`count_runs`]; labelling costs per
/// run). Measured on all 26 Moving AI maps (2 cores, median of up to 21
/// in-process builds): parallel was 6–35 % slower on every map up to
/// 24,000 runs (Berlin_0_1024: 6,797 runs, 3.70 ms serial, 4.26 parallel;
/// TheFrozenSea: 17,390 runs, 5.74 / 6.31), and 1.34–1.45× faster from
/// 38,423 runs up (random512-40, random512-25, maze512-1).
const PARALLEL_MIN_RUNS: u64 = 32_768;

/// The first candidate of [`Hierarchy::build`]: finished, or left as
/// regions and edges when those alone exceed the memory budget.
enum First {
    Built(Box<Hierarchy>),
    Unfinished(Partial),
    /// Not labelled beyond the sample: estimated far over the budget.
    Skipped,
}

/// A first candidate whose bytes a sample of its sectors ([`sample`])
/// estimates at more than this many times the budget is skipped: the
/// ladder of larger sizes starts at once, from the estimate. On the 25
/// Moving AI maps not skipped (sector size 16) the estimate was 0.49–1.43
/// times the exact lower bound (0.85–1.07 on most; 1.43 on the 49 × 49
/// arena, whose fixed part dominates; under-estimates only skip less), so
/// a candidate estimated at 1.75 times the budget is over it. maze512-1 is
/// estimated at 2.17 times and skipped, which saves labelling its 262,144
/// cells at a size it cannot use (a third of its build's instructions).
const SKIP_OVER_BUDGET: f64 = 1.75;

/// The larger sector sizes [`Hierarchy::build`] tries when the configured
/// size `base` is over the byte budget, in order: 1.5×, 2×, 3×, 4×, 8×,
/// 16× and 256 (the largest), each at most 256 and each larger than the
/// one before. Sealed pieces of sectors hold no region, so what remains
/// costs at most a few regions per cell of sector border: on any map the
/// bytes per cell fall about as 1 / side (stripes one cell wide, 2000²,
/// 8 landmarks: 3.02 bytes per cell at 16, 1.58 at 32, 0.86 at 64, 0.49
/// at 128).
fn ladder(base: u32) -> Vec<u32> {
    let mut sizes: Vec<u32> = Vec::new();
    for size in [
        base + base / 2,
        base * 2,
        base * 3,
        base * 4,
        base * 8,
        base * 16,
        256,
    ] {
        let size = size.min(256);
        if size > *sizes.last().unwrap_or(&base) {
            sizes.push(size);
        }
    }
    sizes
}

/// With [`HierarchyConfig::fit_memory`], [`HierarchyError::OverBudget`]
/// when `h` with `landmarks` landmarks (the fewest the build would give it)
/// holds more than [`memory_budget`] (one byte per cell, at least
/// [`crate::MIN_BUDGET_BYTES`]; portal layer excluded).
fn over_budget(
    config: &HierarchyConfig,
    h: &Hierarchy,
    landmarks: usize,
    cells: u64,
) -> Result<(), HierarchyError> {
    let bytes = h.bytes_with_landmarks(landmarks);
    let budget = memory_budget(cells);
    if config.fit_memory && bytes > budget {
        return Err(HierarchyError::OverBudget {
            bytes,
            budget,
            sector_size: h.layout.size,
        });
    }
    Ok(())
}

/// The first half of a build at one sector size: the regions and the
/// edges between them, before the graph, connectivity and block-cut tree.
struct Partial {
    /// Whether the sectors were labelled in parallel: [`Partial::finish`]
    /// then is too.
    parallel: bool,
    layout: Layout,
    first_region: Vec<u32>,
    regions: Vec<Region>,
    edges: EdgeList,
}

/// [`sector_data`] of the listed sectors, in their order.
fn sector_pass(grid: &Grid, layout: &Layout, sectors: &[u32], parallel: bool) -> Vec<SectorData> {
    crate::par::map_init(parallel, sectors, SectorScratch::default, |scratch, &s| {
        sector_data(grid, layout, s, scratch)
    })
}

/// Sectors in the sample [`Hierarchy::build`] estimates a first
/// candidate's bytes from: 2 × 2 blocks of sectors at every `stride`-th
/// sector across and down, spread evenly over the map, with borders inside
/// each block to count edges on. The stride (4, 8, 16, …) is the largest
/// that keeps at least [`SAMPLE_MIN`] sectors (a quarter of them on small
/// maps; a 512 × 512 map at 16 samples 64 of 1,024): the sample is all
/// that is labelled of a skipped candidate.
fn sample(layout: &Layout) -> (Vec<u32>, Vec<u32>) {
    let n = layout.count();
    let mut stride = 4u32;
    while n / (stride * stride) as usize >= SAMPLE_MIN {
        stride *= 2;
    }
    (0..n as u32).partition(|&s| {
        let (x, y) = layout.coords(s);
        x % stride < 2 && y % stride < 2
    })
}

/// See [`sample`].
const SAMPLE_MIN: usize = 64;

/// [`Hierarchy::bytes_with_landmarks`] as far as `regions` regions and
/// `edges` edges over `sectors` sectors fix it (see
/// [`Partial::bytes_lower_bound`]).
fn bytes_for(regions: f64, edges: f64, sectors: usize, landmarks: usize) -> f64 {
    let per_region = (std::mem::size_of::<Region>() + std::mem::size_of::<usize>() + 4 + 4) as f64;
    let per_edge = (2 * (std::mem::size_of::<u32>() + std::mem::size_of::<Link>())) as f64;
    (std::mem::size_of::<Hierarchy>() + (sectors + 1) * 4 + std::mem::size_of::<usize>()) as f64
        + regions * (per_region + 2.0 * (landmarks as f64).min(regions))
        + edges * per_edge
}

/// An estimate of a build's [`Partial::bytes_lower_bound`] from the
/// sampled sectors' data alone (`sample[k]` is sector `ids[k]`): their
/// regions scaled by sectors, and the edges across the borders between
/// two sampled sectors scaled by borders, to the whole map.
fn estimate_bytes(
    grid: &Grid,
    layout: &Layout,
    ids: &[u32],
    sample: &[SectorData],
    landmarks: usize,
) -> f64 {
    let n = layout.count();
    if ids.is_empty() {
        return 0.0;
    }
    let mut slot = vec![u32::MAX; n];
    let mut first = vec![0u32; n + 1];
    let mut regions = Vec::new();
    for (k, (&s, d)) in ids.iter().zip(sample).enumerate() {
        slot[s as usize] = k as u32;
        first[s as usize] = regions.len() as u32;
        regions.extend_from_slice(&d.regions);
    }
    // Sectors outside the sample: no labels, so no edges to them.
    let side = layout.size as usize;
    let empty = SectorData {
        regions: Vec::new(),
        border: vec![0; 4 * side],
        width: side,
    };
    let data = |t: u32| match slot[t as usize] {
        u32::MAX => &empty,
        k => &sample[k as usize],
    };
    let mut edges = EdgeList::new();
    for &s in ids {
        sector_edges(grid, layout, s, &data, &first, &regions, &mut edges);
    }
    // Edges scale with sector borders: the map's against the sample's
    // (those between two sampled sectors).
    let (sx, sy) = (layout.sectors_x as usize, layout.sectors_y as usize);
    let borders = (sx - 1) * sy + sx * (sy - 1);
    let inside = ids
        .iter()
        .map(|&s| {
            let (x, y) = layout.coords(s);
            let east = x + 1 < layout.sectors_x && slot[s as usize + 1] != u32::MAX;
            let south =
                y + 1 < layout.sectors_y && slot[(s + layout.sectors_x) as usize] != u32::MAX;
            east as usize + south as usize
        })
        .sum::<usize>();
    let edges = if inside == 0 {
        0.0
    } else {
        edges.len() as f64 * borders as f64 / inside as f64
    };
    bytes_for(
        regions.len() as f64 * n as f64 / ids.len() as f64,
        edges,
        n,
        landmarks,
    )
}

impl Partial {
    /// Labels every sector and finds the edges across sector borders.
    fn new(grid: &Grid, sector_size: u32, parallel: bool) -> Partial {
        let layout = Layout::new(grid.width(), grid.height(), sector_size);
        let all: Vec<u32> = (0..layout.count() as u32).collect();
        let data = sector_pass(grid, &layout, &all, parallel);
        Partial::from_data(grid, layout, data, parallel)
    }

    /// Joins the sectors' data (`data[s]` for sector `s`) into regions and
    /// finds the edges across sector borders.
    fn from_data(grid: &Grid, layout: Layout, data: Vec<SectorData>, parallel: bool) -> Partial {
        let n = layout.count() as u32;
        let mut first_region = Vec::with_capacity(data.len() + 1);
        let mut total = 0u32;
        for d in &data {
            first_region.push(total);
            total += d.regions.len() as u32;
        }
        first_region.push(total);
        let mut regions: Vec<Region> = Vec::with_capacity(total as usize);
        regions.extend(data.iter().flat_map(|d| d.regions.iter().copied()));
        // Edges in any order (`region_graph` orders them): one list per
        // worker, appended to.
        let edges_of = |mut e: EdgeList, s: u32| {
            sector_edges(
                grid,
                &layout,
                s,
                &|t| &data[t as usize],
                &first_region,
                &regions,
                &mut e,
            );
            e
        };
        let edges: EdgeList = crate::par::fold_concat(parallel, n, edges_of);
        Partial {
            parallel,
            layout,
            first_region,
            regions,
            edges,
        }
    }

    /// A lower bound on [`Hierarchy::bytes_with_landmarks`] of the finished
    /// hierarchy: everything whose size the regions and edges fix (region
    /// array, graph rows and edges, one cluster and one block id per
    /// region, landmark distances), nothing of the connectivity matrix or
    /// the block-cut tree's own nodes. Edges are unique already: each pair
    /// of regions lies in one pair of sectors, whose edges `sector_edges`
    /// merges.
    fn bytes_lower_bound(&self, landmarks: usize) -> u64 {
        bytes_for(
            self.regions.len() as f64,
            self.edges.len() as f64,
            self.first_region.len() - 1,
            landmarks,
        ) as u64
    }

    /// Builds the graph, connectivity and block-cut tree (no landmarks).
    fn finish(self, grid: &Grid) -> Hierarchy {
        let graph = region_graph(self.regions.len(), &self.edges);
        let connectivity =
            || Connectivity::build(&self.layout, &self.regions, &graph, grid.cell_count());
        let blocks = || Blocks::build(&graph);
        // Side by side where the sectors were labelled in parallel (the
        // pool is awake and the graph large).
        let (connectivity, blocks) = crate::par::join(self.parallel, connectivity, blocks);
        let sealed = SealedSectors::build(grid, &self.layout, &self.first_region, &self.regions);
        Hierarchy {
            stamp: crate::model::next_stamp(),
            lineage: crate::model::next_stamp(),
            grid_revision: grid.revision(),
            changes: Default::default(),
            profile: None,
            layout: self.layout,
            grid_checksum: grid.checksum(),
            first_region: self.first_region,
            region_end: Vec::new(),
            loose: false,
            regions: self.regions,
            graph,
            connectivity,
            landmarks: Landmarks::default(),
            blocks,
            sealed,
            portals: None,
            build_ms: 0.0,
            // Set by `Hierarchy::complete`.
            config: HierarchyConfig::default(),
            digests: crate::sector::digests(grid, &self.layout),
        }
    }
}

impl Hierarchy {
    /// The first candidate's regions and edges, at the configured sector
    /// size; with [`HierarchyConfig::get_fit_memory`], the sampled sectors
    /// first, and `Err(estimate)` instead when their estimate of the
    /// candidate's bytes is over [`SKIP_OVER_BUDGET`] times the budget (the
    /// rest is never labelled). The sample's data is kept otherwise, so
    /// each sector is labelled once either way.
    fn first_pass(grid: &Grid, config: &HierarchyConfig, parallel: bool) -> Result<Partial, u64> {
        if !config.fit_memory {
            return Ok(Partial::new(grid, config.sector_size, parallel));
        }
        let layout = Layout::new(grid.width(), grid.height(), config.sector_size);
        let (ids, rest) = sample(&layout);
        let sample = sector_pass(grid, &layout, &ids, parallel);
        let estimate = estimate_bytes(grid, &layout, &ids, &sample, LANDMARKS);
        if estimate > SKIP_OVER_BUDGET * memory_budget(grid.cell_count()) as f64 {
            return Err(estimate as u64);
        }
        let others = sector_pass(grid, &layout, &rest, parallel);
        // Both lists ascend: merge them back into sector order.
        let mut data = Vec::with_capacity(layout.count());
        let (mut a, mut b) = (ids.iter().zip(sample).peekable(), others.into_iter());
        for s in 0..layout.count() as u32 {
            match a.peek() {
                Some((&t, _)) if t == s => data.extend(a.next().map(|(_, d)| d)),
                _ => data.extend(b.next()),
            }
        }
        Ok(Partial::from_data(grid, layout, data, parallel))
    }

    /// Preprocesses `grid`.
    pub fn build(grid: &Grid, config: &HierarchyConfig) -> Result<Hierarchy, HierarchyError> {
        Self::build_landmarks(grid, config, true)
    }

    /// [`Hierarchy::build`], with no landmarks unless `landmarks` (a
    /// caller that prices the links again computes them after).
    pub(crate) fn build_landmarks(
        grid: &Grid,
        config: &HierarchyConfig,
        landmarks: bool,
    ) -> Result<Hierarchy, HierarchyError> {
        let t0 = Instant::now();
        config.validate()?;
        let parallel_portals = config.parallel && grid.cell_count() >= PARALLEL_MIN_CELLS;
        let parallel = parallel_portals && count_runs(grid) >= PARALLEL_MIN_RUNS;
        let budget = memory_budget(grid.cell_count());
        // Candidates are built without landmarks (a set of Dijkstras over
        // the region graph); the kept one gets them once, at the end. A
        // first candidate whose regions and edges alone exceed the budget
        // is not finished (graph, connectivity, block-cut tree) unless no
        // larger sector size does better, and one whose sample estimates
        // it far over the budget is not even labelled (`first_pass`).
        let (first, first_bytes) = match Self::first_pass(grid, config, parallel) {
            Err(estimate) => (First::Skipped, estimate),
            Ok(first) => {
                let bound = first.bytes_lower_bound(LANDMARKS);
                if config.fit_memory && bound > budget {
                    (First::Unfinished(first), bound)
                } else {
                    let h = first.finish(grid);
                    let bytes = h.bytes_with_landmarks(LANDMARKS);
                    (First::Built(Box::new(h)), bytes)
                }
            }
        };
        // The smallest larger candidate, and its bytes.
        let mut larger: Option<(Hierarchy, u64)> = None;
        if config.fit_memory && first_bytes > budget {
            // Bytes fall at least as 1 / sector side as sectors grow (as
            // 1 / side on one-cell mazes, faster on open ground), so start
            // at the first larger size that this predicts to fit instead of
            // building every size in between.
            let base = config.sector_size;
            let needed = base as f64 * first_bytes as f64 / budget as f64;
            let ladder = ladder(base);
            let start = ladder
                .iter()
                .position(|&s| s as f64 >= needed)
                .unwrap_or(ladder.len().saturating_sub(1));
            for &size in ladder.iter().skip(start) {
                let h = Partial::new(grid, size, parallel).finish(grid);
                let bytes = h.bytes_with_landmarks(LANDMARKS);
                let fits = bytes <= budget;
                if larger.as_ref().is_none_or(|l| bytes < l.1) {
                    larger = Some((h, bytes));
                }
                if fits {
                    break;
                }
            }
        }
        let best = match (first, larger) {
            (First::Built(h), None) => *h,
            (First::Built(h), Some((l, bytes))) => {
                if bytes < first_bytes {
                    l
                } else {
                    *h
                }
            }
            (First::Unfinished(p), None) => p.finish(grid),
            (First::Skipped, None) => Partial::new(grid, config.sector_size, parallel).finish(grid),
            (First::Skipped, Some((l, bytes))) => {
                // Nothing fitted and the first candidate may be smaller
                // (its bytes were only estimated): build it after all.
                if bytes <= budget {
                    l
                } else {
                    let h = Partial::new(grid, config.sector_size, parallel).finish(grid);
                    if h.bytes_with_landmarks(LANDMARKS) < bytes {
                        h
                    } else {
                        l
                    }
                }
            }
            (First::Unfinished(p), Some((l, bytes))) => {
                // Nothing fitted and the first candidate may be smaller.
                if bytes <= budget || bytes <= first_bytes {
                    l
                } else {
                    let h = p.finish(grid);
                    if h.bytes_with_landmarks(LANDMARKS) < bytes {
                        h
                    } else {
                        l
                    }
                }
            }
        };
        let cells = grid.cell_count();
        over_budget(config, &best, best.fitted_landmarks(config, cells), cells)?;
        Ok(Self::complete(
            best, grid, config, None, parallel, landmarks, t0,
        ))
    }

    /// The landmark count of the memory rule for this hierarchy on a map of
    /// `cells` cells: [`LANDMARKS`], halved while the hierarchy with them
    /// would exceed [`memory_budget`] (only with
    /// [`HierarchyConfig::fit_memory`]). The build and
    /// [`Hierarchy::update`] both choose by it.
    pub(crate) fn fitted_landmarks(&self, config: &HierarchyConfig, cells: u64) -> usize {
        let budget = memory_budget(cells);
        let mut count = LANDMARKS;
        while config.fit_memory && count > 0 && self.bytes_with_landmarks(count) > budget {
            count /= 2;
        }
        count
    }

    /// The end of a build, given the kept candidate: landmarks by
    /// [`Hierarchy::fitted_landmarks`], the portal layer (by
    /// `config.portals`, or built exactly when `portals` says), the
    /// settings and the build time since `t0`.
    fn complete(
        mut best: Hierarchy,
        grid: &Grid,
        config: &HierarchyConfig,
        portals: Option<bool>,
        parallel: bool,
        landmarks: bool,
        t0: Instant,
    ) -> Hierarchy {
        let parallel_portals = config.parallel && grid.cell_count() >= PARALLEL_MIN_CELLS;
        let count = if landmarks {
            best.fitted_landmarks(config, grid.cell_count())
        } else {
            0
        };
        let (graph, regions) = (&best.graph, &best.regions);
        let landmarks = || {
            Landmarks::build(
                graph,
                count,
                |r| regions[r as usize].representative(),
                parallel,
            )
        };
        let portals = || {
            let wanted = portals.unwrap_or_else(|| match config.portals {
                PortalMode::Auto => Portals::worth_building(grid),
                PortalMode::Always => true,
                PortalMode::Never => false,
            });
            wanted.then(|| Portals::build(grid, parallel_portals))
        };
        // Side by side where the sectors were labelled in parallel (the
        // pool is awake): the landmarks' Dijkstras and the portal layer (or
        // the test of whether it pays) need only the graph and the grid.
        let (landmarks, portals) = crate::par::join(parallel, landmarks, portals);
        best.landmarks = landmarks;
        best.portals = portals;
        best.config = *config;
        best.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        best
    }

    /// A fresh build with the sector size pinned to `size` (no memory
    /// ladder; landmarks still by the memory rule) and the portal layer
    /// built exactly when `portals`: what [`Hierarchy::update`] is
    /// promised to equal.
    #[cfg(test)]
    pub(crate) fn build_pinned(
        grid: &Grid,
        config: &HierarchyConfig,
        size: u32,
        portals: bool,
    ) -> Hierarchy {
        let best = Partial::new(grid, size, false).finish(grid);
        Self::complete(
            best,
            grid,
            config,
            Some(portals),
            false,
            true,
            Instant::now(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sector::Labeler;
    use crate::testing::{maze, random_grid, xorshift};
    use regionpath_grid::Point;

    /// `sector_data` (a pass over runs) against a scan of every cell of the
    /// cell labelling (itself checked against a flood fill in `sector.rs`):
    /// which regions are kept (those with a cell next to a passable cell
    /// outside the sector), region sizes, bounding boxes, representatives
    /// (the cell nearest the centroid, first in row-major order among
    /// equals) and border labels, on random maps of several densities and
    /// sector sizes; and the sectors `SealedSectors` flags.
    #[test]
    fn sector_data_matches_a_cell_scan() {
        let mut below = xorshift(0x2545_f491_4f6c_dd1du64);
        let (mut lab, mut cells) = (SectorScratch::default(), Labeler::default());
        let (mut checked, mut dropped) = (0, 0);
        for density in [0, 15, 40, 60, 75] {
            let (gw, gh) = (157, 131);
            let g = random_grid(gw, gh, density, &mut below);
            for size in [4, 7, 16, 70, 157] {
                let layout = Layout::new(gw, gh, size);
                let mut first = vec![0u32];
                let mut all = Vec::new();
                let mut sealed_sectors = Vec::new();
                for s in 0..layout.count() as u32 {
                    let got = sector_data(&g, &layout, s, &mut lab);
                    let rect = layout.rect(s);
                    let n = cells.label(&g, rect) as usize;
                    let (w, h) = (rect.width(), rect.height());
                    let label = |x: u32, y: u32| cells.labels[(y * w + x) as usize];
                    // Kept: a cell with a passable orthogonal neighbour
                    // outside the sector. `renum[l]`: the kept label.
                    let mut renum = vec![0u16; n + 1];
                    for y in 0..h {
                        for x in 0..w {
                            let (px, py) = ((rect.x0 + x) as i64, (rect.y0 + y) as i64);
                            let out = [(-1, 0), (1, 0), (0, -1), (0, 1)].iter().any(|(dx, dy)| {
                                let q = Point::new((px + dx) as u32, (py + dy) as u32);
                                px + dx >= 0
                                    && py + dy >= 0
                                    && !rect.contains(q)
                                    && g.is_passable_i(px + dx, py + dy)
                            });
                            if label(x, y) != 0 && out {
                                renum[label(x, y) as usize] = 1;
                            }
                        }
                    }
                    let mut next = 0;
                    for k in renum.iter_mut().skip(1) {
                        if *k != 0 {
                            next += 1;
                            *k = next;
                        }
                    }
                    assert_eq!(got.regions.len(), next as usize);
                    dropped += n - next as usize;
                    sealed_sectors.push(n != next as usize);
                    for (i, r) in got.regions.iter().enumerate() {
                        let l = renum.iter().position(|&k| k == i as u16 + 1).unwrap() as u16;
                        let mine: Vec<(u32, u32)> = (0..h)
                            .flat_map(|y| (0..w).map(move |x| (x, y)))
                            .filter(|&(x, y)| label(x, y) == l)
                            .collect();
                        let c = mine.len() as i64;
                        let (sx, sy) = mine
                            .iter()
                            .fold((0i64, 0i64), |(a, b), &(x, y)| (a + x as i64, b + y as i64));
                        let d = |&(x, y): &(u32, u32)| {
                            let (dx, dy) = (x as i64 * c - sx, y as i64 * c - sy);
                            dx * dx + dy * dy
                        };
                        let least = mine.iter().map(d).min().unwrap();
                        let rep = mine.iter().find(|p| d(p) == least).unwrap();
                        let at = |x: u32, y: u32| Point::new(rect.x0 + x, rect.y0 + y);
                        assert_eq!(r.cells(), c as u32);
                        assert_eq!(r.representative(), at(rep.0, rep.1), "sector {s}");
                        let xs = mine.iter().map(|p| p.0);
                        let ys = mine.iter().map(|p| p.1);
                        assert_eq!(
                            r.min(),
                            at(xs.clone().min().unwrap(), ys.clone().min().unwrap())
                        );
                        assert_eq!(r.max(), at(xs.max().unwrap(), ys.max().unwrap()));
                        checked += 1;
                    }
                    let kept = |l: u16| renum[l as usize];
                    let row = |y: u32| (0..w).map(|x| kept(label(x, y))).collect::<Vec<_>>();
                    let col = |x: u32| (0..h).map(|y| kept(label(x, y))).collect::<Vec<_>>();
                    assert_eq!(got.top(), row(0));
                    assert_eq!(got.bottom(), row(h - 1));
                    assert_eq!(got.left(), col(0));
                    assert_eq!(got.right(), col(w - 1));
                    all.extend_from_slice(&got.regions);
                    first.push(all.len() as u32);
                }
                // The sectors flagged as holding sealed cells are those
                // where regions were dropped.
                let sealed = SealedSectors::build(&g, &layout, &first, &all);
                for (s, &want) in sealed_sectors.iter().enumerate() {
                    assert_eq!(sealed.contains(s as u32), want, "sector {s}");
                }
            }
        }
        assert!(checked > 5000, "{checked}");
        assert!(dropped > 1000, "{dropped}");
    }

    /// The bound that lets `build` skip finishing a candidate never
    /// exceeds the finished candidate's bytes (random maps from open to
    /// dense, every sector size from 4 to 64, 0 to 8 landmarks), and is
    /// within a small factor of them.
    #[test]
    fn bytes_lower_bound_is_a_lower_bound() {
        let mut below = xorshift(0x0123_4567_89ab_cdefu64);
        let mut closest = f64::MAX;
        for density in [0, 20, 40, 55] {
            let (gw, gh) = (150, 97);
            let g = random_grid(gw, gh, density, &mut below);
            for size in [4, 5, 8, 12, 16, 24, 33, 64] {
                for k in [0, 1, 8] {
                    let p = Partial::new(&g, size, false);
                    let bound = p.bytes_lower_bound(k);
                    let exact = p.finish(&g).bytes_with_landmarks(k);
                    assert!(
                        bound <= exact,
                        "{bound} > {exact} at {density}%, {size}, {k}"
                    );
                    closest = closest.min(exact as f64 / bound as f64);
                }
            }
        }
        assert!(closest < 1.5, "{closest}");
    }

    /// Small maps (the budget floor, [`crate::MIN_BUDGET_BYTES`]): the
    /// configured sector size and landmarks, within the floor, where one
    /// byte per cell took 3× or 4× sectors and no landmarks.
    #[test]
    fn small_maps_keep_their_sectors_and_landmarks() {
        let mut below = xorshift(0x5a11_3a95);
        let mut u = Grid::new(10, 68, true).unwrap();
        for y in 1..=65 {
            u.set_passable(Point::new(5, y), false).unwrap();
        }
        let grids = [
            u,
            Grid::new(20, 20, true).unwrap(),
            maze(61, 45, &mut below),
            random_grid(90, 90, 25, &mut below),
        ];
        for g in &grids {
            let h = Hierarchy::build(g, &HierarchyConfig::default()).unwrap();
            let st = h.stats();
            let what = format!("{}x{}: {st:?}", g.width(), g.height());
            assert!(g.cell_count() < crate::MIN_BUDGET_BYTES, "{what}");
            assert_eq!(st.sector_size, 16, "{what}");
            assert_eq!(st.landmarks, LANDMARKS.min(st.regions), "{what}");
            assert!(
                h.bytes_with_landmarks(LANDMARKS) <= crate::MIN_BUDGET_BYTES,
                "{what}"
            );
        }
    }

    /// The sample's estimate against the exact lower bound of the full
    /// candidate, on random obstacles and one-cell mazes.
    #[test]
    fn sampled_estimates_are_within_a_factor_of_the_bound() {
        let mut below = xorshift(0x005e_ed0f_e571_3a7e);
        let mut grids: Vec<Grid> = [0, 20, 40, 55]
            .iter()
            .map(|&d| random_grid(301, 207, d, &mut below))
            .collect();
        grids.push(maze(301, 207, &mut below));
        for g in &grids {
            for size in [8, 16, 24] {
                let layout = Layout::new(g.width(), g.height(), size);
                let (ids, _) = sample(&layout);
                let sample = sector_pass(g, &layout, &ids, false);
                let estimate = estimate_bytes(g, &layout, &ids, &sample, LANDMARKS);
                let bound = Partial::new(g, size, false).bytes_lower_bound(LANDMARKS) as f64;
                let ratio = estimate / bound;
                assert!(
                    (0.75..=1.33).contains(&ratio),
                    "{ratio} at {size}: {estimate} vs {bound}"
                );
            }
        }
    }

    /// For a build kept at `size` on the default ladder from 16 (24, 32,
    /// 48, 64): the rung below it, if any, is over the byte budget, so no
    /// smaller larger size was passed over.
    fn assert_rung_below_is_over_budget(g: &Grid, size: u32) {
        let ladder = ladder(16);
        let at = ladder.iter().position(|&s| s == size).unwrap();
        if at > 0 {
            let h = Partial::new(g, ladder[at - 1], false).finish(g);
            let below = h.bytes_with_landmarks(LANDMARKS);
            assert!(below > g.cell_count(), "{} fits: {below}", ladder[at - 1]);
        }
    }

    /// A one-cell maze far over the budget at 16: the first candidate is
    /// skipped on its estimate, and nothing is lost by it: that candidate
    /// and the ladder size below the kept one are over the budget, the kept
    /// one fits and is the plain build at its size.
    #[test]
    fn skipped_first_candidates_lose_nothing() {
        let mut below = xorshift(0x0000_ddba_11c0_ffee);
        let g = maze(255, 255, &mut below);
        let cells = g.cell_count();
        let config = HierarchyConfig::new().portals(PortalMode::Never);
        assert!(Hierarchy::first_pass(&g, &config, false).is_err());
        let exact = |size| Partial::new(&g, size, false).finish(&g);
        assert!(exact(16).bytes_with_landmarks(LANDMARKS) > cells);
        let h = Hierarchy::build(&g, &config).unwrap();
        let size = h.stats().sector_size;
        assert!(h.bytes_with_landmarks(LANDMARKS) <= cells);
        assert_rung_below_is_over_budget(&g, size);
        assert_eq!(h.edge_list(), exact(size).edge_list());
        assert_eq!(h.stats().regions, exact(size).stats().regions);
    }

    /// Random obstacles a little over the budget at 16: estimated under
    /// the skip threshold, so labelled in full and left unfinished by its
    /// lower bound; the kept candidate is the first larger size that fits
    /// (the size below it does not).
    #[test]
    fn first_candidates_over_budget_by_a_little_are_labelled_in_full() {
        let mut below = xorshift(0x0042_4242_4242_4242);
        // 28 %: estimated at 1.29 times the budget, bound 1.34 times.
        let g = random_grid(256, 256, 28, &mut below);
        let cells = g.cell_count();
        let config = HierarchyConfig::new().portals(PortalMode::Never);
        let first = Hierarchy::first_pass(&g, &config, false).expect("not skipped");
        assert_eq!(
            first.regions.len(),
            Partial::new(&g, 16, false).regions.len()
        );
        assert!(first.bytes_lower_bound(LANDMARKS) > cells);
        let h = Hierarchy::build(&g, &config).unwrap();
        assert!(h.bytes_with_landmarks(LANDMARKS) <= cells);
        let exact = |size| Partial::new(&g, size, false).finish(&g);
        let size = h.stats().sector_size;
        assert_rung_below_is_over_budget(&g, size);
        assert_eq!(h.edge_list(), exact(size).edge_list());
    }

    /// Isolated cells (a checkerboard of single cells, and of 2 × 2
    /// blocks, which touch only at corners: no corner cutting) are sealed:
    /// no region, no edge, nothing but the fixed part, at the configured
    /// sector size.
    #[test]
    fn isolated_cells_hold_no_regions() {
        for block in [1, 2] {
            let (gw, gh) = (260, 90);
            let mut g = Grid::new(gw, gh, true).unwrap();
            for y in 0..gh {
                for x in 0..gw {
                    if (x / block + y / block) % 2 == 1 {
                        g.set_passable(Point::new(x, y), false).unwrap();
                    }
                }
            }
            let h = Hierarchy::build(&g, &HierarchyConfig::default()).unwrap();
            let st = h.stats();
            assert_eq!((st.regions, st.edges, st.sector_size), (0, 0, 16));
            assert!(st.bytes < 2304, "{st:?}");
        }
    }

    /// Stripes one cell wide: every column piece is a region linked to the
    /// sectors above and below, far over the budget at small sizes. From
    /// 4 the build climbs the ladder to the first size that fits, which is
    /// the plain build at that size; the rung below it does not fit.
    #[test]
    fn stripes_climb_the_ladder_until_they_fit() {
        let (gw, gh) = (260, 190);
        let mut g = Grid::new(gw, gh, true).unwrap();
        for y in 0..gh {
            for x in (1..gw).step_by(2) {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
        }
        let config = HierarchyConfig::new()
            .sector_size(4)
            .portals(PortalMode::Never);
        let cells = g.cell_count();
        let exact = |size| Partial::new(&g, size, false).finish(&g);
        assert!(exact(4).bytes_with_landmarks(0) > cells);
        let h = Hierarchy::build(&g, &config).unwrap();
        let size = h.stats().sector_size;
        assert!(h.bytes_with_landmarks(h.stats().landmarks) <= cells);
        let rungs = ladder(4);
        let at = rungs.iter().position(|&s| s == size).unwrap();
        assert!(at > 0);
        let below = exact(rungs[at - 1]).bytes_with_landmarks(LANDMARKS);
        assert!(below > cells, "{} fits: {below}", rungs[at - 1]);
        assert_eq!(h.edge_list(), exact(size).edge_list());
        assert_eq!(h.regions(), exact(size).regions());
    }

    /// The ladder reaches 256 from every configured size, each rung larger
    /// than the last.
    #[test]
    fn the_ladder_ends_at_256() {
        for base in 4..=256 {
            let l = ladder(base);
            assert!(l.windows(2).all(|w| w[0] < w[1]), "{base}: {l:?}");
            assert!(l.first().is_none_or(|&s| s > base));
            assert_eq!(l.last().copied().unwrap_or(base), 256, "{base}");
        }
    }

    /// A hierarchy over its budget (one byte per cell here) is refused with
    /// the typed error naming the budget when `fit_memory` is on, kept
    /// when it is off.
    #[test]
    fn over_budget_is_a_typed_error_naming_the_budget() {
        let mut g = Grid::new(64, 64, true).unwrap();
        for y in 0..64 {
            for x in (1..64).step_by(2) {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
        }
        let h = Partial::new(&g, 4, false).finish(&g);
        let bytes = h.bytes_with_landmarks(0);
        let on = HierarchyConfig::default();
        let off = HierarchyConfig::default().fit_memory(false);
        // Checked against a budget of fewer cells than the hierarchy holds
        // bytes: refused when fitting, kept when not.
        assert!(bytes > crate::MIN_BUDGET_BYTES + 1, "{bytes}");
        let cells = bytes - 1;
        let e = over_budget(&on, &h, 0, cells).unwrap_err();
        assert!(e.to_string().contains("budget of"), "{e}");
        assert!(
            matches!(e, HierarchyError::OverBudget { bytes: b, budget, sector_size: 4 }
                if b == bytes && budget == bytes - 1),
            "{e:?}"
        );
        assert!(over_budget(&off, &h, 0, cells).is_ok());
        assert!(over_budget(&on, &h, 0, bytes).is_ok());
    }
}

/// The abstraction levels of a build (see [`crate::derived::levels`]),
/// checked from the region graph.
#[cfg(test)]
mod level_tests {
    use crate::derived::levels::{MIN_REGIONS, TOP_NODES};
    use crate::{Hierarchy, HierarchyConfig};
    use regionpath_grid::Grid;

    /// Every level's nodes are connected through their own children, their
    /// children lie in one square, and two nodes are neighbours exactly
    /// when a region of one links to a region of the other: checked from
    /// the region graph with a flood per node, independently of the build.
    #[test]
    fn levels_are_connected_pieces_of_nested_squares() {
        // An 800 × 800 map of small rooms with doors: over 40 k regions at
        // sector size 4.
        let mut rows = vec![vec![b'.'; 800]; 800];
        let mut seed = 7u64;
        for (y, row) in rows.iter_mut().enumerate() {
            for (x, cell) in row.iter_mut().enumerate() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if (x % 5 == 0 || y % 5 == 0) && !(seed >> 33).is_multiple_of(3) {
                    *cell = b'@';
                }
            }
        }
        let rows: Vec<String> = rows
            .into_iter()
            .map(|r| String::from_utf8(r).unwrap())
            .collect();
        let grid = Grid::from_rows(&rows).unwrap();
        let h = Hierarchy::build(
            &grid,
            &HierarchyConfig::new().sector_size(4).fit_memory(false),
        )
        .unwrap();
        assert!(
            h.regions.len() >= MIN_REGIONS,
            "{} regions",
            h.regions.len()
        );
        let levels = &h.connectivity.levels;
        assert!(levels.levels.len() >= 2, "{} levels", levels.levels.len());
        let top = levels.levels.last().unwrap();
        assert!(top.len() <= TOP_NODES);
        let n = h.regions.len();
        for (k, level) in levels.levels.iter().enumerate() {
            // Node of each region at this level, and the square of each
            // region at this level's side.
            let node: Vec<u32> = (0..n as u32)
                .map(|r| levels.node_of(r, k).unwrap())
                .collect();
            let side = level.side;
            let across = h.layout.sectors_x.div_ceil(side);
            let square = |r: usize| {
                let (sx, sy) = h.layout.coords(h.regions[r].sector());
                (sy / side) * across + sx / side
            };
            let mut members = vec![Vec::new(); level.len()];
            for r in 0..n {
                members[node[r] as usize].push(r as u32);
            }
            let mut seen = vec![false; n];
            for (c, m) in members.iter().enumerate() {
                assert!(!m.is_empty(), "level {k} node {c} has no regions");
                let sq = square(m[0] as usize);
                assert!(m.iter().all(|&r| square(r as usize) == sq));
                // Flood inside the node from its first region.
                let mut stack = vec![m[0]];
                seen[m[0] as usize] = true;
                let mut count = 0;
                while let Some(r) = stack.pop() {
                    count += 1;
                    for &b in h.graph.neighbors_slice(r) {
                        if node[b as usize] == c as u32 && !seen[b as usize] {
                            seen[b as usize] = true;
                            stack.push(b);
                        }
                    }
                }
                assert_eq!(count, m.len(), "level {k} node {c} is not connected");
            }
            // Neighbours from the region graph.
            let mut want = vec![Vec::new(); level.len()];
            for r in 0..n as u32 {
                for &b in h.graph.neighbors_slice(r) {
                    let (x, y) = (node[r as usize], node[b as usize]);
                    if x != y {
                        want[x as usize].push(y);
                    }
                }
            }
            for (c, w) in want.iter_mut().enumerate() {
                w.sort_unstable();
                w.dedup();
                assert_eq!(level.neighbours(c as u32), &w[..], "level {k} node {c}");
            }
            // Pieces never merge across squares: a different square means
            // a different node, and the same square with a link means the
            // same node.
            for r in 0..n as u32 {
                for &b in h.graph.neighbors_slice(r) {
                    if square(r as usize) == square(b as usize) {
                        assert_eq!(node[r as usize], node[b as usize]);
                    } else {
                        assert_ne!(node[r as usize], node[b as usize]);
                    }
                }
            }
        }
    }

    #[test]
    fn small_maps_have_no_levels() {
        let grid = Grid::new(256, 256, true).unwrap();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        assert!(h.connectivity.levels.levels.is_empty());
    }
}
