//! Hand-built dumps: small graphs with known dominators, weak references, and malformed input
//! (truncated, unknown tags, bad types), which must be errors naming the offset, never panics.

use heap::dominators::{Reach, ROOT};
use heap::{ErrorKind, Heap, Index, Options, SizeModel};

mod common;

use common::builder::{Builder, INT, OBJ};

fn open(bytes: Vec<u8>) -> heap::Result<Heap> {
    let o = Options { size_model: Some(SizeModel::Hotspot), ..Default::default() };
    Index::from_bytes(bytes, o).map(|i| Heap::analyse(i, o))
}

/// Object (0x100), class N (0x200) with two reference fields a, b; root -> A; A -> B, C; B -> D;
/// C -> D. D's immediate dominator is A; A retains all four.
fn diamond() -> Vec<u8> {
    let mut b = Builder::new("1.0.2");
    b.string(0x10, "a").string(0x11, "b");
    b.class(0x100, "java/lang/Object", 0, &[]).class(0x200, "N", 0x100, &[(0x10, OBJ), (0x11, OBJ)]);
    b.instance(0x1000, 0x200, &[0x1010, 0x1020])
        .instance(0x1010, 0x200, &[0x1030, 0])
        .instance(0x1020, 0x200, &[0x1030, 0])
        .instance(0x1030, 0x200, &[0, 0])
        .root(0x1000)
        .root(0x100)
        .root(0x200);
    b.finish()
}

#[test]
fn diamond_dominators_and_retained_sizes() {
    let h = open(diamond()).unwrap();
    let n = |id| h.index.node(id).unwrap();
    // VisualVM layout, 4-byte ids: 8-byte header + two 4-byte references = 16 bytes.
    assert_eq!(h.index.shallow_size(n(0x1000)), 16);
    assert_eq!(h.dominators.idom(n(0x1000)), ROOT);
    assert_eq!(h.dominator(n(0x1030)), Some(Some(n(0x1000))));
    assert_eq!(h.dominator(n(0x1010)), Some(Some(n(0x1000))));
    assert_eq!(h.dominators.retained(n(0x1000)), 64);
    assert_eq!(h.dominators.retained_count(n(0x1000)), 4);
    assert_eq!(h.dominators.retained(n(0x1010)), 16);
    let n_class = h.index.classes_named("N").next().unwrap();
    let stats = h.histogram[n_class.index()];
    assert_eq!((stats.instances, stats.shallow_bytes, stats.retained_bytes), (4, 64, 64));
    let path = h.paths().path(&h.index, n(0x1030));
    let refs: Vec<_> = path.iter().map(|s| s.reference.clone()).collect();
    assert_eq!(refs, [None, Some(".a".to_string()), Some(".a".to_string())]);
}

/// A WeakReference's referent is not retained by it, and is weakly reachable.
#[test]
fn weak_referent_is_not_retained() {
    let mut b = Builder::new("1.0.2");
    b.string(0x10, "referent").string(0x11, "x");
    b.class(0x100, "java/lang/Object", 0, &[])
        .class(0x300, "java/lang/ref/Reference", 0x100, &[(0x10, OBJ)])
        .class(0x400, "java/lang/ref/WeakReference", 0x300, &[])
        .class(0x200, "Holder", 0x100, &[(0x11, OBJ)]);
    b.instance(0x1000, 0x200, &[0x1010]) // holder -> weak ref
        .instance(0x1010, 0x400, &[0x1020]) // weak ref -> referent
        .instance(0x1020, 0x100, &[])
        .root(0x1000);
    let h = open(b.finish()).unwrap();
    let n = |id| h.index.node(id).unwrap();
    assert_eq!(h.dominators.reach(n(0x1010)), Reach::Strong);
    assert_eq!(h.dominators.reach(n(0x1020)), Reach::Weak);
    assert_eq!(h.dominators.retained(n(0x1010)), h.index.shallow_size(n(0x1010)));
    assert_eq!(h.dominators.retained(n(0x1000)), 16 + 16);
    let path = h.paths().path(&h.index, n(0x1020));
    assert_eq!(path.len(), 3);
    assert!(path[2].weak);
}

