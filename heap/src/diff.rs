//! Two dumps of the same app compared: the class histogram's changes, objects matched by their
//! path from a GC root (the same static field, the same chain of fields), and the collections that
//! grew in between — the leak a single dump cannot show.
//!
//! Object ids are addresses and moving collectors change them between dumps, so objects are
//! matched by path: the root's class, then every field name and array index on the shortest path.

use std::collections::HashMap;

use crate::analysis::Heap;
use crate::index::classes::ClassKind;
use crate::index::{Node, ObjectKind};
use crate::paths::{name_references, Step};
use crate::values::Value;

/// How one class changed.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ClassDelta {
    /// Class name.
    pub class: String,
    /// Instances in the baseline and now.
    pub instances: (u64, u64),
    /// Shallow bytes in the baseline and now.
    pub shallow_bytes: (u64, u64),
    /// Retained bytes (by class) in the baseline and now.
    pub retained_bytes: (u64, u64),
}

/// A collection (or array) that grew.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Growth {
    /// Its path from a GC root (`LeakyApp.SESSIONS`, `Main.stuff.list`).
    pub path: String,
    /// Class now.
    pub class: String,
    /// Elements in the baseline and now (`size`, `count`, `elementCount`, or array length).
    pub elements: (u64, u64),
    /// Retained bytes in the baseline and now.
    pub retained_bytes: (u64, u64),
    /// The object now.
    #[serde(skip)]
    pub node: Node,
}

/// The key objects are matched by: the last class object on the shortest path from a GC root
/// (a static field is anchored by its class; how the class itself is reached can differ between
/// dumps), or the root when no class is on it, then each reference from there on.
pub fn path_key(heap: &Heap, n: Node) -> Option<String> {
    path_keys(heap, &[n]).pop().flatten()
}

/// [`path_key`] of many objects, their paths named in batches (a table many of them hang from
/// is scanned once per batch, not once per object).
pub fn path_keys(heap: &Heap, nodes: &[Node]) -> Vec<Option<String>> {
    let mut out = Vec::with_capacity(nodes.len());
    for chunk in nodes.chunks(4096) {
        let mut paths: Vec<Vec<Step>> = chunk.iter().map(|&n| heap.paths().path_unnamed(&heap.index, n)).collect();
        name_references(&heap.index, &mut paths);
        out.extend(paths.iter().map(|path| key_of(heap, path)));
    }
    out
}

fn key_of(heap: &Heap, path: &[Step]) -> Option<String> {
    let start = path.iter().rposition(|s| heap.index.as_class(s.node).is_some()).unwrap_or(0);
    let first = path.get(start)?;
    let mut key = stable_name(&heap.display_class(first.node));
    for s in &path[start + 1..] {
        key.push_str(s.reference.as_deref().unwrap_or("?"));
    }
    Some(key)
}

