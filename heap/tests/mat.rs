//! Eclipse MAT's own tests (DominatorTreeTest, OQLTest, TestInstanceSizes) on its sample dumps,
//! under the `mat` size model (MAT's arithmetic).

mod common;

use common::*;
use heap::dominators::Reach;
use heap::{Heap, Node, SizeModel};

const JDK5_64: &str = "jvm/eclipse-mat__sun_jdk5_64bit.hprof";
const JDK6_32: &str = "jvm/eclipse-mat__sun_jdk6_32bit.hprof";

fn mat(name: &str) -> std::sync::Arc<Heap> {
    heap(name, Some(SizeModel::Mat))
}

const DTD: &str = "org.eclipse.mat.tests.CreateSampleDump$DominatorTestData";

fn letter(h: &Heap, l: &str) -> Node {
    single_instance(h, &format!("{DTD}${l}"))
}

/// DominatorTreeTest.testDomTreeSunJdk5_64 / testDomTreeSunJdk6_32: the Lengauer–Tarjan paper's
/// graph. R dominates A, B, C, D, E, H, I, K; C dominates F, G; D dominates L; G dominates J.
fn check_paper_graph(h: &Heap, retained: u64) {
    let idom_of = |l: &str| h.dominator(letter(h, l)).flatten().map(|d| class_name(h, d));
    let r = format!("{DTD}$R");
    for l in ["A", "B", "C", "D", "E", "H", "I", "K"] {
        assert_eq!(idom_of(l).as_deref(), Some(r.as_str()), "idom of {l}");
    }
    for (l, d) in [("F", "C"), ("G", "C"), ("L", "D"), ("J", "G")] {
        assert_eq!(idom_of(l), Some(format!("{DTD}${d}")), "idom of {l}");
    }
    let rn = letter(h, "R");
    assert_eq!(h.dominated(Some(rn)).len(), 8);
    for l in ["A", "B", "E", "F", "H", "I", "J", "K", "L"] {
        assert!(h.dominated(Some(letter(h, l))).is_empty(), "{l} dominates nothing");
    }
    assert_eq!(h.dominators.retained_count(rn), 13);
    assert_eq!(h.dominators.retained(rn), retained);
}

#[test]
fn dominator_tree_test_sun_jdk5_64() {
    check_paper_graph(&mat(JDK5_64), 376);
}

#[test]
fn dominator_tree_test_sun_jdk6_32() {
    check_paper_graph(&mat(JDK6_32), 224);
}

/// The same graph under VisualVM's layout: retained sizes differ (no per-level alignment), the
/// tree does not.
#[test]
fn paper_graph_tree_is_model_independent() {
    let h = heap(JDK5_64, Some(SizeModel::Hotspot));
    let rn = letter(&h, "R");
    assert_eq!(h.dominated(Some(rn)).len(), 8);
    assert_eq!(h.dominators.retained_count(rn), 13);
}

/// Reachable instances of exactly `name` (MAT discards unreachable objects by default).
fn reachable(h: &Heap, name: &str) -> Vec<Node> {
    h.instances_of(class(h, name)).into_iter().filter(|&n| h.dominators.reach(n) != Reach::Unreachable).collect()
}

/// OQLTest on sun_jdk5_64bit: instance counts of MAT's default (unreachable discarded) index.
#[test]
fn oql_test_instance_counts() {
    let h = mat(JDK5_64);
    assert_eq!(reachable(&h, "java.lang.String").len(), 492);
    assert_eq!(reachable(&h, "java.lang.String[]").len(), 28);
    assert_eq!(reachable(&h, "byte[]").len(), 21);
    assert_eq!(reachable(&h, "java.util.HashSet").len(), 5);
    assert_eq!(reachable(&h, "java.util.Hashtable").len(), 6);
}

/// OQLTest.testWhereRelationalOperators and friends: String contents and their dominators.
#[test]
fn oql_test_strings() {
    let h = mat(JDK5_64);
    let strings = reachable(&h, "java.lang.String");
    let texts: Vec<String> = strings.iter().map(|&s| h.index.string_value(s).unwrap()).collect();
    assert_eq!(texts.iter().filter(|t| *t == "file.separator").count(), 1);
    assert_eq!(texts.iter().filter(|t| t.starts_with("java")).count(), 27);
    let little = node(&h, 0x17c38b80);
    assert_eq!(h.index.string_value(little).as_deref(), Some("little"));
    assert_eq!(h.dominated(Some(little)).len(), 1);
    // Strings that immediately dominate their own value array: 465; that dominate nothing: 27.
    let own_value = strings
        .iter()
        .filter(|&&s| {
            let v = h.index.field_node(s, "value");
            v.is_some_and(|v| h.dominator(v) == Some(Some(s)))
        })
        .count();
    assert_eq!(own_value, 465);
    assert_eq!(strings.iter().filter(|&&s| h.dominated(Some(s)).is_empty()).count(), 27);
    // The retained set of all Strings together: 963 objects. (The union of their dominator
    // subtrees is smaller: six char[] are shared by two Strings and by nothing else.) MAT lets
    // weak and soft referents keep objects alive here.
    let retained_set = h.retained_set(&strings, true).len();
    assert_eq!(retained_set, 963);
}

