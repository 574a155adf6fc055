//! The `.rph` file format.
//!
//! ```text
//! magic        8 bytes  "RPHIER\0\n"
//! version      u32      FORMAT_VERSION
//! payload_len  u64
//! payload_crc  u32      CRC-32 of the payload
//! payload:
//!   grid checksum u64 (format 7: the incremental `Grid::checksum`), width u32, height u32, sector size u32,
//!     build ms f64 (written 0: a file holds no measurement, so the same map and settings give
//!     byte-identical files),
//!   landmark count u32 (format 2)
//!   portal layer u32: 1 when built, else 0 (format 3)
//!   settings it was built with (format 5): sector size u32 (as
//!     configured), fit memory u32 (0 or 1), portal mode u32 (0 auto,
//!     1 always, 2 never), parallel u32 (0 or 1)
//!   movement profile (format 7): u32 0 for the map's own rules, else 1
//!     and the profile: size u32, name length u32 and its UTF-8 bytes
//!     padded with zeros to a multiple of 4, priced kinds count u32, then
//!     per kind its character u32 and cost f64; the grid checksum is then
//!     the map's terrain checksum ([`Grid::terrain_checksum`]), and the
//!     tables describe the profile's positions
//!   region count u32, then per region (format 9: 20 bytes): sector u32,
//!     cells u32, rep x, rep y, min x, min y, max x, max y (u16 each)
//!   edge count u32, then per edge (format 9: 16 bytes): a u32, b u32,
//!     first crossing cell in a (x u16, y u16), cost u16 (1/64 cell, as
//!     the region graph keeps it), step u8 (bits 0–2: the direction from
//!     that cell to b's first crossing cell, its index in `Dir::ALL`; bit
//!     3 set when a and b also touch along another run; bits 4–7 zero),
//!     run length minus one u8
//!   landmarks (format 6): weight shift u32, the landmark count's regions
//!     (u32 each), then per region its distance from each landmark (u16,
//!     65,535 unreached), padded with one zero u16 to a multiple of 4 bytes
//!   portal layer (format 6, when its flag is 1): portal count u32, each
//!     portal's field (128 bytes: 4 bits a cell, the first step towards
//!     it), each portal's 8 landmark distances (u64 each)
//!   derived tables (format 10, see `persist/derived.rs`), u32 each:
//!     per region its component label; the super-sector side; per region
//!     its cluster; the level count, then per
//!     level its side, node count, per node below (region for the first)
//!     its parent, per node its position (x, y), row starts, entry count,
//!     entries and per entry its crossing run (x, y, length, 1 when
//!     vertical); the block count, the block-cut tree's node count, per
//!     region its tree node, per node its parent, the blocks'
//!     bridge bits and the regions' tree-like bits (32 a word)
//! ```
//! All little-endian; every field starts 4-aligned. The landmark distances
//! are stored and checked against the edges (`Landmarks::check`: O(edges ×
//! landmarks) instead of one Dijkstra per landmark); the sealed-sector bits
//! and the sector digests come from the region check's pass over the
//! cells; the portal layer's fields and landmark distances are stored and
//! checked (`Portals::read`: each field a legal, acyclic, shortest-path
//! field, one pass over its cells instead of a sweep); the region graph is
//! rebuilt from the links (a counting sort), and the derived tables
//! (components, clusters, levels, block-cut tree) are stored (format 8)
//! and checked against the graph in one pass each instead of computed
//! again: a load reads and checks, it does not build. A file records its movement profile and loads only for
//! that profile ([`Hierarchy::from_bytes_with_profile`]; a profiled file is
//! refused by [`Hierarchy::from_bytes`] and the other way round:
//! [`HierarchyError::WrongProfile`]); under a profile whose costs differ
//! the links' costs come from the terrain, so they are checked for range
//! only, while the landmark distances are still checked against them.
//! Files of format 9 and earlier are refused with
//! [`HierarchyError::Version`] (rebuild them: a build is at most a few
//! times a load). Every
//! length is checked against the bytes that remain before anything is
//! allocated, and every index is range-checked, so a truncated or corrupted
//! file gives an error, never a panic. A file whose checksum holds is
//! still checked against itself and its grid (`check`: linear in the file)
//! and refused with [`HierarchyError::Inconsistent`] where they disagree.

use crate::graph::{region_graph_of, Link, Region};
use crate::model::Hierarchy;
use crate::portal::Portals;
use crate::sector::Layout;
use crate::{FilePart, HierarchyConfig, HierarchyError, PortalMode};
use regionpath_grid::{Grid, Point, Profile};
use std::io::Write;
use std::path::Path;

mod check;
mod derived;

/// The version of the `.rph` format this build writes and reads.
pub const FORMAT_VERSION: u32 = 10;

/// Bytes of a region record (format 9; 32 before).
const REGION_RECORD: usize = 20;
/// Bytes of an edge record (format 9; 32 before). Records in the links'
/// own units and widths: a third less file for the CRC and the parse to
/// read (caves-16376: 187 → 123 MB), and a record parses without
/// converting a cost.
const EDGE_RECORD: usize = 16;

const MAGIC: &[u8; 8] = b"RPHIER\0\n";
const HEADER: usize = 8 + 4 + 8 + 4;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], HierarchyError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| HierarchyError::Corrupt("unexpected end of data".into()))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, HierarchyError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, HierarchyError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn f64(&mut self) -> Result<f64, HierarchyError> {
        Ok(f64::from_bits(self.u64()?))
    }
    fn count(&mut self, item_bytes: usize) -> Result<usize, HierarchyError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(item_bytes) > self.bytes.len() - self.at {
            return Err(HierarchyError::Corrupt(format!(
                "a count of {n} items exceeds the data left"
            )));
        }
        Ok(n)
    }
}