#[test]
fn truncated_dump_opens_with_a_warning() {
    let bytes = diamond();
    // Cut inside the third instance record.
    let cut = bytes.windows(5).position(|w| w == [0x21, 0, 0, 0x10, 0x20]).unwrap() + 7;
    let h = open(bytes[..cut].to_vec()).unwrap();
    assert_eq!(h.index.counts.instances, 2);
    let w = h.index.warnings.join("\n");
    assert!(w.contains("truncated INSTANCE DUMP (0x21) in HEAP DUMP SEGMENT (0x1c) at 0x"), "{w}");
}

#[test]
fn every_truncation_is_handled() {
    let bytes = diamond();
    for cut in 0..bytes.len() {
        match open(bytes[..cut].to_vec()) {
            Ok(h) => assert!(h.index.len() <= 6),
            Err(e) => assert!(e.offset <= cut as u64, "cut {cut}: {e}"),
        }
    }
}

#[test]
fn unknown_sub_record_is_an_error_with_offset_and_tags() {
    let mut b = Builder::new("1.0.3");
    b.class(0x100, "java.lang.Object", 0, &[]).raw(&[0x42, 1, 2, 3]);
    let bytes = b.finish();
    let at = bytes.len() - 9 - 4;
    let e = open(bytes).err().unwrap();
    assert_eq!(e.kind, ErrorKind::UnknownSubRecord(0x42));
    assert_eq!(e.offset, at as u64);
    assert_eq!(e.record, Some(0x1C));
    assert_eq!(e.to_string(), format!("unknown heap sub-record tag 0x42 in HEAP DUMP SEGMENT (0x1c) at 0x{at:x}"));
}

#[test]
fn bad_basic_type_is_an_error() {
    let mut b = Builder::new("1.0.2");
    b.string(0x10, "f").class(0x100, "java/lang/Object", 0, &[(0x10, 3)]);
    let e = open(b.finish()).err().unwrap();
    assert_eq!(e.kind, ErrorKind::BadBasicType(3));
    assert_eq!(e.sub_record, Some(0x20));
}

#[test]
fn dangling_references_are_counted() {
    let mut b = Builder::new("1.0.2");
    b.string(0x10, "a").class(0x100, "java/lang/Object", 0, &[]).class(0x200, "N", 0x100, &[(0x10, OBJ), (0x10, INT)]);
    b.instance(0x1000, 0x200, &[0xdead, 7]).root(0x1000).root(0x9999);
    let h = open(b.finish()).unwrap();
    let w = h.index.warnings.join("\n");
    assert!(w.contains("1 references name objects that are not in the dump"), "{w}");
    assert!(w.contains("1 GC root records name objects that are not in the dump"), "{w}");
}

/// Flipped bytes anywhere in a real dump: an error or a sound analysis, never a panic. Every
/// object of a damaged dump is also read (fields, strings, paths) to reach the lazy readers.
#[test]
fn flipped_bytes_never_panic() {
    let original = std::fs::read(common::fixture("jvm/hprof-slurp__hprof-32.bin")).unwrap();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut errors, mut opened) = (0, 0);
    for _ in 0..500 {
        let mut bytes = original.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() % bytes.len() as u64) as usize;
            bytes[at] ^= 1 << (next() % 8);
        }
        match Index::from_bytes(bytes, Options::default()) {
            Err(e) => {
                assert!(e.offset <= original.len() as u64);
                errors += 1;
            }
            Ok(index) => {
                let h = Heap::analyse(index, Options::default());
                let _ = h.summary();
                for n in h.index.nodes().step_by(97) {
                    let _ = h.inspect_json(n);
                }
                opened += 1;
            }
        }
    }
    assert_eq!(errors + opened, 500);
}

