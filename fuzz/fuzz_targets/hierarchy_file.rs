//! The `.rph` loader (raw files, valid headers over fuzzed payloads, patched fresh files): see `regionpath_tests::fuzz::hierarchy_file`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    regionpath_tests::fuzz::hierarchy_file(data);
});
