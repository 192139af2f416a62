//! Leak triage end to end: a JVM app with three known leaks (and the same app with each leak
//! undone), Android fixtures, a hand-built framework leak, and the report formats.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use common::builder::{Builder, BOOL, INT, LONG, OBJ};
use common::*;
use heap::leaks::inspect::Leaking;
use heap::leaks::{find_leaks, LeakConfig, LeakKind, ReferenceType};
use heap::proguard::ProguardMap;
use heap::{Heap, Index, Options};

/// Compiles `tests/java/LeakyApp.java` and its plugin, runs it in `mode` on OpenJDK and returns
/// the dump it writes of itself. Built once per test binary.
fn leaky_app(mode: &str) -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("leaky-app");
        // The two runs of the issue, and an earlier moment of the leaky one (1000 sessions).
        test_support::leaky_app_dumps(
            &dir,
            &[("leaky", "leaky", 4000), ("clean", "clean", 4000), ("leaky", "early", 1000)],
        );
        dir
    });
    dir.join(format!("{mode}.hprof"))
}

fn suspects(trace: &[heap::leaks::TraceStep]) -> Vec<String> {
    trace.iter().filter(|t| t.suspect_reference).filter_map(|t| t.reference.clone()).collect()
}

#[test]
fn jvm_app_shows_exactly_its_three_leaks() {
    let h = Heap::open(&leaky_app("leaky"), Options::default()).unwrap();
    let leaks = find_leaks(&h, &LeakConfig::default());
    let mut rules: Vec<&str> = leaks.iter().map(|l| l.rule).collect();
    rules.sort();
    assert_eq!(rules, ["accumulation", "jvm.classloader", "jvm.threadlocal"], "{leaks:#?}");
    assert!(leaks.iter().all(|l| l.kind == LeakKind::Application));

    // The growing static map: the trace goes through LeakyApp.SESSIONS, the likely cause.
    let acc = leaks.iter().find(|l| l.rule == "accumulation").unwrap();
    assert!(suspects(&acc.trace).contains(&".SESSIONS".to_string()), "{:?}", acc.trace);
    assert!(acc.retained_bytes > 4000 * 4096, "{}", acc.retained_bytes);
    assert_eq!(acc.class, "java.util.HashMap");
    assert!(acc.reason.starts_with("java.util.HashMap of 4000 entries retains"), "{}", acc.reason);
    let holder = acc.trace.iter().position(|t| h.display_class(t.node) == "class LeakyApp").unwrap();
    assert_eq!(acc.trace[holder].reference.as_deref(), Some(".SESSIONS"));
    assert_eq!(acc.trace[holder].reference_type, Some(ReferenceType::StaticField));

    // The plugin's loader: kept by LeakyApp.PLUGIN -> Plugin -> its class -> the loader.
    let cl = leaks.iter().find(|l| l.rule == "jvm.classloader").unwrap();
    assert_eq!(cl.class, "java.net.URLClassLoader");
    let refs: Vec<Option<&str>> = cl.trace.iter().map(|t| t.reference.as_deref()).collect();
    assert_eq!(&refs[refs.len() - 4..], &[Some(".PLUGIN"), Some("<class>"), Some("<loader>"), None]);
    assert_eq!(suspects(&cl.trace), [".PLUGIN"]);
    let plugin = &cl.trace[cl.trace.len() - 3];
    assert_eq!(h.display_class(plugin.node), "Plugin");
    assert_eq!(plugin.leaking, Leaking::Yes);

    // The stale ThreadLocal: the 1 MiB value, held by the worker thread's map.
    let tl = leaks.iter().find(|l| l.rule == "jvm.threadlocal").unwrap();
    assert_eq!(tl.class, "byte[]");
    assert_eq!(h.index.array_length(tl.instances[0]), Some(1 << 20));
    let thread = tl.trace.iter().find(|t| h.display_class(t.node) == "java.lang.Thread").unwrap();
    assert!(thread.labels.iter().any(|l| l == "Thread name: 'pool-worker-1'"));
    assert_eq!(tl.trace.last().unwrap().leaking, Leaking::Yes);
    assert_eq!(tl.trace[tl.trace.len() - 2].reference.as_deref(), Some(".value"));

    // The FD report: a JVM's standard streams, stdin read through a FileInputStream, stdout and
    // stderr written through FileOutputStreams.
    let mut fds: Vec<(String, usize)> =
        heap::leaks::waste::fd_groups(&h).into_iter().map(|g| (g.holder, g.count)).collect();
    fds.sort();
    assert_eq!(fds, [("java.io.FileInputStream".to_string(), 1), ("java.io.FileOutputStream".to_string(), 2)]);
    // The report finds threads and descriptors in one look at every object: the same groups.
    let file = heap::report::FileInfo { path: "app.hprof", bytes: 0, cut_names: false };
    let (report, _) = h.analyze_report_finding_leaks(&file, 10, &LeakConfig::default(), None);
    let json = report.into_json();
    assert_eq!(json["file_descriptors"], serde_json::json!(heap::leaks::waste::fd_groups(&h)));
    assert_eq!(json["threads"].as_array().map(Vec::len), Some(heap::leaks::waste::thread_groups(&h).len()));

    // Probe's thread report: the worker is there, its number folded.
    let threads = heap::leaks::waste::thread_groups(&h);
    let worker = threads.iter().find(|t| t.name == "pool-worker-#").unwrap();
    assert_eq!((worker.count, worker.example.as_str()), (1, "pool-worker-1"));
}

