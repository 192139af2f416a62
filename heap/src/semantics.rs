//! Whose rules: the rule sets of the peers, so that heaptui's numbers can be checked against the
//! tool a developer knows.
//!
//! Every tool decides differently which records are GC roots, which references keep an object
//! alive, whether garbage takes part in the dominator tree and whether a class's own size counts
//! in what it retains. `docs/peers.md` sets out each one's rules with the files and lines they
//! come from; [`Semantics`] names them. heaptui's own rules are the optimised engine in
//! [`crate::dominators`]; a peer's rules run here, over the same reference graph: a rule set
//! says which of an object's references count (and adds the few a peer invents, such as MAT's
//! instance → class edge), a search marks what is live, semi-NCA gives the dominators of the
//! graph the peer's dominator computation sees, and the sizes are summed the peer's way.
//!
//! This path is written for exactness rather than speed (it keeps a preorder, parents and the
//! predecessors in memory, as the default engine does, but does not prune leaves).

use rustc_hash::FxHashMap;

use crate::dominators::{raw, Dominators, Packed, Sums, REACH_NONE, REACH_STRONG};
use crate::hprof::RootKind;
use crate::index::classes::{ClassKind, Strength};
use crate::index::csr::WEAK;
use crate::index::{Index, Node};
use crate::paths::{GcPaths, Parents, IS_ROOT, NONE};

/// A rule set: whose numbers to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Semantics {
    /// heaptui's own (ahat's and LeakCanary's): every root record is a root; a Reference's
    /// `referent` keeps nothing alive; objects only referents reach hang off the virtual root;
    /// garbage takes no part; a live instance keeps its class alive.
    #[default]
    Heaptui,
    /// VisualVM's heap library: referents of Soft/Weak/Final/Phantom references give no
    /// reachability but do count as referrers in the dominator computation, and so do
    /// unreachable objects (an object garbage refers to is dominated by nobody); class objects'
    /// own sizes are not in retained sizes.
    Visualvm,
    /// Eclipse MAT's defaults: roots are the global root records, thread-local roots are
    /// references from their thread; every reference is strong, referents included; an instance
    /// refers to its class, a class to its loader and superclass; garbage is discarded.
    Mat,
    /// ahat's defaults (`--retained soft`): every root record is a root; strong and soft
    /// references count; a class refers only to its statics; garbage takes no part.
    Ahat,
    /// Android Studio's perflib: roots are every record but ROOT THREAD OBJECT; no referent
    /// counts; a class refers only to its statics; garbage retains its own size.
    Perflib,
}

impl Semantics {
    /// Every rule set, heaptui's first.
    pub const ALL: [Semantics; 5] =
        [Semantics::Heaptui, Semantics::Visualvm, Semantics::Mat, Semantics::Ahat, Semantics::Perflib];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Semantics::Heaptui => "heaptui",
            Semantics::Visualvm => "visualvm",
            Semantics::Mat => "mat",
            Semantics::Ahat => "ahat",
            Semantics::Perflib => "perflib",
        }
    }
}

/// What a peer's rules give: the tree with its sizes, retained size by class (indexed like
/// `index.classes`) and the shortest paths from the peer's roots.
pub(crate) struct Outcome {
    pub(crate) dominators: Dominators,
    pub(crate) retained_by_class: Vec<u64>,
    pub(crate) paths: GcPaths,
}

/// What kind of node, made once.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Instance,
    ObjectArray,
    PrimitiveArray,
    Class,
}

/// The graph a rule set sees: its roots, and which references of each object count.
struct Rules<'a> {
    index: &'a Index,
    semantics: Semantics,
    kinds: Vec<Kind>,
    /// Per class: whether its instances' `referent` gives reachability.
    referent_live: Vec<bool>,
    /// Per class: whether its instances' `referent` is a referrer in the dominator graph.
    referent_tree: Vec<bool>,
    /// The roots, each once, in record order.
    roots: Vec<u32>,
    /// References a rule set adds from an object (MAT: a thread to its locals).
    added: FxHashMap<u32, Vec<u32>>,
    /// MAT: the class object of `java.lang.Class`, which every class object refers to.
    class_class: Option<u32>,
    /// VisualVM: the instance through which its search made each class live, and the class.
    class_links: FxHashMap<u32, u32>,
}

/// Which references: those that make an object live, or those the dominator computation reads
/// (VisualVM's differ: referents and garbage are referrers there, but make nothing live).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    Live,
    Tree,
    /// The dominator graph's references but VisualVM's instance -> class links: what its tree
    /// objects are made of (`TreeObject` reads an object's fields, statics and loader only).
    Fields,
}

