//! [`Steering`]: the primitives of a directional search (one shortest legal
//! curve per start heading, end heading and cell offset) and their
//! hit-check tables, built once per vehicle.

use crate::cells::centreline_cells;
use crate::dubins::{advance, shortest, Maneuver, Piece, Pose};
use crate::VehicleError;
use regionpath_smoothing::{arc_cell_distance, segment_cell_distance};
use std::f64::consts::TAU;

/// Extra distance (cells) by which the hit-check tables err towards
/// "touched": a cell is listed when the swept curve comes within the unit
/// radius plus this. It covers the `f32` rounding of the output pieces
/// (positions up to 65 536 cells) so that the exact check of the returned
/// curve never disagrees with the tables.
pub const TABLE_MARGIN: f64 = 1e-3;

/// Largest reach of a hit-check table from its start cell: tables are rows
/// of 63 bits (offsets −31..=31).
pub const MAX_EXTENT: i32 = 31;

/// How far children lie from their parent: Pinter's Directional-8, -24 and
/// -48 (Chebyshev distance 1, 2 or 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Neighbourhood {
    /// The 8 cells at Chebyshev distance 1.
    D8,
    /// The 24 cells within Chebyshev distance 2 (the default).
    #[default]
    D24,
    /// The 48 cells within Chebyshev distance 3.
    D48,
}

impl Neighbourhood {
    /// The Chebyshev reach: 1, 2 or 3.
    pub fn reach(self) -> i32 {
        match self {
            Neighbourhood::D8 => 1,
            Neighbourhood::D24 => 2,
            Neighbourhood::D48 => 3,
        }
    }
}

/// What a vehicle is: the settings a [`Steering`] is built for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VehicleSpec {
    /// Turning radius in cells: every arc has exactly this radius. Finite,
    /// in `(0, 16]`.
    pub turning_radius: f64,
    /// Radius of the unit in cells: the swept disc must keep farther than
    /// this from blocked cells and the map's outline. Finite, in `[0, 8]`.
    pub unit_radius: f64,
    /// Number of headings, 8 or 16 (a step of 45° or 22.5°).
    pub headings: u32,
    /// Which children a node has.
    pub neighbourhood: Neighbourhood,
    /// Largest heading change of one primitive, in heading steps (`None`:
    /// every end heading, Pinter's full set). Fewer children per node make
    /// each expansion cheaper; larger turns then take several primitives.
    pub max_turn_steps: Option<u32>,
    /// Whether and at what cost the vehicle may drive backwards (`None`,
    /// the default: forwards only).
    pub reverse: Option<Reverse>,
}

/// Driving backwards. A reverse primitive from body heading `h0` to `h1`
/// is the forward primitive from `h0 + π` to `h1 + π` at the same offset,
/// driven with the body facing opposite the motion: the same curve, so the
/// same hit-check table (exact, not an approximation). Pinter's "eight
/// reverse directions", with his penalty.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reverse {
    /// A reverse piece costs its length times this. Finite, in `[1, 1000]`
    /// (at least 1 keeps the Euclidean heuristic admissible).
    pub penalty: f64,
    /// Fixed cost (cells) of each change of direction (forwards to reverse
    /// or back; not charged at the start), so that equal-cost routes
    /// prefer fewer gear changes. Finite, in `[0, 1000]`. A search node
    /// then also records its last direction (twice the nodes).
    pub gear_change: f64,
}

impl Reverse {
    /// Reversing at `penalty` times the length, with no cost per gear
    /// change.
    pub fn new(penalty: f64) -> Reverse {
        Reverse {
            penalty,
            gear_change: 0.0,
        }
    }
}

impl VehicleSpec {
    /// A spec with 16 headings and Directional-24.
    pub fn new(turning_radius: f64, unit_radius: f64) -> VehicleSpec {
        VehicleSpec {
            turning_radius,
            unit_radius,
            headings: 16,
            neighbourhood: Neighbourhood::D24,
            max_turn_steps: None,
            reverse: None,
        }
    }

