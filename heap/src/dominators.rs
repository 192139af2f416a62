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

use crate::index::column::{Lo, Wide};
use crate::index::csr::WEAK;
use crate::index::{Index, Node};
use crate::prefetch::{self, AHEAD};

mod split;
use split::{Helping, Noting, Parts, Split};

/// What [`Dominators::idom`] gives for objects no root reaches: a mark, not an object.
pub const UNREACHABLE: Node = Node(raw::UNREACHABLE);
/// What [`Dominators::idom`] gives for objects the virtual root dominates directly (the GC
/// roots, and what only weak referents reach): a mark, not an object.
pub const ROOT: Node = Node(raw::ROOT);

/// [`ROOT`] and [`UNREACHABLE`] as the packed array of immediate dominators holds them.
pub(crate) mod raw {
    /// See [`super::UNREACHABLE`].
    pub(crate) const UNREACHABLE: u32 = u32::MAX;
    /// See [`super::ROOT`].
    pub(crate) const ROOT: u32 = u32::MAX - 1;
}

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

impl Reach {
    /// Its name, as the JSON reports write it: `strong`, `weak` or `unreachable`.
    pub fn name(self) -> &'static str {
        match self {
            Reach::Strong => "strong",
            Reach::Weak => "weak",
            Reach::Unreachable => "unreachable",
        }
    }
}

/// What the graph gives before sizes: immediate dominators (node space), reach, the preorder
/// of the objects in semi-NCA, and the counts.
pub(crate) struct Tree {
    /// Shared with the shortest paths.
    pub(crate) idom: crate::slab::Slab<u32>,
    reach: Vec<u8>,
    vertex: Vec<u32>,
    /// Where the sums' loop over `vertex` can be split between the cores.
    parts: Parts,
    reached: usize,
    strong_objects: u64,
}

/// The dominator tree with retained sizes.
pub struct Dominators {
    /// Shared with the shortest paths, which keep only the parents that differ from it.
    pub(crate) idom: crate::slab::Slab<u32>,
    /// Retained sizes in 16 bits; `u16::MAX` means the size is in `big_retained` (objects that
    /// retain 64 KB or more: 0.7 % of those of the 1 GB benchmark dump).
    pub(crate) retained: crate::slab::Slab<u16>,
    pub(crate) big_retained: Wide,
    /// Retained counts in 16 bits; `u16::MAX` means the count is in `big_count`.
    pub(crate) retained_count: crate::slab::Slab<u16>,
    pub(crate) big_count: Wide,
    pub(crate) reach: crate::slab::Slab<u8>,
    pub(crate) child_starts: crate::index::csr::Starts,
    pub(crate) children: crate::slab::Slab<u32>,
    /// Objects reachable from the roots, strongly or weakly.
    pub reachable_objects: u64,
    /// Their total shallow size.
    pub reachable_bytes: u64,
    /// Strongly reachable objects.
    pub strong_objects: u64,
}

impl Dominators {
    /// Immediate dominator of `n`: a node, or one of the marks [`ROOT`] and [`UNREACHABLE`]
    /// (compare with them before using it as a node; [`crate::Heap::dominator`] gives it as an
    /// `Option` instead).
    pub fn idom(&self, n: Node) -> Node {
        Node(self.idom[n.index()])
    }

    /// Retained size of `n` (0 when unreachable).
    pub fn retained(&self, n: Node) -> u64 {
        Packed { small: &self.retained[..], big: &self.big_retained }.get(n.0)
    }

    /// Number of objects `n` retains, itself included (0 when unreachable).
    pub fn retained_count(&self, n: Node) -> u32 {
        let packed = Packed { small: &self.retained_count[..], big: &self.big_count };
        u32::try_from(packed.get(n.0)).unwrap_or(u32::MAX)
    }

    /// How `n` is reachable.
    pub fn reach(&self, n: Node) -> Reach {
        match self.reach[n.index()] {
            REACH_STRONG => Reach::Strong,
            REACH_WEAK => Reach::Weak,
            _ => Reach::Unreachable,
        }
    }

    /// Objects `n` immediately dominates; `None` for the virtual root's children.
    pub fn children(&self, n: Option<Node>) -> &[Node] {
        let k = n.map_or(self.idom.len(), Node::index);
        let a = self.child_starts.get(k) as usize;
        let b = self.child_starts.get(k + 1) as usize;
        bytemuck::cast_slice(&self.children[a..b])
    }

    /// Computes the tree for `index`.
    ///
    /// Objects with no strong references of their own ("leaves": primitive arrays, boxed
    /// values, strings' arrays; 41 % of the objects of the 1 GB benchmark dump) take no part in
    /// semi-NCA: they are nobody's predecessor or DFS ancestor, so each one's immediate dominator
    /// is the nearest common ancestor, in the tree of the others, of the objects referring to it
    /// (usually one: its DFS parent). The semi-NCA arrays then cover the other objects only.
    pub fn compute(index: &Index) -> Dominators {
        Dominators::finish(index, Dominators::tree(index, &std::sync::Mutex::new(())))
    }

    /// The immediate dominators and reach (the graph's part of [`compute`](Self::compute)).
    /// Semi-NCA, where the tree's memory peaks, holds `peak` (see [`crate::Heap::analyse`]).
    pub(crate) fn tree(index: &Index, peak: &std::sync::Mutex<()>) -> Tree {
        let span = crate::trace::span("dominators: dfs");
        let order = Preorder::of(index);
        drop(span);
        let span = crate::trace::span("dominators: preds");
        let (preds, leaf_preds) = predecessors(index, &order);
        drop(span);
        let span = crate::trace::span("dominators: semi-nca");
        let Preorder { mut pre, vertex, parent, strong_end, mut twigs, parts } = order;
        // Semi-NCA runs no job of the pool: holding `peak`, this thread never waits for one.
        let held = peak.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let idom = semi_nca(parent, preds);
        drop(held);
        drop(span);
        let span = crate::trace::span("dominators: leaves");
        place_leaves(index, &mut pre, &idom, &mut twigs, leaf_preds);
        drop(span);
        let _span = crate::trace::span("dominators: to nodes");
        to_nodes(pre, vertex, idom, twigs.node, strong_end, parts)
    }

    /// Retained sizes and the children rows of `tree` (the sizes' part of
    /// [`compute`](Self::compute)): they read the immediate dominators only, one on each core.
    pub(crate) fn finish(index: &Index, tree: Tree) -> Dominators {
        let Tree { idom, reach, vertex, parts, reached, strong_objects } = tree;
        // The freed blocks kept past what the sums and rows are about to take (three lists of
        // 16 bits, the rows' starts and a slot for each object reached) would only add to
        // their peak, the analysis's: 120–190 MB on dumps of small maps and linked lists.
        let n = idom.len();
        crate::alloc::keep_at_most(8 * n + 4 * reached + (n >> 3) + (16 << 20));
        let idom_n: &[u32] = &idom;
        let (sums, rows) =
            rayon::join(|| retained_sizes(index, idom_n, vertex, &parts), || children_rows(idom_n, reached));
        Dominators::assemble(idom, reach, sums, rows, reached as u64, strong_objects)
    }

    /// The tree from its parts: immediate dominators (node space), reach, the sums, the children
    /// rows, and the counts of objects reached and reached strongly.
    pub(crate) fn assemble(
        idom: crate::slab::Slab<u32>,
        reach: Vec<u8>,
        sums: Sums,
        (child_starts, children): (crate::index::csr::Starts, Vec<u32>),
        reachable_objects: u64,
        strong_objects: u64,
    ) -> Dominators {
        let Sums { retained, counts, reachable_bytes } = sums;
        Dominators {
            idom,
            retained: retained.small,
            big_retained: retained.big,
            retained_count: counts.small,
            big_count: counts.big,
            reach: reach.into(),
            child_starts,
            children: children.into(),
            reachable_objects,
            reachable_bytes,
            strong_objects,
        }
    }
}

