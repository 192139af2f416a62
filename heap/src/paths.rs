//! Shortest paths from GC roots: breadth-first, strong references first.
//!
//! The first tier walks strong references only from every GC root. Objects it cannot reach are
//! then reached by a second tier that may also cross the `referent` of soft, weak, phantom and
//! finalizer references, continuing from everything the first tier found, in its order. So a
//! path uses a weak link only when no strong path exists (LeakCanary's rule).

use crate::index::csr::WEAK;
use crate::index::{Index, Node};
use crate::values::Value;

const NONE: u32 = u32::MAX;
const IS_ROOT: u32 = u32::MAX - 1;

/// Parent pointers of the shortest-path forest from the GC roots.
pub struct GcPaths {
    parent: Vec<u32>,
    weak_via: Vec<bool>,
}

/// One step of a path: the object, and how the previous step refers to it.
#[derive(Debug, Clone)]
pub struct Step {
    /// The object.
    pub node: Node,
    /// How the previous step refers to it (`.field`, `[3]`, `static field`); `None` on the root.
    pub reference: Option<String>,
    /// Whether that reference is a weak/soft/phantom referent.
    pub weak: bool,
}

impl GcPaths {
    /// Computes the forest for the whole dump in one sweep.
    pub fn compute(index: &Index) -> GcPaths {
        let n = index.len();
        let g = index.graph();
        let mut parent = vec![NONE; n];
        let mut weak_via = vec![false; n];
        // The BFS queue is the visit order itself: `order[head..]` is still to expand.
        let mut order: Vec<u32> = Vec::new();
        for &(r, _) in index.roots() {
            if parent[r as usize] == NONE {
                parent[r as usize] = IS_ROOT;
                order.push(r);
            }
        }
        let bfs = |order: &mut Vec<u32>, parent: &mut Vec<u32>, head: usize, allow_weak: bool| {
            let mut head = head;
            while head < order.len() {
                let v = order[head];
                head += 1;
                for &t in g.edges(v) {
                    if (allow_weak || t & WEAK == 0) && parent[(t & !WEAK) as usize] == NONE {
                        parent[(t & !WEAK) as usize] = v;
                        order.push(t & !WEAK);
                    }
                }
            }
        };
        bfs(&mut order, &mut parent, 0, false);
        // Second tier: what only a weak referent reaches, starting from those referents. The
        // sources are scanned in node order (the edge arrays stream); usually there are few.
        let tier2 = order.len();
        for v in 0..n as u32 {
            if parent[v as usize] == NONE {
                continue;
            }
            for &t in g.edges(v) {
                let tn = (t & !WEAK) as usize;
                if t & WEAK != 0 && parent[tn] == NONE {
                    parent[tn] = v;
                    weak_via[tn] = true;
                    order.push(tn as u32);
                }
            }
        }
        if order.len() > tier2 {
            bfs(&mut order, &mut parent, tier2, true);
        }
        GcPaths { parent, weak_via }
    }

    /// The path from a GC root to `target`, root first; empty if no root reaches it.
    pub fn path(&self, index: &Index, target: Node) -> Vec<Step> {
        let mut nodes = Vec::new();
        let mut cur = target;
        loop {
            match self.parent[cur as usize] {
                NONE => return Vec::new(),
                IS_ROOT => {
                    nodes.push(cur);
                    break;
                }
                p => {
                    nodes.push(cur);
                    if nodes.len() > index.len() {
                        return Vec::new();
                    }
                    cur = p;
                }
            }
        }
        nodes.reverse();
        let mut out = Vec::with_capacity(nodes.len());
        for (i, &node) in nodes.iter().enumerate() {
            let reference = if i == 0 { None } else { reference_name(index, nodes[i - 1], node) };
            out.push(Step { node, reference, weak: self.weak_via[node as usize] });
        }
        out
    }

    /// Whether a GC root reaches `n` by any path.
    pub fn is_reachable(&self, n: Node) -> bool {
        self.parent[n as usize] != NONE
    }
}

/// How `from` refers to `to`: `.field` for instance fields, `[i]` for array elements,
/// `.name` for class statics, `<loader>` and `<superclass>` for what a class object keeps alive.
pub fn reference_name(index: &Index, from: Node, to: Node) -> Option<String> {
    let to_id = index.id(to);
    let field =
        || index.fields(from).into_iter().find(|f| f.value == Value::Object(to_id)).map(|f| format!(".{}", f.name));
    if let Some(c) = index.as_class(from) {
        let class = &index.classes[c as usize];
        return field().or_else(|| {
            if class.loader == to_id {
                Some("<loader>".to_string())
            } else if class.super_class.and_then(|s| index.classes[s as usize].node) == Some(to) {
                Some("<superclass>".to_string())
            } else {
                None
            }
        });
    }
    if let Some(values) = index.array_values(from) {
        return values.iter().position(|v| *v == Value::Object(to_id)).map(|i| format!("[{i}]"));
    }
    field()
}
