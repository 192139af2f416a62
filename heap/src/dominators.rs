//! The dominator tree, retained sizes and reachability.
//!
//! Semi-NCA (Georgiadis' variant of Lengauer–Tarjan, as LLVM uses it) over `u32` arrays in DFS
//! preorder, all loops iterative: dumps have millions of nodes and chains thousands deep.
//!
//! The graph is the strong reference graph under a virtual root whose children are the GC roots.
//! The `referent` of a `java.lang.ref.Reference` keeps nothing alive, so:
//! - objects reachable only through such referents ("weakly reachable") are attached to the
//!   virtual root themselves: they are in the tree, but no strongly reachable object retains them;
//! - references from weakly reachable objects back into the strongly reachable part are ignored,
//!   so they cannot change who dominates a strongly reachable object.
//!
//! A class object whose instances are reachable is reachable too (the JVM keeps it alive through
//! them); one that nothing else reaches is attached to the virtual root.

use crate::index::csr::WEAK;
use crate::index::{Index, Node};

/// `idom` value of objects no root reaches.
pub const UNREACHABLE: u32 = u32::MAX;
/// `idom` value of objects the virtual root dominates directly.
pub const ROOT: u32 = u32::MAX - 1;

/// How an object is reachable from the GC roots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reach {
    /// Through strong references.
    Strong,
    /// Only through the referent of a soft, weak, phantom or finalizer reference.
    Weak,
    /// Not at all.
    Unreachable,
}

/// The dominator tree with retained sizes.
pub struct Dominators {
    pub(crate) idom: Vec<u32>,
    /// Retained sizes in 32 bits; `u32::MAX` means the size is in `big_retained`.
    pub(crate) retained: Vec<u32>,
    pub(crate) big_retained: rustc_hash::FxHashMap<u32, u64>,
    pub(crate) retained_count: Vec<u32>,
    pub(crate) reach: Vec<u8>,
    pub(crate) child_starts: Vec<u32>,
    pub(crate) children: Vec<u32>,
    /// Objects reachable from the roots, strongly or weakly.
    pub reachable_objects: u64,
    /// Their total shallow size.
    pub reachable_bytes: u64,
    /// Strongly reachable objects.
    pub strong_objects: u64,
}

impl Dominators {
    /// Immediate dominator of `n`: a node, [`ROOT`] or [`UNREACHABLE`].
    pub fn idom(&self, n: Node) -> u32 {
        self.idom[n as usize]
    }

    /// Retained size of `n` (0 when unreachable).
    pub fn retained(&self, n: Node) -> u64 {
        match self.retained[n as usize] {
            u32::MAX => self.big_retained.get(&n).copied().unwrap_or(u64::from(u32::MAX)),
            r => u64::from(r),
        }
    }

    /// Number of objects `n` retains, itself included (0 when unreachable).
    pub fn retained_count(&self, n: Node) -> u32 {
        self.retained_count[n as usize]
    }

    /// How `n` is reachable.
    pub fn reach(&self, n: Node) -> Reach {
        match self.reach[n as usize] {
            REACH_STRONG => Reach::Strong,
            REACH_WEAK => Reach::Weak,
            _ => Reach::Unreachable,
        }
    }

    /// Objects `n` immediately dominates; `None` for the virtual root's children.
    pub fn children(&self, n: Option<Node>) -> &[Node] {
        let k = n.map_or(self.idom.len(), |n| n as usize);
        let a = self.child_starts[k] as usize;
        let b = self.child_starts[k + 1] as usize;
        &self.children[a..b]
    }