/// What a `.rph` file says about itself, read without the map it was built
/// for (see [`read_file_summary`]): for tools that describe or check
/// hierarchy files.
#[derive(Clone, Debug, PartialEq)]
pub struct FileSummary {
    /// Format version ([`FORMAT_VERSION`] for files this build reads).
    pub version: u32,
    /// Checksum of the grid the file was built for ([`Grid::checksum`]).
    pub grid_checksum: u64,
    /// Grid width in cells.
    pub width: u32,
    /// Grid height in cells.
    pub height: u32,
    /// Sector side in cells.
    pub sector_size: u32,
    /// Wall time of the build in milliseconds, as recorded: 0 in files
    /// written by this version (a file holds no measurement, so the same
    /// map and settings give byte-identical files).
    pub build_ms: f64,
    /// Landmarks of the abstract search's heuristic (their distances are
    /// stored, format 6).
    pub landmarks: u32,
    /// Whether the exact portal layer was built (stored since format 6).
    pub portal_layer: bool,
    /// The settings it was built with ([`Hierarchy::config`]).
    pub config: HierarchyConfig,
    /// The movement profile it serves (format 7), `None` for the map's own
    /// rules.
    pub profile: Option<Profile>,
    /// Regions.
    pub regions: u32,
    /// Region-graph edges.
    pub edges: u32,
    /// Bytes of the header (magic, version, payload length, CRC).
    pub header_bytes: usize,
    /// Bytes of the payload's fixed fields (checksum, size, sector size,
    /// build time, landmark count, portal flag, settings).
    pub fixed_bytes: usize,
    /// Bytes of the region table (count included).
    pub region_bytes: usize,
    /// Bytes of the edge table (count included).
    pub edge_bytes: usize,
    /// Bytes of the landmark table (shift, landmark regions, distances
    /// and padding).
    pub landmark_bytes: usize,
    /// Bytes of the portal layer (count, fields, landmark distances; 0
    /// without one).
    pub portal_bytes: usize,
    /// Bytes of the derived tables (format 8: components, clusters,
    /// levels, block-cut tree).
    pub derived_bytes: usize,
}

/// Bytes of the landmark distances of `n` regions and `k` landmarks, with
/// the padding to a multiple of 4.
fn landmark_table_bytes(n: usize, k: usize) -> Option<usize> {
    n.checked_mul(k)?
        .checked_mul(2)
        .map(|b| b.next_multiple_of(4))
}

/// Reads the landmark section (format 6) of `n` regions and `k`
/// landmarks: lengths checked against the bytes left before allocating,
/// the padding zero; the values are checked later against the edges.
fn read_landmarks(
    r: &mut Reader<'_>,
    n: usize,
    k: usize,
) -> Result<crate::derived::Landmarks, HierarchyError> {
    let shift = r.u32()?;
    if shift > crate::derived::landmarks::MAX_SHIFT {
        return Err(HierarchyError::Corrupt(format!("landmark shift {shift}")));
    }
    let ids = r.take(k * 4)?;
    let bytes = landmark_table_bytes(n, k)
        .ok_or_else(|| HierarchyError::Corrupt("landmark table too large".into()))?;
    let table = r.take(bytes)?;
    let regions = ids
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let dist: Vec<u16> = table[..n * k * 2]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    if table[n * k * 2..].iter().any(|&b| b != 0) {
        return Err(HierarchyError::Corrupt("landmark padding".into()));
    }
    Ok(crate::derived::Landmarks::from_parts(regions, shift, dist))
}

/// The settings a hierarchy was built with, as stored (format 5).
fn write_config(config: &HierarchyConfig, p: &mut Vec<u8>) {
    let portals = match config.portals {
        PortalMode::Auto => 0u32,
        PortalMode::Always => 1,
        PortalMode::Never => 2,
    };
    for v in [
        config.sector_size,
        config.fit_memory as u32,
        portals,
        config.parallel as u32,
    ] {
        p.extend_from_slice(&v.to_le_bytes());
    }
}

/// Reads what [`write_config`] wrote; a value out of its range is
/// [`HierarchyError::Corrupt`].
fn read_config(r: &mut Reader<'_>) -> Result<HierarchyConfig, HierarchyError> {
    let sector_size = r.u32()?;
    let flag = |v: u32, what: &str| match v {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(HierarchyError::Corrupt(format!("{what} flag {v}"))),
    };
    let fit_memory = flag(r.u32()?, "fit memory")?;
    let portals = match r.u32()? {
        0 => PortalMode::Auto,
        1 => PortalMode::Always,
        2 => PortalMode::Never,
        v => return Err(HierarchyError::Corrupt(format!("portal mode {v}"))),
    };
    let parallel = flag(r.u32()?, "parallel")?;
    let config = HierarchyConfig {
        sector_size,
        parallel,
        fit_memory,
        portals,
    };
    config
        .validate()
        .map_err(|e| HierarchyError::Corrupt(format!("stored settings: {e}")))?;
    Ok(config)
}

/// Writes the movement profile field (see the module's format).
fn write_profile(profile: Option<&Profile>, p: &mut Vec<u8>) {
    let Some(profile) = profile else {
        p.extend_from_slice(&0u32.to_le_bytes());
        return;
    };
    let name = profile.name().as_bytes();
    for v in [1, profile.size(), name.len() as u32] {
        p.extend_from_slice(&v.to_le_bytes());
    }
    p.extend_from_slice(name);
    p.resize(p.len() + (4 - name.len() % 4) % 4, 0);
    p.extend_from_slice(&(profile.costs().count() as u32).to_le_bytes());
    for (t, cost) in profile.costs() {
        p.extend_from_slice(&(t.to_char() as u32).to_le_bytes());
        p.extend_from_slice(&cost.to_le_bytes());
    }
}

/// Reads what [`write_profile`] wrote; a profile that does not validate
/// is [`HierarchyError::Corrupt`].
fn read_profile(r: &mut Reader<'_>) -> Result<Option<Profile>, HierarchyError> {
    let corrupt = |what: String| HierarchyError::Corrupt(format!("stored profile: {what}"));
    match r.u32()? {
        0 => return Ok(None),
        1 => {}
        v => return Err(corrupt(format!("flag {v}"))),
    }
    let size = r.u32()?;
    let len = r.count(1)?;
    let name = std::str::from_utf8(r.take(len)?)
        .map_err(|_| corrupt("name is not UTF-8".into()))?
        .to_owned();
    r.take((4 - len % 4) % 4)?;
    let kinds = r.count(12)?;
    let mut builder = Profile::builder(name).size(size);
    for _ in 0..kinds {
        let c = char::from_u32(r.u32()?).ok_or_else(|| corrupt("a kind is no character".into()))?;
        builder = builder.cost(c, r.f64()?);
    }
    builder
        .build()
        .map(Some)
        .map_err(|e| corrupt(e.to_string()))
}

/// How a profile names itself in [`HierarchyError::WrongProfile`].
fn describe(profile: Option<&Profile>) -> String {
    match profile {
        None => "the map's own rules".into(),
        Some(p) => format!("profile `{}` (size {})", p.name(), p.size()),
    }
}