    /// Checks the documented bounds.
    pub fn validate(&self) -> Result<(), VehicleError> {
        if !(self.turning_radius.is_finite()
            && self.turning_radius > 0.0
            && self.turning_radius <= 16.0)
        {
            return Err(VehicleError::Spec {
                field: "turning_radius",
                expected: "a number in (0, 16] cells",
            });
        }
        if !(self.unit_radius.is_finite() && (0.0..=8.0).contains(&self.unit_radius)) {
            return Err(VehicleError::Spec {
                field: "unit_radius",
                expected: "a number in [0, 8] cells",
            });
        }
        if self.headings != 8 && self.headings != 16 {
            return Err(VehicleError::Spec {
                field: "headings",
                expected: "8 or 16",
            });
        }
        if let Some(rev) = self.reverse {
            if !(rev.penalty.is_finite() && (1.0..=1000.0).contains(&rev.penalty)) {
                return Err(VehicleError::Spec {
                    field: "reverse penalty",
                    expected: "a number in [1, 1000]",
                });
            }
            if !(rev.gear_change.is_finite() && (0.0..=1000.0).contains(&rev.gear_change)) {
                return Err(VehicleError::Spec {
                    field: "gear change cost",
                    expected: "a number in [0, 1000] cells",
                });
            }
        }
        Ok(())
    }

    /// The heading step in radians.
    pub fn step(&self) -> f64 {
        TAU / self.headings as f64
    }
}

/// The longest primitive kept between points `dist` apart for turning
/// radius `r`: `1.5 × dist + πr` (plus 10⁻⁹), room for a half turn; longer
/// curves are loops that chains of shorter primitives replace. (Pinter's
/// full set, `3 × dist + 2πr`, has about twice the children per node and
/// made the repairs on Moving AI maps three times slower for the same
/// curves.)
pub fn max_length(dist: f64, r: f64) -> f64 {
    1.5 * dist + 0.5 * TAU * r + 1e-9
}

/// One row of a hit-check table: the cells `dx` (bit `dx + 31`) of row
/// `dy`, relative to the start cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HitRow {
    pub dy: i32,
    pub bits: u64,
}

/// Reach of the packed tables: a table whose cells all lie within
/// `dx, dy ∈ [-PACK, PACK + 1]` is also kept as a 16 × 16 bit square.
pub(crate) const PACK: i32 = 7;

/// A child of a node: where it lies, its heading, the curve's length and
/// its table (rows, and when it fits, the packed 16 × 16 square: bit
/// `(dy + PACK) * 16 + dx + PACK`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    pub packed: [u64; 4],
    pub length: f32,
    pub dx: i16,
    pub dy: i16,
    pub heading: u16,
    /// Whether `packed` holds the table (else only `rows`).
    pub is_packed: bool,
    pub rows: (u32, u32),
}

/// One part of a primitive's centreline inside one cell: the cell's offset
/// from the start cell and the length inside it (what a terrain-priced
/// search multiplies by the cell's cost).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CostStep {
    pub dx: i8,
    pub dy: i8,
    pub length: f32,
}

/// The primitives and hit-check tables of a vehicle: for each start heading,
/// end heading and offset of the neighbourhood, the shortest curve of arcs of
/// the turning radius and lines from the start cell's centre to the child
/// cell's centre (kept when its length is at most [`max_length`] and it
/// stays within [`MAX_EXTENT`] cells), and the cells whose square
/// lies within the unit radius (+ [`TABLE_MARGIN`]) of it, by exact
/// distance; and the cells its centreline runs through with the length
/// inside each (exact crossings with the grid lines, lengths as `f32`), so
/// that a terrain-priced search
/// ([`crate::DirectionalSearch::find_weighted`]) prices a child with a
/// short loop. Built once (O(headings² × offsets × table area) distance
/// evaluations: about 10⁷ for 16 headings, D48, R = 4), then shared by any
/// number of searches; 16 headings with D24 and R = 2 take under 1 MB.
#[derive(Clone, Debug)]
pub struct Steering {
    spec: VehicleSpec,
    /// Children per start heading: `children[h0]` ranges.
    children: Vec<Child>,
    /// The curve of each child, by the same index.
    maneuvers: Vec<Maneuver>,
    by_heading: Vec<(u32, u32)>,
    rows: Vec<HitRow>,
    extent: i32,
    /// The centreline's cells of each child, by the same index: a range of
    /// `cost_steps` (kept apart from [`Child`] so that searches without
    /// costs read no more memory per child).
    cost_ranges: Vec<(u32, u32)>,
    cost_steps: Vec<CostStep>,
}

