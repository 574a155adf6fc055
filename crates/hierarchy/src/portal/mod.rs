//! The exact portal layer: optimal full paths on maps whose sectors meet
//! only through narrow openings (rooms joined by doors, one-cell mazes).
//!
//! The grid is cut into 16 × 16 sectors of its own (independent of the
//! region sectors). A *portal* is a passable sector-border cell with a legal
//! move into another sector. For every portal the build stores its *field*:
//! for each cell of its sector, the first step of a shortest path inside the
//! sector towards the portal (4 bits a cell, 128 bytes a portal), and the
//! exact in-sector distance to every other portal of the sector.
//!
//! A query reads the start's distance to each portal of its sector by
//! walking those fields (no search), runs A* over the portals (edges: the
//! stored in-sector distances and the single moves across borders;
//! heuristic: octile distance, consistent, so the result is optimal), and
//! writes the path by walking the fields again: no cell-level search at
//! all, except one 256-cell sweep when start and goal share a sector.
//!
//! Invariants: a portal's field covers exactly the cells of its sector that
//! can reach it inside the sector; every move across a sector border joins
//! two portals (moves are symmetric, so both ends qualify); the layer
//! describes the grid it was built or last updated from. The layer is built
//! only where it pays: when the in-sector edges (the sum over sectors of the
//! squared portal count) stay within [`EDGES_PER_CELL`] of the passable
//! cells. Elsewhere (open ground, caves, wide corridors) every border cell
//! is a portal and the graph would be far larger than the region graph.

use crate::sector::{Layout, Rect};
use regionpath_grid::{Dir, Grid, Point};
use regionpath_search::{octile_cost, Cost, OpenEntry, OpenList, COST_DIAGONAL, COST_ONE};

/// Side of the layer's sectors: 256 cells, so a cell's index in its sector
/// fits a byte and a path's step counts fit 16 bits each.
pub(crate) const SIDE: u32 = 16;
const CELLS: usize = (SIDE * SIDE) as usize;

/// Most in-sector edges per passable cell for which the layer is built.
/// Rooms joined by one-cell doors and one-cell mazes measure 0.03–0.15;
/// caves, cities and wide corridors 1–13 (see `ARCHITECTURE.md`).
pub(crate) const EDGES_PER_CELL: f64 = 0.25;

/// Field entry of the portal cell itself.
const AT: u8 = 8;
/// Field entry of a cell that cannot reach the portal inside the sector.
const NONE: u8 = 15;

/// Straight steps in the low 16 bits, diagonal steps in the high 16.
type Steps = u32;
const UNREACHED: Steps = u32::MAX;
const STRAIGHT: Steps = 1;
const DIAGONAL: Steps = 1 << 16;

#[inline]
fn cost_of(s: Steps) -> Cost {
    (s & 0xFFFF) as Cost * COST_ONE + (s >> 16) as Cost * COST_DIAGONAL
}

/// One layer sector: its portals and their fields.
#[derive(Clone, Debug, Default, PartialEq)]
struct SectorPortals {
    /// Local index (`y * 16 + x` from the sector's corner) of each portal,
    /// ascending.
    local: Vec<u8>,
    /// `dist[i * n + j]`: steps of a shortest in-sector path from portal
    /// `i` to portal `j`, or [`UNREACHED`].
    dist: Vec<Steps>,
    /// Portal `i`'s field: 128 bytes from `i * 128`, two cells a byte (the
    /// even cell in the low nibble): the [`Dir`] of the first step towards
    /// the portal, [`AT`] or [`NONE`].
    dirs: Vec<u8>,
}

impl SectorPortals {
    #[inline]
    fn dir(&self, rank: usize, cell: usize) -> u8 {
        let b = self.dirs[rank * (CELLS / 2) + cell / 2];
        if cell.is_multiple_of(2) {
            b & 15
        } else {
            b >> 4
        }
    }

    fn bytes(&self) -> usize {
        self.local.capacity() + self.dist.capacity() * 4 + self.dirs.capacity()
    }
}

/// The portal layer of one grid (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Portals {
    layout: Layout,
    sectors: Vec<SectorPortals>,
    /// Dense portal ids: sector `k`'s portals are `first[k] .. first[k + 1]`.
    first: Vec<u32>,
    /// Cell of each portal, `x | y << 16`.
    cell: Vec<u32>,
    /// Sector of each portal.
    sector: Vec<u32>,
    /// Moves across borders: portal `p`'s are `cross[cross_first[p] ..
    /// cross_first[p + 1]]`, each the target portal with bit 31 set for a
    /// diagonal.
    cross_first: Vec<u32>,
    cross: Vec<u32>,
    /// Landmark distances: `lm[p * LANDMARKS + k]` is the exact distance
    /// between portal `p` and landmark `k` ([`NO_PATH`] when apart), for
    /// the A*'s landmark bound.
    lm: Vec<Cost>,
}

/// Landmarks of the portal graph's heuristic (8 bytes each per portal).
const LANDMARKS: usize = 8;
/// A landmark distance between portals in different components.
const NO_PATH: Cost = Cost::MAX;

/// Legal in-sector moves of each local cell of one sector: bit `d` of
/// entry `c` for each [`Dir`] `d` whose move from `c` stays in the sector
/// and is legal (target passable; for a diagonal both cells beside it).
type Moves = [u8; CELLS];