/// The payload of a `.rph` file after its header checks: the magic, the
/// format version, the payload length and its CRC.
fn checked_payload(bytes: &[u8]) -> Result<&[u8], HierarchyError> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(HierarchyError::BadMagic);
    }
    let mut r = Reader { bytes, at: 8 };
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(HierarchyError::Version {
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let len = r.u64()?;
    let crc = r.u32()?;
    let payload = &bytes[HEADER..];
    if payload.len() as u64 != len {
        return Err(HierarchyError::Corrupt(format!(
            "payload is {} bytes, header says {len} (truncated?)",
            payload.len()
        )));
    }
    if payload_crc(payload) != crc {
        return Err(HierarchyError::Corrupt("checksum mismatch".into()));
    }
    Ok(payload)
}

/// The CRC-32 of a payload; one of at least [`PARALLEL_CRC_BYTES`] in
/// two halves side by side, combined into the same value (11 ms of a
/// 187 MB file's load on one thread in format 8: P86).
fn payload_crc(payload: &[u8]) -> u32 {
    if payload.len() < PARALLEL_CRC_BYTES {
        return crc32fast::hash(payload);
    }
    let (a, b) = payload.split_at(payload.len() / 2);
    let crc = |half: &[u8]| {
        let mut h = crc32fast::Hasher::new();
        h.update(half);
        h
    };
    let (mut first, second) = crate::par::join(true, || crc(a), || crc(b));
    first.combine(&second);
    first.finalize()
}

/// Payloads from this size have their CRC computed in two halves.
const PARALLEL_CRC_BYTES: usize = 8 << 20;

/// Reads the summary of a `.rph` file without its grid: checks the magic,
/// the version, the payload length and CRC, the fixed fields' ranges, that
/// the region and edge tables fill the payload exactly, that regions come
/// in sector order within the sector count and that every edge joins two
/// distinct regions (`a < b < regions`). A file that passes can still be
/// stale (built for another grid): [`Hierarchy::from_bytes`] checks that.
pub fn read_file_summary(bytes: &[u8]) -> Result<FileSummary, HierarchyError> {
    let payload = checked_payload(bytes)?;
    let mut r = Reader {
        bytes: payload,
        at: 0,
    };
    let grid_checksum = r.u64()?;
    let (width, height, sector_size) = (r.u32()?, r.u32()?, r.u32()?);
    let build_ms = r.f64()?;
    let landmarks = r.u32()?;
    if landmarks as usize > crate::derived::landmarks::LANDMARKS {
        return Err(HierarchyError::Corrupt(format!(
            "landmark count {landmarks}"
        )));
    }
    let portal_layer = match r.u32()? {
        0 => false,
        1 => true,
        v => return Err(HierarchyError::Corrupt(format!("portal layer flag {v}"))),
    };
    let config = read_config(&mut r)?;
    let profile = read_profile(&mut r)?;
    if !(4..=256).contains(&sector_size) {
        return Err(HierarchyError::Corrupt(format!(
            "sector size {sector_size}"
        )));
    }
    if width == 0 || height == 0 {
        return Err(HierarchyError::Corrupt(format!(
            "grid size {width}x{height}"
        )));
    }
    let fixed_bytes = r.at;
    let sectors = Layout::new(width, height, sector_size).count() as u64;
    let n = r.count(REGION_RECORD)?;
    let mut last_sector = 0u32;
    for i in 0..n {
        let sector = r.u32()?;
        r.take(REGION_RECORD - 4)?;
        if u64::from(sector) >= sectors || sector < last_sector {
            return Err(HierarchyError::Corrupt(format!("region {i} is invalid")));
        }
        last_sector = sector;
    }
    let region_bytes = r.at - fixed_bytes;
    let m = r.count(EDGE_RECORD)?;
    for i in 0..m {
        let (a, b) = (r.u32()?, r.u32()?);
        r.take(EDGE_RECORD - 8)?;
        if a >= b || b as usize >= n {
            return Err(HierarchyError::Corrupt(format!("edge {i} is invalid")));
        }
    }
    let edges_end = r.at;
    read_landmarks(&mut r, n, landmarks as usize)?;
    let landmarks_end = r.at;
    if portal_layer {
        let count = r.count(Portals::STORED_BYTES)?;
        r.take(count * Portals::STORED_BYTES)?;
    }
    let portals_end = r.at;
    derived::read(&mut r, n)?;
    if r.at != payload.len() {
        return Err(HierarchyError::Corrupt("trailing bytes".into()));
    }
    Ok(FileSummary {
        version: FORMAT_VERSION,
        grid_checksum,
        width,
        height,
        sector_size,
        build_ms,
        landmarks,
        portal_layer,
        config,
        profile,
        regions: n as u32,
        edges: m as u32,
        header_bytes: HEADER,
        fixed_bytes,
        region_bytes,
        edge_bytes: edges_end - fixed_bytes - region_bytes,
        landmark_bytes: landmarks_end - edges_end,
        portal_bytes: portals_end - landmarks_end,
        derived_bytes: r.at - portals_end,
    })
}

impl Hierarchy {
    /// Serialises to the versioned `.rph` format. A hierarchy left loose
    /// by local updates ([`Hierarchy::is_loose`]) is written as its
    /// [`Hierarchy::refresh`] would be (on a copy: O(a refresh)).
    pub fn to_bytes(&self) -> Vec<u8> {
        if self.loose {
            let mut whole = self.clone();
            whole.refresh();
            whole.build_ms = self.build_ms;
            return whole.to_bytes();
        }
        let mut edges = Vec::new();
        self.each_edge(|a, b, l| edges.push((a, b, *l)));
        let mut p = Vec::with_capacity(
            100 + self.regions.len() * (REGION_RECORD + 2 * self.landmarks.count())
                + edges.len() * EDGE_RECORD,
        );
        p.extend_from_slice(&self.grid_checksum.to_le_bytes());
        for v in [self.layout.width, self.layout.height, self.layout.size] {
            p.extend_from_slice(&v.to_le_bytes());
        }
        // No measurement in the file: byte-identical files for the same
        // map and settings.
        p.extend_from_slice(&0f64.to_le_bytes());
        p.extend_from_slice(&(self.landmarks.count() as u32).to_le_bytes());
        p.extend_from_slice(&(self.portals.is_some() as u32).to_le_bytes());
        write_config(&self.config, &mut p);
        write_profile(self.profile(), &mut p);
        p.extend_from_slice(&(self.regions.len() as u32).to_le_bytes());
        for r in &self.regions {
            p.extend_from_slice(&r.sector().to_le_bytes());
            p.extend_from_slice(&r.cells().to_le_bytes());
            let (rep, min, max) = (r.representative(), r.min(), r.max());
            for v in [rep.x, rep.y, min.x, min.y, max.x, max.y] {
                // Cells of a map of at most `MAX_DIMENSION` (65,535) a side.
                p.extend_from_slice(&(v as u16).to_le_bytes());
            }
        }
        p.extend_from_slice(&(edges.len() as u32).to_le_bytes());
        for (a, b, l) in &edges {
            p.extend_from_slice(&a.to_le_bytes());
            p.extend_from_slice(&b.to_le_bytes());
            let (cost, from, step, len_m1) = l.stored();
            p.extend_from_slice(&(from.x as u16).to_le_bytes());
            p.extend_from_slice(&(from.y as u16).to_le_bytes());
            p.extend_from_slice(&cost.to_le_bytes());
            p.extend_from_slice(&[step, len_m1]);
        }
        let (ids, shift, dist) = self.landmarks.parts();
        p.extend_from_slice(&shift.to_le_bytes());
        for id in ids {
            p.extend_from_slice(&id.to_le_bytes());
        }
        for d in dist {
            p.extend_from_slice(&d.to_le_bytes());
        }
        if dist.len() % 2 == 1 {
            p.extend_from_slice(&[0, 0]);
        }
        if let Some(portals) = &self.portals {
            portals.write(&mut p);
        }
        derived::write(&self.connectivity, &self.blocks, &mut p);
        let mut out = Vec::with_capacity(HEADER + p.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(p.len() as u64).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&p).to_le_bytes());
        out.extend_from_slice(&p);
        out
    }

    /// Writes the `.rph` format to `w`.
    pub fn save(&self, w: &mut impl Write) -> Result<(), HierarchyError> {
        w.write_all(&self.to_bytes())?;
        Ok(())
    }

    /// Writes the `.rph` format to a file.
    pub fn save_file(&self, path: impl AsRef<Path>) -> Result<(), HierarchyError> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
        self.save(&mut f)?;
        f.flush()?;
        Ok(())
    }

    /// Reads a hierarchy file for `grid`; rejects files of another format
    /// version, files built for another grid or under a movement profile,
    /// and damaged files.
    pub fn load_file(path: impl AsRef<Path>, grid: &Grid) -> Result<Hierarchy, HierarchyError> {
        let bytes = std::fs::read(path)?;
        Hierarchy::from_bytes(&bytes, grid)
    }

    /// Reads a hierarchy file built with
    /// [`Hierarchy::build_with_profile`] for `grid` and `profile`; a file
    /// of another profile (name, size or costs) or of none is
    /// [`HierarchyError::WrongProfile`].
    pub fn load_file_with_profile(
        path: impl AsRef<Path>,
        grid: &Grid,
        profile: &Profile,
    ) -> Result<Hierarchy, HierarchyError> {
        let bytes = std::fs::read(path)?;
        Hierarchy::from_bytes_with_profile(&bytes, grid, profile)
    }

    /// Parses the `.rph` format for `grid` (a file built with
    /// [`Hierarchy::build`]: one built under a profile is refused with
    /// [`HierarchyError::WrongProfile`]).
    pub fn from_bytes(bytes: &[u8], grid: &Grid) -> Result<Hierarchy, HierarchyError> {
        Hierarchy::read(bytes, grid, None)
    }

    /// Parses the `.rph` format of a hierarchy built with
    /// [`Hierarchy::build_with_profile`] for `grid` and `profile`: the file
    /// must record that profile (else [`HierarchyError::WrongProfile`]) and
    /// the map's terrain (else [`HierarchyError::WrongGrid`]). Costs the
    /// profile's view of the grid ([`regionpath_grid::ProfileGrid::new`])
    /// besides the checks of [`Hierarchy::from_bytes`].
    ///
    /// ```
    /// use regionpath_grid::{Grid, Profile};
    /// use regionpath_hierarchy::{Hierarchy, HierarchyConfig, HierarchyError};
    ///
    /// let grid = Grid::from_rows(&["....SS..", "..@@SS..", "........"])?;
    /// let walker = Profile::builder("walker").cost('.', 1.0).cost('S', 3.0).build()?;
    /// let h = Hierarchy::build_with_profile(&grid, &walker, &HierarchyConfig::new())?;
    /// let bytes = h.to_bytes();
    /// assert!(Hierarchy::from_bytes_with_profile(&bytes, &grid, &walker).is_ok());
    /// let runner = Profile::builder("walker").cost('.', 1.0).cost('S', 2.0).build()?;
    /// assert!(matches!(
    ///     Hierarchy::from_bytes_with_profile(&bytes, &grid, &runner),
    ///     Err(HierarchyError::WrongProfile { .. })
    /// ));
    /// assert!(matches!(Hierarchy::from_bytes(&bytes, &grid), Err(HierarchyError::WrongProfile { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bytes_with_profile(
        bytes: &[u8],
        grid: &Grid,
        profile: &Profile,
    ) -> Result<Hierarchy, HierarchyError> {
        Hierarchy::read(bytes, grid, Some(profile))
    }

    /// [`Hierarchy::from_bytes`] and [`Hierarchy::from_bytes_with_profile`].
    fn read(
        bytes: &[u8],
        map: &Grid,
        profile: Option<&Profile>,
    ) -> Result<Hierarchy, HierarchyError> {
        let t0 = std::time::Instant::now();
        let payload = checked_payload(bytes)?;
        let mut r = Reader {
            bytes: payload,
            at: 0,
        };
        let checksum = r.u64()?;
        let (width, height, size) = (r.u32()?, r.u32()?, r.u32()?);
        // The recorded build time is not kept: `build_ms` becomes the
        // load's own wall time below.
        let _recorded_ms = r.f64()?;
        let landmark_count = r.u32()? as usize;
        if landmark_count > crate::derived::landmarks::LANDMARKS {
            return Err(HierarchyError::Corrupt(format!(
                "landmark count {landmark_count}"
            )));
        }
        let portals = match r.u32()? {
            0 => false,
            1 => true,
            v => return Err(HierarchyError::Corrupt(format!("portal layer flag {v}"))),
        };
        let config = read_config(&mut r)?;
        let stored = read_profile(&mut r)?;
        if stored.as_ref() != profile {
            return Err(HierarchyError::WrongProfile {
                found: describe(stored.as_ref()),
                expected: describe(profile),
            });
        }
        let expected = match profile {
            Some(_) => map.terrain_checksum(),
            None => map.checksum(),
        };
        if width != map.width() || height != map.height() || checksum != expected {
            return Err(HierarchyError::WrongGrid {
                found: checksum,
                expected,
            });
        }
        // Under a profile the tables describe its positions: its view of
        // the map is the grid they are checked against.
        let data = profile.map(|p| crate::profile::ProfileData::new(map, p));
        let grid = data.as_ref().map_or(map, |d| d.view.grid());
        let weighted = data.as_ref().is_some_and(|d| d.tables.table.is_some());
        if !(4..=256).contains(&size) {
            return Err(HierarchyError::Corrupt(format!("sector size {size}")));
        }
        let layout = Layout::new(width, height, size);
        let n = r.count(REGION_RECORD)?;
        let region_table = r.take(n * REGION_RECORD)?;
        let m = r.count(EDGE_RECORD)?;
        let edge_table = r.take(m * EDGE_RECORD)?;
        // The sections after the tables are read beside the tables' parse
        // (their lengths follow from the counts alone); a table's error is
        // still the one reported first.
        let parallel = config.get_parallel();
        let ((regions, edges), rest) = crate::par::join(
            parallel,
            || {
                crate::par::join(
                    parallel,
                    || parse_regions(region_table, &layout, parallel),
                    || parse_edges(edge_table, n, &layout, parallel),
                )
            },
            move || {
                let landmarks = read_landmarks(&mut r, n, landmark_count)?;
                let stored_portals = if portals {
                    let count = r.count(Portals::STORED_BYTES)?;
                    Some(r.take(count * Portals::STORED_BYTES)?)
                } else {
                    None
                };
                let stored = derived::read(&mut r, n)?;
                if r.at != payload.len() {
                    return Err(HierarchyError::Corrupt("trailing bytes".into()));
                }
                Ok((landmarks, stored_portals, stored))
            },
        );
        let (regions, first_region) = regions?;
        let edges = edges?;
        let (landmarks, stored_portals, stored) = rest?;
        // The tables against each other and the grid (see `check`; the
        // region check's pass over the cells also gives the sealed sectors
        // and the digests), beside the region graph and the check of the
        // stored derived tables against it (on two threads when the file
        // was built in parallel). A table's error is reported before a
        // derived table's: those are checked against the graph the tables
        // make.
        // Edges in chunks, so that the thread done first takes the rest.
        const CHUNK: usize = 1 << 13;
        let (tables, derived) = crate::par::join(
            parallel,
            || {
                let cells = check::regions(grid, &layout, &regions, &first_region, parallel);
                let links = crate::par::map_chunks(parallel, edges.len(), CHUNK, |range| {
                    check::edges(grid, &layout, &regions, edges, range, weighted)
                });
                let (sealed, digests) = cells?;
                links.into_iter().collect::<Result<(), _>>()?;
                Ok::<_, HierarchyError>((sealed, digests))
            },
            || {
                let landmarks = landmarks.check(n, edges.iter()).map_err(|reason| {
                    HierarchyError::Inconsistent {
                        part: FilePart::Landmarks,
                        reason,
                    }
                });
                let graph = region_graph_of(n, edges.iter());
                let parts = stored.into_parts(&layout, &regions, &graph);
                (landmarks, graph, parts)
            },
        );
        let (sealed, digests) = tables?;
        let (landmarks_checked, graph, parts) = derived;
        landmarks_checked?;
        let (connectivity, blocks) = parts?;
        let portals = match stored_portals {
            Some(stored) => Some(Portals::read(grid, stored).map_err(|reason| {
                HierarchyError::Inconsistent {
                    part: FilePart::Portals,
                    reason,
                }
            })?),
            None => None,
        };
        let mut h = Hierarchy {
            layout,
            grid_checksum: checksum,
            first_region,
            region_end: Vec::new(),
            loose: false,
            regions,
            graph,
            connectivity,
            landmarks,
            blocks,
            sealed,
            portals,
            build_ms: 0.0,
            config,
            digests,
            stamp: crate::model::next_stamp(),
            lineage: crate::model::next_stamp(),
            grid_revision: grid.revision(),
            changes: Default::default(),
            profile: None,
        };
        if let Some(data) = data {
            h.bind_profile(map, data);
        }
        h.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        Ok(h)
    }
}

