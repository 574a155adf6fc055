//! What the binary's end-to-end tests share: the binary, scratch folders
//! and a run that fails the test on a panic.

#![allow(dead_code)] // each test file uses its own part

use std::path::PathBuf;
use std::process::{Command, Output};

/// The `regionpath` binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_regionpath"))
}

/// A fresh scratch folder for one test of one file (`suite`), removed when
/// the test ends well (kept after a failure, to look at).
pub fn scratch(suite: &str, test: &str) -> Scratch {
    let dir =
        std::env::temp_dir().join(format!("regionpath-{suite}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A scratch folder ([`scratch`]): its path, removed on drop unless the
/// thread is panicking.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Runs `cmd`: exit code, stdout, stderr; a panic (exit 101) fails the test.
pub fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().unwrap();
    let code = status.code().unwrap_or(-1);
    let (out, err) = (
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    );
    assert_ne!(code, 101, "the binary panicked:\n{err}");
    (code, out, err)
}