/// Offset of each [`Dir`] in local indices (`y * 16 + x`).
const LOCAL_STEP: [isize; 8] = {
    let mut t = [0isize; 8];
    let mut d = 0;
    while d < 8 {
        let (dx, dy) = Dir::ALL[d].delta();
        t[d] = dy as isize * SIDE as isize + dx as isize;
        d += 1;
    }
    t
};

fn sector_moves(grid: &Grid, r: &Rect) -> Moves {
    let h = r.height() as usize;
    // Row bits, a blocked row above and below (bits past the width are 0).
    let mut rows = [0u32; SIDE as usize + 2];
    for y in 0..h {
        rows[y + 1] = grid.row_bits(r.x0, r.y0 + y as u32, r.width()) as u32;
    }
    let mut moves = [0u8; CELLS];
    for y in 0..h {
        let (up, here, down) = (rows[y], rows[y + 1], rows[y + 2]);
        // Bit x of each: the move from (x, y) in that direction is legal.
        let e = here & (here >> 1);
        let w = here & (here << 1);
        let n = here & up;
        let s = here & down;
        let ne = e & n & (up >> 1);
        let se = e & s & (down >> 1);
        let sw = w & s & (down << 1);
        let nw = w & n & (up << 1);
        let by_dir = [n, e, s, w, ne, se, sw, nw];
        for x in 0..SIDE as usize {
            let mut m = 0u8;
            for (d, bits) in by_dir.iter().enumerate() {
                m |= ((bits >> x & 1) as u8) << d;
            }
            moves[y * SIDE as usize + x] = m;
        }
    }
    moves
}

/// Most entries a sweep's bucket can hold: a cell enters a bucket at most
/// once per neighbour that lowers its cost.
const BUCKET: usize = CELLS * 8;

/// Scratch of one in-sector sweep (Dijkstra with unit-wide buckets).
#[derive(Clone, Debug)]
pub(crate) struct Field {
    steps: Box<[Steps; CELLS]>,
    cost: Box<[Cost; CELLS]>,
    dir: Box<[u8; CELLS]>,
    buckets: Box<[[u8; BUCKET]; 3]>,
}

impl Default for Field {
    fn default() -> Self {
        Field {
            steps: Box::new([UNREACHED; CELLS]),
            cost: Box::new([Cost::MAX; CELLS]),
            dir: Box::new([NONE; CELLS]),
            buckets: Box::new([[0; BUCKET]; 3]),
        }
    }
}

/// `opposite` of each direction.
const OPPOSITE: [u8; 8] = [2, 3, 0, 1, 6, 7, 4, 5];

impl Field {
    /// Shortest in-sector paths to local cell `src` from every cell of a
    /// sector with legal moves `moves`: afterwards `steps[c]` is the path's
    /// step counts and `dir[c]` its first step from `c`.
    ///
    /// A bucket holds the cells whose cost lies in one unit of a straight
    /// step; every move costs at least that, so a cell's cost is final once
    /// the sweep reaches its bucket, and the order inside a bucket does not
    /// matter. A move costs less than two units, so three buckets suffice.
    fn sweep(&mut self, moves: &Moves, src: usize) {
        self.steps.fill(UNREACHED);
        self.cost.fill(Cost::MAX);
        self.dir.fill(NONE);
        let src = src as u8;
        self.steps[src as usize] = 0;
        self.cost[src as usize] = 0;
        self.dir[src as usize] = AT;
        let mut len = [0usize; 3];
        self.buckets[0][0] = src;
        len[0] = 1;
        let mut level = 0usize;
        let mut empty_run = 0;
        while empty_run < 3 {
            let b = level % 3;
            let count = std::mem::take(&mut len[b]);
            empty_run = if count == 0 { empty_run + 1 } else { 0 };
            let floor = level as Cost * COST_ONE;
            for i in 0..count.min(BUCKET) {
                let c = self.buckets[b][i];
                let here = self.cost[c as usize];
                // Settled in an earlier bucket (a cheaper entry came first).
                if here < floor {
                    continue;
                }
                let steps = self.steps[c as usize];
                let mut m = moves[c as usize];
                while m != 0 {
                    let d = m.trailing_zeros() as usize & 7;
                    m &= m - 1;
                    // In the sector: the move is legal there.
                    let n = (c as isize + LOCAL_STEP[d]) as u8;
                    let (step, add) = if d >= 4 {
                        (DIAGONAL, COST_DIAGONAL)
                    } else {
                        (STRAIGHT, COST_ONE)
                    };
                    let nc = here + add;
                    if nc >= self.cost[n as usize] {
                        continue;
                    }
                    self.cost[n as usize] = nc;
                    self.steps[n as usize] = steps + step;
                    self.dir[n as usize] = OPPOSITE[d];
                    let nb = (nc / COST_ONE) as usize % 3;
                    if len[nb] < BUCKET {
                        self.buckets[nb][len[nb]] = n;
                        len[nb] += 1;
                    }
                }
            }
            level += 1;
        }
    }
}

