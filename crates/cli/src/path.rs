//! `regionpath path`: plans one path and prints it.

use crate::args::PathArgs;
use crate::error::{CliError, Outcome};
use crate::input::load_map;
use crate::out::Out;
use regionpath::grid::{Grid, Point};
use regionpath::smoothing::TurnPolicy;
use regionpath::{Config, Hierarchy, HierarchyConfig, Planner};
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// The hierarchy of `--hierarchy FILE` (checked against `grid`), or one
/// built in memory with `config`.
pub fn hierarchy_for(
    map: &Path,
    grid: &Grid,
    file: Option<&Path>,
    config: &HierarchyConfig,
) -> Result<Hierarchy, CliError> {
    match file {
        Some(file) => {
            let bytes = crate::input::read_bytes(file)?;
            Hierarchy::from_bytes(&bytes, grid).map_err(|source| CliError::Hierarchy {
                path: file.to_path_buf(),
                source,
            })
        }
        None => Hierarchy::build(grid, config).map_err(|source| CliError::Hierarchy {
            path: map.to_path_buf(),
            source,
        }),
    }
}

/// Runs `regionpath path`.
pub fn run(args: &PathArgs, out: &mut Out) -> Result<Outcome, CliError> {
    let grid = load_map(&args.map)?;
    let config = HierarchyConfig::new().portals(args.portals.mode());
    let h = hierarchy_for(&args.map, &grid, args.hierarchy.as_deref(), &config)?;
    let config = Config::new()
        .smooth(args.smooth)
        .unit_radius(args.radius)
        .turning_radius(args.turning_radius.unwrap_or(0.0))
        .turn_policy(if args.strict_turns {
            TurnPolicy::Strict
        } else {
            TurnPolicy::Tighten
        });
    let mut planner = Planner::new(config).map_err(|source| CliError::Path {
        map: args.map.clone(),
        source,
    })?;
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
                out.line(json!({
                    "status": Outcome::NoPath.status(),
                    "exit_code": Outcome::NoPath.code(),
                    "found": false,
                    "reason": e.to_string(),
                    "us": us,
                }))?;
            } else {
                out.line(format_args!(
                    "unreachable: {e} (answered in {us:.1} µs without search)"
                ))?;
            }
            return Ok(Outcome::NoPath);
        }
        Err(source) => {
            return Err(CliError::Path {
                map: args.map.clone(),
                source,
            })
        }
    };
    let st = &path.stats;
    if args.json {
        let cells: Vec<[u32; 2]> = path.cells.iter().map(|p| [p.x, p.y]).collect();
        let waypoints: Vec<[f32; 2]> = path.waypoints.iter().map(|w| [w.x, w.y]).collect();
        let turns = path.curve.as_ref().map(|c| {
            c.tightened_turns()
                .iter()
                .map(|t| json!({"waypoint": t.waypoint, "max_legal_radius": t.max_legal_radius}))
                .collect::<Vec<_>>()
        });
        out.line(json!({
            "status": Outcome::Ok.status(),
            "exit_code": Outcome::Ok.code(),
            "found": true,
            "cost": path.cost,
            "cells": cells,
            "waypoints": waypoints,
            "smoothed_length": path.smoothed_length,
            "curve_length": path.curve.as_ref().map(|c| c.length()),
            "tightened_turns": turns,
            "legs": st.legs,
            "route_regions": st.route_len,
            "expanded": st.expanded,
            "abstract_expanded": st.abstract_expanded,
            "exact": st.exact,
            "us": us,
        }))?;
        return Ok(Outcome::Ok);
    }
    out.line(format_args!(
        "path {start} -> {goal}: {} cells, cost {:.6}, {:.1} µs",
        path.cells.len(),
        path.cost,
        us
    ))?;
    out.line(format_args!(
        "search: {} legs over a route of {} regions; {} search nodes (jump points or cells) expanded by the leg searches, {} region-graph nodes by the route search{}",
        st.legs,
        st.route_len,
        st.expanded,
        st.abstract_expanded,
        if st.exact { " (exact: optimal)" } else { "" }
    ))?;
    let cells: Vec<String> = path
        .cells
        .iter()
        .map(|p| format!("{},{}", p.x, p.y))
        .collect();
    out.line(format_args!("cells: {}", cells.join(" ")))?;
    if args.smooth {
        let w: Vec<String> = path
            .waypoints
            .iter()
            .map(|w| format!("{:.3},{:.3}", w.x, w.y))
            .collect();
        out.line(format_args!(
            "waypoints ({}, length {:.6}): {}",
            path.waypoints.len(),
            path.smoothed_length,
            w.join(" ")
        ))?;
    }
    if let Some(c) = &path.curve {
        out.line(format_args!(
            "curve: {} segments, length {:.4}",
            c.segments().len(),
            c.length()
        ))?;
        for t in c.tightened_turns() {
            out.line(format_args!(
                "  turn at waypoint {} cannot take the turning radius: tightened to {:.3}",
                t.waypoint, t.max_legal_radius
            ))?;
        }
    }
    Ok(Outcome::Ok)
}
