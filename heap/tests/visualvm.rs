//! Side by side with VisualVM's heap library (Debian package `visualvm`), the peer our `hotspot`
//! size model follows: the harness `bench/visualvm/VisualVmHeap.java` prints VisualVM's class
//! histogram, GC roots and retained sizes, and we compare them with ours on every HotSpot fixture
//! and on the bundled demo dump (OpenJDK 17, compressed oops).

mod common;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use heap::hprof::RootKind;
use heap::{Heap, Options};

const JAR: &str = "/usr/share/visualvm/visualvm/modules/org-graalvm-visualvm-lib-jfluid-heap.jar";

#[derive(Default)]
struct Peer {
    instances: u64,
    roots: u64,
    classes: HashMap<String, (u64, u64, i64)>,
    top: Vec<(u64, String, u64)>,
}

/// Runs the harness `bench/visualvm/VisualVmHeap.java` with `flags` on copies of `dumps` (VisualVM
/// writes caches beside what it opens); its output.
fn harness(dumps: &[PathBuf], flags: &[&str]) -> String {
    assert!(Path::new(JAR).exists(), "VisualVM's heap library is missing: apt-get install visualvm");
    let work = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/visualvm/VisualVmHeap.java");
    let ok = Command::new("javac").args(["-cp", JAR, "-d"]).arg(work.path()).arg(&src).status().unwrap();
    assert!(ok.success());
    let mut cmd = Command::new("java");
    cmd.arg("-cp").arg(format!("{JAR}:{}", work.path().display())).arg("VisualVmHeap").args(flags);
    for (i, d) in dumps.iter().enumerate() {
        let copy = work.path().join(format!("{i}.hprof"));
        std::fs::copy(d, &copy).unwrap();
        cmd.arg(copy);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// VisualVM's histogram, roots and (with `retained`) retained sizes of each of `dumps`.
fn visualvm(dumps: &[PathBuf], retained: bool) -> Vec<Peer> {
    let out = harness(dumps, if retained { &[] } else { &["--no-retained"] });
    let mut peers: Vec<Peer> = Vec::new();
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "file" => peers.push(Peer::default()),
            "summary" => {
                let p = peers.last_mut().unwrap();
                p.instances = f[1].parse().unwrap();
                p.roots = f[3].parse().unwrap();
            }
            "class" => {
                let v = (f[2].parse().unwrap(), f[3].parse().unwrap(), f[4].parse().unwrap());
                peers.last_mut().unwrap().classes.entry(f[1].to_string()).or_insert(v);
            }
            "top" => peers.last_mut().unwrap().top.push((
                u64::from_str_radix(f[1], 16).unwrap(),
                f[2].to_string(),
                f[4].parse().unwrap(),
            )),
            _ => {}
        }
    }
    peers
}

fn ours(h: &Heap) -> HashMap<String, (u64, u64, u64)> {
    let mut m = HashMap::new();
    for c in h.histogram_order() {
        let s = h.histogram[c.index()];
        m.entry(h.index.classes[c.index()].name.clone()).or_insert((s.instances, s.shallow_bytes, s.retained_bytes));
    }
    m
}

