//! Movement profiles end to end (TOML or builder, build, save and load, patched files, queries against the weighted Dijkstra): see `regionpath_tests::fuzz::profiles`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    regionpath_tests::fuzz::profiles(data);
});
