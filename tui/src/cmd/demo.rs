//! `heaptui` with no arguments: analyse the bundled demo dump.
//!
//! The dump was taken with OpenJDK 17 from `demo/LeakyCache.java` (see `demo/README.md` for how
//! to make it again). The interactive screens and the device loop come with their own issues;
//! until then this shows what the engine finds in it.

use std::io::Read;

use anyhow::Context;

const DEMO: &[u8] = include_bytes!("../../../demo/demo.hprof.gz");

/// The bundled demo dump, decompressed.
pub fn bytes() -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(DEMO).read_to_end(&mut bytes).context("the bundled demo dump is damaged")?;
    Ok(bytes)
}

/// Runs the demo without a terminal: the text report.
pub fn run() -> anyhow::Result<()> {
    let bytes = bytes()?;
    let start = std::time::Instant::now();
    let len = bytes.len() as u64;
    let index = heap::Index::from_bytes(bytes, heap::Options::default()).context("bundled demo dump")?;
    let heap = heap::Heap::analyse(index, heap::Options::default());
    eprintln!("heaptui: no dump given; analysing the bundled demo (a JVM with a leaking cache).");
    eprintln!("heaptui: `heaptui analyze FILE` and `heaptui inspect FILE TARGET` work on any .hprof.");
    super::analyze::report(
        &heap,
        None,
        "demo.hprof (bundled)",
        len,
        super::analyze::AnalyzeFormat::Text,
        15,
        start,
        &Default::default(),
    )
}