    /// Computes the tree for `index`.
    pub fn compute(index: &Index) -> Dominators {
        let n = index.len();
        let g = index.graph();
        let mut pre = vec![u32::MAX; n];
        // Preorder number -> node; slot 0 is the virtual root. Sized for every object at once:
        // growing by doubling would leave up to half again unused at the peak.
        let mut vertex: Vec<u32> = Vec::with_capacity(n + 1);
        vertex.push(ROOT);
        let mut parent: Vec<u32> = Vec::with_capacity(n + 1);
        parent.push(0);
        let mut stack: Vec<(u32, u32)> = Vec::new();

        let mut dfs = |s: u32, pre: &mut Vec<u32>, vertex: &mut Vec<u32>, parent: &mut Vec<u32>| {
            if pre[s as usize] != u32::MAX {
                return;
            }
            pre[s as usize] = vertex.len() as u32;
            vertex.push(s);
            parent.push(0);
            stack.push((s, g.starts[s as usize]));
            while let Some(top) = stack.last_mut() {
                let (v, mut pos) = *top;
                let end = g.starts[v as usize + 1];
                let mut next = None;
                while pos < end {
                    let t = g.targets[pos as usize];
                    pos += 1;
                    if t & WEAK == 0 && pre[t as usize] == u32::MAX {
                        next = Some(t);
                        break;
                    }
                }
                top.1 = pos;
                match next {
                    Some(t) => {
                        pre[t as usize] = vertex.len() as u32;
                        parent.push(pre[v as usize]);
                        vertex.push(t);
                        stack.push((t, g.starts[t as usize]));
                    }
                    None => {
                        stack.pop();
                    }
                }
            }
        };

        for &(r, _) in index.roots() {
            dfs(r, &mut pre, &mut vertex, &mut parent);
        }
        // Objects found so far may make more objects live: their classes (strongly), then the
        // referents of their References (weakly). Each round looks at the objects the previous
        // one added; the first looks at everything, in node order so the arrays stream.
        let class_node = |v: u32| index.classes[index.class_of(v) as usize].node;
        let new_classes = |v: u32, pre: &[u32], found: &mut Vec<u32>| {
            if let Some(c) = class_node(v) {
                if pre[c as usize] == u32::MAX {
                    found.push(c);
                }
            }
        };
        let new_referents = |v: u32, pre: &[u32], found: &mut Vec<u32>| {
            new_classes(v, pre, found);
            for &t in g.edges(v) {
                if t & WEAK != 0 && pre[(t & !WEAK) as usize] == u32::MAX {
                    found.push(t & !WEAK);
                }
            }
        };
        let mut strong_end = 0;
        for step in [&new_classes as &dyn Fn(u32, &[u32], &mut Vec<u32>), &new_referents] {
            let mut found = Vec::new();
            for v in 0..n as u32 {
                if pre[v as usize] != u32::MAX {
                    step(v, &pre, &mut found);
                }
            }
            loop {
                let scanned = vertex.len();
                for t in found.drain(..) {
                    dfs(t, &mut pre, &mut vertex, &mut parent);
                }
                if vertex.len() == scanned {
                    break;
                }
                for &v in &vertex[scanned..] {
                    step(v, &pre, &mut found);
                }
            }
            if strong_end == 0 {
                strong_end = vertex.len() as u32;
            }
        }
        drop(stack);
        let count = vertex.len();

        // Predecessors in preorder space, as `pw << 32 | pv` sorted. Only those that are not the
        // DFS parent: semi-NCA starts each node's semidominator at its parent, so the parent adds
        // nothing, and most objects have no other referrer. Every GC root is a child of the
        // virtual root (0), also one the DFS reached first from another root.
        let mut preds: Vec<u64> = Vec::new();
        for_each_tree_edge(index, &pre, strong_end, |pv, pw| {
            if parent[pw as usize] != pv {
                preds.push(u64::from(pw) << 32 | u64::from(pv));
            }
        });
        for &(r, _) in index.roots() {
            let pr = pre[r as usize];
            if parent[pr as usize] != 0 {
                preds.push(u64::from(pr) << 32);
            }
        }
        rayon::slice::ParallelSliceMut::par_sort_unstable(&mut preds[..]);
        preds.dedup();
        preds.shrink_to_fit();

        // Node order is no longer needed beyond how each object is reached: a byte, not four,
        // while the semi-NCA arrays are alive.
        let reach: Vec<u8> = pre
            .iter()
            .map(|&p| match p {
                u32::MAX => REACH_NONE,
                p if p < strong_end => REACH_STRONG,
                _ => REACH_WEAK,
            })
            .collect();
        drop(pre);

        // Semi-NCA.
        let mut idom = parent.clone();
        let mut anc = parent;
        let mut semi: Vec<u32> = (0..count as u32).collect();
        let mut label: Vec<u32> = (0..count as u32).collect();
        let mut path: Vec<u32> = Vec::new();
        let mut next = preds.len();
        for w in (1..count).rev() {
            let mut s = idom[w];
            let last = w as u32 + 1;
            while next > 0 && (preds[next - 1] >> 32) as usize == w {
                next -= 1;
                let v = preds[next] as u32;
                let u = eval(v, last, &mut anc, &mut label, &semi, &mut path);
                s = s.min(semi[u as usize]);
            }
            semi[w] = s;
        }
        drop((preds, anc, label));
        for w in 1..count {
            let s = semi[w];
            let mut c = idom[w];
            while c > s {
                c = idom[c as usize];
            }
            idom[w] = c;
        }
        drop(semi);

        // From here on, node space.
        let mut idom_n = vec![UNREACHABLE; n];
        for w in 1..count {
            let d = idom[w];
            idom_n[vertex[w] as usize] = if d == 0 { ROOT } else { vertex[d as usize] };
        }
        drop(idom);

        // Retained sizes: children before parents (reverse preorder). Summed in 32 bits: only
        // objects retaining 4 GB or more (a handful, if any) move to the map.
        let mut retained = Sizes { small: vec![0u32; n], big: Default::default() };
        let mut retained_count = vec![0u32; n];
        for &v in &vertex[1..] {
            retained.set(v, index.shallow_size(v));
            retained_count[v as usize] = 1;
        }
        let mut reachable_bytes = 0u64;
        for &v in vertex[1..].iter().rev() {
            let d = idom_n[v as usize];
            let r = retained.get(v);
            if d == ROOT {
                reachable_bytes += r;
            } else {
                retained.set(d, retained.get(d) + r);
                retained_count[d as usize] = retained_count[d as usize].saturating_add(retained_count[v as usize]);
            }
        }

        // The tree's children, in preorder; slot `n` is the virtual root. Same back-filling as above.
        let mut child_starts = vec![0u32; n + 2];
        let slot = |d: u32| if d == ROOT { n } else { d as usize };
        for &d in &idom_n {
            if d != UNREACHABLE {
                child_starts[slot(d)] += 1;
            }
        }
        for i in 1..child_starts.len() {
            child_starts[i] += child_starts[i - 1];
        }
        let mut children = vec![0u32; count - 1];
        for &v in vertex[1..].iter().rev() {
            let k = slot(idom_n[v as usize]);
            child_starts[k] -= 1;
            children[child_starts[k] as usize] = v;
        }
        drop(vertex);
        Dominators {
            idom: idom_n,
            retained: retained.small,
            big_retained: retained.big,
            retained_count,
            reach,
            child_starts,
            children,
            reachable_objects: (count - 1) as u64,
            reachable_bytes,
            strong_objects: u64::from(strong_end - 1),
        }
    }
}

