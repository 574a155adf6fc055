//! A world readers plan on while a writer edits it: double-buffered
//! snapshots of a grid and its hierarchy.

use crate::Error;
use regionpath_grid::{Grid, GridError, Point, Terrain};
use regionpath_hierarchy::{BuildStats, Hierarchy};
use std::sync::{Arc, RwLock};

/// One immutable state of a world: a grid and the hierarchy that serves
/// it. Readers hold it behind an `Arc` ([`World::snapshot`]) for as long
/// as they plan on it; it never changes under them.
#[derive(Clone, Debug)]
pub struct Snapshot {
    grid: Grid,
    hierarchy: Hierarchy,
}

impl Snapshot {
    /// The grid of this state.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The hierarchy of this state (it serves [`Snapshot::grid`]).
    pub fn hierarchy(&self) -> &Hierarchy {
        &self.hierarchy
    }
}

/// What one [`World::edit`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct Publish {
    /// Distinct cells the edit changed (or set).
    pub cells: usize,
    /// Whether the next state was made from a copy of the current one
    /// (O(map): the previous state was still held by a reader, or this is
    /// the first edit) rather than from the previous state brought up to
    /// date (O(edits)).
    pub copied: bool,
    /// The hierarchy update of the edit (its time, the new sizes).
    pub update: BuildStats,
}

/// A world shared by reader threads and one writer, **double-buffered**:
/// readers take the current state ([`World::snapshot`], O(1)) and plan on
/// it; the writer's [`World::edit`] prepares the next state on the other
/// buffer and publishes it, so no reader ever sees a state being changed
/// and the writer never waits for a reader.
///
/// The other buffer is the state before the current one: an edit first
/// replays the previous edit on it (the same cells set to the same
/// terrain, then [`Hierarchy::update`]: O(edited sectors), no copy), then
/// applies its own. Only when a reader still holds that older state is the
/// current state copied instead (O(map); [`Publish::copied`] says so).
/// Updates are deterministic, so the replayed buffer reaches the very
/// state (and [`Hierarchy::stamp`]) the other buffer had: a lazy query
/// planned on one state goes on without replanning on the next when the
/// edit is off its route ([`crate::Query::carried_over`]).
///
/// Memory: two grids and two hierarchies once a second state exists.
///
/// ```
/// use regionpath::{Grid, Hierarchy, HierarchyConfig, Planner, Point, World};
///
/// let grid = Grid::new(64, 64, true)?;
/// let hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default())?;
/// let mut world = World::new(grid, hierarchy)?;
/// let mut planner = Planner::default();
/// // A reader (any thread) plans on the current state.
/// let snap = world.snapshot();
/// let path = planner.find_path(snap.hierarchy(), snap.grid(), Point::new(1, 1), Point::new(60, 60))?;
/// assert_eq!(path.cells.last(), Some(&Point::new(60, 60)));
/// // The writer walls off a column but for a door; readers move on when
/// // they next take a snapshot.
/// world.edit(|grid| {
///     for y in 0..64 {
///         grid.set_passable(Point::new(30, y), y == 40)?;
///     }
///     Ok(())
/// })?;
/// let snap = world.snapshot();
/// assert!(!snap.grid().is_passable(Point::new(30, 10)));
/// let path = planner.find_path(snap.hierarchy(), snap.grid(), Point::new(1, 1), Point::new(60, 60))?;
/// assert!(path.cells.contains(&Point::new(30, 40)));
/// # Ok::<(), regionpath::Error>(())
/// ```
#[derive(Debug)]
pub struct World {
    front: Arc<Snapshot>,
    /// Where [`Reader`]s find `front`.
    slot: Arc<RwLock<Arc<Snapshot>>>,
    /// The state before `front`, to be brought up to date by `behind`.
    back: Option<Arc<Snapshot>>,
    /// The cells of the last edit with their terrain after it, in the
    /// order first set.
    behind: Vec<(Point, Terrain)>,
}