/// Path policy: A.x -> T is the shortest path; taking A#x last (or never) sends the path through
/// A.y -> B.z -> T instead.
#[test]
fn low_priority_and_excluded_references_reroute_paths() {
    use heap::paths::{GcPaths, PathPolicy, RefPattern};
    let mut b = Builder::new("1.0.2");
    b.string(0x10, "x").string(0x11, "y").string(0x12, "z");
    b.class(0x100, "java/lang/Object", 0, &[]).class(0x200, "A", 0x100, &[(0x10, OBJ), (0x11, OBJ)]).class(
        0x300,
        "B",
        0x100,
        &[(0x12, OBJ)],
    );
    b.instance(0x1000, 0x200, &[0x1030, 0x1010]) // A: x = T, y = B
        .instance(0x1010, 0x300, &[0x1030]) // B: z = T
        .instance(0x1030, 0x100, &[]) // T
        .root(0x1000);
    let h = open(b.finish()).unwrap();
    let t = h.index.node(0x1030).unwrap();
    let refs = |p: &GcPaths| p.path(&h.index, t).into_iter().map(|s| s.reference).collect::<Vec<_>>();
    assert_eq!(refs(&GcPaths::compute(&h.index)), [None, Some(".x".to_string())]);
    let ax = RefPattern::parse("A#x").unwrap();
    let low = PathPolicy { low_priority: vec![ax.clone()], ..Default::default() };
    let via_b = [None, Some(".y".to_string()), Some(".z".to_string())];
    assert_eq!(refs(&GcPaths::compute_with(&h.index, &low)), via_b);
    let excluded = PathPolicy { excluded: vec![ax], ..Default::default() };
    assert_eq!(refs(&GcPaths::compute_with(&h.index, &excluded)), via_b);
    // Excluding both ways in leaves T without a path; taking them last still finds one.
    let both = PathPolicy {
        excluded: vec![RefPattern::parse("A#x").unwrap(), RefPattern::parse("B#z").unwrap()],
        ..Default::default()
    };
    assert!(GcPaths::compute_with(&h.index, &both).path(&h.index, t).is_empty());
    let both_low = PathPolicy { low_priority: both.excluded.clone(), ..Default::default() };
    assert_eq!(refs(&GcPaths::compute_with(&h.index, &both_low)), [None, Some(".x".to_string())]);
    assert_eq!(RefPattern::parse("static Foo#bar").map(|p| p.is_static), Some(true));
    assert_eq!(RefPattern::parse("nofield"), None);
}

/// Steps through arrays of more than 256 slots are named by the slot that holds the next object,
/// the first one when several do: slots found among the array's references (every slot filled)
/// and among its record's (nulls and an id the dump lacks before the slot shift the references),
/// for one path and for eight crossing one array at once.
#[test]
fn steps_through_long_arrays_name_their_slots() {
    let mut b = Builder::new("1.0.2");
    b.class(0x100, "java/lang/Object", 0, &[]).class(0x110, "java/lang/Object[]", 0x100, &[]);
    let filler = |i: u32| 0x10_0000 + 16 * i;
    let target = |k: u32| 0x2000 + 16 * k;
    // Full: every slot a distinct object; the targets 0..8 at slots 100 + 100 k, target 0 again
    // at slot 950 (its first slot is 100).
    let mut full: Vec<u32> = (0..1000).map(filler).collect();
    for k in 0..8 {
        full[100 + 100 * k as usize] = target(k);
    }
    full[950] = target(0);
    // Gaps: nulls in slots 0..10 and 850..950, an id no record has at slot 20; target 8 at slot
    // 600 (the array's reference 589, counting from 0: the gaps spread evenly would put it
    // further on), target 9 at slots 650 and 720 (where that spread would put the first).
    let mut gaps: Vec<u32> = (1000..2000).map(filler).collect();
    gaps[..10].fill(0);
    gaps[850..950].fill(0);
    gaps[20] = 0xdead_0000;
    gaps[600] = target(8);
    gaps[650] = target(9);
    gaps[720] = target(9);
    b.object_array(0x1000, 0x110, &full).object_array(0x1100, 0x110, &gaps);
    for i in 0..2000 {
        b.instance(filler(i), 0x100, &[]);
    }
    for k in 0..10 {
        b.instance(target(k), 0x100, &[]);
    }
    b.root(0x1000).root(0x1100);
    let h = open(b.finish()).unwrap();
    let n = |id: u32| h.index.node(u64::from(id)).unwrap();
    let refs = |path: &[heap::paths::Step]| path.iter().map(|s| s.reference.clone()).collect::<Vec<_>>();
    let slot = |i: usize| vec![None, Some(format!("[{i}]"))];
    assert_eq!(refs(&h.paths().path(&h.index, n(target(3)))), slot(400));
    assert_eq!(refs(&h.paths().path(&h.index, n(target(0)))), slot(100));
    assert_eq!(refs(&h.paths().path(&h.index, n(target(8)))), slot(600));
    assert_eq!(refs(&h.paths().path(&h.index, n(target(9)))), slot(650));
    assert_eq!(refs(&h.paths().path(&h.index, n(filler(1030)))), slot(30));
    // Eight paths through the full array and one through the other, named at once.
    let mut paths: Vec<Vec<heap::paths::Step>> =
        (0..9).map(|k| h.paths().path_unnamed(&h.index, n(target(k)))).collect();
    heap::paths::name_references(&h.index, &mut paths);
    let named: Vec<_> = paths.iter().map(|p| refs(p)).collect();
    let expected: Vec<_> = (0..8).map(|k| slot(100 + 100 * k)).chain([slot(600)]).collect();
    assert_eq!(named, expected);
}