/// The border cells of sector `r` with a legal move out of it, as local
/// indices, ascending.
fn find_portals(grid: &Grid, r: &Rect, out: &mut Vec<u8>) {
    out.clear();
    let (w, h) = (r.width(), r.height());
    for y in 0..h {
        for x in 0..w {
            if !(x == 0 || y == 0 || x == w - 1 || y == h - 1) {
                continue;
            }
            let p = Point::new(r.x0 + x, r.y0 + y);
            if !grid.is_passable(p) {
                continue;
            }
            let leaves = Dir::ALL.iter().any(|&d| {
                let (dx, dy) = d.delta();
                let (qx, qy) = (p.x as i64 + dx as i64, p.y as i64 + dy as i64);
                let inside =
                    qx >= r.x0 as i64 && qy >= r.y0 as i64 && qx < r.x1 as i64 && qy < r.y1 as i64;
                !inside && grid.can_step(p, d)
            });
            if leaves {
                out.push((y * SIDE + x) as u8);
            }
        }
    }
}

/// Builds one sector's portals and fields.
fn build_sector(grid: &Grid, layout: &Layout, k: u32, field: &mut Field) -> SectorPortals {
    let r = layout.rect(k);
    let mut local = Vec::new();
    find_portals(grid, &r, &mut local);
    let moves = sector_moves(grid, &r);
    let n = local.len();
    let mut dist = vec![UNREACHED; n * n];
    let mut dirs = vec![0u8; n * (CELLS / 2)];
    for (i, &src) in local.iter().enumerate() {
        field.sweep(&moves, src as usize);
        for (j, &dst) in local.iter().enumerate() {
            dist[i * n + j] = field.steps[dst as usize];
        }
        for (c, pair) in field.dir.chunks_exact(2).enumerate() {
            dirs[i * (CELLS / 2) + c] = pair[0] | (pair[1] << 4);
        }
    }
    SectorPortals { local, dist, dirs }
}

impl Portals {
    /// Whether the layer pays on `grid`: counts portals per sector (no
    /// sweep) and compares the in-sector edges with [`EDGES_PER_CELL`]. A
    /// grid with no portal at all (no move crosses a sector border, as on
    /// a checkerboard) has nothing to route over: the layer would hold its
    /// per-sector tables (about 0.3 bytes a cell) for no query.
    pub(crate) fn worth_building(grid: &Grid) -> bool {
        let layout = Layout::new(grid.width(), grid.height(), SIDE);
        let passable = grid.passable_count() as f64;
        if passable == 0.0 {
            return false;
        }
        let limit = EDGES_PER_CELL * passable;
        let mut edges = 0.0;
        let mut local = Vec::new();
        for k in 0..layout.count() as u32 {
            find_portals(grid, &layout.rect(k), &mut local);
            edges += (local.len() * local.len()) as f64;
            if edges > limit {
                return false;
            }
        }
        edges > 0.0
    }

    /// Builds the layer (sectors in parallel with rayon when `parallel`).
    pub(crate) fn build(grid: &Grid, parallel: bool) -> Portals {
        let layout = Layout::new(grid.width(), grid.height(), SIDE);
        let n = layout.count() as u32;
        let sectors: Vec<SectorPortals> =
            crate::par::map_range(parallel, n, Field::default, |f, k| {
                build_sector(grid, &layout, k, f)
            });
        let mut p = Portals {
            layout,
            sectors,
            first: Vec::new(),
            cell: Vec::new(),
            sector: Vec::new(),
            cross_first: Vec::new(),
            cross: Vec::new(),
            lm: Vec::new(),
        };
        p.link(grid, parallel);
        p
    }