/// The objects in DFS preorder from the GC roots, strongly reachable ones first.
///
/// Per object, `pre` holds: unvisited (`u32::MAX`); a preorder number; or, for a leaf, `LEAF`
/// (plus `LEAF_WEAK` when found in the weak part) and its immediate dominator so far: a
/// preorder number, or a twig's code. A twig's own entry is a leaf's holding its own code.
/// Preorder numbers stay below `LEAF_WEAK`; a dump of a billion objects or more keeps every
/// object in semi-NCA instead.
///
/// Twigs are objects whose strong references all lead to leaves (a String and its array): like
/// leaves, they are nobody's predecessor or DFS ancestor in semi-NCA, only their leaves'. They
/// are kept out of semi-NCA too: twig `k` is coded `LEAF_NODE - k`, above every preorder
/// number (both count objects, fewer than `LEAF_WEAK`), and its dominator so far is kept apart.
struct Preorder {
    pre: Vec<u32>,
    /// Preorder number -> object, for the objects in semi-NCA; slot 0 is the virtual root.
    vertex: Vec<u32>,
    /// DFS parent of each, in preorder space.
    parent: Vec<u32>,
    /// Preorder numbers below this are strongly reachable.
    strong_end: u32,
    /// Twig `k`'s object, and its dominator so far in preorder space.
    twigs: Twigs,
    /// Where the sums' vertex loop can be split between the cores.
    parts: Parts,
}

/// The twigs the DFS found (see [`Preorder`]).
#[derive(Default)]
struct Twigs {
    node: Vec<u32>,
    dom: Vec<u32>,
}

impl Twigs {
    /// The lowest twig code: entries at or above it name twigs, those below preorder numbers.
    fn floor(&self) -> u32 {
        LEAF_NODE + 1 - self.node.len() as u32
    }

    /// The twig coded `code` (at or above [`floor`](Self::floor)).
    fn index(code: u32) -> usize {
        (LEAF_NODE - code) as usize
    }

    /// Whether `t`, whose entry in `pre` is `p` (a leaf's), is itself a twig; its index if so.
    fn own(&self, t: u32, p: u32) -> Option<usize> {
        let code = p & LEAF_NODE;
        (code >= self.floor()).then(|| Self::index(code)).filter(|&k| self.node[k] == t)
    }
}

