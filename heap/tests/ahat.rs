//! AOSP ahat's own tests (InstanceTest, ObjectsHandlerTest, ObjectHandlerTest) on test-dump.hprof,
//! with its ProGuard map, and InstanceTest.nullValueString on RI.hprof.
//!
//! ahat finds its test objects through the static `Main.stuff` and the fields of that DumpedStuff.
//! ahat's reachability kinds (SOFT, FINALIZER, WEAK, PHANTOM) are `Heap::reachability`'s; the
//! dominator tree's `Reach::Weak` is all four at once, and both are checked.

mod common;

use std::sync::{Arc, OnceLock};

use common::*;
use heap::dominators::{Reach, ROOT};
use heap::proguard::ProguardMap;
use heap::values::Value;
use heap::{Heap, Index, Node, Options};

fn open_mapped(name: &str) -> Heap {
    let mut index = Index::open(&fixture(name), Options::default()).unwrap();
    let map = std::fs::read_to_string(fixture("android/ahat-art__test-dump.map")).unwrap();
    index.deobfuscate(&ProguardMap::parse(&map));
    Heap::analyse(index, Options::default())
}

fn ahat() -> Arc<Heap> {
    static HEAP: OnceLock<Arc<Heap>> = OnceLock::new();
    HEAP.get_or_init(|| Arc::new(open_mapped("android/ahat-art__test-dump.hprof"))).clone()
}

fn main_class(h: &Heap) -> Node {
    h.index.classes[class(h, "Main").index()].node.unwrap()
}

fn stuff(h: &Heap) -> Node {
    follow(h, main_class(h), "stuff")
}

fn get(h: &Heap, name: &str) -> Node {
    follow(h, stuff(h), name)
}

fn text(h: &Heap, name: &str) -> Option<String> {
    h.index.string_value(get(h, name))
}

/// InstanceTest.asString*: String and char[] contents.
#[test]
fn instance_test_as_string() {
    let h = ahat();
    assert_eq!(text(&h, "basicString").as_deref(), Some("hello, world"));
    assert_eq!(text(&h, "nonAscii").as_deref(), Some("Sigma (\u{1a9}) is not ASCII"));
    assert_eq!(text(&h, "embeddedZero").as_deref(), Some("embedded\0..."));
    assert_eq!(text(&h, "charArray").as_deref(), Some("char thing"));
    assert_eq!(h.index.field(stuff(&h), "nullString"), Some(Value::Object(0)));
    assert_eq!(text(&h, "anObject"), None);
}

/// InstanceTest.asByteArray*.
#[test]
fn instance_test_as_byte_array() {
    let h = ahat();
    let bytes = |name: &str| h.index.primitive_array_bytes(get(&h, name)).map(|(_, b)| b.to_vec());
    assert_eq!(bytes("byteNotString"), Some(vec![0, 1, 2, 3, 4, 5]));
    assert_eq!(bytes("byteEmpty"), Some(vec![]));
    assert_eq!(bytes("byteString"), Some(b"hi.\n\0\0\0".to_vec()));
    let big = bytes("bigArray").unwrap();
    assert_eq!(big.len(), 1_000_000);
    assert!(big.iter().enumerate().all(|(i, &b)| b == (i.wrapping_mul(i) & 0xff) as u8));
}

/// InstanceTest.basicReference.
#[test]
fn instance_test_basic_reference() {
    let h = ahat();
    let an_object = get(&h, "anObject");
    assert_eq!(follow(&h, get(&h, "aPhantomReference"), "referent"), an_object);
    assert_eq!(follow(&h, get(&h, "aWeakReference"), "referent"), an_object);
    assert_eq!(h.index.field(get(&h, "aNullReferentReference"), "referent"), Some(Value::Object(0)));
    assert_eq!(h.index.field(an_object, "referent"), None);
}