/// Every Android sub-record of SPEC.md §5 in one hand-built dump: HEAP DUMP INFO switching heaps,
/// roots 0x89–0x8E, 0x90 UNREACHABLE and 0xC3 PRIMITIVE ARRAY NODATA (an array whose values a
/// stripper removed: its length and size stay).
#[test]
fn android_sub_records() {
    let mut b = Builder::new("1.0.3");
    b.string(0x20, "app").string(0x21, "zygote").string(0x22, "image");
    b.class(0x100, "java.lang.Object", 0, &[]).class(0x110, "int[]", 0x100, &[]);
    let info = |heap_type: u32, name: u32| {
        let mut v = vec![0xFE];
        v.extend_from_slice(&heap_type.to_be_bytes());
        v.extend_from_slice(&name.to_be_bytes());
        v
    };
    let id_root = |tag: u8, id: u32| {
        let mut v = vec![tag];
        v.extend_from_slice(&id.to_be_bytes());
        v
    };
    b.raw(&info(0x5A, 0x21)).instance(0x1000, 0x100, &[]);
    b.raw(&info(0x49, 0x22)).instance(0x1010, 0x100, &[]);
    b.raw(&info(0x41, 0x20)).instance(0x1020, 0x100, &[]).instance(0x1030, 0x100, &[]);
    // int[1000] without its values.
    let mut nodata = vec![0xC3];
    nodata.extend_from_slice(&0x1040u32.to_be_bytes());
    nodata.extend_from_slice(&0u32.to_be_bytes());
    nodata.extend_from_slice(&1000u32.to_be_bytes());
    nodata.push(10);
    b.raw(&nodata);
    for (tag, id) in [(0x89, 0x1000), (0x8A, 0x1010), (0x8B, 0x1020), (0x8C, 0x1040), (0x8D, 0x100)] {
        b.raw(&id_root(tag, id));
    }
    let mut jni_monitor = id_root(0x8E, 0x110);
    jni_monitor.extend_from_slice(&[0, 0, 0, 1, 0, 0, 0, 2]);
    b.raw(&jni_monitor).raw(&id_root(0x90, 0x1030));
    let o = Options { size_model: Some(SizeModel::Android), ..Default::default() };
    let h = Heap::analyse(Index::from_bytes(b.finish(), o).unwrap(), o);
    let idx = &h.index;
    let heap_name = |id: u64| idx.heaps[idx.heap_of(idx.node(id).unwrap())].name.clone();
    assert_eq!([heap_name(0x1000), heap_name(0x1010), heap_name(0x1020)], ["zygote", "image", "app"]);
    use heap::hprof::RootKind::*;
    let kinds: Vec<_> = h.index.counts.root_records_by_kind.keys().copied().collect();
    assert_eq!(kinds, [InternedString, Finalizing, Debugger, ReferenceCleanup, VmInternal, JniMonitor]);
    let arr = idx.node(0x1040).unwrap();
    assert_eq!(idx.array_length(arr), Some(1000));
    assert_eq!(idx.shallow_size(arr), 4000);
    assert_eq!(idx.array_values(arr), None);
    assert_eq!(idx.marked_unreachable(), [idx.node(0x1030).unwrap()]);
    // The object only 0x90 names is not a root: unreachable.
    assert_eq!(h.dominators.reach(idx.node(0x1030).unwrap()), Reach::Unreachable);
    let leaks = heap::leaks::find_leaks(&h, &Default::default());
    assert!(leaks.iter().any(|l| l.kind == heap::leaks::LeakKind::Unreachable && l.instances.len() == 1));
}

