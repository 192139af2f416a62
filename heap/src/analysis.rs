//! A fully analysed dump: the index, the dominator tree and the class histogram, plus the
//! lazily built shortest paths; the one value front ends read.

use std::path::Path;
use std::sync::OnceLock;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::by_class::ByClass;
use crate::dominators::{Dominators, ROOT, UNREACHABLE};
use crate::error::Result;
use crate::hprof::RootKind;
use crate::index::classes::ClassId;
use crate::index::csr::{Csr, WEAK};
use crate::index::{Index, Node, ObjectKind, Options, Phase};
use crate::paths::GcPaths;

pub use crate::histogram::{shallow_histogram, ClassStats};

/// An analysed dump.
pub struct Heap {
    /// The index.
    pub index: Index,
    /// The dominator tree and retained sizes.
    pub dominators: Dominators,
    /// Per class (indexed like `index.classes`).
    pub histogram: Vec<ClassStats>,
    pub(crate) roots_by_node: FxHashMap<Node, Vec<RootKind>>,
    pub(crate) paths: OnceLock<GcPaths>,
    pub(crate) incoming: OnceLock<Csr>,
    pub(crate) native: OnceLock<FxHashMap<Node, u64>>,
    pub(crate) by_class: OnceLock<ByClass>,
    /// Every object's [`crate::reachability::Reachability`], made on first use.
    pub(crate) reachability: OnceLock<Vec<u8>>,
    /// [`Heap::histogram_order`], made on first use.
    pub(crate) histogram_order: OnceLock<Vec<ClassId>>,
    /// Whose rules the dominators, retained sizes, histogram and paths follow.
    pub semantics: crate::Semantics,
}

impl Heap {
    /// Opens and analyses the dump at `path`.
    pub fn open(path: &Path, options: Options<'_>) -> Result<Heap> {
        let index = Index::open(path, options)?;
        Ok(Heap::analyse(index, options))
    }

    /// Analyses an index.
    pub fn analyse(mut index: Index, options: Options<'_>) -> Heap {
        if let Some(cb) = options.progress {
            cb(Phase::Dominators, 0, 1);
        }
        if options.semantics != crate::Semantics::Heaptui {
            let mut histogram = shallow_histogram(&index);
            let outcome = crate::semantics::analyse(&index, options.semantics, &histogram);
            for (s, r) in histogram.iter_mut().zip(outcome.retained_by_class) {
                s.retained_bytes = r;
            }
            if let Some(cb) = options.progress {
                cb(Phase::Dominators, 1, 1);
                cb(Phase::Histogram, 1, 1);
            }
            let mut heap = Heap::assemble(index, outcome.dominators, histogram, OnceLock::from(outcome.paths));
            heap.semantics = options.semantics;
            return heap;
        }
        // Past the second pass an analysis reads an id now and then, never in bulk: the map's
        // memory goes to the dominator tree instead (ids are then read from the records).
        index.thin_ids();
        // The shortest paths from the roots (for leak traces) on the other core: both are one
        // sequential sweep of the graph.
        // Both read which objects hold no strong reference: noted as the index was built, or
        // for an index from its cache made here on both cores first.
        let span = crate::trace::span("dominators: strong leaves");
        index.strong_leaves();
        drop(span);
        // Held by the steps of the two cores that each hold much memory for a moment (semi-NCA
        // and the String copies' keys), so that the two moments never meet.
        let peak = std::sync::Mutex::new(());
        let (tree, (mut paths, shallow)) = rayon::join(
            || {
                let _span = crate::trace::span("dominators: tree");
                Dominators::tree(&index, &peak)
            },
            || {
                let span = crate::trace::span("paths");
                let paths = GcPaths::compute_with(&index, &crate::paths::path_policy_for(&index));
                drop(span);
                // The tree takes longer than the paths on every shape of dump measured: what
                // needs no dominators fits in what is left of this core (the duplicate strings
                // report's sort, the histogram's counts).
                index.find_string_copies(&peak);
                let _span = crate::trace::span("histogram: shallow");
                (paths, shallow_histogram(&index))
            },
        );
        // The paths keep only what differs from the dominator tree, before the tree's sizes are
        // summed (on both cores: the paths' full parent list would be at that peak otherwise).
        paths.keep_differences(&tree.idom);
        let dominators = Dominators::finish(&index, tree);
        // What the two passes freed goes back to the kernel before the histogram (glibc keeps
        // medium-sized blocks in its arenas).
        let span = crate::trace::span("dominators: release");
        index.release_pages();
        drop(span);
        if let Some(cb) = options.progress {
            cb(Phase::Dominators, 1, 1);
            cb(Phase::Histogram, 0, 1);
        }
        let span = crate::trace::span("histogram");
        let histogram = crate::histogram::with_retained(&index, &dominators, shallow);
        drop(span);
        if let Some(cb) = options.progress {
            cb(Phase::Histogram, 1, 1);
        }
        index.release_pages();
        Heap::assemble(index, dominators, histogram, OnceLock::from(paths))
    }

