//! A warm directional search allocates nothing: the same queries run twice,
//! the second time with zero allocations (the output vector keeps its
//! capacity).

mod common;

use regionpath_grid::{Grid, Point, Profile, ProfileGrid};
use regionpath_testkit::alloc::{measure_thread, CountingAlloc};
use regionpath_testkit::maps::open_where;
use regionpath_vehicle::*;
use std::sync::Arc;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

#[test]
fn warm_searches_allocate_nothing() {
    let mut rows = vec![String::from(".").repeat(30); 20];
    for (y, row) in rows.iter_mut().enumerate() {
        if y >= 4 {
            row.replace_range(14..16, "@@");
        }
    }
    let grid = Grid::from_rows(&rows).unwrap();
    let mut search =
        DirectionalSearch::new(Arc::new(Steering::new(VehicleSpec::new(2.0, 0.4)).unwrap()));
    let queries = [
        (
            Start::Cell(Point::new(3, 15)),
            Goal::Cell(Point::new(26, 15)),
        ),
        (
            Start::Pose(Pose::new(3.5, 15.5, 3.0)),
            Goal::Pose(Pose::new(26.5, 15.5, 1.5)),
        ),
    ];
    let mut out = Track::new();
    let mut run = |out: &mut Track| {
        let mut found = 0;
        for (start, goal) in queries {
            out.clear();
            let o = search
                .find(&grid, start, goal, &Limits::default(), out)
                .unwrap();
            if matches!(o, Outcome::Found { .. }) {
                found += 1;
            }
        }
        found
    };
    assert_eq!(run(&mut out), 2);
    let (found, usage) = measure_thread(|| run(&mut out));
    assert_eq!(found, 2);
    assert_eq!(usage.allocations, 0);
}

/// The same for the terrain-priced search (`find_weighted`): its cost grid
/// and crossing scratch are kept too.
#[test]
fn warm_priced_searches_allocate_nothing() {
    let mut rows = vec![String::from(".").repeat(30); 20];
    for (y, row) in rows.iter_mut().enumerate() {
        if y >= 4 {
            row.replace_range(14..16, "@@");
        }
        if (8..14).contains(&y) {
            row.replace_range(4..12, "~~~~~~~~");
        }
    }
    let grid = Grid::from_rows(&rows).unwrap();
    let profile = Profile::builder("u")
        .cost('.', 1.0)
        .cost('~', 4.0)
        .build()
        .unwrap();
    let view = ProfileGrid::new(&grid, &profile);
    assert!(!view.is_uniform());
    let mut search =
        DirectionalSearch::new(Arc::new(Steering::new(VehicleSpec::new(2.0, 0.4)).unwrap()));
    let queries = [
        (
            Start::Cell(Point::new(3, 15)),
            Goal::Cell(Point::new(26, 15)),
        ),
        (
            Start::Pose(Pose::new(3.5, 15.5, 3.0)),
            Goal::Pose(Pose::new(26.5, 15.5, 1.5)),
        ),
    ];
    let mut out = Track::new();
    let mut run = |out: &mut Track| {
        let mut found = 0;
        for (start, goal) in queries {
            out.clear();
            let o = search
                .find_weighted(&view, start, goal, &Limits::default(), out)
                .unwrap();
            if matches!(o, Outcome::Found { .. }) {
                found += 1;
            }
        }
        found
    };
    assert_eq!(run(&mut out), 2);
    let (found, usage) = measure_thread(|| run(&mut out));
    assert_eq!(found, 2);
    assert_eq!(usage.allocations, 0);
}

/// The same for the grid-guided searches (`find_guided`,
/// `find_weighted_guided`): the guide's distances and its bucket queue are
/// kept too. Around a wall with its pocket facing the start; the unpriced
/// search runs again with its nodes in the paged store.
#[test]
fn warm_guided_searches_allocate_nothing() {
    let grid = common::pocket_grid();
    let view = ProfileGrid::new(&grid, &Profile::default());
    let mut search =
        DirectionalSearch::new(Arc::new(Steering::new(VehicleSpec::new(2.0, 0.4)).unwrap()));
    let (start, goal) = (
        Start::Cell(Point::new(30, 32)),
        Goal::Pose(Pose::new(80.5, 32.5, 0.0)),
    );
    let mut out = Track::new();
    let mut run = |out: &mut Track| {
        let mut found = 0;
        for (priced, dense_limit) in [(false, DENSE_LIMIT), (true, DENSE_LIMIT), (false, 0)] {
            search.set_dense_limit(dense_limit);
            out.clear();
            let limits = Limits::default();
            let o = if priced {
                search.find_weighted_guided(&view, start, goal, &limits, out)
            } else {
                search.find_guided(&grid, start, goal, &limits, out)
            }
            .unwrap();
            found += usize::from(matches!(o, Outcome::Found { .. }));
        }
        found
    };
    assert_eq!(run(&mut out), 3);
    let (found, usage) = measure_thread(|| run(&mut out));
    assert_eq!(found, 3);
    assert_eq!(usage.allocations, 0);
}

/// The same for the escape search: an open start (escaped) and a start in
/// a one-cell corridor with a right-angled bend (enclosed), their paged
/// nodes kept.
#[test]
fn warm_escapes_allocate_nothing() {
    let grid = open_where(30, 20, |x, y| {
        x >= 12
            || (y == 5 && (1..=8).contains(&x))
            || (x == 8 && (5..=15).contains(&y))
            || (y == 15 && x >= 8)
    });
    let mut search =
        DirectionalSearch::new(Arc::new(Steering::new(VehicleSpec::new(2.0, 0.4)).unwrap()));
    let goal = Goal::Cell(Point::new(28, 15));
    let starts = [
        Start::Cell(Point::new(20, 10)),
        Start::Cell(Point::new(3, 5)),
    ];
    let mut run = || {
        starts.map(|s| {
            let e = search.escape(&grid, s, goal, 8, 0).unwrap();
            matches!(e, Escape::Enclosed { .. })
        })
    };
    assert_eq!(run(), [false, true]);
    let (enclosed, usage) = measure_thread(&mut run);
    assert_eq!(enclosed, [false, true]);
    assert_eq!(usage.allocations, 0);
}
