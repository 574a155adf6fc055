//! A vehicle with a turning radius: a cart leaves its depot facing west,
//! must arrive at the dock facing north, and turns only with a radius of 2
//! cells. The fast path's sharp turns are replaced by legal curves where
//! needed; the curve is sampled every quarter cell with 8 sprite angles.
//!
//! `cargo run -p regionpath --example vehicle`

use regionpath::{
    sample_curve, Config, Grid, Hierarchy, HierarchyConfig, Planner, Point, TurnPolicy,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A yard with a wall across it: the cart must go round the wall's end.
    let mut rows = vec![String::from(".").repeat(40); 24];
    for (y, row) in rows.iter_mut().enumerate() {
        if (4..24).contains(&y) {
            row.replace_range(20..22, "@@");
        }
    }
    let grid = Grid::from_rows(&rows)?;
    let hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default())?;
    let config = Config::new()
        .smooth(true)
        .unit_radius(0.4)
        .turning_radius(2.0)
        .turn_policy(TurnPolicy::Strict)
        .start_heading(Some(180.0))
        .goal_heading(Some(270.0));
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
    sample_curve(&curve, 0.25, Some(8), &mut samples);
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
    Ok(())
}