/// The region table's records ([`REGION_RECORD`] bytes each),
/// range-checked: sectors in order and on the map, each representative in
/// its sector (whether it is passable: `check::regions`).
/// Also the first region of each sector (one entry past the last sector).
/// Records side by side when `parallel`, then their order in one pass.
fn parse_regions(
    table: &[u8],
    layout: &Layout,
    parallel: bool,
) -> Result<(Vec<Region>, Vec<u32>), HierarchyError> {
    let (records, _) = table.as_chunks::<REGION_RECORD>();
    let n = records.len();
    // A record off its sector or the map keeps sector `u32::MAX`, which
    // the order pass refuses at its index.
    let regions = crate::par::map_collect(parallel, records, |rec| {
        let (sector, cells) = (u32_at(rec, 0), u32_at(rec, 4));
        let point = |at: usize| Point::new(u16_at(rec, at), u16_at(rec, at + 2));
        let rep = point(8);
        let ok = (sector as usize) < layout.count() && layout.rect(sector).contains(rep);
        Region::new(
            if ok { sector } else { u32::MAX },
            rep,
            cells,
            point(12),
            point(16),
        )
    });
    let mut first_region = vec![0u32; layout.count() + 1];
    let mut last_sector = 0u32;
    for (i, r) in regions.iter().enumerate() {
        let s = r.sector();
        if s == u32::MAX || s < last_sector {
            return Err(HierarchyError::Corrupt(format!("region {i} is invalid")));
        }
        for f in &mut first_region[last_sector as usize + 1..=s as usize] {
            *f = i as u32;
        }
        last_sector = s;
    }
    for f in &mut first_region[last_sector as usize + 1..] {
        *f = n as u32;
    }
    Ok((regions, first_region))
}