/// Instances and shallow bytes of every class agree with VisualVM on every HotSpot fixture.
#[test]
fn histogram_matches_visualvm_on_every_hotspot_fixture() {
    let names: Vec<String> = std::fs::read_dir(fixtures().join("jvm"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| (n.ends_with(".hprof") || n.ends_with(".bin")) && !n.contains("minimal"))
        .collect();
    assert!(names.len() >= 12);
    let paths: Vec<PathBuf> = names.iter().map(|n| fixture(&format!("jvm/{n}"))).collect();
    let peers = visualvm(&paths, false);
    for (name, peer) in names.iter().zip(&peers) {
        let h = heap(&format!("jvm/{name}"), None);
        let ours = ours(&h);
        assert_eq!(h.summary().instances, peer.instances, "{name}: instances");
        assert_eq!(h.index.counts.root_records, peer.roots, "{name}: GC root records");
        for (class, &(n, bytes, _)) in &peer.classes {
            let (on, ob, _) = ours.get(class).copied().unwrap_or_default();
            assert_eq!((on, ob), (n, bytes), "{name}: {class}");
        }
    }
}

/// Retained sizes on the demo dump. VisualVM lets weak and soft references take part in its
/// dominator computation (they only lose for reachability), so objects that a SoftReference cache
/// also holds (java.lang.invoke's LambdaForm caches, for one) are retained by nobody there and by
/// their strong holder here; for the classes below no such reference is involved and the figures
/// agree exactly. VisualVM's class-object retained sizes follow its own approximation and are
/// not compared.
#[test]
fn retained_sizes_match_visualvm_on_the_demo() {
    let gz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/demo.hprof.gz");
    let mut bytes = Vec::new();
    flate2_read(&gz, &mut bytes);
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("demo.hprof");
    std::fs::write(&dump, &bytes).unwrap();
    let peer = visualvm(std::slice::from_ref(&dump), true).pop().unwrap();
    let h = Heap::open(&dump, Options::default()).unwrap();
    assert_eq!(h.index.sizer.ref_size, 4, "compressed oops detected");
    let ours = ours(&h);
    let mut compared = 0;
    for (class, &(n, bytes, retained)) in &peer.classes {
        let (on, ob, or) = ours[class];
        assert_eq!((on, ob), (n, bytes), "{class}");
        if class.starts_with("LeakyCache")
            || ["java.lang.String", "byte[]", "char[]", "int[]"].contains(&class.as_str())
        {
            assert_eq!(or as i64, retained, "{class}");
            compared += 1;
        }
    }
    assert!(compared >= 7, "{compared}");
    let mut tops = 0;
    for (id, class, retained) in &peer.top {
        if class == "java.lang.Class" {
            continue;
        }
        let n = h.index.node(*id).unwrap();
        assert_eq!(h.dominators.retained(n), *retained, "0x{id:x} {class}");
        tops += 1;
    }
    assert!(tops >= 10);
}

/// Every HotSpot fixture as a plain file VisualVM can open (the compressed ones unpacked into
/// `dir`), with its name.
fn hotspot_fixtures(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(fixtures().join("jvm")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().to_string();
        if name.contains("minimal") || name.ends_with(".expected") {
            continue;
        }
        let path = if let Some(plain) = name.strip_suffix(".gz") {
            let mut bytes = Vec::new();
            flate2_read(&fixtures().join("jvm").join(&name), &mut bytes);
            let p = dir.join(plain);
            std::fs::write(&p, &bytes).unwrap();
            p
        } else if let Some(plain) = name.strip_suffix(".bz2") {
            fixture(&format!("jvm/{plain}"))
        } else {
            fixtures().join("jvm").join(&name)
        };
        out.push((name, path));
    }
    out.sort();
    out
}

/// `--semantics visualvm`, side by side with VisualVM on every HotSpot fixture: every object's
/// retained size (instances, arrays and class objects), retained size by class, and the top-20
/// list by retained size.
///
/// VisualVM's rules (`docs/peers.md`): referents make nothing live but are referrers for
/// dominators, garbage referrers detach an object, its "tree objects" and class objects sum
/// their sizes their own way. No difference remains.
#[test]
fn visualvm_rules_give_visualvms_numbers_object_by_object() {
    let dir = tempfile::tempdir().unwrap();
    let dumps = hotspot_fixtures(dir.path());
    assert!(dumps.len() >= 16, "{} HotSpot fixtures", dumps.len());
    let paths: Vec<PathBuf> = dumps.iter().map(|d| d.1.clone()).collect();
    let objects = harness(&paths, &["--objects"]);
    let reports = visualvm(&paths, true);
    let mut per_dump: Vec<Vec<(u64, u64)>> = Vec::new();
    for line in objects.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "file" => per_dump.push(Vec::new()),
            "obj" => per_dump.last_mut().unwrap().push((u64::from_str_radix(f[1], 16).unwrap(), f[4].parse().unwrap())),
            _ => {}
        }
    }
    let (mut objects_compared, mut classes_compared) = (0, 0);
    for (((name, path), peer_objects), peer) in dumps.iter().zip(&per_dump).zip(&reports) {
        let options = Options {
            semantics: heap::Semantics::Visualvm,
            size_model: Some(heap::SizeModel::Hotspot),
            ..Default::default()
        };
        let h = Heap::open(path, options).unwrap();
        assert_eq!(peer_objects.len(), h.index.len(), "{name}: objects");
        for &(id, retained) in peer_objects {
            let n = h.index.node(id).unwrap_or_else(|| panic!("{name}: {id:#x} missing"));
            assert_eq!(h.dominators.retained(n), retained, "{name}: {id:#x} {}", h.display_class(n));
            objects_compared += 1;
        }
        // Retained by class, for names only one class has (VisualVM lists each loader's).
        let ours = ours(&h);
        let mut names: HashMap<&str, usize> = HashMap::new();
        for c in &h.index.classes {
            *names.entry(c.name.as_str()).or_default() += 1;
        }
        for (class, &(_, _, retained)) in &peer.classes {
            if names.get(class.as_str()) == Some(&1) {
                assert_eq!(ours[class].2 as i64, retained, "{name}: retained by class {class}");
                classes_compared += 1;
            }
        }
        // The top 20: the same sizes in the same order, and the same objects but where sizes tie.
        let top: Vec<(u64, u64)> =
            h.top_retained(peer.top.len()).iter().map(|&n| (h.index.id(n), h.dominators.retained(n))).collect();
        let sizes = |l: &[(u64, u64)]| l.iter().map(|t| t.1).collect::<Vec<_>>();
        let peer_top: Vec<(u64, u64)> = peer.top.iter().map(|t| (t.0, t.2)).collect();
        assert_eq!(sizes(&top), sizes(&peer_top), "{name}: top {}", peer.top.len());
        let last = peer_top.last().map_or(0, |t| t.1);
        let above = |l: &[(u64, u64)]| {
            let mut v: Vec<u64> = l.iter().filter(|t| t.1 > last).map(|t| t.0).collect();
            v.sort_unstable();
            v
        };
        assert_eq!(above(&top), above(&peer_top), "{name}: top objects");
    }
    assert!(objects_compared > 350_000, "{objects_compared} objects");
    assert!(classes_compared > 10_000, "{classes_compared} classes");
}

