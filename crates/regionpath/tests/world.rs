//! The double-buffered [`World`]: the older buffer, brought up to date by
//! replaying the last edit, reaches the state a directly updated copy
//! reaches (same cells, regions, links and stamp); paths planned on each
//! snapshot are valid on it (checked against the test kit's Dijkstra);
//! lazy queries carry over from one buffer to the other; readers on other
//! threads plan while the writer edits.

use regionpath::{Error, Grid, Hierarchy, HierarchyConfig, Planner, Point, Snapshot, World};
use regionpath_testkit::{maps, Rng64, SplitMix64 as Rng};
use std::sync::Arc;

fn reachable(grid: &Grid, a: Point, b: Point) -> bool {
    let d = regionpath_testkit::distances(grid, a);
    d[b.y as usize * grid.width() as usize + b.x as usize].is_finite()
}

/// A random rectangle (1 × 1 to 16 × 16) of walls or floor: the cells
/// to set and their passability.
fn random_edit(rng: &mut Rng, w: u32, h: u32) -> Vec<(Point, bool)> {
    let side = if rng.chance(20) {
        16
    } else {
        1 + rng.below(6) as u32
    };
    let (x0, y0) = (rng.below(w as u64) as u32, rng.below(h as u64) as u32);
    let wall = rng.chance(55);
    let mut cells = Vec::new();
    for y in y0..(y0 + side).min(h) {
        for x in x0..(x0 + side).min(w) {
            cells.push((Point::new(x, y), !wall));
        }
    }
    cells
}

/// Every passable cell pair sampled from a snapshot: a path when the
/// oracle reaches the goal (valid, from start to goal), `Unreachable`
/// otherwise.
fn assert_plans_valid(planner: &mut Planner, snap: &Snapshot, rng: &mut Rng, what: &str) {
    let (g, h) = (snap.grid(), snap.hierarchy());
    let cells = regionpath_testkit::passable_cells(g);
    if cells.is_empty() {
        return;
    }
    for _ in 0..3 {
        let s = cells[rng.below(cells.len() as u64) as usize];
        let t = cells[rng.below(cells.len() as u64) as usize];
        match planner.find_path(h, g, s, t) {
            Ok(p) => {
                regionpath_testkit::check_path(g, &p.cells, s, t)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
            }
            Err(Error::Unreachable { .. }) => assert!(!reachable(g, s, t), "{what}: {s} {t}"),
            Err(e) => panic!("{what}: {s} -> {t}: {e}"),
        }
    }
}

#[test]
fn the_older_buffer_replayed_reaches_the_state_of_a_direct_update() {
    let mut rng = Rng(0x5eed_0077);
    let mut planner = Planner::default();
    let (mut edits, mut copies, mut held) = (0, 0, 0);
    for trial in 0..24 {
        let (w, h) = (40 + rng.below(90) as u32, 40 + rng.below(90) as u32);
        let g = maps::rooms(w, h, 4 + rng.below(6) as u32, 60, &mut |n| rng.below(n));
        let config = HierarchyConfig::default().sector_size([8, 16][rng.below(2) as usize]);
        let hierarchy = Hierarchy::build(&g, &config).unwrap();
        // The reference: one grid and hierarchy updated in place.
        let (mut rg, mut rh) = (g.clone(), hierarchy.clone());
        rh.attach(&rg).unwrap();
        let mut world = World::new(g, hierarchy).unwrap();
        // A state a reader holds, and the step after which it was taken.
        let mut keep: Option<(Arc<Snapshot>, usize)> = None;
        for step in 0..16 {
            let what = format!("trial {trial} ({w}x{h}) step {step}");
            let cells = random_edit(&mut rng, w, h);
            // Edit `step` brings the state after step − 2 up to date.
            let holding = keep.as_ref().is_some_and(|&(_, k)| k + 2 == step);
            let publish = world
                .edit(|grid| {
                    for &(p, open) in &cells {
                        grid.set_passable(p, open)?;
                    }
                    Ok(())
                })
                .unwrap();
            // The older buffer is copied exactly when a reader holds it
            // (and for the first edit, when there is none yet).
            if keep.as_ref().is_some_and(|&(_, k)| k + 2 <= step) {
                keep = None;
            }
            assert_eq!(publish.copied, step == 0 || holding, "{what}");
            copies += usize::from(publish.copied);
            held += usize::from(holding);
            // The same cells set (some to the value they had: a stamp
            // tells states apart by the edits that made them).
            for &(p, open) in &cells {
                rg.set_passable(p, open).unwrap();
            }
            let listed: Vec<Point> = cells.iter().map(|&(p, _)| p).collect();
            rh.update(&rg, &listed).unwrap();
            edits += 1;
            let snap = world.snapshot();
            let (sg, sh) = (snap.grid(), snap.hierarchy());
            for y in 0..h {
                for x in 0..w {
                    let p = Point::new(x, y);
                    assert_eq!(sg.is_passable(p), rg.is_passable(p), "{what}: {p}");
                }
            }
            assert_eq!(sh.stamp(), rh.stamp(), "{what}: stamps");
            assert_eq!(sh.lineage(), rh.lineage(), "{what}");
            assert_eq!(sh.regions(), rh.regions(), "{what}: regions");
            assert_eq!(sh.edge_list(), rh.edge_list(), "{what}: links");
            assert!(sh.is_current_for(sg), "{what}");
            assert_plans_valid(&mut planner, &snap, &mut rng, &what);
            // A reader keeps this state over the next two edits, half of
            // the time when none is held.
            if keep.is_none() && rng.chance(50) {
                keep = Some((snap, step));
            }
        }
    }
    eprintln!("{edits} edits, {held} over a held state, {copies} copies");
    assert!(held > edits / 5 && copies < edits / 2);
}

