//! Perfetto's own heap-graph diff tests (`tests/data/perfetto/`, see its README): each textproto
//! is encoded with `protoc`, read by `heap::perfetto::read`, and the objects and references are
//! compared, column by column, with what Perfetto's trace processor answers for the same trace
//! (`heap_graph_object` and `heap_graph_reference` joined with `heap_graph_class`). Perfetto
//! numbers objects in the order it first meets them (an object, then the objects it refers to)
//! and references in the order it reads them; the tests number ours the same way. Columns that
//! need the graph walked (`reachable`) or Perfetto's own tables (`upid`, `reference_set_id`) are
//! left to the engine's tests.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use heap::perfetto::{read, Graph};

use test_support::perfetto::{data, encode};

/// A CSV of the diff tests: quoted strings, bare numbers, `"[NULL]"` for SQL's NULL.
fn csv(name: &str) -> Vec<HashMap<String, Option<String>>> {
    let text = std::fs::read_to_string(data().join(name)).unwrap();
    let split = |line: &str| -> Vec<Option<String>> {
        let mut cells = Vec::new();
        let mut rest = line;
        while !rest.is_empty() {
            let (cell, next) = if let Some(q) = rest.strip_prefix('"') {
                let end = q.find('"').unwrap();
                (&q[..end], q[end + 1..].strip_prefix(',').unwrap_or(""))
            } else {
                rest.split_once(',').unwrap_or((rest, ""))
            };
            cells.push((cell != "[NULL]").then(|| cell.to_string()));
            rest = next;
        }
        cells
    };
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = split(lines.next().unwrap()).into_iter().map(Option::unwrap).collect();
    lines.map(|l| header.iter().cloned().zip(split(l)).collect()).collect()
}

/// Perfetto's object numbering over the graphs in order: each object when it is met, as the
/// owner of its record or as the target of a reference.
fn numbering(graphs: &[Graph]) -> Vec<(usize, u64)> {
    let mut order = Vec::new();
    for (g, graph) in graphs.iter().enumerate() {
        let mut seen = std::collections::HashSet::new();
        for o in &graph.objects {
            for id in std::iter::once(o.id).chain(o.refs.iter().map(|r| r.target).filter(|&t| t != 0)) {
                if seen.insert(id) {
                    order.push((g, id));
                }
            }
        }
    }
    order
}

fn check_objects(trace: &str, expected: &str) {
    let bytes = encode(trace);
    let graphs = read(&bytes).unwrap();
    // The listing made without keeping a graph says what each graph, built, holds.
    let listed = heap::perfetto::Trace::scan(&bytes).unwrap().graphs;
    assert_eq!(listed, graphs.iter().map(Graph::info).collect::<Vec<_>>(), "{trace}");
    let order = numbering(&graphs);
    let rows = csv(expected);
    assert_eq!(order.len(), rows.len(), "{trace}: objects");
    for (row, &(g, id)) in rows.iter().zip(&order) {
        let graph = &graphs[g];
        let o = graph.objects.iter().find(|o| o.id == id).unwrap_or_else(|| panic!("{trace}: object {id:#x}"));
        let t = graph.type_of(o.type_id).unwrap();
        let want = |col: &str| row.get(col).cloned().flatten();
        assert_eq!(want("graph_sample_ts"), Some(graph.timestamp.to_string()), "{trace} {id:#x}");
        assert_eq!(want("self_size"), Some(o.self_size.to_string()), "{trace} {id:#x}");
        assert_eq!(want("type_name"), Some(t.name.clone()), "{trace} {id:#x}");
        assert_eq!(want("deobfuscated_type_name"), t.deobfuscated.clone(), "{trace} {id:#x}");
        assert_eq!(want("root_type"), graph.root_type_of(id).map(|r| r.name().to_string()), "{trace} {id:#x}");
        if row.contains_key("heap_type") {
            assert_eq!(want("heap_type"), o.heap.name().map(str::to_string), "{trace} {id:#x}");
        }
    }
}

fn check_references(trace: &str, expected: &str) {
    let graphs = read(&encode(trace)).unwrap();
    let order = numbering(&graphs);
    let number = |g: usize, id: u64| order.iter().position(|&o| o == (g, id)).map(|n| n.to_string());
    let rows = csv(expected);
    let mut got = Vec::new();
    for (g, graph) in graphs.iter().enumerate() {
        for o in &graph.objects {
            for r in &o.refs {
                let field = r.field.map(|f| &graph.fields[f as usize]);
                got.push((
                    number(g, o.id),
                    if r.target == 0 { None } else { number(g, r.target) },
                    field.map(|f| f.name.clone()),
                    field.and_then(|f| f.type_name.clone()),
                    field.and_then(|f| f.deobfuscated.clone()),
                ));
            }
        }
    }
    let want: Vec<_> = rows
        .iter()
        .map(|r| {
            let c = |k: &str| r.get(k).cloned().flatten();
            (c("owner_id"), c("owned_id"), c("field_name"), c("field_type_name"), c("deobfuscated_field_name"))
        })
        .collect();
    assert_eq!(got, want, "{trace}: references");
}