    /// Rebuilds the sectors around changed cells (each changed cell's
    /// sector and its eight neighbours: a border cell's portal status
    /// depends on the cells across the border), then the global arrays.
    pub(crate) fn update(&mut self, grid: &Grid, changed: &[Point]) {
        let l = &self.layout;
        let mut touched: Vec<u32> = Vec::new();
        for p in changed {
            let (sx, sy) = ((p.x / SIDE) as i64, (p.y / SIDE) as i64);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (x, y) = (sx + dx, sy + dy);
                    if x >= 0 && y >= 0 && x < l.sectors_x as i64 && y < l.sectors_y as i64 {
                        touched.push(y as u32 * l.sectors_x + x as u32);
                    }
                }
            }
        }
        touched.sort_unstable();
        touched.dedup();
        let mut f = Field::default();
        for k in touched {
            self.sectors[k as usize] = build_sector(grid, &self.layout, k, &mut f);
        }
        self.link(grid, true);
    }

    /// Dense ids, cells and cross-border moves from the sectors, then the
    /// landmark distances.
    fn link(&mut self, grid: &Grid, parallel: bool) {
        self.link_only(grid);
        self.landmarks(parallel);
    }

    /// Dense ids, cells and cross-border moves from the sectors.
    fn link_only(&mut self, grid: &Grid) {
        let l = &self.layout;
        self.first.clear();
        self.cell.clear();
        self.sector.clear();
        let mut total = 0u32;
        for (k, s) in self.sectors.iter().enumerate() {
            self.first.push(total);
            let r = l.rect(k as u32);
            for &c in &s.local {
                let (x, y) = (r.x0 + c as u32 % SIDE, r.y0 + c as u32 / SIDE);
                self.cell.push(x | (y << 16));
                self.sector.push(k as u32);
            }
            total += s.local.len() as u32;
        }
        self.first.push(total);
        self.cross_first.clear();
        self.cross.clear();
        for id in 0..total as usize {
            self.cross_first.push(self.cross.len() as u32);
            let (x, y) = (self.cell[id] & 0xFFFF, self.cell[id] >> 16);
            let p = Point::new(x, y);
            let k = self.sector[id];
            for d in Dir::ALL {
                if !grid.can_step(p, d) {
                    continue;
                }
                let (dx, dy) = d.delta();
                let q = Point::new(x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
                let kq = l.sector_of(q);
                if kq == k {
                    continue;
                }
                let rq = l.rect(kq);
                let lq = ((q.y - rq.y0) * SIDE + (q.x - rq.x0)) as u8;
                if let Ok(rank) = self.sectors[kq as usize].local.binary_search(&lq) {
                    let to = self.first[kq as usize] + rank as u32;
                    self.cross
                        .push(to | if d.is_diagonal() { 1 << 31 } else { 0 });
                }
            }
        }
        self.cross_first.push(self.cross.len() as u32);
    }

    /// Exact distances from `from` to every portal over the portal graph
    /// (Dijkstra), into `dist` ([`NO_PATH`] where unreachable).
    fn distances_from(&self, from: u32, dist: &mut Vec<Cost>, open: &mut OpenList) {
        dist.clear();
        dist.resize(self.len(), NO_PATH);
        open.clear();
        dist[from as usize] = 0;
        open.push(OpenEntry::new(0, 0, from));
        while let Some(e) = open.pop() {
            let u = e.node();
            let g = e.f();
            if g > dist[u as usize] {
                continue;
            }
            self.for_each_edge(u, true, |v, c, _| {
                let ng = g + c;
                if ng < dist[v as usize] {
                    dist[v as usize] = ng;
                    open.push(OpenEntry::new(ng, 0, v));
                }
            });
        }
    }

    /// Calls `f(v, cost, inside)` for each edge out of portal `u`: the
    /// in-sector ones (`inside`, only when `inside_too`) and the moves
    /// across borders.
    #[inline]
    fn for_each_edge(&self, u: u32, inside_too: bool, mut f: impl FnMut(u32, Cost, bool)) {
        if inside_too {
            let k = self.sector[u as usize];
            let first = self.first[k as usize];
            let s = &self.sectors[k as usize];
            let m = s.local.len();
            let rank = (u - first) as usize;
            for (j, &d) in s.dist[rank * m..(rank + 1) * m].iter().enumerate() {
                if d != UNREACHED && j != rank {
                    f(first + j as u32, cost_of(d), true);
                }
            }
        }
        let (a, b) = (
            self.cross_first[u as usize] as usize,
            self.cross_first[u as usize + 1] as usize,
        );
        for &c in &self.cross[a..b] {
            let step = if c >> 31 == 1 {
                COST_DIAGONAL
            } else {
                COST_ONE
            };
            f(c & !(1 << 31), step, false);
        }
    }

    /// Chooses [`LANDMARKS`] portals around the map's edge (the nearest
    /// portal to each corner and to the middle of each side: far apart,
    /// so their bounds are tight for most directions of travel) and stores
    /// every portal's distance to each (one Dijkstra per landmark, in
    /// parallel when `parallel`).
    fn landmarks(&mut self, parallel: bool) {
        let n = self.len();
        self.lm.clear();
        if n == 0 {
            return;
        }
        let chosen = self.chosen_landmarks();
        let run = |&from: &u32| {
            let mut dist = Vec::new();
            self.distances_from(from, &mut dist, &mut OpenList::new());
            dist
        };
        let fields: Vec<Vec<Cost>> = crate::par::map_init(parallel, &chosen, || (), |_, v| run(v));
        self.lm.resize(n * LANDMARKS, NO_PATH);
        for (k, dist) in fields.iter().enumerate() {
            for (v, &d) in dist.iter().enumerate() {
                self.lm[v * LANDMARKS + k] = d;
            }
        }
    }

    /// The landmark portals: the nearest portal to each corner and to the
    /// middle of each side (portal 0 when there is none). O(portals).
    fn chosen_landmarks(&self) -> Vec<u32> {
        let n = self.len();
        let (w, h) = (self.layout.width - 1, self.layout.height - 1);
        let anchors = [
            (0, 0),
            (w, h),
            (w, 0),
            (0, h),
            (w / 2, 0),
            (w / 2, h),
            (0, h / 2),
            (w, h / 2),
        ];
        anchors
            .iter()
            .map(|&(x, y)| {
                let a = Point::new(x, y);
                (0..n as u32)
                    .min_by_key(|&v| octile_cost(self.point(v), a))
                    .unwrap_or(0)
            })
            .collect()
    }

    /// Number of portals.
    pub(crate) fn len(&self) -> usize {
        self.cell.len()
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.sectors.iter().map(SectorPortals::bytes).sum::<usize>()
            + self.sectors.capacity() * std::mem::size_of::<SectorPortals>()
            + (self.first.capacity()
                + self.cell.capacity()
                + self.sector.capacity()
                + self.cross_first.capacity()
                + self.cross.capacity())
                * 4
            + self.lm.capacity() * 8
    }

    #[inline]
    fn point(&self, id: u32) -> Point {
        let c = self.cell[id as usize];
        Point::new(c & 0xFFFF, c >> 16)
    }

    /// Local index of `p` in sector `k`.
    #[inline]
    fn local_of(&self, k: u32, p: Point) -> usize {
        let r = self.layout.rect(k);
        ((p.y - r.y0) * SIDE + (p.x - r.x0)) as usize
    }

    /// Steps from local cell `from` to portal `rank` of sector `k` along
    /// its field, pushing the cells after `from` (up to the portal) into
    /// `out` when given.
    fn walk(&self, k: u32, rank: usize, from: usize, mut out: Option<&mut Vec<Point>>) -> Steps {
        let s = &self.sectors[k as usize];
        let r = self.layout.rect(k);
        let mut c = from;
        let mut steps = 0;
        // A field is a shortest-path tree: at most 255 steps to its root.
        for _ in 0..CELLS {
            let d = s.dir(rank, c);
            if d == AT {
                return steps;
            }
            if d == NONE {
                return UNREACHED;
            }
            let dir = Dir::ALL[d as usize];
            let (x, y) = step_local(c, dir);
            c = (y * SIDE + x) as usize;
            steps += if dir.is_diagonal() {
                DIAGONAL
            } else {
                STRAIGHT
            };
            if let Some(o) = out.as_deref_mut() {
                o.push(Point::new(r.x0 + x, r.y0 + y));
            }
        }
        UNREACHED
    }
}

