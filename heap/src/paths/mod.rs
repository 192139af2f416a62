//! Shortest paths from GC roots: breadth-first, strong references first.
//!
//! The first tier walks strong references only from every GC root. Objects it cannot reach are
//! then reached by a second tier that may also cross the `referent` of soft, weak, phantom and
//! finalizer references, continuing from everything the first tier found, in its order. So a
//! path uses a weak link only when no strong path exists (LeakCanary's rule).
//!
//! A [`PathPolicy`] names references by class and field: *excluded* ones are never followed
//! (the JDK's finalizer and cleaner queues link unrelated objects), *low-priority* ones (known
//! framework leaks) only in the second tier, so a path goes through them only when it must.

use crate::index::column::Escapes;
use crate::index::csr::WEAK;
use crate::index::{Index, Node, ObjectKind};
use crate::values::Value;
use policy::{edge_mode, Mode, Resolved};
pub use policy::{path_policy_for, PathPolicy, RefPattern};

pub mod library;
pub mod policy;

pub(crate) const NONE: u32 = u32::MAX;
pub(crate) const IS_ROOT: u32 = u32::MAX - 1;

/// Parent pointers of the shortest-path forest from the GC roots.
pub struct GcPaths {
    pub(crate) parents: Parents,
    /// A bit per node: reached through a weak referent.
    pub(crate) weak_via: crate::slab::Slab<u64>,
}

/// The parent of every object, or only of those whose parent is not their immediate dominator.
///
/// An object most often has one referrer, which is then both its parent on the shortest path and
/// its immediate dominator: on the 1 GB benchmark dump the two differ for 8 % of the objects. So
/// once the dominator tree is known, only those are kept (a bit per object, a count per 64, and
/// the differing parents in node order), 7 MB where a parent per object took 56.
pub(crate) enum Parents {
    All(Vec<u32>),
    Except {
        idom: crate::slab::Slab<u32>,
        /// The parents that are not the immediate dominator, by node.
        except: Escapes<u32>,
    },
}

/// An immediate dominator as a parent would be written: the virtual root's children are GC
/// roots, and what nothing dominates no root reaches.
#[inline]
fn as_parent(idom: u32) -> u32 {
    match idom {
        crate::dominators::raw::ROOT => IS_ROOT,
        crate::dominators::raw::UNREACHABLE => NONE,
        d => d,
    }
}

impl Parents {
    /// The parent of node `n`: an object, [`IS_ROOT`] or [`NONE`].
    #[inline]
    pub(crate) fn get(&self, n: u32) -> u32 {
        match self {
            Parents::All(p) => p[n as usize],
            Parents::Except { idom, except } => except.get(n).unwrap_or_else(|| as_parent(idom[n as usize])),
        }
    }

    /// Number of objects.
    pub(crate) fn len(&self) -> usize {
        match self {
            Parents::All(p) => p.len(),
            Parents::Except { idom, .. } => idom.len(),
        }
    }

    /// The parents that differ from `idom` (same length), against it; `None` if the lengths
    /// disagree or `values` does not hold one parent per set bit.
    pub(crate) fn except(
        idom: crate::slab::Slab<u32>,
        bits: crate::slab::Slab<u64>,
        values: crate::slab::Slab<u32>,
    ) -> Option<Parents> {
        let except = Escapes::from_parts(idom.len(), bits, values)?;
        Some(Parents::Except { idom, except })
    }
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
    /// Computes the forest for the whole dump in one sweep, with no policy.
    pub fn compute(index: &Index) -> GcPaths {
        GcPaths::compute_with(index, &PathPolicy::default())
    }