#[test]
fn objects_as_perfetto_reads_them() {
    // The same graph written three ways: with a base.apk location, with a package's location
    // (deobfuscated only by its package's mapping), and in the legacy layout.
    for trace in ["heap_graph_baseapk", "heap_graph_deobfuscate_pkg", "heap_graph_legacy"] {
        check_objects(trace, "heap_graph_object.out");
    }
    // Heap types carried from object to object, and an object held by the runtime.
    check_objects("heap_graph", "heap_graph_object_3.out");
    // Two dex locations, two packages' mappings for the same obfuscated name.
    check_objects("heap_graph_two_locations", "heap_graph_two_locations.out");
    // Two processes' graphs interleaved in one trace.
    check_objects("heap_graph_interleaved", "heap_graph_interleaved_object.out");
}

#[test]
fn references_as_perfetto_reads_them() {
    for trace in ["heap_graph_baseapk", "heap_graph", "heap_graph_legacy"] {
        check_references(trace, "heap_graph_reference.out");
    }
    check_references("heap_graph_interleaved", "heap_graph_interleaved_reference.out");
}

/// A trace gzip'd reads the same; bytes that are not a trace are an error, not a panic.
#[test]
fn gzip_and_garbage() {
    let raw = encode("heap_graph");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &raw).unwrap();
    let (a, b) = (read(&raw).unwrap(), read(&gz.finish().unwrap()).unwrap());
    assert_eq!(a.len(), 1);
    assert_eq!((a[0].objects.len(), a[0].types.len()), (b[0].objects.len(), b[0].types.len()));
    assert!(!a[0].truncated);
    assert!(read(b"\xff\xff\xff\xff not a trace").is_err());
    // Every cut of a real trace reads or fails; none panics.
    for cut in 0..raw.len() {
        let _ = read(&raw[..cut]);
    }
}

/// The graph indexed by the engine (written as HPROF, then given the graph's sizes): every
/// object Perfetto lists is a node of the class Perfetto names (deobfuscated where it says),
/// with Perfetto's size, a root exactly when Perfetto gives it a root kind, and reachable
/// exactly when Perfetto's `reachable` says so.
#[test]
fn the_engine_indexes_a_graph_as_perfetto_sees_it() {
    use heap::dominators::Reach;
    use heap::{Heap, Index, Options};
    for (trace, expected) in [
        ("heap_graph_baseapk", "heap_graph_object.out"),
        ("heap_graph_deobfuscate_pkg", "heap_graph_object.out"),
        ("heap_graph_legacy", "heap_graph_object.out"),
        ("heap_graph", "heap_graph_object_3.out"),
        ("heap_graph_two_locations", "heap_graph_two_locations.out"),
    ] {
        let graphs = read(&encode(trace)).unwrap();
        assert_eq!(graphs.len(), 1, "{trace}");
        let index = Index::from_perfetto(&graphs[0], Options::default()).unwrap();
        let heap = Heap::analyse(index, Options::default());
        let order = numbering(&graphs);
        for (row, &(_, id)) in csv(expected).iter().zip(&order) {
            let want = |col: &str| row.get(col).cloned().flatten();
            let n = heap.index.node(id).unwrap_or_else(|| panic!("{trace}: {id:#x} not indexed"));
            let name = want("deobfuscated_type_name").or(want("type_name")).unwrap();
            assert_eq!(heap.index.class(n).name, name, "{trace} {id:#x}");
            assert_eq!(heap.index.shallow_size(n).to_string(), want("self_size").unwrap(), "{trace} {id:#x}");
            let is_root = heap.index.roots().iter().any(|r| r.0 == n);
            assert_eq!(is_root, want("root_type").is_some(), "{trace} {id:#x}");
            let reachable = heap.dominators.reach(n) != Reach::Unreachable;
            assert_eq!(reachable, want("reachable").as_deref() == Some("1"), "{trace} {id:#x}: reachable");
        }
    }
}

