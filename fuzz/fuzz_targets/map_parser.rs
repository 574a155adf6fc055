//! The `.map` parser: see `regionpath_tests::fuzz::map_parser`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    regionpath_tests::fuzz::map_parser(data);
});