    /// Computes the forest under `policy`.
    pub fn compute_with(index: &Index, policy: &PathPolicy) -> GcPaths {
        let n = index.len();
        let g = index.graph();
        let resolved = Resolved::new(index, policy);
        let mut deferred: Vec<(u32, u32)> = Vec::new();
        let mut parent = vec![NONE; n];
        let mut weak_via = vec![0u64; n.div_ceil(64)];
        // The frontier only: a queue of the whole visit order would be another 4 bytes per object.
        let mut order: std::collections::VecDeque<u32> = Default::default();
        for &(r, _) in index.roots() {
            if parent[r.index()] == NONE {
                parent[r.index()] = IS_ROOT;
                order.push_back(r.0);
            }
        }
        let leaves = index.strong_leaves();
        let bfs = |order: &mut std::collections::VecDeque<u32>,
                   parent: &mut Vec<u32>,
                   deferred: &mut Vec<(u32, u32)>,
                   second_tier: bool| {
            while let Some(v) = order.pop_front() {
                // Three steps ahead in the queue: the row start, then the edges (and whether
                // the policy names the object's references), then the parents the edges name
                // (and whether those hold a strong reference), each asked for before it is
                // read. Unasked, the two bits' misses were 40 % of the search's samples on
                // HeapGen's dump.
                const AHEAD: usize = crate::prefetch::AHEAD;
                if let Some(&u) = order.get(AHEAD) {
                    g.prefetch_start(u);
                }
                if let Some(&u) = order.get(AHEAD / 2) {
                    g.prefetch_edges(u);
                    if let Some(r) = &resolved {
                        r.prefetch(u);
                    }
                }
                if let Some(&u) = order.get(AHEAD / 4) {
                    for &t in g.edges(u).iter().take(8) {
                        let t = (t & !WEAK) as usize;
                        crate::prefetch::read(parent, t);
                        if !second_tier {
                            crate::bits::prefetch(leaves, t);
                        }
                    }
                }
                let special = match &resolved {
                    Some(r) if r.marks(v) => r.special(index, v),
                    _ => Vec::new(),
                };
                for &t in g.edges(v) {
                    let tn = t & !WEAK;
                    if (!second_tier && t & WEAK != 0) || parent[tn as usize] != NONE {
                        continue;
                    }
                    match edge_mode(index, v, tn, &special) {
                        Some(Mode::Excluded) => continue,
                        Some(Mode::Low) if !second_tier => {
                            deferred.push((v, tn));
                            continue;
                        }
                        _ => {}
                    }
                    parent[tn as usize] = v;
                    // What holds no strong reference leads nowhere in the first tier (its
                    // referents are the second's): it is not queued.
                    if second_tier || !Index::is_strong_leaf(leaves, tn) {
                        order.push_back(tn);
                    }
                }
            }
        };
        let span = crate::trace::span("paths: strong");
        bfs(&mut order, &mut parent, &mut deferred, false);
        drop(span);
        let _span = crate::trace::span("paths: weak");
        // Second tier: what only a weak referent reaches, starting from those referents. The
        // sources are the objects that hold one (a bit each, noted with the index), taken in
        // node order; a scan of every object's edges for them took 0.06–0.14 s.
        for (v, t) in std::mem::take(&mut deferred) {
            if parent[t as usize] == NONE {
                parent[t as usize] = v;
                order.push_back(t);
            }
        }
        for v in crate::bits::ones(index.weak_holders()) {
            if parent[v] == NONE {
                continue;
            }
            for &t in g.edges(v as u32) {
                let tn = (t & !WEAK) as usize;
                if t & WEAK != 0 && parent[tn] == NONE {
                    parent[tn] = v as u32;
                    weak_via[tn / 64] |= 1 << (tn % 64);
                    order.push_back(tn as u32);
                }
            }
        }
        bfs(&mut order, &mut parent, &mut deferred, true);
        GcPaths { parents: Parents::All(parent), weak_via: weak_via.into() }
    }

    /// Keeps only the parents that differ from the immediate dominators in `idom` (see
    /// [`Parents`]).
    pub(crate) fn keep_differences(&mut self, idom: &crate::slab::Slab<u32>) {
        let _span = crate::trace::span("paths: differences");
        if matches!(self.parents, Parents::All(_)) {
            let (bits, values) = self.differences(idom);
            if let Some(p) = Parents::except(idom.clone(), bits.into(), values.into()) {
                self.parents = p;
            }
        }
    }