/// InstanceTest.unreachableReferent, reachability, softReferenceChain, weakRefToGcRoot.
#[test]
fn instance_test_reachability() {
    let h = ahat();
    let reach = |n: Node| h.dominators.reach(n);
    assert_eq!(reach(follow(&h, get(&h, "aSoftReference"), "referent")), Reach::Weak);
    // Reference -> SoftReference -> Reference -> WeakReference -> SoftReference -> PhantomReference -> Object.
    let mut chain = vec![get(&h, "reachabilityReferenceChain")];
    for _ in 0..6 {
        chain.push(follow(&h, *chain.last().unwrap(), "referent"));
    }
    let expect = [Reach::Strong, Reach::Strong, Reach::Weak, Reach::Weak, Reach::Weak, Reach::Weak, Reach::Weak];
    assert_eq!(chain.iter().map(|&n| reach(n)).collect::<Vec<_>>(), expect);
    assert_eq!(class_name(&h, chain[0]), "DumpedStuff$Reference");
    assert_eq!(class_name(&h, chain[1]), "java.lang.ref.SoftReference");
    let soft = get(&h, "aSoftChain");
    assert_eq!(reach(soft), Reach::Strong);
    let r1 = follow(&h, soft, "referent");
    let r2 = follow(&h, r1, "referent");
    let o = follow(&h, r2, "referent");
    assert_eq!([reach(r1), reach(r2), reach(o)], [Reach::Weak; 3]);
    // A weak reference to a root does not demote it.
    let main = main_class(&h);
    assert_eq!(follow(&h, get(&h, "aWeakRefToGcRoot"), "referent"), main);
    assert_eq!(reach(main), Reach::Strong);

    // ahat's own kinds (InstanceTest.reachability and the rest, as ahat asserts them).
    use heap::reachability::Reachability::{Phantom, Soft, Strong, Weak};
    let kind = |n: Node| h.reachability(n);
    assert_eq!(kind(follow(&h, get(&h, "aSoftReference"), "referent")), Soft);
    assert_eq!(chain.iter().map(|&n| kind(n)).collect::<Vec<_>>(), [Strong, Strong, Soft, Soft, Weak, Weak, Phantom]);
    assert_eq!(kind(soft), Strong);
    assert_eq!([kind(r1), kind(r2), kind(o)], [Soft; 3]);
    assert_eq!(kind(main), Strong);
}

/// The kinds split the dominator tree's reach and nothing else: strong and unreachable objects are
/// the same objects in both, every weaker kind is `Reach::Weak`; on every fixture.
#[test]
fn reachability_kinds_refine_the_trees_reach() {
    use heap::reachability::Reachability;
    for name in all_fixtures() {
        let h = heap(&name, None);
        let mut kinds = std::collections::BTreeMap::new();
        for n in h.index.nodes() {
            let (kind, reach) = (h.reachability(n), h.dominators.reach(n));
            let want = match kind {
                Reachability::Strong => Reach::Strong,
                Reachability::Unreachable => Reach::Unreachable,
                _ => Reach::Weak,
            };
            assert_eq!(reach, want, "{name}: {:#x} is {kind:?}", h.index.id(n));
            *kinds.entry(kind.name()).or_insert(0u64) += 1;
        }
        eprintln!("{name}: {kinds:?}");
    }
}

/// InstanceTest.reverseReferences and ObjectHandlerTest.noCrashUnreachable.
#[test]
fn instance_test_reverse_references() {
    let h = ahat();
    let an_object = get(&h, "anObject");
    let refs = h.referrers(an_object);
    let a_reference = get(&h, "aReference");
    let a_weak = get(&h, "aWeakReference");
    assert!(refs.contains(&(a_reference, false)));
    assert!(refs.contains(&(a_weak, true)));
    let anchor = get(&h, "unreachableAnchor");
    let refs = h.referrers(anchor);
    assert_eq!(refs.len(), 2);
    assert!(refs.iter().any(|&(r, _)| r == stuff(&h)));
    let unreachable = refs.iter().map(|&(r, _)| r).find(|&r| r != stuff(&h)).unwrap();
    assert_eq!(class_name(&h, unreachable), "DumpedStuff$Unreachable");
    assert_eq!(h.dominators.reach(unreachable), Reach::Unreachable);
    let page = h.inspect_json(unreachable);
    assert_eq!(page["reachable"], false);
    assert_eq!(page["path_to_root"].as_array().map(Vec::len), Some(0));
}

