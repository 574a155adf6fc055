//! Batch: many queries on all cores (the default `rayon` feature), each
//! with the planner's settings.
//!
//! `cargo run --release -p regionpath --example batch`

use regionpath::{read_map, read_scen, Config, Hierarchy, HierarchyConfig, Planner};

fn main() -> Result<(), regionpath::Error> {
    let dir = format!("{}/../../maps", env!("CARGO_MANIFEST_DIR"));
    let grid = read_map(format!("{dir}/rooms-512.map"))?;
    let scen = read_scen(format!("{dir}/rooms-512.map.scen"))?;
    let hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default())?;
    let planner = Planner::new(Config::new().smooth(true))?;
    let queries: Vec<_> = scen.rows.iter().map(|r| (r.start, r.goal)).collect();
    let t = std::time::Instant::now();
    let paths = planner.find_paths(&hierarchy, &grid, &queries);
    let found = paths.iter().filter(|p| p.is_ok()).count();
    let cost: f64 = paths.iter().flatten().map(|p| p.cost).sum();
    println!(
        "{found} of {} paths in {:.1} ms on {} threads, total cost {cost:.1}",
        queries.len(),
        t.elapsed().as_secs_f64() * 1e3,
        rayon_threads()
    );
    Ok(())
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