    /// The parents that differ from the immediate dominators in `idom`: a bit per object, and
    /// those parents in node order. In runs of words of the bits, on every core.
    pub(crate) fn differences(&self, idom: &[u32]) -> (Vec<u64>, Vec<u32>) {
        use rayon::prelude::*;
        const WORDS: usize = 1 << 12;
        let n = self.parents.len();
        let mut bits = vec![0u64; n.div_ceil(64)];
        let parts: Vec<Vec<u32>> = bits
            .par_chunks_mut(WORDS)
            .enumerate()
            .map(|(k, words)| {
                let start = k * WORDS * 64;
                let mut values = Vec::new();
                for v in start..(start + words.len() * 64).min(n) {
                    let d = as_parent(idom.get(v).copied().unwrap_or(crate::dominators::raw::UNREACHABLE));
                    let p = self.parents.get(v as u32);
                    if p != d {
                        words[(v - start) / 64] |= 1 << (v % 64);
                        values.push(p);
                    }
                }
                values
            })
            .collect();
        (bits, parts.concat())
    }

    /// The path from a GC root to `target`, root first, with each reference named; empty if no
    /// root reaches it.
    pub fn path(&self, index: &Index, target: Node) -> Vec<Step> {
        let mut one = [self.path_unnamed(index, target)];
        name_references(index, &mut one);
        let [path] = one;
        path
    }

    /// The path from a GC root to `target` with no reference named yet (see [`name_references`]).
    pub fn path_unnamed(&self, _index: &Index, target: Node) -> Vec<Step> {
        let mut nodes = Vec::new();
        if !self.walk_up(target, |n| nodes.push(n)) {
            return Vec::new();
        }
        nodes.reverse();
        nodes.into_iter().map(|node| Step { node, reference: None, weak: self.weak_via(node) }).collect()
    }

    /// Whether the path reaches `n` through a weak referent.
    pub fn weak_via(&self, n: Node) -> bool {
        self.weak_via.get(n.index() / 64).is_some_and(|w| w >> (n.0 % 64) & 1 != 0)
    }

    /// Length of the path from a GC root to `target` in objects; 0 if no root reaches it.
    pub fn depth(&self, target: Node) -> usize {
        let mut depth = 0;
        if self.walk_up(target, |_| depth += 1) {
            depth
        } else {
            0
        }
    }

    /// [`GcPaths::depth`] of every object at once, in time proportional to the heap: each path
    /// is climbed only to the first object whose depth is known (a 100,000-long chain asked
    /// object by object costs 5 billion steps).
    pub fn depths(&self) -> Vec<u32> {
        const UNKNOWN: u32 = u32::MAX;
        let n = self.parents.len();
        let mut depth = vec![UNKNOWN; n];
        let mut chain: Vec<u32> = Vec::new();
        for start in 0..n as u32 {
            if depth[start as usize] != UNKNOWN {
                continue;
            }
            chain.clear();
            let mut cur = start;
            // The depth above the chain: that of the object it met, 0 above a root; `None` when
            // no root reaches it.
            let above = loop {
                match depth[cur as usize] {
                    UNKNOWN => {}
                    0 => break None,
                    d => break Some(d),
                }
                chain.push(cur);
                match self.parents.get(cur) {
                    NONE => break None,
                    IS_ROOT => break Some(0),
                    // Damaged parents that make a cycle: as walk_up, no root reaches them.
                    _ if chain.len() > n => break None,
                    p => cur = p,
                }
            };
            let mut d = above.unwrap_or(0);
            for &c in chain.iter().rev() {
                if above.is_some() {
                    d += 1;
                }
                depth[c as usize] = d;
            }
        }
        depth
    }