/// OQLTest.testSelectRetained5/6 and testSelectObjects: the String class object retains 3 objects
/// and immediately dominates 2; Charset's class object (0x1295e2f8) immediately dominates 7.
#[test]
fn oql_test_class_object_dominators() {
    let h = mat(JDK5_64);
    let string_class = h.index.classes[class(&h, "java.lang.String").index()].node.unwrap();
    assert_eq!(h.dominators.retained_count(string_class), 3);
    assert_eq!(h.dominated(Some(string_class)).len(), 2);
    let charset = node(&h, 0x1295e2f8);
    assert_eq!(h.display_class(charset), "class java.nio.charset.Charset");
    assert_eq!(h.dominated(Some(charset)).len(), 7);
}

/// OQLTest: 4 java.lang.Thread instances are GC roots.
#[test]
fn oql_test_thread_roots() {
    let h = mat(JDK5_64);
    let threads = h.instances_of(class(&h, "java.lang.Thread"));
    assert_eq!(threads.iter().filter(|&&t| !h.root_kinds(t).is_empty()).count(), 4);
    // testUnion: 0x17c180b8 displays as "main": it is the main Thread, labelled by its name.
    let main = node(&h, 0x17c180b8);
    assert_eq!(class_name(&h, main), "java.lang.Thread");
    assert_eq!(h.index.string_value(follow(&h, main, "name")).as_deref(), Some("main"));
}

/// TestInstanceSizes.testHistogramSizes: MAT's sizes against the `jmap -histo` table shipped with
/// each dump (parsed from the `.expected` file), with MAT's rules: unreachable objects kept; `<...>`
/// pseudo-classes and java.lang.Class skipped; classes absent from the dump skipped; arrays checked
/// by their total only when the instance counts agree; other classes by total / count.
fn histogram_errors(name: &str) -> (usize, usize) {
    let h = mat(name);
    let text = std::fs::read_to_string(fixtures().join(format!("{name}.expected"))).unwrap();
    let table = text.split("## jmap -histo table").nth(1).expect("histogram table");
    let (mut errors, mut checked) = (0, 0);
    for line in table.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let cols = match cols.first() {
            Some(c) if c.ends_with(':') => &cols[1..],
            _ => &cols[..],
        };
        let [count, bytes, jvm_name] = cols else { continue };
        let (Ok(count), Ok(bytes)) = (count.parse::<u64>(), bytes.parse::<u64>()) else { continue };
        if jvm_name.starts_with('<') || *jvm_name == "java.lang.Class" || count == 0 {
            continue;
        }
        let java = heap::index::classes::java_name(jvm_name);
        let Some(c) = h.index.classes_named(&java).next() else { continue };
        let stats = h.histogram[c.index()];
        let class = &h.index.classes[c.index()];
        if class.is_array() {
            if stats.instances != count {
                continue;
            }
            checked += 1;
            if stats.shallow_bytes != bytes {
                eprintln!("{java}: {} arrays, {} bytes here, {bytes} in the histogram", count, stats.shallow_bytes);
                errors += 1;
            }
        } else {
            checked += 1;
            let ours = h.index.sizer.instance_sizes(&h.index.classes)[c.index()];
            if ours != bytes / count {
                eprintln!("{java}: {ours} bytes here, {} in the histogram", bytes / count);
                errors += 1;
            }
        }
    }
    (errors, checked)
}

/// Runs the check on `name` and expects MAT's own error count for it.
fn check_histogram(name: &str, expected_errors: usize) {
    let (errors, checked) = histogram_errors(name);
    assert!(checked > 50, "only {checked} classes checked");
    assert_eq!(errors, expected_errors);
}

#[test]
fn test_instance_sizes_sun_jdk6_18_x32() {
    check_histogram("jvm/eclipse-mat__sun_jdk6_18_x32.hprof", 0);
}

#[test]
fn test_instance_sizes_sun_jdk6_18_x64() {
    check_histogram("jvm/eclipse-mat__sun_jdk6_18_x64.hprof", 0);
}

#[test]
fn test_instance_sizes_sun_jdk6_30_x64_compressed_oops() {
    check_histogram("jvm/eclipse-mat__sun_jdk6_30_x64_compressedOops.hprof", 0);
}

/// MAT expects exactly one error on this dump.
#[test]
fn test_instance_sizes_sun_jdk5_13_x32() {
    check_histogram("jvm/eclipse-mat__sun_jdk5_13_x32.hprof", 1);
}

/// A HotSpot dump holds one heap: its totals are every object the file's records hold (the
/// summary's classes and instances, counted from the records) and every shallow byte (the
/// histogram's rows and the class objects, summed another way).
#[test]
fn one_heap_holds_every_object_and_byte() {
    for name in [JDK5_64, JDK6_32, "jvm/eclipse-mat__sun_jdk6_18_x64.hprof"] {
        let h = mat(name);
        let s = h.summary();
        assert_eq!(h.heap_totals(), [("default".to_string(), s.classes + s.instances, s.shallow_bytes)], "{name}");
    }
}
