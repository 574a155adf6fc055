//! The fuzz targets' checks (`regionpath_tests::fuzz`) in the ordinary test
//! suite: every committed corpus file and crash reproducer
//! (`fuzz/corpus/<target>/`, `fuzz/regressions/<target>/`) is replayed, and
//! a seeded random run (byte mutations of the seeds and random bytes; not
//! coverage-guided) feeds each target a few thousand more inputs.
//! Reproducers of still-open bugs go to `fuzz/known/<target>/` with an
//! `#[ignore]`d test each (none are open).

use regionpath_testkit::{Rng64, SplitMix64};
use regionpath_tests::fuzz::{self, seeds};
use regionpath_tests::workspace_root;
use std::path::{Path, PathBuf};

type Check = fn(&[u8]);

const TARGETS: [(&str, Check); 5] = [
    ("map_parser", fuzz::map_parser),
    ("scen_parser", fuzz::scen_parser),
    ("hierarchy_file", fuzz::hierarchy_file),
    ("planner", fuzz::planner),
    ("profiles", fuzz::profiles),
];

fn fuzz_dir() -> PathBuf {
    workspace_root().join("fuzz")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_file());
    v.sort();
    v
}

/// Runs `check` on `data`, naming `what` when it panics.
fn run(what: &str, check: Check, data: &[u8]) {
    if let Err(e) = std::panic::catch_unwind(|| check(data)) {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        panic!("{what} ({} bytes): {msg}", data.len());
    }
}

#[test]
fn corpora_and_regressions_replay_clean() {
    let mut total = 0;
    for (target, check) in TARGETS {
        let corpus = files(&fuzz_dir().join("corpus").join(target));
        assert!(
            corpus.len() >= 5,
            "{target}: corpus missing ({} files)",
            corpus.len()
        );
        let regressions = files(&fuzz_dir().join("regressions").join(target));
        for path in corpus.iter().chain(&regressions) {
            let data = std::fs::read(path).expect("readable corpus file");
            run(&path.display().to_string(), check, &data);
            total += 1;
        }
    }
    println!("replayed {total} corpus and regression files");
}

/// The seeds as generated now pass too (the committed corpus may lag
/// behind a change of the input layouts; `write_seed_corpora` renews it).
#[test]
fn generated_seeds_pass() {
    for (i, s) in seeds::planner().iter().enumerate() {
        run(&format!("planner seed {i}"), fuzz::planner, s);
    }
    for (i, s) in seeds::profiles().iter().enumerate() {
        run(&format!("profiles seed {i}"), fuzz::profiles, s);
    }
    for (i, s) in seeds::hierarchy_file().iter().enumerate() {
        run(&format!("hierarchy_file seed {i}"), fuzz::hierarchy_file, s);
    }
    for (i, s) in seeds::map().iter().enumerate() {
        run(&format!("map seed {i}"), fuzz::map_parser, s);
    }
    for (i, s) in seeds::scen().iter().enumerate() {
        run(&format!("scen seed {i}"), fuzz::scen_parser, s);
    }
}

/// A mutation of `seed`: a few byte flips, overwrites, insertions,
/// deletions or splices of random bytes.
fn mutate(rng: &mut SplitMix64, seed: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(v.len() as u64 + 1) as usize;
        match rng.below(6) {
            0 if at < v.len() => v[at] ^= 1 << rng.below(8),
            1 if at < v.len() => v[at] = rng.next_u64() as u8,
            2 => v.insert(at, rng.next_u64() as u8),
            3 if at < v.len() => {
                v.remove(at);
            }
            4 if at + 4 <= v.len() => {
                let x = rng.pick(&[0u32, 1, 2, 255, 65_535, u32::MAX, 1 << 31]);
                v[at..at + 4].copy_from_slice(&x.to_le_bytes());
            }
            _ => {
                let n = rng.below(16) as usize;
                let tail = v.split_off(at.min(v.len()));
                v.extend((0..n).map(|_| rng.next_u64() as u8));
                v.extend(tail);
            }
        }
    }
    v
}

