//! Every fixture opens, and jhat's ParseTest: a dump with no heap records opens empty; a file that is
//! not a dump, or is missing, is an error.

mod common;

use common::*;
use heap::{ErrorKind, Heap, Options};

/// Every dump under the fixtures directory (the 500 MB MAT dump is in the benchmarks instead).
#[test]
fn every_fixture_opens() {
    let mut opened = 0;
    for logical in all_fixtures() {
        let h = Heap::open(&fixture(&logical), Options::default()).unwrap_or_else(|e| panic!("{logical}: {e}"));
        assert!(h.index.warnings.iter().all(|w| !w.contains("truncated")), "{logical}: {:?}", h.index.warnings);
        // Every object is accounted for: reachable, or not.
        assert!(h.dominators.reachable_objects <= h.index.len() as u64);
        opened += 1;
    }
    assert!(opened >= 20, "only {opened} fixtures found");
}

/// jhat ParseTest: minimal.bin (heap=sites, no heap dump at all) parses.
#[test]
fn jhat_minimal_opens_empty() {
    let h = heap("jvm/jdk8u-jhat__minimal.bin", None);
    assert_eq!(h.index.len(), 0);
    assert_eq!(h.index.roots().len(), 0);
    assert_eq!(h.summary().reachable_objects, 0);
    assert_eq!(h.index.header.format.as_str(), "1.0.1");
    // Every top-level record decodes; the counts of our scan recorded in the .expected notes.
    let r = &h.index.counts.records;
    let expect = [
        ("STRING", 629),
        ("LOAD CLASS", 356),
        ("STACK FRAME", 360),
        ("STACK TRACE", 214),
        ("START THREAD", 5),
        ("END THREAD", 1),
        ("ALLOC SITES", 1),
        ("CONTROL SETTINGS", 1),
    ];
    for (name, n) in expect {
        assert_eq!(r.get(name), Some(&n), "{name}");
    }
    assert_eq!(r.get("HEAP DUMP"), None);
    assert_eq!(r.get("HEAP DUMP SEGMENT"), None);
}

/// jhat ParseTest: a shell script is not a dump; a missing path is an error.
#[test]
fn jhat_rejects_non_dumps() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("ParseTest.sh");
    std::fs::write(&script, "#!/bin/sh\njhat -parseonly true minimal.bin\n").unwrap();
    let e = Heap::open(&script, Options::default()).err().unwrap();
    assert_eq!(e.kind, ErrorKind::NotHprof);
    let e = Heap::open(&dir.path().join("missing.hprof"), Options::default()).err().unwrap();
    assert!(matches!(e.kind, ErrorKind::Io(_)));
}

/// The OpenJDK 11 dump MAT ships gzip-compressed opens as it is.
#[test]
fn gzip_dump_opens() {
    let h = heap("jvm/eclipse-mat__openjdk_jdk11_04_x64.hprof", None);
    assert!(h.index.len() > 10_000);
    assert_eq!(h.index.header.id_size, 8);
}

/// A zstd-compressed dump opens as it is, with the same contents as the plain one.
#[test]
fn zstd_dump_opens() {
    let plain = std::fs::read(fixture("jvm/hprof-slurp__hprof-32.bin")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dump.hprof.zst");
    std::fs::write(&path, zstd::encode_all(&plain[..], 3).unwrap()).unwrap();
    let z = Heap::open(&path, Options::default()).unwrap();
    let p = heap("jvm/hprof-slurp__hprof-32.bin", None);
    assert_eq!(z.index.len(), p.index.len());
    assert_eq!(z.summary().shallow_bytes, p.summary().shallow_bytes);
}

/// The one-pass histogram (`analyze --histogram-only`) is the full analysis's histogram, class
/// by class, on every fixture dump (their instance counts and shallow sizes are the ones checked
/// against VisualVM, perflib, MAT and hprof-slurp elsewhere).
#[test]
fn quick_histogram_matches_the_full_one() {
    for sub in ["android", "jvm"] {
        for e in std::fs::read_dir(fixtures().join(sub)).unwrap() {
            let path = e.unwrap().path();
            let n = path.file_name().unwrap().to_string_lossy().to_string();
            if !(n.ends_with(".hprof") || n.ends_with(".bin") || n.ends_with(".android-hprof")) {
                continue;
            }
            let q = heap::quick::quick_histogram(&path, None, 0).unwrap();
            let h = heap(&format!("{sub}/{n}"), None);
            let mut full: Vec<(String, u64, u64)> = (0..h.index.classes.len())
                .filter(|&c| h.histogram[c].instances > 0)
                .map(|c| (h.index.classes[c].name.clone(), h.histogram[c].instances, h.histogram[c].shallow_bytes))
                .collect();
            let mut quick: Vec<(String, u64, u64)> =
                q.rows.iter().map(|r| (r.class.clone(), r.instances, r.shallow_bytes)).collect();
            full.sort();
            quick.sort();
            assert_eq!(quick, full, "{n}");
        }
    }
}

/// The `analyze` report written whole (its histogram serialized from rows, put among the keys in
/// their sorted place) is byte for byte the report made one JSON value first, as it was made
/// before the rows were kept apart: on real dumps with leaks and Android's heaps, and on a built
/// one whose `byte[]` class has no id (no CLASS DUMP names it; the index makes it up).
#[test]
fn the_report_written_whole_is_the_report_as_one_value() {
    use heap::report::FileInfo;
    let mut b = common::builder::Builder::new("1.0.2");
    b.class(0x100, "java/lang/Object", 0, &[]).primitive_array(0x200, 8, 3, b"abc").root(0x200);
    let built = std::sync::Arc::new(Heap::analyse(
        heap::Index::from_bytes(b.finish(), Options::default()).unwrap(),
        Options::default(),
    ));
    let dumps = ["android/ahat-art__test-dump.hprof", "jvm/eclipse-mat__openjdk_jdk11_04_x64.hprof"];
    for (name, h) in dumps.iter().map(|&n| (n, heap(n, None))).chain([("built", built)]) {
        let leaks = heap::leaks::find_leaks(&h, &heap::leaks::LeakConfig::default());
        let file = FileInfo { path: name, bytes: 1, cut_names: false };
        let whole = serde_json::to_string_pretty(&h.analyze_report_with_leaks(&file, 20, &leaks)).unwrap();
        let value = h.analyze_json_with_leaks(&file, 20, &leaks);
        assert!(value["histogram"].as_array().is_some_and(|rows| rows.len() > 1), "{name}");
        assert_eq!(whole, serde_json::to_string_pretty(&value).unwrap(), "{name}");
        if name == "built" {
            assert!(value["histogram"].as_array().unwrap().iter().any(|r| r["class_id"].is_null()));
        }
    }
}
