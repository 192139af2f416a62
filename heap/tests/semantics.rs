//! Each peer's rule set (`--semantics`) against that peer's own tests' numbers: MAT's on its
//! sample dump, perflib's on the Dialer dump, ahat's on its test dump. (VisualVM's, object by
//! object, are in `visualvm.rs`, beside its harness.)

mod common;

use common::*;
use heap::dominators::{Reach, ROOT};
use heap::hprof::RootKind;
use heap::proguard::ProguardMap;
use heap::{Heap, Index, Node, Options, Semantics, SizeModel};

fn under(name: &str, semantics: Semantics, size_model: Option<SizeModel>) -> Heap {
    Heap::open(&fixture(name), Options { semantics, size_model, ..Default::default() }).unwrap()
}

const JDK5_64: &str = "jvm/eclipse-mat__sun_jdk5_64bit.hprof";
const DTD: &str = "org.eclipse.mat.tests.CreateSampleDump$DominatorTestData";

/// OQLTest.testComplex3: MAT lists 354 GC-root objects where the file's root records name 362.
/// The 8 others are named only by Java-frame and JNI-local records of a known thread, which MAT
/// makes references from that Thread. Under heaptui's rules they are roots.
#[test]
fn mat_rules_give_mats_354_roots() {
    let h = under(JDK5_64, Semantics::Mat, Some(SizeModel::Mat));
    assert_eq!(h.gc_root_objects(), 354);
    assert_eq!(under(JDK5_64, Semantics::Heaptui, Some(SizeModel::Mat)).gc_root_objects(), 362);
    // The sample's DominatorTestData is held by main's stack alone: under MAT's rules, by the
    // main Thread (0x17c180b8) through a local, where heaptui's rules make it a root.
    let dtd = single_instance(&h, DTD);
    let path = h.paths().path(&h.index, dtd);
    let steps: Vec<(u64, Option<&str>)> = path.iter().map(|s| (h.index.id(s.node), s.reference.as_deref())).collect();
    assert_eq!(steps, [(0x17c180b8, None), (h.index.id(dtd), Some("<local>"))]);
    assert_eq!(h.dominator(dtd), Some(Some(node(&h, 0x17c180b8))));
    // testComplex1/2: 23 of them are JNI globals (MAT's NATIVE_STATIC).
    let mut globals: Vec<Node> = h.index.roots().iter().filter(|r| r.1 == RootKind::JniGlobal).map(|r| r.0).collect();
    globals.sort_unstable();
    globals.dedup();
    assert_eq!(globals.len(), 23);
    // testWhereLiterals: 4 Thread instances are roots, now as MAT counts roots.
    let threads = h.instances_of(class(&h, "java.lang.Thread"));
    assert_eq!(threads.iter().filter(|&&t| h.dominators.idom(t) == ROOT).count(), 4);
}

