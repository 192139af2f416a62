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

/// What a graph lacks is said where it matters: the same small Android heap (a destroyed
/// Activity, `test_support::hostile::dump`) as a dump and as a heap graph. The dump's Activity
/// is a suspect and every rule decided; the graph's is not, and `analyze` says which rules could
/// not decide on how many objects and why, names the graph it read, and `inspect` says the
/// values were not recorded.
#[test]
fn a_graph_says_what_it_could_not_decide() {
    use test_support::hostile;
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("app.hprof");
    std::fs::write(&dump, hostile::dump()).unwrap();
    let index = heap::Index::from_bytes(hostile::dump(), heap::Options::default()).unwrap();
    let trace = dir.path().join("app.pftrace");
    std::fs::write(&trace, heap::perfetto::encode::encode(&index, 4242, 9)).unwrap();

    let json = |file: &Path| -> serde_json::Value {
        let out = heaptui(&["analyze", file.to_str().unwrap(), "--format", "json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let rules = |v: &serde_json::Value| -> Vec<String> {
        v["leaks"].as_array().unwrap().iter().map(|l| l["rule"].as_str().unwrap().to_string()).collect()
    };
    let as_dump = json(&dump);
    assert!(rules(&as_dump).contains(&"android.activity.destroyed".to_string()), "{:?}", rules(&as_dump));
    assert_eq!(as_dump["undecided"], serde_json::json!([]));
    assert!(as_dump["file"]["heap_graph"].is_null());

    let as_graph = json(&trace);
    assert!(!rules(&as_graph).contains(&"android.activity.destroyed".to_string()), "{:?}", rules(&as_graph));
    let undecided = as_graph["undecided"].as_array().unwrap();
    let first = &undecided[0];
    assert_eq!(
        (first["rule"].as_str(), first["class"].as_str(), first["objects"].as_u64(), first["missing"].as_str()),
        (Some("android.activity.destroyed"), Some("android.app.Activity"), Some(1), Some("mDestroyed or mFinished"))
    );
    let graph = &as_graph["file"]["heap_graph"];
    assert_eq!((graph["number"].as_u64(), graph["graphs"][0]["pid"].as_i64()), (Some(1), Some(4242)));

    let out = heaptui(&["analyze", trace.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Perfetto heap graph 1 of 1"), "{text}");
    assert!(
        text.contains("could not decide: android.activity.destroyed on 1 android.app.Activity (the dump does not record mDestroyed or mFinished)"),
        "{text}"
    );

    let activity = format!("{:#x}", hostile::ACTIVITY_ID);
    let out = heaptui(&["inspect", trace.to_str().unwrap(), &activity]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("values not recorded"));
    let out = heaptui(&["inspect", trace.to_str().unwrap(), &activity, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["values_recorded"], serde_json::json!(false));
    let out = heaptui(&["inspect", dump.to_str().unwrap(), &activity, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v[0]["values_recorded"].is_null());

    // A trace with two processes' graphs: `analyze` lists both and marks the one it read.
    let two = dir.path().join("two.pftrace");
    std::fs::write(&two, encode("heap_graph_interleaved")).unwrap();
    let out = heaptui(&["analyze", two.to_str().unwrap(), "--dump", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let listed: Vec<&str> = text.lines().filter(|l| l.trim_start_matches([' ', '*']).starts_with("graph ")).collect();
    assert_eq!(listed.len(), 2, "{text}");
    assert!(listed[0].starts_with("    graph 1: pid 2 ") && listed[1].starts_with("  * graph 2: pid 3 "), "{listed:?}");
    // ...and what it read is that graph (pid 3's one object), not a second dump inside the first.
    assert!(text.contains("FactoryProducerDelegateImplActor") && !text.contains("  Foo\n"), "{text}");
}

/// `--map` applies to a trace as to a dump: ahat's obfuscated test dump and the same heap as a
/// heap graph (names as obfuscated as the dump's), both opened with ahat's ProGuard map, have
/// the same classes by their clear names, with the same instance counts.
#[test]
fn a_mapping_file_deobfuscates_a_trace_as_it_does_a_dump() {
    let fixtures = std::env::var_os("HEAPTUI_FIXTURES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"));
    let dump = fixtures.join("android/ahat-art__test-dump.hprof");
    let map = fixtures.join("android/ahat-art__test-dump.map");
    let dir = tempfile::tempdir().unwrap();
    let index = heap::Index::open(&dump, heap::Options::default()).unwrap();
    let trace = dir.path().join("ahat.pftrace");
    std::fs::write(&trace, heap::perfetto::encode::encode(&index, 1, 1)).unwrap();
    let copy = dir.path().join("ahat.hprof");
    std::fs::copy(&dump, &copy).unwrap();
    let classes = |file: &Path, mapped: bool| -> Vec<(String, u64)> {
        let mut args = vec!["analyze", file.to_str().unwrap(), "--format", "json", "--top", "100000"];
        if mapped {
            args.extend(["--map", map.to_str().unwrap()]);
        }
        let out = heaptui(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut rows: Vec<(String, u64)> = v["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["class"].as_str().unwrap().to_string(), r["instances"].as_u64().unwrap()))
            .filter(|(c, n)| *n > 0 && !c.starts_with("java.lang.Class"))
            .collect();
        rows.sort();
        rows
    };
    let from_dump = classes(&copy, true);
    let from_trace = classes(&trace, true);
    assert_eq!(from_trace, from_dump);
    // The map did something: a class ahat's tests know by its clear name is there, and was not.
    // (ahat's map: `DumpedStuff$StackSmasher -> o`, 20,000 instances.)
    let clear = ("DumpedStuff$StackSmasher".to_string(), 20_000);
    assert!(from_trace.contains(&clear), "{from_trace:?}");
    assert!(!classes(&trace, false).contains(&clear));
}
