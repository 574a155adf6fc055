//! Save and load: preprocess in the asset pipeline, load in the game. The
//! `.rph` file is versioned and checksummed, and refused for another map.
//!
//! `cargo run -p regionpath --example save_and_load`

use regionpath::{read_map, Hierarchy, HierarchyConfig, Planner, Point};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let maps = format!("{}/../../maps", env!("CARGO_MANIFEST_DIR"));
    let grid = read_map(format!("{maps}/rooms-512.map"))?;
    let file = std::env::temp_dir().join(format!("rooms-512-{}.rph", std::process::id()));

    // Asset pipeline: build and save.
    Hierarchy::build(&grid, &HierarchyConfig::default())?.save_file(&file)?;
    // Game: load against the same map (checked by its checksum).
    let hierarchy = Hierarchy::load_file(&file, &grid)?;
    let path =
        Planner::default().find_path(&hierarchy, &grid, Point::new(10, 10), Point::new(400, 300));
    println!(
        "loaded {} bytes: {:?}",
        std::fs::metadata(&file)?.len(),
        path.map(|p| p.cost)
    );

    // Another map: refused with a clear error.
    let other = read_map(format!("{maps}/caves-256.map"))?;
    let refused = Hierarchy::load_file(&file, &other)
        .err()
        .map(regionpath::Error::from);
    assert!(refused.is_some(), "a file for another map must be refused");
    println!(
        "for another map: {}",
        refused.unwrap_or(regionpath::Error::Grid {
            message: String::new()
        })
    );
    std::fs::remove_file(&file)?;
    Ok(())
}