#[test]
fn jvm_app_without_its_leaks_shows_none() {
    let h = Heap::open(&leaky_app("clean"), Options::default()).unwrap();
    let leaks = find_leaks(&h, &LeakConfig::default());
    assert!(leaks.is_empty(), "{leaks:#?}");
}

#[test]
fn leakcanary_and_koom_reports() {
    let h = Heap::open(&leaky_app("leaky"), Options::default()).unwrap();
    let leaks = find_leaks(&h, &LeakConfig::default());
    let meta = heap::leaks::metadata::extract(&h);
    let text = heap::leaks::render::leakcanary_text(&h, &leaks, &meta, "leaky.hprof", 1);
    assert!(text.starts_with("====================================\nHEAP ANALYSIS RESULT\n"));
    assert!(text.contains("3 APPLICATION LEAKS"));
    assert!(text.contains("0 LIBRARY LEAKS"));
    assert!(text.contains("│ GC Root: System class"));
    assert!(text.contains("│    ↓ static LeakyApp.SESSIONS\n│                      ~~~~~~~~\n"), "{text}");
    assert!(text.contains("╰→ java.net.URLClassLoader instance"));
    assert!(text.contains("Retaining "));
    assert!(text.contains("METADATA"));
    let koom = heap::leaks::render::koom_json(&h, &leaks, &meta);
    let paths = koom["gcPaths"].as_array().unwrap();
    assert_eq!(paths.len(), 3);
    let acc =
        paths.iter().find(|p| p["path"].as_array().unwrap().iter().any(|s| s["reference"] == "SESSIONS")).unwrap();
    let step = acc["path"].as_array().unwrap().iter().find(|s| s["reference"] == "SESSIONS").unwrap();
    assert_eq!(step["declaredClass"], "LeakyApp");
    assert_eq!(step["referenceType"], "STATIC_FIELD");
    assert!(koom["classInfos"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["className"] == "java.net.URLClassLoader" && c["leakInstanceCount"] == "1"));
    for k in ["sdkInt", "manufacture", "buildModel", "threadCount", "nowTime"] {
        assert!(koom["runningInfo"].get(k).is_some(), "{k}");
    }
}

/// ahat's test dump: bitmapOne and bitmapTwo hold the same pixels (ahat's duplicatedBitmaps: one
/// group of two), and bigArray (1,000,000 bytes) is over KOOM's 256 KiB array threshold.
#[test]
fn ahat_test_dump_duplicate_bitmaps_and_big_array() {
    let mut index = Index::open(&fixture("android/ahat-art__test-dump.hprof"), Options::default()).unwrap();
    let map = std::fs::read_to_string(fixture("android/ahat-art__test-dump.map")).unwrap();
    index.deobfuscate(&ProguardMap::parse(&map));
    let h = Heap::analyse(index, Options::default());
    let leaks = find_leaks(&h, &LeakConfig::default());
    let dups: Vec<_> = leaks.iter().filter(|l| l.rule == "android.bitmap.duplicate").collect();
    assert_eq!(dups.len(), 1);
    assert_eq!(dups[0].instances.len(), 2);
    let main = h.index.classes[class(&h, "Main").index()].node.unwrap();
    let stuff = follow(&h, main, "stuff");
    let mut expect = vec![follow(&h, stuff, "bitmapOne"), follow(&h, stuff, "bitmapTwo")];
    expect.sort();
    let mut got = dups[0].instances.clone();
    got.sort();
    assert_eq!(got, expect);
    let big = leaks.iter().find(|l| l.rule == "array.huge").unwrap();
    assert_eq!(big.instances, [follow(&h, stuff, "bigArray")]);
    assert!(!leaks.iter().any(|l| l.rule.starts_with("android.activity") || l.rule.starts_with("android.fragment")));
}