/// MAT's dominator and retained-size facts on its sample dump, under MAT's rules and sizes:
/// DominatorTreeTest (the paper's graph: R retains 13 objects, 376 bytes) and OQLTest's
/// String, class-object and retained-size counts.
#[test]
fn mat_rules_hold_mats_dominator_facts() {
    let h = under(JDK5_64, Semantics::Mat, Some(SizeModel::Mat));
    let letter = |l: &str| single_instance(&h, &format!("{DTD}${l}"));
    let r = letter("R");
    assert_eq!(h.dominators.retained(r), 376);
    // testDomTreeSunJdk6_32: the same graph, 224 bytes on a 32-bit VM.
    let h32 = under("jvm/eclipse-mat__sun_jdk6_32bit.hprof", Semantics::Mat, Some(SizeModel::Mat));
    let r32 = single_instance(&h32, &format!("{DTD}$R"));
    assert_eq!((h32.dominators.retained(r32), h32.dominators.retained_count(r32)), (224, 13));
    assert_eq!(h.dominators.retained_count(r), 13);
    for (l, d) in [("A", "R"), ("B", "R"), ("E", "R"), ("K", "R"), ("F", "C"), ("G", "C"), ("L", "D"), ("J", "G")] {
        assert_eq!(h.dominator(letter(l)), Some(Some(letter(d))), "idom of {l}");
    }
    // OQLTest: MAT discards garbage, so its counts are of live objects.
    let live = |name: &str| -> Vec<Node> {
        h.instances_of(class(&h, name)).into_iter().filter(|&n| h.dominators.reach(n) == Reach::Strong).collect()
    };
    let strings = live("java.lang.String");
    assert_eq!(strings.len(), 492);
    assert_eq!(live("java.lang.String[]").len(), 28);
    assert_eq!(live("byte[]").len(), 21);
    assert_eq!(live("java.util.HashSet").len(), 5);
    assert_eq!(live("java.util.Hashtable").len(), 6);
    // testWhereRelationalOperators / testWhereLiterals: retained sizes of Strings.
    let retained = |s: &Node| h.dominators.retained(*s);
    let count = |s: &Node| match h.index.field(*s, "count") {
        Some(heap::values::Value::Int(c)) => c,
        other => panic!("count of String: {other:?}"),
    };
    assert_eq!(strings.iter().filter(|s| count(s) > 100 && retained(s) > h.index.shallow_size(**s)).count(), 6);
    assert_eq!(strings.iter().filter(|s| retained(s) > 1024).count(), 4);
    let dominated: usize = strings.iter().map(|&s| h.dominated(Some(s)).len()).sum();
    assert_eq!(dominated, 465);
    assert_eq!(strings.iter().filter(|&&s| h.dominated(Some(s)).is_empty()).count(), 27);
    // testSelectRetained5/6, testSelectObjects: String's class object retains 3 objects and
    // dominates 2; Charset's (0x1295e2f8) dominates 7.
    let string_class = h.index.classes[class(&h, "java.lang.String").index()].node.unwrap();
    assert_eq!(h.dominators.retained_count(string_class), 3);
    assert_eq!(h.dominated(Some(string_class)).len(), 2);
    assert_eq!(h.dominated(Some(node(&h, 0x1295e2f8))).len(), 7);
    // testUnindexed: the objects MAT drops as garbage are not live under its rules either.
    for id in [0x128e3098u64, 0x12905ba0, 0x128e3070, 0x17c108d0, 0x17c109d8] {
        assert_eq!(h.dominators.reach(node(&h, id)), Reach::Unreachable, "{id:#x}");
    }
}

const DIALER: &str = "android/adt-tools-base__dialer.android-hprof";

/// perflib's DominatorsTest and HprofBufferTest on the Dialer dump, under perflib's rules:
/// 42,839 reachable objects; 11,182 roots (every record but the 11 thread objects); 0xB0EDFFA0
/// dominated by the virtual root; the two class objects' retained sizes per heap.
#[test]
fn perflib_rules_give_perflibs_numbers() {
    let h = under(DIALER, Semantics::Perflib, None);
    assert_eq!(h.dominators.reachable_objects, 42839);
    assert_eq!(h.gc_root_records(), 11182);
    assert_eq!(h.summary().gc_roots, 11182);
    assert_eq!(heap(DIALER, None).gc_root_records(), 11193);
    // Under heaptui's rules thread objects are roots and weak referents hang off the virtual
    // root, so more objects are reachable.
    assert!(heap(DIALER, None).dominators.reachable_objects > 42839);
    assert_eq!(h.dominators.idom(node(&h, 0xB0EDFFA0)), ROOT);
    let heap_named = |name: &str| h.index.heaps.iter().position(|x| x.name == name).unwrap();
    let (app, zygote) = (heap_named("app"), heap_named("zygote"));
    let class_node = |name: &str| h.index.classes[class(&h, name).index()].node.unwrap();
    let r = h.retained_by_heap(class_node("android.text.Html$HtmlParser"));
    assert_eq!((r[zygote], r[app]), (116492, 0));
    let r = h.retained_by_heap(class_node("android.app.ActivityThread"));
    assert_eq!((r[zygote], r[app]), (853, 576));
    // perflib keeps garbage at its own size (DominatorsBase starts every instance there).
    let garbage = h.index.nodes().find(|&n| h.dominators.reach(n) == Reach::Unreachable).unwrap();
    assert_eq!(h.dominators.retained(garbage), h.index.shallow_size(garbage));
}

