//! The directional search's per-node scratch: dense (one slot per node of
//! the area) up to a limit, paged above it (slots only for the blocks of
//! nodes a search touches).

/// Nodes per page of the paged store (32 cells of a row at 16 headings).
const PAGE_BITS: u32 = 9;
const PAGE: usize = 1 << PAGE_BITS;
/// A block of nodes no page serves yet.
const NO_PAGE: u32 = u32::MAX;

/// Best cost, visit mark, parent and edge per node.
///
/// Dense: slot `n` serves node `n`; the slots are grown to the largest area
/// searched (20 bytes per node). Paged: a table of one entry per block of
/// 512 nodes (4 bytes per block, rewritten per query) points into the same
/// slots, handed out a page at a time as the search touches a block, so
/// the memory follows the nodes touched, not the area. Either way the
/// slots keep their capacity between queries (no allocation once a query
/// of the same size has run) and a mark below the query's stamp means
/// "not seen": a query never clears the slots, it raises the stamp.
#[derive(Debug, Default)]
pub(crate) struct Nodes {
    best: Vec<f64>,
    mark: Vec<u32>,
    parent: Vec<u32>,
    edge: Vec<u32>,
    /// Paged: the page of each block of nodes, or [`NO_PAGE`].
    pages: Vec<u32>,
    paged: bool,
    /// Pages handed out in this query.
    used: usize,
    /// The query's stamp: a node marked `stamp` is open, `stamp + 1`
    /// closed, anything lower unseen.
    pub(crate) stamp: u32,
}

impl Nodes {
    /// Resets the store for a query over `nodes` nodes: dense when
    /// `nodes <= dense_limit`, else paged. O(1) dense once grown;
    /// O(nodes / 512) paged.
    pub(crate) fn reset(&mut self, nodes: usize, dense_limit: usize) {
        self.paged = nodes > dense_limit;
        if self.paged {
            self.pages.clear();
            self.pages.resize(nodes.div_ceil(PAGE), NO_PAGE);
            self.used = 0;
        } else if self.best.len() < nodes {
            self.grow(nodes);
        }
        if self.stamp >= u32::MAX - 4 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 0;
        }
        self.stamp += 2;
    }

    fn grow(&mut self, len: usize) {
        self.best.resize(len, 0.0);
        self.mark.resize(len, 0);
        self.parent.resize(len, u32::MAX);
        self.edge.resize(len, u32::MAX);
    }

    /// The slot of node `n`, if it has one.
    #[inline]
    fn slot(&self, n: u32) -> Option<usize> {
        if !self.paged {
            return Some(n as usize);
        }
        let p = self.pages[(n >> PAGE_BITS) as usize];
        (p != NO_PAGE).then_some(((p as usize) << PAGE_BITS) | (n as usize & (PAGE - 1)))
    }

    /// The slot of node `n`, a page handed out first when its block has
    /// none (the slots grown when the pages in use outgrow them).
    #[inline]
    fn slot_mut(&mut self, n: u32) -> usize {
        if !self.paged {
            return n as usize;
        }
        let block = (n >> PAGE_BITS) as usize;
        let mut p = self.pages[block];
        if p == NO_PAGE {
            p = self.used as u32;
            self.used += 1;
            self.pages[block] = p;
            let need = self.used << PAGE_BITS;
            if self.best.len() < need {
                // `resize` grows the capacity geometrically.
                self.grow(need);
            }
        }
        ((p as usize) << PAGE_BITS) | (n as usize & (PAGE - 1))
    }

    /// The mark of node `n` (0 when it has no slot).
    #[inline]
    pub(crate) fn mark(&self, n: u32) -> u32 {
        self.slot(n).map_or(0, |i| self.mark[i])
    }

    /// Whether node `n` is closed in this query.
    #[inline]
    pub(crate) fn is_closed(&self, n: u32) -> bool {
        self.mark(n) == self.stamp + 1
    }

    /// The best cost of node `n` when it is open or closed in this query.
    #[inline]
    pub(crate) fn best_seen(&self, n: u32) -> Option<f64> {
        let i = self.slot(n)?;
        (self.mark[i] >= self.stamp).then(|| self.best[i])
    }

    /// The cost node `n` was closed with (meaningful for closed nodes).
    #[inline]
    pub(crate) fn best(&self, n: u32) -> f64 {
        self.slot(n).map_or(f64::INFINITY, |i| self.best[i])
    }

    /// Parent of a closed node.
    #[inline]
    pub(crate) fn parent(&self, n: u32) -> u32 {
        self.slot(n).map_or(u32::MAX, |i| self.parent[i])
    }

    /// Edge of a closed node.
    #[inline]
    pub(crate) fn edge(&self, n: u32) -> u32 {
        self.slot(n).map_or(u32::MAX, |i| self.edge[i])
    }

    /// Marks node `n` open with cost `g`.
    #[inline]
    pub(crate) fn open(&mut self, n: u32, g: f64) {
        let i = self.slot_mut(n);
        self.mark[i] = self.stamp;
        self.best[i] = g;
    }

    /// Marks node `n` closed with cost `g`, reached from `parent` by `edge`.
    #[inline]
    pub(crate) fn close(&mut self, n: u32, g: f64, parent: u32, edge: u32) {
        let i = self.slot_mut(n);
        self.mark[i] = self.stamp + 1;
        self.best[i] = g;
        self.parent[i] = parent;
        self.edge[i] = edge;
    }
}