/// A class name as it is from one run of a program to the next: a hidden class's address suffix
/// (HotSpot's lambdas and method handles, `Shop$$Lambda$2+0x00007f69c8003b28`, written `/0x…` in
/// the JVM and `.0x…` where slashes became dots) is left out, since it differs each run. Only a
/// `+`, `/` or `.` followed by `0x` and hex digits goes: no Java identifier starts with a digit.
pub fn stable_name(name: &str) -> String {
    let b = name.as_bytes();
    let mut out = String::with_capacity(name.len());
    let mut i = 0;
    while i < b.len() {
        if matches!(b[i], b'+' | b'/' | b'.') && b.get(i + 1) == Some(&b'0') && b.get(i + 2) == Some(&b'x') {
            let digits = b[i + 3..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
            if digits > 0 {
                i += 3 + digits;
                continue;
            }
        }
        let ch = name[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// How many elements a collection holds, by the fields the JDK's and Android's collections keep.
pub fn element_count(heap: &Heap, n: Node) -> Option<u64> {
    let idx = &heap.index;
    match idx.kind(n) {
        ObjectKind::ObjectArray | ObjectKind::PrimitiveArray => idx.array_length(n).map(u64::from),
        ObjectKind::Instance => {
            ["size", "elementCount", "count", "mSize"].iter().find_map(|f| match idx.field(n, f)? {
                Value::Int(v) if v >= 0 => Some(v as u64),
                _ => None,
            })
        }
        ObjectKind::Class => None,
    }
}

/// The histogram's changes, largest retained growth first; classes matched by their
/// [`stable_name`] (a lambda's hidden class is the same class in both dumps).
pub fn class_deltas(old: &Heap, new: &Heap) -> Vec<ClassDelta> {
    let totals = |h: &Heap| -> HashMap<String, (u64, u64, u64)> {
        let mut m: HashMap<String, (u64, u64, u64)> = HashMap::new();
        for (c, s) in h.index.classes.iter().zip(&h.histogram) {
            let e = m.entry(stable_name(&c.name)).or_default();
            e.0 += s.instances;
            e.1 += s.shallow_bytes;
            e.2 += s.retained_bytes;
        }
        m
    };
    let (a, b) = (totals(old), totals(new));
    let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
    names.sort();
    names.dedup();
    let mut out: Vec<ClassDelta> = names
        .into_iter()
        .map(|name| {
            let x = a.get(name).copied().unwrap_or_default();
            let y = b.get(name).copied().unwrap_or_default();
            ClassDelta {
                class: name.clone(),
                instances: (x.0, y.0),
                shallow_bytes: (x.1, y.1),
                retained_bytes: (x.2, y.2),
            }
        })
        .filter(|d| d.instances.0 != d.instances.1 || d.shallow_bytes.0 != d.shallow_bytes.1)
        .collect();
    let growth = |d: &ClassDelta| d.retained_bytes.1 as i128 - d.retained_bytes.0 as i128;
    out.sort_by(|x, y| growth(y).cmp(&growth(x)).then(x.class.cmp(&y.class)));
    out
}

/// Collections and arrays retaining at least `min_bytes` now that hold more elements than the
/// object on the same path in the baseline. Largest growth in retained bytes first.
pub fn growing_collections(old: &Heap, new: &Heap, min_bytes: u64) -> Vec<Growth> {
    let candidates = |h: &Heap, min: u64| -> Vec<Node> {
        let d = &h.dominators;
        h.index
            .nodes()
            .filter(|&n| d.retained(n) >= min && h.index.as_class(n).is_none())
            .filter(|&n| {
                let class = h.index.class(n);
                !matches!(class.kind, ClassKind::PrimitiveArray(_)) && element_count(h, n).is_some()
            })
            .collect()
    };
    // In the baseline, any size counts: the collection may have been small then.
    let mut before: HashMap<String, (u64, u64)> = HashMap::new();
    let old_nodes = candidates(old, 0);
    for (n, key) in old_nodes.iter().zip(path_keys(old, &old_nodes)) {
        if let (Some(k), Some(c)) = (key, element_count(old, *n)) {
            before.entry(k).or_insert((c, old.dominators.retained(*n)));
        }
    }
    let new_nodes = candidates(new, min_bytes);
    let new_keys = path_keys(new, &new_nodes);
    let mut out: Vec<Growth> = new_nodes
        .into_iter()
        .zip(new_keys)
        .filter_map(|(n, key)| {
            let key = key?;
            let now = element_count(new, n)?;
            let &(then, retained_then) = before.get(&key)?;
            (now > then).then(|| Growth {
                path: key,
                class: new.display_class(n),
                elements: (then, now),
                retained_bytes: (retained_then, new.dominators.retained(n)),
                node: n,
            })
        })
        .collect();
    // A collection and its backing array grow together: keep the outermost of each chain.
    let nodes: std::collections::HashSet<Node> = out.iter().map(|g| g.node).collect();
    out.retain(|g| !new.dominator(g.node).flatten().is_some_and(|d| nodes.contains(&d)));
    out.sort_by(|a, b| {
        (b.retained_bytes.1 - b.retained_bytes.0.min(b.retained_bytes.1))
            .cmp(&(a.retained_bytes.1 - a.retained_bytes.0.min(a.retained_bytes.1)))
    });
    out
}