impl Steering {
    /// Builds the primitives and tables for `spec` (validated first).
    pub fn new(spec: VehicleSpec) -> Result<Steering, VehicleError> {
        spec.validate()?;
        let hn = spec.headings;
        let reach = spec.neighbourhood.reach();
        let mut children = Vec::new();
        let mut maneuvers = Vec::new();
        let mut by_heading = Vec::with_capacity(hn as usize);
        let mut rows = Vec::new();
        let mut extent = 0;
        let mut cost_ranges = Vec::new();
        let mut cost_steps: Vec<CostStep> = Vec::new();
        let mut breaks = Vec::new();
        for h0 in 0..hn {
            let begin = children.len() as u32;
            for h1 in 0..hn {
                let turn = (h1 + hn - h0) % hn;
                let turn = turn.min(hn - turn);
                if spec.max_turn_steps.is_some_and(|m| turn > m) {
                    continue;
                }
                for dy in -reach..=reach {
                    for dx in -reach..=reach {
                        if dx == 0 && dy == 0 {
                            continue;
                        }
                        let from = Pose::new(0.5, 0.5, h0 as f64 * spec.step());
                        let to =
                            Pose::new(0.5 + dx as f64, 0.5 + dy as f64, h1 as f64 * spec.step());
                        let Some(m) = shortest(from, to, spec.turning_radius) else {
                            continue;
                        };
                        let dist = ((dx * dx + dy * dy) as f64).sqrt();
                        if m.length > max_length(dist, spec.turning_radius) {
                            continue;
                        }
                        let Some(table) = hit_cells(from, &m, spec.unit_radius + TABLE_MARGIN)
                        else {
                            continue;
                        };
                        // The centreline's cells lie in the table (distance
                        // 0), hence within MAX_EXTENT; checked all the same,
                        // so that a search's padded cost lookup stays in
                        // range.
                        let first_step = cost_steps.len();
                        let mut in_reach = true;
                        centreline_cells(from, &m, &mut breaks, |x, y, len| {
                            if x.abs() > MAX_EXTENT as i64 || y.abs() > MAX_EXTENT as i64 {
                                in_reach = false;
                                return;
                            }
                            let (dx, dy) = (x as i8, y as i8);
                            match cost_steps[first_step..].last_mut() {
                                Some(last) if last.dx == dx && last.dy == dy => {
                                    last.length = (last.length as f64 + len) as f32;
                                }
                                _ => cost_steps.push(CostStep {
                                    dx,
                                    dy,
                                    length: len as f32,
                                }),
                            }
                        });
                        if !in_reach {
                            cost_steps.truncate(first_step);
                            continue;
                        }
                        cost_ranges.push((first_step as u32, cost_steps.len() as u32));
                        let start = rows.len() as u32;
                        let mut packed = Some([0u64; 4]);
                        for &(ty, bits) in &table {
                            for b in 0..64 {
                                if bits >> b & 1 == 1 {
                                    let tx = b - MAX_EXTENT;
                                    let fits = (-PACK..=PACK + 1).contains(&tx)
                                        && (-PACK..=PACK + 1).contains(&ty);
                                    match (&mut packed, fits) {
                                        (Some(p), true) => {
                                            let i = ((ty + PACK) * 16 + tx + PACK) as usize;
                                            p[i / 64] |= 1 << (i % 64);
                                        }
                                        _ => packed = None,
                                    }
                                }
                            }
                        }
                        for (ty, bits) in table {
                            extent = extent.max(ty.abs());
                            for b in 0..64 {
                                if bits >> b & 1 == 1 {
                                    extent = extent.max((b - MAX_EXTENT).abs());
                                }
                            }
                            rows.push(HitRow { dy: ty, bits });
                        }
                        children.push(Child {
                            packed: packed.unwrap_or([0; 4]),
                            length: m.length as f32,
                            dx: dx as i16,
                            dy: dy as i16,
                            heading: h1 as u16,
                            is_packed: packed.is_some(),
                            rows: (start, rows.len() as u32),
                        });
                        maneuvers.push(m);
                    }
                }
            }
            by_heading.push((begin, children.len() as u32));
        }
        Ok(Steering {
            spec,
            children,
            maneuvers,
            by_heading,
            rows,
            extent,
            cost_ranges,
            cost_steps,
        })
    }

    /// The settings this was built for.
    pub fn spec(&self) -> &VehicleSpec {
        &self.spec
    }

    /// Largest offset (Chebyshev, cells) any table reaches from its start
    /// cell.
    pub fn extent(&self) -> i32 {
        self.extent
    }

    /// Number of primitives kept (at most headings² × offsets).
    pub fn primitive_count(&self) -> usize {
        self.children.len()
    }

    /// The primitives from heading `h0`.
    pub(crate) fn children(&self, h0: u32) -> &[Child] {
        let (a, b) = self.by_heading[h0 as usize];
        &self.children[a as usize..b as usize]
    }