impl Preorder {
    /// The DFS from every root, then the rounds that make more objects live: objects found so far
    /// keep their classes alive (strongly), then the referents of their References (weakly).
    /// Each round looks at the objects the previous one added. The first looks at everything
    /// found, in node order so the arrays stream: for classes, on every core; for referents, at
    /// the objects that hold a weak reference only.
    fn of(index: &Index) -> Preorder {
        let n = index.len();
        let g = index.graph();
        let mut dfs = Dfs {
            g,
            leaves: index.strong_leaves(),
            prune: (n as u64) < u64::from(LEAF_WEAK),
            pre: vec![u32::MAX; n],
            vertex: vec![raw::ROOT],
            parent: vec![0],
            stack: Vec::new(),
            twigs: Twigs::default(),
            noting: Noting::new(n),
        };
        for &(r, _) in index.roots() {
            dfs.visit(r.0, LEAF, None);
        }
        let class_node = |v: u32| index.classes[index.class_of(Node(v)).index()].node;
        let new_classes = |v: u32, pre: &[u32], found: &mut Vec<u32>| {
            if let Some(c) = class_node(v) {
                if pre[c.index()] == u32::MAX {
                    found.push(c.0);
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
        // The first look of each step, over every object found so far, on every core; the
        // objects come out in node order, each chunk's once, as one core would find them.
        let first_classes = |pre: &[u32]| -> Vec<u32> {
            use rayon::prelude::*;
            let chunks: Vec<Vec<u32>> = pre
                .par_chunks(FIRST_LOOK)
                .enumerate()
                .map(|(k, chunk)| {
                    let mut found = Vec::new();
                    let mut seen = rustc_hash::FxHashSet::default();
                    for (i, &p) in chunk.iter().enumerate() {
                        if p != u32::MAX {
                            if let Some(c) = class_node((k * FIRST_LOOK + i) as u32) {
                                if pre[c.index()] == u32::MAX && seen.insert(c.0) {
                                    found.push(c.0);
                                }
                            }
                        }
                    }
                    found
                })
                .collect();
            chunks.concat()
        };
        // Only objects with a weak reference can add referents; their classes were all found
        // by the first step, which ran until it found no more.
        let first_referents = |pre: &[u32]| -> Vec<u32> {
            let mut found = Vec::new();
            for v in crate::bits::ones(index.weak_holders()) {
                if pre[v] != u32::MAX {
                    for &t in g.edges(v as u32) {
                        if t & WEAK != 0 && pre[(t & !WEAK) as usize] == u32::MAX {
                            found.push(t & !WEAK);
                        }
                    }
                }
            }
            found
        };
        // Leaves found by the rounds (their classes and referents are looked at too).
        let mut new_leaves: Vec<u32> = Vec::new();
        let mut leaf_tag = LEAF;
        let mut strong_end = 0;
        type Step<'s> = &'s dyn Fn(u32, &[u32], &mut Vec<u32>);
        type Look<'s> = &'s dyn Fn(&[u32]) -> Vec<u32>;
        for (first, step) in
            [(&first_classes as Look<'_>, &new_classes as Step<'_>), (&first_referents, &new_referents)]
        {
            let mut found = first(&dfs.pre);
            loop {
                let scanned = dfs.vertex.len();
                new_leaves.clear();
                for t in std::mem::take(&mut found) {
                    dfs.visit(t, leaf_tag, Some(&mut new_leaves));
                }
                if dfs.vertex.len() == scanned && new_leaves.is_empty() {
                    break;
                }
                for &v in dfs.vertex[scanned..].iter().chain(&new_leaves) {
                    step(v, &dfs.pre, &mut found);
                }
            }
            if strong_end == 0 {
                strong_end = dfs.vertex.len() as u32;
                leaf_tag = LEAF | LEAF_WEAK;
            }
        }
        let parts = dfs.noting.finish(dfs.vertex.len());
        Preorder { pre: dfs.pre, vertex: dfs.vertex, parent: dfs.parent, strong_end, twigs: dfs.twigs, parts }
    }
}

/// An iterative DFS over strong references that numbers the objects it enters in preorder.
struct Dfs<'a> {
    g: &'a crate::index::csr::Csr,
    /// Objects with no strong reference (see [`Index::strong_leaves`]), kept out of semi-NCA
    /// when `prune`.
    leaves: &'a [u64],
    prune: bool,
    pre: Vec<u32>,
    vertex: Vec<u32>,
    parent: Vec<u32>,
    stack: Vec<(u32, u32)>,
    twigs: Twigs,
    /// The parts of the sums' vertex loop, noted as vertices are left.
    noting: Noting,
}

impl Dfs<'_> {
    /// Enters `s` unless visited, and everything it reaches that is not yet: leaves get `tag`
    /// and their dominator so far (and go into `leaves` when given, as twigs do); twigs a code
    /// and theirs; the others a preorder number and their parent.
    #[inline]
    fn visit(&mut self, s: u32, tag: u32, mut leaves: Option<&mut Vec<u32>>) {
        let Dfs { g, leaves: leaf_bits, prune, pre, vertex, parent, stack, twigs, noting } = self;
        let (g, prune, leaf_bits) = (*g, *prune, *leaf_bits);
        let is_leaf = |t: u32| prune && Index::is_strong_leaf(leaf_bits, t);
        // `t` (no leaf) is a twig when its strong references all lead to leaves: entered with
        // them, `dom` its dominator so far.
        let mut twig = |t: u32, dom: u32, pre: &mut [u32], leaves: &mut Option<&mut Vec<u32>>| -> bool {
            let row = &g.targets[g.starts.get(t as usize) as usize..g.starts.get(t as usize + 1) as usize];
            if !prune || !row.iter().all(|&u| u & WEAK != 0 || Index::is_strong_leaf(leaf_bits, u)) {
                return false;
            }
            let code = LEAF_NODE - twigs.node.len() as u32;
            twigs.node.push(t);
            twigs.dom.push(dom);
            pre[t as usize] = tag | code;
            if let Some(l) = leaves.as_deref_mut() {
                l.push(t);
            }
            for &u in row {
                if u & WEAK == 0 && pre[u as usize] == u32::MAX {
                    pre[u as usize] = tag | code;
                    if let Some(l) = leaves.as_deref_mut() {
                        l.push(u);
                    }
                }
            }
            true
        };
        // A row about to be scanned: the entries in `pre` of its first targets, and their row
        // starts, asked for at once (the scan would find each miss after the one before).
        let row = |v: u32, pre: &[u32]| {
            let (a, b) = (g.starts.get(v as usize), g.starts.get(v as usize + 1));
            for &t in &g.targets[a as usize..(b as usize).min(a as usize + 8)] {
                crate::prefetch::read(pre, (t & !WEAK) as usize);
                g.prefetch_start(t & !WEAK);
            }
            a
        };
        if pre[s as usize] != u32::MAX {
            return;
        }
        if is_leaf(s) {
            pre[s as usize] = tag;
            if let Some(l) = leaves {
                l.push(s);
            }
            return;
        }
        if twig(s, 0, pre, &mut leaves) {
            return;
        }
        pre[s as usize] = vertex.len() as u32;
        noting.enter(0, vertex.len() as u32);
        vertex.push(s);
        parent.push(0);
        stack.push((s, row(s, pre)));
        while let Some(top) = stack.last_mut() {
            let (v, mut pos) = *top;
            let end = g.starts.get(v as usize + 1);
            let mut next = None;
            while pos < end {
                let t = g.targets[pos as usize];
                pos += 1;
                if t & WEAK == 0 && pre[t as usize] == u32::MAX {
                    if is_leaf(t) {
                        pre[t as usize] = tag | pre[v as usize];
                        if let Some(l) = leaves.as_deref_mut() {
                            l.push(t);
                        }
                    } else if !twig(t, pre[v as usize], pre, &mut leaves) {
                        next = Some(t);
                        break;
                    }
                }
            }
            top.1 = pos;
            match next {
                Some(t) => {
                    pre[t as usize] = vertex.len() as u32;
                    noting.enter(stack.len(), vertex.len() as u32);
                    parent.push(pre[v as usize]);
                    vertex.push(t);
                    stack.push((t, row(t, pre)));
                }
                None => {
                    stack.pop();
                    noting.leave(stack.len(), vertex.len() as u32, stack.iter().map(|&(u, _)| u));
                }
            }
        }
    }
}

/// Predecessors in preorder space, as `pw << 32 | pv` sorted. Only those that are not the DFS
/// parent: semi-NCA starts each node's semidominator at its parent, so the parent adds nothing,
/// and most objects have no other referrer. Every GC root is a child of the virtual root (0),
/// also one the DFS reached first from another root.
///
/// The same walk keeps the referrers of leaves other than the one that found them, as
/// `(leaf, pv)`, and of twigs, as `(TWIG_PRED | k, pv)`: few (a leaf is most often referred to
/// once), and their dominators need them once semi-NCA is done. A leaf or twig found in the
/// strong part counts only referrers there.
///
/// In chunks of objects on every core (the shortest paths on the other core are done by now,
/// most often).
fn predecessors(index: &Index, order: &Preorder) -> (Vec<u64>, Vec<(u32, u32)>) {
    use rayon::prelude::*;
    const CHUNK: usize = 1 << 18;
    let Preorder { pre, parent, strong_end, vertex, twigs, .. } = order;
    let (n, strong_end) = (index.len(), *strong_end);
    // Each chunk's predecessors are put in order of their buckets (the top bits of `pw`) where
    // they are made, in the core's cache; each bucket is then gathered from every chunk and
    // sorted on its own, on every core. No sort of the whole list; the chunks' lists and the
    // gathered one are held together while the buckets are gathered, as the chunks' lists and
    // the joined one were before.
    let shift = (vertex.len().max(1) as u64).ilog2().saturating_sub(PRED_BUCKET_BITS);
    let buckets = (vertex.len() >> shift) + 1;
    let bucket = |p: u64| ((p >> 32) >> shift) as usize;
    let in_buckets = |preds: Vec<u64>| -> Bucketed {
        let (preds, starts) = crate::cut::grouped(preds.iter().copied(), buckets, bucket);
        Bucketed { preds, starts }
    };
    let mut parts: Vec<(Bucketed, Vec<(u32, u32)>)> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|k| {
            let (mut preds, mut leaf_preds) = (Vec::new(), Vec::new());
            let range = k * CHUNK..((k + 1) * CHUNK).min(n);
            for_each_tree_edge(index, pre, strong_end, range, |pv, t, pw| {
                if pw & LEAF == 0 {
                    // From a vertex of semi-NCA: leaves and twigs refer to leaves only.
                    if parent[pw as usize] != pv {
                        preds.push(u64::from(pw) << 32 | u64::from(pv));
                    }
                    return;
                }
                // Into a leaf or a twig, from a vertex or a twig (its code, its weakness).
                let (from, weak) =
                    if pv & LEAF == 0 { (pv, pv >= strong_end) } else { (pv & LEAF_NODE, pv & LEAF_WEAK != 0) };
                if weak && pw & LEAF_WEAK == 0 {
                    return;
                }
                match twigs.own(t, pw) {
                    Some(k) if twigs.dom[k] != from => leaf_preds.push((TWIG_PRED | k as u32, from)),
                    Some(_) => {}
                    None if pw & LEAF_NODE != from => leaf_preds.push((t, from)),
                    None => {}
                }
            });
            (in_buckets(preds), leaf_preds)
        })
        .collect();
    let roots: Vec<u64> = index
        .roots()
        .iter()
        .map(|&(r, _)| pre[r.index()])
        .filter(|&pr| pr & LEAF == 0 && parent[pr as usize] != 0)
        .map(|pr| u64::from(pr) << 32)
        .collect();
    parts.push((in_buckets(roots), Vec::new()));
    let mut leaf_preds: Vec<(u32, u32)> = Vec::with_capacity(parts.iter().map(|p| p.1.len()).sum());
    for (_, l) in &mut parts {
        leaf_preds.append(l);
    }
    let parts: Vec<Bucketed> = parts.into_iter().map(|p| p.0).collect();
    let sizes: Vec<usize> =
        (0..buckets).map(|b| parts.iter().map(|p| (p.starts[b + 1] - p.starts[b]) as usize).sum()).collect();
    let mut preds = vec![0u64; sizes.iter().sum()];
    crate::cut::by_lengths(&mut preds, sizes).into_par_iter().enumerate().for_each(|(b, out)| {
        let mut at = 0;
        for p in &parts {
            let from = &p.preds[p.starts[b] as usize..p.starts[b + 1] as usize];
            out[at..at + from.len()].copy_from_slice(from);
            at += from.len();
        }
        out.sort_unstable();
    });
    drop(parts);
    preds.dedup();
    preds.shrink_to_fit();
    (preds, leaf_preds)
}