/// The local `(x, y)` one move in `dir` from local cell `c`.
#[inline]
fn step_local(c: usize, dir: Dir) -> (u32, u32) {
    let (dx, dy) = dir.delta();
    (
        (c as u32 % SIDE).wrapping_add_signed(dx),
        (c as u32 / SIDE).wrapping_add_signed(dy),
    )
}

/// Lowers node `v`'s cost to `g` (from `parent`, by `via`) unless it is
/// closed or already as cheap, and queues it with heuristic `h`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn relax(
    (nodes, open): (&mut [PNode], &mut OpenList),
    gen: u32,
    v: u32,
    g: Cost,
    parent: u32,
    via: Via,
    h: Cost,
) {
    let node = &mut nodes[v as usize];
    if node.stamp == gen {
        if node.closed || g >= node.g {
            return;
        }
    } else {
        node.stamp = gen;
        node.closed = false;
    }
    node.g = g;
    node.parent = parent;
    node.via = via;
    open.push(OpenEntry::new(g + h, h, v));
}

/// How a node was reached in [`PortalSearch`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Via {
    /// From the start, inside its sector.
    Start,
    /// From another portal of the same sector.
    Inside,
    /// By one move across a border.
    Across,
    /// (The goal node only) from the start inside their shared sector.
    Direct,
}

#[derive(Clone, Copy, Debug)]
struct PNode {
    g: Cost,
    stamp: u32,
    parent: u32,
    via: Via,
    closed: bool,
}

const BLANK: PNode = PNode {
    g: 0,
    stamp: 0,
    parent: u32::MAX,
    via: Via::Start,
    closed: false,
};

/// Per-thread scratch of portal queries: 24 bytes per portal plus one
/// sector's sweep. Allocates only while growing to the largest layer seen.
#[derive(Default)]
pub(crate) struct PortalSearch {
    nodes: Vec<PNode>,
    generation: u32,
    open: OpenList,
    field: Field,
    /// Goal sector's portals: steps from each to the goal.
    goal_steps: Vec<Steps>,
    chain: Vec<u32>,
}

/// Outcome of [`PortalSearch::find`].
pub(crate) struct PortalPath {
    /// Portals expanded.
    pub expanded: u32,
}

