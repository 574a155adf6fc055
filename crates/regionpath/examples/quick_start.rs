//! Quick start: read a map, preprocess it once, plan a smoothed path.
//!
//! `cargo run -p regionpath --example quick_start [MAP]` (default: the
//! bundled `maps/rooms-512.map`).

use regionpath::{read_map, Config, Hierarchy, HierarchyConfig, Planner, Point};

fn main() -> Result<(), regionpath::Error> {
    let map = std::env::args()
        .nth(1)
        .unwrap_or_else(|| bundled("rooms-512.map"));
    let grid = read_map(&map)?;
    // Offline, once per map (or load a saved one: see save_and_load.rs).
    let hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default())?;
    // One planner per thread; settings are checked here, not per query.
    let mut planner = Planner::new(Config::new().smooth(true).unit_radius(0.4))?;

    let (start, goal) = (first_free(&grid, true), first_free(&grid, false));
    match planner.find_path(&hierarchy, &grid, start, goal) {
        Ok(path) => println!(
            "{start} -> {goal}: {} cells, cost {:.2}, {} waypoints, smoothed length {:.2}",
            path.cells.len(),
            path.cost,
            path.waypoints.len(),
            path.smoothed_length
        ),
        // Answered from the connectivity matrix, without a search.
        Err(e) if e.is_unreachable() => println!("{start} -> {goal}: unreachable"),
        Err(e) => return Err(e),
    }
    Ok(())
}

/// The first passable cell from the top-left (or from the bottom-right).
fn first_free(grid: &regionpath::Grid, from_top: bool) -> Point {
    let (w, h) = (grid.width(), grid.height());
    let cells = (0..w * h).map(|i| Point::new(i % w, i / w));
    let mut free = cells.filter(|&p| grid.is_passable(p));
    let found = if from_top {
        free.next()
    } else {
        free.next_back()
    };
    found.unwrap_or(Point::new(0, 0))
}

/// A map shipped in the repository's `maps/` folder.
fn bundled(name: &str) -> String {
    format!("{}/../../maps/{name}", env!("CARGO_MANIFEST_DIR"))
}