/// The edge table's records, read where they lie: each decoded when used
/// (`parse_edges` has range-checked them all). Why: a list of the decoded
/// edges would be 16 bytes per edge of fresh memory, written once and read
/// by the link check, the landmark check and the region graph (P88).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeRecords<'a>(&'a [[u8; EDGE_RECORD]]);

impl<'a> EdgeRecords<'a> {
    /// Records held.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Edge `i` as `(a, b, link from a)`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> (u32, u32, Link) {
        decode_edge(&self.0[i])
    }

    /// The edges in file order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, u32, Link)> + Clone + 'a {
        self.0.iter().map(decode_edge)
    }
}

/// The fields of an edge record: regions `a` and `b`, then the link's
/// stored fields as [`Link::from_stored`] takes them.
#[inline]
fn edge_fields(rec: &[u8; EDGE_RECORD]) -> (u32, u32, u16, Point, u8, u8) {
    let from = Point::new(u16_at(rec, 8), u16_at(rec, 10));
    let cost = u16_at(rec, 12) as u16;
    (u32_at(rec, 0), u32_at(rec, 4), cost, from, rec[14], rec[15])
}

/// A range-checked record's edge.
#[inline]
fn decode_edge(rec: &[u8; EDGE_RECORD]) -> (u32, u32, Link) {
    let (a, b, cost, from, step, len_m1) = edge_fields(rec);
    (a, b, Link::from_checked(cost, from, step, len_m1))
}

