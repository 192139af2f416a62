//! Shortest paths from the GC roots to many objects, merged into one tree (Eclipse MAT's "Merge
//! Shortest Paths to GC Roots"): each object on a path once, with how many of the chosen objects'
//! paths pass through it and the retained size those objects account for. This is how 4,000
//! sessions are seen to be held by one map.
//!
//! The shortest paths form a tree already (each object has one parent on its path), so the
//! merged tree is the part of it above the chosen objects. Each chosen object's path is climbed
//! only until it meets the part already merged (for objects held by one array, a step or two),
//! and its counts are kept on itself; one pass from the leaves up then adds each node's counts
//! to its parent's. The cost is the size of the merged tree, not the sum of the paths' depths.

use rustc_hash::FxHashMap;

use crate::index::Node;
use crate::Heap;

/// The merged paths of a set of objects.
#[derive(Debug, Clone, Default)]
pub struct MergedPaths {
    /// The tree's nodes; [`MergedPaths::roots`] and each node's `children` index into it.
    pub nodes: Vec<MergedNode>,
    /// The GC roots the paths start from, the most paths first.
    pub roots: Vec<usize>,
    /// How many of the chosen objects no GC root reaches (no path to merge).
    pub unreachable: u64,
    /// How many objects were chosen.
    pub chosen: u64,
    /// Every node's children, one list after another (one allocation for a tree of millions).
    kids: Vec<usize>,
}

/// One object on the merged paths.
#[derive(Debug, Clone)]
pub struct MergedNode {
    /// The object.
    pub node: Node,
    /// The node above it (`None` for a GC root).
    pub parent: Option<usize>,
    /// How many chosen objects' paths pass through it (itself included when chosen).
    pub paths: u64,
    /// The chosen objects' retained sizes added, over the paths through it.
    pub retained: u64,
    /// Where its children are in [`MergedPaths::children`].
    kids: std::ops::Range<u32>,
}

impl MergedPaths {
    /// The nodes below node `i`, the most paths first (then the larger retained size, then id
    /// order).
    pub fn children(&self, i: usize) -> &[usize] {
        let r = &self.nodes[i].kids;
        &self.kids[r.start as usize..r.end as usize]
    }
}

impl Heap {
    /// The shortest paths from the GC roots to `set`, merged into one tree.
    pub fn merged_paths(&self, set: &[Node]) -> MergedPaths {
        let paths = self.paths();
        let mut out = MergedPaths { chosen: set.len() as u64, ..Default::default() };
        let mut at: FxHashMap<Node, usize> = FxHashMap::default();
        at.reserve(set.len());
        let mut chain: Vec<Node> = Vec::new();
        'targets: for &target in set {
            // Climb from the target to the first object already merged (or to a root).
            chain.clear();
            let mut cur = target;
            let attach = loop {
                if let Some(&i) = at.get(&cur) {
                    break Some(i);
                }
                chain.push(cur);
                match paths.parent(cur) {
                    Some(Some(p)) if chain.len() <= self.index.len() => cur = p,
                    Some(None) => break None,
                    // No root reaches it (the shortest paths have no cycles, so a climb longer
                    // than the heap means the same).
                    _ => {
                        out.unreachable += 1;
                        continue 'targets;
                    }
                }
            };
            // Root first, so that each new node's parent is already there.
            let mut parent = attach;
            for &n in chain.iter().rev() {
                out.nodes.push(MergedNode { node: n, parent, paths: 0, retained: 0, kids: 0..0 });
                let i = out.nodes.len() - 1;
                if parent.is_none() {
                    out.roots.push(i);
                }
                at.insert(n, i);
                parent = Some(i);
            }
            let Some(i) = parent else { continue };
            let node = &mut out.nodes[i];
            node.paths += 1;
            node.retained = node.retained.saturating_add(self.dominators.retained(target));
        }
        // A node is made after its parent, so from the last node back each one's counts are
        // whole when they are added to its parent's.
        for i in (0..out.nodes.len()).rev() {
            if let Some(p) = out.nodes[i].parent {
                let (paths, retained) = (out.nodes[i].paths, out.nodes[i].retained);
                out.nodes[p].paths += paths;
                out.nodes[p].retained = out.nodes[p].retained.saturating_add(retained);
            }
        }
        let order = |nodes: &[MergedNode], list: &mut [usize]| {
            list.sort_unstable_by(|&a, &b| {
                let (x, y) = (&nodes[a], &nodes[b]);
                y.paths.cmp(&x.paths).then(y.retained.cmp(&x.retained)).then(x.node.cmp(&y.node))
            })
        };
        // Every node's children in one list, by counting them first (a tree of millions would
        // otherwise be millions of small lists).
        let mut start = vec![0u32; out.nodes.len() + 1];
        for node in &out.nodes {
            if let Some(p) = node.parent {
                start[p + 1] += 1;
            }
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut next = start.clone();
        out.kids = vec![0; start[out.nodes.len()] as usize];
        for (i, node) in out.nodes.iter().enumerate() {
            if let Some(p) = node.parent {
                out.kids[next[p] as usize] = i;
                next[p] += 1;
            }
        }
        for (i, node) in out.nodes.iter_mut().enumerate() {
            node.kids = start[i]..start[i + 1];
        }
        for node in &out.nodes {
            order(&out.nodes, &mut out.kids[node.kids.start as usize..node.kids.end as usize]);
        }
        let mut roots = std::mem::take(&mut out.roots);
        order(&out.nodes, &mut roots);
        out.roots = roots;
        out
    }
}

