//! Step costs under a movement profile: a step joining positions of cost
//! classes `a` and `b` costs its length (1 or √2) times the mean of the two
//! classes' costs, in fixed point.
//!
//! The table `T[diagonal][a][b] = round(length · (c_a + c_b) / 2 · COST_ONE)`
//! is built per query (at most 2 · 16 · 16 entries, on the stack). With
//! every cost 1 it holds exactly [`COST_ONE`] and [`COST_DIAGONAL`]. The
//! heuristic is the octile distance priced at the cheapest class,
//! `T[·][0][0]` (classes are sorted by cost): every step costs at least
//! the cheapest step of its length, because rounding is monotone, and
//! `T[1][0][0] ≤ 2 · T[0][0][0]`, so it is admissible and consistent in
//! integers.

use super::engine::StepCost;
use crate::cost::{Cost, COST_ONE};
use regionpath_grid::{Dir, PackedClasses, Point, ProfileGrid, MAX_TERRAIN_KINDS, SQRT2};

/// The fixed-point step table of a view.
pub(crate) type Table = [[[Cost; MAX_TERRAIN_KINDS]; MAX_TERRAIN_KINDS]; 2];

/// Fills `t` for the class costs `costs` (increasing).
pub(super) fn fill_table(costs: &[f64], t: &mut Table) {
    for (diagonal, base) in [(0, 1.0), (1, SQRT2)] {
        for (a, &ca) in costs.iter().enumerate() {
            for (b, &cb) in costs.iter().enumerate() {
                t[diagonal][a][b] = (base * ((ca + cb) / 2.0) * COST_ONE as f64).round() as Cost;
            }
        }
    }
}

/// The fixed-point step costs of a profile view, built once per view and
/// shared by every weighted search over it (4 KB): `step(diagonal, a, b)`
/// for cost classes `a` and `b`, and the octile distance priced at the
/// cheapest class, a lower bound on every path's cost ([`StepTable::octile`]).
/// Why a value of its own: a hierarchy keeps one per profile and passes it
/// to every leg search instead of filling the table per query.
#[derive(Clone)]
pub struct StepTable {
    table: Table,
    /// `table` indexed by kind code ([`by_code`]), for a view that reads
    /// the map's kind codes; built once here rather than per search.
    codes: Option<Box<Table>>,
    /// The number of cost classes.
    classes: usize,
}

impl std::fmt::Debug for StepTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StepTable")
            .field("straight", &self.table[0][0][0])
            .field("diagonal", &self.table[1][0][0])
            .finish_non_exhaustive()
    }
}

impl StepTable {
    /// The table of `view`'s class costs. O(classes²).
    pub fn new(view: &ProfileGrid) -> StepTable {
        let mut table: Table = Default::default();
        fill_table(view.class_costs(), &mut table);
        let classes = view.packed_classes();
        let codes = classes
            .is_mapped()
            .then(|| Box::new(by_code(&classes, &table)));
        StepTable {
            table,
            codes,
            classes: view.class_costs().len(),
        }
    }

    /// The octile distance from `a` to `b` priced at the cheapest class:
    /// never above the cost of any path between them (admissible and
    /// consistent in integers).
    #[inline]
    pub fn octile(&self, a: Point, b: Point) -> Cost {
        let dx = a.x.abs_diff(b.x) as Cost;
        let dy = a.y.abs_diff(b.y) as Cost;
        let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
        (hi - lo) * self.table[0][0][0] + lo * self.table[1][0][0]
    }

    /// The octile distance from `a` to `b` priced at cost class `class`
    /// (classes are ranked by cost, [`ProfileGrid::class_costs`]): a lower
    /// bound on the cost of any path between them whose positions all have
    /// class `class` or dearer, consistent in integers like
    /// [`StepTable::octile`] (which is `octile_from(0, ..)`). A search
    /// confined to an area whose cheapest class is `class` can use it for
    /// a tighter heuristic. Classes past the view's count are read as the
    /// dearest.
    #[inline]
    pub fn octile_from(&self, class: u8, a: Point, b: Point) -> Cost {
        let c = (class as usize).min(self.classes.saturating_sub(1));
        let dx = a.x.abs_diff(b.x) as Cost;
        let dy = a.y.abs_diff(b.y) as Cost;
        let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
        (hi - lo) * self.table[0][c][c] + lo * self.table[1][c][c]
    }

    pub(crate) fn table(&self) -> &Table {
        &self.table
    }

    /// The table indexed by kind code, when built for a view that reads
    /// the map's kind codes.
    pub(super) fn codes(&self) -> Option<&Table> {
        self.codes.as_deref()
    }

    /// Bytes held, inline and on the heap (about 4 KB, twice that for a
    /// view that reads the map's kind codes).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self
                .codes
                .as_ref()
                .map_or(0, |_| std::mem::size_of::<Table>())
    }
}

/// The cost of `path` (consecutive usable positions of `view`) under the
/// view's class costs: the sum over steps of base length × mean cost of the
/// two positions, summed per kind of step so that a path of cost-1
/// positions gets exactly `straight + diagonal · √2`. O(path length).
pub fn weighted_path_cost(view: &ProfileGrid, path: &[Point]) -> f64 {
    path_cost(view, path)
}

/// Step costs read from the view's cost classes, packed at
/// `1 << BITS_LOG` bits each ([`PackedClasses`]; the engine is compiled
/// once per width, see [`with_class_costs`]). Where the view reads the
/// map's kind codes ([`PackedClasses::is_mapped`]) the stored values are
/// codes and `table` is indexed by code ([`by_code`]).
pub(super) struct ClassCosts<'a, const BITS_LOG: u32> {
    pub(super) classes: PackedClasses<'a>,
    pub(super) table: &'a Table,
    /// Padded-index offset of each direction.
    pub(super) offsets: [isize; 8],
}