    /// Visits `target`, its parent and so on up to its GC root; false (part of the chain
    /// visited) when no root reaches it, or when damaged parents make a cycle.
    pub fn walk_up(&self, target: Node, mut visit: impl FnMut(Node)) -> bool {
        let mut cur = target;
        for _ in 0..self.parents.len() {
            match self.parents.get(cur.0) {
                NONE => return false,
                IS_ROOT => {
                    visit(cur);
                    return true;
                }
                p => {
                    visit(cur);
                    cur = Node(p);
                }
            }
        }
        false
    }

    /// The object above `n` on its shortest path: `Some(None)` when `n` is a GC root, `None`
    /// when no root reaches it.
    pub fn parent(&self, n: Node) -> Option<Option<Node>> {
        match self.parents.get(n.0) {
            NONE => None,
            IS_ROOT => Some(None),
            p => Some(Some(Node(p))),
        }
    }

    /// Whether a GC root reaches `n` by any path.
    pub fn is_reachable(&self, n: Node) -> bool {
        self.parents.get(n.0) != NONE
    }
}

/// Object arrays longer than this are scanned once for every path that crosses them.
const BATCH_ARRAY: usize = 256;

/// Up to this many objects wanted from one array are each looked for on their own.
const FEW: usize = 4;

/// Names the references of many paths at once (each step's `reference` that is still `None`).
///
/// Naming a step through an object array means finding the slot that holds the next object; a
/// table of millions of entries that many paths cross (a cache's `HashMap` in a leak trace) is
/// scanned once for all of them instead of once per path.
pub fn name_references(index: &Index, paths: &mut [Vec<Step>]) {
    use rustc_hash::{FxHashMap, FxHashSet};
    let id_size = index.header.id_size;
    // Large object arrays on the paths, with the objects wanted from each.
    let mut wanted: FxHashMap<Node, FxHashSet<u64>> = FxHashMap::default();
    for path in paths.iter() {
        for w in path.windows(2) {
            if w[1].reference.is_none()
                && index.kind(w[0].node) == ObjectKind::ObjectArray
                && index.array_length(w[0].node).unwrap_or(0) as usize > BATCH_ARRAY
            {
                wanted.entry(w[0].node).or_default().insert(u64::from(w[1].node.0));
            }
        }
    }
    let mut slots: FxHashMap<(Node, u64), usize> = FxHashMap::default();
    for (&from, nodes) in &wanted {
        let Ok(crate::hprof::SubRecord::ObjectArray { elements, .. }) = index.record(from) else { continue };
        let id_of = |n: u64| index.id(Node(n as u32));
        let record = Slots::Dump(id_size);
        let holds = |slot: usize, id: u64| {
            elements.get(slot * record.size()..(slot + 1) * record.size()).is_some_and(|b| record.read(b) == id)
        };
        // An array's k-th reference is its k-th slot unless a null or an id the dump lacks
        // comes before it. The references are in memory, in slot order, at 4 bytes a slot: the
        // first reference to each object, checked against that slot of the record, names most
        // steps without reading the record whole (an ArrayList's, a full array's).
        let refs = index.graph().edges(from.0);
        let row: &[u8] = bytemuck::cast_slice(refs);
        let mut left = nodes.clone();
        let mut shifted: Vec<(u64, usize)> = Vec::new();
        first_slots(row, Slots::References, nodes, |n, k| {
            let id = id_of(n);
            if holds(k, id) {
                slots.insert((from, id), k);
                left.remove(&n);
            } else {
                shifted.push((n, k));
            }
        });
        // Otherwise reference k lies in one of slots k to k + gaps (the slots with no
        // reference), and where the gaps are spread evenly (a hash table's), near the slot
        // that spread would put it in: a few objects each referred to once are looked for from
        // there outwards (one in the last slots of a 44-million-slot table half empty took 40
        // ms from the start).
        let length = elements.len() / id_size as usize;
        let gaps = length.saturating_sub(refs.len());
        if left.len() <= FEW {
            for (n, k) in shifted {
                let once = find(row[(k + 1) * 4..].as_chunks::<4>().0, (n as u32).to_ne_bytes()).is_none();
                let guess = k + (gaps as u128 * k as u128 / refs.len() as u128) as usize;
                let id = id_of(n);
                if let Some(slot) =
                    once.then(|| around(elements, id_size, id, k..(k + gaps + 1).min(length), guess)).flatten()
                {
                    slots.insert((from, id), slot);
                    left.remove(&n);
                }
            }
        }
        if !left.is_empty() {
            let ids: FxHashSet<u64> = left.into_iter().map(id_of).collect();
            first_slots(elements, Slots::Dump(id_size), &ids, |id, slot| {
                slots.insert((from, id), slot);
            });
        }
    }
    for path in paths.iter_mut() {
        for i in 1..path.len() {
            if path[i].reference.is_some() {
                continue;
            }
            let (from, to) = (path[i - 1].node, path[i].node);
            path[i].reference = if wanted.contains_key(&from) {
                slots.get(&(from, index.id(to))).map(|slot| format!("[{slot}]"))
            } else {
                reference_name(index, from, to)
            };
        }
    }
}

