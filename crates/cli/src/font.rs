//! A tiny bitmap font.
