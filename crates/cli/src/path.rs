//! `regionpath path`: plans one path and prints it.

use crate::args::{PathAlgo, PathArgs};
use crate::error::{CliError, Outcome};
use crate::input::load_map;
use crate::out::Out;
use regionpath::grid::{Grid, Point, Profile, ProfileGrid};
use regionpath::search::{AStar, Status};
use regionpath::smoothing::TurnPolicy;
use regionpath::{Config, Hierarchy, HierarchyConfig, Planner};
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// The hierarchy of `--hierarchy FILE` (checked against `grid`), or one
/// built in memory with `config`; under a movement profile a file must
/// record that profile (else `HierarchyError::WrongProfile`, exit 2), and a
/// build is made with it.
pub fn hierarchy_with(
    map: &Path,
    grid: &Grid,
    file: Option<&Path>,
    config: &HierarchyConfig,
    profile: Option<&Profile>,
) -> Result<Hierarchy, CliError> {
    match file {
        Some(file) => {
            let bytes = crate::input::read_bytes(file)?;
            match profile {
                Some(p) => Hierarchy::from_bytes_with_profile(&bytes, grid, p),
                None => Hierarchy::from_bytes(&bytes, grid),
            }
            .map_err(|source| CliError::Hierarchy {
                path: file.to_path_buf(),
                source,
            })
        }
        None => match profile {
            Some(p) => Hierarchy::build_with_profile(grid, p, config),
            None => Hierarchy::build(grid, config),
        }
        .map_err(|source| CliError::Hierarchy {
            path: map.to_path_buf(),
            source,
        }),
    }
}

/// `path --algo astar`: the exact A* over the whole grid, under `profile`
/// when given (positions, usability and costs by its rules).
fn run_astar(
    args: &PathArgs,
    grid: &Grid,
    profile: Option<&Profile>,
    out: &mut Out,
) -> Result<Outcome, CliError> {
    if args.smooth || args.hierarchy.is_some() {
        return Err(CliError::Usage(
            "`--algo astar` plans cells only: it takes neither --smooth nor --hierarchy".into(),
        ));
    }
    let (start, goal) = (
        Point::new(args.from.0, args.from.1),
        Point::new(args.to.0, args.to.1),
    );
    let view = profile.map(|p| ProfileGrid::new(grid, p));
    if let (Some(view), Some(p)) = (&view, profile) {
        for (which, point) in [("start", start), ("goal", goal)] {
            if !view.is_usable(point) {
                return Err(CliError::Usage(format!(
                    "{which} {point} is not a usable position of {} for profile `{}` \
                     (a cell of its {k}x{k} footprint is off the map or has no cost)",
                    args.map.display(),
                    p.name(),
                    k = p.size()
                )));
            }
        }
    }
    let mut astar = AStar::new();
    let mut cells = Vec::new();
    let t = Instant::now();
    let searched = match &view {
        Some(view) => astar.find_path_weighted_into(view, start, goal, &mut cells),
        None => astar.find_path_into(grid, start, goal, &mut cells),
    };
    let us = t.elapsed().as_secs_f64() * 1e6;
    let stats = searched.map_err(|e| CliError::Usage(format!("{}: {e}", args.map.display())))?;
    let name = profile.map(|p| p.name().to_string());
    if stats.status != Status::Found {
        if args.json {
            out.line(json!({
                "status": Outcome::NoPath.status(),
                "exit_code": Outcome::NoPath.code(),
                "found": false,
                "reason": format!("{goal} cannot be reached from {start}"),
                "profile": name,
                "expanded": stats.expanded,
                "us": us,
            }))?;
        } else {
            out.line(format_args!(
                "unreachable: {goal} cannot be reached from {start} ({} nodes expanded, {us:.1} µs)",
                stats.expanded
            ))?;
        }
        return Ok(Outcome::NoPath);
    }
    if args.json {
        let cells: Vec<[u32; 2]> = cells.iter().map(|p| [p.x, p.y]).collect();
        out.line(json!({
            "status": Outcome::Ok.status(),
            "exit_code": Outcome::Ok.code(),
            "found": true,
            "algo": "astar",
            "profile": name,
            "cost": stats.cost,
            "cells": cells,
            "expanded": stats.expanded,
            "exact": true,
            "us": us,
        }))?;
        return Ok(Outcome::Ok);
    }
    out.line(format_args!(
        "path {start} -> {goal}: {} {}, cost {:.6}{}, {:.1} µs (exact A*, {} nodes expanded)",
        cells.len(),
        if profile.is_some() {
            "positions"
        } else {
            "cells"
        },
        stats.cost,
        name.map(|n| format!(" under profile `{n}`"))
            .unwrap_or_default(),
        us,
        stats.expanded
    ))?;
    let cells: Vec<String> = cells.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
    out.line(format_args!("cells: {}", cells.join(" ")))?;
    Ok(Outcome::Ok)
}