    /// A heap from its computed parts (the analysis, or a cache file).
    pub(crate) fn assemble(
        index: Index,
        dominators: Dominators,
        histogram: Vec<ClassStats>,
        paths: OnceLock<GcPaths>,
    ) -> Heap {
        let mut roots_by_node: FxHashMap<Node, Vec<RootKind>> = FxHashMap::default();
        for &(n, k) in index.roots() {
            let v = roots_by_node.entry(n).or_default();
            if !v.contains(&k) {
                v.push(k);
            }
        }
        Heap {
            index,
            dominators,
            histogram,
            roots_by_node,
            paths,
            incoming: OnceLock::new(),
            native: OnceLock::new(),
            by_class: OnceLock::new(),
            reachability: OnceLock::new(),
            histogram_order: OnceLock::new(),
            semantics: crate::Semantics::Heaptui,
        }
    }

    /// Retained size by class as the histogram has it, the tree cut into tasks at every object
    /// retaining more than `big` objects (for tests: the histogram cuts at 1/64 of them).
    #[doc(hidden)]
    pub fn retained_by_class_in_tasks(&self, big: u64) -> Vec<u64> {
        crate::histogram::retained_by_class(&self.index, &self.dominators, big)
    }

    /// Shortest paths from the GC roots (computed on first use). Under heaptui's rules, with the
    /// default policy: the JDK's finalizer and cleaner queues are not followed, and known
    /// framework leaks that apply to this dump's device only where no other path exists. Under
    /// a peer's, the breadth-first search of its roots over what it counts as references.
    pub fn paths(&self) -> &GcPaths {
        self.paths.get_or_init(|| match self.semantics {
            crate::Semantics::Heaptui => {
                GcPaths::compute_with(&self.index, &crate::paths::path_policy_for(&self.index))
            }
            s => crate::semantics::paths(&self.index, s),
        })
    }

    /// The size model's name, and the rule set's when it is not heaptui's own
    /// (`hotspot, mat rules`): what a report's first line and the UI's status line say.
    pub fn model_and_rules(&self) -> String {
        match self.semantics {
            crate::Semantics::Heaptui => self.index.sizer.model.name().to_string(),
            s => format!("{}, {} rules", self.index.sizer.model.name(), s.name()),
        }
    }

    /// The root kinds naming `n` (empty if it is not a GC root).
    pub fn root_kinds(&self, n: Node) -> &[RootKind] {
        self.roots_by_node.get(&n).map_or(&[], |v| v.as_slice())
    }

    /// The name of thread object `t` (its `name` field's text).
    pub fn thread_name(&self, t: Node) -> Option<String> {
        let idx = &self.index;
        idx.field_node(t, "name").and_then(|s| idx.string_value(s))
    }