/// Seeded, not coverage-guided: per target, `n` inputs, each a mutation of
/// a committed corpus file or random bytes.
fn random_run(target: &str, check: Check, n: u64, seed: u64) {
    let corpus: Vec<Vec<u8>> = files(&fuzz_dir().join("corpus").join(target))
        .iter()
        .map(|p| std::fs::read(p).expect("readable corpus file"))
        .collect();
    let mut rng = SplitMix64(seed);
    for i in 0..n {
        let data = if corpus.is_empty() || rng.below(4) == 0 {
            let len = rng.below(256) as usize;
            (0..len).map(|_| rng.next_u64() as u8).collect()
        } else {
            let k = rng.below(corpus.len() as u64) as usize;
            mutate(&mut rng, &corpus[k])
        };
        run(
            &format!("{target} random input {i} (seed {seed})"),
            check,
            &data,
        );
    }
}

#[test]
fn random_map_parser() {
    random_run("map_parser", fuzz::map_parser, 50_000, 0x6d61_7030);
}

#[test]
fn random_scen_parser() {
    random_run("scen_parser", fuzz::scen_parser, 50_000, 0x7363_656e);
}

#[test]
fn random_hierarchy_file() {
    random_run("hierarchy_file", fuzz::hierarchy_file, 20_000, 0x7270_6830);
}

#[test]
fn random_planner() {
    random_run("planner", fuzz::planner, 20_000, 0x706c_616e);
}

#[test]
fn random_profiles() {
    random_run("profiles", fuzz::profiles, 5_000, 0x7072_6f66);
}

/// Writes the seed corpora: `cargo test -p regionpath-tests --test
/// fuzz_corpus -- --ignored write_seed_corpora`. Files are named by the
/// hash of their bytes, as cargo-fuzz names what it finds.
#[test]
#[ignore = "writes fuzz/corpus; run by hand after changing an input layout"]
fn write_seed_corpora() {
    let mut map = seeds::map();
    // Crops of the bundled maps: squares of 32 and 48 cells from (100, 100).
    for name in ["caves-256.map", "rooms-512.map"] {
        let text =
            std::fs::read_to_string(workspace_root().join("maps").join(name)).expect("bundled map");
        for side in [32usize, 48] {
            let rows: Vec<&str> = text.lines().skip(4 + 100).take(side).collect();
            let mut crop = format!("type octile\nheight {side}\nwidth {side}\nmap\n");
            for r in rows {
                crop.push_str(&r[100..100 + side]);
                crop.push('\n');
            }
            map.push(crop.into_bytes());
        }
    }
    let mut scen = seeds::scen();
    for name in ["caves-256.map.scen", "rooms-512.map.scen"] {
        let text = std::fs::read_to_string(workspace_root().join("maps").join(name))
            .expect("bundled scenario");
        let head: Vec<&str> = text.lines().take(12).collect();
        scen.push((head.join("\n") + "\n").into_bytes());
        let crlf: Vec<&str> = text.lines().take(4).collect();
        scen.push((crlf.join("\r\n") + "\r\n").into_bytes());
    }
    for (target, inputs) in [
        ("map_parser", map),
        ("scen_parser", scen),
        ("hierarchy_file", seeds::hierarchy_file()),
        ("planner", seeds::planner()),
        ("profiles", seeds::profiles()),
    ] {
        let dir = fuzz_dir().join("corpus").join(target);
        std::fs::create_dir_all(&dir).expect("corpus folder");
        for data in inputs {
            let name = format!("seed-{:08x}", name_hash(&data));
            std::fs::write(dir.join(name), data).expect("corpus file");
        }
    }
}

fn name_hash(data: &[u8]) -> u32 {
    // FNV-1a folded to 32 bits: a stable file name, not a checksum.
    let h = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    (h ^ (h >> 32)) as u32
}