/// What VisualVM reads of a dump's threads: each thread object's stack (class, method, file,
/// line; `None` without a trace) and each Java-frame and JNI local root (thread, frame, object).
/// A frame as `StackTraceElement` gives it: class, method, file, line.
type PeerFrame = (String, String, String, i32);

#[derive(Default)]
struct PeerThreads {
    stacks: HashMap<u64, Option<Vec<PeerFrame>>>,
    locals: std::collections::BTreeSet<(u64, i32, u64)>,
}

fn visualvm_threads(dumps: &[PathBuf]) -> Vec<PeerThreads> {
    let out = harness(dumps, &["--threads"]);
    let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
    let mut peers: Vec<PeerThreads> = Vec::new();
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let p = peers.last_mut();
        match f[0] {
            "file" => peers.push(PeerThreads::default()),
            "thread" => {
                let frames = (f[2] != "-1").then(Vec::new);
                p.unwrap().stacks.insert(hex(f[1]), frames);
            }
            "frame" => {
                // VisualVM names a source file id of 0 (none) "<unresolved string 0x0>".
                let file = if f[5] == "<unresolved string 0x0>" { "-" } else { f[5] };
                let frame = (f[3].to_string(), f[4].to_string(), file.to_string(), f[6].parse().unwrap());
                p.unwrap().stacks.get_mut(&hex(f[1])).unwrap().as_mut().unwrap().push(frame);
            }
            "local" => {
                p.unwrap().locals.insert((hex(f[1]), f[2].parse().unwrap(), hex(f[3])));
            }
            _ => {}
        }
    }
    peers
}

/// Threads side by side with VisualVM, on every HotSpot fixture that records stacks (and those
/// that do not: no thread then has frames) and on the demo: the same thread objects, each with
/// the same frames (class, method, file and line, as `StackTraceElement` gives them), and the
/// same locals at the same frame numbers.
#[test]
fn thread_stacks_match_visualvm() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixtures().join("jvm"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            (n.ends_with(".hprof") || n.ends_with(".bin")) && !n.contains("minimal")
        })
        .collect();
    paths.sort();
    // OpenJDK 11's main thread: 29 frames, 91 locals. And the demo (OpenJDK 17).
    for (gz, name) in [
        (fixture("jvm/eclipse-mat__openjdk_jdk11_04_x64.hprof.gz"), "jdk11.hprof"),
        (Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/demo.hprof.gz"), "demo.hprof"),
    ] {
        let mut bytes = Vec::new();
        flate2_read(&gz, &mut bytes);
        paths.push(dir.path().join(name));
        std::fs::write(paths.last().unwrap(), &bytes).unwrap();
    }
    let peers = visualvm_threads(&paths);
    let mut with_frames = 0;
    for (path, peer) in paths.iter().zip(&peers) {
        let h = Heap::open(path, Options::default()).unwrap();
        let name = path.display();
        let threads = h.threads();
        let ids: std::collections::BTreeSet<u64> = threads.iter().map(|t| h.index.id(t.node)).collect();
        let peer_ids: std::collections::BTreeSet<u64> = peer.stacks.keys().copied().collect();
        assert_eq!(ids, peer_ids, "{name}: thread objects");
        let mut locals = std::collections::BTreeSet::new();
        for t in &threads {
            let id = h.index.id(t.node);
            // VisualVM's StackTraceElement: native frames at -2, no line -1, no file null.
            let frames = t.frames.as_ref().map(|f| {
                f.iter()
                    .map(|s| {
                        let f = &s.frame;
                        let line = match f.line {
                            -3 => -2,
                            0 | -1 => -1,
                            l => l,
                        };
                        let class = if f.class.is_empty() { "N/A".to_string() } else { f.class.clone() };
                        let file = if f.source.is_empty() { "-".to_string() } else { f.source.clone() };
                        (class, f.method.clone(), file, line)
                    })
                    .collect::<Vec<_>>()
            });
            with_frames += frames.as_ref().map_or(0, Vec::len);
            assert_eq!(&frames, &peer.stacks[&id], "{name}: thread {id:#x}");
            let all = t.frames.iter().flatten().flat_map(|f| f.locals.iter()).chain(&t.unplaced);
            for l in all.filter(|l| matches!(l.kind, RootKind::JavaFrame | RootKind::JniLocal)) {
                locals.insert((id, l.depth, h.index.id(l.node)));
            }
        }
        assert_eq!(locals, peer.locals, "{name}: locals");
    }
    // jdk11's 29-frame main thread among them.
    assert!(with_frames >= 200, "{with_frames} frames in all");
}

