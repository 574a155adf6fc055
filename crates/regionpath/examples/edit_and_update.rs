//! Edit and update: wall off a corridor, update the hierarchy locally, and
//! see that queries answer for the grid as it is now. A grid edited without
//! an update is refused in O(1) with `Error::StaleGrid`, never answered
//! with a path through the new wall.
//!
//! `cargo run -p regionpath --example edit_and_update`

use regionpath::{Error, Grid, Hierarchy, HierarchyConfig, Planner, Point};

fn main() -> Result<(), Error> {
    // Two rooms joined by a one-cell door at (20, 10).
    let mut grid = Grid::new(41, 21, true)?;
    for y in 0..21 {
        if y != 10 {
            grid.set_passable(Point::new(20, y), false)?;
        }
    }
    let mut hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default())?;
    let mut planner = Planner::default();
    let (a, b) = (Point::new(2, 2), Point::new(38, 18));
    let path = planner.find_path(&hierarchy, &grid, a, b)?;
    println!(
        "door open: {} cells, cost {:.2}",
        path.cells.len(),
        path.cost
    );

    // Close the door.
    let door = Point::new(20, 10);
    grid.set_passable(door, false)?;
    // Not updated yet: refused, not answered wrongly.
    let stale = planner.find_path(&hierarchy, &grid, a, b);
    assert!(matches!(stale, Err(Error::StaleGrid { .. })), "{stale:?}");
    println!("before the update: refused (stale grid)");
    // Rebuilds only the sectors around the changed cell.
    hierarchy.update(&grid, &[door])?;
    let closed = planner.find_path(&hierarchy, &grid, a, b);
    assert!(
        matches!(&closed, Err(e) if e.is_unreachable()),
        "{closed:?}"
    );
    println!("door closed: unreachable");
    Ok(())
}