/// The Dialer dump (com.android.dialer on KitKat, API 19): metadata from the dump, and no Activity
/// in the heap, so no lifecycle suspect. ActivityThread's own map of running services is empty
/// (`mServices.mSize` is 0), yet a CallLogNotificationsService is still held: the static
/// `DefaultVoicemailNotifier.sInstance` keeps it as its `mContext`. That is the dump's one leak.
#[test]
fn dialer_metadata_and_its_stopped_service() {
    let h = heap("android/adt-tools-base__dialer.android-hprof", None);
    let meta = heap::leaks::metadata::extract(&h);
    assert_eq!(meta.sdk_int, Some(19));
    assert_eq!(meta.entries.get("App process name").map(String::as_str), Some("com.android.dialer"));
    assert!(heap::leaks::rules::RULES.iter().any(|r| r.name == "android.activity.destroyed"));
    let leaks = find_leaks(&h, &LeakConfig::default());
    assert!(!leaks.iter().any(|l| l.rule == "android.activity.destroyed"));
    let thread = h.index.classes_named("android.app.ActivityThread").next().unwrap();
    let at =
        h.index.node(h.index.static_value(thread, "sCurrentActivityThread").unwrap().as_object().unwrap()).unwrap();
    let services = follow(&h, at, "mServices");
    assert_eq!(h.index.field(services, "mSize"), Some(heap::values::Value::Int(0)));
    assert_eq!(leaks.len(), 1, "{leaks:#?}");
    let l = &leaks[0];
    assert_eq!(
        (l.rule, l.class.as_str()),
        ("android.service.stopped", "com.android.dialer.calllog.CallLogNotificationsService")
    );
    assert_eq!(suspects(&l.trace), [".sInstance", ".mContext"]);
    assert_eq!(h.display_class(l.trace[0].node), "class com.android.dialer.calllog.DefaultVoicemailNotifier");
}

/// A destroyed Activity held through InputMethodManager.mServedView: a known framework leak
/// (AOSP 171190), reported as a library leak with the pattern as its signature. Hand-built, as no
/// fixture holds one.
#[test]
fn input_method_manager_leak_is_a_library_leak() {
    let h =
        Heap::analyse(Index::from_bytes(input_method_manager_leak(), Options::default()).unwrap(), Options::default());
    let leaks = find_leaks(&h, &LeakConfig::default());
    assert_eq!(leaks.len(), 1, "{leaks:#?}");
    let l = &leaks[0];
    assert_eq!(l.kind, LeakKind::Library);
    assert_eq!(l.rule, "android.activity.destroyed");
    assert_eq!(l.library.unwrap().bug, "AOSP 171190");
    let pattern = "instance field android.view.inputmethod.InputMethodManager#mServedView";
    assert_eq!(l.library.unwrap().pattern(), pattern);
    let refs: Vec<Option<&str>> = l.trace.iter().map(|t| t.reference.as_deref()).collect();
    assert_eq!(refs, [Some(".sInstance"), Some(".mServedView"), Some(".mContext"), None]);
    let verdicts: Vec<Leaking> = l.trace.iter().map(|t| t.leaking).collect();
    assert_eq!(verdicts, [Leaking::No, Leaking::No, Leaking::Yes, Leaking::Yes]);
    assert_eq!(l.trace[1].why, "InputMethodManager is a singleton of the process");
    assert_eq!(l.trace[2].why, "View.mContext is a destroyed Activity (its mDestroyed is true)");
    assert!(l.trace[1].suspect_reference);
    assert_eq!(l.reason, "Activity#mDestroyed is true");
    // Every rule decided on this dump.
    assert_eq!(heap::leaks::undecided(&h, &LeakConfig::default()), []);
}

/// The same heap as a Perfetto heap graph (the references without the values): `mDestroyed` is
/// not recorded, so nothing is reported as leaking, and the rules that decide by it say they
/// could not, on how many objects; disabling a rule drops it from that list.
#[test]
fn rules_that_need_values_say_they_could_not_decide_on_a_heap_graph() {
    let dump =
        Heap::analyse(Index::from_bytes(input_method_manager_leak(), Options::default()).unwrap(), Options::default());
    let trace = heap::perfetto::encode::encode(&dump.index, 1, 1);
    let graph = heap::perfetto::read(&trace).unwrap().remove(0);
    let h = Heap::analyse(Index::from_perfetto(&graph, Options::default()).unwrap(), Options::default());
    assert!(h.index.heap_graph.is_some());
    assert_eq!(h.index.field(node(&h, 0x2000), "mDestroyed"), None, "a graph has no such value");
    assert!(find_leaks(&h, &LeakConfig::default()).iter().all(|l| l.rule != "android.activity.destroyed"));
    let undecided = heap::leaks::undecided(&h, &LeakConfig::default());
    let got: Vec<(&str, &str, u64, &str)> =
        undecided.iter().map(|u| (u.rule, u.class, u.objects, u.missing.as_str())).collect();
    assert_eq!(
        got,
        [
            ("android.activity.destroyed", "android.app.Activity", 1, "mDestroyed or mFinished"),
            ("android.view.detached", "android.app.Activity", 1, "mDestroyed"),
        ]
    );
    let config = LeakConfig { disabled: vec!["android.view.detached".into()], ..LeakConfig::default() };
    assert_eq!(heap::leaks::undecided(&h, &config).len(), 1);
}

