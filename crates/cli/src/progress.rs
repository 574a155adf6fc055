//! Progress bars on stderr (indicatif) for the long steps. Hidden when
//! stderr is not a terminal (indicatif's own check) or with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

/// Maps with at least this many cells get a spinner while they build
/// (about a second or more on one core).
pub const BIG_MAP_CELLS: u64 = 1 << 22;

fn target(hidden: bool) -> ProgressDrawTarget {
    if hidden {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    }
}

/// A bar of `len` steps labelled `what`.
pub fn bar(hidden: bool, len: u64, what: impl Into<String>) -> ProgressBar {
    let b = ProgressBar::with_draw_target(Some(len), target(hidden));
    if let Ok(style) =
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({elapsed}, eta {eta})")
    {
        b.set_style(style.progress_chars("=> "));
    }
    b.set_message(what.into());
    b
}

/// A spinner for a step of unknown length.
pub fn spinner(hidden: bool, what: impl Into<String>) -> ProgressBar {
    let b = ProgressBar::with_draw_target(None, target(hidden));
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        b.set_style(style);
    }
    b.set_message(what.into());
    b.enable_steady_tick(Duration::from_millis(120));
    b
}