impl World {
    /// A world starting at `grid` and the hierarchy built (or loaded) for
    /// it. Fails (an [`Error`]) when the hierarchy is not for this grid
    /// (another size or other cells). O(1) once the grid's checksum is
    /// known.
    pub fn new(grid: Grid, mut hierarchy: Hierarchy) -> Result<World, Error> {
        if !hierarchy.is_current_for(&grid) {
            hierarchy.attach(&grid)?;
        }
        let front = Arc::new(Snapshot { grid, hierarchy });
        Ok(World {
            slot: Arc::new(RwLock::new(Arc::clone(&front))),
            front,
            back: None,
            behind: Vec::new(),
        })
    }

    /// The current state, for a reader to plan on. O(1) (an `Arc` clone);
    /// holding it for long makes the writer's next edit copy the map (see
    /// [`World`]).
    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.front)
    }

    /// A handle for reader threads: [`Reader::snapshot`] gives the state
    /// last published, while this `World` stays with the writer.
    pub fn reader(&self) -> Reader {
        Reader {
            slot: Arc::clone(&self.slot),
        }
    }

    /// Edits the world: `edit` changes cells of the next state's grid
    /// ([`Grid::set_passable`], [`Grid::set_terrain`]); the hierarchy is
    /// updated for them ([`Hierarchy::update`], locally) and the new state
    /// published. Cost: the previous edit replayed plus this one (each
    /// O(edited sectors)), or a copy of the map when a reader still holds
    /// the state before the current one ([`Publish::copied`]).
    ///
    /// Errors: what `edit` returns (a cell off the grid, too many terrain
    /// kinds) or what the update returns; the current state stays
    /// published and unchanged, and the next edit starts from a copy of
    /// it.
    pub fn edit<F>(&mut self, edit: F) -> Result<Publish, Error>
    where
        F: FnOnce(&mut Grid) -> Result<(), GridError>,
    {
        let (mut next, copied) = match self.back.take().map(Arc::try_unwrap) {
            Some(Ok(mut older)) => match replay(&mut older, &self.behind) {
                Ok(()) => (older, false),
                Err(_) => (self.copy()?, true),
            },
            _ => (self.copy()?, true),
        };
        let before = next.grid.revision();
        edit(&mut next.grid)?;
        let mut behind: Vec<(Point, Terrain)> = Vec::new();
        let mut cells: Vec<Point> = Vec::new();
        let journal = next.grid.edits_since(before).map(<[Point]>::to_vec);
        let update = match &journal {
            Some(edited) => {
                cells.extend(edited.iter().copied());
                cells.sort_unstable_by_key(|p| (p.y, p.x));
                cells.dedup();
                for &p in &cells {
                    behind.push((p, next.grid.terrain(p)?));
                }
                next.hierarchy.update(&next.grid, &cells)?
            }
            // More edits than the journal holds: the update finds them
            // by the sectors' digests; the older state is then copied.
            None => next.hierarchy.update(&next.grid, &[])?,
        };
        let next = Arc::new(next);
        *self.slot.write().unwrap_or_else(|e| e.into_inner()) = Arc::clone(&next);
        let older = std::mem::replace(&mut self.front, next);
        if journal.is_some() {
            self.back = Some(older);
            self.behind = behind;
        }
        Ok(Publish {
            cells: cells.len(),
            copied,
            update,
        })
    }

    /// A copy of the current state whose hierarchy serves the copied grid.
    fn copy(&self) -> Result<Snapshot, Error> {
        let mut s = Snapshot::clone(&self.front);
        s.hierarchy.attach(&s.grid)?;
        Ok(s)
    }
}

/// A reader thread's handle on a [`World`] ([`World::reader`]): cheap to
/// clone, `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Reader {
    slot: Arc<RwLock<Arc<Snapshot>>>,
}

impl Reader {
    /// The state last published by [`World::edit`] (or the first one).
    /// O(1): a lock held for one `Arc` clone.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.slot.read().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Brings `older` up to the state after the last edit: the same cells set
/// to the same terrain, then the same update.
fn replay(older: &mut Snapshot, behind: &[(Point, Terrain)]) -> Result<(), Error> {
    for &(p, t) in behind {
        older.grid.set_terrain(p, t)?;
    }
    let cells: Vec<Point> = behind.iter().map(|&(p, _)| p).collect();
    older.hierarchy.update(&older.grid, &cells)?;
    Ok(())
}