/// A destroyed Activity held through `InputMethodManager.mServedView` (a View whose context it
/// is), the IMM a static of its class.
fn input_method_manager_leak() -> Vec<u8> {
    let mut b = Builder::new("1.0.3");
    for (id, s) in [(0x10, "mDestroyed"), (0x11, "mContext"), (0x12, "mServedView"), (0x13, "sInstance")] {
        b.string(id, s);
    }
    b.class(0x100, "java.lang.Object", 0, &[])
        .class(0x200, "android.app.Activity", 0x100, &[(0x10, BOOL)])
        .class(0x300, "android.view.View", 0x100, &[(0x11, OBJ)])
        .class_with_static(0x400, "android.view.inputmethod.InputMethodManager", 0x100, &[(0x12, OBJ)], 0x13, 0x4000);
    b.instance_raw(0x2000, 0x200, &[1]) // a destroyed Activity
        .instance(0x3000, 0x300, &[0x2000]) // a View whose context is that Activity
        .instance(0x4000, 0x400, &[0x3000]) // the IMM still serving the View
        .root(0x400)
        .root(0x100);
    b.finish()
}

/// A dump LeakCanary would have taken: a `leakcanary.KeyedWeakReference` watching an object since
/// before the dump (`watchUptimeMillis` < `heapDumpUptimeMillis`) names it as the leak; one whose
/// watch began after the dump started does not. Hand-built (no LeakCanary
/// dump survives in the fixtures, see PROVENANCE.txt).
#[test]
fn leakcanary_watched_objects() {
    let mut b = Builder::new("1.0.3");
    for (id, s) in [
        (0x10, "referent"),
        (0x11, "watchUptimeMillis"),
        (0x12, "description"),
        (0x13, "heapDumpUptimeMillis"),
        (0x14, "refs"),
    ] {
        b.string(id, s);
    }
    b.class(0x100, "java.lang.Object", 0, &[])
        .class(0x110, "java.lang.String", 0x100, &[])
        .class(0x200, "java.lang.ref.Reference", 0x100, &[(0x10, OBJ)])
        .class(0x210, "java.lang.ref.WeakReference", 0x200, &[])
        .class_with_static_raw(
            0x220,
            "leakcanary.KeyedWeakReference",
            0x210,
            &[(0x11, LONG), (0x12, OBJ)],
            0x13,
            LONG,
            &5000u64.to_be_bytes(),
        )
        .class_with_static(0x300, "com.example.Holder", 0x100, &[], 0x14, 0x3000)
        .class(0x400, "com.example.Cart", 0x100, &[]);
    let kwr = |target: u32, watched: u64, description: u32| {
        let mut d = target.to_be_bytes().to_vec(); // referent (declared by Reference: last in the record)
        let mut own = watched.to_be_bytes().to_vec();
        own.extend_from_slice(&description.to_be_bytes());
        own.append(&mut d);
        own
    };
    b.instance(0x3000, 0x400, &[]) // a Cart, held strongly by Holder.refs and watched since 1000
        .instance_raw(0x3100, 0x220, &kwr(0x3000, 1000, 0))
        .instance(0x3200, 0x400, &[]) // another Cart, watched only from 6000 (after the dump began)
        .instance_raw(0x3300, 0x220, &kwr(0x3200, 6000, 0))
        .root(0x300)
        .root(0x3200)
        .root(0x3100)
        .root(0x3300);
    let h = Heap::analyse(Index::from_bytes(b.finish(), Options::default()).unwrap(), Options::default());
    let leaks = find_leaks(&h, &LeakConfig::default());
    let watched: Vec<_> = leaks.iter().filter(|l| l.rule == "leakcanary.watched").collect();
    assert_eq!(watched.len(), 1, "{leaks:#?}");
    assert_eq!(watched[0].instances, [h.index.node(0x3000).unwrap()]);
    assert!(watched[0].reason.contains("watched for 4000 ms before the dump"), "{}", watched[0].reason);
    let refs: Vec<Option<&str>> = watched[0].trace.iter().map(|t| t.reference.as_deref()).collect();
    assert_eq!(refs, [Some(".refs"), None]);
}

/// Two dumps of the leaky app, 1000 then 4000 sessions: the static map is found growing, matched
/// across the dumps by its path (object ids change between them), and the histogram's change
/// shows the 3000 extra entries.
#[test]
fn growing_collection_since_a_baseline() {
    let early = Heap::open(&leaky_app("early"), Options::default()).unwrap();
    let late = Heap::open(&leaky_app("leaky"), Options::default()).unwrap();
    let growth = heap::diff::growing_collections(&early, &late, 64 << 10);
    assert_eq!(growth.len(), 1, "{growth:#?}");
    assert_eq!(growth[0].path, "class LeakyApp.SESSIONS");
    assert_eq!(growth[0].elements, (1000, 4000));
    // Each of the 3000 extra sessions is a byte[4096] value and a "session-N" key String, whose
    // characters (JDK 17 compact strings) are a byte[] of their own. The JVM's own objects vary a
    // little from run to run, so the keys are counted by their text.
    let keys = |h: &Heap| {
        h.instances_of(class(h, "java.lang.String"))
            .into_iter()
            .filter(|&n| {
                h.index.string_value(n).is_some_and(|s| {
                    s.strip_prefix("session-").is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                })
            })
            .count()
    };
    assert_eq!((keys(&early), keys(&late)), (1000, 4000));
    // The histogram's largest growth is the sessions' values and the map's entries.
    let deltas = heap::diff::class_deltas(&early, &late);
    let top: Vec<&str> = deltas.iter().take(4).map(|d| d.class.as_str()).collect();
    assert!(top.contains(&"byte[]") && top.contains(&"java.util.HashMap$Node"), "{top:?}");
    let leaks = heap::leaks::find_leaks_since(&late, &LeakConfig::default(), &early);
    let grown = leaks.iter().find(|l| l.rule == "growing").unwrap();
    assert!(grown.reason.contains("grew from 1000 to 4000 elements"), "{}", grown.reason);
    assert_eq!(suspects(&grown.trace), [".SESSIONS"]);
    // The accumulation point is the same map: reported once, as growth.
    assert!(!leaks.iter().any(|l| l.rule == "accumulation"));
}