impl<'a, const BITS_LOG: u32> ClassCosts<'a, BITS_LOG> {
    pub(super) fn new(view: &'a ProfileGrid, table: &'a Table) -> Self {
        let mut offsets = [0isize; 8];
        for d in Dir::ALL {
            offsets[d as usize] = view.grid().padded_offset(d);
        }
        ClassCosts {
            classes: view.packed_classes(),
            table,
            offsets,
        }
    }
}

/// `table` indexed by the kind codes of a view that reads the map's codes
/// ([`PackedClasses::is_mapped`]): entry `[d][a][b]` is `table`'s for the
/// classes of codes `a` and `b`. Why: the engine then reads a code and the
/// table, as it reads a packed class, with no class lookup per step (that
/// lookup cost a profiled query 4.4 % more instructions). 2 · 16 · 16
/// entries: once per [`StepTable`] for the leg searches, on the stack per
/// search for the exact one (which fills its class table per search too).
pub(super) fn by_code(classes: &PackedClasses<'_>, table: &Table) -> Table {
    let mut t: Table = [[[0; MAX_TERRAIN_KINDS]; MAX_TERRAIN_KINDS]; 2];
    for (d, rows) in t.iter_mut().enumerate() {
        for (a, row) in rows.iter_mut().enumerate() {
            let ca = classes.class_of_value(a as u8) as usize;
            for (b, v) in row.iter_mut().enumerate() {
                *v = table[d][ca][classes.class_of_value(b as u8) as usize];
            }
        }
    }
    t
}

/// Runs `$body` with `$costs` bound to the [`ClassCosts`] of `$view`'s
/// class width (and, where the view reads the map's kind codes, a table
/// indexed by code: `$codes` if given, else [`by_code`] of `$table`).
macro_rules! with_class_costs {
    ($view:expr, $table:expr, $codes:expr, |$costs:ident| $body:expr) => {{
        let classes = $view.packed_classes();
        match classes.bits_log() {
            0 => {
                let $costs = ClassCosts::<0>::new($view, $table);
                $body
            }
            1 => {
                let $costs = ClassCosts::<1>::new($view, $table);
                $body
            }
            _ if classes.is_mapped() => {
                let built;
                let codes: &$crate::astar::weighted::Table = match $codes {
                    Some(t) => t,
                    None => {
                        built = $crate::astar::weighted::by_code(&classes, $table);
                        &built
                    }
                };
                let $costs = ClassCosts::<2>::new($view, codes);
                $body
            }
            _ => {
                let $costs = ClassCosts::<2>::new($view, $table);
                $body
            }
        }
    }};
}
pub(super) use with_class_costs;

impl<const BITS_LOG: u32> StepCost for ClassCosts<'_, BITS_LOG> {
    type Here = usize;

    #[inline]
    fn here(&self, gi: usize) -> usize {
        self.classes.get::<BITS_LOG>(gi) as usize
    }

    #[inline]
    fn step(&self, a: usize, gi: usize, d: usize) -> Cost {
        let b = self
            .classes
            .get::<BITS_LOG>((gi as isize + self.offsets[d]) as usize);
        self.table[(d >= 4) as usize][a][b as usize]
    }

    #[inline]
    fn add(g: Cost, c: Cost) -> Cost {
        g.saturating_add(c)
    }

    const BUCKETS: bool = true;
}

/// The cost of `path` (consecutive positions, each usable) under the view's
/// class costs, in `f64`: the sum over steps of length · mean cost, summed
/// per kind of step (length and the two classes) so that a path of cost-1
/// positions gets exactly `straight + diagonal · √2`, the benchmark's sum.
pub(crate) fn path_cost(view: &ProfileGrid, path: &[Point]) -> f64 {
    // The classes' width as a constant: this runs on every leg's path.
    match view.packed_classes().bits_log() {
        0 => path_cost_with::<0>(view, path),
        1 => path_cost_with::<1>(view, path),
        _ => path_cost_with::<2>(view, path),
    }
}

/// [`path_cost`] for classes packed at `1 << BITS_LOG` bits.
fn path_cost_with<const BITS_LOG: u32>(view: &ProfileGrid, path: &[Point]) -> f64 {
    let costs = view.class_costs();
    let n = costs.len().min(MAX_TERRAIN_KINDS);
    if n == 0 || path.len() < 2 {
        return 0.0;
    }
    // Steps per (diagonal, cheaper class, dearer class), at
    // `(diagonal · n + lo) · n + hi`.
    let mut counts = [0u32; 2 * MAX_TERRAIN_KINDS * MAX_TERRAIN_KINDS];
    let (grid, packed) = (view.grid(), view.packed_classes());
    // A position that is not usable reads as class 0, as `cost_class`
    // reports none for it.
    let class = |p: Point| {
        if grid.is_passable(p) {
            let c = packed.class_of_value(packed.get::<BITS_LOG>(grid.padded_index(p)));
            (c as usize).min(n - 1)
        } else {
            0
        }
    };
    let mut a = class(path[0]);
    for pair in path.windows(2) {
        let b = class(pair[1]);
        let diagonal = (pair[0].x != pair[1].x && pair[0].y != pair[1].y) as usize;
        counts[(diagonal * n + a.min(b)) * n + a.max(b)] += 1;
        a = b;
    }
    let mut total = 0.0;
    for (diagonal, base) in [(0, 1.0), (1, SQRT2)] {
        for a in 0..n {
            for b in a..n {
                let k = counts[(diagonal * n + a) * n + b];
                if k != 0 {
                    total += k as f64 * (base * ((costs[a] + costs[b]) / 2.0));
                }
            }
        }
    }
    total
}
