//! Leg refinement: each leg is a window-bounded jump point search from
//! where the unit stands to the exit of a route region about `reach`
//! cells ahead; doorway-only routes are refined region by region.

use super::straight::straight_walk;
use super::*;

/// A refined leg, remembered while a full path is planned so that a second
/// route sharing the leg copies its cells instead of searching again: a
/// leg is a pure function of where it starts, its box and its target (the
/// exit run, or the goal on the last leg).
#[derive(Clone, Copy, Debug)]
pub(super) struct LegMemo {
    from: Point,
    bbox: Rect,
    /// The exit run, `None` for a leg to the goal.
    exit: Option<Run>,
    /// The leg's cells: `leg_cells[cells.0..cells.1]`.
    cells: (u32, u32),
}

/// What the leg searches do with [`LegMemo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Memo {
    /// Neither record nor look up (lazy queries).
    Off,
    /// Record each search (a full path's first route).
    Record,
    /// Look each search up first (the second route).
    Reuse,
}

pub(super) fn window_of(r: Rect) -> Window {
    Window {
        x: r.x0,
        y: r.y0,
        width: r.width(),
        height: r.height(),
    }
}

impl CellPlanner {
    /// The best path from `from` to `to` inside `win`, into `self.leg`:
    /// jump point search, under the profile's costs (heuristic floored at
    /// the window's cheapest class) where costs differ.
    fn window_leg(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        win: Window,
        from: Point,
        to: Point,
    ) -> Result<SearchStats, PlanError> {
        let leg = &mut self.leg;
        Ok(match h.weights() {
            Some((view, table)) => {
                let floor = h.window_floor(win);
                self.jps.find_path_weighted_into(
                    view,
                    table,
                    win,
                    from,
                    to,
                    |p| table.octile_from(floor, p, to),
                    leg,
                )?
            }
            None => self.jps.find_path_into(grid, win, from, to, leg)?,
        })
    }