/// A chunk's predecessors in order of their buckets, and where each bucket starts.
struct Bucketed {
    preds: Vec<u64>,
    starts: Vec<u32>,
}

/// Marks a referrer of twig `k` in the list of leaves' referrers: `(TWIG_PRED | k, pv)`.
const TWIG_PRED: u32 = 1 << 31;

/// The predecessors are sorted in about 2^this buckets.
const PRED_BUCKET_BITS: u32 = 10;

/// Semi-NCA over the objects in preorder: semidominators from the predecessors (in reverse
/// preorder, with LLVM's path-compressing `eval`), then each immediate dominator as the nearest
/// ancestor at or above the semidominator. Gives the immediate dominators in preorder space.
pub(crate) fn semi_nca(parent: Vec<u32>, preds: Vec<u64>) -> Vec<u32> {
    let count = parent.len();
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
            // The predecessors a few ahead: their ancestor links and labels.
            if let Some(&p) = next.checked_sub(AHEAD).map(|j| &preds[j]) {
                prefetch::read(&anc, p as u32 as usize);
                prefetch::read(&label, p as u32 as usize);
            }
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
    idom
}

/// Leaves and twigs: the nearest common ancestor of their referrers in the tree of the others
/// (a GC root's is the virtual root). The twigs' first, in `twigs` (their referrers are all in
/// semi-NCA), then the leaves', written into their entries in `pre` (a twig, never anyone's
/// ancestor but its leaves', stands for its dominator when it is not the answer itself); each
/// twig's entry then gets its dominator, as a leaf's holds it.
///
/// An entry's ancestor only moves up, to the common ancestor of what it was and the next
/// referrer, so the referrers are taken in any order, on every core, each entry updated by
/// compare-and-swap. A walk that goes on for more than [`SHORT`] steps is left for after: then
/// the referrers left are taken leaf by leaf, and each walk marks what it passes with the leaf
/// (see [`meet`]). Without that, a leaf that every link of a long chain refers to
/// (`Boolean.TRUE` from each node of a list) had each link walk the chain up to the top: a
/// million links, minutes.
fn place_leaves(index: &Index, pre: &mut [u32], idom: &[u32], twigs: &mut Twigs, leaf_preds: Vec<(u32, u32)>) {
    let floor = twigs.floor();
    for &(r, _) in index.roots() {
        if let Some(k) = twigs.own(r.0, pre[r.index()]) {
            twigs.dom[k] = 0;
        }
    }
    let mut marks = Vec::new();
    let twig = |t: u32| t & TWIG_PRED != 0;
    // The twigs' referrers are all in semi-NCA: no twig's entry is read while they change.
    settle(&leaf_preds, twig, |t| (t & !TWIG_PRED) as usize, &mut twigs.dom, &[], idom, floor, &mut marks);
    settle(&leaf_preds, |t| !twig(t), |t| t as usize, pre, &twigs.dom, idom, floor, &mut marks);
    drop(leaf_preds);
    for &(r, _) in index.roots() {
        let slot = &mut pre[r.index()];
        if *slot & LEAF != 0 && twigs.own(r.0, *slot).is_none() {
            *slot &= !LEAF_NODE;
        }
    }
    for (&t, &d) in twigs.node.iter().zip(&twigs.dom) {
        let slot = &mut pre[t as usize];
        *slot = (*slot & !LEAF_NODE) | d;
    }
}

/// [`place_leaves`] for the referrers `(t, pv)` that `pick` takes: entry `slots[at(t)]` (its
/// bits of `LEAF_NODE`) moved up to the ancestor it shares with each `pv`. Short walks on every
/// core by compare-and-swap; those left, leaf by leaf with `marks` (see [`meet`]).
#[allow(clippy::too_many_arguments)]
fn settle(
    refs: &[(u32, u32)],
    pick: impl Fn(u32) -> bool + Sync,
    at: impl Fn(u32) -> usize + Sync,
    slots: &mut [u32],
    twig_dom: &[u32],
    idom: &[u32],
    floor: u32,
    marks: &mut Vec<u32>,
) {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
    const CHUNK: usize = 1 << 14;
    let up = |x: u32| if x >= floor { twig_dom[Twigs::index(x)] } else { idom[x as usize] };
    // False when the common ancestor is more than `SHORT` steps away.
    let near = |slot: &AtomicU32, pv: u32| -> bool {
        let mut p = slot.load(Relaxed);
        loop {
            let Some(d) = nca_near(p & LEAF_NODE, pv, up) else { return false };
            if d == p & LEAF_NODE {
                return true;
            }
            match slot.compare_exchange_weak(p, (p & !LEAF_NODE) | d, Relaxed, Relaxed) {
                Ok(_) => return true,
                Err(now) => p = now,
            }
        }
    };
    let far: Vec<(u32, u32)> = {
        let atomic = atomics(slots);
        refs.par_chunks(CHUNK)
            .flat_map_iter(|chunk| {
                chunk.iter().filter(|&&(t, pv)| pick(t) && !near(&atomic[at(t)], pv)).copied().collect::<Vec<_>>()
            })
            .collect()
    };
    for group in sorted_groups(far, marks, idom.len()).chunk_by(|x, y| x.0 == y.0) {
        let (t, i) = (group[0].0, at(group[0].0));
        let mut to = slots[i] & LEAF_NODE;
        for &(_, pv) in group {
            to = meet(to, pv, t, marks, floor, up);
        }
        slots[i] = (slots[i] & !LEAF_NODE) | to;
    }
}

/// `values` as atomics, for updates from every core.
fn atomics(values: &mut [u32]) -> &[std::sync::atomic::AtomicU32] {
    const { assert!(std::mem::align_of::<std::sync::atomic::AtomicU32>() == std::mem::align_of::<u32>()) };
    // SAFETY: `AtomicU32` has the size and bit validity of `u32` and here the same alignment;
    // the exclusive borrow of `values` lasts as long as the atomics, so nothing else reads or
    // writes them meanwhile.
    unsafe { &*(values as *mut [u32] as *const [std::sync::atomic::AtomicU32]) }
}

/// How many steps up a walk of [`place_leaves`] takes before it is left for later.
const SHORT: u32 = 64;

/// The nearest common ancestor of `a` and `b` by `up`, or `None` past [`SHORT`] steps.
#[inline]
fn nca_near(mut a: u32, mut b: u32, up: impl Fn(u32) -> u32) -> Option<u32> {
    for _ in 0..SHORT {
        if a == b {
            return Some(a);
        }
        if a > b {
            a = up(a);
        } else {
            b = up(b);
        }
    }
    (a == b).then_some(a)
}

/// `far` in groups by leaf or twig, and `marks` (a slot per vertex) made once there is any.
fn sorted_groups(mut far: Vec<(u32, u32)>, marks: &mut Vec<u32>, vertices: usize) -> Vec<(u32, u32)> {
    use rayon::prelude::*;
    if !far.is_empty() && marks.is_empty() {
        *marks = vec![u32::MAX; vertices];
    }
    far.par_sort_unstable_by_key(|&(t, pv)| (t, pv));
    far
}

/// The nearest common ancestor of `at` (the ancestor of `t`'s referrers so far) and `pv`, its
/// next referrer, in the tree of preorder numbers and twig codes that `up` climbs (a twig is
/// never an ancestor here); the vertices on the way up from `pv` are marked `t` (see
/// [`place_leaves`]).
fn meet(at: u32, pv: u32, t: u32, marks: &mut [u32], floor: u32, up: impl Fn(u32) -> u32) -> u32 {
    let marked = |marks: &[u32], x: u32| x < floor && marks[x as usize] == t;
    let (mut a, mut b) = (at, pv);
    while a != b && !marked(marks, b) {
        if a > b {
            a = up(a);
        } else {
            b = up(b);
        }
    }
    let mut x = pv;
    while x != a && !marked(marks, x) {
        if x < floor {
            marks[x as usize] = t;
        }
        x = up(x);
    }
    a
}

