//! Lazy legs: many units, each with its own query value, refined a leg at a
//! time by one planner, so a unit starts walking after its first leg.
//!
//! `cargo run -p regionpath --example lazy_legs`

use regionpath::{read_map, Hierarchy, HierarchyConfig, Planner, Point, Query};

fn main() -> Result<(), regionpath::Error> {
    let grid = read_map(format!(
        "{}/../../maps/rooms-512.map",
        env!("CARGO_MANIFEST_DIR")
    ))?;
    let hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default())?;
    let mut planner = Planner::default();

    // A few units across the map, all heading for one corner.
    let goal = Point::new(500, 500);
    let starts = [Point::new(10, 10), Point::new(480, 20), Point::new(30, 470)];
    let mut units: Vec<(Query, Vec<Point>)> = Vec::new();
    for &s in &starts {
        if !grid.is_passable(s) || !grid.is_passable(goal) {
            continue;
        }
        match planner.start(&hierarchy, &grid, s, goal) {
            Ok(q) => units.push((q, Vec::new())),
            Err(e) if e.is_unreachable() => println!("{s}: cannot reach {goal}"),
            Err(e) => return Err(e),
        }
    }
    // Each "frame", every unit that still needs cells gets one more leg.
    let mut frame = 0;
    while units.iter().any(|(q, _)| !q.is_done()) {
        frame += 1;
        for (q, cells) in &mut units {
            if !q.is_done() {
                planner.next_leg(q, &hierarchy, &grid, cells)?;
            }
        }
    }
    for (q, cells) in &units {
        println!(
            "{} -> {}: {} cells in {} legs over {frame} frames",
            q.start(),
            q.goal(),
            cells.len(),
            q.stats().legs
        );
    }
    Ok(())
}
