//! The decompressing reader on arbitrary bytes after a gzip or zstd magic: the header check,
//! the expansion bound and the unnamed temporary file, then the index on what came out. Errors
//! are fine; panics, hangs and memory past the bound are not.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&kind, body)) = data.split_first() else { return };
    let path = std::env::temp_dir().join("heaptui-fuzz.hprof.gz");
    let opened = if kind & 1 == 0 {
        heap::data::Data::decompress(&path, "gzip", body.len() as u64, flate2::read::MultiGzDecoder::new(body))
    } else {
        let Ok(d) = zstd::stream::read::Decoder::new(body) else { return };
        heap::data::Data::decompress(&path, "zstd", body.len() as u64, d)
    };
    let Ok(bytes) = opened else { return };
    let _ = heap::Index::from_data(bytes, heap::Options::default());
});