impl PortalSearch {
    /// An optimal path from `start` to `goal` (both passable, in bounds,
    /// distinct) appended to `out`, or `None` when there is none.
    pub(crate) fn find(
        &mut self,
        layer: &Portals,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> Option<PortalPath> {
        let n = layer.len();
        let goal_id = n as u32;
        if self.nodes.len() < n + 1 {
            self.nodes.resize(n + 1, BLANK);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.nodes.iter_mut().for_each(|v| v.stamp = 0);
            self.generation = 1;
        }
        let gen = self.generation;
        let l = &layer.layout;
        let (ks, kt) = (l.sector_of(start), l.sector_of(goal));
        let (ls, lt) = (layer.local_of(ks, start), layer.local_of(kt, goal));
        self.open.clear();
        self.goal_steps.clear();
        for rank in 0..layer.sectors[kt as usize].local.len() {
            self.goal_steps.push(layer.walk(kt, rank, lt, None));
        }
        // The goal's distance to each landmark: through its sector's
        // portals (exact: a path from elsewhere enters the sector at one).
        let mut dt = [NO_PATH; LANDMARKS];
        let tbase = layer.first[kt as usize] as usize;
        for (rank, &st) in self.goal_steps.iter().enumerate() {
            if st == UNREACHED {
                continue;
            }
            let row = &layer.lm[(tbase + rank) * LANDMARKS..(tbase + rank + 1) * LANDMARKS];
            for (d, &l) in dt.iter_mut().zip(row) {
                if l != NO_PATH {
                    *d = (*d).min(l + cost_of(st));
                }
            }
        }
        // Landmark bound (triangle inequality on exact distances) or the
        // octile distance, whichever is larger: consistent, so optimal.
        let heuristic = |v: u32| -> Cost {
            let mut h = octile_cost(layer.point(v), goal);
            let row = &layer.lm[v as usize * LANDMARKS..(v as usize + 1) * LANDMARKS];
            for (&a, &b) in dt.iter().zip(row) {
                if a != NO_PATH && b != NO_PATH {
                    h = h.max(a.abs_diff(b));
                }
            }
            h
        };

        let q = (&mut self.nodes[..], &mut self.open);
        let mut seed = |v: u32, g: Cost, via: Via, h: Cost| {
            relax((&mut *q.0, &mut *q.1), gen, v, g, u32::MAX, via, h)
        };
        if ks == kt {
            let r = l.rect(ks);
            self.field.sweep(&sector_moves(grid, &r), lt);
            let d = self.field.steps[ls];
            if d != UNREACHED {
                seed(goal_id, cost_of(d), Via::Direct, 0);
            }
        }
        let base = layer.first[ks as usize];
        for rank in 0..layer.sectors[ks as usize].local.len() {
            let d = layer.walk(ks, rank, ls, None);
            if d != UNREACHED {
                let v = base + rank as u32;
                seed(v, cost_of(d), Via::Start, heuristic(v));
            }
        }

        let mut expanded = 0u32;
        let mut found = false;
        while let Some(e) = self.open.pop() {
            let u = e.node();
            if u == goal_id {
                found = true;
                break;
            }
            let node = &mut self.nodes[u as usize];
            if node.closed {
                continue;
            }
            node.closed = true;
            expanded += 1;
            let (g, via) = (node.g, node.via);
            let k = layer.sector[u as usize];
            let rank = (u - layer.first[k as usize]) as usize;
            let q = (&mut self.nodes[..], &mut self.open);
            // A portal reached from the start or from a portal of its own
            // sector needs none of the sector's other portals nor the
            // goal: whoever reached it offered them a path at least as
            // short directly (a shortest in-sector path is never longer
            // than one through a third cell of the sector).
            let across = via == Via::Across;
            if across && k == kt {
                let d = self.goal_steps[rank];
                if d != UNREACHED {
                    relax(
                        (&mut *q.0, &mut *q.1),
                        gen,
                        goal_id,
                        g + cost_of(d),
                        u,
                        Via::Across,
                        0,
                    );
                }
            }
            layer.for_each_edge(u, across, |v, c, inside| {
                let via = if inside { Via::Inside } else { Via::Across };
                relax((&mut *q.0, &mut *q.1), gen, v, g + c, u, via, heuristic(v));
            });
        }
        if !found {
            return None;
        }

        // The portals of the path, first to last.
        self.chain.clear();
        let goal_node = self.nodes[goal_id as usize];
        out.push(start);
        if goal_node.via == Via::Direct {
            let f = &self.field;
            let r = l.rect(ks);
            let mut c = ls;
            while f.dir[c] != AT {
                let (x, y) = step_local(c, Dir::ALL[f.dir[c] as usize]);
                c = (y * SIDE + x) as usize;
                out.push(Point::new(r.x0 + x, r.y0 + y));
            }
            return Some(PortalPath { expanded });
        }
        let mut v = goal_node.parent;
        while v != u32::MAX {
            self.chain.push(v);
            v = self.nodes[v as usize].parent;
        }
        self.chain.reverse();
        let p1 = self.chain[0];
        layer.walk(ks, (p1 - layer.first[ks as usize]) as usize, ls, Some(out));
        for w in 1..self.chain.len() {
            let (pa, pb) = (self.chain[w - 1], self.chain[w]);
            match self.nodes[pb as usize].via {
                Via::Inside => {
                    let k = layer.sector[pb as usize];
                    let from = layer.local_of(k, layer.point(pa));
                    let rank = (pb - layer.first[k as usize]) as usize;
                    layer.walk(k, rank, from, Some(out));
                }
                _ => out.push(layer.point(pb)),
            }
        }
        // The goal's leg, walked from the goal to the last portal.
        let last = *self.chain.last()?;
        let mark = out.len();
        layer.walk(
            kt,
            (last - layer.first[kt as usize]) as usize,
            lt,
            Some(out),
        );
        // `out[mark..]` runs from the goal's neighbour to the last portal,
        // which is already in place: drop it, reverse the rest, end at goal.
        if out.len() > mark {
            out.pop();
            out[mark..].reverse();
            out.push(goal);
        }
        Some(PortalPath { expanded })
    }
}

/// Bytes of one stored field (4 bits a cell).
const FIELD_BYTES: usize = CELLS / 2;

/// Largest landmark distance a stored layer may hold (far above any map:
/// 2²⁶ cells), so that the query's sums cannot overflow.
const MAX_STORED_COST: Cost = 1 << 56;

/// A step count not yet known, and one being walked (the field check).
const UNKNOWN: Steps = u32::MAX - 1;
const WALKING: Steps = u32::MAX - 2;

/// Cost of an unreached cell in the field check: above every in-sector
/// cost and every sum of one with a step.
const FAR: f64 = 1e18;

/// Scratch of the stored-field check: one field's entries, step counts
/// and costs, and its sector's move limits.
struct FieldCheck {
    dir: [u8; CELLS],
    steps: [Steps; CELLS],
    /// Costs as `f64` (exact: integers under 2⁵³), [`PAD`] cells of
    /// padding each side so that every move's target index is in range.
    cost: [f64; CELLS + 2 * PAD],
    /// Per direction of [`HALF`]: the move's cost from each cell where it
    /// is legal, else infinity (no limit).
    limit: [[f64; CELLS]; 4],
    stack: Vec<u16>,
}

/// Padding of [`FieldCheck::cost`]: one row and one cell.
const PAD: usize = SIDE as usize + 1;

/// East, south and the two southern diagonals: with moves symmetric, they
/// cover every pair of neighbouring cells once.
const HALF: [usize; 4] = [1, 2, 5, 6];

/// For each local cell, every local cell ordered by an integer octile
/// estimate of its distance (`5 max + 2 min` of the offsets: every step of
/// a shortest path in open ground lowers it), ties by index: built once per
/// process (64 KiB, a counting sort per cell).
fn nearest_first() -> &'static [[u8; CELLS]; CELLS] {
    static ORDER: std::sync::OnceLock<Box<[[u8; CELLS]; CELLS]>> = std::sync::OnceLock::new();
    ORDER.get_or_init(|| {
        let side = SIDE as usize;
        let key = |a: usize, b: usize| {
            let dx = (a % side).abs_diff(b % side);
            let dy = (a / side).abs_diff(b / side);
            5 * dx.max(dy) + 2 * dx.min(dy)
        };
        let keys = 5 * side + 2 * side;
        let mut order = Box::new([[0u8; CELLS]; CELLS]);
        let mut start = vec![0usize; keys + 1];
        for (src, row) in order.iter_mut().enumerate() {
            start.iter_mut().for_each(|s| *s = 0);
            for c in 0..CELLS {
                start[key(src, c) + 1] += 1;
            }
            for k in 0..keys {
                start[k + 1] += start[k];
            }
            for c in 0..CELLS {
                let k = key(src, c);
                row[start[k]] = c as u8;
                start[k] += 1;
            }
        }
        order
    })
}