    /// Number of distinct objects that are GC roots under the heap's rules (heaptui's: every
    /// object a root record names).
    pub fn gc_root_objects(&self) -> usize {
        match self.semantics {
            crate::Semantics::Heaptui => self.roots_by_node.len(),
            s => crate::semantics::roots(&self.index, s).roots.len(),
        }
    }

    /// Number of root records that count under the heap's rules (heaptui's: every record naming
    /// an object of the dump; perflib's: all but ROOT THREAD OBJECT, and Android's UNREACHABLE).
    pub fn gc_root_records(&self) -> usize {
        match self.semantics {
            crate::Semantics::Heaptui => self.index.roots().len(),
            s => crate::semantics::roots(&self.index, s).records,
        }
    }

    /// The immediate dominator of `n`: `Some(Some(d))`, `Some(None)` for the virtual root,
    /// `None` when unreachable.
    pub fn dominator(&self, n: Node) -> Option<Option<Node>> {
        match self.dominators.idom(n) {
            UNREACHABLE => None,
            ROOT => Some(None),
            d => Some(Some(d)),
        }
    }

    /// Nodes of all objects whose class is exactly `class`.
    pub fn instances_of(&self, class: ClassId) -> Vec<Node> {
        let idx = &self.index;
        idx.nodes_where(|n| idx.class_of(n) == class)
    }

    /// Nodes of all objects whose class is exactly `class`, largest retained first (ties in id
    /// order). Every class's list is made on first use (a pass over every object, then a sort
    /// per class on every core; four bytes an object), then this is a lookup.
    pub fn instances_by_retained(&self, class: ClassId) -> &[Node] {
        self.by_class().of(class)
    }

    /// Every object grouped by class (see [`Heap::instances_by_retained`]), made on first use.
    pub fn by_class(&self) -> &ByClass {
        self.by_class.get_or_init(|| ByClass::build(&self.index, &self.dominators))
    }

    /// The objects grouped by class if they have been already (the UI makes them on its warm-up
    /// thread; a one-off lookup need not pay for every class's sort).
    pub fn by_class_if_made(&self) -> Option<&ByClass> {
        self.by_class.get()
    }

    /// The `k` objects with the largest retained size, largest first.
    pub fn top_retained(&self, k: usize) -> Vec<Node> {
        self.top_retained_by(k, self.index.len() / 64 + 4096).0
    }

    /// [`top_retained`](Self::top_retained) with the tree's search cut short past `budget`
    /// children looked at, and how the answer was found: `"tree"`, `"wide"` or `"all"` (for
    /// tests, which ask for each way).
    #[doc(hidden)]
    pub fn top_retained_by(&self, k: usize, budget: usize) -> (Vec<Node>, &'static str) {
        use std::cmp::Reverse;
        let d = &self.dominators;
        // Best first down the dominator tree: an object retains no more than its dominator, so
        // the objects come off the heap largest first, and only the children of those taken are
        // looked at (on HeapGen's dump, a few thousand where a look at every object took 0.024
        // s; on a dump of chains, 0.05 s). It goes on past the `k`th while objects tie with it,
        // so that ties are ranked by node as everywhere else. Where the objects taken have many
        // children (the millions the virtual root dominates in HeapGen's dump and in one of
        // linked lists; a huge array's elements), those retaining 64 KB or more are looked at
        // instead when they are few, or else every object.
        if k == 0 {
            return (Vec::new(), "tree");
        }
        let mut looked = 0usize;
        let mut heap: std::collections::BinaryHeap<(u64, Reverse<Node>)> = Default::default();
        let mut found: Vec<(u64, Reverse<Node>)> = Vec::new();
        // The children of the object last taken (`None` first: the virtual root's) go on the
        // heap before the next is taken.
        let mut parent = None;
        loop {
            let children = d.children(parent);
            looked += children.len();
            if looked > budget {
                return match self.top_retained_among_wide(k) {
                    Some(top) => (top, "wide"),
                    None => (self.top_retained_of_all(k), "all"),
                };
            }
            heap.extend(best_with_ties(children.iter().map(|&c| (d.retained(c), Reverse(c))), k));
            let Some(top) = heap.pop() else { break };
            if found.len() >= k && top.0 < found[k - 1].0 {
                break;
            }
            found.push(top);
            parent = Some(top.1 .0);
        }
        (first_k(found, k), "tree")
    }

