//! AOSP perflib's own tests on the KitKat Dialer dump (`adt-tools-base__dialer.android-hprof.expected`).
//!
//! perflib's sizes are the `android` model (instance size from the CLASS DUMP, arrays without a
//! header, class objects = `java.lang.Class` instance size + statics), so its numbers apply as they are.

mod common;

use common::*;
use heap::dominators::ROOT;
use heap::hprof::RootKind;
use heap::values::Value;
use heap::{Heap, Node, ObjectKind};

const DIALER: &str = "android/adt-tools-base__dialer.android-hprof";

fn dialer() -> std::sync::Arc<Heap> {
    heap(DIALER, None)
}

fn heap_index(h: &Heap, name: &str) -> usize {
    h.index.heaps.iter().position(|x| x.name == name).unwrap()
}

/// HprofBufferTest / MemoryMappedFileBufferTest: heap 'A' holds 38 classes and 1406 instances,
/// heap 'Z' 3533 classes and 38710 instances (arrays count as instances).
#[test]
fn hprof_buffer_test_heap_contents() {
    let h = dialer();
    let mut per = vec![(0u64, 0u64); h.index.heaps.len()];
    for n in h.index.nodes() {
        let e = &mut per[h.index.heap_of(n)];
        if h.index.kind(n) == ObjectKind::Class {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    }
    let app = heap_index(&h, "app");
    let zygote = heap_index(&h, "zygote");
    assert_eq!(h.index.heaps[app].heap_type, 65);
    assert_eq!(h.index.heaps[zygote].heap_type, 90);
    assert_eq!(per[app], (38, 1406));
    assert_eq!(per[zygote], (3533, 38710));
}

/// HprofBufferTest: 11182 GC roots. perflib keeps ROOT THREAD OBJECT records as threads, not
/// roots, so its count is our root records minus those.
#[test]
fn hprof_buffer_test_gc_roots() {
    let h = dialer();
    let roots = h.index.roots();
    let threads = roots.iter().filter(|(_, k)| *k == RootKind::ThreadObject).count();
    assert_eq!(roots.len() - threads, 11182);
    assert_eq!(h.index.counts.root_records, 11193);
}

/// DominatorsTest.testSampleHprof: instances plus classes over all heaps = 43687.
#[test]
fn dominators_test_object_count() {
    assert_eq!(dialer().index.len(), 43687);
}

/// DominatorsTest.testSampleHprof: 0xB0EDFFA0 is reachable through two roots, so the virtual root
/// is its immediate dominator.
#[test]
fn dominators_test_two_roots_give_virtual_root() {
    let h = dialer();
    let n = node(&h, 0xB0EDFFA0);
    assert_eq!(h.dominators.idom(n), ROOT);
}

/// DominatorsTest.testSampleHprof: retained sizes per heap of two class objects.
#[test]
fn dominators_test_retained_sizes_per_heap() {
    let h = dialer();
    let app = heap_index(&h, "app");
    let zygote = heap_index(&h, "zygote");
    let html = h.index.classes[class(&h, "android.text.Html$HtmlParser").index()].node.unwrap();
    let r = h.retained_by_heap(html);
    assert_eq!((r[zygote], r[app]), (116492, 0));
    let at = h.index.classes[class(&h, "android.app.ActivityThread").index()].node.unwrap();
    let r = h.retained_by_heap(at);
    assert_eq!((r[zygote], r[app]), (853, 576));
}

/// HprofParserTest.testPrimitiveArrays.
#[test]
fn hprof_parser_test_primitive_arrays() {
    let h = dialer();
    let byte_array = class(&h, "byte[]");
    let s = h.histogram[byte_array.index()];
    assert_eq!(s.instances, 1406);
    assert_eq!(s.shallow_bytes, 681489);
    let b = node(&h, 0xB0D60401);
    assert_eq!(class_name(&h, b), "byte[]");
    assert_eq!(h.index.shallow_size(b), 43224);
    let ii = class(&h, "int[][]");
    assert_eq!(h.histogram[ii.index()].instances, 37);
    let a = node(&h, 0xB0F69F58);
    assert_eq!(class_name(&h, a), "int[][]");
    assert_eq!(h.index.shallow_size(a), 40);
    assert_eq!(h.histogram[class(&h, "java.lang.String[]").index()].instances, 1396);
}

/// HprofParserTest.testObjectConstruction: Thread$State's statics.
#[test]
fn hprof_parser_test_object_construction() {
    let h = dialer();
    let state = class(&h, "java.lang.Thread$State");
    let values = h.index.static_value(state, "$VALUES").and_then(Value::as_object).unwrap();
    let values = node(&h, values);
    let elems = h.index.array_values(values).unwrap();
    assert_eq!(elems.len(), 6);
    for e in elems {
        let n = node(&h, e.as_object().unwrap());
        assert_eq!(h.index.class_of(n), state);
    }
    let new = node(&h, h.index.static_value(state, "NEW").and_then(Value::as_object).unwrap());
    assert_eq!(h.index.class_of(new), state);
    let name = follow(&h, new, "name");
    let chars = follow(&h, name, "value");
    assert_eq!(h.index.array_length(chars), Some(3));
    assert_eq!(h.index.string_value(chars).as_deref(), Some("NEW"));
    assert_eq!(h.index.string_value(name).as_deref(), Some("NEW"));
    assert_eq!(h.index.field(new, "ordinal"), Some(Value::Int(0)));
}

/// HprofParserTest.testHierarchy and ClassObjTest.testGetAllFieldsCount.
#[test]
fn hprof_parser_test_hierarchy_and_field_counts() {
    let h = dialer();
    let chain: Vec<String> = {
        let mut v = Vec::new();
        let mut c = Some(class(&h, "android.app.Application"));
        while let Some(k) = c {
            v.push(h.index.classes[k.index()].name.clone());
            c = h.index.classes[k.index()].super_class;
        }
        v
    };
    assert_eq!(
        chain,
        ["android.app.Application", "android.content.ContextWrapper", "android.content.Context", "java.lang.Object"]
    );
    for name in ["android.app.Application", "com.android.dialer.DialerApplication"] {
        assert_eq!(h.index.classes[class(&h, name).index()].fields.len(), 5, "{name}");
    }
}

/// HprofParserTest.testClassLoaders.
#[test]
fn hprof_parser_test_class_loaders() {
    let h = dialer();
    assert_eq!(h.index.classes[class(&h, "android.app.Application").index()].loader, 0);
    let loader = h.index.classes[class(&h, "com.android.dialer.DialerApplication").index()].loader;
    assert_eq!(class_name(&h, node(&h, loader)), "dalvik.system.PathClassLoader");
}

/// QueriesTest.testCommonClassesQuery: the classes this dump has and has not.
#[test]
fn queries_test_classes_present() {
    let h = dialer();
    assert_eq!(h.index.classes_named("com.android.dialer.DialerApplication").count(), 1);
    assert_eq!(h.index.classes_named("android.app.Application").count(), 1);
    assert_eq!(h.index.classes_named("com.android.tests.basic.Main").count(), 0);
}

/// DominatorsTest.testSampleHprof: 42839 objects reachable. perflib's reachability differs from
/// ours in two rules, so this walks our reference graph under perflib's: roots are every root
/// record but ROOT THREAD OBJECT, only strong references are followed, and a live instance does
/// not make its class live. (Under our rules, which add thread objects as roots and count weakly
/// reachable objects, the figure is larger.)
#[test]
fn dominators_test_reachable_count_under_perflib_rules() {
    let h = dialer();
    let idx = &h.index;
    let mut seen = vec![false; idx.len()];
    let mut stack: Vec<Node> = Vec::new();
    for &(r, kind) in idx.roots() {
        if kind != RootKind::ThreadObject && !seen[r.index()] {
            seen[r.index()] = true;
            stack.push(r);
        }
    }
    while let Some(v) = stack.pop() {
        for (t, weak) in idx.references_weak(v) {
            if !weak && !seen[t.index()] {
                seen[t.index()] = true;
                stack.push(t);
            }
        }
    }
    assert_eq!(seen.iter().filter(|&&s| s).count(), 42839);
    assert!(h.dominators.reachable_objects > 42839);
}

/// The instances kept per class (instance lists, the UI's filters): every object once, under its
/// own class, largest retained first; perflib's 1406 byte[] and 37 int[][] among them.
#[test]
fn instances_by_class_are_every_object_once_largest_first() {
    let h = dialer();
    let mut total = 0;
    for c in 0..h.index.classes.len() as u32 {
        let c = heap::ClassId(c);
        let list = h.instances_by_retained(c);
        total += list.len();
        let mut ids = list.to_vec();
        ids.sort_unstable();
        assert_eq!(ids, h.instances_of(c), "class {}", h.index.classes[c.index()].name);
        let keys: Vec<(u64, Node)> = list.iter().map(|&n| (h.dominators.retained(n), n)).collect();
        assert!(keys.windows(2).all(|w| w[0].0 > w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1)));
    }
    assert_eq!(total, 43687);
    let count = |name: &str| h.instances_by_retained(h.index.classes_named(name).next().unwrap()).len();
    assert_eq!((count("byte[]"), count("int[][]")), (1406, 37));
}