    /// Refines the next leg ([`CellPlanner::next_leg`]); in a whole query
    /// ([`Kind::is_whole`]: its cells are not handed out leg by leg) a leg
    /// after the first starts back along the previous one
    /// ([`PlannerConfig::get_join_radius`]).
    pub(super) fn leg_into(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        out: &mut Vec<Point>,
    ) -> Result<bool, PlanError> {
        let Some(mut pr) = self.progress else {
            return Ok(false);
        };
        if pr.is_done() {
            return Ok(false);
        }
        let first = pr.phase == Phase::Fresh;
        if first {
            out.push(pr.pos);
            pr.phase = Phase::Walking;
        }
        if pr.pos == pr.goal {
            pr.phase = Phase::Done;
            self.progress = Some(pr);
            return Ok(false);
        }
        if let Some(order) = pr.straight {
            let ok = straight_walk(grid, pr.pos, pr.goal, order, Some(out));
            if !ok {
                return Err(PlanError::Stale("the grid changed during the query".into()));
            }
            self.stats.legs += 1;
            pr.pos = pr.goal;
            pr.phase = Phase::Done;
            self.progress = Some(pr);
            return Ok(false);
        }
        if pr.route == Planned::Nothing {
            // A short query (see `start_query`): one window search, and the
            // abstract route only if the window holds no path.
            // A sealed piece (see `begin_sealed`): its sector holds every
            // path.
            let size = self.config.window;
            let win = if pr.local {
                window_of(h.sector_rect(h.layout.sector_of(pr.pos)))
            } else {
                Window::around(grid, pr.pos, pr.goal, size, size)
            };
            let s = self.window_leg(h, grid, win, pr.pos, pr.goal)?;
            self.stats.expanded += s.expanded;
            // A lazy query hands the leg out at once: where the route may
            // beat the window's path under terrain costs, the route's legs
            // are handed out instead (a full query compares both after
            // stitching, `recheck_window_answer`).
            let beaten = s.status == Status::Found
                && !pr.local
                && !pr.kind.is_whole()
                && h.weights().is_some()
                && self.leg.len() >= 3
                && {
                    let cost = h.path_cost(&self.leg);
                    self.route_may_beat_window(h, grid, &pr, pr.pos, cost)
                };
            if beaten {
                self.stats.rechecked = true;
                pr.route = Planned::Whole;
                self.progress = Some(pr);
            } else if s.status == Status::Found {
                self.append_leg(out);
                pr.pos = pr.goal;
                pr.phase = Phase::Done;
                self.progress = Some(pr);
                return Ok(false);
            }
            if pr.local {
                return Err(PlanError::Stale(format!(
                    "no path between {} and {} in their sealed piece of a sector",
                    pr.pos, pr.goal
                )));
            }
            if !beaten {
                let start = pr.pos;
                self.plan_route(h, pr.from, pr.to, start, pr.goal)?;
                pr.route = Planned::Whole;
                self.progress = Some(pr);
            }
        }
        if pr.route == Planned::Pending {
            // A sliced query's route, asked for by `next_leg`: at once.
            self.plan_route(h, pr.from, pr.to, pr.pos, pr.goal)?;
            pr.route = Planned::Whole;
            self.progress = Some(pr);
        }
        if pr.route == Planned::Partial && !first {
            // The quick first leg is done: plan the rest of the route from
            // where it ended.
            self.plan_rest(h, grid, &mut pr)?;
            self.progress = Some(pr);
        }
        let last = self.route.len() - 1;
        if pr.kind.is_whole() && first && pr.route != Planned::Partial && self.doorways_only() {
            self.refine_regions(h, grid, out, &mut pr)?;
            self.progress = Some(pr);
            return Ok(false);
        }
        // A lazy query's first leg covers half a window a side: the unit
        // starts at a quarter of the search cost, and the next leg (asked
        // for while it walks) continues from there.
        let mut j = self.leg_end(h, pr.at, first && pr.kind.is_quick());
        if j == pr.at && j < last && self.cross[j + 1].0.contains(pr.pos) {
            // Already at the region's exit: a real step instead of none.
            j = self.leg_end(h, pr.at, false);
        }
        if pr.route == Planned::Partial && j == last {
            // A partial route ends short of the goal: stop where it leaves
            // its second-to-last region (`last >= 1`, `at == 0`).
            j = last - 1;
        }
        let mut bbox = self.leg_box(h, pr.at, j);
        if pr.kind.is_whole() && !first && out.len() >= 2 {
            // A full query: start the leg up to `join_radius` cells back
            // along the previous one (under terrain costs the lesser of it
            // and `weighted_join_radius`, P83), as far as the box stays within the
            // window size (the leg budget), and drop those cells from
            // `out`. The leg's own search then straightens the join: its
            // path from there to the exit is optimal within the window,
            // where a separate re-search around each join cost a window
            // load and search of its own (every 8th row of the 34 Moving
            // AI files: instructions -9 % (geometric mean), maze512-8
            // -26 %, random512-10 +15 %; mean suboptimality lower on every
            // file, e.g. TheFrozenSea 0.71 -> 0.10 %).
            let size = self.config.window;
            let r = self.join_cells(h);
            let n = out.len();
            let mut k = 0;
            let mut bb = bbox;
            while k < r && k + 2 <= n {
                let c = out[n - 2 - k];
                let u = bb.union(&Rect {
                    x0: c.x,
                    y0: c.y,
                    x1: c.x + 1,
                    y1: c.y + 1,
                });
                if u.width() > size || u.height() > size {
                    break;
                }
                bb = u;
                k += 1;
            }
            if k > 0 {
                out.truncate(n - k);
                pr.pos = out[n - k - 1];
                bbox = bb;
            }
        }
        // A lazy leg keeps off the cells handed out (see `lazy.rs`).
        let masked = !pr.kind.is_whole() && self.lazy_mask(h, grid, bbox, j);
        let win = window_of(bbox);
        // No corridor: the leg may use the whole window. With windowed A*
        // the legs were confined to the route's sectors to keep the search
        // out of dead ends; jump point search crosses dead ends cheaply, and
        // the freedom lets a leg pick better doorways than the region route
        // (all rows, every 8th: mean suboptimality 0.99% -> 0.64%, p95
        // 4.96% -> 3.61%, 8room_000 7.7% -> 5.1%, at the same speed).
        let words = win.area().div_ceil(64);
        let mut s = SearchStats {
            status: Status::NoPath,
            cost: 0.0,
            expanded: 0,
        };
        let exit = (j < last).then(|| self.cross[j + 1].0);
        let memo = LegMemo {
            from: pr.pos,
            bbox,
            exit,
            cells: (0, 0),
        };
        let known = match self.memo {
            Memo::Reuse => self
                .legs_done
                .iter()
                .find(|m| m.from == memo.from && m.bbox == memo.bbox && m.exit == memo.exit),
            _ => None,
        };
        if let Some(m) = known {
            // The same leg as one of the first route's: the same cells.
            self.stats.legs_reused += 1;
            self.leg.clear();
            self.leg
                .extend_from_slice(&self.leg_cells[m.cells.0 as usize..m.cells.1 as usize]);
            s.status = Status::Found;
        } else if j == last {
            // Masked first when a lazy leg needs it; unmasked only if that
            // finds nothing (see `lazy.rs`: never on a consistent query).
            for use_mask in [masked, false] {
                if let Some((view, table)) = h.weights() {
                    // Under a profile's costs: weighted jump point search,
                    // or windowed A* through a lazy leg's corridor (whose
                    // mask keeps the path's cells, not the corner rule's);
                    // no fallback.
                    let (g, to, leg) = (pr.pos, pr.goal, &mut self.leg);
                    let lh = h.leg_heuristic(win).map(|lh| lh.towards([to]));
                    let heuristic = |p: Point| lh.map_or(0, |lh| lh.at(p, to));
                    s = if use_mask {
                        self.window.find_path_to_any_weighted_into(
                            view,
                            table,
                            win,
                            g,
                            |p| p == to,
                            heuristic,
                            Some(self.lazy_mask.as_slice()),
                            leg,
                        )?
                    } else {
                        self.jps
                            .find_path_weighted_into(view, table, win, g, to, heuristic, leg)?
                    };
                    self.stats.expanded += s.expanded;
                    if s.status == Status::Found || !masked {
                        break;
                    }
                    continue;
                }
                for fallback in [false, true] {
                    let (g, to, leg) = (pr.pos, pr.goal, &mut self.leg);
                    s = match (fallback, use_mask) {
                        (false, false) => self.jps.find_path_into(grid, win, g, to, leg)?,
                        (false, true) => self.jps.find_path_masked_into(
                            grid,
                            win,
                            g,
                            to,
                            &self.lazy_mask,
                            leg,
                        )?,
                        (true, false) => self.window.find_path_into(grid, win, g, to, leg)?,
                        (true, true) => self.window.find_path_masked_into(
                            grid,
                            win,
                            g,
                            to,
                            &self.lazy_mask,
                            leg,
                        )?,
                    };
                    self.stats.expanded += s.expanded;
                    if s.status == Status::Found {
                        break;
                    }
                    self.stats.fallbacks += !fallback as u32;
                }
                if s.status == Status::Found || !masked {
                    break;
                }
            }
        } else {
            let exit = self.cross[j + 1].0;
            // Cross into region j + 1 wherever along the shared border the
            // search reaches first: the heuristic is the octile distance to
            // the nearest cell of the border run, so the crossing follows
            // the path's own direction instead of a fixed point.
            let (lo, hi) = if exit.vertical {
                (exit.start.y, exit.start.y + exit.len - 1)
            } else {
                (exit.start.x, exit.start.x + exit.len - 1)
            };
            let heuristic = |p: Point| {
                let q = if exit.vertical {
                    Point::new(exit.start.x, p.y.clamp(lo, hi))
                } else {
                    Point::new(p.x.clamp(lo, hi), exit.start.y)
                };
                octile_cost(p, q)
            };
            self.goal_bits.clear();
            self.goal_bits.resize(words, 0);
            for k in 0..exit.len {
                let c = if exit.vertical {
                    Point::new(exit.start.x, exit.start.y + k)
                } else {
                    Point::new(exit.start.x + k, exit.start.y)
                };
                if win.contains(c) {
                    let i = ((c.y - win.y) * win.width + (c.x - win.x)) as usize;
                    self.goal_bits[i >> 6] |= 1 << (i & 63);
                }
            }
            let nearest = |p: Point| {
                if exit.vertical {
                    Point::new(exit.start.x, p.y.clamp(lo, hi))
                } else {
                    Point::new(p.x.clamp(lo, hi), exit.start.y)
                }
            };
            for use_mask in [masked, false] {
                let mask = use_mask.then_some(self.lazy_mask.as_slice());
                if let Some((view, table)) = h.weights() {
                    // Under a profile's costs: weighted jump point search
                    // (windowed A* through a lazy leg's corridor), no
                    // fallback, the heuristic priced at the window's
                    // cheapest class and the walk to the cheapest terrain.
                    let lh = h
                        .leg_heuristic(win)
                        .map(|lh| lh.towards((0..exit.len).map(|k| exit.cell(k))));
                    let heuristic = |p: Point| lh.map_or(0, |lh| lh.at(p, nearest(p)));
                    s = match mask {
                        Some(mask) => self.window.find_path_to_any_weighted_into(
                            view,
                            table,
                            win,
                            pr.pos,
                            |p| exit.contains(p),
                            heuristic,
                            Some(mask),
                            &mut self.leg,
                        )?,
                        None => self.jps.find_path_to_any_weighted_into(
                            view,
                            table,
                            win,
                            pr.pos,
                            &self.goal_bits,
                            heuristic,
                            &mut self.leg,
                        )?,
                    };
                    self.stats.expanded += s.expanded;
                    if s.status == Status::Found || !masked {
                        break;
                    }
                    continue;
                }
                for fallback in [false, true] {
                    s = if fallback {
                        self.window.find_path_to_any_into(
                            grid,
                            win,
                            pr.pos,
                            |p| exit.contains(p),
                            heuristic,
                            mask,
                            &mut self.leg,
                        )?
                    } else {
                        self.jps.find_path_to_any_into(
                            grid,
                            win,
                            pr.pos,
                            &self.goal_bits,
                            heuristic,
                            mask,
                            &mut self.leg,
                        )?
                    };
                    self.stats.expanded += s.expanded;
                    if s.status == Status::Found {
                        break;
                    }
                    self.stats.fallbacks += !fallback as u32;
                }
                if s.status == Status::Found || !masked {
                    break;
                }
            }
        }
        if s.status != Status::Found {
            return Err(PlanError::Stale(format!(
                "route regions {}..={} are not connected",
                self.route[pr.at], self.route[j]
            )));
        }
        if self.memo == Memo::Record {
            // A copy: a later leg may start back inside this one and cut
            // its end off `out`.
            let at = self.leg_cells.len() as u32;
            self.leg_cells.extend_from_slice(&self.leg);
            self.legs_done.push(LegMemo {
                cells: (at, self.leg_cells.len() as u32),
                ..memo
            });
        }
        // A lazy leg short of the goal keeps its last cells for the next
        // leg to search again, which straightens the join as a full
        // query's legs starting back do.
        pr.held = !pr.kind.is_whole() && j < last && self.hold_back(h, j);
        let target = *self.leg.last().unwrap_or(&pr.pos);
        self.append_leg(out);
        pr.pos = target;
        pr.at = j;
        if target == pr.goal {
            pr.phase = Phase::Done;
        }
        self.progress = Some(pr);
        Ok(!pr.is_done())
    }

