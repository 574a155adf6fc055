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

/// The source the bench was built from, as far as git tells at run time:
/// the commit checked out and the files changed against it (a bench
/// binary is built just before it runs, so this is its source unless the
/// tree changed in between). `null` fields where git is not available.
pub fn source_info() -> serde_json::Value {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(crate::data::workspace_root())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    // Porcelain lines are `XY path` and the status columns may be spaces,
    // so the output is not trimmed before slicing.
    let changed: Option<Vec<String>> =
        git(&["status", "--porcelain", "--untracked-files=no"]).map(|s| {
            s.lines()
                .filter_map(|l| l.get(3..))
                .map(str::to_string)
                .collect()
        });
    serde_json::json!({
        "commit": git(&["rev-parse", "HEAD"]).map(|s| s.trim().to_string()),
        "subject": git(&["log", "-1", "--format=%s"]).map(|s| s.trim().to_string()),
        "changed_files": changed,
    })
}

/// Seconds since the Unix epoch, now.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The 1-, 5- and 15-minute load averages (`/proc/loadavg`), to show how
/// busy the machine was; empty where unknown.
pub fn loadavg() -> Vec<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| {
            s.split_whitespace()
                .take(3)
                .filter_map(|x| x.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The machine the bench runs on: CPU model, processors and cores listed
/// in `/proc/cpuinfo`, logical cores this process may use, memory, OS
/// kernel, rustc version, the date (Unix seconds) and the load average.
pub fn machine_info() -> serde_json::Value {
    let cpuinfo = Path::new("/proc/cpuinfo");
    let cpu = first_field(cpuinfo, "model name").unwrap_or_else(|| "unknown CPU".into());
    let processors = std::fs::read_to_string(cpuinfo)
        .map(|t| t.lines().filter(|l| l.starts_with("processor")).count())
        .unwrap_or(0);
    let cores_per_socket = first_field(cpuinfo, "cpu cores").and_then(|v| v.parse::<u32>().ok());
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
        "cpuinfo_processors": processors,
        "cpuinfo_cpu_cores": cores_per_socket,
        "logical_cores": cores,
        "date_unix": unix_now(),
        "loadavg": loadavg(),
        "source": source_info(),
        "memory": mem,
        "kernel": kernel,
        "rustc": rustc,
        "profile": "bench (release: opt-level 3, fat LTO, 1 codegen unit)",
    })
}
