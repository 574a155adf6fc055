//! `regionpath build`: preprocesses a map, prints the hierarchy's stats and
//! optionally writes it as a `.rph` file.

use crate::args::{BuildArgs, PortalChoice};
use crate::error::{CliError, Outcome};
use crate::input::load_map;
use crate::out::Out;
use crate::progress;
use regionpath::{BuildStats, Hierarchy, HierarchyConfig};
use serde_json::json;

/// Whether the portal layer was built, and why, in words.
pub fn portal_reason(choice: PortalChoice, st: &BuildStats) -> &'static str {
    match (choice, st.portal_bytes > 0) {
        (PortalChoice::Always, _) => "built: --portals always",
        (PortalChoice::Never, _) => "not built: --portals never",
        (PortalChoice::Auto, true) => {
            "built: --portals auto, and it pays here (in-sector portal pairs at most a quarter of the passable cells: narrow doors)"
        }
        (PortalChoice::Auto, false) => {
            "not built: --portals auto, and it does not pay here (more in-sector portal pairs than a quarter of the passable cells: open ground; or no move crosses a sector border at all)"
        }
    }
}

fn threads(serial: bool) -> usize {
    if serial {
        1
    } else {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    }
}

/// Runs `regionpath build`.
pub fn run(args: &BuildArgs, out: &mut Out) -> Result<Outcome, CliError> {
    let profile = match &args.profile {
        Some(path) => Some(crate::profile::load(path)?),
        None => None,
    };
    let grid = load_map(&args.map)?;
    let config = HierarchyConfig::new()
        .sector_size(args.sector)
        .parallel(!args.serial)
        .fit_memory(!args.exact_sector)
        .portals(args.portals.mode());
    let spinner = progress::spinner(
        args.quiet || grid.cell_count() < progress::BIG_MAP_CELLS,
        format!(
            "building {} ({}x{})",
            args.map.display(),
            grid.width(),
            grid.height()
        ),
    );
    let built = match &profile {
        Some(p) => Hierarchy::build_with_profile(&grid, p, &config),
        None => Hierarchy::build(&grid, &config),
    };
    spinner.finish_and_clear();
    let h = built.map_err(|source| CliError::Hierarchy {
        path: args.map.clone(),
        source,
    })?;
    let file_bytes = match &args.out {
        Some(path) => {
            let bytes = h.to_bytes();
            std::fs::write(path, &bytes).map_err(|source| CliError::Write {
                path: path.clone(),
                source,
            })?;
            Some(bytes.len())
        }
        None => None,
    };
    let st = h.stats();
    let per_cell = st.bytes as f64 / st.cells.max(1) as f64;
    let portal_reason = portal_reason(args.portals, &st);
    if args.json {
        return out
            .line(json!({
                "status": Outcome::Ok.status(),
                "exit_code": Outcome::Ok.code(),
                "map": args.map.display().to_string(),
                "out": args.out.as_ref().map(|p| p.display().to_string()),
                "width": grid.width(),
                "height": grid.height(),
                "cells": st.cells,
                "sectors": st.sectors,
                "sector_size": st.sector_size,
                "requested_sector_size": args.sector,
                "landmarks": st.landmarks,
                "regions": st.regions,
                "edges": st.edges,
                "clusters": st.clusters,
                "portal_layer": st.portal_bytes > 0,
                "portal_layer_reason": portal_reason,
                "portals": st.portals,
                "portal_bytes": st.portal_bytes,
                "profile_bytes": st.profile_bytes,
                "bytes": st.bytes,
                "bytes_per_cell": per_cell,
                "file_bytes": file_bytes,
                "build_ms": st.build_ms,
                "threads": threads(args.serial),
            }))
            .map(|()| Outcome::Ok);
    }
    out.line(format_args!(
        "{}: {}x{} = {} cells; sector {}{}: {} sectors, {} regions, {} edges, {} clusters, {} landmarks",
        args.map.display(),
        grid.width(),
        grid.height(),
        st.cells,
        st.sector_size,
        if st.sector_size != args.sector {
            format!(" (grown from {} to fit the memory budget)", args.sector)
        } else {
            String::new()
        },
        st.sectors,
        st.regions,
        st.edges,
        st.clusters,
        st.landmarks
    ))?;
    out.line(format_args!(
        "portal layer {portal_reason}{}",
        if st.portal_bytes > 0 {
            format!(
                "; {} portals, {} bytes ({:.3} per cell)",
                st.portals,
                st.portal_bytes,
                st.portal_bytes as f64 / st.cells.max(1) as f64
            )
        } else {
            String::new()
        }
    ))?;
    out.line(format_args!(
        "built in {:.2} ms ({:.1} M cells/s) on {} thread(s); {} bytes in memory ({:.3} per cell)",
        st.build_ms,
        st.cells as f64 / st.build_ms.max(1e-6) / 1e3,
        threads(args.serial),
        st.bytes,
        per_cell,
    ))?;
    match (&args.out, file_bytes) {
        (Some(path), Some(n)) => out.line(format_args!("wrote {} ({n} bytes)", path.display()))?,
        _ => out.line("no file written (give -o FILE.rph to save it)")?,
    }
    Ok(Outcome::Ok)
}
