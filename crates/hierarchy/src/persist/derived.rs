//! The derived section of a `.rph` file (format 10; format 8 and 9 also
//! held the quick start's cluster graph): the tables a load would
//! otherwise compute again from the regions and links (component and
//! cluster labels, the abstraction levels, the block-cut tree). Stored so that a load is a read and a few linear
//! checks (`Connectivity::from_parts`, `Levels::check`,
//! `Blocks::from_parts`) instead of a union-find per super-sector size,
//! a pass per level and a depth-first search of the whole graph.

use super::Reader;
use crate::derived::blocks::Blocks;
use crate::derived::connectivity::Connectivity;
use crate::derived::levels::{Level, Levels};
use crate::graph::{Region, RegionGraph, Run};
use crate::sector::Layout;
use crate::{FilePart, HierarchyError};
use fixedbitset::FixedBitSet;
use regionpath_grid::Point;

/// More levels than any map can have (each is four times as wide as the
/// one below, the first four sectors wide).
const MAX_LEVELS: usize = 16;

fn put(p: &mut Vec<u8>, v: u32) {
    p.extend_from_slice(&v.to_le_bytes());
}

fn put_all(p: &mut Vec<u8>, vs: &[u32]) {
    p.reserve(vs.len() * 4);
    for &v in vs {
        put(p, v);
    }
}

/// `bits` as little-endian u32 words, the bits past its length zero.
fn put_bits(p: &mut Vec<u8>, bits: &FixedBitSet) {
    let mut words = vec![0u32; bits.len().div_ceil(32)];
    for i in bits.ones() {
        words[i / 32] |= 1 << (i % 32);
    }
    put_all(p, &words);
}

/// Writes the derived section of a hierarchy whose tables are exact (not
/// loose).
pub(super) fn write(c: &Connectivity, blocks: &Blocks, p: &mut Vec<u8>) {
    put_all(p, &c.component);
    put(p, c.super_size);
    put_all(p, &c.cluster_of_region);
    put(p, c.levels.levels.len() as u32);
    for level in &c.levels.levels {
        put(p, level.side);
        put(p, level.len() as u32);
        put_all(p, &level.parent);
        for q in &level.centre {
            put_all(p, &[q.x, q.y]);
        }
        put_all(p, &level.adj_start);
        put(p, level.adj.len() as u32);
        put_all(p, &level.adj);
        for r in &level.run {
            put_all(p, &[r.start.x, r.start.y, r.len, r.vertical as u32]);
        }
    }
    let (count, home, parent, bridge, tree_like) = blocks.parts();
    put(p, count);
    put(p, parent.len() as u32);
    put_all(p, home);
    put_all(p, parent);
    put_bits(p, bridge);
    put_bits(p, tree_like);
}

/// The derived section as read, lengths checked against the bytes left;
/// the values are checked by [`Stored::into_parts`].
pub(super) struct Stored {
    component: Vec<u32>,
    super_size: u32,
    cluster_of_region: Vec<u32>,
    levels: Levels,
    blocks: u32,
    home: Vec<u32>,
    parent: Vec<u32>,
    bridge: FixedBitSet,
    tree_like: FixedBitSet,
}

fn corrupt(what: &str) -> HierarchyError {
    HierarchyError::Corrupt(format!("derived section: {what}"))
}

impl Reader<'_> {
    fn u32s(&mut self, n: usize) -> Result<Vec<u32>, HierarchyError> {
        let b = self.take(
            n.checked_mul(4)
                .ok_or_else(|| corrupt("a table too large"))?,
        )?;
        Ok(b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    fn bits(&mut self, n: usize) -> Result<FixedBitSet, HierarchyError> {
        let words = self.u32s(n.div_ceil(32))?;
        let mut bits = FixedBitSet::with_capacity(n);
        for (w, &word) in words.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let i = w * 32 + word.trailing_zeros() as usize;
                if i >= n {
                    return Err(corrupt("bits past a set's end"));
                }
                bits.insert(i);
                word &= word - 1;
            }
        }
        Ok(bits)
    }
}

/// Reads the derived section of a file of `n` regions.
pub(super) fn read(r: &mut Reader<'_>, n: usize) -> Result<Stored, HierarchyError> {
    let component = r.u32s(n)?;
    let super_size = r.u32()?;
    let cluster_of_region = r.u32s(n)?;
    let count = r.u32()? as usize;
    if count > MAX_LEVELS {
        return Err(corrupt("too many levels"));
    }
    let mut levels = Vec::with_capacity(count);
    let mut below = n;
    for _ in 0..count {
        let side = r.u32()?;
        let k = r.count(8)?;
        let parent = r.u32s(below)?;
        let centre = r
            .u32s(2 * k)?
            .chunks_exact(2)
            .map(|c| Point::new(c[0], c[1]))
            .collect();
        let adj_start = r.u32s(k + 1)?;
        let m = r.count(20)?;
        let adj = r.u32s(m)?;
        let run = r
            .u32s(4 * m)?
            .chunks_exact(4)
            .map(|c| {
                let vertical = match c[3] {
                    0 => false,
                    1 => true,
                    _ => return Err(corrupt("a run's direction")),
                };
                Ok(Run {
                    start: Point::new(c[0], c[1]),
                    len: c[2],
                    vertical,
                })
            })
            .collect::<Result<_, _>>()?;
        levels.push(Level {
            side,
            parent,
            centre,
            adj_start,
            adj,
            run,
        });
        below = k;
    }
    let blocks = r.u32()?;
    let nodes = r.count(4)?;
    if blocks as usize > nodes {
        return Err(corrupt("more blocks than tree nodes"));
    }
    Ok(Stored {
        component,
        super_size,
        cluster_of_region,
        levels: Levels { levels },
        blocks,
        home: r.u32s(n)?,
        parent: r.u32s(nodes)?,
        bridge: r.bits(blocks as usize)?,
        tree_like: r.bits(n)?,
    })
}

impl Stored {
    /// The connectivity and blocks, checked against the (checked) regions
    /// and their graph: [`HierarchyError::Inconsistent`] naming
    /// [`FilePart::Derived`] where they disagree.
    pub(super) fn into_parts(
        self,
        layout: &Layout,
        regions: &[Region],
        graph: &RegionGraph,
    ) -> Result<(Connectivity, Blocks), HierarchyError> {
        let bad = |reason| HierarchyError::Inconsistent {
            part: FilePart::Derived,
            reason,
        };
        let connectivity = Connectivity::from_parts(
            layout,
            regions,
            graph,
            self.super_size,
            self.component,
            self.cluster_of_region,
            self.levels,
        )
        .map_err(bad)?;
        let blocks = Blocks::from_parts(
            graph,
            self.blocks,
            self.home,
            self.parent,
            self.bridge,
            self.tree_like,
        )
        .map_err(bad)?;
        Ok((connectivity, blocks))
    }
}