/// InstanceTest.classOfClass, isRoot, isNotRoot.
#[test]
fn instance_test_roots() {
    let h = ahat();
    let main = main_class(&h);
    assert_eq!(class_name(&h, main), "java.lang.Class");
    assert!(!h.root_kinds(main).is_empty());
    assert_eq!(h.dominators.idom(main), ROOT);
    assert!(h.root_kinds(get(&h, "anObject")).is_empty());
}

/// InstanceTest.gcRootPath: Main class -> .stuff -> .gcPathArray -> [2] -> T -> L or R -> X.
#[test]
fn instance_test_gc_root_path() {
    let h = ahat();
    let array = get(&h, "gcPathArray");
    let t = h.index.node(h.index.array_values(array).unwrap()[2].as_object().unwrap()).unwrap();
    let x = follow(&h, follow(&h, t, "left"), "right");
    let path = h.paths().path(&h.index, x);
    let refs: Vec<Option<&str>> = path.iter().map(|s| s.reference.as_deref()).collect();
    assert_eq!(path.len(), 6);
    assert_eq!(path[0].node, main_class(&h));
    assert_eq!(&refs[..4], &[None, Some(".stuff"), Some(".gcPathArray"), Some("[2]")]);
    assert!(
        refs[4] == Some(".left") && refs[5] == Some(".right") || refs[4] == Some(".right") && refs[5] == Some(".left")
    );
    // Which steps dominate X: all but the fifth.
    let mut doms = vec![x];
    let mut cur = x;
    while let Some(Some(d)) = h.dominator(cur) {
        doms.push(d);
        cur = d;
    }
    let dominates: Vec<bool> = path.iter().map(|s| doms.contains(&s.node)).collect();
    assert_eq!(dominates, [true, true, true, true, false, true]);
}

/// InstanceTest.gcRootPathNotWeak: the path to O comes through the strong chain.
#[test]
fn instance_test_gc_root_path_not_weak() {
    let h = ahat();
    let r3 = follow(&h, follow(&h, get(&h, "aLongStrongPathToSamplePathObject"), "referent"), "referent");
    let o = follow(&h, r3, "referent");
    let path = h.paths().path(&h.index, o);
    assert_eq!(path[path.len() - 2].node, r3);
    assert!(path.iter().all(|s| !s.weak));
}

/// InstanceTest.retainedSize: anObject dominates nothing else.
#[test]
fn instance_test_retained_size() {
    let h = ahat();
    let o = get(&h, "anObject");
    let size = h.index.shallow_size(o);
    assert_eq!(h.dominators.retained(o), size);
    let per_heap = h.retained_by_heap(o);
    let own = h.index.heap_of(o);
    for (i, r) in per_heap.iter().enumerate() {
        assert_eq!(*r, if i == own { size } else { 0 });
    }
}

/// ObjectsHandlerTest.getObjects.
#[test]
fn objects_handler_test_get_objects() {
    let h = ahat();
    let dumped = class(&h, "DumpedStuff");
    let sup = class(&h, "SuperDumpedStuff");
    assert_eq!(h.instances_of(dumped), vec![stuff(&h)]);
    assert!(h.instances_of(sup).is_empty());
    let with_subclasses: Vec<Node> =
        h.index.nodes().filter(|&n| h.index.as_class(n).is_none() && h.is_subclass(h.index.class_of(n), sup)).collect();
    assert_eq!(with_subclasses, vec![stuff(&h)]);
}

/// ObjectHandlerTest / PerformanceTest: object pages render (here: inspect entries build).
#[test]
fn object_pages_render() {
    let h = ahat();
    let string_class = h.index.classes[class(&h, "java.lang.String").index()].node.unwrap();
    for n in [get(&h, "aPhantomReference"), main_class(&h), string_class, get(&h, "gcPathArray"), get(&h, "bigArray")] {
        let page = h.inspect_json(n);
        assert_eq!(page["id"], format!("0x{:x}", h.index.id(n)));
    }
    assert_eq!(class_name(&h, get(&h, "gcPathArray")), "DumpedStuff$ObjectTree[]");
}

