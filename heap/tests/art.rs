//! Dumps written by a real ART (Android 10's runtime, `./run-tests` builds it:
//! `test_support::art`), of a program whose heap is known by construction
//! (`tests/java/art/KnownHeap.java`): the engine's answers against the construction, against
//! VisualVM's count of the same records (after Debian's `hprof-conv`), `convert` against
//! `hprof-conv` byte for byte, every size model, strip and restore in every mode, and the Android
//! leak rules on the framework's own class and field names.
//!
//! These dumps have one heap, `app`: this runtime starts without a boot image and without a
//! zygote, so nothing is in the `image` or `zygote` heaps; the strip modes' heap-specific
//! behaviour (KOOM dropping those heaps) is tested on the fixtures (`strip.rs`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use heap::dominators::Reach;
use heap::leaks::{find_leaks, LeakConfig};
use heap::rewrite::rewrite_all;
use heap::strip::{convert_plan, restore_plan, strip_plan, Mode, StripOptions};
use heap::values::Value;
use heap::{Heap, Index, Node, Options, SizeModel};

const HPROF_CONV: &str = "/usr/lib/android-sdk/platform-tools/hprof-conv";
const VISUALVM: &str = "/usr/share/visualvm/visualvm/modules/org-graalvm-visualvm-lib-jfluid-heap.jar";

/// The numbers `KnownHeap.java` builds its heap with.
const NODES: u64 = 5000;
const STRINGS: usize = 1000;
const COPIES: u64 = 100;
const COPIED: &str = "the same characters, held again and again";
const WEAK_ONLY: usize = 50;
const SOFT_ONLY: usize = 30;

/// The dump `KnownHeap` wrote of itself on the real ART, made once per test binary.
fn dump() -> &'static Path {
    static DUMP: OnceLock<PathBuf> = OnceLock::new();
    DUMP.get_or_init(|| {
        let art = test_support::art::art();
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("art-known-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let jar = art.compile(
            &[
                "tests/java/art/KnownHeap.java",
                "tests/java/art/android/app/Activity.java",
                "tests/java/art/android/graphics/Bitmap.java",
                "tests/java/art/leakcanary/KeyedWeakReference.java",
            ],
            &dir,
        );
        let out = dir.join("known.hprof");
        let app = test_support::art::App::new("com.example.known");
        let run = art.start(&jar, "KnownHeap", &[out.to_str().unwrap()], &app);
        assert_eq!(run.first_line.trim(), "dumped");
        let log = run.stop();
        // ART's own line: the dump is ART's hprof, not anything of ours.
        assert!(log.contains("hprof: heap dump completed"), "{log}");
        out
    })
}

fn analysed(model: Option<SizeModel>) -> Heap {
    Heap::open(dump(), Options { size_model: model, ..Default::default() }).unwrap()
}

fn class_node(h: &Heap, name: &str) -> Node {
    let c = h.index.classes_named(name).next().unwrap_or_else(|| panic!("no class {name}"));
    h.index.nodes().find(|&n| h.index.as_class(n) == Some(c)).unwrap()
}

fn static_node(h: &Heap, class: &str, field: &str) -> Node {
    let c = h.index.classes_named(class).next().unwrap();
    let id = h.index.static_value(c, field).and_then(|v| v.as_object()).unwrap();
    h.index.node(id).unwrap_or_else(|| panic!("{class}.{field} names no object"))
}

fn instances(h: &Heap, class: &str) -> Vec<Node> {
    let c = h.index.classes_named(class).next().unwrap_or_else(|| panic!("no class {class}"));
    h.index.nodes().filter(|&n| h.index.class_of(n) == c && h.index.as_class(n).is_none()).collect()
}