/// The edge table's records ([`EDGE_RECORD`] bytes each) over `n`
/// regions, range-checked: `a < b < n`, both crossing cells on the map, a
/// step byte of a direction and the more-crossings bit, a run of 1 to a
/// sector side. What the cells are is checked with the other tables
/// (`check::edges`). In chunks side by side when `parallel`; the first
/// invalid record is the one named.
fn parse_edges<'a>(
    table: &'a [u8],
    n: usize,
    layout: &Layout,
    parallel: bool,
) -> Result<EdgeRecords<'a>, HierarchyError> {
    let (width, height, size) = (layout.width, layout.height, layout.size);
    let (records, _) = table.as_chunks::<EDGE_RECORD>();
    let valid = |rec: &[u8; EDGE_RECORD]| {
        let (a, b, cost, from, step, len_m1) = edge_fields(rec);
        let Some(link) = Link::from_stored(cost, from, step, len_m1) else {
            return false;
        };
        // The other side's cell, on the map (the direction's step from
        // `from` wraps past 0 to a huge coordinate).
        let to = link.to();
        (a as usize) < n
            && (b as usize) < n
            && a < b
            && from.x < width
            && from.y < height
            && to.x < width
            && to.y < height
            && link.len() <= size
    };
    let first_bad = crate::par::map_chunks(parallel, records.len(), 1 << 14, |range| {
        let from = range.start;
        records[range]
            .iter()
            .position(|r| !valid(r))
            .map(|i| from + i)
    });
    match first_bad.into_iter().flatten().next() {
        Some(i) => Err(HierarchyError::Corrupt(format!("edge {i} is invalid"))),
        None => Ok(EdgeRecords(records)),
    }
}

/// The little-endian u32 at byte `at` of a record.
#[inline]
fn u32_at(rec: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([rec[at], rec[at + 1], rec[at + 2], rec[at + 3]])
}

/// The little-endian u16 at byte `at` of a record, widened.
#[inline]
fn u16_at(rec: &[u8], at: usize) -> u32 {
    u32::from(u16::from_le_bytes([rec[at], rec[at + 1]]))
}

#[cfg(test)]
mod summary_tests {
    use super::*;

    /// Bytes of one stored portal field.
    const FIELD_BYTES: usize = 128;

    /// Rooms joined by one-cell doors (the portal layer pays) and open
    /// ground (it does not).
    fn grids() -> Vec<Grid> {
        let mut rooms = Grid::new(64, 64, true).unwrap();
        for k in (0..64).step_by(8) {
            for i in 0..64 {
                rooms.set_passable(Point::new(k, i), false).unwrap();
                rooms.set_passable(Point::new(i, k), false).unwrap();
            }
        }
        for k in (0..64).step_by(8) {
            for d in (4..64).step_by(8) {
                rooms.set_passable(Point::new(k, d), true).unwrap();
                rooms.set_passable(Point::new(d, k), true).unwrap();
            }
        }
        vec![rooms, Grid::new(70, 50, true).unwrap()]
    }

    #[test]
    fn summary_agrees_with_the_hierarchy_and_the_bytes() {
        for grid in grids() {
            for portals in [PortalMode::Auto, PortalMode::Always, PortalMode::Never] {
                let config = HierarchyConfig::new().portals(portals);
                let h = Hierarchy::build(&grid, &config).unwrap();
                let bytes = h.to_bytes();
                let s = read_file_summary(&bytes).unwrap();
                let st = h.stats();
                assert_eq!(s.version, FORMAT_VERSION);
                assert_eq!(s.grid_checksum, grid.checksum());
                assert_eq!((s.width, s.height), (grid.width(), grid.height()));
                assert_eq!(s.sector_size, st.sector_size);
                assert_eq!(s.regions as usize, st.regions);
                assert_eq!(s.edges as usize, st.edges);
                assert_eq!(s.landmarks as usize, st.landmarks);
                assert_eq!(s.portal_layer, st.portals > 0);
                assert_eq!(
                    s.header_bytes
                        + s.fixed_bytes
                        + s.region_bytes
                        + s.edge_bytes
                        + s.landmark_bytes
                        + s.portal_bytes
                        + s.derived_bytes,
                    bytes.len()
                );
                // Per region a component, a cluster and a tree node, and
                // six counts and sizes at least.
                assert!(s.derived_bytes >= 12 * st.regions + 24);
                assert_eq!(
                    s.portal_bytes,
                    st.portals.min(1) * 4 + st.portals * Portals::STORED_BYTES
                );
                assert_eq!(s.region_bytes, 4 + REGION_RECORD * st.regions);
                assert_eq!(s.edge_bytes, 4 + EDGE_RECORD * st.edges);
                assert_eq!(
                    s.landmark_bytes,
                    4 + 4 * st.landmarks + (2 * st.regions * st.landmarks).next_multiple_of(4)
                );
                if portals == PortalMode::Auto {
                    assert_eq!(Hierarchy::portal_layer_pays(&grid), st.portals > 0);
                }
            }
        }
        // The room map is where it pays, open ground where it does not.
        let g = grids();
        assert!(Hierarchy::portal_layer_pays(&g[0]));
        assert!(!Hierarchy::portal_layer_pays(&g[1]));
    }