    /// [`top_retained`](Self::top_retained) among the objects whose retained sizes are too wide
    /// for 16 bits, where those are few (0.7 % of HeapGen's dump's objects, where in a dump of
    /// chains or linked lists most objects are): on HeapGen's dump 0.003 s against 0.024 s for
    /// a look at every object. A size is kept apart only when 16 bits cannot hold it, so every
    /// other object retains less than any of them: when they are `k` or more, the best `k` are
    /// among them. `None` otherwise.
    fn top_retained_among_wide(&self, k: usize) -> Option<Vec<Node>> {
        use std::cmp::Reverse;
        let d = &self.dominators;
        let (n, wide) = (self.index.len(), &d.big_retained);
        if k == 0 || wide.len() < k || wide.len() > n / 8 {
            return None;
        }
        const WORDS: usize = 1 << 14;
        let all: Vec<(u64, Reverse<Node>)> = (0..n.div_ceil(64).div_ceil(WORDS))
            .into_par_iter()
            .flat_map_iter(|r| {
                let keyed =
                    wide.positions_in(r * WORDS..(r + 1) * WORDS).map(|v| (d.retained(Node(v)), Reverse(Node(v))));
                best_with_ties(keyed, k)
            })
            .collect();
        Some(first_k(all, k))
    }

    /// [`top_retained`](Self::top_retained) by a look at every object: the best `k` of each run
    /// of a million objects, on every core, then the best of those. Each run keeps its best so
    /// far in a heap, the least of them on top (a list of every object would be 4 bytes each at
    /// the report's peak).
    fn top_retained_of_all(&self, k: usize) -> Vec<Node> {
        use std::cmp::Reverse;
        let d = &self.dominators;
        let n = self.index.len() as u32;
        const RUN: u32 = 1 << 20;
        let all: Vec<(u64, Reverse<Node>)> = (0..n.div_ceil(RUN))
            .into_par_iter()
            .flat_map_iter(|r| {
                let mut best: std::collections::BinaryHeap<Reverse<(u64, Reverse<Node>)>> =
                    std::collections::BinaryHeap::with_capacity(k.min(RUN as usize).saturating_add(1));
                for v in (r * RUN..r.saturating_add(1).saturating_mul(RUN).min(n)).map(Node) {
                    if k == 0 || d.idom(v) == UNREACHABLE {
                        continue;
                    }
                    let key = (d.retained(v), Reverse(v));
                    if key.0 == 0 || (best.len() == k && best.peek().is_some_and(|w| key <= w.0)) {
                        continue;
                    }
                    best.push(Reverse(key));
                    if best.len() > k {
                        best.pop();
                    }
                }
                best.into_iter().map(|r| r.0)
            })
            .collect();
        first_k(all, k)
    }