#[test]
fn the_heap_reads_as_it_was_built() {
    let h = analysed(None);
    assert_eq!(h.index.sizer.model, SizeModel::Android, "an ART dump is read with ART's sizes");
    let heaps: Vec<String> = h.heap_totals().into_iter().map(|t| t.0).collect();
    assert_eq!(heaps, ["app"], "no boot image, no zygote: one heap");

    // The chain: 5000 links of 16 bytes (ART: 8 bytes of header, a reference, an int), the
    // first holding all the others.
    let links = instances(&h, "KnownHeap$Node");
    assert_eq!(links.len() as u64, NODES);
    assert!(links.iter().all(|&n| h.index.shallow_size(n) == 16));
    let head = static_node(&h, "KnownHeap", "chain");
    assert_eq!(h.index.field(head, "value"), Some(Value::Int(0)));
    assert_eq!(h.dominators.retained(head), NODES * 16);
    assert_eq!(u64::from(h.dominators.retained_count(head)), NODES);

    // Strings: each readable, in order.
    let strings = static_node(&h, "KnownHeap", "strings");
    let held = h.index.array_values(strings).unwrap();
    assert_eq!(held.len(), STRINGS);
    for (i, v) in held.iter().enumerate() {
        let s = h.index.node(v.as_object().unwrap()).unwrap();
        assert_eq!(h.index.string_value(s).as_deref(), Some(format!("known-{i}").as_str()));
    }
    // One value held 101 times (the literal, and 100 Strings made of its characters): the
    // duplicate strings report's first row.
    let dup = heap::leaks::waste::duplicate_strings(&h, 5);
    assert_eq!((dup[0].value.as_str(), dup[0].count), (COPIED, COPIES + 1), "{dup:?}");

    // Arrays of every primitive type, with the values written.
    let arr = |f: &str| h.index.array_values(static_node(&h, "KnownHeap", f)).unwrap();
    let bools: Vec<bool> = arr("booleans").iter().map(|v| matches!(v, Value::Boolean(true))).collect();
    assert_eq!(bools, [true, false, true, true, false, false, true]);
    assert_eq!(arr("bytes"), (0..11).map(|i| Value::Byte((i * 3 - 7) as i8)).collect::<Vec<_>>());
    let chars: String =
        arr("chars").iter().map(|v| if let Value::Char(c) = v { *c as u8 as char } else { '?' }).collect();
    assert_eq!(chars, "thirteen char");
    assert_eq!(arr("shorts"), (0..17).map(|i| Value::Short((i * 1000 - 3) as i16)).collect::<Vec<_>>());
    assert_eq!(arr("ints"), (0..19).map(|i| Value::Int(i * i)).collect::<Vec<_>>());
    assert_eq!(arr("longs"), (0..23).map(|i| Value::Long(i << 40)).collect::<Vec<_>>());
    assert_eq!(arr("floats"), (0..29).map(|i| Value::Float(i as f32 / 4.0)).collect::<Vec<_>>());
    assert_eq!(arr("doubles"), (0..31).map(|i| Value::Double(-i as f64 / 8.0)).collect::<Vec<_>>());
    let objects = arr("objects");
    assert_eq!(objects.len(), 37);
    for (i, v) in objects.iter().enumerate() {
        assert_eq!(*v == Value::Object(0), i % 2 == 1, "objects[{i}]");
    }

    // Reachable only through weak and soft references: never strongly reachable, each holding
    // only itself (12 bytes: the header and an int).
    for (class, n) in [("KnownHeap$WeakOnly", WEAK_ONLY), ("KnownHeap$SoftOnly", SOFT_ONLY)] {
        let all = instances(&h, class);
        assert_eq!(all.len(), n, "{class}");
        for o in all {
            assert_ne!(h.dominators.reach(o), Reach::Strong, "{class}");
            assert_eq!((h.index.shallow_size(o), h.dominators.retained(o)), (12, 12), "{class}");
        }
    }
    // The class object's statics hold everything else.
    let _ = class_node(&h, "KnownHeap");
}

/// The Android rules on the framework's names: the destroyed Activity (watched by LeakCanary
/// 4 s before the dump), the 2048x2048 Bitmap; the running Activity is no suspect.
#[test]
fn the_android_rules_find_what_was_planted() {
    let h = analysed(None);
    let leaks = find_leaks(&h, &LeakConfig::default());
    let list = static_node(&h, "KnownHeap", "leaked");
    let elements = h.index.array_values(h.index.field_node(list, "elementData").unwrap()).unwrap();
    let destroyed = h.index.node(elements[0].as_object().unwrap()).unwrap();
    let live = static_node(&h, "KnownHeap", "live");
    let title = |n: Node| h.index.field_node(n, "title").and_then(|s| h.index.string_value(s));
    assert_eq!(title(destroyed).as_deref(), Some("destroyed"));
    let of = |n: Node| leaks.iter().filter(|l| l.instances.contains(&n)).collect::<Vec<_>>();
    let found = of(destroyed);
    assert!(!found.is_empty(), "{leaks:#?}");
    let reasons: String = found.iter().map(|l| l.reason.as_str()).collect::<Vec<_>>().join(" | ");
    assert!(reasons.contains("watched for 4000 ms before the dump"), "{reasons}");
    // Its trace goes from the class's static through the list to it.
    let trace = &found[0].trace;
    assert!(trace.iter().any(|s| format!("{s:?}").contains("leaked")), "{trace:?}");
    assert!(of(live).is_empty(), "the running activity is no suspect");
    let bitmap = static_node(&h, "KnownHeap", "large");
    let bitmaps = of(bitmap);
    assert!(bitmaps.iter().any(|l| l.rule == "android.bitmap.large" && l.reason.contains("2048x2048")), "{leaks:#?}");
}