fn flate2_read(path: &Path, out: &mut Vec<u8>) {
    let f = std::fs::File::open(path).unwrap();
    flate2::read::GzDecoder::new(f).read_to_end(out).unwrap();
}

/// A Perfetto heap graph written as HPROF (what `heaptui convert FILE.pftrace` writes: the graph
/// through `perfetto::hprof`, NODATA arrays restored as zeros) opens in VisualVM with the graph's
/// objects, classes and roots. The graphs: Perfetto's own dominator-tree test trace, and ahat's
/// ART test dump taken through a heap graph (1,000+ objects with 32-bit ids, as ART's are).
/// Sizes are the graph's own and not VisualVM's model, so only counts are compared.
#[test]
fn a_converted_heap_graph_opens_in_visualvm_with_its_counts() {
    use heap::Index;
    let dir = tempfile::tempdir().unwrap();
    let trace = test_support::perfetto::encode("heap_graph_for_dominator_tree");
    let ahat = Heap::analyse(
        Index::open(&fixture("android/ahat-art__test-dump.hprof"), Options::default()).unwrap(),
        Options::default(),
    );
    let graphs = [
        heap::perfetto::read(&trace).unwrap().remove(0),
        heap::perfetto::read(&heap::perfetto::encode::encode(&ahat.index, 1, 1)).unwrap().remove(0),
    ];
    let mut paths = Vec::new();
    for (i, g) in graphs.iter().enumerate() {
        let hprof = heap::perfetto::hprof::write(g);
        assert_eq!(u32::from_be_bytes(hprof[19..23].try_into().unwrap()), 4, "4-byte ids");
        let (restored, _) = heap::rewrite::rewrite_all(&hprof[..], Vec::new(), heap::strip::restore_plan()).unwrap();
        let path = dir.path().join(format!("graph{i}.hprof"));
        std::fs::write(&path, restored).unwrap();
        paths.push(path);
    }
    let peers = visualvm(&paths, false);
    for ((g, path), peer) in graphs.iter().zip(&paths).zip(&peers) {
        let h = Heap::open(path, Options::default()).unwrap();
        assert_eq!(peer.instances, g.objects.len() as u64, "{}", path.display());
        assert_eq!(h.summary().instances, peer.instances, "{}", path.display());
        assert_eq!(peer.roots, g.roots.len() as u64, "{}", path.display());
        let ours = ours(&h);
        let mut compared = 0;
        for t in &g.types {
            let name = t.deobfuscated.as_deref().unwrap_or(&t.name);
            let n = g.objects.iter().filter(|o| o.type_id == t.id).count() as u64;
            let (peer_n, _, _) = peer.classes.get(name).copied().unwrap_or_default();
            if name == "java.lang.Class" {
                continue;
            }
            assert_eq!(peer_n, n, "{}: VisualVM's {name}", path.display());
            assert_eq!(ours.get(name).map_or(0, |c| c.0), n, "{}: our {name}", path.display());
            compared += 1;
        }
        assert!(compared >= 5, "{compared}");
    }
}