/// InstanceTest.nullValueString on RI.hprof: a String without a value array reads as no text.
#[test]
fn instance_test_null_value_string() {
    let h = heap("android/ahat-art__RI.hprof", None);
    let s = node(&h, 0x500001a8);
    assert_eq!(class_name(&h, s), "java.lang.String");
    assert_eq!(h.index.field(s, "value"), Some(Value::Object(0)));
    assert_eq!(h.index.string_value(s), None);
    assert!(h.inspect_json(s).get("string").is_none());
}

/// NativeAllocationTest: anObject carries 50000 bytes of registered native memory; aCleanedObject,
/// whose allocation was freed, none.
#[test]
fn native_allocation_test() {
    let h = ahat();
    assert_eq!(h.native_size(get(&h, "anObject")), 50000);
    assert_eq!(h.native_size(get(&h, "aCleanedObject")), 0);
    assert!(h.native_total() >= 50000);
}

/// DiffTest against test-dump-base.hprof: both dumps have a heap named "app"; unchangedObject is
/// matched in both (by its path, Main.stuff.unchangedObject); addedObject has no counterpart in the
/// baseline, removedObject none in this dump.
#[test]
fn diff_test_matching() {
    let h = ahat();
    let base = open_mapped("android/ahat-art__test-dump-base.hprof");
    assert!(h.index.heaps.iter().any(|x| x.name == "app") && base.index.heaps.iter().any(|x| x.name == "app"));
    let key = |heap: &Heap, field: &str| -> Option<String> {
        let main = heap.index.classes[class(heap, "Main").index()].node.unwrap();
        let stuff = follow(heap, main, "stuff");
        heap.index.field_node(stuff, field).and_then(|n| heap::diff::path_key(heap, n))
    };
    let unchanged = key(&h, "unchangedObject").unwrap();
    assert_eq!(unchanged, "class Main.stuff.unchangedObject");
    assert_eq!(key(&base, "unchangedObject").as_deref(), Some(unchanged.as_str()));
    assert!(key(&h, "addedObject").is_some() && key(&base, "addedObject").is_none());
    assert!(key(&h, "removedObject").is_none() && key(&base, "removedObject").is_some());
    // The histogram's change: one more DumpedStuff$AddedObject, one less RemovedObject, and the
    // 10000 StackSmasher objects of stackSmasherAdded.
    let deltas = heap::diff::class_deltas(&base, &h);
    let d = |c: &str| deltas.iter().find(|d| d.class == c).map(|d| d.instances);
    assert_eq!(d("DumpedStuff$AddedObject"), Some((0, 1)));
    assert_eq!(d("DumpedStuff$RemovedObject"), Some((1, 0)));
    let smashers = d("DumpedStuff$StackSmasher").unwrap();
    assert_eq!(smashers.1 - smashers.0, 10000);
}

/// InstanceTest's bitmaps: bitmapOne is a Bitmap whose pixels are the buffer `Bitmap.dumpData`
/// records for its native pointer, "image/png", 1,000,000 bytes, byte i = (i * i) & 0xFF (it is
/// bigArray); anObject, gcPathArray and the Main class object are not Bitmaps; the duplicate
/// bitmaps are one group of two.
#[test]
fn bitmaps_as_ahat_reads_them() {
    let h = ahat();
    let one = get(&h, "bitmapOne");
    assert!(h.is_bitmap(one));
    let Some(Ok(picture)) = h.bitmap(one) else { panic!("bitmapOne has pixels") };
    assert_eq!(picture.mime(), Some("image/png"));
    let heap::bitmap::Picture::Encoded { bytes, .. } = &picture else { panic!("{picture:?}") };
    assert_eq!(bytes.len(), 1_000_000);
    assert!(bytes.iter().enumerate().all(|(i, &b)| b == (i * i) as u8));
    for n in [get(&h, "anObject"), get(&h, "gcPathArray"), main_class(&h)] {
        assert!(!h.is_bitmap(n) && h.bitmap(n).is_none());
    }
    let leaks = heap::leaks::find_leaks(&h, &heap::leaks::LeakConfig::default());
    let groups: Vec<_> = leaks.iter().filter(|l| l.rule == "android.bitmap.duplicate").collect();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].instances.len(), 2);
}
