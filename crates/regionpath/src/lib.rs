//! regionpath facade.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
pub use regionpath_grid as grid;