    /// Whether the route is the only one (every block on the block-cut
    /// tree path is a bridge) and crosses each border through a single
    /// pair of cells, the only place where those two regions touch. Every
    /// path from start to goal then steps through exactly those pairs in
    /// order, so it can be refined one region at a time
    /// ([`CellPlanner::refine_regions`]).
    pub(super) fn doorways_only(&self) -> bool {
        self.restrict
            && self.unique_route
            && self.only_crossings
            && self.route.len() >= 2
            && self.cross[1..].iter().all(|c| c.0.len == 1)
    }

    /// Refines a [`CellPlanner::doorways_only`] route region by region: in each
    /// route region, a search confined to the region's bounding box (which
    /// it cannot leave but through the region's own cells: a region is a
    /// connected piece of its sector) from the cell where the route enters
    /// it to the cell where it leaves, then the step across the border.
    /// Searches see only their region's cells instead of a window of up to
    /// four sectors with its dead ends. The path has no repeated cell (so
    /// no loop removal), and when no route region lies on a cycle
    /// ([`crate::derived::blocks::Blocks::tree_like`]) it is optimal (so no
    /// recheck). maze512-1 (every 4th row, all optimal before and after):
    /// 269 µs per query with the window legs, 120 region by region, 113
    /// without the loop removal, 91 without the recheck.
    pub(super) fn refine_regions(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        out: &mut Vec<Point>,
        pr: &mut Progress,
    ) -> Result<(), PlanError> {
        let last = self.route.len() - 1;
        self.stats.by_region = true;
        // Exact when no route region lies on a cycle: then a shortest path
        // between its entry and exit stays inside it.
        self.stats.exact = self.route.iter().all(|&r| h.blocks.tree_like(r));
        let mut from = pr.pos;
        for m in pr.at..=last {
            if m > pr.at {
                from = self.cross[m].1.start;
                out.push(from);
            }
            let to = if m == last {
                pr.goal
            } else {
                self.cross[m + 1].0.start
            };
            if from == to {
                continue;
            }
            let r = &h.regions[self.route[m] as usize];
            let (lo, hi) = (r.min(), r.max());
            let win = Window {
                x: lo.x,
                y: lo.y,
                width: hi.x - lo.x + 1,
                height: hi.y - lo.y + 1,
            };
            let s = self.window_leg(h, grid, win, from, to)?;
            self.stats.expanded += s.expanded;
            if s.status != Status::Found {
                return Err(PlanError::Stale(format!(
                    "region {} does not connect {from} to {to}",
                    self.route[m]
                )));
            }
            self.append_leg(out);
        }
        pr.pos = pr.goal;
        pr.at = last;
        pr.phase = Phase::Done;
        Ok(())
    }

