//! The reader (every record and sub-record), the index builder and the analysis (dominators,
//! retained sizes, histogram, leak suspects) on arbitrary bytes: errors are fine, panics and hangs
//! are not.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(index) = heap::Index::from_bytes(data.to_vec(), heap::Options::default()) else { return };
    let h = heap::Heap::analyse(index, heap::Options::default());
    let _ = h.summary();
    let _ = h.top_retained(10);
    let _ = heap::leaks::find_leaks(&h, &heap::leaks::LeakConfig::default());
});