/// Found by `fuzz/run.sh` (target `index`): a dump whose class entries share a node made the
/// summary count classes twice and subtract past zero.
#[test]
fn fuzz_two_class_entries_one_node() {
    let bytes =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fuzz-two-classes-one-node.hprof")).unwrap();
    let index = heap::Index::from_bytes(bytes, heap::Options::default()).expect("it indexes (with warnings)");
    let nodes = index.len() as u64;
    let h = heap::Heap::analyse(index, heap::Options::default());
    let s = h.summary();
    assert_eq!(s.classes + s.instances, nodes, "{s:?}");
}

/// Found by `fuzz/run.sh` (target `strip`): a 2.5 KB file whose last record claims gigabytes made
/// the stripper pad the cut-short record with zeros to its declared length. Padding is now bounded
/// by what was read; the output stays within twice the input and the cut is still reported.
#[test]
fn fuzz_a_cut_short_record_is_not_padded_past_reason() {
    let bytes =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fuzz-huge-record-cut-short.hprof")).unwrap();
    let knob = bytes[0];
    let mode = [heap::strip::Mode::Triage, heap::strip::Mode::Koom, heap::strip::Mode::Redact][usize::from(knob % 3)];
    let plan = heap::strip::strip_plan(&heap::strip::StripOptions { mode, ..Default::default() });
    /// Counts what is written.
    struct Counting(std::rc::Rc<std::cell::Cell<u64>>);
    impl std::io::Write for Counting {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.set(self.0.get() + b.len() as u64);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let written = std::rc::Rc::new(std::cell::Cell::new(0));
    let mut r = heap::strip::Rewriter::new(Counting(written.clone()), plan);
    let fed = r.feed(&bytes[1..]);
    let finished = r.finish();
    assert!(fed.is_err() || finished.is_err(), "the cut is reported");
    assert!(written.get() <= 2 * bytes.len() as u64, "{} bytes out of {}", written.get(), bytes.len());
}

#[test]
fn a_later_dump_cut_short_is_warned_of() {
    let mut bytes = diamond();
    // A second HEAP DUMP record declaring 100 bytes, of which 10 made it to the file.
    bytes.push(0x0C);
    bytes.extend([0, 0, 0, 0]);
    bytes.extend(100u32.to_be_bytes());
    bytes.extend([0u8; 10]);
    let h = open(bytes).unwrap();
    // The first dump, whole: the diamond's four instances.
    assert_eq!(h.index.counts.instances, 4);
    let w = h.index.warnings.join("\n");
    assert!(w.contains("the dump is truncated: truncated HEAP DUMP"), "{w}");
    assert!(w.contains("the file holds 2 heap dumps; this is dump 1 of them"), "{w}");
}

/// A STRING record declaring 4 GiB, of which 16 bytes are there, redacted (names are gathered
/// whole): an error, never a wrapped length. A 64-bit build gathers until the input ends and
/// reports the cut; a 32-bit one (the armv7 agent) cannot address the record and says so.
#[test]
fn a_name_record_of_4_gib_is_an_error() {
    let mut bytes = b"JAVA PROFILE 1.0.3\0".to_vec();
    bytes.extend(4u32.to_be_bytes());
    bytes.extend(0u64.to_be_bytes());
    bytes.push(0x01);
    bytes.extend(0u32.to_be_bytes());
    bytes.extend(u32::MAX.to_be_bytes());
    bytes.extend([0u8; 16]);
    let plan =
        heap::strip::strip_plan(&heap::strip::StripOptions { mode: heap::strip::Mode::Redact, ..Default::default() });
    let mut r = heap::strip::Rewriter::new(Vec::new(), plan);
    let err = match r.feed(&bytes) {
        Err(e) => e,
        Ok(()) => r.finish().expect_err("the record is cut short"),
    };
    if cfg!(target_pointer_width = "32") {
        assert_eq!(err.kind, ErrorKind::TooLarge(heap::Limit::NameRecord), "{err}");
    } else {
        assert!(matches!(err.kind, ErrorKind::Truncated { .. }), "{err}");
    }
    assert_eq!(err.record, Some(0x01), "{err}");
}
