//! Perfetto traces through the command line: `analyze` opens a trace's heap graph as it opens a
//! dump (Perfetto's dominator-tree test trace, whose retained sizes Perfetto states), and
//! `convert` writes it as a standard HPROF that opens with the same objects and retained sizes.
//! The traces are Perfetto's own test textprotos (`heap/tests/data/perfetto/`), encoded with
//! `protoc`.

use std::path::Path;
use std::process::{Command, Output};

use test_support::perfetto::encode;

/// heaptui with an index cache (beside the test's files) that takes any dump: a trace must not
/// be cached as a dump.
fn heaptui(args: &[&str]) -> Output {
    let file = args.iter().find(|a| a.contains('/')).expect("a file argument");
    let cache = Path::new(file).parent().unwrap().join("index-cache");
    Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(args)
        .env("HEAPTUI_INDEX_CACHE", &cache)
        .env("HEAPTUI_INDEX_CACHE_MIN", "0")
        .output()
        .unwrap()
}

/// The retained sizes `analyze` reports by class, as JSON rows.
fn retained_by_class(file: &Path) -> Vec<(String, u64, u64)> {
    let out = heaptui(&["analyze", file.to_str().unwrap(), "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut rows: Vec<(String, u64, u64)> = v["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["class"].as_str().unwrap().to_string(),
                r["instances"].as_u64().unwrap(),
                r["retained_bytes"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_trace_analyses_and_converts_as_perfetto_sees_it() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("app.pftrace");
    std::fs::write(&trace, encode("heap_graph_for_dominator_tree")).unwrap();
    let rows = retained_by_class(&trace);
    // A second time reads the same (no cache entry made from the trace's bytes).
    assert_eq!(retained_by_class(&trace), rows);
    // Perfetto's `heap_graph_dominator_tree` test: R dominates 39 bytes, S 1023, M 922, the
    // Cleaner (a phantom reference, its referent not kept) only itself.
    for (class, bytes) in [("R", 39), ("S", 1023), ("M", 922), ("sun.misc.Cleaner", 1024), ("O", 904)] {
        let row = rows.iter().find(|r| r.0 == class).unwrap_or_else(|| panic!("{class} in {rows:?}"));
        assert_eq!((row.1, row.2), (1, bytes), "{class}");
    }
    // What a graph lacks is said.
    let out = heaptui(&["analyze", trace.to_str().unwrap()]);
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("records no field values"), "{said}");

    // Converted: a standard HPROF that opens with the same objects and retained sizes.
    let hprof = dir.path().join("app.hprof");
    let out = heaptui(&["convert", trace.to_str().unwrap(), hprof.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read(&hprof).unwrap().starts_with(b"JAVA PROFILE 1.0.3\0"));
    let converted = retained_by_class(&hprof);
    let names = |rows: &[(String, u64, u64)]| rows.iter().map(|r| (r.0.clone(), r.1)).collect::<Vec<_>>();
    assert_eq!(names(&converted), names(&rows));
    // Never over an existing file.
    let out = heaptui(&["convert", trace.to_str().unwrap(), hprof.to_str().unwrap()]);
    assert!(!out.status.success());

    // Two processes' graphs in one trace: the first by default, the second with --dump 2, and
    // a third is an error naming how many there are.
    let two = dir.path().join("two.pftrace");
    std::fs::write(&two, encode("heap_graph_interleaved")).unwrap();
    let out = heaptui(&["analyze", two.to_str().unwrap(), "--dump", "2", "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = heaptui(&["analyze", two.to_str().unwrap(), "--dump", "3"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("holds 2 Java heap graphs"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