/// From preorder space to node space: each object's immediate dominator, leaves' and twigs'
/// included, and how it is reachable. The twigs follow the vertices of semi-NCA in `vertex`
/// (the retained sizes' order: a twig is summed after its leaves, before its dominator).
fn to_nodes(
    pre: Vec<u32>,
    mut vertex: Vec<u32>,
    idom: Vec<u32>,
    twigs: Vec<u32>,
    strong_end: u32,
    parts: Parts,
) -> Tree {
    let n = pre.len();
    let count = vertex.len();
    let floor = LEAF_NODE + 1 - twigs.len() as u32;
    let mut idom_n = crate::resident::filled(raw::UNREACHABLE, n);
    let to_node = |d: u32| match d {
        0 => raw::ROOT,
        d if d >= floor => twigs[Twigs::index(d)],
        d => vertex[d as usize],
    };
    // Each vertex's dominator, written at the vertex's node: a write at random per vertex, in
    // runs on every core (vertices are distinct objects, so no two writes meet).
    use rayon::prelude::*;
    const CHUNK: usize = 1 << 16;
    {
        let slots = atomics(&mut idom_n);
        (1..count).into_par_iter().with_min_len(CHUNK).for_each(|w| {
            if let (Some(&x), Some(&d)) = (vertex.get(w + AHEAD), idom.get(w + AHEAD)) {
                prefetch::read(slots, x as usize);
                prefetch::read(&vertex, d as usize);
            }
            slots[vertex[w] as usize].store(to_node(idom[w]), std::sync::atomic::Ordering::Relaxed);
        });
    }
    drop(idom);
    // Each object's reach, and the leaves' dominators, in chunks on every core.
    let mut reach = vec![REACH_NONE; n];
    let counts: Vec<(u64, u64)> = pre
        .par_chunks(CHUNK)
        .zip(idom_n.par_chunks_mut(CHUNK))
        .zip(reach.par_chunks_mut(CHUNK))
        .map(|((pre, idom_n), reach)| {
            let (mut leaves, mut strong_leaves) = (0u64, 0u64);
            for (v, &p) in pre.iter().enumerate() {
                if let Some(&q) = pre.get(v + AHEAD).filter(|&&q| q != u32::MAX && q & LEAF != 0) {
                    match q & LEAF_NODE {
                        d if d >= floor => prefetch::read(&twigs, Twigs::index(d)),
                        d => prefetch::read(&vertex, d as usize),
                    }
                }
                reach[v] = match p {
                    u32::MAX => REACH_NONE,
                    p if p & LEAF != 0 => {
                        idom_n[v] = to_node(p & LEAF_NODE);
                        leaves += 1;
                        if p & LEAF_WEAK == 0 {
                            strong_leaves += 1;
                            REACH_STRONG
                        } else {
                            REACH_WEAK
                        }
                    }
                    p if p < strong_end => REACH_STRONG,
                    _ => REACH_WEAK,
                };
            }
            (leaves, strong_leaves)
        })
        .collect();
    let (leaves, strong_leaves) = counts.iter().fold((0, 0), |(a, b), &(c, d)| (a + c, b + d));
    drop(pre);
    vertex.extend(twigs);
    Tree {
        idom: idom_n.into(),
        reach,
        vertex,
        parts,
        reached: count - 1 + leaves as usize,
        strong_objects: u64::from(strong_end - 1) + strong_leaves,
    }
}

/// Retained sizes and counts: leaves into their dominators, then the others children before
/// parents (reverse preorder; a leaf dominates nothing). Also the shallow bytes the virtual
/// root's children retain.
///
/// Summed in 16 bits, the values of 64 KB (65,535 objects) and more in a map: a few percent of
/// the objects in most dumps, and half the memory of 32-bit sums. In a dump of deep chains most
/// objects retain that much, and the map would take 2.3 s and 0.7 GB for 20 M objects; once it
/// holds more than one object in 64, the sums so far are widened to 32 bits and go on from
/// where they stopped (a map only for 4 GB and more). Either way the values are kept in 16
/// bits, the wide ones in [`Wide`].
///
/// The vertices' loop runs on both cores once the other is free (see [`split`]), each with
/// maps of its own for its objects, each held to the cap: up to twice as many wide values for
/// the moment.
fn retained_sizes(index: &Index, idom_n: &[u32], vertex: Vec<u32>, parts: &Parts) -> Sums {
    let n = index.len();
    retained_sizes_with(idom_n, vertex, parts, n / 64 + 1024, Helping::Other, |v| index.shallow_size(Node(v)))
}

/// [`retained_sizes`] with the cap on wide values in 16 bits, the help of the other core and
/// the objects' sizes given.
fn retained_sizes_with(
    idom_n: &[u32],
    vertex: Vec<u32>,
    parts: &Parts,
    cap: usize,
    helping: Helping,
    size: impl Fn(u32) -> u64 + Sync,
) -> Sums {
    let _span = crate::trace::span("dominators: retained");
    let n = idom_n.len();
    let mut retained = Summing::<u16>::zeroed(n);
    let mut counts = Summing::<u16>::zeroed(n);
    // Every object reached starts with its own size and count: in node order, on every core
    // (in the order of `vertex` this was a write at random per object, 0.09 s of the mix).
    let span = crate::trace::span("retained: start");
    retained.start_each(idom_n, size);
    counts.start_each(idom_n, |_| 1);
    drop(span);
    // The leaves are the objects reached that are not vertices: theirs go to their dominators.
    let mut vertices = vec![0u64; n.div_ceil(64)];
    for &v in vertex.iter().skip(1) {
        crate::bits::set(&mut vertices, v as usize);
    }
    let mut bytes = 0u64;
    let split = Split::new(parts, helping);
    let order = Order { idom_n, vertex: &vertex, vertices: &vertices, split: &split };
    let Some(at) = order.sum(&mut retained, &mut counts, &mut bytes, Step::Leaves(0), cap) else {
        return Sums {
            retained: u16::finish(retained.finish()),
            counts: u16::finish(counts.finish()),
            reachable_bytes: bytes,
        };
    };
    // Too many wide values for 16 bits: the sums so far go on in 32 (made again from the start,
    // they took 0.51 s on a dump of deep chains; widened, 0.40 s).
    let _span = crate::trace::span("dominators: retained (32 bits)");
    let span = crate::trace::span("retained: widen");
    let mut retained = retained.widen();
    let mut counts = counts.widen();
    drop(span);
    let span = crate::trace::span("retained: vertices");
    let done = order.sum(&mut retained, &mut counts, &mut bytes, at, usize::MAX);
    assert!(done.is_none(), "without a cap the sums run to the end");
    drop(span);
    let _span = crate::trace::span("retained: narrow");
    // Each list narrowed where it stands on one core (see [`Packed::narrow`]), both at once.
    let (retained, counts) = rayon::join(|| u32::finish(retained.finish()), || u32::finish(counts.finish()));
    Sums { retained, counts, reachable_bytes: bytes }
}

/// Where [`Order::sum`] goes on from: the leaves from this node on, or the vertices below this
/// preorder number, last first.
#[derive(Clone, Copy)]
enum Step {
    Leaves(u32),
    Vertices(usize),
}

/// The order the retained sums are made in: leaves into their dominators, then the others
/// children before parents (reverse preorder; a leaf dominates nothing).
struct Order<'a> {
    idom_n: &'a [u32],
    vertex: &'a [u32],
    /// A bit per object in `vertex`.
    vertices: &'a [u64],
    /// The parts of the vertices' loop the other core may take.
    split: &'a Split<'a>,
}

