//! Sealed cells through the facade: a passable cell whose piece of its
//! sector has no move out of the sector lies in no region
//! (`Hierarchy::region_of` is `None`). Queries from or to such cells are
//! checked against the test kit's Dijkstra on random maps full of islands:
//! a path exactly when Dijkstra finds one, of the optimal cost, valid
//! (test kit validator), for full and lazy queries; otherwise
//! `Error::Unreachable`, never `Error::Blocked` (the cells are passable).

use regionpath::grid::Point;
use regionpath::{Config, Error, Hierarchy, HierarchyConfig, Planner};
use regionpath_testkit::{check_path, oracle, Rng64, SplitMix64};

#[test]
fn sealed_cells_through_the_facade_match_dijkstra() {
    let mut rng = SplitMix64(0xfacade);
    let mut planner = Planner::new(Config::new().smooth(true)).unwrap();
    let (mut found, mut unreachable) = (0, 0);
    for round in 0..6 {
        let (w, h) = (80 + rng.below(100) as u32, 60 + rng.below(80) as u32);
        let g =
            regionpath_testkit::maps::islands(w, h, [10, 35, 50][round % 3], &mut |n| rng.below(n));
        let config = HierarchyConfig::default().sector_size([8, 16, 32][round % 3]);
        let hierarchy = Hierarchy::build(&g, &config).unwrap();
        let passable: Vec<Point> = (0..h)
            .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
            .filter(|&p| g.is_passable(p))
            .collect();
        let sealed: Vec<Point> = passable
            .iter()
            .copied()
            .filter(|&p| hierarchy.region_of(&g, p).is_none())
            .collect();
        assert!(sealed.len() > 10, "round {round}: {} sealed", sealed.len());
        for k in 0..80 {
            let a = sealed[rng.below(sealed.len() as u64) as usize];
            let b = if k % 2 == 0 {
                let q = Point::new(
                    (a.x + rng.below(7) as u32).saturating_sub(3).min(w - 1),
                    (a.y + rng.below(7) as u32).saturating_sub(3).min(h - 1),
                );
                if !g.is_passable(q) {
                    continue;
                }
                q
            } else {
                passable[rng.below(passable.len() as u64) as usize]
            };
            let (s, t) = if k % 4 < 2 { (a, b) } else { (b, a) };
            let opt = oracle::distances(&g, s)[(t.y * w + t.x) as usize];
            match planner.find_path(&hierarchy, &g, s, t) {
                Ok(path) => {
                    let cost = check_path(&g, &path.cells, s, t)
                        .unwrap_or_else(|e| panic!("{s} -> {t}: {e}"));
                    assert!((cost - opt).abs() < 1e-6, "{s} -> {t}: {cost} vs {opt}");
                    assert!(path.smoothed_length <= cost + 1e-6);
                    found += 1;
                }
                Err(Error::Unreachable { .. }) => {
                    assert!(opt.is_infinite(), "{s} -> {t} is reachable ({opt})");
                    unreachable += 1;
                }
                Err(e) => panic!("{s} -> {t}: {e}"),
            }
            match planner.start(&hierarchy, &g, s, t) {
                Ok(mut q) => {
                    let mut cells = Vec::new();
                    while planner
                        .next_leg(&mut q, &hierarchy, &g, &mut cells)
                        .unwrap()
                    {}
                    let cost = check_path(&g, &cells, s, t)
                        .unwrap_or_else(|e| panic!("lazy {s} -> {t}: {e}"));
                    assert!(
                        (cost - opt).abs() < 1e-6,
                        "lazy {s} -> {t}: {cost} vs {opt}"
                    );
                }
                Err(Error::Unreachable { .. }) => assert!(opt.is_infinite()),
                Err(e) => panic!("lazy {s} -> {t}: {e}"),
            }
        }
    }
    assert!(
        found > 50 && unreachable > 100,
        "{found} found, {unreachable} unreachable"
    );
}