/// What [`first_slots`] searches: an object array's record in the dump, ids of the given size
/// in big-endian order; or its references in the index, node numbers in the machine's order.
#[derive(Clone, Copy)]
enum Slots {
    Dump(u32),
    References,
}

impl Slots {
    fn size(self) -> usize {
        match self {
            Slots::Dump(id_size) => id_size as usize,
            Slots::References => 4,
        }
    }

    fn read(self, b: &[u8]) -> u64 {
        match self {
            Slots::Dump(id_size) => crate::hprof::cursor::read_id(b, id_size),
            Slots::References => u64::from(u32::from_ne_bytes([b[0], b[1], b[2], b[3]])),
        }
    }

    fn bytes(self, value: u64) -> Vec<u8> {
        match self {
            Slots::Dump(_) => value.to_be_bytes()[8 - self.size()..].to_vec(),
            Slots::References => (value as u32).to_ne_bytes().to_vec(),
        }
    }
}

/// Calls `found` with the first slot of `slots` (laid out as `kind` says) that holds each of
/// `values`, stopping once all are found.
///
/// An array may hold millions of slots. The dump's pages were given back after indexing: each
/// stretch's page tables are filled at once ([`crate::resident::populate_read`]), where one
/// fault a page took 24 ms of a 31 ms scan of a 3-million-slot array. A few values (the path of
/// one object) are each compared with whole blocks of slots ([`find`]); more (a leak's traces
/// crossing one table) in one pass where a range test turns most slots away before any hash.
fn first_slots(slots: &[u8], kind: Slots, values: &rustc_hash::FxHashSet<u64>, mut found: impl FnMut(u64, usize)) {
    const STRETCH: usize = 2 << 20;
    let size = kind.size();
    let stretch = STRETCH / size * size;
    let stretches = slots.chunks(stretch).enumerate().map(|(k, s)| (k * (stretch / size), s));
    let populate = |s: &[u8]| {
        if let Slots::Dump(_) = kind {
            crate::resident::populate_read(s);
        }
    };
    if values.len() <= FEW {
        // Each value with the bytes a slot holding it has, made once.
        let mut left: Vec<(u64, Vec<u8>)> = values.iter().map(|&v| (v, kind.bytes(v))).collect();
        for (first, s) in stretches {
            populate(s);
            left.retain(|(v, needle)| {
                let at = match size {
                    4 => find(s.as_chunks::<4>().0, needle[..].try_into().unwrap_or_default()),
                    _ => find(s.as_chunks::<8>().0, needle[..].try_into().unwrap_or_default()),
                };
                at.map(|i| found(*v, first + i)).is_none()
            });
            if left.is_empty() {
                return;
            }
        }
        return;
    }
    let (Some(&lo), Some(&hi)) = (values.iter().min(), values.iter().max()) else { return };
    let mut seen: rustc_hash::FxHashSet<u64> = rustc_hash::FxHashSet::default();
    for (first, s) in stretches {
        populate(s);
        for (i, b) in s.chunks_exact(size).enumerate() {
            let v = kind.read(b);
            if (lo..=hi).contains(&v) && values.contains(&v) && seen.insert(v) {
                found(v, first + i);
                if seen.len() == values.len() {
                    return;
                }
            }
        }
    }
}