    /// The last route index a leg from route index `at` covers: the longest
    /// stretch whose sectors fit in one window (at least one step).
    ///
    /// The box may grow to two sectors a side when sectors are larger than
    /// half the window (sector 32, chosen only to fit a region-dense map in
    /// its memory budget): with a 60-cell box each leg would cover just two
    /// sectors in a line, and on maze512-1 a 64×64 box cut the query's
    /// instructions by 39% (78 legs and 77 joins per query before).
    ///
    /// `short` (a lazy query's first leg): a box of about half a window a
    /// side (32 cells for the default 60), which may hold the first region's
    /// sector alone: the leg then ends where the route leaves that region.
    pub(super) fn leg_end(&self, h: &Hierarchy, at: usize, short: bool) -> usize {
        let last = self.route.len() - 1;
        let size = if short {
            self.config.window / 2 + 2
        } else {
            self.config.window.max(2 * h.sector_size())
        }
        .min(self.leg_cap);
        let sector = |m: usize| h.sector_rect(h.regions[self.route[m] as usize].sector());
        let mut bbox = sector(at);
        let mut j = at;
        for k in at + 1..=last {
            let b = bbox.union(&sector(k));
            if b.width() > size || b.height() > size {
                break;
            }
            bbox = b;
            j = k;
        }
        if j == at && j < last && !short {
            // Sectors wider than half a window: take one step regardless.
            j += 1;
        }
        j
    }

    /// Bounding box of the sectors of route regions `at..=j`.
    pub(super) fn leg_box(&self, h: &Hierarchy, at: usize, j: usize) -> Rect {
        let sector = |m: usize| h.sector_rect(h.regions[self.route[m] as usize].sector());
        let mut bbox = sector(at);
        for m in at + 1..=j {
            bbox = bbox.union(&sector(m));
        }
        bbox
    }

    /// How far legs overlap to straighten their joins (cells): the join
    /// radius, under a profile whose costs differ the lesser of it and the
    /// weighted one (P83).
    pub(super) fn join_cells(&self, h: &Hierarchy) -> usize {
        let cells = if h.weights().is_some() {
            self.config
                .join_radius
                .min(self.config.weighted_join_radius)
        } else {
            self.config.join_radius
        };
        cells as usize
    }

    pub(super) fn append_leg(&mut self, out: &mut Vec<Point>) {
        out.extend_from_slice(&self.leg[1..]);
        self.stats.legs += 1;
    }
}