/// A class-wide accumulation whose instances are partly under another suspect: two `Blob`s of
/// 700,000 bytes each, one held by a destroyed Activity (that suspect takes it), one by a root.
/// The class's row keeps one instance, and its reason says so beside what the whole class holds.
#[test]
fn a_class_accumulation_partly_under_another_suspect_says_what_is_left() {
    let mut b = Builder::new("1.0.3");
    for (id, s) in [(0x10, "mDestroyed"), (0x11, "held"), (0x12, "data")] {
        b.string(id, s);
    }
    b.class(0x100, "java.lang.Object", 0, &[])
        .class(0x200, "android.app.Activity", 0x100, &[(0x10, BOOL)])
        .class(0x400, "dalvik.system.PathClassLoader", 0x100, &[])
        .class_loaded_by(0x210, "com.example.MainActivity", 0x200, 0x5000, &[(0x11, OBJ)])
        .class_loaded_by(0x300, "com.example.Blob", 0x100, 0x5000, &[(0x12, OBJ)]);
    // The activity: its own field (held), then Activity's (mDestroyed = true).
    b.instance_raw(0x2000, 0x210, &[0, 0, 0x30, 0x01, 1]).instance(0x3000, 0x300, &[0x4000]).instance(
        0x3001,
        0x300,
        &[0x4001],
    );
    for id in [0x4000u32, 0x4001] {
        let mut rec = vec![0x23];
        rec.extend_from_slice(&id.to_be_bytes());
        rec.extend_from_slice(&0u32.to_be_bytes());
        rec.extend_from_slice(&700_000u32.to_be_bytes());
        rec.push(8);
        rec.extend(std::iter::repeat_n(0u8, 700_000));
        b.raw(&rec);
    }
    // The app's class loader.
    b.instance(0x5000, 0x400, &[]);
    b.root(0x2000).root(0x3000).root(0x100).root(0x5000);
    let h = Heap::analyse(Index::from_bytes(b.finish(), Options::default()).unwrap(), Options::default());
    let config = LeakConfig { disabled: vec!["array.huge".into()], ..LeakConfig::default() };
    let leaks = find_leaks(&h, &config);
    let rules: Vec<&str> = leaks.iter().map(|l| l.rule).collect();
    assert!(rules.contains(&"android.activity.destroyed"), "{leaks:#?}");
    let blob = leaks.iter().find(|l| l.rule == "accumulation.class").unwrap_or_else(|| panic!("{leaks:#?}"));
    assert_eq!(blob.instances, [node(&h, 0x3000)]);
    assert!(blob.reason.starts_with("2 instances of com.example.Blob retain"), "{}", blob.reason);
    assert!(
        blob.reason.ends_with("; 1 of them here, retaining 683.6 KiB (the others lie under other suspects)"),
        "{}",
        blob.reason
    );
}

/// A class-wide accumulation of chains: each `Link` holds the next and 200 KB of bytes. Links
/// that another `Link` dominates are nested in it and not suspects of their own; the first link
/// of each chain is one, whether a root holds it or an object of another class does.
#[test]
fn a_class_accumulation_of_a_chain_keeps_its_outermost_links() {
    let mut b = Builder::new("1.0.3");
    for (id, s) in [(0x10, "next"), (0x11, "data")] {
        b.string(id, s);
    }
    b.class(0x100, "java.lang.Object", 0, &[])
        .class(0x400, "dalvik.system.PathClassLoader", 0x100, &[])
        .class_loaded_by(0x300, "com.example.Link", 0x100, 0x5000, &[(0x10, OBJ), (0x11, OBJ)])
        .class_loaded_by(0x500, "com.example.Holder", 0x100, 0x5000, &[(0x10, OBJ)]);
    // Two chains of three: 0x3000-0x3002 and 0x3003-0x3005.
    let links = 6u32;
    for i in 0..links {
        let next = if i % 3 < 2 { 0x3000 + i + 1 } else { 0 };
        b.instance(0x3000 + i, 0x300, &[next, 0x4000 + i]);
        let mut rec = vec![0x23];
        rec.extend_from_slice(&(0x4000 + i).to_be_bytes());
        rec.extend_from_slice(&0u32.to_be_bytes());
        rec.extend_from_slice(&200_000u32.to_be_bytes());
        rec.push(8);
        rec.extend(std::iter::repeat_n(0u8, 200_000));
        b.raw(&rec);
    }
    b.instance(0x5000, 0x400, &[]).instance(0x6000, 0x500, &[0x3003]);
    // The first chain held by a root, the second by a holder.
    b.root(0x3000).root(0x6000).root(0x100).root(0x5000);
    let h = Heap::analyse(Index::from_bytes(b.finish(), Options::default()).unwrap(), Options::default());
    let config = LeakConfig { disabled: vec!["array.huge".into(), "accumulation".into()], ..LeakConfig::default() };
    let leaks = find_leaks(&h, &config);
    let chain = leaks.iter().find(|l| l.rule == "accumulation.class").unwrap_or_else(|| panic!("{leaks:#?}"));
    let mut kept = chain.instances.clone();
    kept.sort_unstable();
    assert_eq!(kept, [node(&h, 0x3000), node(&h, 0x3003)]);
    assert!(chain.reason.starts_with("6 instances of com.example.Link retain"), "{}", chain.reason);
    // The two retain the whole chain between them: three links and their bytes each.
    let each = h.dominators.retained(node(&h, 0x3003));
    assert_eq!(h.dominators.retained(node(&h, 0x3000)), each);
    assert_eq!(chain.retained_bytes, 2 * each);
    assert_eq!(chain.retained_objects, 2 * 6);
}

