//! Unit tests of the derived structures on whole built hierarchies: they
//! need the crate's internals and the build, so they live above both.

mod connectivity;
mod landmarks;
