//! The built `heaptui` binary, run as a user would: JSON schema and values, text output, exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    let dir = std::env::var_os("HEAPTUI_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"));
    dir.join(name)
}

fn heaptui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heaptui")).args(args).output().unwrap()
}

fn json(args: &[&str]) -> Value {
    let out = heaptui(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

const DIALER: &str = "android/adt-tools-base__dialer.android-hprof";

/// A compressed dump says both sizes: the file's and the dump's (a 935 KB gzip of a 522 MB dump
/// is read as the dump's size, not the file's).
#[test]
fn a_compressed_dump_says_both_sizes() {
    let raw = std::fs::read(fixture(DIALER)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("dialer.hprof.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut e, &raw).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    let packed = std::fs::metadata(&gz).unwrap().len();
    let v = json(&["analyze", gz.to_str().unwrap(), "--format", "json", "--top", "1"]);
    assert_eq!((v["file"]["bytes"].as_u64(), v["file"]["decompressed_bytes"].as_u64()), (Some(packed), Some(3661109)));
    let out = heaptui(&["analyze", gz.to_str().unwrap(), "--top", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().next().unwrap().contains("3.5 MiB decompressed"), "{text}");
}

#[test]
fn analyze_json_schema_and_values() {
    let path = fixture(DIALER);
    let v = json(&["analyze", path.to_str().unwrap(), "--format", "json", "--top", "5"]);
    assert_eq!(v["schema"], 1);
    assert_eq!(v["file"]["format"], "1.0.3");
    assert_eq!(v["file"]["id_size"], 4);
    assert_eq!(v["file"]["bytes"], 3661109);
    assert_eq!(v["file"]["decompressed_bytes"], serde_json::Value::Null, "not compressed");
    let s = &v["summary"];
    // perflib: 3571 classes; 43687 objects in all; 11193 root records (11182 + 11 thread objects).
    assert_eq!(s["classes"], 3571);
    assert_eq!(s["instances"], 43687 - 3571);
    assert_eq!(s["object_arrays"], 1919);
    assert_eq!(s["primitive_arrays"], 13585);
    assert_eq!(s["gc_roots"], 11193);
    assert_eq!(s["size_model"], "android");
    let heaps: Vec<(String, u64)> = v["heaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["name"].as_str().unwrap().to_string(), h["objects"].as_u64().unwrap()))
        .collect();
    assert_eq!(heaps, [("zygote".to_string(), 3533 + 38710), ("app".to_string(), 38 + 1406)]);
    let hist = v["histogram"].as_array().unwrap();
    let byte_array = hist.iter().find(|r| r["class"] == "byte[]").unwrap();
    assert_eq!(byte_array["instances"], 1406);
    assert_eq!(byte_array["shallow_bytes"], 681489);
    let retained: Vec<u64> = hist.iter().map(|r| r["retained_bytes"].as_u64().unwrap()).collect();
    assert!(retained.windows(2).all(|w| w[0] >= w[1]), "histogram sorted by retained size");
    let top = v["top_retained"].as_array().unwrap();
    assert_eq!(top.len(), 5);
    assert!(top[0]["id"].as_str().unwrap().starts_with("0x"));
    for k in ["id", "class", "shallow_bytes", "retained_bytes", "retained_objects"] {
        assert!(top[0].get(k).is_some(), "{k}");
    }
    assert!(v["warnings"].as_array().unwrap().is_empty());
}

#[test]
fn inspect_by_id_and_by_class() {
    let path = fixture(DIALER);
    let v = json(&["inspect", path.to_str().unwrap(), "0xb0f69f58", "--format", "json"]);
    let o = &v[0];
    assert_eq!(o["class"], "int[][]");
    assert_eq!(o["heap"], "zygote");
    assert_eq!(o["shallow_bytes"], 40);
    assert_eq!(o["length"], 10);
    for k in [
        "retained_bytes",
        "retained_objects",
        "dominator",
        "dominated",
        "gc_roots",
        "reachable",
        "fields",
        "path_to_root",
    ] {
        assert!(o.get(k).is_some(), "{k}");
    }
    // A simple name finds the class too; an ambiguous one names the candidates.
    let v = json(&["inspect", path.to_str().unwrap(), "DialerApplication", "--format", "json"]);
    assert_eq!(v[0]["class"], "com.android.dialer.DialerApplication");
    let out = heaptui(&["inspect", path.to_str().unwrap(), "Entry"]);
    assert_eq!(out.status.code(), Some(2), "usage: the name is ambiguous");
    assert!(String::from_utf8_lossy(&out.stderr).contains("matches several classes"));
    // Thread$State.NEW: fields with values, its name as text through the path.
    let v = json(&["inspect", path.to_str().unwrap(), "java.lang.Thread$State", "--format", "json", "--limit", "6"]);
    let states = v.as_array().unwrap();
    assert_eq!(states.len(), 6);
    let new = states
        .iter()
        .find(|s| s["fields"].as_array().unwrap().iter().any(|f| f["name"] == "ordinal" && f["value"] == 0))
        .unwrap();
    let path_to_root = new["path_to_root"].as_array().unwrap();
    assert!(path_to_root.len() >= 2);
    assert_eq!(path_to_root[0]["reference"], Value::Null);
}

/// On a terminal `analyze` fits 100 columns, long class names shortened in the middle; piped,
/// every name is whole (for `grep`), and only a name runs past the columns.
#[test]
fn text_output_fits_100_columns_on_a_terminal_and_keeps_names_whole_when_piped() {
    let path = fixture(DIALER);
    let long = "com.android.org.bouncycastle.jce.provider.BouncyCastleProvider";
    let out = heaptui(&["analyze", path.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("43687 objects") && text.contains("byte[]"));
    assert!(text.lines().any(|l| l.ends_with(&format!("  {long}"))), "{text}");
    // What runs past 100 columns is a whole name in the last column, nothing else.
    for line in text.lines().skip(1) {
        let head = line.rsplit_once("  ").map_or(line, |(head, _)| head);
        assert!(head.chars().count() <= 100, "too wide: {line}");
    }
    // On a terminal (util-linux `script` gives the command a pty).
    let cmd = format!("{} analyze {}", env!("CARGO_BIN_EXE_heaptui"), path.display());
    let out = std::process::Command::new("script").args(["-qec", &cmd, "/dev/null"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // (The progress line, erased as it goes, comes first.)
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    let text = text.rsplit("\x1b[K").next().unwrap_or_default().to_string();
    assert!(text.contains("43687 objects"), "{text}");
    assert!(text.contains("com.…org.bouncycastle.jce.provider.BouncyCastleProvider"), "{text}");
    for line in text.lines().skip(1) {
        assert!(line.chars().count() <= 100, "too wide: {line}");
    }
}

#[test]
fn exit_codes() {
    // A file that is not a dump: 1, with the offset in the message.
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "hello\n").unwrap();
    let out = heaptui(&["analyze", text.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an HPROF file"));
    // Missing file: 1.
    let out = heaptui(&["analyze", dir.path().join("nope.hprof").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    // Usage errors: 2.
    assert_eq!(heaptui(&["analyze"]).status.code(), Some(2));
    assert_eq!(heaptui(&["analyze", "x", "--size-model", "nonsense"]).status.code(), Some(2));
    assert_eq!(heaptui(&["analyze", "x", "--exclude-ref", "no-field-here"]).status.code(), Some(2));
    // A truncated dump opens with a warning naming where it stops: 0.
    let bytes = std::fs::read(fixture(DIALER)).unwrap();
    let cut = dir.path().join("cut.hprof");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let v = json(&["analyze", cut.to_str().unwrap(), "--format", "json"]);
    let w = v["warnings"][0].as_str().unwrap();
    assert!(w.contains("truncated") && w.contains("at 0x"), "{w}");
    assert!(v["summary"]["instances"].as_u64().unwrap() > 1000);
    // An unknown object id: 1 (not in the dump); one that is not an id: 2.
    let out = heaptui(&["inspect", fixture(DIALER).to_str().unwrap(), "0x1"]);
    assert_eq!(out.status.code(), Some(1));
    let out = heaptui(&["inspect", fixture(DIALER).to_str().unwrap(), "0xnope"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    // A file to write that exists: 6, output (also for strip, --png and --export below).
    let out = heaptui(&["strip", fixture(DIALER).to_str().unwrap(), text.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(6), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&text).unwrap(), b"hello\n");
    // 4 (no device), 5 (device failed) and 2 for several phones: `tui/tests/phone.rs`, against
    // the real adb server.
    // The README's table is the binary's.
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    for (_, n, meaning) in heaptui::exit::Code::TABLE {
        assert!(readme.contains(&format!("| {n} | {meaning} |")), "README lacks exit code {n}");
    }
}

#[test]
fn size_model_flag_and_several_dumps() {
    let path = fixture("jvm/eclipse-mat__sun_jdk5_64bit.hprof");
    let v = json(&["analyze", path.to_str().unwrap(), "--format", "json", "--size-model", "mat"]);
    assert_eq!(v["summary"]["size_model"], "mat");
    // The old hprof agent appended two dumps to this file; the first is read unless asked.
    let path = fixture("jvm/eclipse-mat__oracle_jdk7_21_hprofagent.hprof");
    let first = json(&["analyze", path.to_str().unwrap(), "--format", "json"]);
    let second = json(&["analyze", path.to_str().unwrap(), "--format", "json", "--dump", "2"]);
    assert!(first["warnings"][0].as_str().unwrap().contains("holds 2 heap dumps"));
    assert_ne!(first["summary"]["instances"], second["summary"]["instances"]);
}

/// `--semantics` on `analyze`, `inspect` and `query`, through the index cache: NetBeans' own
/// `heap_dump.bin` gives VisualVM's numbers under VisualVM's rules (its library puts
/// `URLClassPath$JarLoader` first with 39,488 bytes and gives `URLClassPath` 384) and heaptui's
/// under its own; each rule set is cached apart and read back as itself.
#[test]
fn semantics_flag_on_analyze_inspect_and_query() {
    let cache = tempfile::tempdir().unwrap();
    let path = fixture("jvm/hprof-slurp__hprof-64.bin");
    let file = path.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .args(args)
            .env("HEAPTUI_INDEX_CACHE", cache.path())
            .env("HEAPTUI_INDEX_CACHE_MIN", "0")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    for _ in 0..2 {
        let v: Value =
            serde_json::from_str(&run(&["analyze", file, "--format", "json", "--semantics", "visualvm"])).unwrap();
        assert_eq!(v["summary"]["semantics"], "visualvm");
        assert_eq!(v["top_retained"][0]["class"], "sun.misc.URLClassPath$JarLoader");
        assert_eq!(v["top_retained"][0]["retained_bytes"], 39488);
        let v: Value = serde_json::from_str(&run(&["analyze", file, "--format", "json"])).unwrap();
        assert_eq!(v["summary"]["semantics"], "heaptui");
        assert_eq!(v["top_retained"][0]["class"], "sun.misc.Launcher$AppClassLoader");
    }
    let sql = "SELECT retained FROM objects WHERE id = 0xd6fc3f90";
    assert!(run(&["query", file, "--semantics", "visualvm", sql]).contains(" 384\n"));
    assert!(run(&["query", file, sql]).contains(" 59504\n"));
    let v: Value =
        serde_json::from_str(&run(&["inspect", file, "0xd6fc3f90", "--format", "json", "--semantics", "visualvm"]))
            .unwrap();
    assert_eq!(v[0]["retained_bytes"], 384);
    let text = run(&["analyze", file, "--semantics", "mat"]);
    assert!(text.lines().next().unwrap().ends_with("size model hotspot, mat rules)"), "{text}");
}

#[test]
fn no_arguments_analyses_the_bundled_demo() {
    let out = heaptui(&[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    // The demo's leak: 2000 sessions in a static cache.
    assert!(text.contains("LeakyCache$Session"), "{text}");
    assert!(text.lines().any(|l| l.contains("2000") && l.contains("LeakyCache$Session")));
}

#[test]
fn leak_report_formats() {
    // The bundled demo: a static cache of 2000 sessions, held through the LeakyCache class.
    let dir = tempfile::tempdir().unwrap();
    let gz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/demo.hprof.gz");
    let dump = dir.path().join("demo.hprof.gz");
    std::fs::copy(gz, &dump).unwrap();
    let path = dump.to_str().unwrap();
    let v = json(&["analyze", path, "--format", "json"]);
    let leaks = v["leaks"].as_array().unwrap();
    assert_eq!(leaks.len(), 1, "{leaks:?}");
    let l = &leaks[0];
    assert_eq!(l["kind"], "application");
    assert_eq!(l["rule"], "accumulation");
    assert_eq!(l["class"], "class LeakyCache");
    for k in ["signature", "reason", "instances", "retained_bytes", "gc_root", "trace"] {
        assert!(l.get(k).is_some(), "{k}");
    }
    let last = l["trace"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["leaking"], "YES");
    assert!(v["metadata"].is_object());
    // The demo names 2000 sessions' users "user-" + (i % 97): 60 names made 21 times, 37 made 20.
    let dups = v["duplicate_strings"].as_array().unwrap();
    let users: Vec<&serde_json::Value> =
        dups.iter().filter(|d| d["value"].as_str().unwrap().starts_with("user-")).collect();
    assert!(!users.is_empty());
    assert!(users.iter().all(|d| d["count"] == 21 || d["count"] == 20), "{users:?}");
    assert_eq!(dups[0]["count"], 21);
    let threads = v["threads"].as_array().unwrap();
    assert!(threads.iter().any(|t| t["name"] == "main" && t["count"] == 1));
    let out = heaptui(&["analyze", path, "--format", "leakcanary"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("1 APPLICATION LEAKS") && text.contains("╰→ LeakyCache class"), "{text}");
    // Without the holder rule, the class-wide one finds the 2000 sessions themselves; without
    // both, nothing is left.
    let v = json(&["analyze", path, "--format", "json", "--disable-rule", "accumulation"]);
    let leaks = v["leaks"].as_array().unwrap();
    assert_eq!(leaks.len(), 1);
    assert_eq!(leaks[0]["rule"], "accumulation.class");
    assert_eq!(leaks[0]["instances"], 2000);
    assert_eq!(leaks[0]["class"], "LeakyCache$Session");
    let v = json(&[
        "analyze",
        path,
        "--format",
        "json",
        "--disable-rule",
        "accumulation",
        "--disable-rule",
        "accumulation.class",
    ]);
    assert!(v["leaks"].as_array().unwrap().is_empty());
    let koom = json(&["analyze", path, "--format", "koom"]);
    assert_eq!(koom["gcPaths"].as_array().unwrap().len(), 1);
    assert!(koom["runningInfo"].is_object());
}

#[test]
fn strip_restore_convert_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let input = fixture(DIALER);
    let input = input.to_str().unwrap();
    // Strip to a zstd file, restore it; the restored dump has the app heap's objects and sizes.
    let out = heaptui(&["strip", input, &d("s.hprof.zst"), "--mode", "koom", "--zstd"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = heaptui(&["restore", &d("s.hprof.zst"), &d("r.hprof")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json(&["analyze", &d("r.hprof"), "--format", "json"]);
    // perflib: heap 'A' holds 38 classes and 1406 instances; KOOM drops the zygote's objects,
    // but every class dump stays (3571).
    let app = v["heaps"].as_array().unwrap().iter().find(|h| h["name"] == "app").unwrap().clone();
    assert_eq!(app["objects"], 38 + 1406);
    assert_eq!(v["summary"]["classes"], 3571);
    // Never over an existing file: 6, output.
    let out = heaptui(&["strip", input, &d("r.hprof")]);
    assert_eq!(out.status.code(), Some(6));
    assert!(String::from_utf8_lossy(&out.stderr).contains("never overwrites"));
    // stdin to stdout.
    let mut child = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["strip", "-", "-", "--mode", "koom"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let bytes = std::fs::read(input).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&bytes).unwrap();
    });
    let piped = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(piped.status.success());
    let restored_from_file = heaptui(&["strip", input, &d("k.hprof"), "--mode", "koom"]);
    assert!(restored_from_file.status.success());
    assert_eq!(piped.stdout, std::fs::read(d("k.hprof")).unwrap());
    // convert: as hprof-conv (compared byte for byte in heap/tests/strip.rs); a HotSpot dump is refused.
    let out = heaptui(&["convert", input, &d("c.hprof")]);
    assert!(out.status.success());
    assert_eq!(&std::fs::read(d("c.hprof")).unwrap()[..19], b"JAVA PROFILE 1.0.2\0");
    let out = heaptui(&["convert", &d("c.hprof"), &d("c2.hprof")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already a HotSpot dump"));
    // Written files are the owner's only.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(d("r.hprof")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

/// `--baseline`: ahat's DiffTest pair. The class histogram's changes include the added and removed
/// objects and the 10000 StackSmasher objects of stackSmasherAdded.
#[test]
fn analyze_against_a_baseline() {
    let new = fixture("android/ahat-art__test-dump.hprof");
    let old = fixture("android/ahat-art__test-dump-base.hprof");
    let map = fixture("android/ahat-art__test-dump.map");
    let args = ["analyze", new.to_str().unwrap(), "--baseline", old.to_str().unwrap(), "--map", map.to_str().unwrap()];
    let v = json(&[&args[..], &["--format", "json", "--top", "1000"]].concat());
    let classes = v["diff"]["classes"].as_array().unwrap();
    let d = |c: &str| {
        classes.iter().find(|d| d["class"] == c).map(|d| (d["instances"][0].clone(), d["instances"][1].clone()))
    };
    assert_eq!(d("DumpedStuff$AddedObject"), Some((0.into(), 1.into())));
    assert_eq!(d("DumpedStuff$RemovedObject"), Some((1.into(), 0.into())));
    let (a, b) = d("DumpedStuff$StackSmasher").unwrap();
    assert_eq!(b.as_u64().unwrap() - a.as_u64().unwrap(), 10000);
    assert!(v["diff"]["growing"].is_array());
    // In text, each change's sign stands beside its number ("+10000", "+117.2 KiB").
    let out = heaptui(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    let since = text.split("Since the baseline").nth(1).expect("the diff section");
    let row = since.lines().find(|l| l.ends_with("DumpedStuff$StackSmasher")).expect("the StackSmasher row");
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert!(cells[0].starts_with('+') && cells[1].starts_with('+') && cells[1].len() > 1, "{row:?}");
}

/// `--histogram-only`: the one-pass histogram, with hprof-slurp's counts for hprof-64.bin
/// (its gold output: 1516 java.lang.String, 436 int[]).
#[test]
fn histogram_only() {
    let path = fixture("jvm/hprof-slurp__hprof-64.bin");
    let v = json(&["analyze", path.to_str().unwrap(), "--histogram-only", "--format", "json"]);
    let rows = v["histogram"].as_array().unwrap();
    let count = |c: &str| rows.iter().find(|r| r["class"] == c).map(|r| r["instances"].clone());
    assert_eq!(count("java.lang.String"), Some(1516.into()));
    assert_eq!(count("int[]"), Some(436.into()));
    assert!(rows.iter().all(|r| r.get("retained_bytes").is_none()));
    let out = heaptui(&["analyze", path.to_str().unwrap(), "--histogram-only"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("java.lang.String"));
}

#[test]
fn a_second_analysis_reads_the_index_cache() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("dialer.hprof");
    std::fs::copy(fixture(DIALER), &dump).unwrap();
    let cache = dir.path().join("cache");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .args(["analyze", dump.to_str().unwrap(), "--format", "json"])
            .args(extra)
            .env("HEAPTUI_INDEX_CACHE", &cache)
            .env("HEAPTUI_INDEX_CACHE_MIN", "0")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (out.stdout, String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (first, note) = run(&[]);
    assert!(!note.contains("from the cache"), "{note}");
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 1);
    let (second, note) = run(&[]);
    assert!(note.contains("index read from the cache"), "{note}");
    assert_eq!(first, second);
    // --no-cache: analysed again, the same answer.
    let (third, note) = run(&["--no-cache"]);
    assert!(!note.contains("from the cache"), "{note}");
    assert_eq!(first, third);
    // A damaged cache file: said, not used, and the answer is the same.
    let file = std::fs::read_dir(&cache).unwrap().next().unwrap().unwrap().path();
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&file, bytes).unwrap();
    let (fourth, note) = run(&[]);
    assert!(note.contains("index cache not used"), "{note}");
    assert_eq!(first, fourth);
    // A cache directory others can write (a shared HEAPTUI_INDEX_CACHE): not read, not written,
    // and said why.
    use std::os::unix::fs::PermissionsExt;
    for f in std::fs::read_dir(&cache).unwrap() {
        std::fs::remove_file(f.unwrap().path()).unwrap();
    }
    run(&[]);
    let planted: Vec<_> =
        std::fs::read_dir(&cache).unwrap().map(|f| std::fs::read(f.unwrap().path()).unwrap()).collect();
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    let (fifth, note) = run(&[]);
    assert!(note.contains("index cache not used") && note.contains("others can write"), "{note}");
    assert!(!note.contains("from the cache"), "{note}");
    assert_eq!(first, fifth);
    let after: Vec<_> = std::fs::read_dir(&cache).unwrap().map(|f| std::fs::read(f.unwrap().path()).unwrap()).collect();
    assert_eq!(planted, after, "the shared directory is left as it was");
}

/// `doctor --libart` on every libart the tests have: Debian's builds of Android 11 and 14, a
/// phone-shaped 14 (`DumpHeap` hidden, in a `create_minidebuginfo` MiniDebugInfo) and a
/// phone-shaped 2024+ module (the 15 `SuspendAllInternal` in its MiniDebugInfo only). Every
/// symbol the fork dump looks for is where `readelf` says (the MiniDebugInfo's where `.dynsym`
/// lacks it); the runtime is what the library's symbols say, whatever `--sdk` says (a 13 phone
/// may carry the 2024 module), with the symbol that decided; a library whose deciding symbols
/// are unreadable is refused, naming why; a file that is not a library is an error.
#[test]
fn doctor_reads_a_real_libart() {
    use forkdump::art::{SUSPEND_ALL_INTERNAL_11, SUSPEND_ALL_INTERNAL_15};
    use forkdump::plan::{Generation, Sequence};
    use test_support::libart::{debian_14, device_shaped, Shape, DEBIAN_11};
    let doctor = |lib: &std::path::Path, sdk: Option<u32>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_heaptui"));
        cmd.arg("doctor").arg("--libart").arg(lib).args(["--format", "json"]);
        if let Some(sdk) = sdk {
            cmd.args(["--sdk", &sdk.to_string()]);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let methods = |v: &serde_json::Value| -> Vec<(String, bool)> {
        v["methods"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["name"].as_str().unwrap().to_string(), m["supported"].as_bool().unwrap()))
            .collect()
    };
    let dir = tempfile::tempdir().unwrap();
    let art14 = debian_14();
    let shaped = dir.path().join("libart.so");
    let hprof = ["_ZN3art5hprof8DumpHeapEPKcib", "_ZN3art5hprof5HprofC2EPKcib", "_ZN3art5hprof5Hprof4DumpEv"];
    device_shaped(&art14, &Shape { hide: &hprof, mini: &hprof[..1], renamed: &[], filler: 2000 }, &shaped);
    let module = dir.path().join("libart-2024.so");
    let hidden = [hprof[0], hprof[1], hprof[2], SUSPEND_ALL_INTERNAL_11];
    let shape = Shape {
        hide: &hidden,
        mini: &hprof[..1],
        renamed: &[(SUSPEND_ALL_INTERNAL_11, SUSPEND_ALL_INTERNAL_15)],
        filler: 2000,
    };
    device_shaped(&art14, &shape, &module);
    // Debian's builds export the `Hprof` object, which the child prefers; the shaped ones hide
    // its constructor and keep `DumpHeap` in the MiniDebugInfo.
    for (lib, sdk, generation, decided_by, dump) in [
        (std::path::Path::new(DEBIAN_11), None, Generation::Art11To14, ("dynsym", SUSPEND_ALL_INTERNAL_11), "Hprof"),
        (art14.as_path(), Some(34), Generation::Art11To14, ("dynsym", SUSPEND_ALL_INTERNAL_11), "Hprof"),
        (shaped.as_path(), None, Generation::Art11To14, ("dynsym", SUSPEND_ALL_INTERNAL_11), "DumpHeap"),
        // Android 13's platform, the 2024 module: the module decides.
        (module.as_path(), Some(33), Generation::Art15On, ("gnu_debugdata", SUSPEND_ALL_INTERNAL_15), "DumpHeap"),
    ] {
        let v = doctor(lib, sdk);
        assert_eq!(v["fork"]["sequence"], Sequence::Hold.name(), "{}: {v}", lib.display());
        assert_eq!(v["fork"]["chosen_by"], "symbols");
        assert_eq!(v["fork"]["runtime"], generation.name(), "{}", lib.display());
        assert_eq!(
            (v["fork"]["evidence"]["table"].as_str(), v["fork"]["evidence"]["symbol"].as_str()),
            (Some(decided_by.0), Some(decided_by.1))
        );
        assert_eq!(v["fork"]["dump"], dump, "{}", lib.display());
        assert_eq!(v["fork"]["missing"], serde_json::json!([]));
        assert!(v["fork"]["refused"].is_null(), "{v}");
        let perfetto = sdk.is_some_and(|s| s >= 30);
        let expected: Vec<(String, bool)> = [("fork", true), ("perfetto", perfetto), ("am", true), ("attach", false)]
            .map(|(n, b)| (n.to_string(), b))
            .into();
        assert_eq!(methods(&v), expected);
        for (name, table) in v["fork"]["symbols"].as_object().unwrap() {
            let expected = if test_support::libart::readelf(lib, "--dyn-syms", name).is_some() {
                Some("dynsym")
            } else if lib != Path::new(DEBIAN_11)
                && lib != art14
                && (name == hprof[0] || name == SUSPEND_ALL_INTERNAL_15 && lib == module)
            {
                Some("gnu_debugdata")
            } else {
                None
            };
            assert_eq!(table.as_str(), expected, "{name} in {}", lib.display());
        }
    }
    // The module's MiniDebugInfo garbled: its generation is no longer known, and the fork dump
    // is refused, saying why (an unknown runtime gets no fork, whatever else is there).
    let bytes = std::fs::read(&module).unwrap();
    let xz = bytes.windows(6).position(|w| w == b"\xfd7zXZ\0").expect("the MiniDebugInfo's xz");
    let mut garbled = bytes.clone();
    for b in &mut garbled[xz + 64..xz + 96] {
        *b ^= 0x5a;
    }
    let broken = dir.path().join("libart-broken.so");
    std::fs::write(&broken, garbled).unwrap();
    let v = doctor(&broken, Some(33));
    assert_eq!(methods(&v)[0], ("fork".to_string(), false));
    assert_eq!(v["fork"]["runtime"], Generation::Unknown.name());
    let why = v["methods"][0]["why"].as_str().unwrap();
    assert!(why.contains("no ART the fork dump knows") && why.contains("MiniDebugInfo"), "{why}");
    let out =
        Command::new(env!("CARGO_BIN_EXE_heaptui")).args(["doctor", "--libart", "/etc/hostname"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a library heaptui can read"));
}

/// `doctor` with no phone (no adb server on the port it is given) lists what the binary
/// carries: each build of `bridge/build.rs` for each ABI, with its size and a SHA-256 that
/// `sha256sum` gives for the same bytes. Reading a runtime, the fork method is unavailable, saying
/// why, when heaptui has no library to load into it: for a CPU it builds none for, and when the
/// folder named by `HEAPTUI_AGENT_DIR` holds one other users could have changed.
#[test]
fn doctor_lists_what_the_binary_carries() {
    use bridge::builds::{Kind, CARRIED};
    use std::os::unix::fs::PermissionsExt;
    let no_server = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let doctor = |args: &[&str], agent_dir: Option<&Path>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_heaptui"));
        cmd.arg("doctor").args(args).env("ANDROID_ADB_SERVER_PORT", no_server.to_string()).env_remove("ANDROID_SERIAL");
        cmd.env_remove("HEAPTUI_AGENT_DIR");
        if let Some(d) = agent_dir {
            cmd.env("HEAPTUI_AGENT_DIR", d);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let v: serde_json::Value = serde_json::from_str(&doctor(&["--format", "json"], None)).unwrap();
    let carried = v["builds"]["carried"].as_array().unwrap();
    assert_eq!(carried.len(), 8, "{v}");
    assert_eq!(v["builds"]["lacking"], serde_json::json!([]));
    let dir = tempfile::tempdir().unwrap();
    for b in CARRIED {
        let row = carried.iter().find(|r| r["abi"] == b.abi && r["file"] == b.file).expect("listed");
        assert_eq!((row["target"].as_str(), row["bytes"].as_u64()), (Some(b.target), Some(b.bytes.len() as u64)));
        let file = dir.path().join(format!("{}-{}", b.abi, b.file));
        std::fs::write(&file, b.bytes).unwrap();
        let sum = Command::new("sha256sum").arg(&file).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&sum.stdout).split_whitespace().next(), row["sha256"].as_str(), "{row}");
    }
    let text = doctor(&[], None);
    assert!(text.starts_with("this heaptui carries, for phones:\n"), "{text}");
    assert_eq!(text.lines().filter(|l| l.contains(" bytes  sha256 ")).count(), 8, "{text}");
    assert!(text.contains("no phone attached"), "{text}");

    // Android 11's libart with its machine made RISC-V's: no library for that CPU.
    let mut riscv = std::fs::read(test_support::libart::DEBIAN_11).unwrap();
    riscv[18..20].copy_from_slice(&243u16.to_le_bytes());
    let lib = dir.path().join("libart-riscv.so");
    std::fs::write(&lib, riscv).unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&doctor(&["--libart", lib.to_str().unwrap(), "--format", "json"], None)).unwrap();
    assert_eq!((v["methods"][0]["name"].as_str(), v["methods"][0]["supported"].as_bool()), (Some("fork"), Some(false)));
    assert!(v["methods"][0]["why"].as_str().unwrap().contains("a CPU heaptui builds no fork dump library for"), "{v}");
    assert_eq!(v["builds"]["carried"].as_array().unwrap().len(), 8);

    // The real x86_64 one, with a library for it in a folder anyone can write.
    let open = dir.path().join("open");
    std::fs::create_dir_all(open.join("x86_64-linux-android")).unwrap();
    let planted = open.join("x86_64-linux-android").join(Kind::ForkLibrary.file());
    std::fs::write(&planted, b"planted").unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&doctor(&["--libart", test_support::libart::DEBIAN_11, "--format", "json"], Some(&open)))
            .unwrap();
    assert_eq!(v["methods"][0]["supported"], false, "{v}");
    assert!(v["methods"][0]["why"].as_str().unwrap().contains("can be changed by other users"), "{v}");
}

/// The dump of `tests/java/Holders.java`: 4,500 sessions held by three known holders. Made once.
fn holders() -> PathBuf {
    static DUMP: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DUMP.get_or_init(|| test_support::holders_dump(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("holders"))).clone()
}

/// `--merged-paths` on the 4,500 sessions: every path passes through the class's statics, then
/// splits into exactly the three holders the program built, with 3,000, 1,000 and 500 paths,
/// each accounting for its sessions' retained sizes (a session and its 1,000-byte array).
#[test]
fn merged_paths_show_the_holders_by_construction() {
    let dump = holders();
    let v = json(&["inspect", dump.to_str().unwrap(), "Holders$Session", "--merged-paths", "--format", "json"]);
    assert_eq!((v["chosen"].as_u64(), v["unreachable"].as_u64()), (Some(4500), Some(0)), "{v}");
    // Down the tree to the node whose children are the three holders' fields.
    let mut node = &v["roots"][0];
    assert_eq!(node["paths"], 4500);
    while node["class"] != "class Holders" {
        assert_eq!(node["children"].as_array().unwrap().len(), 1, "one path down to the class: {node}");
        node = &node["children"][0];
        assert_eq!(node["paths"], 4500);
    }
    let holders: Vec<(String, u64)> = node["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["reference"].as_str().unwrap().to_string(), c["paths"].as_u64().unwrap()))
        .collect();
    assert_eq!(holders, [(".ACTIVE".into(), 3000), (".BY_NAME".into(), 1000), (".QUEUE".into(), 500)]);
    // Each session retains itself and its array: the holder accounts for all of theirs.
    let session = json(&["inspect", dump.to_str().unwrap(), "Holders$Session", "--limit", "1", "--format", "json"]);
    let each = session[0]["retained_bytes"].as_u64().unwrap();
    assert_eq!(node["children"][2]["retained_bytes"].as_u64(), Some(500 * each));
}

/// `--immediate-dominators` on the same sessions: one HashMap$Node each for the map's 3,000, one
/// TreeMap$Entry each for the tree's 1,000, and the list's single Object[] for its 500.
#[test]
fn immediate_dominators_are_the_holders_entries() {
    let dump = holders();
    let v = json(&["inspect", dump.to_str().unwrap(), "Holders$Session", "--immediate-dominators", "--format", "json"]);
    let mut groups: Vec<(String, u64, u64)> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (g["class"].as_str().unwrap().into(), g["dominators"].as_u64().unwrap(), g["dominated"].as_u64().unwrap())
        })
        .collect();
    groups.sort();
    assert_eq!(
        groups,
        [
            ("java.lang.Object[]".into(), 1, 500),
            ("java.util.HashMap$Node".into(), 3000, 3000),
            ("java.util.TreeMap$Entry".into(), 1000, 1000)
        ]
    );
    assert_eq!(v["unreachable"], 0);
}

/// `inspect FILE ID --png OUT.png` writes a Bitmap's picture; the JDK's own PNG decoder reads
/// back exactly the pixels each Bitmap was made of, in every format Android kept; a second write
/// to the same file is refused, and a Bitmap without pixels or an object that is no Bitmap is
/// an error that says why.
#[test]
fn bitmaps_written_as_png_read_back_with_the_jdks_decoder() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("bitmaps.hprof");
    std::fs::write(&dump, test_support::bitmaps::dump()).unwrap();
    let classes = dir.path().join("classes");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/java/ReadPng.java");
    assert!(Command::new("javac").arg("-d").arg(&classes).arg(&src).status().unwrap().success());
    let known = test_support::bitmaps::known();
    for (i, k) in known.iter().enumerate() {
        let png = dir.path().join(format!("{}.png", k.config));
        let id = format!("{:#x}", test_support::bitmaps::id(i));
        let out = heaptui(&["inspect", dump.to_str().unwrap(), &id, "--png", png.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        // The size it reports is the picture's, and the file is its owner's alone.
        let said = format!("wrote {}x{} pixels", k.width, k.height);
        assert!(String::from_utf8_lossy(&out.stdout).contains(&said), "{out:?}");
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&png).unwrap().permissions().mode() & 0o777, 0o600);
        let read = Command::new("java").arg("-cp").arg(&classes).arg("ReadPng").arg(&png).output().unwrap();
        assert!(read.status.success(), "{}", String::from_utf8_lossy(&read.stderr));
        let text = String::from_utf8(read.stdout).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(format!("{} {}", k.width, k.height).as_str()));
        let pixels: Vec<[u8; 4]> = lines
            .map(|l| {
                let v: Vec<u8> = l.split(' ').map(|x| x.parse().unwrap()).collect();
                [v[0], v[1], v[2], v[3]]
            })
            .collect();
        assert_eq!(pixels, k.rgba, "{}", k.config);
        // Never over a file.
        let again = heaptui(&["inspect", dump.to_str().unwrap(), &id, "--png", png.to_str().unwrap()]);
        assert_eq!(again.status.code(), Some(6));
    }
    let none = format!("{:#x}", test_support::bitmaps::id(known.len()));
    let out = heaptui(&["inspect", dump.to_str().unwrap(), &none, "--png", dir.path().join("x.png").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no pixels"), "{out:?}");
    let out =
        heaptui(&["inspect", dump.to_str().unwrap(), "0x100", "--png", dir.path().join("y.png").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a Bitmap"), "{out:?}");
}

/// `query`: SQL over the Dialer dump against perflib's numbers (1406 byte[] of 681489 bytes, its
/// 11182 GC roots and 11 thread objects: 11193 root records), the dominator tree's top (the
/// virtual root's children retain every reachable byte), the referrers `inspect` lists, the
/// three formats, `--schema`, and a bad query's message with its place.
#[test]
fn query_the_heap_with_sql() {
    let dump = fixture(DIALER);
    let d = dump.to_str().unwrap();
    let q = |sql: &str| json(&["query", d, sql, "--format", "json"]);
    let v = q("SELECT count(*) AS n, sum(shallow) AS bytes FROM objects WHERE class = 'byte[]'");
    assert_eq!((v[0]["n"].as_u64(), v[0]["bytes"].as_u64()), (Some(1406), Some(681489)), "{v}");
    let v = q("SELECT instances, shallow FROM classes WHERE name = 'byte[]'");
    assert_eq!((v[0]["instances"].as_u64(), v[0]["shallow"].as_u64()), (Some(1406), Some(681489)), "{v}");
    let v = q("SELECT count(*) AS n, sum(kind = 'thread_object') AS threads FROM roots");
    assert_eq!((v[0]["n"].as_u64(), v[0]["threads"].as_u64()), (Some(11193), Some(11)), "{v}");
    // perflib: 43687 objects; the class join by class_id loses none.
    let v = q("SELECT count(*) AS n FROM objects o JOIN classes c ON c.id = o.class_id");
    assert_eq!(v[0]["n"], 43687);
    let analyzed = json(&["analyze", d, "--format", "json"]);
    let v = q("SELECT sum(retained) AS bytes FROM objects WHERE dominator IS NULL AND reachability <> 'unreachable'");
    assert_eq!(v[0]["bytes"], analyzed["summary"]["reachable_bytes"], "{v}");
    // The referrers of the leak's object, as `inspect` lists them.
    let v = q("SELECT id FROM objects WHERE class = 'com.android.dialer.calllog.CallLogNotificationsService'");
    let id = v[0]["id"].as_u64().unwrap();
    let inspected = json(&["inspect", d, &format!("{id:#x}"), "--format", "json"]);
    let referrers = inspected[0]["referrers"].as_array().unwrap().len() as u64;
    let v = q(&format!("SELECT count(DISTINCT src) AS n FROM refs WHERE dst = {id}"));
    assert_eq!(v[0]["n"].as_u64(), Some(referrers));
    assert!(referrers > 0);
    // A lookup by a real that is an integer finds the object; by text, nothing.
    assert_eq!(q(&format!("SELECT count(*) AS n FROM objects WHERE id = {id}.0"))[0]["n"], 1);
    assert_eq!(q("SELECT count(*) AS n FROM objects WHERE id = 'x'")[0]["n"], 0);
    // Fields by id, and the functions.
    let v = q(&format!("SELECT count(*) AS n FROM fields WHERE id = {id}"));
    assert_eq!(v[0]["n"].as_u64(), Some(inspected[0]["fields"].as_array().unwrap().len() as u64));
    let v = q(&format!("SELECT id_hex({id}) AS h, path({id}) AS p"));
    assert_eq!(v[0]["h"], format!("{id:#x}"));
    assert!(v[0]["p"].as_str().unwrap().ends_with(&format!("{id:#x}")), "{v}");
    // Table and CSV.
    let out = heaptui(&["query", d, "SELECT id, class FROM objects WHERE class = 'byte[]' LIMIT 2"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.trim_start().starts_with("id") && text.contains("0x") && text.contains("(2 rows)"), "{text}");
    let out = heaptui(&["query", d, "SELECT id, class FROM objects WHERE class = 'byte[]' LIMIT 2", "--format", "csv"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().next(), Some("id,class"));
    assert_eq!(text.lines().count(), 3);
    // The schema, and a bad query: exit 1, SQLite's message and where.
    let out = heaptui(&["query", d, "--schema"]);
    let schema = String::from_utf8(out.stdout).unwrap();
    for table in ["objects(", "classes(", "refs(", "roots(", "fields(", "id_hex(id)", "path(id)"] {
        assert!(schema.contains(table), "{table}");
    }
    let out = heaptui(&["query", d, "SELECT count(*) FROM objects WHER id = 1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    // (SQLite reads `WHER` as the table's alias: the error is at `id`.)
    assert!(err.contains("at byte 34") && err.contains("syntax error"), "{err}");
}

/// `GROUP BY class_id` over `objects` is given in class order (SQLite skips its sort), and the
/// groups are the histogram's: every class's instances, class objects under java.lang.Class.
#[test]
fn query_groups_objects_by_class_as_the_histogram_counts_them() {
    let dump = fixture(DIALER);
    let d = dump.to_str().unwrap();
    let plan = json(&[
        "query",
        d,
        "EXPLAIN QUERY PLAN SELECT class_id, count(*) FROM objects GROUP BY class_id",
        "--format",
        "json",
    ]);
    assert!(plan.to_string().contains("INDEX 3"), "{plan}");
    let groups =
        json(&["query", d, "SELECT class_id, count(*) AS n FROM objects GROUP BY class_id", "--format", "json"]);
    let classes = json(&["query", d, "SELECT id, instances FROM classes", "--format", "json"]);
    let histogram: std::collections::HashMap<u64, u64> = classes
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].as_u64().unwrap(), c["instances"].as_u64().unwrap()))
        .collect();
    let total: u64 = groups.as_array().unwrap().iter().map(|g| g["n"].as_u64().unwrap()).sum();
    assert_eq!(total, 43687);
    for g in groups.as_array().unwrap() {
        let (id, n) = (g["class_id"].as_u64().unwrap(), g["n"].as_u64().unwrap());
        // java.lang.Class's group holds the 3571 class objects besides any instances counted.
        if histogram[&id] != n {
            assert_eq!(n - histogram[&id], 3571, "class {id:#x}");
        }
    }
}

/// `refs` reads an array a page at a time: an Object[] of 10,000 elements, every third null,
/// gives exactly its 6,666 references, named by index across the pages, by source and by target.
#[test]
fn query_reads_a_long_array_across_pages() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("array.hprof");
    std::fs::write(&dump, test_support::bitmaps::long_array_dump(10_000)).unwrap();
    let d = dump.to_str().unwrap();
    let q = |sql: &str| json(&["query", d, sql, "--format", "json"]);
    let v = q("SELECT count(*) AS n, count(DISTINCT name) AS names FROM refs WHERE src = 16");
    assert_eq!((v[0]["n"].as_u64(), v[0]["names"].as_u64()), (Some(6666), Some(6666)), "{v}");
    // Either side of the pages' edges (4096, 8192), and the ends.
    let v =
        q("SELECT count(*) AS n FROM refs WHERE src = 16 AND name IN ('[1]', '[4094]', '[4097]', '[8192]', '[9998]')");
    assert_eq!(v[0]["n"], 5);
    let v = q("SELECT count(*) AS n FROM refs WHERE src = 16 AND name IN ('[0]', '[4095]', '[9999]')");
    assert_eq!(v[0]["n"], 0);
    let v = q("SELECT count(*) AS n FROM refs WHERE kind = 'element'");
    assert_eq!(v[0]["n"], 6666);
    let last = 0x10_0000 + 16 * 9_998;
    let v = q(&format!("SELECT src, name FROM refs WHERE dst = {last}"));
    assert_eq!((v[0]["src"].as_u64(), v[0]["name"].as_str()), (Some(16), Some("[9998]")), "{v}");
}

/// `query --export DIR`: every table as Parquet, read back by independent readers (PyPI's pyarrow
/// and DuckDB) with the facts the peers give (perflib on the Dialer dump: 43687 objects, 1406
/// byte[] of 681489 bytes, 11193 root records; hprof-slurp on NetBeans' dump: 2891 primitive
/// arrays, 748 object arrays, 474 classes, 4149 instances, 453 root records), each table's rows
/// and sums equal to what `query` answers, and the README's example: DuckDB reading two dumps'
/// tables at once. A second export into the same place replaces nothing.
#[test]
fn export_writes_tables_other_engines_read() {
    let dir = tempfile::tempdir().unwrap();
    let dumps = [("dialer", fixture(DIALER)), ("netbeans", fixture("jvm/hprof-slurp__hprof-64.bin"))];
    for (name, dump) in &dumps {
        let out = heaptui(&["query", dump.to_str().unwrap(), "--export", dir.path().join(name).to_str().unwrap()]);
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("objects") && text.contains("5 tables"), "{text}");
        // As private as the dump: the folder it made 0700, the tables 0600.
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir.path().join(name)), 0o700);
        assert_eq!(mode(&dir.path().join(name).join("objects.parquet")), 0o600);
    }
    let script = r#"
import json, sys, duckdb, pyarrow.parquet as pq
root = sys.argv[1]
out = {}
for dump in ("dialer", "netbeans"):
    t = {}
    for table in ("objects", "classes", "refs", "roots", "fields"):
        t[table] = pq.read_table(f"{root}/{dump}/{table}.parquet").num_rows
    o = pq.read_table(f"{root}/{dump}/objects.parquet").to_pydict()
    t["kinds"] = {k: o["kind"].count(k) for k in set(o["kind"])}
    t["byte_arrays"] = [sum(1 for c in o["class"] if c == "byte[]"),
                        sum(s for c, s in zip(o["class"], o["shallow"]) if c == "byte[]")]
    t["shallow"] = sum(o["shallow"])
    t["retained_top"] = sum(r for r, d, q in zip(o["retained"], o["dominator"], o["reachability"])
                            if d is None and q != "unreachable")
    f = pq.read_table(f"{root}/{dump}/fields.parquet").to_pydict()
    t["field_values"] = [sum(v is not None for v in f["value"]), sum(v is not None for v in f["value_text"])]
    out[dump] = t
# Two dumps at once, as the README shows it.
out["together"] = duckdb.sql(f"""
    SELECT regexp_extract(filename, '([a-z]+)/objects.parquet', 1) AS dump, count(*) AS objects,
           sum(shallow) AS bytes
    FROM read_parquet('{root}/*/objects.parquet', filename = true)
    GROUP BY dump ORDER BY dump""").fetchall()
print(json.dumps(out))
"#;
    let py = std::process::Command::new("python3")
        .args(["-c", script, dir.path().to_str().unwrap()])
        .output()
        .expect("python3 (run-tests installs pyarrow and duckdb)");
    assert!(py.status.success(), "{}", String::from_utf8_lossy(&py.stderr));
    let read: Value = serde_json::from_slice(&py.stdout).unwrap();
    // The peers' facts.
    let dialer = &read["dialer"];
    assert_eq!(dialer["objects"], 43687);
    assert_eq!(dialer["byte_arrays"], serde_json::json!([1406, 681489]));
    assert_eq!(dialer["roots"], 11193);
    let netbeans = &read["netbeans"];
    let kinds = &netbeans["kinds"];
    assert_eq!(
        (&kinds["primitive_array"], &kinds["object_array"], &kinds["class"], &kinds["instance"]),
        (&serde_json::json!(2891), &serde_json::json!(748), &serde_json::json!(474), &serde_json::json!(4149)),
        "{kinds}"
    );
    assert_eq!(netbeans["roots"], 453);
    // Each table as `query` counts it.
    for (name, dump) in &dumps {
        let d = dump.to_str().unwrap();
        let q = |sql: &str| json(&["query", d, sql, "--format", "json"])[0]["n"].clone();
        let t = &read[*name];
        for table in ["objects", "classes", "refs", "roots", "fields"] {
            assert_eq!(t[table], q(&format!("SELECT count(*) AS n FROM {table}")), "{name} {table}");
        }
        assert_eq!(t["shallow"], q("SELECT sum(shallow) AS n FROM objects"), "{name}");
        let analyzed = json(&["analyze", d, "--format", "json"]);
        assert_eq!(t["retained_top"], analyzed["summary"]["reachable_bytes"], "{name}");
        assert_eq!(t["field_values"][0], q("SELECT count(*) AS n FROM fields WHERE typeof(value) = 'integer'"));
        assert_eq!(t["field_values"][1], q("SELECT count(*) AS n FROM fields WHERE typeof(value) = 'text'"));
    }
    let together = &read["together"];
    assert_eq!(together[0][0], "dialer");
    assert_eq!(together[0][1], 43687);
    assert_eq!(together[1][0], "netbeans");
    assert_eq!(together[1][1], 2891 + 748 + 474 + 4149);
    // Nothing is replaced.
    let objects = dir.path().join("dialer/objects.parquet");
    let before = std::fs::read(&objects).unwrap();
    let again =
        heaptui(&["query", dumps[0].1.to_str().unwrap(), "--export", dir.path().join("dialer").to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(6));
    assert!(String::from_utf8_lossy(&again.stderr).contains("not replaced"), "{again:?}");
    assert_eq!(std::fs::read(&objects).unwrap(), before);
}

/// `query`'s objects and classes per class against VisualVM's heap library (the harness
/// `bench/visualvm/VisualVmHeap.java`, its histogram) on every HotSpot fixture: each class's
/// instances and shallow bytes, counted over `objects` grouped by `class_id` (class objects,
/// which VisualVM lists under no class, left out) and as `classes` has them. Names that several
/// class loaders define are compared only where both sides have one class of that name.
#[test]
fn query_counts_per_class_match_visualvm() {
    const JAR: &str = "/usr/share/visualvm/visualvm/modules/org-graalvm-visualvm-lib-jfluid-heap.jar";
    assert!(Path::new(JAR).exists(), "VisualVM's heap library is missing: apt-get install visualvm");
    let mut names: Vec<String> = std::fs::read_dir(fixture("jvm"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| (n.ends_with(".hprof") || n.ends_with(".bin")) && !n.contains("minimal"))
        .collect();
    names.sort();
    assert!(names.len() >= 12, "{names:?}");
    let work = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/visualvm/VisualVmHeap.java");
    let ok = Command::new("javac").args(["-cp", JAR, "-d"]).arg(work.path()).arg(&src).status().unwrap();
    assert!(ok.success());
    let mut cmd = Command::new("java");
    cmd.arg("-cp").arg(format!("{JAR}:{}", work.path().display())).args(["VisualVmHeap", "--no-retained"]);
    for (i, n) in names.iter().enumerate() {
        // VisualVM writes its caches beside what it opens: it reads copies.
        let copy = work.path().join(format!("{i}.hprof"));
        std::fs::copy(fixture(&format!("jvm/{n}")), &copy).unwrap();
        cmd.arg(copy);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Per dump: class name → every (instances, shallow bytes) VisualVM lists under that name.
    let mut peers: Vec<std::collections::HashMap<String, Vec<(u64, u64)>>> = Vec::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "file" => peers.push(Default::default()),
            "class" => peers
                .last_mut()
                .unwrap()
                .entry(f[1].to_string())
                .or_default()
                .push((f[2].parse().unwrap(), f[3].parse().unwrap())),
            _ => {}
        }
    }
    assert_eq!(peers.len(), names.len());
    for (name, peer) in names.iter().zip(&peers) {
        let dump = fixture(&format!("jvm/{name}"));
        let d = dump.to_str().unwrap();
        let grouped = json(&[
            "query",
            d,
            "SELECT c.name AS name, count(*) AS n, sum(o.shallow) AS bytes FROM objects o \
             JOIN classes c ON c.id = o.class_id WHERE o.kind <> 'class' GROUP BY o.class_id",
            "--format",
            "json",
        ]);
        let classes =
            json(&["query", d, "SELECT name, instances AS n, shallow AS bytes FROM classes", "--format", "json"]);
        for (what, rows) in [("objects", &grouped), ("classes", &classes)] {
            let mut ours: std::collections::HashMap<String, Vec<(u64, u64)>> = Default::default();
            for r in rows.as_array().unwrap() {
                let v = (r["n"].as_u64().unwrap(), r["bytes"].as_u64().unwrap());
                ours.entry(r["name"].as_str().unwrap().to_string()).or_default().push(v);
            }
            let mut compared = 0;
            for (class, theirs) in peer {
                let mine = ours.get(class).cloned().unwrap_or_default();
                if theirs.len() == 1 && mine.len() <= 1 && theirs[0].0 > 0 {
                    assert_eq!(mine.first().copied().unwrap_or_default(), theirs[0], "{name} {what}: {class}");
                    compared += 1;
                }
            }
            assert!(compared >= 100, "{name} {what}: only {compared} classes compared");
        }
    }
}

/// What the fixtures' `.expected` files say, asked in SQL: the GC-root records hprof-slurp counts
/// on NetBeans' 32-bit dump (54 unknown, 8 thread objects, 395 JNI globals, 1 JNI local, 14 Java
/// frames, 381 sticky classes, 7 thread blocks, 2 monitors: 862, one naming no object), the 465 root records naming 362
/// distinct objects of MAT's `sun_jdk5_64bit` (of which MAT lists 354; the difference is its rule,
/// not the file's), and MAT's OQL join tests on `sun_jdk6_18_x32` (OQLTest: the cross join of
/// Integers and Booleans has #Integer × #Boolean rows; joined on equal `value`, a left join keeps
/// at least every Integer, an inner join at most the fewer of the two, and joined rows agree).
#[test]
fn query_answers_what_the_peers_assert() {
    let n = |dump: &str, sql: &str| -> u64 {
        let f = fixture(dump);
        json(&["query", f.to_str().unwrap(), sql, "--format", "json"])[0]["n"].as_u64().unwrap()
    };
    // One of its thread-object records names an object the dump does not hold: `roots` lists the
    // records whose object is there (its ids join `objects`), and the dump's warning says so.
    let slurp = "jvm/hprof-slurp__hprof-32.bin";
    assert_eq!(n(slurp, "SELECT count(*) AS n FROM roots"), 862 - 1);
    for (kind, count) in [("thread_object", 8 - 1), ("jni_global", 395), ("java_frame", 14), ("sticky_class", 381)] {
        assert_eq!(n(slurp, &format!("SELECT count(*) AS n FROM roots WHERE kind = '{kind}'")), count, "{kind}");
    }
    let analyzed = json(&["analyze", fixture(slurp).to_str().unwrap(), "--format", "json"]);
    assert_eq!(analyzed["warnings"][0], "1 GC root records name objects that are not in the dump");
    let jdk5 = "jvm/eclipse-mat__sun_jdk5_64bit.hprof";
    assert_eq!(n(jdk5, "SELECT count(*) AS n FROM roots"), 465);
    assert_eq!(n(jdk5, "SELECT count(DISTINCT id) AS n FROM roots"), 362);
    assert_eq!(n(jdk5, "SELECT count(*) AS n FROM objects WHERE root IS NOT NULL"), 362);

    let mat = "jvm/eclipse-mat__sun_jdk6_18_x32.hprof";
    // MAT's OQL runs with unreachable objects discarded.
    let values = |class: &str| {
        format!(
            "(SELECT o.id, f.value FROM objects o JOIN fields f ON f.id = o.id \
             WHERE o.class = '{class}' AND o.reachability <> 'unreachable' AND f.name = 'value')"
        )
    };
    let integers = n(mat, &format!("SELECT count(*) AS n FROM {}", values("java.lang.Integer")));
    let booleans = n(mat, &format!("SELECT count(*) AS n FROM {}", values("java.lang.Boolean")));
    let longs = n(mat, &format!("SELECT count(*) AS n FROM {}", values("java.lang.Long")));
    assert!(integers > 0 && booleans > 0 && longs > 0, "{integers} {booleans} {longs}");
    let cross = n(
        mat,
        &format!(
            "SELECT count(*) AS n FROM {} i, {} b WHERE typeof(i.value) = 'integer' AND b.value IN (0, 1)",
            values("java.lang.Integer"),
            values("java.lang.Boolean")
        ),
    );
    assert_eq!(cross, integers * booleans);
    let (i, l) = (values("java.lang.Integer"), values("java.lang.Long"));
    let left = n(mat, &format!("SELECT count(*) AS n FROM {i} i LEFT JOIN {l} l ON l.value = i.value"));
    let inner = n(mat, &format!("SELECT count(*) AS n FROM {i} i JOIN {l} l ON l.value = i.value"));
    let disagree =
        n(mat, &format!("SELECT count(*) AS n FROM {i} i JOIN {l} l ON l.value = i.value WHERE i.value <> l.value"));
    assert!(left >= integers, "{left} < {integers}");
    assert!(inner <= integers.min(longs), "{inner}");
    assert_eq!(disagree, 0);
}

/// ahat's reachability kinds through `inspect` and `query` on ahat's test dump (with its map):
/// the end of `reachabilityReferenceChain` (… SoftReference → PhantomReference → Object) is
/// phantom and the SoftReference's referent soft, as ahat's InstanceTest asserts; the kinds
/// weaker than strong are exactly the objects the coarser `reachability` calls weak.
#[test]
fn reachability_kinds_in_inspect_and_query() {
    let dump = fixture("android/ahat-art__test-dump.hprof");
    let map = fixture("android/ahat-art__test-dump.map");
    let (d, m) = (dump.to_str().unwrap(), map.to_str().unwrap());
    let q = |sql: &str| json(&["query", d, sql, "--map", m, "--format", "json"]);
    // The object a PhantomReference's referent reaches only through it.
    let phantom = q("SELECT o.id AS id, o.reachability_kind AS kind FROM objects o JOIN refs r ON r.dst = o.id \
         JOIN objects p ON p.id = r.src WHERE p.class = 'java.lang.ref.PhantomReference' AND r.kind = 'weak' \
         AND o.reachability_kind = 'phantom'");
    assert_eq!(phantom.as_array().unwrap().len(), 1, "{phantom}");
    let id = phantom[0]["id"].as_u64().unwrap();
    let inspected = json(&["inspect", d, &format!("{id:#x}"), "--map", m, "--format", "json"]);
    assert_eq!(inspected[0]["reachability_kind"], "phantom");
    assert_eq!(inspected[0]["reachability"], "weak");
    let soft = q("SELECT count(*) AS n FROM objects o JOIN refs r ON r.dst = o.id JOIN objects p ON p.id = r.src \
         WHERE p.class = 'java.lang.ref.SoftReference' AND r.kind = 'weak' AND o.reachability_kind = 'soft'");
    assert!(soft[0]["n"].as_u64().unwrap() >= 1, "{soft}");
    let split = q("SELECT sum(reachability = 'weak') AS weak, \
         sum(reachability_kind IN ('soft', 'finalizer', 'weak', 'phantom')) AS kinds FROM objects");
    assert_eq!(split[0]["weak"], split[0]["kinds"], "{split}");
    assert!(split[0]["weak"].as_u64().unwrap() > 0);
}

/// `--map` renames stack frames too: a mapping that says `Holders.main`'s lines 1–1000 are
/// lines 2001–3000 of a method `start` turns `at Holders.main(Holders.java:N)` into
/// `at Holders.start(Holders.java:N+2000)` in the threads' stacks; without the map the frame
/// is as the dump has it.
#[test]
fn the_map_renames_stack_frames() {
    let dir = tempfile::tempdir().unwrap();
    let dump = holders();
    let map = dir.path().join("mapping.txt");
    std::fs::write(&map, "Holders -> Holders:\n    1:1000:void start(java.lang.String[]):2001:3000 -> main\n").unwrap();
    let main_frame = |v: &Value| -> (String, i64) {
        let main = v["thread_stacks"].as_array().unwrap().iter().find(|t| t["name"] == "main").unwrap().clone();
        let f = main["frames"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["class"] == "Holders")
            .unwrap_or_else(|| panic!("{main}"))
            .clone();
        (f["method"].as_str().unwrap().to_string(), f["line"].as_i64().unwrap())
    };
    let d = dump.to_str().unwrap();
    let (method, line) = main_frame(&json(&["analyze", d, "--format", "json", "--no-cache"]));
    assert_eq!(method, "main");
    assert!((1..=1000).contains(&line), "{line}");
    let mapped = json(&["analyze", d, "--format", "json", "--map", map.to_str().unwrap(), "--no-cache"]);
    assert_eq!(main_frame(&mapped), ("start".to_string(), line + 2000));
}
