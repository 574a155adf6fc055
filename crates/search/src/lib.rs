//! Placeholder: filled by its issue.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