/// ahat's InstanceTest under ahat's default rules (`--retained soft`): a SoftReference retains
/// more than under strong-only rules (retainedSizeByRetained), and the softly reachable second
/// Reference of `reachabilityReferenceChain` is in the tree (objectsInfos: 2 Reference objects
/// with soft, 1 with strong). The paths and the anObject facts hold under both.
#[test]
fn ahat_rules_count_soft_references() {
    let open = |semantics| {
        let mut index = Index::open(&fixture("android/ahat-art__test-dump.hprof"), Options::default()).unwrap();
        index.deobfuscate(&ProguardMap::parse(
            &std::fs::read_to_string(fixture("android/ahat-art__test-dump.map")).unwrap(),
        ));
        Heap::analyse(index, Options { semantics, ..Default::default() })
    };
    let (soft, strong) = (open(Semantics::Ahat), open(Semantics::Heaptui));
    let get = |h: &Heap, name: &str| {
        let main = h.index.classes[class(h, "Main").index()].node.unwrap();
        follow(h, follow(h, main, "stuff"), name)
    };
    let s = get(&soft, "aSoftReference");
    assert!(strong.dominators.retained(s) < soft.dominators.retained(s));
    // The path to its referent takes the soft step, and says so, under both rule sets.
    let referent = follow(&soft, s, "referent");
    for h in [&soft, &strong] {
        let path = h.paths().path(&h.index, referent);
        assert_eq!(path[path.len() - 2].node, s);
        assert!(path.last().unwrap().weak, "{}", h.semantics.name());
    }
    // Reference -> SoftReference -> Reference -> WeakReference -> SoftReference -> ...: under
    // ahat's rules the walk stops at the WeakReference's referent, under heaptui's at the first
    // referent.
    let mut chain = vec![get(&soft, "reachabilityReferenceChain")];
    for _ in 0..4 {
        chain.push(follow(&soft, *chain.last().unwrap(), "referent"));
    }
    let live = |h: &Heap| chain.iter().map(|&n| h.dominators.reach(n) == Reach::Strong).collect::<Vec<_>>();
    assert_eq!(class_name(&soft, chain[2]), "DumpedStuff$Reference");
    assert_eq!(live(&soft), [true, true, true, true, false]);
    assert_eq!(live(&strong), [true, true, false, false, false]);
    for h in [&soft, &strong] {
        let o = get(h, "anObject");
        assert_eq!(h.dominators.retained(o), h.index.shallow_size(o));
        let array = get(h, "gcPathArray");
        let t = h.index.node(h.index.array_values(array).unwrap()[2].as_object().unwrap()).unwrap();
        let x = follow(h, follow(h, t, "left"), "right");
        assert_eq!(h.paths().path(&h.index, x).len(), 6);
    }
}

/// The rule set is part of the index cache's key: a dump analysed under one set and opened
/// under another is analysed again, and each reads back its own numbers.
#[test]
fn the_cache_keeps_each_rule_sets_analysis_apart() {
    let dir = tempfile::tempdir().unwrap();
    let mut cache = heap::Cache::new(dir.path());
    cache.min_bytes = 0;
    let dump = fixture("jvm/hprof-slurp__hprof-64.bin");
    let jar_loader = 0xd6fd6ae0;
    for semantics in [Semantics::Heaptui, Semantics::Visualvm] {
        let options = Options { semantics, ..Default::default() };
        assert!(cache.load(&dump, options, "").is_err());
        let ticket = cache.ticket(&dump, options, "").unwrap();
        cache.store(&Heap::open(&dump, options).unwrap(), &ticket).unwrap();
    }
    for (semantics, retained) in [(Semantics::Heaptui, 44944), (Semantics::Visualvm, 39488)] {
        let options = Options { semantics, ..Default::default() };
        let Ok(h) = cache.load(&dump, options, "") else { panic!("{} not cached", semantics.name()) };
        assert_eq!(h.semantics, semantics);
        assert_eq!(h.dominators.retained(h.index.node(jar_loader).unwrap()), retained);
    }
}

/// A hostile dump whose two classes are each other's superclass: every rule set's analysis
/// ends; none walks the circle for ever (VisualVM's looks for Reference classes among a class's
/// superclasses).
#[test]
fn a_circle_of_superclasses_ends_under_every_rule_set() {
    use common::builder::{Builder, OBJ};
    let mut b = Builder::new("1.0.2");
    b.class(0x100, "A", 0x200, &[(0x900, OBJ)]).class(0x200, "B", 0x100, &[]);
    b.instance(0x1000, 0x100, &[0x1000]).root(0x1000);
    let bytes = b.finish();
    for semantics in Semantics::ALL {
        let options = Options { semantics, ..Default::default() };
        // The index takes the circle as it is (each class names another as its superclass).
        let index = Index::from_bytes(bytes.clone(), options).unwrap();
        let h = Heap::analyse(index, options);
        assert!(h.dominators.reachable_objects >= 1, "{}", semantics.name());
    }
}
