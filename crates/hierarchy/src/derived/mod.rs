//! Structures derived from the region graph alone: the connectivity
//! matrix ([`connectivity`]), the landmark heuristic ([`landmarks`]) and the
//! block-cut tree ([`blocks`]); and, from the grid and the region table,
//! the sectors holding sealed cells ([`sealed`]). Each depends only on
//! [`crate::graph`] and [`crate::sector`], never on the build or the query
//! code.

pub(crate) mod blocks;
pub(crate) mod connectivity;
pub(crate) mod landmarks;
pub(crate) mod levels;
pub(crate) mod sealed;

pub(crate) use blocks::Blocks;
pub(crate) use connectivity::Connectivity;
pub(crate) use landmarks::{Landmarks, LANDMARKS};
pub(crate) use sealed::SealedSectors;