/// Perfetto's dominator-tree test (its standard library's `heap_graph_dominator_tree`): each
/// object's immediate dominator (by type: every type has one object), how many objects and bytes
/// it dominates, and its depth (1 under the root). The phantom reference's `referent` does not
/// keep its object, in Perfetto's tree and in ours.
#[test]
fn the_dominator_tree_as_perfetto_computes_it() {
    use heap::{Heap, Index, Options};
    let graphs = read(&encode("heap_graph_for_dominator_tree")).unwrap();
    let heap = Heap::analyse(Index::from_perfetto(&graphs[0], Options::default()).unwrap(), Options::default());
    let g = &graphs[0];
    let order = numbering(&graphs);
    let rows = csv("heap_graph_dominator_tree.out");
    let type_of_row = |id: &str| -> String {
        let (_, oid) = order[id.parse::<usize>().unwrap()];
        let o = g.objects.iter().find(|o| o.id == oid).unwrap();
        g.type_of(o.type_id).unwrap().name.clone()
    };
    for row in &rows {
        let want = |col: &str| row.get(col).cloned().flatten();
        let name = want("type_name").unwrap();
        let n = heap.index.node(order[want("id").unwrap().parse::<usize>().unwrap()].1).unwrap();
        assert_eq!(heap.index.class(n).name, name);
        assert_eq!(heap.dominators.retained(n).to_string(), want("dominated_size_bytes").unwrap(), "{name}: bytes");
        assert_eq!(
            heap.dominators.retained_count(n).to_string(),
            want("dominated_obj_count").unwrap(),
            "{name}: count"
        );
        let idom = heap.dominator(n).expect("reachable");
        assert_eq!(
            idom.map(|d| heap.index.class(d).name.clone()),
            want("idom_id").map(|i| type_of_row(&i)),
            "{name}: idom"
        );
        let mut depth = 1;
        let mut at = idom;
        while let Some(d) = at {
            depth += 1;
            at = heap.dominator(d).flatten();
        }
        assert_eq!(depth.to_string(), want("depth").unwrap(), "{name}: depth");
    }
}

/// The round trip: a real dump (ahat's test dump, an Android heap) written as a heap graph the
/// way ART's perfetto_hprof would write it, read back and indexed, has every object of the dump
/// with its size, its immediate dominator, its retained size and count, and (but for class
/// objects, which a graph types `java.lang.Class<Name>`) its class.
#[test]
fn a_dump_through_a_heap_graph_keeps_its_graph() {
    use heap::{Heap, Index, Options};
    let fixture = std::env::var_os("HEAPTUI_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"))
        .join("android/ahat-art__test-dump.hprof");
    let a = Heap::analyse(Index::open(&fixture, Options::default()).unwrap(), Options::default());
    let trace = heap::perfetto::encode::encode(&a.index, 4242, 7);
    let graphs = read(&trace).unwrap();
    assert_eq!((graphs.len(), graphs[0].pid, graphs[0].objects.len()), (1, 4242, a.index.len()));
    let b = Heap::analyse(Index::from_perfetto(&graphs[0], Options::default()).unwrap(), Options::default());
    let mut checked = 0;
    for n in a.index.nodes() {
        let id = a.index.id(n);
        let m = b.index.node(id).unwrap_or_else(|| panic!("{id:#x} lost"));
        assert_eq!(b.index.shallow_size(m), a.index.shallow_size(n), "{id:#x} size");
        assert_eq!(b.dominators.retained(m), a.dominators.retained(n), "{id:#x} retained");
        assert_eq!(b.dominators.retained_count(m), a.dominators.retained_count(n), "{id:#x} retained count");
        let idom = |h: &Heap, x| h.dominator(x).map(|d| d.map(|d| h.index.id(d)));
        assert_eq!(idom(&b, m), idom(&a, n), "{id:#x} idom");
        if a.index.kind(n) != heap::ObjectKind::Class {
            assert_eq!(b.index.class(m).name, a.index.class(n).name, "{id:#x} class");
        }
        checked += 1;
    }
    assert!(checked > 1000, "{checked}");
}

/// Perfetto's native-size test: a Bitmap registered through a live `sun.misc.Cleaner` (its thunk
/// names a `NativeAllocationRegistry` whose recorded `size` is 123456) has that much native
/// memory; a BinderProxy whose Cleaner already ran (its `next` is itself) has none. The
/// registry's size is a value the graph records, and the engine reads it as it reads a dump's.
#[test]
fn native_sizes_as_perfetto_attributes_them() {
    use heap::{Heap, Index, Options};
    let graphs = read(&encode("heap_graph_native_size")).unwrap();
    let heap = Heap::analyse(Index::from_perfetto(&graphs[0], Options::default()).unwrap(), Options::default());
    let rows = csv("heap_graph_native_size.out");
    assert_eq!(rows.len(), 2);
    for row in &rows {
        let class = row["type_name"].clone().unwrap();
        let c = heap.index.classes_named(&class).next().unwrap_or_else(|| panic!("{class}"));
        let objects = heap.instances_of(c);
        assert_eq!(objects.len(), 1, "{class}");
        assert_eq!(heap.native_size(objects[0]).to_string(), row["native_size"].clone().unwrap(), "{class}");
    }
    // The registry shows its recorded size as a field.
    let registry = heap.index.classes_named("libcore.util.NativeAllocationRegistry").next().unwrap();
    let r = heap.instances_of(registry)[0];
    assert_eq!(heap.index.field(r, "size"), Some(heap::values::Value::Long(123456)));
}