/// Runs `regionpath path`.
pub fn run(args: &PathArgs, out: &mut Out) -> Result<Outcome, CliError> {
    let profile = match &args.profile {
        Some(path) => Some(crate::profile::load(path)?),
        None => None,
    };
    let grid = load_map(&args.map)?;
    if args.algo == PathAlgo::Astar {
        return run_astar(args, &grid, profile.as_ref(), out);
    }
    let config = HierarchyConfig::new().portals(args.portals.mode());
    let h = hierarchy_with(
        &args.map,
        &grid,
        args.hierarchy.as_deref(),
        &config,
        profile.as_ref(),
    )?;
    let big_r = args.turning_radius.unwrap_or(0.0);
    let vehicle = big_r > 0.0 && big_r <= regionpath::MAX_REPAIR_RADIUS && !args.tighten_turns;
    let config = Config::new()
        .smooth(args.smooth || args.turning_radius.is_some())
        .unit_radius(args.radius)
        .turning_radius(big_r)
        .turn_policy(if args.strict_turns || vehicle {
            TurnPolicy::Strict
        } else {
            TurnPolicy::Tighten
        })
        .start_heading(args.heading)
        .goal_heading(args.goal_heading)
        .headings(args.headings.unwrap_or(16))
        .sprite_headings(args.headings);
    let config = if args.reverse {
        config.reverse(args.reverse_penalty)
    } else {
        config
    };
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
            "length": path.curve.as_ref().map(|c| c.length()),
            "pieces": path.curve.as_ref().map(pieces_json),
            "samples": path.curve.as_ref().map(|c| samples_json(&planner, c)),
            "vehicle": vehicle,
            "directional_expanded": planner.vehicle_expansions(),
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
            "curve: {} segments, length {:.4}{}",
            c.segments().len(),
            c.length(),
            if vehicle {
                format!(
                    " (vehicle: legal, {} directional nodes expanded)",
                    planner.vehicle_expansions()
                )
            } else {
                String::new()
            }
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

/// The curve's pieces as JSON: lines with their ends, arcs with centre,
/// radius, start angle and signed sweep (degrees), each with its length;
/// pieces driven backwards also carry `"reverse": true` (their geometry is
/// in travel order, the body facing opposite the motion).
fn pieces_json(c: &regionpath::CurvedPath) -> serde_json::Value {
    c.segments()
        .iter()
        .enumerate()
        .map(|(i, p)| (c.is_reverse(i), p))
        .map(|(rev, p)| {
            let mut v = piece_json(p);
            if rev {
                v["reverse"] = json!(true);
            }
            v
        })
        .collect()
}

/// One piece as JSON.
fn piece_json(p: &regionpath::CurveSegment) -> serde_json::Value {
    match *p {
        regionpath::CurveSegment::Line { from, to } => json!({
            "type": "line",
            "from": [from.x, from.y],
            "to": [to.x, to.y],
            "length": p.length(),
        }),
        regionpath::CurveSegment::Arc {
            center,
            radius,
            start_angle,
            sweep,
        } => json!({
            "type": "arc",
            "center": [center.x, center.y],
            "radius": radius,
            "start_angle": start_angle.to_degrees(),
            "sweep": sweep.to_degrees(),
            "length": p.length(),
        }),
    }
}

/// Samples every 0.25 cells of travel (and the end): `s`, `x`, `y` and
/// `heading` in degrees (0 = +x, 90 = +y; the body's heading, opposite the
/// motion while reversing), rounded to the planner's sprite headings
/// (`--headings`) when given; samples on reverse pieces also carry
/// `"reverse": true`.
fn samples_json(planner: &Planner, c: &regionpath::CurvedPath) -> serde_json::Value {
    let mut samples = Vec::new();
    planner.sample_curve(c, 0.25, &mut samples);
    samples
        .iter()
        .map(|s| {
            let mut v = json!({"s": s.s, "x": s.pos.x, "y": s.pos.y, "heading": s.heading_deg});
            if s.reverse {
                v["reverse"] = json!(true);
            }
            v
        })
        .collect()
}