/// A Java local's root belongs to a thread, and the trace and the inspector name it: on the
/// bundled demo (OpenJDK 17, `demo/LeakyCache.java`, whose `main` holds locals), every
/// Java-frame root resolves to a `java.lang.Thread`, and `main`'s locals to the thread named
/// `main`. Thread objects are the roots of their own serials; Dialer (an ART dump) has them too.
#[test]
fn java_local_roots_name_their_thread() {
    use heap::hprof::RootKind;
    let gz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/demo.hprof.gz");
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(std::fs::File::open(gz).unwrap()), &mut bytes)
        .unwrap();
    let h = Heap::analyse(Index::from_bytes(bytes, Options::default()).unwrap(), Options::default());
    let frames: Vec<_> = h.index.roots().iter().filter(|r| r.1 == RootKind::JavaFrame).map(|r| r.0).collect();
    assert!(frames.len() > 3, "{}", frames.len());
    let mut main = 0;
    for &n in &frames {
        let t = h.index.root_thread(n).unwrap_or_else(|| panic!("{:#x} has no thread", h.index.id(n)));
        assert!(h.is_subclass(h.index.class_of(t), class(&h, "java.lang.Thread")));
        if h.thread_name(t).as_deref() == Some("main") {
            main += 1;
        }
    }
    assert!(main > 0, "no local of the main thread");
    let dialer = heap("android/adt-tools-base__dialer.android-hprof", None);
    let threaded = dialer.index.roots().iter().filter(|r| dialer.index.root_thread(r.0).is_some()).count();
    assert!(threaded > 0);
}

/// A destroyed Activity held only as a local of the thread named `main` (a Java-frame root with
/// that thread's serial): the trace's first step says so, as LeakCanary's does.
#[test]
fn a_trace_from_a_local_names_its_thread() {
    let mut b = Builder::new("1.0.3");
    for (id, s) in [(0x10, "mDestroyed"), (0x11, "value"), (0x12, "name")] {
        b.string(id, s);
    }
    b.class(0x100, "java.lang.Object", 0, &[])
        .class(0x110, "java.lang.String", 0x100, &[(0x11, OBJ)])
        .class(0x120, "java.lang.Thread", 0x100, &[(0x12, OBJ)])
        .class(0x200, "android.app.Activity", 0x100, &[(0x10, BOOL)]);
    b.instance_raw(0x2000, 0x200, &[1]).instance(0x3000, 0x110, &[0x3100]).instance(0x4000, 0x120, &[0x3000]);
    // char[] "main".
    let mut chars = vec![0x23];
    chars.extend_from_slice(&0x3100u32.to_be_bytes());
    chars.extend_from_slice(&0u32.to_be_bytes());
    chars.extend_from_slice(&4u32.to_be_bytes());
    chars.push(5);
    chars.extend("main".encode_utf16().flat_map(u16::to_be_bytes));
    b.raw(&chars);
    // The thread (serial 7) and the activity as one of its frames' locals.
    let root = |tag: u8, id: u32, a: u32, c: u32| {
        let mut r = vec![tag];
        for v in [id, a, c] {
            r.extend_from_slice(&v.to_be_bytes());
        }
        r
    };
    b.raw(&root(0x08, 0x4000, 7, 0)).raw(&root(0x03, 0x2000, 7, 0)).root(0x100);
    let h = Heap::analyse(Index::from_bytes(b.finish(), Options::default()).unwrap(), Options::default());
    assert_eq!(h.index.root_thread(node(&h, 0x2000)), Some(node(&h, 0x4000)));
    let leaks = find_leaks(&h, &LeakConfig::default());
    let l = leaks.iter().find(|l| l.rule == "android.activity.destroyed").unwrap_or_else(|| panic!("{leaks:#?}"));
    assert_eq!(l.trace[0].node, node(&h, 0x2000));
    assert_eq!(l.trace[0].labels.first().map(String::as_str), Some("Thread name: 'main'"), "{:?}", l.trace[0]);
    assert_eq!(l.gc_root, Some(heap::hprof::RootKind::JavaFrame));
}