    /// The global indices of the primitives from heading `h0`.
    pub(crate) fn children_range(&self, h0: u32) -> (u32, u32) {
        self.by_heading[h0 as usize]
    }

    /// The curve of a primitive by global index.
    pub(crate) fn maneuver_at(&self, i: u32) -> &Maneuver {
        &self.maneuvers[i as usize]
    }

    /// The centreline's cells of the primitive with global index `i`
    /// ([`CostStep`]s, in travel order).
    pub(crate) fn cost_steps(&self, i: u32) -> &[CostStep] {
        let (a, b) = self.cost_ranges[i as usize];
        &self.cost_steps[a as usize..b as usize]
    }

    /// The table rows of a child.
    pub(crate) fn rows(&self, c: &Child) -> &[HitRow] {
        &self.rows[c.rows.0 as usize..c.rows.1 as usize]
    }

    /// The cells (relative to the start cell) that the primitive from
    /// heading `h0` to heading `h1` at offset `(dx, dy)` touches, or `None`
    /// when that primitive is not kept. For tests and tools.
    pub fn table(&self, h0: u32, h1: u32, dx: i32, dy: i32) -> Option<Vec<(i32, i32)>> {
        if h0 >= self.spec.headings {
            return None;
        }
        let c = self
            .children(h0)
            .iter()
            .find(|c| c.heading as u32 == h1 && c.dx as i32 == dx && c.dy as i32 == dy)?;
        let mut out = Vec::new();
        for row in self.rows(c) {
            for b in 0..64 {
                if row.bits >> b & 1 == 1 {
                    out.push((b - MAX_EXTENT, row.dy));
                }
            }
        }
        Some(out)
    }
}

/// The cells (rows of bits, offsets relative to the cell holding `from`,
/// which is cell (0, 0)) whose square lies within `reach` of the curve, or
/// `None` when one lies beyond [`MAX_EXTENT`].
fn hit_cells(from: Pose, m: &Maneuver, reach: f64) -> Option<Vec<(i32, u64)>> {
    // Bounding box of the curve: sample densely, widen by the radius, the
    // reach and a cell (an arc between samples bulges by far less).
    let (mut x0, mut x1, mut y0, mut y1) = (from.x, from.x, from.y, from.y);
    let mut p = from;
    for piece in m.pieces {
        let n = 16;
        for i in 1..=n {
            let part = match piece {
                Piece::Line(l) => Piece::Line(l * i as f64 / n as f64),
                Piece::Arc(a) => Piece::Arc(a * i as f64 / n as f64),
            };
            let q = advance(p, part, m.radius);
            x0 = x0.min(q.x);
            x1 = x1.max(q.x);
            y0 = y0.min(q.y);
            y1 = y1.max(q.y);
        }
        p = advance(p, piece, m.radius);
    }
    let pad = reach + 1.0;
    let (cx0, cx1) = ((x0 - pad).floor() as i32, (x1 + pad).floor() as i32);
    let (cy0, cy1) = ((y0 - pad).floor() as i32, (y1 + pad).floor() as i32);
    let mut out = Vec::new();
    for cy in cy0..=cy1 {
        let mut bits = 0u64;
        for cx in cx0..=cx1 {
            if curve_cell_distance(from, m, cx as i64, cy as i64) <= reach {
                if cx.abs() > MAX_EXTENT || cy.abs() > MAX_EXTENT {
                    return None;
                }
                bits |= 1 << (cx + MAX_EXTENT);
            }
        }
        if bits != 0 {
            out.push((cy, bits));
        }
    }
    Some(out)
}

/// Exact distance from the curve of `m` from `from` to the square of cell
/// `(x, y)`.
pub(crate) fn curve_cell_distance(from: Pose, m: &Maneuver, x: i64, y: i64) -> f64 {
    let mut best = f64::INFINITY;
    let mut p = from;
    for piece in m.pieces {
        let q = advance(p, piece, m.radius);
        let d = match piece {
            Piece::Line(_) => segment_cell_distance([p.x, p.y], [q.x, q.y], x, y),
            Piece::Arc(a) => {
                let s = a.signum();
                let (cx, cy) = (
                    p.x - s * m.radius * p.heading.sin(),
                    p.y + s * m.radius * p.heading.cos(),
                );
                let start = (p.y - cy).atan2(p.x - cx);
                arc_cell_distance([cx, cy], m.radius, start, a, x, y)
            }
        };
        best = best.min(d);
        p = q;
    }
    best
}