/// A unit walks a lazy query along the top of a 240 × 64 map while the
/// world is edited through the double buffer: blocks in the bottom rows
/// carry the query over (no replanning, though every other state comes
/// from the other buffer); a wall across its way makes it repair once.
/// Every step is legal on the snapshot it was planned on.
#[test]
fn lazy_queries_carry_over_from_one_buffer_to_the_other() {
    let mut g = Grid::new(240, 64, true).unwrap();
    for (x, ys) in [(40, 0..6), (100, 3..12), (160, 0..6)] {
        for y in ys {
            g.set_passable(Point::new(x, y), false).unwrap();
        }
    }
    let h = Hierarchy::build(&g, &HierarchyConfig::new().sector_size(8)).unwrap();
    let mut world = World::new(g, h).unwrap();
    let mut planner = Planner::default();
    let (s, t) = (Point::new(1, 1), Point::new(238, 1));
    let snap = world.snapshot();
    let mut q = planner.start(snap.hierarchy(), snap.grid(), s, t).unwrap();
    let mut walked = vec![s];
    let mut leg = Vec::new();
    let (mut far, mut walled, mut replayed) = (0, false, 0);
    loop {
        let snap = world.snapshot();
        let g = snap.grid();
        leg.clear();
        let more = planner
            .next_leg(&mut q, snap.hierarchy(), g, &mut leg)
            .unwrap();
        for &p in leg.iter().filter(|&&p| p != s) {
            let u = *walked.last().unwrap();
            let (dx, dy) = (p.x as i64 - u.x as i64, p.y as i64 - u.y as i64);
            assert!(
                regionpath_testkit::legal(g, u.x.into(), u.y.into(), dx, dy),
                "illegal step {u} -> {p}"
            );
            walked.push(p);
        }
        drop(snap);
        if !more {
            break;
        }
        let at = *walked.last().unwrap();
        let publish = if at.x < 110 {
            let x = 10 + 20 * far;
            far += 1;
            world.edit(|g| (50..56).try_for_each(|y| g.set_passable(Point::new(x, y), false)))
        } else if !walled && at.x < 205 {
            walled = true;
            world.edit(|g| (0..20).try_for_each(|y| g.set_passable(Point::new(210, y), false)))
        } else {
            continue;
        }
        .unwrap();
        replayed += usize::from(!publish.copied);
    }
    assert_eq!(walked.last(), Some(&t));
    assert!(far >= 2 && walled, "{far} far edits");
    assert!(replayed >= 2, "{replayed} states from the replayed buffer");
    assert_eq!(q.carried_over(), far);
    assert_eq!(q.repairs(), 1);
}

/// Two reader threads plan on whatever state is published while the
/// writer edits 60 times: every path is valid on the snapshot it was
/// planned on; the writer seldom has to copy (readers drop their states
/// between queries).
#[test]
fn readers_on_threads_plan_while_the_writer_edits() {
    let mut rng = Rng(31);
    let g = maps::rooms(96, 96, 6, 60, &mut |n| rng.below(n));
    let h = Hierarchy::build(&g, &HierarchyConfig::default()).unwrap();
    let mut world = World::new(g, h).unwrap();
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let readers: Vec<_> = (0..2u64)
        .map(|k| {
            let (reader, done) = (world.reader(), Arc::clone(&done));
            std::thread::spawn(move || {
                let mut rng = Rng(100 + k);
                let mut planner = Planner::default();
                let mut plans = 0u32;
                while !done.load(std::sync::atomic::Ordering::Relaxed) || plans < 30 {
                    let snap = reader.snapshot();
                    assert_plans_valid(&mut planner, &snap, &mut rng, "reader");
                    plans += 1;
                }
                plans
            })
        })
        .collect();
    for _ in 0..60 {
        let cells = random_edit(&mut rng, 96, 96);
        world
            .edit(|grid| {
                cells
                    .iter()
                    .try_for_each(|&(p, open)| grid.set_passable(p, open))
            })
            .unwrap();
        std::thread::yield_now();
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    for r in readers {
        assert!(r.join().unwrap() >= 30);
    }
}

/// An edit that fails (a cell off the grid) publishes nothing: the
/// current state stays, and the next edit starts from a copy of it.
#[test]
fn a_failed_edit_publishes_nothing() {
    let g = Grid::new(32, 32, true).unwrap();
    let h = Hierarchy::build(&g, &HierarchyConfig::default()).unwrap();
    let mut world = World::new(g, h).unwrap();
    world
        .edit(|g| g.set_passable(Point::new(3, 3), false))
        .unwrap();
    let before = world.snapshot();
    let err = world.edit(|g| {
        g.set_passable(Point::new(5, 5), false)?;
        g.set_passable(Point::new(40, 5), false)
    });
    assert!(matches!(err, Err(Error::Grid { .. })), "{err:?}");
    let after = world.snapshot();
    assert!(Arc::ptr_eq(&before, &after));
    assert!(after.grid().is_passable(Point::new(5, 5)));
    drop((before, after));
    let publish = world
        .edit(|g| g.set_passable(Point::new(6, 6), false))
        .unwrap();
    assert!(publish.copied);
    let snap = world.snapshot();
    assert!(snap.grid().is_passable(Point::new(5, 5)));
    assert!(!snap.grid().is_passable(Point::new(6, 6)));
    assert!(!snap.grid().is_passable(Point::new(3, 3)));
}