impl Order<'_> {
    /// Adds each object's sums into its dominator's from `from` on, and the virtual root's
    /// into `reachable_bytes`; where it stopped when either map came to hold more than `cap`
    /// values, `None` when done.
    fn sum<T: split::Cell>(
        &self,
        retained: &mut Summing<T>,
        counts: &mut Summing<T>,
        reachable_bytes: &mut u64,
        from: Step,
        cap: usize,
    ) -> Option<Step> {
        let Order { idom_n, vertex, vertices, .. } = *self;
        // Each loop asks for what it reads or writes at random some steps ahead.
        let ahead = |retained: &Summing<T>, counts: &Summing<T>, v: u32| {
            prefetch::read(retained.small(), v as usize);
            prefetch::read(counts.small(), v as usize);
        };
        let over = |retained: &Summing<T>, counts: &Summing<T>| retained.wide() > cap || counts.wide() > cap;
        let end = match from {
            Step::Leaves(first) => {
                let _span = crate::trace::span("retained: leaves");
                for v in first..idom_n.len() as u32 {
                    if let Some(&x) = idom_n.get(v as usize + AHEAD).filter(|&&x| x < raw::ROOT) {
                        ahead(retained, counts, x);
                    }
                    let d = idom_n[v as usize];
                    if d == raw::UNREACHABLE || crate::bits::get(vertices, v as usize) {
                        continue;
                    }
                    let r = retained.get(v);
                    if d == raw::ROOT {
                        *reachable_bytes += r;
                    } else {
                        retained.set(d, retained.get(d) + r);
                        counts.set(d, counts.get(d) + 1);
                    }
                    if over(retained, counts) {
                        return Some(Step::Leaves(v + 1));
                    }
                }
                vertex.len()
            }
            Step::Vertices(end) => end,
        };
        self.vertices(retained, counts, reachable_bytes, end, cap).map(Step::Vertices)
    }
}

/// A [`Packed`] list being summed into, the wide value last written held aside until another
/// object's is. Sums into one object come in runs (its children, in node order; a chain's links,
/// each read just after it was written), and a wide value costs a map lookup at every read and
/// write: 22 M of them, a third of a second, for the children of one array of 44 M slots.
struct Summing<T: Lo> {
    packed: Packed<Vec<T>, Map>,
    /// The object and its value, whatever its list and map say.
    held: Option<(u32, u64)>,
}

impl<T: Lo> Summing<T> {
    /// `n` zeros, made writable first: each is read before it is written.
    fn zeroed(n: usize) -> Summing<T> {
        Summing { packed: Packed { small: crate::resident::zeroed::<T>(n), big: Map::default() }, held: None }
    }

    #[inline]
    fn get(&self, n: u32) -> u64 {
        match self.held {
            Some((k, v)) if k == n => v,
            _ => self.packed.get(n),
        }
    }

    #[inline]
    fn set(&mut self, n: u32, value: u64) {
        match self.held {
            Some((k, _)) if k == n => self.held = Some((n, value)),
            _ if value >= T::MAX.widen() => {
                self.put_back();
                // Marked wide, so that a look at the list alone sees a value there.
                self.packed.small[n as usize] = T::MAX;
                self.held = Some((n, value));
            }
            _ => self.packed.set(n, value),
        }
    }

    /// Sets each object `idom_n` reaches to `value(object)`, the others left alone; the list
    /// written in node order on every core, the wide values gathered and set after.
    fn start_each(&mut self, idom_n: &[u32], value: impl Fn(u32) -> u64 + Sync) {
        use rayon::prelude::*;
        const CHUNK: usize = 1 << 16;
        self.put_back();
        let wide: Vec<(u32, u64)> = self
            .packed
            .small
            .par_chunks_mut(CHUNK)
            .zip(idom_n.par_chunks(CHUNK))
            .enumerate()
            .flat_map_iter(|(k, (small, idom_n))| {
                let mut wide = Vec::new();
                for (i, (slot, &d)) in small.iter_mut().zip(idom_n).enumerate() {
                    if d == raw::UNREACHABLE {
                        continue;
                    }
                    let v = (k * CHUNK + i) as u32;
                    match value(v) {
                        x if x < T::MAX.widen() => *slot = T::truncate(x),
                        x => wide.push((v, x)),
                    }
                }
                wide
            })
            .collect();
        for (v, x) in wide {
            self.set(v, x);
        }
    }

    fn put_back(&mut self) {
        if let Some((k, v)) = self.held.take() {
            self.packed.set(k, v);
        }
    }

    /// The list, for prefetching.
    fn small(&self) -> &[T] {
        &self.packed.small
    }

    /// About how many values are wide (the held one may be in the map too).
    fn wide(&self) -> usize {
        self.packed.big.len() + usize::from(self.held.is_some())
    }

    fn finish(mut self) -> Packed<Vec<T>, Map> {
        self.put_back();
        self.packed
    }
}

impl Summing<u16> {
    /// The same values in 32 bits, for sums that outgrew 16: the map keeps only those of 4 GB
    /// and more (or 2^32 − 1 objects). The 16-bit list is let go first thing after its copy.
    fn widen(mut self) -> Summing<u32> {
        use rayon::prelude::*;
        self.put_back();
        let Packed { small, mut big } = self.packed;
        let mut wide: Vec<u32> = small.par_iter().map(|&s| u32::from(s)).collect();
        drop(small);
        // A value marked wide in 16 bits is in the map.
        big.retain(|&k, v| match u32::try_from(*v) {
            Ok(x) if x < u32::MAX => {
                wide[k as usize] = x;
                false
            }
            _ => {
                wide[k as usize] = u32::MAX;
                true
            }
        });
        Summing { packed: Packed { small: wide, big }, held: None }
    }
}

/// The widths sums are made in, and how each becomes a [`Narrow`] list.
pub(crate) trait Sum: Lo {
    fn finish(sums: Packed<Vec<Self>, Map>) -> Narrow;
}

impl Sum for u16 {
    /// The list as it is; the map's values as [`Wide`].
    fn finish(sums: Packed<Vec<u16>, Map>) -> Narrow {
        let Packed { small, big } = sums;
        // A map's keys are distinct, so `from_pairs` cannot refuse them.
        Packed { small: small.into(), big: Wide::from_pairs(big.into_iter().collect()).unwrap_or_default() }
    }
}

impl Sum for u32 {
    fn finish(sums: Packed<Vec<u32>, Map>) -> Narrow {
        sums.narrow()
    }
}

/// The tree's children, each row in node order; row `n` is the virtual root's. Rows are
/// counted in 16 bits (a map for 65,535 children and more), the starts made from the counts,
/// then each row filled back to front while its count goes down: no list of starts in 32 bits
/// at this, the phase's peak.
pub(crate) fn children_rows(idom_n: &[u32], reached: usize) -> (crate::index::csr::Starts, Vec<u32>) {
    let n = idom_n.len();
    let _span = crate::trace::span("dominators: children");
    let slot = |d: u32| if d == raw::ROOT { n as u32 } else { d };
    // Counted up in place.
    let mut kids = Summing::<u16>::zeroed(n + 1);
    for (v, &d) in idom_n.iter().enumerate() {
        if let Some(&x) = idom_n.get(v + AHEAD).filter(|&&x| x < raw::ROOT) {
            prefetch::read(kids.small(), x as usize);
        }
        if d != raw::UNREACHABLE {
            kids.set(slot(d), kids.get(slot(d)) + 1);
        }
    }
    let mut sum = 0u32;
    let child_starts = crate::index::csr::Starts::collect((0..n + 2).map(|k| {
        let start = sum;
        if k <= n {
            sum += kids.get(k as u32) as u32;
        }
        start
    }));
    let mut children = vec![0u32; reached];
    for v in (0..n as u32).rev() {
        if let Some(&x) = (v as usize).checked_sub(AHEAD).map(|j| &idom_n[j]).filter(|&&x| x < raw::ROOT) {
            prefetch::read(kids.small(), x as usize);
            child_starts.prefetch(x as usize);
        }
        let d = idom_n[v as usize];
        if d != raw::UNREACHABLE {
            let k = slot(d);
            let left = kids.get(k) - 1;
            kids.set(k, left);
            children[child_starts.get(k as usize) as usize + left as usize] = v;
        }
    }
    (child_starts, children)
}

