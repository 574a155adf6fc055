//! A vehicle with a turning radius: a cart leaves its depot facing west,
//! must arrive at the dock facing north, and turns only with a radius of 2
//! cells. The fast path's sharp turns are replaced by legal curves where
//! needed; the curve is sampled every quarter cell with 8 sprite angles.
//! Then the cart, parked nose-in at the end of a one-cell loading bay,
//! backs out (`Config::reverse`): the samples give the body's heading and
//! say where it reverses.
//!
//! `cargo run -p regionpath --example vehicle`

use regionpath::{Config, Grid, Hierarchy, HierarchyConfig, Planner, Point, TurnPolicy};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A yard with a wall across it: the cart must go round the wall's end.
    // A loading bay one cell wide leaves the yard's bottom-right corner.
    let mut rows = vec![String::from(".").repeat(40); 24];
    for (y, row) in rows.iter_mut().enumerate() {
        if (4..24).contains(&y) {
            row.replace_range(20..22, "@@");
        }
    }
    rows.push(format!("{}.{}", "@".repeat(35), "@".repeat(4)));
    rows.extend(std::iter::repeat_n(
        format!("{}.{}", "@".repeat(35), "@".repeat(4)),
        7,
    ));
    let grid = Grid::from_rows(&rows)?;
    let hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default())?;
    let cart = Config::new()
        .smooth(true)
        .unit_radius(0.4)
        .turning_radius(2.0)
        .turn_policy(TurnPolicy::Strict)
        .sprite_headings(Some(8));
    let config = cart.start_heading(Some(180.0)).goal_heading(Some(270.0));
    let mut planner = Planner::new(config)?;
    let (depot, dock) = (Point::new(10, 20), Point::new(30, 20));
    let path = planner.find_path(&hierarchy, &grid, depot, dock)?;
    let curve = path.curve.expect("the vehicle mode always returns a curve");
    println!(
        "cells {}, smoothed {:.2}, curve {:.2} cells in {} pieces ({} directional nodes)",
        path.cells.len(),
        path.smoothed_length,
        curve.length(),
        curve.segments().len(),
        planner.vehicle_expansions()
    );
    let mut samples = Vec::new();
    planner.sample_curve(&curve, 0.25, &mut samples);
    for s in samples.iter().step_by(16) {
        println!(
            "  s = {:6.2}: ({:5.2}, {:5.2}) sprite {:5.1}°",
            s.s, s.pos.x, s.pos.y, s.heading_deg
        );
    }
    let last = samples.last().expect("samples");
    println!(
        "arrives at ({:.2}, {:.2}) drawn at {}°",
        last.pos.x, last.pos.y, last.heading_deg
    );

    // Nose-in at the bottom of the bay (facing south, 90°): out into the
    // yard, reversing at twice the cost of driving forwards.
    let mut reversing = Planner::new(cart.start_heading(Some(90.0)).reverse(2.0))?;
    let (bay, yard) = (Point::new(35, 30), Point::new(30, 12));
    let path = reversing.find_path(&hierarchy, &grid, bay, yard)?;
    let curve = path.curve.expect("the vehicle mode always returns a curve");
    reversing.sample_curve(&curve, 0.25, &mut samples);
    let back = samples.iter().filter(|s| s.reverse).count();
    println!(
        "out of the bay: {:.2} cells, {} of {} samples reversing",
        curve.length(),
        back,
        samples.len()
    );
    for s in samples.iter().step_by(12) {
        println!(
            "  s = {:6.2}: ({:5.2}, {:5.2}) body {:5.1}°{}",
            s.s,
            s.pos.x,
            s.pos.y,
            s.heading_deg,
            if s.reverse { " reversing" } else { "" }
        );
    }
    Ok(())
}
