//! Shortest paths from the GC roots to many objects, merged into one tree (Eclipse MAT's "Merge
//! Shortest Paths to GC Roots"): each object on a path once, with how many of the chosen objects'
//! paths pass through it and the retained size those objects account for. This is how 4,000
//! sessions are seen to be held by one map.
//!
//! The shortest paths form a tree already (each object has one parent on its path), so the
//! merged tree is the part of it above the chosen objects: each chosen object's path is walked
//! once, its counts added to every object on it.

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
        let mut chain: Vec<Node> = Vec::new();
        // Each node's children while the tree grows; packed into one list at the end.
        let mut children: Vec<Vec<usize>> = Vec::new();
        for &target in set {
            chain.clear();
            if !paths.walk_up(target, |n| chain.push(n)) {
                out.unreachable += 1;
                continue;
            }
            let retained = self.dominators.retained(target);
            // Root first, so that each new node's parent is already there.
            let mut parent: Option<usize> = None;
            for &n in chain.iter().rev() {
                let i = *at.entry(n).or_insert_with(|| {
                    out.nodes.push(MergedNode { node: n, parent, paths: 0, retained: 0, kids: 0..0 });
                    children.push(Vec::new());
                    let i = out.nodes.len() - 1;
                    match parent {
                        Some(p) => children[p].push(i),
                        None => out.roots.push(i),
                    }
                    i
                });
                let node = &mut out.nodes[i];
                node.paths += 1;
                node.retained = node.retained.saturating_add(retained);
                parent = Some(i);
            }
        }
        let order = |nodes: &[MergedNode], list: &mut Vec<usize>| {
            list.sort_by(|&a, &b| {
                let (x, y) = (&nodes[a], &nodes[b]);
                y.paths.cmp(&x.paths).then(y.retained.cmp(&x.retained)).then(x.node.cmp(&y.node))
            })
        };
        for (i, mut kids) in children.into_iter().enumerate() {
            order(&out.nodes, &mut kids);
            let start = out.kids.len() as u32;
            out.kids.extend(kids);
            out.nodes[i].kids = start..out.kids.len() as u32;
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
