//! Figures criterion does not keep (path-length ratios, corner cuts, memory,
//! the machine), written as JSON next to criterion's output for
//! `benches/report`.

use std::path::{Path, PathBuf};

/// Criterion's output folder, found the way criterion finds it:
/// `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`, else
/// `<workspace root>/target/criterion`.
pub fn criterion_dir() -> PathBuf {
    if let Some(v) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(v);
    }
    if let Some(v) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(v).join("criterion");
    }
    crate::data::workspace_root()
        .join("target")
        .join("criterion")
}

/// Where benches write their side files: `<criterion dir>/regionpath-side`.
pub fn side_dir() -> PathBuf {
    criterion_dir().join("regionpath-side")
}

/// Writes `value` as pretty JSON to `side_dir()/<name>.json`, creating
/// folders as needed, and returns the path.
pub fn write(name: &str, value: &serde_json::Value) -> std::io::Result<PathBuf> {
    let path = side_dir().join(format!("{name}.json"));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    std::fs::write(&path, text + "\n")?;
    Ok(path)
}

fn first_field(path: &Path, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// The machine the bench runs on: CPU model, logical cores, memory, OS
/// kernel, rustc version.
pub fn machine_info() -> serde_json::Value {
    let cpu = first_field(Path::new("/proc/cpuinfo"), "model name")
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem = first_field(Path::new("/proc/meminfo"), "MemTotal").unwrap_or_default();
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let rustc =
        std::process::Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .arg("-V")
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
    serde_json::json!({
        "cpu": cpu,
        "logical_cores": cores,
        "memory": mem,
        "kernel": kernel,
        "rustc": rustc,
        "profile": "bench (release: opt-level 3, fat LTO, 1 codegen unit)",
    })
}
