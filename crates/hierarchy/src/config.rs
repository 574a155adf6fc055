//! Build settings: [`HierarchyConfig`] and [`PortalMode`].

use crate::ConfigError;

/// Build settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HierarchyConfig {
    /// Side of the square sectors in cells (4..=256). The default, 16, was
    /// chosen by measurement: see `ARCHITECTURE.md`.
    pub sector_size: u32,
    /// Build in parallel with rayon where that pays: sectors are labelled
    /// in parallel on maps with at least 32,768 horizontal runs of passable
    /// cells (region-dense maps: one-cell mazes, random obstacles), the
    /// portal layer on maps of at least 32,768 cells (about 181×181). Below
    /// those, waking the pool cost more than it saved (measured on 2 cores:
    /// see `ARCHITECTURE.md`).
    pub parallel: bool,
    /// Keep the hierarchy within 1 byte per cell: when a build at
    /// `sector_size` is larger (region-dense maps: mazes with one-cell
    /// corridors, dense random obstacles), rebuild with sectors 1.5×, 2×,
    /// 3×, 4×, 8× or 16× as large, then 256, starting at the first size
    /// that bytes falling as 1 / side predict to fit (true of one-cell
    /// mazes and random obstacles; open maps fall faster), and keep the
    /// first that fits (else the smallest). A sample of the sectors is
    /// labelled first: when it estimates `sector_size` at over 1.75 times
    /// the budget, the rest is not labelled at that size. Then, if still
    /// too large, halve the landmarks of the abstract search's heuristic
    /// (8 by default) until it fits. Pieces of a sector with no move out of
    /// it (isolated cells, closed pockets) hold no region, so every map
    /// fits by 256; a hierarchy still over one byte per cell plus 16 KiB
    /// (its fixed part) with no landmarks is refused with
    /// [`crate::HierarchyError::OverBudget`] rather than kept. Larger
    /// sectors mean fewer regions but coarser routes; fewer landmarks a
    /// slower abstract search. Off: the configured size and 8 landmarks,
    /// whatever the bytes.
    pub fit_memory: bool,
    /// Whether to build the exact portal layer (see [`PortalMode`]).
    pub portals: PortalMode,
}

impl Default for HierarchyConfig {
    fn default() -> Self {
        HierarchyConfig {
            sector_size: 16,
            parallel: true,
            fit_memory: true,
            portals: PortalMode::Auto,
        }
    }
}

impl HierarchyConfig {
    /// The default configuration (sector size 16, parallel, within one
    /// byte per cell, portal layer where it pays).
    pub fn new() -> HierarchyConfig {
        HierarchyConfig::default()
    }

    /// Sets [`HierarchyConfig::sector_size`] (4..=256).
    #[must_use]
    pub fn sector_size(mut self, cells: u32) -> Self {
        self.sector_size = cells;
        self
    }

    /// Sets [`HierarchyConfig::parallel`].
    #[must_use]
    pub fn parallel(mut self, yes: bool) -> Self {
        self.parallel = yes;
        self
    }

    /// Sets [`HierarchyConfig::fit_memory`].
    #[must_use]
    pub fn fit_memory(mut self, yes: bool) -> Self {
        self.fit_memory = yes;
        self
    }

    /// Sets [`HierarchyConfig::portals`].
    #[must_use]
    pub fn portals(mut self, mode: PortalMode) -> Self {
        self.portals = mode;
        self
    }

    /// Checks every value against its bounds ([`crate::Hierarchy::build`]
    /// does this first).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(4..=256).contains(&self.sector_size) {
            return Err(ConfigError::new(
                "sector_size",
                self.sector_size,
                "4..=256 cells",
            ));
        }
        Ok(())
    }
}

/// When [`crate::Hierarchy::build`] adds the exact portal layer: for every
/// passable cell on a 16 × 16 sector border with a move out of its sector
/// (a *portal*), the first step of a shortest path to it from each cell of
/// its sector (4 bits a cell) and its exact distances to the sector's other
/// portals. [`crate::CellPlanner::find_path_into`] then answers with an A* over
/// the portals and walks the stored steps: an optimal path, without window
/// searches. It pays where sectors meet through narrow openings (rooms
/// joined by one-cell doors, one-cell mazes); on open ground nearly every
/// border cell is a portal and the region planner is far faster. The
/// layer is not held to [`HierarchyConfig::fit_memory`]'s byte per cell:
/// on 8room_000 it adds about 6 bytes per cell (counted in
/// [`crate::BuildStats::bytes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PortalMode {
    /// Build it when the in-sector portal pairs number at most a quarter
    /// of the passable cells (the default).
    #[default]
    Auto,
    /// Always build it (for measurements; slow on open maps).
    Always,
    /// Never build it.
    Never,
}