/// Every class's instances, as VisualVM's heap library counts the records of the same dump
/// (Debian's hprof-conv turns it into the HotSpot dialect VisualVM reads).
#[test]
fn every_class_counts_as_visualvm_counts_it() {
    assert!(Path::new(VISUALVM).exists() && Path::new(HPROF_CONV).exists(), "apt-get install visualvm hprof-conv");
    let work = tempfile::tempdir().unwrap();
    let converted = work.path().join("converted.hprof");
    assert!(Command::new(HPROF_CONV).arg(dump()).arg(&converted).status().unwrap().success());
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/visualvm/VisualVmHeap.java");
    assert!(Command::new("javac").args(["-cp", VISUALVM, "-d"]).arg(work.path()).arg(&src).status().unwrap().success());
    let out = Command::new("java")
        .arg("-cp")
        .arg(format!("{VISUALVM}:{}", work.path().display()))
        .arg("VisualVmHeap")
        .arg("--no-retained")
        .arg(&converted)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut theirs: Vec<(String, u64)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("class\t"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse().unwrap())
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    let h = analysed(None);
    let mut ours: Vec<(String, u64)> = h
        .index
        .classes
        .iter()
        .zip(&h.histogram)
        .filter(|(_, s)| s.instances > 0)
        .map(|(c, s)| (c.name.clone(), s.instances))
        .collect();
    theirs.sort();
    ours.sort();
    assert!(ours.iter().any(|(c, n)| c == "KnownHeap$Node" && *n == NODES));
    assert_eq!(ours, theirs);
}

/// `convert` writes what AOSP's hprof-conv writes, byte for byte, with and without -z.
#[test]
fn convert_is_hprof_conv() {
    let bytes = std::fs::read(dump()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for z in [false, true] {
        let theirs = dir.path().join("theirs.hprof");
        let _ = std::fs::remove_file(&theirs);
        let mut cmd = Command::new(HPROF_CONV);
        if z {
            cmd.arg("-z");
        }
        assert!(cmd.arg(dump()).arg(&theirs).status().unwrap().success());
        let ours = rewrite_all(&bytes[..], Vec::new(), convert_plan(z)).unwrap().0;
        assert!(ours == std::fs::read(&theirs).unwrap(), "-z={z}: convert differs from hprof-conv");
    }
}

/// Each size model: the chain's head retains every link once, at that model's size of a link.
#[test]
fn every_size_model_counts_each_link_once() {
    for model in [SizeModel::Android, SizeModel::Hotspot, SizeModel::Mat] {
        let h = analysed(Some(model));
        let links = instances(&h, "KnownHeap$Node");
        assert_eq!(links.len() as u64, NODES, "{model:?}");
        let size = h.index.shallow_size(links[0]);
        assert!(size >= 16 && links.iter().all(|&n| h.index.shallow_size(n) == size), "{model:?}");
        assert_eq!(h.dominators.retained(static_node(&h, "KnownHeap", "chain")), NODES * size, "{model:?}");
    }
}

/// Strip then restore, in every mode: the objects, classes and references stay; what each mode
/// keeps of the values is kept.
#[test]
fn strip_and_restore_in_every_mode() {
    let bytes = std::fs::read(dump()).unwrap();
    let original = analysed(None);
    let analyse = |b: Vec<u8>| {
        let o = Options::default();
        Heap::analyse(Index::from_bytes(b, o).unwrap(), o)
    };
    let counts = |h: &Heap| -> Vec<(String, u64, u64)> {
        h.index.classes.iter().zip(&h.histogram).map(|(c, s)| (c.name.clone(), s.instances, s.retained_bytes)).collect()
    };
    for mode in [Mode::Triage, Mode::Koom, Mode::Matrix, Mode::Redact] {
        let stripped = if mode == Mode::Matrix {
            heap::strip::strip_matrix(bytes.clone(), Vec::new()).unwrap().0
        } else {
            rewrite_all(&bytes[..], Vec::new(), strip_plan(&StripOptions { mode, ..Default::default() })).unwrap().0
        };
        assert!(stripped.len() < bytes.len(), "{mode:?}");
        let restored = analyse(rewrite_all(&stripped[..], Vec::new(), restore_plan()).unwrap().0);
        assert_eq!(counts(&restored), counts(&original), "{mode:?}");
        let first = |h: &Heap| {
            let s = h.index.array_values(static_node(h, "KnownHeap", "strings")).unwrap()[7].as_object().unwrap();
            h.index.string_value(h.index.node(s).unwrap())
        };
        let ints = |h: &Heap| h.index.array_values(static_node(h, "KnownHeap", "ints")).unwrap();
        match mode {
            Mode::Triage | Mode::Matrix => assert_eq!(first(&restored).as_deref(), Some("known-7"), "{mode:?}"),
            // The characters are gone; restored, they are zeros of the right length.
            Mode::Koom | Mode::Redact => assert_eq!(first(&restored).as_deref(), Some("\0\0\0\0\0\0\0"), "{mode:?}"),
        }
        let zeros = ints(&restored).iter().all(|v| *v == Value::Int(0));
        assert_eq!(zeros, mode != Mode::Triage, "{mode:?}: the ints kept only by triage");
    }
}
