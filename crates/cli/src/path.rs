//! `regionpath build` and `regionpath path`.

use crate::args::{BuildArgs, PathArgs};
use crate::error::CliError;
use crate::scen::Outcome;
use regionpath::grid::{read_map, Grid, Point};
use regionpath::{Hierarchy, HierarchyConfig, Planner, PlannerOptions};
use serde_json::json;
use std::path::Path;
use std::time::Instant;

fn load_grid(path: &Path) -> Result<Grid, CliError> {
    read_map(path).map_err(|e| CliError::from_map(path.to_path_buf(), e))
}

/// Preprocesses a map and writes the hierarchy file.
pub fn build(args: &BuildArgs) -> Result<(), CliError> {
    let grid = load_grid(&args.map)?;
    let config = HierarchyConfig {
        sector_size: args.sector,
        parallel: !args.serial,
        fit_memory: !args.exact_sector,
        portals: args.portals.mode(),
    };
    let h = Hierarchy::build(&grid, &config).map_err(|source| CliError::Hierarchy {
        path: args.map.clone(),
        source,
    })?;
    h.save_file(&args.out)
        .map_err(|source| CliError::Hierarchy {
            path: args.out.clone(),
            source,
        })?;
    let st = h.stats();
    let file_bytes = std::fs::metadata(&args.out).map(|m| m.len()).unwrap_or(0);
    if args.json {
        let v = json!({
            "map": args.map.display().to_string(),
            "out": args.out.display().to_string(),
            "width": grid.width(),
            "height": grid.height(),
            "cells": st.cells,
            "sectors": st.sectors,
            "sector_size": st.sector_size,
            "landmarks": st.landmarks,
            "regions": st.regions,
            "edges": st.edges,
            "clusters": st.clusters,
            "bytes": st.bytes,
            "bytes_per_cell": st.bytes as f64 / st.cells as f64,
            "file_bytes": file_bytes,
            "build_ms": st.build_ms,
            "threads": if args.serial { 1 } else { rayon_threads() },
        });
        println!("{v}");
    } else {
        println!(
            "{}: {}x{} = {} cells, sector {}: {} sectors, {} regions, {} edges, {} clusters",
            args.map.display(),
            grid.width(),
            grid.height(),
            st.cells,
            st.sector_size,
            st.sectors,
            st.regions,
            st.edges,
            st.clusters
        );
        println!(
            "built in {:.2} ms ({:.0} M cells/s); {} bytes in memory ({:.3} per cell); wrote {} ({} bytes)",
            st.build_ms,
            st.cells as f64 / st.build_ms.max(1e-6) / 1e3,
            st.bytes,
            st.bytes as f64 / st.cells as f64,
            args.out.display(),
            file_bytes
        );
    }
    Ok(())
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Plans one path and prints it.
pub fn path(args: &PathArgs) -> Result<Outcome, CliError> {
    let grid = load_grid(&args.map)?;
    let h = match &args.hierarchy {
        Some(file) => Hierarchy::load_file(file, &grid).map_err(|source| CliError::Hierarchy {
            path: file.clone(),
            source,
        })?,
        None => Hierarchy::build(&grid, &HierarchyConfig::default()).map_err(|source| {
            CliError::Hierarchy {
                path: args.map.clone(),
                source,
            }
        })?,
    };
    let mut planner = Planner::with_options(PlannerOptions {
        smooth: args.smooth,
        unit_radius: args.radius,
        turning_radius: args.turning_radius.unwrap_or(0.0),
        ..PlannerOptions::default()
    });
    let (start, goal) = (
        Point::new(args.from.0, args.from.1),
        Point::new(args.to.0, args.to.1),
    );
    let t = Instant::now();
    let found = planner.find_path(&h, &grid, start, goal);
    let us = t.elapsed().as_secs_f64() * 1e6;
    let path = match found {
        Ok(p) => p,
        Err(e) if e.is_unreachable() => {
            if args.json {
                println!(
                    "{}",
                    json!({"found": false, "reason": e.to_string(), "us": us})
                );
            } else {
                println!("unreachable: {e} (answered in {us:.1} µs without search)");
            }
            return Ok(Outcome::Failures);
        }
        Err(e) => return Err(e.into()),
    };
    if args.json {
        let cells: Vec<[u32; 2]> = path.cells.iter().map(|p| [p.x, p.y]).collect();
        let waypoints: Vec<[f32; 2]> = path.waypoints.iter().map(|w| [w.x, w.y]).collect();
        let v = json!({
            "found": true,
            "cost": path.cost,
            "cells": cells,
            "waypoints": waypoints,
            "smoothed_length": path.smoothed_length,
            "curve_length": path.curve.as_ref().map(|c| c.length()),
            "tightened_turns": path.curve.as_ref().map(|c| c.tightened_turns().iter().map(|t| json!({"waypoint": t.waypoint, "max_legal_radius": t.max_legal_radius})).collect::<Vec<_>>()),
            "legs": path.stats.legs,
            "expanded": path.stats.expanded,
            "us": us,
        });
        println!("{v}");
    } else {
        println!(
            "path {} -> {}: {} cells, cost {:.6}, {} legs, {} cells expanded, {:.1} µs",
            start,
            goal,
            path.cells.len(),
            path.cost,
            path.stats.legs,
            path.stats.expanded,
            us
        );
        let cells: Vec<String> = path
            .cells
            .iter()
            .map(|p| format!("{},{}", p.x, p.y))
            .collect();
        println!("cells: {}", cells.join(" "));
        if args.smooth {
            let w: Vec<String> = path
                .waypoints
                .iter()
                .map(|w| format!("{:.3},{:.3}", w.x, w.y))
                .collect();
            println!(
                "waypoints ({} , length {:.6}): {}",
                path.waypoints.len(),
                path.smoothed_length,
                w.join(" ")
            );
        }
        if let Some(c) = &path.curve {
            println!(
                "curve: {} segments, length {:.4}",
                c.segments().len(),
                c.length()
            );
            for t in c.tightened_turns() {
                println!(
                    "  turn at waypoint {} cannot take the turning radius: tightened to {:.3}",
                    t.waypoint, t.max_legal_radius
                );
            }
        }
    }
    Ok(Outcome::Clean)
}