/// Objects per chunk in the first look of each of the DFS's later steps.
const FIRST_LOOK: usize = 1 << 16;

/// A leaf's entry in `pre` (see [`Dominators::compute`]).
const LEAF: u32 = 1 << 31;
/// A leaf found in the weak part.
const LEAF_WEAK: u32 = 1 << 30;
/// The preorder number in a leaf's entry.
const LEAF_NODE: u32 = LEAF_WEAK - 1;

/// Values in 16 or 32 bits, those that do not fit marked with the type's maximum and kept in a
/// map (retained sizes of 64 KB and more, retained counts of 65,535 and more: a few percent).
pub(crate) struct Packed<V, M> {
    pub(crate) small: V,
    pub(crate) big: M,
}

type Map = rustc_hash::FxHashMap<u32, u64>;

/// 16-bit values with the wide ones in [`Wide`]: sums made.
pub(crate) type Narrow = Packed<crate::slab::Slab<u16>, Wide>;

/// Where the values too wide for a packed list are: a map while sums are made, [`Wide`]
/// after.
pub(crate) trait Wides {
    fn wide(&self, n: u32) -> Option<u64>;
}

impl Wides for Map {
    #[inline]
    fn wide(&self, n: u32) -> Option<u64> {
        self.get(&n).copied()
    }
}

impl Wides for Wide {
    #[inline]
    fn wide(&self, n: u32) -> Option<u64> {
        self.get(n)
    }
}

impl<W: Wides> Wides for &W {
    #[inline]
    fn wide(&self, n: u32) -> Option<u64> {
        (*self).wide(n)
    }
}

/// Retained sizes and counts, and the shallow bytes of the objects reached.
pub(crate) struct Sums {
    pub(crate) retained: Narrow,
    pub(crate) counts: Narrow,
    pub(crate) reachable_bytes: u64,
}

/// A list of narrow values, owned or borrowed.
pub(crate) trait Smalls {
    type Elem: Lo;
    fn at(&self, i: usize) -> Self::Elem;
}

impl<T: Lo> Smalls for Vec<T> {
    type Elem = T;
    #[inline]
    fn at(&self, i: usize) -> T {
        self[i]
    }
}

impl<T: Lo> Smalls for crate::slab::Slab<T> {
    type Elem = T;
    #[inline]
    fn at(&self, i: usize) -> T {
        self[i]
    }
}

impl<T: Lo> Smalls for &[T] {
    type Elem = T;
    #[inline]
    fn at(&self, i: usize) -> T {
        self[i]
    }
}

impl<V: Smalls, M: Wides> Packed<V, M> {
    #[inline]
    pub(crate) fn get(&self, n: u32) -> u64 {
        let v = self.small.at(n as usize);
        if v == V::Elem::MAX {
            self.big.wide(n).unwrap_or(V::Elem::MAX.widen())
        } else {
            v.widen()
        }
    }
}

impl Packed<Vec<u32>, Map> {
    /// The finished values in 16 bits, the wider ones in [`Wide`]: each 16-bit value written
    /// over the front of the 32-bit list (value `i` to bytes `2i..2i + 2`, at or before the
    /// bytes `4i..4i + 4` it is read from, so every value is read before it is written over),
    /// and the back half of the list given back. On a dump of deep chains, where half the sizes
    /// are wide, new 16-bit lists and wide values of 64 bits had put the peak 60 MiB higher. One pass on one core: the two
    /// lists are narrowed at once, one on each core (0.06-0.07 s for 20 M objects, against
    /// 0.07-0.09 s for new lists written on both cores).
    pub(crate) fn narrow(self) -> Narrow {
        use rayon::prelude::*;
        let Packed { small: mut list, big: huge_map } = self;
        let n = list.len();
        let wide = list.par_iter().filter(|&&v| v >= u32::from(u16::MAX)).count();
        let mut bits = vec![0u64; n.div_ceil(64)];
        let mut values: Vec<u32> = Vec::with_capacity(wide);
        let mut huge: Vec<(u32, u64)> = Vec::with_capacity(huge_map.len());
        let halves: &mut [u16] = bytemuck::cast_slice_mut(&mut list);
        for i in 0..n {
            let v: u32 = bytemuck::cast([halves[2 * i], halves[2 * i + 1]]);
            halves[i] = if v < u32::from(u16::MAX) {
                v as u16
            } else {
                bits[i / 64] |= 1 << (i % 64);
                values.push(v);
                if v == u32::MAX {
                    huge.push((i as u32, huge_map.get(&(i as u32)).copied().unwrap_or(u64::from(u32::MAX))));
                }
                u16::MAX
            };
        }
        // The bits, values and marks agree by construction: `from_parts` cannot refuse them.
        let big = Wide::from_parts(n, bits.into(), values.into(), huge).unwrap_or_default();
        Packed { small: crate::slab::Slab::over_front(list, n), big }
    }
}

impl<T: Lo> Packed<Vec<T>, Map> {
    #[inline]
    pub(crate) fn set(&mut self, n: u32, value: u64) {
        if value < T::MAX.widen() {
            if self.small[n as usize] == T::MAX {
                self.big.remove(&n);
            }
            self.small[n as usize] = T::truncate(value);
        } else {
            self.small[n as usize] = T::MAX;
            self.big.insert(n, value);
        }
    }
}

