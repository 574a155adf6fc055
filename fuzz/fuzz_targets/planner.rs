//! The planner on small fuzzed grids, settings and queries, against a Dijkstra: see `regionpath_tests::fuzz::planner`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    regionpath_tests::fuzz::planner(data);
});