/// Sizes in 32 bits, those that do not fit marked `u32::MAX` and kept in a map.
pub(crate) struct Sizes {
    pub(crate) small: Vec<u32>,
    pub(crate) big: rustc_hash::FxHashMap<u32, u64>,
}

impl Sizes {
    #[inline]
    pub(crate) fn get(&self, n: Node) -> u64 {
        match self.small[n as usize] {
            u32::MAX => self.big.get(&n).copied().unwrap_or(u64::from(u32::MAX)),
            v => u64::from(v),
        }
    }

    #[inline]
    pub(crate) fn set(&mut self, n: Node, size: u64) {
        match u32::try_from(size) {
            Ok(v) if v != u32::MAX => {
                if self.small[n as usize] == u32::MAX {
                    self.big.remove(&n);
                }
                self.small[n as usize] = v;
            }
            _ => {
                self.small[n as usize] = u32::MAX;
                self.big.insert(n, size);
            }
        }
    }
}

/// Calls `f(pv, pw)` (preorder numbers) for every edge the dominator computation uses: strong
/// edges between reached objects, except those from the weakly reachable part into the strong
/// one. Sources are walked in node order, so the edge arrays are read front to back.
fn for_each_tree_edge(index: &Index, pre: &[u32], strong_end: u32, mut f: impl FnMut(u32, u32)) {
    let g = index.graph();
    for (v, &pv) in pre.iter().enumerate() {
        if pv == u32::MAX {
            continue;
        }
        for &t in g.edges(v as u32) {
            if t & WEAK == 0 {
                let pw = pre[t as usize];
                if !(pv >= strong_end && pw < strong_end) {
                    f(pv, pw);
                }
            }
        }
    }
}

pub(crate) const REACH_NONE: u8 = 0;
pub(crate) const REACH_STRONG: u8 = 1;
pub(crate) const REACH_WEAK: u8 = 2;

/// LLVM's `eval` with path compression: the vertex of least semidominator on the path from `v`
/// up its linked ancestors (those numbered `>= last`).
#[inline]
fn eval(v: u32, last: u32, anc: &mut [u32], label: &mut [u32], semi: &[u32], path: &mut Vec<u32>) -> u32 {
    if anc[v as usize] < last {
        return label[v as usize];
    }
    let mut x = v;
    loop {
        path.push(x);
        x = anc[x as usize];
        if anc[x as usize] < last {
            break;
        }
    }
    let mut p = x;
    let mut plabel = label[p as usize];
    while let Some(y) = path.pop() {
        anc[y as usize] = anc[p as usize];
        let ylabel = label[y as usize];
        if semi[plabel as usize] < semi[ylabel as usize] {
            label[y as usize] = plabel;
        } else {
            plabel = ylabel;
        }
        p = y;
    }
    label[v as usize]
}

#[cfg(test)]
mod tests {
    use super::Sizes;

    #[test]
    fn sizes_of_4_gb_and_more_are_kept_whole() {
        let sizes = [0, 1, u64::from(u32::MAX) - 1, u64::from(u32::MAX), 5 << 30, u64::MAX];
        let mut packed = Sizes { small: vec![0; sizes.len()], big: Default::default() };
        for (n, &s) in sizes.iter().enumerate() {
            packed.set(n as u32, s);
        }
        assert_eq!(packed.small, [0, 1, u32::MAX - 1, u32::MAX, u32::MAX, u32::MAX]);
        assert_eq!(packed.big.len(), 3);
        for (n, &s) in sizes.iter().enumerate() {
            assert_eq!(packed.get(n as u32), s);
        }
        // A size that grows past 4 GB moves to the map; one that shrinks back leaves it.
        packed.set(0, 4 << 30);
        assert_eq!(packed.get(0), 4 << 30);
        packed.set(4, 7);
        assert_eq!((packed.get(4), packed.big.len()), (7, 3));
    }
}
