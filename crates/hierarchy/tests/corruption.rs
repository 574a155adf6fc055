//! Damaged `.rph` files whose checksum was recomputed: random single and
//! multi-byte changes to the payload of files built from small random
//! maps. Each load either fails with a typed error or gives a hierarchy
//! whose answers are right: every query's reachability agrees with the test
//! kit's Dijkstra and every path is valid (checked by the test kit's
//! validator), full and lazy. Never a panic.

mod common;

use common::{dijkstra, maze_grid, passable_cells};
use regionpath_grid::{Grid, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig, PlanError, PortalMode};
use regionpath_testkit::check::check_path;
use regionpath_testkit::{Rng64, SplitMix64 as Rng};

/// Bytes before the payload: magic, version, length, CRC.
const HEADER: usize = 24;

/// One random change to `bytes` (a whole file): a byte set to a random
/// value, a bit flipped, an aligned 4-byte field of the region, edge or
/// landmark table or of the portal layer (fields, landmark distances)
/// nudged by a little (in its low or its high half) or copied from
/// another record, or one landmark distance (`u16`) nudged or copied from
/// another (the changes most likely to stay plausible).
fn mutate(bytes: &mut [u8], rng: &mut Rng, (dist, count): (usize, usize)) {
    let payload = bytes.len() - HEADER;
    let tables = HEADER + 36;
    let fields = (bytes.len() - tables) / 4;
    match rng.below(5) {
        0 => {
            let at = HEADER + rng.below(payload as u64) as usize;
            bytes[at] = rng.below(256) as u8;
        }
        1 => {
            let at = HEADER + rng.below(payload as u64) as usize;
            bytes[at] ^= 1 << rng.below(8);
        }
        2 => {
            let at = tables + 4 * rng.below(fields as u64) as usize;
            let v = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
            // Either half: records pack coordinates as pairs of u16.
            let d = (1 + rng.below(3) as u32) << (16 * rng.below(2));
            let v = if rng.below(2) == 0 {
                v.wrapping_add(d)
            } else {
                v.wrapping_sub(d)
            };
            bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        4 => {
            // One of the `count` landmark distances from `dist`.
            if count == 0 {
                return;
            }
            let at = dist + 2 * rng.below(count as u64) as usize;
            let v = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
            let v = match rng.below(3) {
                0 => v.wrapping_add(1 + rng.below(3) as u16),
                1 => v.wrapping_sub(1 + rng.below(3) as u16),
                _ => {
                    let o = dist + 2 * rng.below(count as u64) as usize;
                    u16::from_le_bytes([bytes[o], bytes[o + 1]])
                }
            };
            bytes[at..at + 2].copy_from_slice(&v.to_le_bytes());
        }
        _ => {
            // The same field of another record: a region's (20 bytes) or
            // an edge's (16).
            let at = tables + 4 * rng.below(fields as u64) as usize;
            let size = [20, 16][rng.below(2) as usize];
            let records = (bytes.len() - at) / size;
            if records > 1 {
                let from = at + size * (1 + rng.below(records as u64 - 1) as usize);
                let v: [u8; 4] = bytes[from..from + 4].try_into().unwrap();
                bytes[at..at + 4].copy_from_slice(&v);
            }
        }
    }
}

/// Small maps of every kind: looped mazes, rooms with doors, random
/// obstacles.
fn small_map(rng: &mut Rng, kind: u64) -> Grid {
    let (w, h) = (
        (24 + rng.below(48) as u32) | 1,
        (24 + rng.below(48) as u32) | 1,
    );
    match kind {
        0 => {
            let loops = w * h / 20;
            maze_grid(&mut |n| rng.below(n), w, h, loops)
        }
        1 => {
            let mut g = Grid::new(w, h, true).unwrap();
            let step = 5 + rng.below(5) as u32;
            for y in 0..h {
                for x in 0..w {
                    if (x % step == 0 || y % step == 0) && rng.below(8) != 0 {
                        g.set_passable(Point::new(x, y), false).unwrap();
                    }
                }
            }
            g
        }
        _ => regionpath_testkit::maps::obstacles(w, h, 15 + rng.below(25), &mut |n| rng.below(n)),
    }
}

#[derive(Debug, Default)]
struct Counts {
    files: u32,
    mutations: u32,
    refused: u32,
    accepted: u32,
    queries: u32,
    wrong: u32,
}

/// Random queries on a hierarchy loaded from a damaged file: each must be
/// answered as Dijkstra says (a valid path when reachable, `Unreachable`
/// otherwise). Returns the number of wrong answers.
fn wrong_answers(
    g: &Grid,
    h: &Hierarchy,
    starts: &[(Point, Vec<f64>)],
    goals: &[Point],
    planner: &mut CellPlanner,
    counts: &mut Counts,
) -> u32 {
    let mut wrong = 0;
    let mut path = Vec::new();
    for (k, (s, dist)) in starts.iter().enumerate() {
        for (j, &t) in goals.iter().enumerate() {
            let opt = dist[t.y as usize * g.width() as usize + t.x as usize];
            counts.queries += 1;
            let lazy = (k + j) % 2 == 0;
            let answer = if lazy {
                path.clear();
                planner.start(h, g, *s, t).and_then(|mut q| {
                    while planner.next_leg(&mut q, h, g, &mut path)? {}
                    Ok(())
                })
            } else {
                planner.find_path_into(h, g, *s, t, &mut path).map(|_| ())
            };
            let right = match answer {
                Ok(()) => opt.is_finite() && check_path(g, &path, *s, t).is_ok(),
                Err(PlanError::Unreachable { .. }) => opt.is_infinite(),
                Err(_) => false,
            };
            if !right {
                wrong += 1;
                if counts.wrong + wrong <= 3 {
                    eprintln!("wrong answer {s} -> {t} (optimum {opt}, lazy {lazy})");
                }
            }
        }
    }
    wrong
}

#[test]
fn damaged_files_with_fixed_checksums_are_refused_or_answer_right() {
    let mut rng = Rng(2030);
    let mut counts = Counts::default();
    let mut planner = CellPlanner::new();
    for file in 0..90u64 {
        let g = small_map(&mut rng, file % 3);
        let config = HierarchyConfig::new()
            .sector_size([4, 8, 16][(file / 3 % 3) as usize])
            .portals([PortalMode::Never, PortalMode::Always, PortalMode::Auto][(file % 3) as usize])
            .fit_memory(false);
        let bytes = Hierarchy::build(&g, &config).unwrap().to_bytes();
        let cells = passable_cells(&g);
        let starts: Vec<(Point, Vec<f64>)> = (0..3)
            .map(|_| {
                let s = cells[rng.below(cells.len() as u64) as usize];
                (s, dijkstra(&g, s))
            })
            .collect();
        let goals: Vec<Point> = (0..4)
            .map(|_| cells[rng.below(cells.len() as u64) as usize])
            .collect();
        counts.files += 1;
        // Where the landmark distances start, and how many there are.
        let s = regionpath_hierarchy::read_file_summary(&bytes).unwrap();
        let ids = 4 + 4 * s.landmarks as usize;
        let dist = (
            s.header_bytes + s.fixed_bytes + s.region_bytes + s.edge_bytes + ids,
            (s.landmark_bytes - ids) / 2,
        );
        for m in 0..150 {
            let mut damaged = bytes.clone();
            for _ in 0..[1, 1, 2, 4][m % 4] {
                mutate(&mut damaged, &mut rng, dist);
            }
            if damaged == bytes {
                continue;
            }
            let crc = regionpath_testkit::crc32(&damaged[HEADER..]);
            damaged[20..24].copy_from_slice(&crc.to_le_bytes());
            counts.mutations += 1;
            match Hierarchy::from_bytes(&damaged, &g) {
                Err(_) => counts.refused += 1,
                Ok(h) => {
                    counts.accepted += 1;
                    counts.wrong +=
                        wrong_answers(&g, &h, &starts, &goals, &mut planner, &mut counts);
                }
            }
        }
    }
    eprintln!("{counts:?}");
    assert!(
        counts.mutations > 12_000 && counts.accepted > 0,
        "{counts:?}"
    );
    assert_eq!(counts.wrong, 0, "{counts:?}");
}
