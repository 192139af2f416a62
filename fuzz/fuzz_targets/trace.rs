//! The Perfetto reader on arbitrary bytes (plain, or gzip'd when the input starts with its
//! magic): the listing, every graph it lists built, the first written as HPROF and indexed.
//! Errors are fine; panics, hangs and memory past the bounds are not.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(trace) = heap::perfetto::Trace::scan(data) else { return };
    for n in 0..trace.graphs.len().min(4) {
        let Ok(graph) = trace.graph(n) else { continue };
        assert_eq!(graph.info(), trace.graphs[n], "the listing and the graph built disagree");
        if n == 0 {
            let _ = heap::Index::from_perfetto(&graph, heap::Options::default());
        }
    }
});