impl FieldCheck {
    fn new() -> Self {
        FieldCheck {
            dir: [NONE; CELLS],
            steps: [UNKNOWN; CELLS],
            cost: [FAR; CELLS + 2 * PAD],
            limit: [[f64::INFINITY; CELLS]; 4],
            stack: Vec::with_capacity(CELLS),
        }
    }

    /// Sets the move limits of a sector with legal moves `moves`.
    fn sector(&mut self, moves: &Moves) {
        for (lim, &d) in self.limit.iter_mut().zip(&HALF) {
            let w = if d >= 4 { COST_DIAGONAL } else { COST_ONE } as f64;
            for (l, &m) in lim.iter_mut().zip(moves) {
                *l = if m >> d & 1 == 1 { w } else { f64::INFINITY };
            }
        }
    }

    /// Checks the stored field of the portal at local cell `src` (`dirs`:
    /// 128 bytes) against the sector's legal moves (`moves`, and the
    /// limits [`FieldCheck::sector`] set from them): the portal's entry is
    /// [`AT`] and no other; every other entry is [`NONE`] or a legal move;
    /// the moves lead to the portal without a cycle; and no legal move
    /// joins two cells whose path costs differ by more than the move (an
    /// unreached cell next to a reached one counts). Then every cell's path
    /// is a shortest one inside the sector and [`NONE`] marks exactly the
    /// cells that cannot reach the portal there, as the sweep builds it.
    /// Leaves each cell's step counts in `steps`. O(cells).
    fn check(&mut self, moves: &Moves, src: usize, dirs: &[u8]) -> Result<(), &'static str> {
        for (c, &b) in dirs.iter().enumerate() {
            self.dir[2 * c] = b & 15;
            self.dir[2 * c + 1] = b >> 4;
        }
        let mut illegal = false;
        // Four arrays by cell, one of them offset by the padding.
        #[allow(clippy::needless_range_loop)]
        for c in 0..CELLS {
            let d = self.dir[c];
            // Bit 15 (NONE) is always allowed; AT (8) and 9..=14 never
            // (the portal's own entry is checked below).
            let allowed = u32::from(moves[c]) | 1 << NONE;
            illegal |= c != src && allowed >> d & 1 == 0;
            self.steps[c] = if d == NONE { UNREACHED } else { UNKNOWN };
            self.cost[PAD + c] = FAR;
        }
        if illegal || self.dir[src] != AT {
            return Err("a portal field entry is not a legal move");
        }
        self.steps[src] = 0;
        self.cost[PAD + src] = 0.0;
        // Step counts and costs along the moves, each cell once, nearest
        // the portal first (`nearest_first`), so a cell's next cell is
        // usually known already (always in open ground); else walk up to
        // a known cell, then back down.
        for &c in &nearest_first()[src] {
            let c = c as usize;
            if self.steps[c] != UNKNOWN {
                continue;
            }
            let d = self.dir[c] as usize;
            let t = (c as isize + LOCAL_STEP[d]) as usize;
            let known = self.steps[t];
            if known < WALKING {
                let (step, w) = if d >= 4 {
                    (DIAGONAL, COST_DIAGONAL)
                } else {
                    (STRAIGHT, COST_ONE)
                };
                self.steps[c] = known + step;
                self.cost[PAD + c] = self.cost[PAD + t] + w as f64;
                continue;
            }
            self.stack.clear();
            let mut x = c;
            while self.steps[x] == UNKNOWN {
                self.steps[x] = WALKING;
                self.stack.push(x as u16);
                x = (x as isize + LOCAL_STEP[self.dir[x] as usize]) as usize;
            }
            if self.steps[x] == WALKING {
                return Err("a portal field has a cycle");
            }
            if self.steps[x] == UNREACHED {
                return Err("a portal field leads to a cell that cannot reach it");
            }
            while let Some(y) = self.stack.pop() {
                let y = y as usize;
                let d = self.dir[y] as usize;
                let t = (y as isize + LOCAL_STEP[d]) as usize;
                let (step, w) = if d >= 4 {
                    (DIAGONAL, COST_DIAGONAL)
                } else {
                    (STRAIGHT, COST_ONE)
                };
                self.steps[y] = self.steps[t] + step;
                self.cost[PAD + y] = self.cost[PAD + t] + w as f64;
            }
        }
        let mut bad = 0u32;
        for (lim, &d) in self.limit.iter().zip(&HALF) {
            let off = LOCAL_STEP[d];
            let there = &self.cost[(PAD as isize + off) as usize..][..CELLS];
            let here = &self.cost[PAD..PAD + CELLS];
            for ((a, b), l) in here.iter().zip(there).zip(lim) {
                bad += u32::from((a - b).abs() > *l);
            }
        }
        if bad > 0 {
            return Err("a portal field is not a shortest-path field");
        }
        Ok(())
    }
}