    /// Objects `n` dominates directly (`None`: the virtual root), largest retained first.
    pub fn dominated(&self, n: Option<Node>) -> Vec<Node> {
        let d = &self.dominators;
        // Sort (size, node) pairs: one random read per child instead of two per comparison.
        let mut keyed: Vec<(std::cmp::Reverse<u64>, Node)> =
            d.children(n).iter().map(|&c| (std::cmp::Reverse(d.retained(c)), c)).collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, c)| c).collect()
    }

    /// Objects that refer to `n` (one entry per referring object, ascending), with `true` where
    /// the only references are weak referents. The reverse graph is built on first use.
    pub fn referrers(&self, n: Node) -> Vec<(Node, bool)> {
        let rev = self.incoming.get_or_init(|| reverse(&self.index));
        let mut out: Vec<(Node, bool)> = Vec::new();
        for &e in rev.edges(n.0) {
            let (v, weak) = (Node(e & !WEAK), e & WEAK != 0);
            match out.last_mut() {
                Some(last) if last.0 == v => last.1 &= weak,
                _ => out.push((v, weak)),
            }
        }
        out
    }

    /// The retained set of a group of objects (MAT's definition, over heaptui's roots and graph
    /// whatever the heap's rule set): everything the roots reach only
    /// through members of `set`, the members included. Larger than the union of the members'
    /// dominator subtrees when members share objects. With `weak_keeps_alive` false only strong
    /// references keep objects alive (like retained sizes); true is MAT's default, where the
    /// referents of weak and soft references count as references too.
    pub fn retained_set(&self, set: &[Node], weak_keeps_alive: bool) -> Vec<Node> {
        let idx = &self.index;
        let mut excluded = vec![false; idx.len()];
        for &n in set {
            excluded[n.index()] = true;
        }
        let mut seen = vec![false; idx.len()];
        let mut stack: Vec<Node> = Vec::new();
        for &(r, _) in idx.roots() {
            if !excluded[r.index()] && !seen[r.index()] {
                seen[r.index()] = true;
                stack.push(r);
            }
        }
        while let Some(v) = stack.pop() {
            // A live object keeps its class alive, as in the dominator computation.
            let class = idx.class(v).node.map(|c| (c, false));
            for (t, weak) in idx.references_weak(v).chain(class) {
                if (weak_keeps_alive || !weak) && !excluded[t.index()] && !seen[t.index()] {
                    seen[t.index()] = true;
                    stack.push(t);
                }
            }
        }
        idx.nodes()
            .filter(|&n| {
                let reach = self.dominators.reach(n);
                !seen[n.index()]
                    && (reach == crate::dominators::Reach::Strong
                        || (weak_keeps_alive && reach == crate::dominators::Reach::Weak))
            })
            .collect()
    }

    /// Native memory registered for `n` with a `NativeAllocationRegistry` (Android 8+): a
    /// `sun.misc.Cleaner` whose referent is `n` and whose thunk belongs to a registry of `size`
    /// bytes. 0 when nothing is registered, or the allocation was freed (its cleaner ran).
    pub fn native_size(&self, n: Node) -> u64 {
        self.native.get_or_init(|| registered_native_sizes(self)).get(&n).copied().unwrap_or(0)
    }

    /// Total registered native memory.
    pub fn native_total(&self) -> u64 {
        self.native.get_or_init(|| registered_native_sizes(self)).values().sum()
    }

    /// Retained size of `n` split by heap (indexed like `index.heaps`): each dominated object's
    /// shallow size counts toward the heap it lives in (perflib and ahat report it so).
    pub fn retained_by_heap(&self, n: Node) -> Vec<u64> {
        let idx = &self.index;
        let mut out = vec![0u64; idx.heaps.len()];
        if self.dominators.idom(n) == UNREACHABLE {
            return out;
        }
        let mut stack = vec![n];
        while let Some(v) = stack.pop() {
            if let Some(slot) = out.get_mut(idx.heap_of(v)) {
                *slot += idx.shallow_size(v);
            }
            stack.extend_from_slice(self.dominators.children(Some(v)));
        }
        out
    }

    /// Whether class `class` is `ancestor` or inherits from it.
    pub fn is_subclass(&self, class: ClassId, ancestor: ClassId) -> bool {
        let mut cur = Some(class);
        let mut steps = 0;
        while let Some(c) = cur {
            if c == ancestor {
                return true;
            }
            steps += 1;
            if steps > 512 {
                return false;
            }
            cur = self.index.classes.get(c.index()).and_then(|k| k.super_class);
        }
        false
    }

    /// Whether `n` is a class object, an instance, or an array.
    pub fn kind(&self, n: Node) -> ObjectKind {
        self.index.kind(n)
    }
}

