//! A living world: a unit walks a lazy path while a door ahead of it
//! closes and another opens. The query repairs itself after the update
//! (the next leg is planned again from where the last one ended), and a
//! unit caught mid-leg behind the new wall is replanned from where it
//! stands. The world is a double-buffered `World`: readers plan on an
//! immutable snapshot while the writer edits the other buffer and
//! publishes it.
//!
//! `cargo run -p regionpath --example living_world`

use regionpath::{Error, Grid, Hierarchy, HierarchyConfig, Planner, Point, World};
use std::collections::VecDeque;

fn main() -> Result<(), Error> {
    // Three rooms side by side; a door at (30, 10) in the first wall,
    // (60, 20) in the second.
    let mut grid = Grid::new(91, 41, true)?;
    for y in 0..41 {
        for x in [30, 60] {
            if (x, y) != (30, 10) && (x, y) != (60, 20) {
                grid.set_passable(Point::new(x, y), false)?;
            }
        }
    }
    let hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default())?;
    let mut world = World::new(grid, hierarchy)?;
    // A reader thread would hold `world.reader()` and call `snapshot()`.
    let mut snap = world.snapshot();

    let mut planner = Planner::default();
    let (start, goal) = (Point::new(2, 12), Point::new(88, 20));
    let mut query = planner.start(snap.hierarchy(), snap.grid(), start, goal)?;
    let mut unit = start;
    let mut ahead: VecDeque<Point> = VecDeque::new();
    let mut leg = Vec::new();
    let mut walked = vec![start];
    let mut door_closed = false;
    while unit != goal {
        if ahead.is_empty() {
            leg.clear();
            planner.next_leg(&mut query, snap.hierarchy(), snap.grid(), &mut leg)?;
            // The first leg starts with the unit's own cell.
            ahead.extend(leg.iter().copied().filter(|&p| p != unit));
        }
        if let Some(next) = ahead.pop_front() {
            unit = next;
            walked.push(unit);
        }
        // Ten cells from the door, it closes and a new one opens at (30, 30).
        if !door_closed && unit.x == 20 {
            door_closed = true;
            world.edit(|grid| {
                grid.set_passable(Point::new(30, 10), false)?;
                grid.set_passable(Point::new(30, 30), true)
            })?; // the hierarchy updated and the next snapshot published
            snap = world.snapshot();
            println!("door (30, 10) closed, (30, 30) opened, unit at {unit}");
            if !query.ahead_is_clear(snap.grid(), unit) {
                planner.replan_from(&mut query, snap.hierarchy(), snap.grid(), unit)?;
                ahead.clear();
                println!("the way ahead is walled off: replanned from {unit}");
            }
        }
    }
    assert!(walked.contains(&Point::new(30, 30)) && !walked.contains(&Point::new(30, 10)));
    println!(
        "arrived at {goal} after {} steps through the new door, {} repair(s)",
        walked.len() - 1,
        query.repairs()
    );
    Ok(())
}