/// Calls `f(pv, t, pw)` (the source's entry in `pre`, the target and its entry) for
/// every edge the dominator computation uses: strong edges between reached objects, except
/// those from the weakly reachable part into the strong one. Sources are walked in node order,
/// so the edge arrays are read front to back.
fn for_each_tree_edge(
    index: &Index,
    pre: &[u32],
    strong_end: u32,
    nodes: std::ops::Range<usize>,
    mut f: impl FnMut(u32, u32, u32),
) {
    let g = index.graph();
    for (v, &pv) in pre[nodes.clone()].iter().enumerate().map(|(i, p)| (nodes.start + i, p)) {
        if pv == u32::MAX {
            continue;
        }
        // The targets' entries in `pre` a few rows ahead (the edges are read in order).
        let (a, b) = (g.starts.get(v) as usize, g.starts.get(v + 1) as usize);
        for &t in g.targets.get(a + 32..b + 32).unwrap_or(&[]) {
            crate::prefetch::read(pre, (t & !WEAK) as usize);
        }
        for &t in &g.targets[a..b] {
            if t & WEAK == 0 {
                let pw = pre[t as usize];
                if !(pv >= strong_end && pw < strong_end) {
                    f(pv, t, pw);
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
    use super::{Packed, Summing};

    /// Runs of writes to one object, wide and narrow values, reads of the held one and of
    /// others: every read sees the last write, and the list and map it leaves say the same.
    #[test]
    fn a_held_wide_value_reads_as_written() {
        let mut next = crate::testing::xorshift(0x2545_F491_4F6C_DD1D);
        let n = 40u32;
        let mut summing = Summing::<u16>::zeroed(n as usize);
        let mut model = vec![0u64; n as usize];
        for _ in 0..20_000 {
            // Mostly a few objects, so that the held one is written again and again.
            let k = if next().is_multiple_of(4) { (next() % u64::from(n)) as u32 } else { (next() % 3) as u32 };
            let value = match next() % 5 {
                0 => next() % 70_000,
                1 => u64::from(u16::MAX) - 1 + next() % 3,
                2 => summing.get(k) + next() % 40_000,
                3 => summing.get(k).saturating_sub(next() % 40_000),
                _ => next() >> (next() % 64),
            };
            summing.set(k, value);
            model[k as usize] = value;
            let probe = (next() % u64::from(n)) as u32;
            assert_eq!(summing.get(probe), model[probe as usize]);
        }
        let packed = summing.finish();
        for k in 0..n {
            assert_eq!(packed.get(k), model[k as usize], "object {k}");
            assert_eq!(packed.big.contains_key(&k), model[k as usize] >= u64::from(u16::MAX), "object {k}");
        }
    }

    #[test]
    fn sizes_of_4_gb_and_more_are_kept_whole() {
        let sizes = [0, 1, u64::from(u32::MAX) - 1, u64::from(u32::MAX), 5 << 30, u64::MAX];
        let mut packed = Packed { small: vec![0u32; sizes.len()], big: Default::default() };
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

    /// 32-bit values narrowed to 16 bits where they stand read back as they were: values below,
    /// at and above 65,535, and of 4 GB and more, an odd number of them.
    #[test]
    fn narrowed_values_are_the_values() {
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        let n = 3 * 65_536 + 37;
        let mut packed = Packed { small: vec![0u32; n], big: Default::default() };
        let mut want = vec![0u64; n];
        for (k, w) in want.iter_mut().enumerate() {
            *w = match next() % 6 {
                0..=2 => next() % 65_535,
                3 => [65_535, u64::from(u32::MAX) - 1, u64::from(u32::MAX)][(next() % 3) as usize],
                4 => 65_536 + next() % (u64::from(u32::MAX) - 65_536),
                _ => (1 << 32) + next() % (1 << 40),
            };
            packed.set(k as u32, *w);
        }
        let narrow = packed.narrow();
        for (k, &w) in want.iter().enumerate() {
            assert_eq!(narrow.get(k as u32), w, "position {k}");
            assert_eq!(narrow.small[k], w.min(65_535) as u16, "position {k}");
            assert_eq!(narrow.big.get(k as u32).is_some(), w >= 65_535, "position {k}");
        }
    }

    /// Each object's retained size and count by the definition: every reached object's `size`
    /// and `count` added to it and to each of its dominators in turn, one object at a time; and
    /// the sizes of all of them.
    pub(super) fn sums_up_the_tree(
        idom_n: &[u32],
        size: impl Fn(u32) -> u64,
        count: impl Fn(u32) -> u64,
    ) -> (Vec<u64>, Vec<u64>, u64) {
        let n = idom_n.len();
        let mut want = (vec![0u64; n], vec![0u64; n], 0u64);
        for v in 0..n as u32 {
            if idom_n[v as usize] == super::raw::UNREACHABLE {
                continue;
            }
            want.2 += size(v);
            let mut a = v;
            loop {
                want.0[a as usize] += size(v);
                want.1[a as usize] += count(v);
                match idom_n[a as usize] {
                    super::raw::ROOT => break,
                    d => a = d,
                }
            }
        }
        want
    }

    /// Sums that outgrow 16 bits part way, in the leaves' loop or in the vertices', go on in 32
    /// bits to the sums of every object's dominated objects, as summed one by one up the
    /// tree: on a random tree with leaves, unreachable objects, roots and nodes numbered out of
    /// preorder, with values of 4 GB and more among them.
    #[test]
    fn sums_widened_part_way_are_the_sums() {
        use super::{raw, Order, Step};
        fn values<T: super::Lo>(p: &Packed<Vec<T>, super::Map>) -> Vec<u64> {
            (0..p.small.len() as u32).map(|v| p.get(v)).collect()
        }
        let mut next = crate::testing::xorshift(0xD1B5_4A32_D192_ED03);
        let (m, leaves, lost) = (2000usize, 3000usize, 50usize);
        let n = m + leaves + lost;
        // Node numbers shuffled: preorder `i` (1..=m) is node `node[i]`, then leaves, then lost.
        let mut node: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            node.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let mut idom_n = vec![raw::UNREACHABLE; n];
        let mut vertex = vec![0u32; m + 1];
        for i in 1..=m {
            vertex[i] = node[i - 1];
            let parent =
                if i == 1 || next().is_multiple_of(500) { 0 } else { i - 1 - (next() % 3).min(i as u64 - 2) as usize };
            idom_n[node[i - 1] as usize] = if parent == 0 { raw::ROOT } else { vertex[parent] };
        }
        for l in 0..leaves {
            let d = if next().is_multiple_of(40) { raw::ROOT } else { vertex[1 + (next() % m as u64) as usize] };
            idom_n[node[m + l] as usize] = d;
        }
        let mut vertices = vec![0u64; n.div_ceil(64)];
        for &v in &vertex[1..] {
            crate::bits::set(&mut vertices, v as usize);
        }
        // Leaves of 20 KB and more, so that the leaves' loop makes wide values too.
        let size = |v: u32| match v {
            v if v % 997 == 0 => 5 << 30,
            v if !crate::bits::get(&vertices, v as usize) => 20_000 + u64::from(v % 7) * 1000,
            v => 100 + u64::from(v % 7) * 50,
        };
        // A leaf counts one (as every object does in an analysis); vertices 200, so that counts
        // outgrow 16 bits too.
        let count = |v: u32| if crate::bits::get(&vertices, v as usize) { 200 } else { 1 };
        let want = sums_up_the_tree(&idom_n, size, count);
        assert!(want.1.iter().filter(|&&c| c >= 65535).count() > 100, "counts too wide for 16 bits");
        assert!(want.0.iter().filter(|&&r| (65535..1 << 32).contains(&r)).count() > 100);
        assert!(want.0.iter().any(|&r| r >= 1 << 32), "sizes too wide for 32 bits");
        // No parts: the vertices' loop runs on one core.
        let parts = super::Parts::default();
        let split = super::Split::new(&parts, super::Helping::Never);
        let order = Order { idom_n: &idom_n, vertex: &vertex, vertices: &vertices, split: &split };
        // Caps that stop in the leaves' loop at several places, in the vertices' loop, and never.
        let mut stopped = (0, 0);
        for cap in [2, 8, 13, 21, 34, 55, 100, 200, 400, 800, usize::MAX] {
            let mut retained = Summing::<u16>::zeroed(n);
            let mut counts = Summing::<u16>::zeroed(n);
            retained.start_each(&idom_n, size);
            counts.start_each(&idom_n, count);
            let mut bytes = 0;
            let got = match order.sum(&mut retained, &mut counts, &mut bytes, Step::Leaves(0), cap) {
                None => (values(&retained.finish()), values(&counts.finish())),
                Some(at) => {
                    match at {
                        Step::Leaves(_) => stopped.0 += 1,
                        Step::Vertices(_) => stopped.1 += 1,
                    }
                    let (mut retained, mut counts) = (retained.widen(), counts.widen());
                    assert!(order.sum(&mut retained, &mut counts, &mut bytes, at, usize::MAX).is_none());
                    (values(&retained.finish()), values(&counts.finish()))
                }
            };
            let first = (0..n).find(|&v| (got.0[v], got.1[v]) != (want.0[v], want.1[v]));
            assert!(
                first.is_none() && bytes == want.2,
                "cap {cap}: node {first:?} {:?}",
                first.map(|v| (got.0[v], want.0[v], got.1[v], want.1[v], idom_n[v]))
            );
        }
        assert!(stopped.0 >= 4 && stopped.1 >= 2, "{stopped:?}");
    }
}
