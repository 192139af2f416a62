//! The corruption sweep: every fixture dump cut at record boundaries and at sampled offsets, and
//! with bytes flipped at sampled positions. Each variant opens with warnings or fails with an
//! error naming an offset inside the file; none panics, under heaptui's rules or a peer's. And
//! inputs that are not dumps at all.

mod common;

use common::*;
use heap::{ErrorKind, Heap, Index, Options, Semantics};

fn dumps() -> Vec<String> {
    let mut names = Vec::new();
    for sub in ["android", "jvm"] {
        for e in std::fs::read_dir(fixtures().join(sub)).unwrap() {
            let n = e.unwrap().file_name().to_string_lossy().to_string();
            if n.ends_with(".hprof") || n.ends_with(".bin") || n.ends_with(".android-hprof") {
                names.push(format!("{sub}/{n}"));
            }
        }
    }
    names.sort();
    names
}

/// Offsets where top-level records start.
fn record_starts(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let Some(nul) = bytes.iter().position(|&b| b == 0) else { return out };
    let mut at = nul + 1 + 12;
    while at + 9 <= bytes.len() {
        out.push(at);
        let len = u32::from_be_bytes([bytes[at + 5], bytes[at + 6], bytes[at + 7], bytes[at + 8]]) as usize;
        at += 9 + len;
    }
    out
}

/// Opens a variant and analyses it under heaptui's rules and under `peer`'s (the sweep takes the
/// peers' rule sets in turn), each to its leak rules.
fn check(name: &str, what: &str, bytes: Vec<u8>, peer: Semantics) {
    let len = bytes.len() as u64;
    for semantics in [Semantics::Heaptui, peer] {
        let options = Options { semantics, ..Default::default() };
        match Index::from_bytes(bytes.clone(), options) {
            Ok(index) => {
                let h = Heap::analyse(index, options);
                let _ = h.summary();
                let _ = heap::leaks::find_leaks(&h, &Default::default());
            }
            Err(e) => assert!(e.offset <= len, "{name} {what}: offset {} past the end ({len}): {e}", e.offset),
        }
    }
}

/// The peers' rule sets, one after another.
fn peers() -> impl FnMut() -> Semantics {
    let mut k = 0;
    move || {
        k += 1;
        Semantics::ALL[1 + k % (Semantics::ALL.len() - 1)]
    }
}

#[test]
fn truncations_and_flips_of_every_fixture() {
    let mut state = 0xD1B5_4A32_D192_ED03u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut variants = 0;
    let mut peer = peers();
    for name in dumps() {
        let bytes = std::fs::read(fixture(&name)).unwrap();
        let starts = record_starts(&bytes);
        // Every record boundary of a small dump (plus one byte in), a sample of a large one's.
        let step = (starts.len() / 12).max(1);
        for &at in starts.iter().step_by(step) {
            for cut in [at, at + 1, at + 9] {
                if cut < bytes.len() {
                    check(&name, &format!("cut at {cut}"), bytes[..cut].to_vec(), peer());
                    variants += 1;
                }
            }
        }
        for _ in 0..8 {
            let mut b = bytes.clone();
            let at = (next() % b.len() as u64) as usize;
            b[at] ^= 1 << (next() % 8);
            check(&name, &format!("flip at {at}"), b, peer());
            variants += 1;
        }
    }
    println!("{variants} corrupt variants");
    assert!(variants > 500, "{variants}");
}

#[test]
fn inputs_that_are_not_dumps() {
    let dir = tempfile::tempdir().unwrap();
    let open = |name: &str, bytes: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        Heap::open(&p, Options::default())
    };
    assert_eq!(open("empty.hprof", b"").err().unwrap().kind, ErrorKind::NotHprof);
    assert_eq!(open("notes.txt", b"hello\n").err().unwrap().kind, ErrorKind::NotHprof);
    // A zip archive (local file header magic) is not a dump either.
    assert_eq!(open("dump.zip", b"PK\x03\x04\x14\x00\x00\x00").err().unwrap().kind, ErrorKind::NotHprof);
    // A header alone: a valid dump with nothing in it.
    let mut header = b"JAVA PROFILE 1.0.2\0".to_vec();
    header.extend_from_slice(&8u32.to_be_bytes());
    header.extend_from_slice(&0u64.to_be_bytes());
    assert_eq!(open("header.hprof", &header).unwrap().index.len(), 0);
    // A directory.
    assert!(matches!(Heap::open(dir.path(), Options::default()).err().unwrap().kind, ErrorKind::Io(_)));
    // A gzip of a dump opens as the dump.
    let plain = std::fs::read(fixture("jvm/hprof-slurp__hprof-32.bin")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &plain).unwrap();
    let h = open("dump.hprof.gz", &gz.finish().unwrap()).unwrap();
    assert_eq!(h.index.len(), heap("jvm/hprof-slurp__hprof-32.bin", None).index.len());
}