/// The nodes of the best `k` of `keyed`, largest first (of equal sizes, the lower node first).
fn first_k(mut keyed: Vec<(u64, std::cmp::Reverse<Node>)>, k: usize) -> Vec<Node> {
    keyed.sort_unstable_by(|a, b| b.cmp(a));
    keyed.truncate(k);
    keyed.into_iter().map(|(_, std::cmp::Reverse(n))| n).collect()
}

/// The best `k` of `keyed` (largest first by key) and every one tying the `k`th, in no order;
/// none of size 0 (objects that retain nothing are not ranked).
fn best_with_ties(
    keyed: impl Iterator<Item = (u64, std::cmp::Reverse<Node>)>,
    k: usize,
) -> Vec<(u64, std::cmp::Reverse<Node>)> {
    let mut keyed: Vec<_> = keyed.filter(|x| x.0 > 0).collect();
    if keyed.len() > k && k > 0 {
        keyed.select_nth_unstable_by(k - 1, |a, b| b.0.cmp(&a.0));
        let kth = keyed[k - 1].0;
        let mut rest = keyed.split_off(k);
        rest.retain(|x| x.0 >= kth);
        keyed.append(&mut rest);
    }
    keyed
}

/// Native memory registered with `NativeAllocationRegistry` (Android 8+), by the object it
/// belongs to: for each live `sun.misc.Cleaner` whose thunk is a registry's, the registry's
/// `size` goes to the Cleaner's referent. Where libcore can register malloc'd memory, the size's
/// lowest bit says whether it was (libcore's `NativeAllocationRegistry` sets it); it is not a
/// byte, so it is cleared, as Perfetto's trace processor does
/// (`GetSizeFromNativeAllocationRegistry`).
fn registered_native_sizes(heap: &Heap) -> FxHashMap<Node, u64> {
    let idx = &heap.index;
    let mut out = FxHashMap::default();
    let Some(cleaner) = idx.classes_named("sun.misc.Cleaner").next() else { return out };
    for c in heap.instances_of(cleaner) {
        // A Cleaner that ran is unlinked from the cleaners' list: its `next` points at itself.
        if idx.field_node(c, "next") == Some(c) {
            continue;
        }
        let Some(referent) = idx.field_node(c, "referent") else { continue };
        let Some(thunk) = idx.field_node(c, "thunk") else { continue };
        if idx.class(thunk).name != "libcore.util.NativeAllocationRegistry$CleanerThunk" {
            continue;
        }
        let Some(registry) = idx.field_node(thunk, "this$0") else { continue };
        if let Some(size) = idx.field(registry, "size").and_then(crate::values::Value::as_i64) {
            *out.entry(referent).or_insert(0) += size.max(0) as u64 & !1;
        }
    }
    out
}

/// The reverse graph: for each object, who refers to it (sources ascending; [`WEAK`] marks a
/// referent edge).
fn reverse(index: &Index) -> Csr {
    let g = index.graph();
    let n = index.len();
    let mut starts = vec![0u32; n + 1];
    for &t in g.targets.iter() {
        starts[(t & !WEAK) as usize + 1] += 1;
    }
    for i in 1..=n {
        starts[i] += starts[i - 1];
    }
    let mut fill = starts.clone();
    let mut targets = vec![0u32; g.targets.len()];
    for v in 0..n as u32 {
        for &t in g.edges(v) {
            let k = (t & !WEAK) as usize;
            targets[fill[k] as usize] = v | (t & WEAK);
            fill[k] += 1;
        }
    }
    Csr { starts: crate::index::csr::Starts::new(&starts), targets: targets.into() }
}
