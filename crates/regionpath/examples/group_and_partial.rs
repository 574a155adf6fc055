//! Group and partial paths: a squad of units in one room heading for one
//! far goal shares its planning, and a goal walled off from the squad gets
//! a path to the nearest cell it can reach.
//!
//! `cargo run -p regionpath --example group_and_partial`

use regionpath::{read_map, Config, GroupPlan, Hierarchy, HierarchyConfig, Planner, Point};

fn main() -> Result<(), regionpath::Error> {
    let grid = read_map(format!(
        "{}/../../maps/rooms-512.map",
        env!("CARGO_MANIFEST_DIR")
    ))?;
    let hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default())?;
    let mut planner = Planner::new(Config::new().smooth(true))?;

    // A squad: every open cell of a 10 x 10 square near one corner.
    let squad: Vec<Point> = (20..30)
        .flat_map(|y| (20..30).map(move |x| Point::new(x, y)))
        .filter(|&p| grid.is_passable(p))
        .collect();
    let goal = (0..64)
        .map(|d| Point::new(490 - d, 490))
        .find(|&p| grid.is_passable(p))
        .expect("an open cell near the far corner");
    let mut plan = GroupPlan::new();
    let stats = planner.find_group_paths(&hierarchy, &grid, &squad, goal, &mut plan)?;
    println!(
        "{} units to {goal}: {} full queries, {} joined a shared path, {} planned alone, {} failed",
        stats.units, stats.leaders, stats.joined, stats.independent, stats.failed
    );
    for (unit, path) in squad.iter().zip(plan.iter()).take(3) {
        match path {
            Ok(p) => println!(
                "  {unit}: {} cells, cost {:.1}, {} waypoints",
                p.cells.len(),
                p.cost,
                p.waypoints.len()
            ),
            Err(e) => println!("  {unit}: {e}"),
        }
    }

    // A goal on a wall cell: the path ends at the open cell nearest to it.
    let wall = (0..grid.width())
        .map(|x| Point::new(x, 256))
        .find(|&p| !grid.is_passable(p))
        .expect("a wall cell on row 256");
    let path = planner.find_path_or_nearest(&hierarchy, &grid, squad[0], wall)?;
    println!(
        "to the wall cell {wall}: partial = {}, ends at {:?} after {} cells",
        path.partial,
        path.cells.last(),
        path.cells.len()
    );
    Ok(())
}