/// Duplicate Strings on a Dalvik-era dump, where Strings read a stretch of a shared `char[]`
/// (`offset`, `count`): five Strings on one array, each a different word, are no duplicates
/// (the bug this guards against reported them as one value five times, the array wasted four
/// times over); four equal Strings in arrays of their own are one value four times, wasting
/// three Strings and three arrays; two equal Strings on one array waste one String and no array.
#[test]
fn duplicate_strings_read_each_strings_own_characters() {
    const CHAR: u8 = 5;
    let mut b = Builder::new("1.0.3");
    for (id, name) in [(0x10, "value"), (0x11, "offset"), (0x12, "count"), (0x13, "hashCode")] {
        b.string(id, name);
    }
    b.class(0x100, "java.lang.Object", 0, &[]);
    b.class(0x200, "java.lang.String", 0x100, &[(0x10, OBJ), (0x11, INT), (0x12, INT), (0x13, INT)]);
    let utf16 = |s: &str| -> Vec<u8> { s.encode_utf16().flat_map(u16::to_be_bytes).collect() };
    // One array, five words.
    let words = ["Africa/Bangui", "Africa/Banjul", "Europe/Paris", "Asia/Tokyo", "UTC"];
    let shared: String = words.concat();
    b.primitive_array(0x1000, CHAR, shared.len() as u32, &utf16(&shared));
    let mut at = 0;
    let mut strings = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let id = 0x2000 + 0x10 * i as u32;
        b.instance(id, 0x200, &[0x1000, at, w.len() as u32, 0]);
        at += w.len() as u32;
        strings.push(id);
    }
    // Four equal values, each in its own array of exactly its characters.
    let copy = "duplicated value";
    for i in 0..4u32 {
        b.primitive_array(0x3000 + 0x100 * i, CHAR, copy.len() as u32, &utf16(copy));
        b.instance(0x3010 + 0x100 * i, 0x200, &[0x3000 + 0x100 * i, 0, copy.len() as u32, 0]);
        strings.push(0x3010 + 0x100 * i);
    }
    // Two equal Strings reading the same stretch of one array.
    b.primitive_array(0x4000, CHAR, 9, &utf16("twice-one"));
    b.instance(0x4010, 0x200, &[0x4000, 0, 5, 0]);
    b.instance(0x4020, 0x200, &[0x4000, 0, 5, 0]);
    strings.extend([0x4010, 0x4020]);
    for &s in &strings {
        b.root(s);
    }
    b.root(0x100).root(0x200);
    let h = Heap::analyse(Index::from_bytes(b.finish(), Options::default()).unwrap(), Options::default());
    let dups = heap::leaks::waste::duplicate_strings(&h, 10);
    let values: Vec<&str> = dups.iter().map(|d| d.value.as_str()).collect();
    assert_eq!(values, ["duplicated value", "twice"], "{dups:?}");
    let node = |id: u32| h.index.node(u64::from(id)).unwrap();
    let (string, array) = (h.index.shallow_size(node(0x3010)), h.index.shallow_size(node(0x3000)));
    assert_eq!((dups[0].count, dups[0].wasted_bytes), (4, 3 * (string + array)));
    assert_eq!((dups[1].count, dups[1].wasted_bytes), (2, string));
    // Each String reads its own word.
    for (i, w) in words.iter().enumerate() {
        assert_eq!(h.index.string_value(node(0x2000 + 0x10 * i as u32)).as_deref(), Some(*w));
    }
}

