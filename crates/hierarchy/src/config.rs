//! Build settings: [`HierarchyConfig`] and [`PortalMode`].

use crate::ConfigError;

/// Build settings: start from [`HierarchyConfig::new`] (the defaults), set
/// with the builder methods, read with the `get_*` methods;
/// [`crate::Hierarchy::build`] validates them first.
///
/// ```
/// use regionpath_hierarchy::{HierarchyConfig, PortalMode};
///
/// let config = HierarchyConfig::new().sector_size(32).portals(PortalMode::Never);
/// assert_eq!(config.get_sector_size(), 32);
/// assert!(config.get_fit_memory());
/// assert!(HierarchyConfig::new().sector_size(3).validate().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HierarchyConfig {
    /// Side of the square sectors in cells (4..=256). The default, 16, was
    /// chosen by measurement: see `ARCHITECTURE.md`.
    pub(crate) sector_size: u32,
    /// Build in parallel with rayon where that pays: sectors are labelled
    /// in parallel on maps with at least 32,768 horizontal runs of passable
    /// cells (region-dense maps: one-cell mazes, random obstacles), the
    /// portal layer on maps of at least 32,768 cells (about 181×181). Below
    /// those, waking the pool cost more than it saved (measured on 2 cores:
    /// see `ARCHITECTURE.md`). Without the crate's `rayon` feature (on by
    /// default) builds are serial whatever this says.
    pub(crate) parallel: bool,
    /// Keep the hierarchy within its byte budget ([`memory_budget`]: 1 byte
    /// per cell, and never less than [`MIN_BUDGET_BYTES`]): when a build at
    /// `sector_size` is larger (region-dense maps: mazes with one-cell
    /// corridors, dense random obstacles), rebuild with sectors 1.5×, 2×,
    /// 3×, 4×, 8× or 16× as large, then 256, starting at the first size
    /// that bytes falling as 1 / side predict to fit (true of one-cell
    /// mazes and random obstacles; open maps fall faster), and keep the
    /// first that fits (else the smallest). A sample of the sectors is
    /// labelled first: when it estimates `sector_size` at over 1.75 times
    /// the budget, the rest is not labelled at that size. Then, if still
    /// too large, halve the landmarks of the abstract search's heuristic
    /// (8 by default) until it fits; [`crate::Hierarchy::update`] applies
    /// the same landmark rule (the sector size stays). Pieces of a sector with no move out of
    /// it (isolated cells, closed pockets) hold no region, so every map
    /// fits by 256; a hierarchy still over [`memory_budget`] with no
    /// landmarks is refused with
    /// [`crate::HierarchyError::OverBudget`] rather than kept. Larger
    /// sectors mean fewer regions but coarser routes; fewer landmarks a
    /// slower abstract search, and with none the planner's recheck is off. Off: the configured size and 8 landmarks,
    /// whatever the bytes.
    pub(crate) fit_memory: bool,
    /// Whether to build the exact portal layer (see [`PortalMode`]).
    pub(crate) portals: PortalMode,
}

/// The least byte budget of [`HierarchyConfig::fit_memory`], whatever the
/// map's size: 16 KiB. The hierarchy's fixed part alone is about 800 bytes
/// (over one byte per cell on maps under 28 × 28) and a region costs about
/// 85 bytes with its edges and 8 landmarks, so at one byte per cell small
/// maps were pushed to sectors 3× or 4× as large and 0 landmarks, which
/// turns the planner's recheck off: between the arms of a U on a 10 × 68
/// map (48-cell sectors, no landmarks) a path of 94 where the optimum is
/// 42. 16 KiB holds the default sectors and 8 landmarks for small maps of
/// up to about 180 regions, and changes nothing on maps of over 128 × 128
/// cells (of the Moving AI maps, only the 49 × 49 arena).
pub const MIN_BUDGET_BYTES: u64 = 16 * 1024;

/// The byte budget of [`HierarchyConfig::fit_memory`] for a map of `cells`
/// cells: one byte per cell, at least [`MIN_BUDGET_BYTES`]. The build's
/// sector size and landmark count, and [`crate::Hierarchy::update`]'s
/// landmark count, are chosen against it.
pub fn memory_budget(cells: u64) -> u64 {
    cells.max(MIN_BUDGET_BYTES)
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

    /// Sets [`HierarchyConfig::get_sector_size`] (4..=256).
    #[must_use]
    pub fn sector_size(mut self, cells: u32) -> Self {
        self.sector_size = cells;
        self
    }

    /// Sets [`HierarchyConfig::get_parallel`].
    #[must_use]
    pub fn parallel(mut self, yes: bool) -> Self {
        self.parallel = yes;
        self
    }

    /// Sets [`HierarchyConfig::get_fit_memory`].
    #[must_use]
    pub fn fit_memory(mut self, yes: bool) -> Self {
        self.fit_memory = yes;
        self
    }

    /// Sets [`HierarchyConfig::get_portals`].
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

impl HierarchyConfig {
    /// Side of the square sectors in cells (4..=256). The default, 16, was
    /// chosen by measurement: see `ARCHITECTURE.md`.
    pub fn get_sector_size(&self) -> u32 {
        self.sector_size
    }

    /// Build in parallel with rayon where that pays: sectors are labelled
    /// in parallel on maps with at least 32,768 horizontal runs of passable
    /// cells (region-dense maps: one-cell mazes, random obstacles), the
    /// portal layer on maps of at least 32,768 cells (about 181×181). Below
    /// those, waking the pool cost more than it saved (measured on 2 cores:
    /// see `ARCHITECTURE.md`). Without the crate's `rayon` feature (on by
    /// default) builds are serial whatever this says.
    pub fn get_parallel(&self) -> bool {
        self.parallel
    }

    /// Keep the hierarchy within 1 byte per cell: when a build at
    /// `sector_size` is larger (region-dense maps: mazes with one-cell
    /// corridors, dense random obstacles), rebuild with sectors 1.5×, 2×,
    /// 3× or 4× as large (at most 256), starting at the first size that
    /// bytes falling as 1 / side predict to fit (true of one-cell mazes
    /// and random obstacles; open maps fall faster), and keep the first
    /// that fits (else the smallest). A sample of the sectors is labelled
    /// first: when it estimates `sector_size` at over 1.75 times the budget,
    /// the rest is not labelled at that size. Then, if still too large, halve the
    /// landmarks of the abstract search's heuristic (8 by default) until
    /// it fits. Larger sectors mean fewer regions but coarser routes; fewer
    /// landmarks a slower abstract search.
    pub fn get_fit_memory(&self) -> bool {
        self.fit_memory
    }

    /// Whether to build the exact portal layer (see [`PortalMode`]).
    pub fn get_portals(&self) -> PortalMode {
        self.portals
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
/// layer is not held to [`HierarchyConfig::get_fit_memory`]'s byte per cell:
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