/// The root kinds that name a thread's local: MAT makes such a record a reference from that
/// thread when it knows the thread, and a root otherwise (`docs/peers.md`, MAT's root mapping).
fn thread_local_kind(k: RootKind) -> bool {
    matches!(k, RootKind::JniLocal | RootKind::JavaFrame | RootKind::NativeStack | RootKind::ThreadBlock)
}

impl<'a> Rules<'a> {
    fn new(index: &'a Index, semantics: Semantics) -> Rules<'a> {
        // From the class table, not the records' tags: reading those would bring the whole
        // dump into memory.
        let jlc = index.java_lang_class();
        let kinds = {
            use rayon::prelude::*;
            (0..index.len() as u32)
                .into_par_iter()
                .map(|v| {
                    let c = index.class_of(Node(v));
                    match index.classes[c.index()].kind {
                        ClassKind::ObjectArray => Kind::ObjectArray,
                        ClassKind::PrimitiveArray(_) => Kind::PrimitiveArray,
                        ClassKind::Instance if c == jlc && index.as_class(Node(v)).is_some() => Kind::Class,
                        ClassKind::Instance => Kind::Instance,
                    }
                })
                .collect()
        };
        // VisualVM skips the referents of the four public Reference kinds and their subclasses,
        // not of a class extending `java.lang.ref.Reference` directly (`NearestGCRoot`
        // `REF_CLASSES`, `isSpecialReference`).
        let visualvm_special = |c: usize| {
            let mut cur = Some(crate::ClassId(c as u32));
            // A hostile dump's superclasses may run in a circle: a real chain is far shorter.
            for _ in 0..MAX_SUPERCLASSES {
                let Some(k) = cur else { break };
                let cls = &index.classes[k.index()];
                if matches!(
                    cls.name.as_str(),
                    "java.lang.ref.WeakReference"
                        | "java.lang.ref.SoftReference"
                        | "java.lang.ref.FinalReference"
                        | "java.lang.ref.PhantomReference"
                ) {
                    return true;
                }
                cur = cls.super_class;
            }
            false
        };
        let (mut referent_live, mut referent_tree) = (Vec::new(), Vec::new());
        for (c, cls) in index.classes.iter().enumerate() {
            let strength = cls.referent.map(|r| r.1);
            let (live, tree) = match semantics {
                Semantics::Heaptui | Semantics::Perflib => (false, false),
                Semantics::Mat => (true, true),
                Semantics::Ahat => {
                    let soft = strength == Some(Strength::Soft);
                    (soft, soft)
                }
                Semantics::Visualvm => (!visualvm_special(c), true),
            };
            referent_live.push(live);
            referent_tree.push(tree);
        }
        let RootSet { roots, added, .. } = roots(index, semantics);
        let class_class = match semantics {
            Semantics::Mat => index.classes[index.java_lang_class().index()].node.map(|n| n.0),
            _ => None,
        };
        Rules {
            index,
            semantics,
            kinds,
            referent_live,
            referent_tree,
            roots,
            added,
            class_class,
            class_links: Default::default(),
        }
    }

    /// Calls `f` with each reference of `v` that counts for `usage`, in the graph's order.
    #[inline]
    fn edges(&self, v: u32, usage: Use, mut f: impl FnMut(u32)) {
        self.edges_marked(v, usage, |t, _| f(t));
    }

    /// [`Rules::edges`], each with `true` when it is a Reference's `referent` (for the paths'
    /// weak steps).
    #[inline]
    fn edges_marked(&self, v: u32, usage: Use, mut f: impl FnMut(u32, bool)) {
        let idx = self.index;
        let mut row = idx.graph().edges(v);
        let s = self.semantics;
        match self.kinds[v as usize] {
            Kind::Class => {
                // The graph has a class's statics, then its loader, then its superclass.
                let c = idx.as_class(Node(v)).map(|c| &idx.classes[c.index()]);
                let resolves = |id: u64| id != 0 && idx.node(id).is_some();
                let loader = c.is_some_and(|c| resolves(c.loader));
                let sup = c.and_then(|c| c.super_class).is_some_and(|k| resolves(idx.classes[k.index()].id));
                let keep_loader = matches!(s, Semantics::Mat | Semantics::Visualvm);
                let keep_super = s == Semantics::Mat;
                let statics = row.len().saturating_sub(usize::from(loader) + usize::from(sup));
                let (head, tail) = row.split_at(statics.min(row.len()));
                row = head;
                let mut tail = tail.iter();
                if loader {
                    let l = tail.next();
                    if keep_loader {
                        l.into_iter().for_each(|&t| f(t, false));
                    }
                }
                if sup && keep_super {
                    tail.next().into_iter().for_each(|&t| f(t, false));
                }
                if let Some(cc) = self.class_class {
                    f(cc, false);
                }
            }
            Kind::Instance | Kind::ObjectArray | Kind::PrimitiveArray => {
                if s == Semantics::Mat {
                    // MAT's first outbound reference of every object is its class.
                    if let Some(c) = idx.class(Node(v)).node {
                        f(c.0, false);
                    }
                }
            }
        }
        let class = idx.class_of(Node(v)).index();
        let referent_counts = match usage {
            Use::Live => self.referent_live[class],
            Use::Tree | Use::Fields => self.referent_tree[class],
        };
        for &t in row {
            if t & WEAK == 0 {
                f(t, false);
            } else if referent_counts {
                f(t & !WEAK, true);
            }
        }
        if let Some(more) = self.added.get(&v) {
            more.iter().for_each(|&t| f(t, false));
        }
        if usage == Use::Tree {
            if let Some(&c) = self.class_links.get(&v) {
                f(c, false);
            }
        }
    }
}

/// The roots under a rule set.
pub(crate) struct RootSet {
    /// Each root object once, in record order.
    pub(crate) roots: Vec<u32>,
    /// The references the rule set makes of some records instead (MAT: from a thread to the
    /// locals of its stack).
    pub(crate) added: FxHashMap<u32, Vec<u32>>,
    /// How many root records the rule set counts (perflib's and VisualVM's root counts are
    /// records, MAT's objects).
    pub(crate) records: usize,
}

/// The roots under `semantics`.
pub(crate) fn roots(index: &Index, semantics: Semantics) -> RootSet {
    let mut roots = Vec::new();
    let mut added: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut seen = vec![false; index.len()];
    let mut records = 0;
    for &(n, kind) in index.roots() {
        let root = match semantics {
            Semantics::Perflib => kind != RootKind::ThreadObject,
            Semantics::Mat if thread_local_kind(kind) => match index.root_thread(n) {
                Some(t) => {
                    added.entry(t.0).or_default().push(n.0);
                    false
                }
                None => true,
            },
            _ => true,
        };
        records += usize::from(root);
        if root && !std::mem::replace(&mut seen[n.index()], true) {
            roots.push(n.0);
        }
    }
    // perflib also takes Android's UNREACHABLE (0x90) records as roots.
    if semantics == Semantics::Perflib {
        for &n in index.marked_unreachable() {
            records += 1;
            if !std::mem::replace(&mut seen[n.index()], true) {
                roots.push(n.0);
            }
        }
    }
    // A thread's locals once each, in order. A record MAT made a reference may name a global
    // root too: it stays a root.
    for locals in added.values_mut() {
        locals.sort_unstable();
        locals.dedup();
    }
    RootSet { roots, added, records }
}

/// Analyses `index` under `semantics` (not heaptui's own, which [`crate::dominators`] computes).
pub(crate) fn analyse(index: &Index, semantics: Semantics, histogram: &[crate::ClassStats]) -> Outcome {
    let span = crate::trace::span("rules: kinds");
    let mut rules = Rules::new(index, semantics);
    drop(span);
    let span = crate::trace::span("rules: search");
    let n = index.len();
    let search = Search::run(&rules);
    // VisualVM's instance -> class references count in its dominator graph too.
    rules.class_links = search.class_links.iter().copied().collect();
    drop(span);
    let parent = search.parent;
    let live = |v: u32| parent[v as usize] != NONE;
    let (idom, vertex) = tree(&rules, &live);
    let reach: Vec<u8> = (0..n as u32).map(|v| if live(v) { REACH_STRONG } else { REACH_NONE }).collect();
    let visualvm = match semantics {
        Semantics::Visualvm => {
            let _span = crate::trace::span("rules: tree objects");
            Some(visualvm_tree_objects(&rules, &parent, &search.leaves))
        }
        _ => None,
    };
    let span = crate::trace::span("rules: sizes");
    let dominators = sizes(&rules, idom, vertex, reach, visualvm.as_deref());
    drop(span);
    let _span = crate::trace::span("rules: by class");
    let retained_by_class = crate::histogram::retained_by_class_for(index, &dominators, histogram, semantics);
    let paths = GcPaths { parents: Parents::All(parent), weak_via: search.weak_via.into() };
    Outcome { dominators, retained_by_class, paths }
}

/// The shortest paths from the roots under `semantics` alone (for a heap read from a cache file
/// that has none).
pub(crate) fn paths(index: &Index, semantics: Semantics) -> GcPaths {
    let search = Search::run(&Rules::new(index, semantics));
    GcPaths { parents: Parents::All(search.parent), weak_via: search.weak_via.into() }
}

/// What is live, breadth first from the roots.
struct Search {
    /// Each object's parent on a shortest path ([`IS_ROOT`], [`NONE`] when not live).
    parent: Vec<u32>,
    /// A bit per object reached through a referent (under the rule sets that let one count).
    weak_via: Vec<u64>,
    /// VisualVM: the instance through which each class was first reached, as `(instance,
    /// class)`; it is a referrer of the class in VisualVM's dominator graph.
    class_links: Vec<(u32, u32)>,
    /// VisualVM: the live objects that refer to nothing, in the order the search met them.
    leaves: Vec<u32>,
}

impl Search {
    /// The search. Under VisualVM's rules it is VisualVM's own (`NearestGCRoot.computeOneLevel`):
    /// level by level from the roots taken kind by kind, each kind's in file order (the
    /// order of `RootKind`, as `HprofGCRoots` lists them); an instance or class object the
    /// search takes makes its class live, through it, when it is the first of that class taken
    /// (`writeClassConnection`). Under the others' rules, a plain breadth-first search.
    fn run(rules: &Rules<'_>) -> Search {
        let n = rules.index.len();
        let visualvm = rules.semantics == Semantics::Visualvm;
        let roots = if visualvm {
            // Kind by kind, each kind's records in file order; an object at its first.
            let mut records: Vec<(Node, RootKind)> = rules.index.roots().to_vec();
            records.sort_by_key(|r| r.1);
            let mut seen = rustc_hash::FxHashSet::default();
            records.into_iter().map(|r| r.0 .0).filter(|&r| seen.insert(r)).collect()
        } else {
            rules.roots.clone()
        };
        let mut parent = vec![NONE; n];
        let mut weak_via = vec![0u64; n.div_ceil(64)];
        let mut queue = std::collections::VecDeque::new();
        for &r in &roots {
            parent[r as usize] = IS_ROOT;
            queue.push_back(r);
        }
        let (mut class_links, mut leaves) = (Vec::new(), Vec::new());
        let mut class_taken = vec![false; rules.index.classes.len()];
        while let Some(v) = queue.pop_front() {
            let mut refers = false;
            rules.edges_marked(v, Use::Live, |t, referent| {
                refers = true;
                if parent[t as usize] == NONE {
                    parent[t as usize] = v;
                    queue.push_back(t);
                    if referent {
                        weak_via[t as usize / 64] |= 1 << (t % 64);
                    }
                }
            });
            if visualvm && matches!(rules.kinds[v as usize], Kind::Instance | Kind::Class) {
                let c = rules.index.class_of(Node(v));
                if !std::mem::replace(&mut class_taken[c.index()], true) {
                    if let Some(cn) = rules.index.classes[c.index()].node.map(|n| n.0) {
                        if parent[cn as usize] == NONE {
                            parent[cn as usize] = v;
                            queue.push_back(cn);
                            class_links.push((v, cn));
                            refers = true;
                        }
                    }
                }
            }
            if visualvm && !refers {
                leaves.push(v);
            }
        }
        Search { parent, weak_via, class_links, leaves }
    }
}

/// VisualVM's "tree objects" (`TreeObject.computeTrees`): an object each of whose references
/// leads to an object with no other referrer that is a tree object itself (a leaf is one), with
/// its retained size as VisualVM sums it: its own size and its references' retained sizes.
/// Built upward from the leaves, a level at a time, as VisualVM does. Referrers are counted over
/// the whole dump (garbage and referents included), as VisualVM's reference lists hold them.
fn visualvm_tree_objects(rules: &Rules<'_>, parent: &[u32], leaves: &[u32]) -> Vec<u64> {
    let index = rules.index;
    let n = index.len();
    // Referrers per object, 0, 1 or more (2): each referring object once.
    let mut referrers = vec![0u8; n];
    {
        let mut last = vec![u32::MAX; n];
        for v in 0..n as u32 {
            rules.edges(v, Use::Tree, |t| {
                if last[t as usize] != v {
                    last[t as usize] = v;
                    referrers[t as usize] = referrers[t as usize].saturating_add(1).min(2);
                }
            });
        }
    }
    let single = |v: u32| referrers[v as usize] <= 1;
    let object_parent = |v: u32| Some(parent[v as usize]).filter(|&p| p != NONE && p != IS_ROOT);
    let mut tree = vec![NOT_TREE; n];
    // Whether an object is in the level being built: each is queued once a level.
    let mut queued = vec![false; n];
    let mut level = Vec::new();
    for &v in leaves {
        tree[v as usize] = index.shallow_size(Node(v));
        if single(v) {
            if let Some(p) = object_parent(v).filter(|&p| tree[p as usize] == NOT_TREE) {
                if !std::mem::replace(&mut queued[p as usize], true) {
                    level.push(p);
                }
            }
        }
    }
    // Which evaluation last counted each object: a tree counts each child once, and an array of
    // a million children must not compare each with all the others. (A candidate may be
    // evaluated again in a later level, so the mark is the evaluation's, not the candidate's.)
    let mut counted_by = vec![u32::MAX; n];
    let mut evaluation = 0u32;
    loop {
        level.iter().for_each(|&v| queued[v as usize] = false);
        let (mut next, mut changed) = (Vec::new(), false);
        for &v in &level {
            let (mut total, mut fails) = (0u64, false);
            evaluation += 1;
            if evaluation == u32::MAX {
                counted_by.fill(u32::MAX);
                evaluation = 0;
            }
            rules.edges(v, Use::Fields, |t| {
                if fails {
                    return;
                }
                match tree[t as usize] {
                    r if r != NOT_TREE && single(t) => {
                        if std::mem::replace(&mut counted_by[t as usize], evaluation) != evaluation {
                            total += r;
                        }
                    }
                    _ => fails = true,
                }
            });
            if !fails {
                tree[v as usize] = index.shallow_size(Node(v)) + total;
                changed = true;
                if single(v) {
                    if let Some(p) = object_parent(v) {
                        if !std::mem::replace(&mut queued[p as usize], true) {
                            next.push(p);
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
        level = next;
    }
    tree
}

/// More superclasses than any real class has (the JDK's deepest chains are a few dozen).
const MAX_SUPERCLASSES: usize = 512;

/// What [`visualvm_tree_objects`] holds for objects that are not tree objects.
const NOT_TREE: u64 = u64::MAX;

/// The immediate dominators (node space, with [`raw::ROOT`] and [`raw::UNREACHABLE`]) of the
/// live objects in the graph the rule set's dominator computation reads, and the live objects
/// in preorder (slot 0: the virtual root).
///
/// That graph is the live objects with the [`Use::Tree`] references between them under a
/// virtual root whose children are the roots. Under VisualVM's rules a live object that garbage
/// refers to is a child of the virtual root too: its fixpoint intersects the referrers' chains
/// to the roots, and garbage has none (`DominatorTree.intersect` gives 0).
fn tree(rules: &Rules<'_>, live: &dyn Fn(u32) -> bool) -> (crate::slab::Slab<u32>, Vec<u32>) {
    let index = rules.index;
    let n = index.len();
    let garbage_detaches = rules.semantics == Semantics::Visualvm;
    let mut detached = vec![false; n];
    if garbage_detaches {
        for v in (0..n as u32).filter(|&v| !live(v)) {
            rules.edges(v, Use::Tree, |t| {
                if live(t) {
                    detached[t as usize] = true;
                }
            });
        }
    }
    let span = crate::trace::span("rules: dfs");
    // Preorder from the virtual root: its children are the roots, then the detached objects.
    let mut pre = vec![u32::MAX; n];
    let mut vertex = vec![raw::ROOT];
    let mut parent = vec![0u32];
    let mut stack: Vec<(u32, Vec<u32>, usize)> = Vec::new();
    let starts: Vec<u32> = rules.roots.iter().copied().chain((0..n as u32).filter(|&v| detached[v as usize])).collect();
    let succ = |v: u32| {
        let mut out = Vec::new();
        rules.edges(v, Use::Tree, |t| {
            if live(t) {
                out.push(t);
            }
        });
        out
    };
    for &s in &starts {
        if pre[s as usize] != u32::MAX {
            continue;
        }
        pre[s as usize] = vertex.len() as u32;
        vertex.push(s);
        parent.push(0);
        stack.push((s, succ(s), 0));
        while let Some((v, row, pos)) = stack.last_mut() {
            let next = row[*pos..].iter().position(|&t| pre[t as usize] == u32::MAX);
            match next {
                Some(k) => {
                    let t = row[*pos + k];
                    *pos += k + 1;
                    let pv = pre[*v as usize];
                    pre[t as usize] = vertex.len() as u32;
                    vertex.push(t);
                    parent.push(pv);
                    stack.push((t, succ(t), 0));
                }
                None => {
                    stack.pop();
                }
            }
        }
    }
    drop(span);
    let span = crate::trace::span("rules: preds");
    // Predecessors in preorder space, `pw << 32 | pv`, the parent left out.
    let mut preds: Vec<u64> = Vec::new();
    for (w, &v) in vertex.iter().enumerate().skip(1) {
        rules.edges(v, Use::Tree, |t| {
            let pt = pre[t as usize];
            if pt != u32::MAX && parent[pt as usize] != w as u32 {
                preds.push(u64::from(pt) << 32 | w as u64);
            }
        });
    }
    for &s in &starts {
        let ps = pre[s as usize];
        if ps != u32::MAX && parent[ps as usize] != 0 {
            preds.push(u64::from(ps) << 32);
        }
    }
    preds.sort_unstable();
    preds.dedup();
    drop(span);
    let span = crate::trace::span("rules: semi-nca");
    let idom_pre = crate::dominators::semi_nca(parent, preds);
    drop(span);
    let mut slots = vec![raw::UNREACHABLE; n];
    for (w, &v) in vertex.iter().enumerate().skip(1) {
        let d = idom_pre[w];
        slots[v as usize] = if d == 0 { raw::ROOT } else { vertex[d as usize] };
    }
    (slots.into(), vertex)
}

/// Retained sizes and counts, children before parents (reverse preorder), then the children
/// rows: the tree as [`Dominators`] holds it.
///
/// VisualVM sums only instances and arrays: a class object's own size is in no retained size,
/// its own included (`HprofHeap.computeRetainedSize` skips CLASS DUMP records). perflib leaves
/// garbage its own size (`DominatorsBase` starts every instance at its size).
fn sizes(
    rules: &Rules<'_>,
    idom: crate::slab::Slab<u32>,
    vertex: Vec<u32>,
    reach: Vec<u8>,
    tree_objects: Option<&[u64]>,
) -> Dominators {
    let index = rules.index;
    let n = index.len();
    let s = rules.semantics;
    // Summed in 32 bits and kept in 16, as heaptui's own sums are (`dominators::retained_sizes`).
    let mut retained = Packed { small: vec![0u32; n], big: Default::default() };
    let mut counts = Packed { small: vec![0u32; n], big: Default::default() };
    let is_class = |v: u32| rules.kinds[v as usize] == Kind::Class;
    let tree = |v: u32| tree_objects.map(|t| t[v as usize]).filter(|&t| t != NOT_TREE);
    // VisualVM (`HprofHeap.computeRetainedSize`): a live instance or array that is no tree object
    // adds its own size to itself and to each dominator up to the first tree object; a tree
    // object adds its tree's size to those above it the same way; class objects add nothing of
    // their own, so a class that is no tree object retains only what it dominates.
    let own = |v: u32| match tree(v) {
        Some(_) => 0,
        None if s == Semantics::Visualvm && is_class(v) => 0,
        None => index.shallow_size(Node(v)),
    };
    for &v in vertex.iter().skip(1) {
        retained.set(v, own(v));
        counts.set(v, 1);
    }
    if s == Semantics::Perflib {
        for v in (0..n as u32).filter(|&v| idom[v as usize] == raw::UNREACHABLE) {
            retained.set(v, index.shallow_size(Node(v)));
            counts.set(v, 1);
        }
    }
    let (mut reachable_bytes, mut reachable_objects) = (0u64, 0u64);
    for &v in vertex.iter().skip(1).rev() {
        reachable_bytes += index.shallow_size(Node(v));
        reachable_objects += 1;
        let passes = match tree(v) {
            Some(t) => {
                retained.set(v, t);
                if is_class(v) {
                    0
                } else {
                    t
                }
            }
            None => retained.get(v),
        };
        let d = idom[v as usize];
        if d != raw::ROOT {
            retained.set(d, retained.get(d) + passes);
            counts.set(d, counts.get(d) + counts.get(v));
        }
    }
    let rows = crate::dominators::children_rows(&idom, vertex.len() - 1);
    let sums = Sums { retained: retained.narrow(), counts: counts.narrow(), reachable_bytes };
    Dominators::assemble(idom, reach, sums, rows, reachable_objects, reachable_objects)
}