    #[test]
    fn damaged_files_are_errors() {
        let grid = &grids()[0];
        let bytes = Hierarchy::build(grid, &HierarchyConfig::default())
            .unwrap()
            .to_bytes();
        for cut in [0, 7, 12, HEADER, bytes.len() / 2, bytes.len() - 1] {
            assert!(read_file_summary(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        assert!(matches!(
            read_file_summary(b"P5\n2 2\n255\n...."),
            Err(HierarchyError::BadMagic)
        ));
        let mut flipped = bytes.clone();
        flipped[HEADER + 40] ^= 1;
        assert!(matches!(
            read_file_summary(&flipped),
            Err(HierarchyError::Corrupt(_))
        ));
        let mut version = bytes;
        version[8] = 99;
        assert!(matches!(
            read_file_summary(&version),
            Err(HierarchyError::Version { found: 99, .. })
        ));
    }

    /// What a load takes from its checks' pass over the cells (the sealed
    /// sectors, the digests) and from the file (the landmark distances)
    /// equals what a build derives, on maps with and without sealed
    /// pieces; a table changed so that a bound would overshoot is refused.
    #[test]
    fn loaded_derived_data_equals_the_built() {
        let mut below = crate::testing::xorshift(30);
        for round in 0..24u32 {
            let portals = [PortalMode::Never, PortalMode::Always][round as usize / 3 % 2];
            let g = match round % 3 {
                0 => crate::testing::random_grid(40 + round, 33, 45, &mut below),
                1 => crate::testing::maze(41, 31 + 2 * (round % 5), &mut below),
                _ => crate::testing::random_grid(70, 20 + round, 20, &mut below),
            };
            let config = HierarchyConfig::new()
                .sector_size(4 + (round * 7) % 37)
                .fit_memory(false)
                .portals(portals)
                .parallel(false);
            let h = Hierarchy::build(&g, &config).unwrap();
            let bytes = h.to_bytes();
            let back = Hierarchy::from_bytes(&bytes, &g).unwrap();
            assert_eq!(back.portals, h.portals, "round {round}");
            assert_eq!(back.portals.is_some(), portals == PortalMode::Always);
            let sealed = crate::derived::SealedSectors::build(
                &g,
                &back.layout,
                &back.first_region,
                &back.regions,
            );
            assert_eq!(back.sealed, sealed, "round {round}");
            assert_eq!(back.sealed, h.sealed, "round {round}");
            assert_eq!(back.digests, crate::sector::digests(&g, &back.layout));
            assert_eq!(back.landmarks, h.landmarks, "round {round}");
            assert_eq!(back.graph, h.graph, "round {round}");
            assert_eq!(back.connectivity, h.connectivity, "round {round}");
            assert_eq!(back.blocks, h.blocks, "round {round}");
            assert_eq!(back.to_bytes(), bytes);
            let s = read_file_summary(&bytes).unwrap();
            let fix = |mut b: Vec<u8>| {
                let crc = crc32fast::hash(&b[HEADER..]);
                b[20..24].copy_from_slice(&crc.to_le_bytes());
                b
            };
            let refused = |b: &[u8], want: FilePart| {
                matches!(
                    Hierarchy::from_bytes(b, &g),
                    Err(HierarchyError::Inconsistent { part, .. }) if part == want
                )
            };
            // The derived tables: a linked region's component label, the
            // cluster of a region linked inside its super-sector, a tree
            // node's parent made its own, each refused.
            let derived = bytes.len() - s.derived_bytes;
            let n = h.regions.len();
            if let Some(r) = (0..n as u32).find(|&r| !h.graph.neighbors_slice(r).is_empty()) {
                let mut damaged = bytes.clone();
                let at = derived + 4 * r as usize;
                damaged[at] ^= 1;
                assert!(refused(&fix(damaged), FilePart::Derived), "round {round}");
            }
            let c = &h.connectivity;
            let clusters = derived + 4 * n + 4;
            let inside = (0..n as u32).find(|&r| {
                h.graph
                    .neighbors_slice(r)
                    .iter()
                    .any(|&b| c.cluster_of_region[b as usize] == c.cluster_of_region[r as usize])
            });
            if let Some(r) = inside {
                let mut damaged = bytes.clone();
                let at = clusters + 4 * r as usize;
                let v = c.cluster_of_region[r as usize] ^ 1;
                damaged[at..at + 4].copy_from_slice(&v.to_le_bytes());
                assert!(refused(&fix(damaged), FilePart::Derived), "round {round}");
            }
            let (_, _, parent, _, _) = h.blocks.parts();
            if let Some(x) = parent.iter().position(|&p| p != u32::MAX) {
                // The parent table follows the block and node counts and
                // the home table (one entry per region); the level count
                // (0 on these maps) follows the cluster labels.
                let blocks = clusters + 4 * n + 4;
                let at = blocks + 8 + 4 * n + 4 * x;
                let mut damaged = bytes.clone();
                damaged[at..at + 4].copy_from_slice(&(x as u32).to_le_bytes());
                assert!(refused(&fix(damaged), FilePart::Derived), "round {round}");
            }
            if let Some(p) = &h.portals {
                let fields = bytes.len() - s.derived_bytes - s.portal_bytes + 4;
                // A reached cell's first step in the first field made
                // "unreached", and one landmark distance moved far.
                if let Some(at) = (fields..fields + FIELD_BYTES).find(|&i| bytes[i] & 15 < 8) {
                    let mut damaged = bytes.clone();
                    damaged[at] |= 15;
                    assert!(refused(&fix(damaged), FilePart::Portals), "round {round}");
                }
                let lm = fields + p.len() * FIELD_BYTES + 8;
                if p.len() > 1 {
                    let mut damaged = bytes.clone();
                    damaged[lm + 5] ^= 1;
                    assert!(refused(&fix(damaged), FilePart::Portals), "round {round}");
                }
            }
            let k = h.landmarks.count();
            if k == 0 || h.graph.edge_count() == 0 {
                continue;
            }
            // One distance raised past its neighbours': the edge check
            // refuses it.
            let table = HEADER + s.fixed_bytes + s.region_bytes + s.edge_bytes + 4 + 4 * k;
            let (a, _, _) = h.edge_list()[0];
            let at = table + 2 * (a.index() * k);
            let mut damaged = bytes.clone();
            let d = u16::from_le_bytes([damaged[at], damaged[at + 1]]);
            // Moved by 30,000 within `u16` (an unreached distance to 0).
            let raised = match d {
                65_000.. => 0,
                30_000.. => d - 30_000,
                _ => d + 30_000,
            };
            damaged[at..at + 2].copy_from_slice(&raised.to_le_bytes());
            assert!(refused(&fix(damaged), FilePart::Landmarks), "round {round}");
        }
    }

    /// The settings are stored: a saved and loaded hierarchy updates as the
    /// original does (the same memory rule), and a file of the previous
    /// format is refused by version.
    #[test]
    fn settings_survive_save_and_load() {
        let mut below = crate::testing::xorshift(77);
        let mut g = crate::testing::random_grid(90, 70, 25, &mut below);
        for config in [
            HierarchyConfig::default(),
            HierarchyConfig::default()
                .fit_memory(false)
                .sector_size(12)
                .portals(PortalMode::Never)
                .parallel(false),
        ] {
            let h = Hierarchy::build(&g, &config).unwrap();
            let mut back = Hierarchy::from_bytes(&h.to_bytes(), &g).unwrap();
            assert_eq!(back.config(), &config);
            assert_eq!(read_file_summary(&h.to_bytes()).unwrap().config, config);
            let mut h = h;
            let p = Point::new(45, 35);
            g.set_passable(p, !g.is_passable(p)).unwrap();
            h.update(&g, &[p]).unwrap();
            back.update(&g, &[p]).unwrap();
            assert_eq!(h.to_bytes(), back.to_bytes());
        }
        let mut old = Hierarchy::build(&g, &HierarchyConfig::default())
            .unwrap()
            .to_bytes();
        for version in [4u32, 5, 6] {
            old[8..12].copy_from_slice(&version.to_le_bytes());
            assert!(matches!(
                Hierarchy::from_bytes(&old, &g),
                Err(HierarchyError::Version { found, expected })
                    if found == version && expected == FORMAT_VERSION
            ));
        }
    }

    /// The same map and settings give byte-identical files: two builds
    /// (serial and parallel, a while apart), a load saved again, and a
    /// profiled build; nothing measured is stored.
    #[test]
    fn files_are_reproducible() {
        let mut below = crate::testing::xorshift(5);
        let g = crate::testing::random_grid(120, 90, 30, &mut below);
        let config = HierarchyConfig::default();
        let a = Hierarchy::build(&g, &config).unwrap().to_bytes();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = Hierarchy::build(&g, &config.parallel(false)).unwrap();
        assert_eq!(a, Hierarchy::build(&g, &config).unwrap().to_bytes());
        let back = Hierarchy::from_bytes(&a, &g).unwrap();
        assert_eq!(a, back.to_bytes());
        assert!(back.stats().build_ms >= 0.0);
        // Another setting is another file, but again the same each time.
        assert_eq!(
            b.to_bytes(),
            Hierarchy::build(&g, &config.parallel(false))
                .unwrap()
                .to_bytes()
        );
    }
}

#[cfg(test)]
mod parse_tests {
    use super::*;

    /// A region record: sector, representative, cells, box.
    fn region_record(
        s: u32,
        rep: (u16, u16),
        cells: u32,
        min: (u16, u16),
        max: (u16, u16),
    ) -> Vec<u8> {
        let mut v = [s.to_le_bytes(), cells.to_le_bytes()].concat();
        for c in [rep.0, rep.1, min.0, min.1, max.0, max.1] {
            v.extend_from_slice(&c.to_le_bytes());
        }
        assert_eq!(v.len(), REGION_RECORD);
        v
    }

    /// An edge record: regions, first crossing cell, cost units, step
    /// byte, run length minus one.
    fn edge_record(a: u32, b: u32, from: (u16, u16), cost: u16, step: u8, len_m1: u8) -> Vec<u8> {
        let mut v = [a.to_le_bytes(), b.to_le_bytes()].concat();
        for c in [from.0, from.1, cost] {
            v.extend_from_slice(&c.to_le_bytes());
        }
        v.extend_from_slice(&[step, len_m1]);
        assert_eq!(v.len(), EDGE_RECORD);
        v
    }

    /// A valid edge record from region `a` to `a + 1` on a 64 × 64 map of
    /// 16-cell sectors: a vertical border crossed eastwards (`Dir::ALL[1]`)
    /// by a 4-cell run.
    fn edge(a: u32) -> Vec<u8> {
        edge_record(a, a + 1, (15, 2), 320, 1, 3)
    }

    /// The first bad record is the one named, also when the records are
    /// parsed side by side: the edges in a table long enough to be split.
    #[test]
    fn the_first_invalid_record_is_named() {
        let layout = Layout::new(64, 64, 16);
        let region = |s: u32, x: u16, y: u16| region_record(s, (x, y), 1, (x, y), (x, y));
        let good: Vec<u8> = [
            region(0, 1, 1),
            region(0, 3, 3),
            region(1, 17, 2),
            region(5, 20, 20),
        ]
        .concat();
        let (regions, first) = parse_regions(&good, &layout, true).unwrap();
        assert_eq!(regions.len(), 4);
        assert_eq!(&first[..7], &[0, 2, 3, 3, 3, 3, 4]);
        assert_eq!(first[layout.count()], 4);
        for (bad, at) in [
            // Sectors out of order, a sector off the map, a representative
            // outside its sector.
            (
                [region(0, 1, 1), region(1, 17, 2), region(0, 3, 3)].concat(),
                2,
            ),
            ([region(0, 1, 1), region(16, 1, 1)].concat(), 1),
            (
                [region(0, 1, 1), region(0, 3, 3), region(1, 1, 1)].concat(),
                2,
            ),
        ] {
            for parallel in [false, true] {
                match parse_regions(&bad, &layout, parallel) {
                    Err(HierarchyError::Corrupt(m)) => {
                        assert_eq!(m, format!("region {at} is invalid"))
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
        let n = 200_000;
        let mut table: Vec<u8> = (0..n).flat_map(|i| edge(i % 1000)).collect();
        let edges = parse_edges(&table, 1001, &layout, true).unwrap();
        assert_eq!(edges.len(), n as usize);
        let (a, b, link) = edges.get(1234);
        assert_eq!((a, b), (234, 235));
        // Every record holds the same crossing: the iterator decodes each
        // in place, in file order.
        assert!(edges
            .iter()
            .eq((0..n).map(|i| (i % 1000, i % 1000 + 1, link))));
        assert_eq!(
            (link.cost_units(), link.from(), link.to(), link.len()),
            (320, Point::new(15, 2), Point::new(16, 2), 4)
        );
        assert!(link.is_only_crossing());
        // Record 150,000 with a = b, then record 120,000 with a run longer
        // than a sector side: 120,000 is named, then 150,000 alone.
        let set = |t: &mut Vec<u8>, i: usize, r: Vec<u8>| {
            t[EDGE_RECORD * i..EDGE_RECORD * (i + 1)].copy_from_slice(&r)
        };
        set(&mut table, 150_000, edge_record(7, 7, (15, 2), 320, 1, 3));
        let mut both = table.clone();
        set(&mut both, 120_000, edge_record(7, 8, (15, 2), 320, 1, 16));
        // One bad field at a time in a short table; the more-crossings bit
        // (step bit 3) is valid.
        let more = edge_record(7, 8, (15, 2), 320, 9, 3);
        let more = parse_edges(&more, 1001, &layout, false);
        assert!(!more.unwrap().get(0).2.is_only_crossing());
        for bad in [
            edge_record(8, 7, (15, 2), 320, 1, 3),        // a > b
            edge_record(7, 1001, (15, 2), 320, 1, 3),     // b off the table
            edge_record(7, 8, (64, 2), 320, 1, 3),        // first cell off the map
            edge_record(7, 8, (0, 2), 320, 3, 3),         // west of column 0
            edge_record(7, 8, (15, 63), 320, 2, 3),       // south of the last row
            edge_record(7, 8, (15, 2), 320, 1 | 0x10, 3), // a step bit above bit 3
        ] {
            let t = [edge(0), bad].concat();
            for parallel in [false, true] {
                match parse_edges(&t, 1001, &layout, parallel) {
                    Err(HierarchyError::Corrupt(m)) => assert_eq!(m, "edge 1 is invalid"),
                    other => panic!("{other:?}"),
                }
            }
        }
        for (t, at) in [(&both, 120_000), (&table, 150_000)] {
            for parallel in [false, true] {
                match parse_edges(t, 1001, &layout, parallel) {
                    Err(HierarchyError::Corrupt(m)) => {
                        assert_eq!(m, format!("edge {at} is invalid"))
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
    }

    /// The CRC of a payload split in two halves equals one computed byte by
    /// byte (the test kit's), below and above the split size.
    #[test]
    fn split_crc_matches_a_plain_one() {
        let mut x = 1u64;
        let bytes: Vec<u8> = (0..PARALLEL_CRC_BYTES + 4097)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 56) as u8
            })
            .collect();
        for len in [
            0,
            1,
            4096,
            PARALLEL_CRC_BYTES - 1,
            PARALLEL_CRC_BYTES,
            bytes.len(),
        ] {
            let b = &bytes[..len];
            assert_eq!(payload_crc(b), regionpath_testkit::crc32(b), "{len} bytes");
        }
    }
}
