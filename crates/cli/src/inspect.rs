//! `regionpath inspect`: describes a hierarchy file and checks it.
//!
//! Without `--map` the file is read through
//! [`regionpath::hierarchy::read_file_summary`] (header, CRC, table sizes
//! and ranges). With `--map` it is also loaded for that map
//! ([`Hierarchy::from_bytes`]: a file built for another map is an error)
//! and the figures of the loaded hierarchy (clusters, bytes in memory,
//! portals) are added, with whether `--portals auto` would build the
//! portal layer on that map.

use crate::args::InspectArgs;
use crate::error::{CliError, Outcome};
use crate::input::{load_map, read_bytes};
use crate::out::Out;
use regionpath::hierarchy::{read_file_summary, FileSummary};
use regionpath::Hierarchy;
use serde_json::json;

/// Why the portal layer is there or not, from the file (and the map).
fn portal_reason(s: &FileSummary, pays: Option<bool>) -> &'static str {
    match (s.portal_layer, pays) {
        (true, Some(true)) => "built: it pays on this map (in-sector portal pairs at most a quarter of the passable cells), so --portals auto or always",
        (true, Some(false)) => "built although it does not pay on this map: --portals always",
        (false, Some(true)) => "not built although it pays on this map: --portals never",
        (false, Some(false)) => "not built: it does not pay on this map (open ground), so --portals auto or never",
        (true, None) => "built (--portals auto where it pays, or always; give --map to tell which)",
        (false, None) => "not built (--portals auto where it does not pay, or never; give --map to tell which)",
    }
}

/// Runs `regionpath inspect`.
pub fn run(args: &InspectArgs, out: &mut Out) -> Result<Outcome, CliError> {
    let bytes = read_bytes(&args.file)?;
    let hier_err = |source| CliError::Hierarchy {
        path: args.file.clone(),
        source,
    };
    let s = read_file_summary(&bytes).map_err(hier_err)?;
    let loaded = match &args.map {
        Some(map) => {
            let grid = load_map(map)?;
            let h = Hierarchy::from_bytes(&bytes, &grid).map_err(hier_err)?;
            Some((h.stats(), Hierarchy::portal_layer_pays(&grid)))
        }
        None => None,
    };
    let sectors =
        u64::from(s.width.div_ceil(s.sector_size)) * u64::from(s.height.div_ceil(s.sector_size));
    let reason = portal_reason(&s, loaded.map(|l| l.1));
    if args.json {
        let mut v = json!({
            "status": Outcome::Ok.status(),
            "exit_code": Outcome::Ok.code(),
            "file": args.file.display().to_string(),
            "format_version": s.version,
            "map_checksum": format!("{:#018x}", s.grid_checksum),
            "width": s.width,
            "height": s.height,
            "levels": 1,
            "sector_size": s.sector_size,
            "sectors": sectors,
            "regions": s.regions,
            "edges": s.edges,
            "landmarks": s.landmarks,
            "portal_layer": s.portal_layer,
            "portal_layer_reason": reason,
            "profile": s.profile.as_ref().map(|p| json!({
                "name": p.name(),
                "size": p.size(),
                "costs": p.costs().map(|(t, c)| (t.to_char().to_string(), json!(c))).collect::<serde_json::Map<_, _>>(),
            })),
            "build_ms": s.build_ms,
            "file_bytes": bytes.len(),
            "parts": {
                "header": s.header_bytes,
                "fixed_fields": s.fixed_bytes,
                "regions": s.region_bytes,
                "edges": s.edge_bytes,
                "landmarks": s.landmark_bytes,
                "portal_layer": s.portal_bytes,
                "derived": s.derived_bytes,
            },
        });
        if let (Some((st, _)), Some(map)) = (&loaded, &args.map) {
            v["map"] = json!(map.display().to_string());
            v["matches_map"] = json!(true);
            v["clusters"] = json!(st.clusters);
            v["portals"] = json!(st.portals);
            v["memory_bytes"] = json!(st.bytes);
            v["portal_bytes"] = json!(st.portal_bytes);
            v["memory_bytes_per_cell"] = json!(st.bytes as f64 / st.cells.max(1) as f64);
        }
        out.line(v)?;
        return Ok(Outcome::Ok);
    }
    let cells = u64::from(s.width) * u64::from(s.height);
    out.line(format_args!(
        "{}: regionpath hierarchy, format version {}",
        args.file.display(),
        s.version
    ))?;
    out.line(format_args!(
        "map: {}x{} ({cells} cells), checksum {:#018x}{}",
        s.width,
        s.height,
        s.grid_checksum,
        match &args.map {
            Some(m) => format!(" (matches {})", m.display()),
            None => String::new(),
        }
    ))?;
    out.line(format_args!(
        "levels: 1 (sectors -> regions; the connectivity matrix's clusters above them)"
    ))?;
    out.line(format_args!(
        "sectors: {sectors} of {0}x{0} cells",
        s.sector_size
    ))?;
    out.line(format_args!(
        "regions: {}, edges: {}, landmarks: {}",
        s.regions, s.edges, s.landmarks
    ))?;
    match &loaded {
        Some((st, _)) => out.line(format_args!(
            "clusters: {} (connected pieces of the region graph per super-sector; stored and checked on load)",
            st.clusters
        ))?,
        None => out.line("clusters: stored (give --map to load the file and count them)")?,
    }
    out.line(format_args!("portal layer: {reason}"))?;
    match &s.profile {
        None => out.line("profile: none (the map's own rules)")?,
        Some(p) => {
            let costs: Vec<String> = p
                .costs()
                .map(|(t, c)| format!("{} {c}", t.to_char()))
                .collect();
            out.line(format_args!(
                "profile: `{}`, size {}, costs {} (loads only for this profile)",
                p.name(),
                p.size(),
                costs.join(", ")
            ))?
        }
    }
    if s.build_ms > 0.0 {
        // Older files recorded the build's wall time.
        out.line(format_args!("built in {:.2} ms", s.build_ms))?;
    }
    out.line(format_args!(
        "file: {} bytes = header {} + fixed fields {} + regions {} + edges {} + landmarks {} + portal layer {} + derived tables {}",
        bytes.len(),
        s.header_bytes,
        s.fixed_bytes,
        s.region_bytes,
        s.edge_bytes,
        s.landmark_bytes,
        s.portal_bytes,
        s.derived_bytes
    ))?;
    if let Some((st, _)) = &loaded {
        out.line(format_args!(
            "in memory: {} bytes ({:.3} per cell), portal layer {} bytes ({} portals)",
            st.bytes,
            st.bytes as f64 / st.cells.max(1) as f64,
            st.portal_bytes,
            st.portals
        ))?;
    }
    Ok(Outcome::Ok)
}