/// The slot among `within` of an object array's record (`elements`, ids of `id_size` bytes)
/// that holds `id`, which no other slot there holds: looked for in windows on either side of
/// `guess`, each twice as wide as the one before, until `within` is covered.
fn around(elements: &[u8], id_size: u32, id: u64, within: std::ops::Range<usize>, guess: usize) -> Option<usize> {
    let size = id_size as usize;
    let guess = guess.clamp(within.start, within.end);
    let (mut down, mut up) = (guess, guess);
    let mut wide = 1024;
    let one: rustc_hash::FxHashSet<u64> = [id].into_iter().collect();
    let look = |from: usize, to: usize| {
        let mut at = None;
        first_slots(&elements[from * size..to * size], Slots::Dump(id_size), &one, |_, i| at = Some(from + i));
        at
    };
    while down > within.start || up < within.end {
        let higher = (up + wide).min(within.end);
        if let Some(slot) = look(up, higher) {
            return Some(slot);
        }
        let lower = down.saturating_sub(wide).max(within.start);
        if let Some(slot) = look(lower, down) {
            return Some(slot);
        }
        (down, up, wide) = (lower, higher, wide * 2);
    }
    None
}

/// The first of `slots` equal to `needle`. Blocks of slots are compared whole, with no early
/// exit inside one, so that the compiler can compare many slots an instruction.
fn find<const N: usize>(slots: &[[u8; N]], needle: [u8; N]) -> Option<usize> {
    const BLOCK: usize = 32;
    let (blocks, _) = slots.as_chunks::<BLOCK>();
    for (b, block) in blocks.iter().enumerate() {
        if block.iter().fold(false, |hit, s| hit | (*s == needle)) {
            return block.iter().position(|s| *s == needle).map(|i| b * BLOCK + i);
        }
    }
    let tail = blocks.len() * BLOCK;
    slots[tail..].iter().position(|s| *s == needle).map(|i| tail + i)
}

/// How `from` refers to `to`: `.field` for instance fields, `[i]` for array elements,
/// `.name` for class statics, `<loader>` and `<superclass>` for what a class object keeps alive;
/// and for the references some peers' rules add (`--semantics`), `<class>` from an object to
/// its class and `<local>` from a thread to a local of its stack.
pub fn reference_name(index: &Index, from: Node, to: Node) -> Option<String> {
    let named = direct_reference_name(index, from, to);
    named.or_else(|| {
        if index.class(from).node == Some(to) {
            Some("<class>".to_string())
        } else if index.root_thread(to) == Some(from) {
            Some("<local>".to_string())
        } else {
            None
        }
    })
}

/// [`reference_name`] for the references the dump's records hold.
fn direct_reference_name(index: &Index, from: Node, to: Node) -> Option<String> {
    let to_id = index.id(to);
    let field =
        || index.fields(from).into_iter().find(|f| f.value == Value::Object(to_id)).map(|f| format!(".{}", f.name));
    if let Some(c) = index.as_class(from) {
        let class = &index.classes[c.index()];
        return field().or_else(|| {
            if class.loader == to_id {
                Some("<loader>".to_string())
            } else if class.super_class.and_then(|s| index.classes[s.index()].node) == Some(to) {
                Some("<superclass>".to_string())
            } else {
                None
            }
        });
    }
    // An object array's slot, found in its raw elements: no array of values is built (a path
    // through a table of millions of entries would otherwise allocate it at every step).
    if let Ok(crate::hprof::SubRecord::ObjectArray { elements, .. }) = index.record(from) {
        let id = index.header.id_size;
        return elements
            .chunks_exact(id as usize)
            .position(|b| crate::hprof::cursor::read_id(b, id) == to_id)
            .map(|i| format!("[{i}]"));
    }
    field()
}