impl Portals {
    /// Appends the layer as `.rph` files store it (format 6): the portal
    /// count (u32), each portal's field (128 bytes, portals in id order),
    /// each portal's [`LANDMARKS`] landmark distances (u64 each).
    pub(crate) fn write(&self, p: &mut Vec<u8>) {
        p.extend_from_slice(&(self.len() as u32).to_le_bytes());
        for s in &self.sectors {
            p.extend_from_slice(&s.dirs);
        }
        for d in &self.lm {
            p.extend_from_slice(&d.to_le_bytes());
        }
    }

    /// Bytes [`Portals::write`] gives after the count, per portal.
    pub(crate) const STORED_BYTES: usize = FIELD_BYTES + LANDMARKS * 8;

    /// The layer of `grid` from its stored fields and landmark distances
    /// (`stored`: [`Portals::STORED_BYTES`] per portal, after the count),
    /// checked instead of swept: the portals are found again from the grid
    /// (they must number as many), each field is checked by
    /// [`FieldCheck::check`] and gives the in-sector distances, the links
    /// across borders are made again, and the landmark distances must be 0
    /// at their own landmark, at most [`MAX_STORED_COST`], and along every
    /// edge both unreached or differ by at most its cost (so the query's
    /// bound stays admissible and consistent). O(cells + in-sector edges ×
    /// landmarks), against one sweep per portal and one Dijkstra per
    /// landmark for a build.
    pub(crate) fn read(grid: &Grid, stored: &[u8]) -> Result<Portals, &'static str> {
        let layout = Layout::new(grid.width(), grid.height(), SIDE);
        let count = stored.len() / Self::STORED_BYTES;
        let (fields, lm_bytes) = stored.split_at(count * FIELD_BYTES);
        let mut sectors = Vec::with_capacity(layout.count());
        let mut local = Vec::new();
        let mut check = Box::new(FieldCheck::new());
        let mut at = 0usize;
        for k in 0..layout.count() as u32 {
            let r = layout.rect(k);
            find_portals(grid, &r, &mut local);
            let n = local.len();
            let end = at + n * FIELD_BYTES;
            if end > fields.len() {
                return Err("fewer stored portal fields than portals");
            }
            let dirs = fields[at..end].to_vec();
            at = end;
            let mut dist = vec![UNREACHED; n * n];
            if n > 0 {
                let moves = sector_moves(grid, &r);
                check.sector(&moves);
                for (i, &src) in local.iter().enumerate() {
                    check.check(
                        &moves,
                        src as usize,
                        &dirs[i * FIELD_BYTES..(i + 1) * FIELD_BYTES],
                    )?;
                    for (j, &dst) in local.iter().enumerate() {
                        dist[i * n + j] = check.steps[dst as usize];
                    }
                }
            }
            sectors.push(SectorPortals {
                local: local.clone(),
                dist,
                dirs,
            });
        }
        if at != fields.len() {
            return Err("more stored portal fields than portals");
        }
        let mut p = Portals {
            layout,
            sectors,
            first: Vec::new(),
            cell: Vec::new(),
            sector: Vec::new(),
            cross_first: Vec::new(),
            cross: Vec::new(),
            lm: Vec::new(),
        };
        p.link_only(grid);
        p.lm = lm_bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
            .collect();
        p.check_landmarks()?;
        Ok(p)
    }

    /// The landmark distances against the portal graph (see
    /// [`Portals::read`]).
    fn check_landmarks(&self) -> Result<(), &'static str> {
        let n = self.len();
        if self.lm.len() != n * LANDMARKS {
            return Err("portal landmark table has the wrong size");
        }
        if n == 0 {
            return Ok(());
        }
        for (k, &v) in self.chosen_landmarks().iter().enumerate() {
            if self.lm[v as usize * LANDMARKS + k] != 0 {
                return Err("a portal landmark is not at distance 0 from itself");
            }
        }
        if self.lm.iter().any(|&d| d != NO_PATH && d > MAX_STORED_COST) {
            return Err("a portal landmark distance is out of range");
        }
        let mut bad = false;
        for u in 0..n as u32 {
            let a = &self.lm[u as usize * LANDMARKS..(u as usize + 1) * LANDMARKS];
            self.for_each_edge(u, true, |v, c, _| {
                let b = &self.lm[v as usize * LANDMARKS..(v as usize + 1) * LANDMARKS];
                for (&x, &y) in a.iter().zip(b) {
                    bad |= if x == NO_PATH || y == NO_PATH {
                        x != y
                    } else {
                        x.abs_diff(y) > c
                    };
                }
            });
        }
        if bad {
            return Err("portal landmark distances differ by more than an edge's cost");
        }
        Ok(())
    }
}
