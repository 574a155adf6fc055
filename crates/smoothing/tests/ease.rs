//! `ease_corners`: on random maps the corners that take the radius only
//! grow (checked by `curve`'s own report of blocked turns), the ends stay,
//! every segment stays clear (the exact segment test); a turn just past a
//! door moves out of it. (A warm call allocating nothing: `alloc.rs`.)

mod common;

use common::*;
use regionpath_grid::{Grid, Point};
use regionpath_smoothing::{
    curve, ease_corners, segment_clear, smooth, CurveError, EaseScratch, SmoothOptions,
    TurnOptions, TurnPolicy, Vec2,
};
/// The waypoints of the corners `curve` cannot round (empty when it can),
/// or `None` for another error.
fn blocked(grid: &Grid, w: &[Vec2], opts: &TurnOptions) -> Option<Vec<usize>> {
    match curve(grid, w, opts) {
        Ok(_) => Some(Vec::new()),
        Err(CurveError::TurnBlocked { turns, .. }) => {
            Some(turns.iter().map(|t| t.waypoint).collect())
        }
        Err(_) => None,
    }
}

/// Smoothed paths on random maps, for unit radius `r`.
fn cases(seed: u64, r: f32, count: usize) -> Vec<(Grid, Vec<Vec2>)> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let grid = random_grid(&mut rng, 48, 48, 0.12);
        for _ in 0..8 {
            let (Some(s), Some(t)) = (random_free(&mut rng, &grid), random_free(&mut rng, &grid))
            else {
                continue;
            };
            let Some(cells) = dijkstra(&grid, s, t, &mut rng, 0.5) else {
                continue;
            };
            let Ok(w) = smooth(&grid, &cells, &SmoothOptions::with_radius(r)) else {
                continue;
            };
            if w.len() >= 3 {
                out.push((grid.clone(), w));
            }
        }
    }
    out
}

#[test]
fn eased_corners_only_gain_the_radius() {
    let (mut fixed, mut before_total, mut moved_total) = (0, 0, 0);
    for (big_r, r) in [(2.0f32, 0.4f32), (1.0, 0.0), (4.0, 1.0)] {
        let opts = TurnOptions {
            turning_radius: big_r,
            unit_radius: r,
            policy: TurnPolicy::Strict,
        };
        let mut scratch = EaseScratch::default();
        for (grid, w) in cases(11 + big_r as u64, r, 120) {
            let Some(before) = blocked(&grid, &w, &opts) else {
                continue;
            };
            let mut eased = w.clone();
            let moved = ease_corners(&grid, &mut eased, &opts, &mut scratch);
            assert_eq!(eased.len(), w.len());
            assert_eq!((eased[0], eased[w.len() - 1]), (w[0], w[w.len() - 1]));
            for s in eased.windows(2) {
                assert!(segment_clear(&grid, s[0], s[1], r), "{s:?} r {r}");
            }
            let after = blocked(&grid, &eased, &opts).expect("a curve or blocked turns");
            for k in &after {
                assert!(
                    before.contains(k),
                    "corner {k} lost the radius: {w:?} -> {eased:?}"
                );
            }
            if moved == 0 {
                assert_eq!(eased, w);
            }
            before_total += before.len();
            fixed += before.len() - after.len();
            moved_total += moved;
        }
    }
    // The easing does something on these maps (no figure is promised; a
    // move can also let a neighbour take the radius).
    assert!(fixed > 0 && moved_total > 0, "{fixed} of {before_total}");
}

/// A wall at x = 15 with a one-cell door at y = 10: the path runs through
/// the door and turns 45° just past it, so the arc would begin inside the
/// door and swing into its side. Eased, the corner moves on along the
/// line through the door: the curve runs straight into the door and turns
/// late enough to clear its side.
#[test]
fn a_turn_just_past_a_door_moves_out_of_it() {
    let mut grid = Grid::new(30, 24, true).unwrap();
    for y in 0..24 {
        if y != 10 {
            grid.set_passable(Point::new(15, y), false).unwrap();
        }
    }
    let r = 0.45;
    let mut w = vec![
        Vec2::new(4.5, 10.5),
        Vec2::new(16.3, 10.5),
        Vec2::new(24.5, 18.7),
    ];
    assert!(segment_clear(&grid, w[0], w[1], r) && segment_clear(&grid, w[1], w[2], r));
    let opts = TurnOptions {
        turning_radius: 2.0,
        unit_radius: r,
        policy: TurnPolicy::Strict,
    };
    assert_eq!(blocked(&grid, &w, &opts), Some(vec![1]));
    let moved = ease_corners(&grid, &mut w, &opts, &mut EaseScratch::default());
    assert_eq!(moved, 1);
    assert!(w[1].x > 16.3 && w[1].y == 10.5, "{w:?}");
    let c = curve(&grid, &w, &opts).expect("a curve through the door");
    // Straight into the door: heading 0 before it (x = 13.5) and at its
    // near side (x = 15).
    for s in [9.0f32, 10.5] {
        let (p, h) = c.sample(s);
        assert!(
            (p.y - 10.5).abs() < 1e-5 && h.abs() < 1e-5,
            "{s}: {p:?} {h}"
        );
    }
}