#[cfg(test)]
mod tests {
    use rustc_hash::FxHashSet;

    /// The first slot holding `id`, one slot at a time.
    fn first_slot(elements: &[u8], kind: super::Slots, id: u64) -> Option<usize> {
        elements.chunks_exact(kind.size()).position(|b| kind.read(b) == id)
    }

    #[test]
    fn a_slot_is_found_on_either_side_of_the_guess_and_only_within_the_range() {
        let slots: Vec<u64> = (0..100_000u64).map(|k| 0x7000_0000 + k).collect();
        let bytes: Vec<u8> = slots.iter().flat_map(|&v| v.to_be_bytes()).collect();
        let id = slots[40_000];
        for guess in [0, 39_999, 40_000, 40_001, 99_999, 200_000] {
            assert_eq!(super::around(&bytes, 8, id, 0..100_000, guess), Some(40_000), "guess {guess}");
            assert_eq!(super::around(&bytes, 8, id, 30_000..40_001, guess), Some(40_000), "guess {guess}");
            assert_eq!(super::around(&bytes, 8, id, 40_001..100_000, guess), None, "guess {guess}");
            assert_eq!(super::around(&bytes, 8, id, 0..40_000, guess), None, "guess {guess}");
        }
    }

    #[test]
    fn the_slot_found_is_the_first_that_holds_the_id() {
        use super::Slots;
        for kind in [Slots::Dump(4), Slots::Dump(8), Slots::References] {
            let size = kind.size();
            let mask = if size == 4 { u64::from(u32::MAX) } else { u64::MAX };
            let id = |k: u64| (0x0102_0304_0506_0708u64.wrapping_mul(k + 1)) & mask;
            // 700,000 slots: past two 2 MB stretches at 8 bytes a slot, one at 4.
            let len = 700_000usize;
            let mut slots: Vec<u64> = (0..len as u64).map(|k| id(k % 1000 + 5000)).collect();
            // The wanted ids: one first seen early and again later, one only in the last slot,
            // one in the slot after a stretch's end, one in no slot but straddling two (its
            // first half ends slot 10, its second starts slot 11), one in no slot at all.
            let wanted = [id(1), id(2), id(3), id(4), id(6)];
            slots[7] = wanted[0];
            slots[400_000] = wanted[0];
            slots[len - 1] = wanted[1];
            slots[(2 << 20) / size] = wanted[2];
            let mut bytes: Vec<u8> = slots.iter().flat_map(|&v| kind.bytes(v)).collect();
            let straddle = 10 * size + size / 2;
            bytes[straddle..straddle + size].copy_from_slice(&kind.bytes(wanted[3]));
            // Few ids (searched as bytes: each alone, then four) and many (hashed), with ids no
            // slot holds among them.
            let mut sets: Vec<FxHashSet<u64>> = wanted.iter().map(|&w| [w].into_iter().collect()).collect();
            sets.push(wanted[..4].iter().copied().collect());
            sets.push(wanted.iter().copied().chain((0..50u64).map(|k| id(k + 100_000))).collect());
            for ids in sets {
                let many = ids.len() > 4;
                let mut got = std::collections::BTreeMap::new();
                super::first_slots(&bytes, kind, &ids, |id, slot| {
                    assert!(got.insert(id, slot).is_none(), "{id:#x} found twice");
                });
                let expected: std::collections::BTreeMap<u64, usize> =
                    ids.iter().filter_map(|&i| first_slot(&bytes, kind, i).map(|s| (i, s))).collect();
                assert_eq!(got, expected, "{size}-byte slots, many: {many}");
                for (w, slot) in [(0, Some(7)), (1, Some(len - 1)), (2, Some((2 << 20) / size)), (3, None)] {
                    if ids.contains(&wanted[w]) {
                        assert_eq!(got.get(&wanted[w]).copied(), slot, "{size}-byte slots, wanted value {w}");
                    }
                }
            }
        }
    }
}