impl MergedPaths {
    /// The tree as JSON, each node with `id`, `class`, `reference` (how its parent refers to it;
    /// absent on a root), `paths`, `retained_bytes` and its `children`, down to `depth` levels and
    /// at most `width` children a node (the rest counted in `more`).
    pub fn to_json(&self, heap: &Heap, depth: usize, width: usize) -> serde_json::Value {
        fn node(m: &MergedPaths, heap: &Heap, i: usize, depth: usize, width: usize) -> serde_json::Value {
            let n = &m.nodes[i];
            let mut v = serde_json::json!({
                "id": crate::fmt::hex(heap.index.id(n.node)),
                "class": heap.display_class(n.node),
                "paths": n.paths,
                "retained_bytes": n.retained,
            });
            if let Some(p) = n.parent {
                v["reference"] = serde_json::json!(crate::paths::reference_name(&heap.index, m.nodes[p].node, n.node));
            }
            if depth > 1 {
                let kids: Vec<_> =
                    m.children(i).iter().take(width).map(|&k| node(m, heap, k, depth - 1, width)).collect();
                v["children"] = serde_json::json!(kids);
            }
            v["more"] = serde_json::json!(m.children(i).len().saturating_sub(if depth > 1 { width } else { 0 }));
            v
        }
        serde_json::json!({
            "chosen": self.chosen,
            "unreachable": self.unreachable,
            "roots": self.roots.iter().take(width).map(|&r| node(self, heap, r, depth, width)).collect::<Vec<_>>(),
        })
    }

    /// The tree as text, indented by level: paths, retained size, how the parent refers to the
    /// object, and the object; down to `depth` levels and `width` children a node. Names from the
    /// dump are made safe for a terminal.
    pub fn to_text(&self, heap: &Heap, depth: usize, width: usize) -> String {
        use crate::fmt::{hex, human_bytes, safe};
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "shortest paths from the GC roots to {} objects, merged ({} unreachable)",
            self.chosen, self.unreachable
        );
        let _ = writeln!(out, "{:>8}  {:>10}  object", "paths", "retained");
        // (node, level), or (how many children were left out, level) after a node's children.
        enum Item {
            Node(usize, usize),
            More(usize, usize),
        }
        let mut stack: Vec<Item> = self.roots.iter().take(width).rev().map(|&r| Item::Node(r, 0)).collect();
        while let Some(item) = stack.pop() {
            let (i, level) = match item {
                Item::Node(i, level) => (i, level),
                Item::More(more, level) => {
                    let _ = writeln!(out, "{:>8}  {:>10}  {}… {more} more", "", "", "  ".repeat(level));
                    continue;
                }
            };
            let n = &self.nodes[i];
            let reference = n
                .parent
                .and_then(|p| crate::paths::reference_name(&heap.index, self.nodes[p].node, n.node))
                .map(|r| format!("{r} → "))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{:>8}  {:>10}  {}{}{} {}",
                n.paths,
                human_bytes(n.retained),
                "  ".repeat(level),
                safe(&reference),
                safe(&heap.display_class(n.node)),
                hex(heap.index.id(n.node))
            );
            if level + 1 < depth {
                let more = self.children(i).len().saturating_sub(width);
                if more > 0 {
                    stack.push(Item::More(more, level + 1));
                }
                stack.extend(self.children(i).iter().take(width).rev().map(|&k| Item::Node(k, level + 1)));
            }
        }
        out
    }
}
