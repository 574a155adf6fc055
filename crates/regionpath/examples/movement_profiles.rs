//! Infantry, a tank and a boat on one terrain map: one hierarchy per
//! movement profile over the same grid, each answering its own unit's
//! paths (positions its footprint fits, costs of its terrain).
//!
//! `cargo run -p regionpath --example movement_profiles`

use regionpath::{read_map, read_scen, Config, Hierarchy, HierarchyConfig, Planner, Profile};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let grid = read_map(maps.join("terrain/terrain-rooms-512.map"))?;
    let mut planner = Planner::new(Config::new().smooth(true))?;
    for unit in ["infantry", "tank", "boat"] {
        // Costs per terrain character and the unit's size, from TOML.
        let profile = Profile::read(maps.join(format!("profiles/{unit}.toml")))?;
        let hierarchy = Hierarchy::build_with_profile(&grid, &profile, &HierarchyConfig::new())?;
        // Rows whose optimal costs came from the exact search under this
        // profile (`regionpath generate --profile`).
        let scen = read_scen(maps.join(format!("terrain/terrain-rooms-512.{unit}.scen")))?;
        let (mut total, mut optimal) = (0.0, 0.0);
        for row in scen.rows.iter().take(50) {
            let path = planner.find_path(&hierarchy, &grid, row.start, row.goal)?;
            assert_eq!(path.cells.first(), Some(&row.start));
            assert_eq!(path.cells.last(), Some(&row.goal));
            total += path.cost;
            optimal += row.optimal;
        }
        println!(
            "{unit:>8} (size {}): {} regions, 50 paths costing {:.1} against an optimum of {:.1} ({:+.2} %)",
            profile.size(),
            hierarchy.stats().regions,
            total,
            optimal,
            (total / optimal - 1.0) * 100.0
        );
    }
    Ok(())
}