/// Duplicate Strings of the modern layout (JDK 9 and later, ART: `value` is the String's one
/// reference, its whole array the characters), with the characters hashed by the index's second
/// pass (`Options::hash_strings`) and read again by the report: three equal values each in an
/// array of its own waste two Strings and two arrays; two Strings on one array waste one String;
/// a weakly held copy does not count. The same answers either way, also on real dumps.
#[test]
fn duplicate_strings_hashed_while_indexing_are_the_ones_read_after() {
    const BYTE: u8 = 8;
    let mut b = Builder::new("1.0.2");
    b.string(0x10, "value").string(0x11, "hash").string(0x12, "referent");
    b.class(0x100, "java.lang.Object", 0, &[]);
    b.class(0x200, "java.lang.String", 0x100, &[(0x10, OBJ), (0x11, INT)]);
    b.class(0x280, "java.lang.ref.Reference", 0x100, &[(0x12, OBJ)]);
    b.class(0x300, "java.lang.ref.WeakReference", 0x280, &[]);
    let mut roots = vec![0x100, 0x200, 0x280, 0x300];
    for i in 0..3u32 {
        b.primitive_array(0x1000 + 0x100 * i, BYTE, 3, b"abc").instance(
            0x1010 + 0x100 * i,
            0x200,
            &[0x1000 + 0x100 * i, 0],
        );
        roots.push(0x1010 + 0x100 * i);
    }
    b.primitive_array(0x2000, BYTE, 3, b"xyz").instance(0x2010, 0x200, &[0x2000, 0]).instance(
        0x2020,
        0x200,
        &[0x2000, 0],
    );
    b.primitive_array(0x3000, BYTE, 4, b"once").instance(0x3010, 0x200, &[0x3000, 0]);
    roots.extend([0x2010, 0x2020, 0x3010]);
    // A fourth "abc", reachable only through a weak reference.
    b.primitive_array(0x4000, BYTE, 3, b"abc").instance(0x4010, 0x200, &[0x4000, 0]).instance(0x4020, 0x300, &[0x4010]);
    roots.push(0x4020);
    for r in roots {
        b.root(r);
    }
    let bytes = b.finish();
    let answers = |hash_strings: bool| {
        let o = Options { hash_strings, ..Default::default() };
        let h = Heap::analyse(Index::from_bytes(bytes.clone(), o).unwrap(), o);
        assert_eq!(h.index.holds_string_hashes(), hash_strings);
        let node = |id: u32| h.index.node(u64::from(id)).unwrap();
        let (string, array) = (h.index.shallow_size(node(0x1010)), h.index.shallow_size(node(0x1000)));
        let dups = heap::leaks::waste::duplicate_strings(&h, 10);
        let got: Vec<(String, u64, u64)> = dups.into_iter().map(|d| (d.value, d.count, d.wasted_bytes)).collect();
        assert_eq!(
            got,
            [("abc".to_string(), 3, 2 * (string + array)), ("xyz".to_string(), 2, string)],
            "{hash_strings}"
        );
    };
    answers(true);
    answers(false);
    // JDK 11's Strings (`value`, `coder`, `hash`) and ART's (`count`, `hash`, `value`, then
    // Object's `shadow$_klass_`) are hashed while indexing when asked; JDK 6's (`offset`,
    // `count`) are read by the report. heaptui's analysis turns the hashes into the Strings
    // that may be copies while it builds the dominator tree; a peer's rule set leaves that to
    // the report.
    for semantics in [heap::Semantics::Heaptui, heap::Semantics::Visualvm] {
        for (name, hashed) in [
            ("jvm/eclipse-mat__openjdk_jdk11_04_x64.hprof", true),
            ("android/ahat-art__test-dump.hprof", true),
            ("jvm/eclipse-mat__sun_jdk6_30_x64_compressedOops.hprof", false),
        ] {
            let report = |hash_strings: bool| {
                let o = Options { hash_strings, semantics, ..Default::default() };
                let h = Heap::open(&fixture(name), o).unwrap();
                assert_eq!(h.index.holds_string_hashes(), hash_strings && hashed, "{name}");
                let dups = format!("{:?}", heap::leaks::waste::duplicate_strings(&h, 50));
                assert!(!h.index.holds_string_hashes(), "{name}: the report takes the hashes");
                dups
            };
            let hashed = report(true);
            assert!(hashed.len() > 100, "{name}: {hashed}");
            assert_eq!(hashed, report(false), "{name}, {semantics:?}");
        }
    }
}

/// `jvm.finalizer.backlog` on a JVM whose finalizer thread is stuck by construction
/// (`tests/java/StuckFinalizer.java`: one finalize() blocks forever, then 2,000 `Pending` objects,
/// each with a 100-byte array, become garbage): one finding of exactly those 2,000 objects,
/// keeping each its own array alive. The same program with the finalizers run: no finding.
#[test]
fn a_stuck_finalizer_is_a_backlog() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("finalizer");
    let stuck = Heap::open(&test_support::finalizer_dump(&dir, "stuck", 2000), Options::default()).unwrap();
    let leaks = find_leaks(&stuck, &LeakConfig::default());
    let backlog: Vec<_> = leaks.iter().filter(|l| l.rule == "jvm.finalizer.backlog").collect();
    assert_eq!(backlog.len(), 1, "{leaks:?}");
    let l = backlog[0];
    assert_eq!((l.class.as_str(), l.instances.len()), ("StuckFinalizer$Pending", 2000));
    let pending = l.instances[0];
    let array = follow(&stuck, pending, "data");
    let each = stuck.index.shallow_size(pending) + stuck.index.shallow_size(array);
    assert_eq!(l.retained_bytes, 2000 * each);
    assert!(l.reason.contains("2000 StuckFinalizer$Pending objects wait for finalization"), "{}", l.reason);
    // Below the configured count, nothing is said.
    let quiet = LeakConfig { finalizer_backlog: 2001, ..LeakConfig::default() };
    assert!(find_leaks(&stuck, &quiet).iter().all(|l| l.rule != "jvm.finalizer.backlog"));
    let drained = Heap::open(&test_support::finalizer_dump(&dir, "drained", 2000), Options::default()).unwrap();
    assert!(find_leaks(&drained, &LeakConfig::default()).iter().all(|l| l.rule != "jvm.finalizer.backlog"));
}
