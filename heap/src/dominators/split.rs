//! The retained sums' vertex loop on two cores.
//!
//! The loop adds each vertex's sums into its immediate dominator's, in reverse preorder, so
//! that an object's sums are whole before they go on. A vertex's dominator is one of its DFS
//! ancestors. So the vertices of a run of DFS subtrees whose roots are siblings (a stretch of
//! the preorder) send sums out of that stretch only to the run's DFS ancestors: the path from
//! the virtual root to the roots' parent, all of it below the stretch in preorder; and once
//! the leaves and twigs are summed, no other vertex's sums come into it. Such a run (a
//! "part") can be summed on the other core, its sums to the path kept aside, while the loop
//! does the rest; the loop adds them as it passes the part, before it gets to the path.
//!
//! The DFS notes the parts as it leaves their roots ([`Noting`]): runs of siblings at most
//! [`DEPTH`] below a GC root, each about 1/1024 of the objects or more, finer ones kept where
//! there are several and they cover half of a coarser one. The other core comes to the loop
//! once it is free: in the analysis, once it has made the tree's children rows (until then it
//! is busy, and after it was idle for the rest of the sums: a third of them on a dump of deep
//! chains). It takes parts from the lowest up, each one only when the loop is further above it
//! than the part is long, so that the loop seldom waits for one. The twigs, summed before any
//! vertex, are the loop's alone: their dominators may lie in any part.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::{raw, Map, Order, Sum, Summing};
use crate::prefetch::{self, AHEAD};

/// How far below a GC root (in DFS depth) parts are noted: the length of a part's path at most.
/// The many small objects of a dump often lie a dozen references below a root (a thread,
/// its class loader, a class, its static field, a collection).
pub(super) const DEPTH: usize = 64;

/// Parts are at least this fraction of the objects (and at least one vertex).
const FRACTION: usize = 1024;

const NONE: u32 = u32::MAX;

/// Runs of sibling subtrees in preorder, ascending and disjoint, each with its path: the DFS
/// ancestors of its roots, as nodes (the virtual root is everyone's and is not listed).
#[derive(Default)]
pub(crate) struct Parts {
    /// The vertices the DFS numbered (the twigs follow them in the sums' list).
    vertices: usize,
    spans: Vec<(u32, u32)>,
    path: Vec<u32>,
    /// Where each part's path starts in `path`.
    path_at: Vec<u32>,
}

impl Parts {
    fn len(&self) -> usize {
        self.spans.len()
    }

    /// Part `k`'s preorder numbers, as positions in the list of vertices.
    fn span(&self, k: usize) -> (usize, usize) {
        let (a, b) = self.spans[k];
        (a as usize, b as usize)
    }

    fn path(&self, k: usize) -> &[u32] {
        let end = self.path_at.get(k + 1).map_or(self.path.len(), |&e| e as usize);
        &self.path[self.path_at[k] as usize..end]
    }
}

/// Notes [`Parts`] as a DFS enters and leaves vertices.
pub(super) struct Noting {
    parts: Parts,
    min: u32,
    /// Where the run of siblings at each depth began (`NONE`: no run).
    run: [u32; DEPTH + 1],
}

impl Noting {
    /// For a DFS over `objects` objects.
    pub(super) fn new(objects: usize) -> Noting {
        let min = u32::try_from(objects / FRACTION).unwrap_or(u32::MAX).max(1);
        Noting { parts: Parts::default(), min, run: [NONE; DEPTH + 1] }
    }

    /// The DFS enters a vertex numbered `pre` at `depth` (a GC root's is 0).
    #[inline]
    pub(super) fn enter(&mut self, depth: usize, pre: u32) {
        if let Some(run) = self.run.get_mut(depth) {
            if *run == NONE {
                *run = pre;
            }
        }
    }

    /// The DFS leaves a vertex at `depth` whose subtree ends before `end`; `above` holds its
    /// ancestors (nodes), the GC root first.
    #[inline]
    pub(super) fn leave(&mut self, depth: usize, end: u32, above: impl ExactSizeIterator<Item = u32>) {
        if depth > DEPTH {
            return;
        }
        // Its children's run that did not come to `min` is nobody's part.
        if let Some(run) = self.run.get_mut(depth + 1) {
            *run = NONE;
        }
        let start = self.run[depth];
        if end - start >= self.min {
            self.note(start, end, above);
            self.run[depth] = NONE;
        }
    }

    /// A run `start..end` done: it replaces the parts inside it unless there are several and
    /// they cover half of it (one part alone inside is the same work with a longer path: a
    /// chain's links each lead the next).
    fn note(&mut self, start: u32, end: u32, above: impl Iterator<Item = u32>) {
        let Parts { spans, path, path_at, .. } = &mut self.parts;
        let inside = spans.iter().rev().take_while(|s| s.0 >= start).count();
        let first = spans.len() - inside;
        let covered: u64 = spans[first..].iter().map(|s| u64::from(s.1 - s.0)).sum();
        if inside > 1 && 2 * covered >= u64::from(end - start) {
            return;
        }
        if let Some(&at) = path_at.get(first) {
            path.truncate(at as usize);
        }
        spans.truncate(first);
        path_at.truncate(first);
        path_at.push(path.len() as u32);
        path.extend(above);
        spans.push((start, end));
    }

    /// The parts of a DFS that numbered `vertices` vertices, the virtual root's included.
    pub(super) fn finish(self, vertices: usize) -> Parts {
        Parts { vertices, ..self.parts }
    }
}

/// A narrow sum's type and its atomic twin: the list the two cores sum into, each at its own
/// objects.
pub(super) trait Cell: Sum {
    type Atomic: Sync;
    fn cells(values: &mut [Self]) -> &[Self::Atomic];
    fn load(cell: &Self::Atomic) -> Self;
    fn store(cell: &Self::Atomic, value: Self);
}

macro_rules! cell {
    ($t:ty, $a:ty) => {
        impl Cell for $t {
            type Atomic = $a;
            fn cells(values: &mut [$t]) -> &[$a] {
                const { assert!(std::mem::align_of::<$a>() == std::mem::align_of::<$t>()) };
                // SAFETY: the atomic type has the size and bit validity of the integer and here
                // the same alignment; the exclusive borrow of `values` lasts as long as the
                // atomics, so nothing else reads or writes them meanwhile.
                unsafe { &*(values as *mut [$t] as *const [$a]) }
            }
            #[inline]
            fn load(cell: &$a) -> $t {
                cell.load(Ordering::Relaxed)
            }
            #[inline]
            fn store(cell: &$a, value: $t) {
                cell.store(value, Ordering::Relaxed)
            }
        }
    };
}
cell!(u16, AtomicU16);
cell!(u32, AtomicU32);

/// One core's view of a [`Summing`] list while both sum into it: its wide values in a map of
/// its own, those from before the split read from `before` (for the other core's objects),
/// and the last one written held aside as [`Summing`] does.
struct Side<'a, T: Cell> {
    small: &'a [T::Atomic],
    big: Map,
    before: Option<&'a Map>,
    held: Option<(u32, u64)>,
}

impl<'a, T: Cell> Side<'a, T> {
    fn new(small: &'a [T::Atomic], big: Map, before: Option<&'a Map>) -> Side<'a, T> {
        Side { small, big, before, held: None }
    }

    #[inline]
    fn get(&self, n: u32) -> u64 {
        if let Some((k, v)) = self.held {
            if k == n {
                return v;
            }
        }
        let x = T::load(&self.small[n as usize]);
        if x != T::MAX {
            return x.widen();
        }
        let wide = self.big.get(&n).or_else(|| self.before.and_then(|b| b.get(&n)));
        wide.copied().unwrap_or(T::MAX.widen())
    }

    /// Sums only grow, so a value once wide stays wide.
    #[inline]
    fn set(&mut self, n: u32, value: u64) {
        match self.held {
            Some((k, _)) if k == n => self.held = Some((n, value)),
            _ if value >= T::MAX.widen() => {
                self.put_back();
                T::store(&self.small[n as usize], T::MAX);
                self.held = Some((n, value));
            }
            _ => T::store(&self.small[n as usize], T::truncate(value)),
        }
    }

    fn put_back(&mut self) {
        if let Some((k, v)) = self.held.take() {
            T::store(&self.small[k as usize], T::MAX);
            self.big.insert(k, v);
        }
    }

    fn wide(&self) -> usize {
        self.big.len() + usize::from(self.held.is_some())
    }

    fn ahead(&self, n: u32) {
        prefetch::read(self.small, n as usize);
    }
}

/// Whether either list's wide values came to more than `cap` (a stop for [`Order::sum_down`]).
fn over<T: Cell>(cap: usize) -> impl Fn(usize, &Side<'_, T>, &Side<'_, T>) -> bool {
    move |_, r, c| r.wide() > cap || c.wide() > cap
}

/// Sums into the virtual root go to `bytes`.
fn to_root(bytes: &std::cell::Cell<u64>) -> impl FnMut(u32, u64, u64) -> bool + '_ {
    move |d, x, _| {
        if d == raw::ROOT {
            bytes.set(bytes.get() + x);
            true
        } else {
            false
        }
    }
}

/// Who sums a part.
const FREE: u8 = 0;
/// The loop's own core, as it passes it.
const MINE: u8 = 1;
/// The other core, summing it now.
const TAKEN: u8 = 2;
/// The other core, done: its sums to the path are in `out`, and the part's vertices below
/// `rest` are left for the loop (when its wide values came to `cap`).
const DONE: u8 = 3;
/// The other core panicked while summing it.
const ABANDONED: u8 = 4;

/// Marks a part [`ABANDONED`] when dropped: forgotten once the part is done.
struct Abandon<'a>(&'a AtomicU8);

impl Drop for Abandon<'_> {
    fn drop(&mut self) {
        self.0.store(ABANDONED, Ordering::Release);
    }
}

/// A part the other core summed: its sums to the path (the virtual root's first, then the
/// path's in order), and where it stopped (the part's vertices below are left for the loop).
/// When it stopped inside the part, the wide values of its maps (retained, counts) go with
/// it: some are sums into the vertices left for the loop, which must read them.
#[derive(Default)]
struct Handed {
    sums: Vec<(u64, u64)>,
    rest: usize,
    wide: (Map, Map),
}

/// Whether the other core helps with the vertex loop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Helping {
    /// Once it is free (the analysis).
    Other,
    /// For tests: the parts the other core would take (any length, within the cap on wide
    /// values), on the same core, before the loop starts.
    #[cfg(test)]
    First,
    /// For tests: never.
    #[cfg(test)]
    Never,
}

/// The parts, and how far each got; kept across the loop's runs (16 bits, then 32).
pub(super) struct Split<'a> {
    parts: &'a Parts,
    state: Vec<AtomicU8>,
    /// What the other core hands the loop for each part it took.
    out: Vec<Mutex<Handed>>,
    /// The loop's position (it goes down), now and then.
    at: AtomicUsize,
    /// The loop has stopped: the other core takes no more parts.
    closed: AtomicBool,
    helping: Helping,
}

impl<'a> Split<'a> {
    pub(super) fn new(parts: &'a Parts, helping: Helping) -> Split<'a> {
        #[cfg(test)]
        let k = if helping == Helping::Never { 0 } else { parts.len() };
        #[cfg(not(test))]
        let k = parts.len();
        Split {
            parts,
            state: (0..k).map(|_| AtomicU8::new(FREE)).collect(),
            out: (0..k).map(|_| Mutex::default()).collect(),
            at: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            helping,
        }
    }
}

impl Order<'_> {
    /// The vertices below `end` (preorder), last first, into `retained` and `counts`, the
    /// virtual root's share into `reachable_bytes`, the parts of `split` summed on the other
    /// core when it is free; where it stopped when the wide values came to more than `cap`.
    pub(super) fn vertices<T: Cell>(
        &self,
        retained: &mut Summing<T>,
        counts: &mut Summing<T>,
        reachable_bytes: &mut u64,
        end: usize,
        cap: usize,
    ) -> Option<usize> {
        let split = self.split;
        retained.put_back();
        counts.put_back();
        let (r_small, r_big) = (&mut retained.packed.small, &mut retained.packed.big);
        let (c_small, c_big) = (&mut counts.packed.small, &mut counts.packed.big);
        let (r_cells, c_cells) = (T::cells(r_small), T::cells(c_small));
        let mut r = Side::<T>::new(r_cells, std::mem::take(r_big), None);
        let mut c = Side::<T>::new(c_cells, std::mem::take(c_big), None);
        let bytes = std::cell::Cell::new(0u64);
        // The twigs first, on this core alone: their dominators may be in any part.
        let twigs = split.parts.vertices.max(1);
        let mut stopped = None;
        if end > twigs {
            stopped = self.sum_down(&mut r, &mut c, twigs, end, &mut to_root(&bytes), &mut over(cap));
        }
        let end = end.min(twigs);
        let before: (Map, Map);
        let mut theirs = None;
        if stopped.is_none() && split.state.is_empty() {
            // No parts to share: no maps to copy, no task for the other core.
            stopped = self.loop_side(&mut r, &mut c, end, cap, &bytes);
        } else if stopped.is_none() {
            r.put_back();
            c.put_back();
            // The other core reads its objects' values from before as they are now; this core
            // goes on writing its own into the maps it has.
            before = (r.big.clone(), c.big.clone());
            let sides = (
                Side::<T>::new(r_cells, Map::default(), Some(&before.0)),
                Side::new(c_cells, Map::default(), Some(&before.1)),
            );
            split.at.store(end, Ordering::Relaxed);
            split.closed.store(false, Ordering::Release);
            let loop_side = || {
                let bytes = std::cell::Cell::new(0);
                let done = self.loop_side(&mut r, &mut c, end, cap, &bytes);
                split.closed.store(true, Ordering::Release);
                (done, bytes.get())
            };
            let other_side = move || {
                let (mut r, mut c) = sides;
                self.other_side(&mut r, &mut c, cap);
                (r, c)
            };
            let (looped, other) = match split.helping {
                Helping::Other => rayon::join(loop_side, other_side),
                #[cfg(test)]
                Helping::First | Helping::Never => {
                    let theirs = other_side();
                    // Moved out of its binding: called once, as the join would.
                    ({ loop_side }(), theirs)
                }
            };
            stopped = looped.0;
            bytes.set(bytes.get() + looped.1);
            theirs = Some(other);
        }
        r.put_back();
        c.put_back();
        if let Some((mut r2, mut c2)) = theirs {
            r2.put_back();
            c2.put_back();
            // The other core's wide values are the newer ones for its objects.
            r.big.extend(r2.big);
            c.big.extend(c2.big);
            // And those of a part it stopped in that the loop has not come to: the lists are
            // widened next, from what the maps hold.
            for out in &split.out {
                let mut handed = out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let (rw, cw) = std::mem::take(&mut handed.wide);
                r.big.extend(rw);
                c.big.extend(cw);
            }
        }
        *reachable_bytes += bytes.get();
        retained.packed.big = r.big;
        counts.packed.big = c.big;
        stopped
    }

    /// This core's part of [`vertices`](Self::vertices): the vertices below `end` but those of
    /// the parts the other core takes, whose sums to their paths it adds as it passes them.
    /// Gives where it stopped; the virtual root's share goes to `bytes`.
    fn loop_side<T: Cell>(
        &self,
        r: &mut Side<'_, T>,
        c: &mut Side<'_, T>,
        end: usize,
        cap: usize,
        bytes: &std::cell::Cell<u64>,
    ) -> Option<usize> {
        let split = self.split;
        let mut to_root = to_root(bytes);
        let over = over(cap);
        let mut tick = |i: usize, r: &Side<'_, T>, c: &Side<'_, T>| {
            if i.is_multiple_of(4096) {
                split.at.store(i, Ordering::Relaxed);
            }
            over(i, r, c)
        };
        let mut cur = end;
        // The parts not yet passed, the last first (the loop may have stopped inside one).
        let mut k = split.state.len().min(split.parts.spans.partition_point(|s| (s.0 as usize) < cur));
        while k > 0 {
            k -= 1;
            let (a, b) = split.parts.span(k);
            let top = b.min(cur);
            if let Some(i) = self.sum_down(r, c, top, cur, &mut to_root, &mut tick) {
                return Some(i);
            }
            cur = top;
            split.at.store(cur, Ordering::Relaxed);
            let state = match split.state[k].compare_exchange(FREE, MINE, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => MINE,
                Err(s) => s,
            };
            match state {
                MINE => {
                    if let Some(i) = self.sum_down(r, c, a, cur, &mut to_root, &mut tick) {
                        return Some(i);
                    }
                }
                TAKEN | DONE => {
                    loop {
                        match split.state[k].load(Ordering::Acquire) {
                            DONE => break,
                            ABANDONED => return None,
                            _ => std::thread::yield_now(),
                        }
                    }
                    let Handed { sums, rest, wide } =
                        std::mem::take(&mut *split.out[k].lock().unwrap_or_else(std::sync::PoisonError::into_inner));
                    // The other core's values, before the loop reads any of the vertices left.
                    r.big.extend(wide.0);
                    c.big.extend(wide.1);
                    let path = std::iter::once(raw::ROOT).chain(split.parts.path(k).iter().copied());
                    for (d, (x, n)) in path.zip(sums) {
                        if !to_root(d, x, n) {
                            r.set(d, r.get(d) + x);
                            c.set(d, c.get(d) + n);
                        }
                    }
                    // What the other core left of the part is the loop's (a run that stops in
                    // it goes on there as in any part of its own).
                    split.state[k].store(MINE, Ordering::Release);
                    if let Some(i) = self.sum_down(r, c, a, rest, &mut to_root, &mut tick) {
                        return Some(i);
                    }
                }
                _ => {}
            }
            cur = a;
        }
        self.sum_down(r, c, 1, cur, &mut to_root, &mut tick)
    }

    /// The other core's part of [`vertices`](Self::vertices): the parts it takes, from the
    /// lowest up, until the loop has stopped or is too near.
    fn other_side<T: Cell>(&self, r: &mut Side<'_, T>, c: &mut Side<'_, T>, cap: usize) {
        let split = self.split;
        for k in 0..split.state.len() {
            if split.closed.load(Ordering::Acquire) || over(cap)(k, r, c) {
                return;
            }
            let (a, b) = split.parts.span(k);
            let at = split.at.load(Ordering::Relaxed);
            if b >= at {
                return;
            }
            // A part longer than the loop's way to it would have the loop wait.
            if split.helping == Helping::Other && b - a > at - b {
                continue;
            }
            if split.state[k].compare_exchange(FREE, TAKEN, Ordering::AcqRel, Ordering::Acquire).is_err() {
                continue;
            }
            // Should this core panic, the loop must not wait for the part (the join then
            // passes the panic on).
            let guard = Abandon(&split.state[k]);
            let path = split.parts.path(k);
            let mut out = vec![(0u64, 0u64); path.len() + 1];
            // Most dominators are not on the path: a bit of 4,096 by the node's low bits says
            // so at once (a path of 64 objects sets at most 64).
            let mut filter = [0u64; 64];
            for &p in path {
                filter[(p as usize >> 6) & 63] |= 1 << (p & 63);
            }
            let mut keep = |d: u32, x: u64, n: u64| {
                let at = if d == raw::ROOT {
                    Some(0)
                } else if filter[(d as usize >> 6) & 63] & 1 << (d & 63) == 0 {
                    None
                } else {
                    path.iter().position(|&p| p == d).map(|i| i + 1)
                };
                match at {
                    Some(i) => {
                        out[i].0 += x;
                        out[i].1 += n;
                        true
                    }
                    None => false,
                }
            };
            // Within the cap on wide values, as the loop: a long chain in 16 bits would put
            // most of its links in this core's maps.
            let stopped = self.sum_down(r, c, a, b, &mut keep, &mut over(cap));
            // Stopped inside the part: the vertices below are the loop's, and what this core
            // added into them (a chain's link holds its next's sum) is in its maps as much as
            // in the list. The maps go with the part, and this core takes no more.
            let wide = match stopped {
                Some(_) => {
                    r.put_back();
                    c.put_back();
                    (std::mem::take(&mut r.big), std::mem::take(&mut c.big))
                }
                None => Default::default(),
            };
            let rest = stopped.unwrap_or(a);
            *split.out[k].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Handed { sums: out, rest, wide };
            std::mem::forget(guard);
            split.state[k].store(DONE, Ordering::Release);
            if stopped.is_some() {
                return;
            }
        }
    }

    /// Adds the sums of the vertices `lo..hi` (preorder), last first, into their dominators',
    /// but those `out` takes. Stops after a vertex where `stop` says so: gives its position.
    #[inline]
    fn sum_down<T: Cell>(
        &self,
        r: &mut Side<'_, T>,
        c: &mut Side<'_, T>,
        lo: usize,
        hi: usize,
        out: &mut impl FnMut(u32, u64, u64) -> bool,
        stop: &mut impl FnMut(usize, &Side<'_, T>, &Side<'_, T>) -> bool,
    ) -> Option<usize> {
        let Order { idom_n, vertex, .. } = *self;
        // Asks for what it reads or writes at random some steps ahead.
        for i in (lo..hi).rev() {
            if let Some(&x) = i.checked_sub(AHEAD).and_then(|j| vertex.get(j)) {
                prefetch::read(idom_n, x as usize);
                r.ahead(x);
                c.ahead(x);
            }
            if let Some(&x) = i.checked_sub(AHEAD / 2).and_then(|j| vertex.get(j)) {
                if let Some(&d) = idom_n.get(x as usize).filter(|&&d| d < raw::ROOT) {
                    r.ahead(d);
                    c.ahead(d);
                }
            }
            let v = vertex[i];
            let d = idom_n[v as usize];
            let (x, n) = (r.get(v), c.get(v));
            if !out(d, x, n) {
                r.set(d, r.get(d) + x);
                c.set(d, c.get(d) + n);
            }
            if stop(i, r, c) {
                return Some(i);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::sums_up_the_tree;
    use super::super::{raw, retained_sizes_with};
    use super::{Helping, Noting};

    /// The other core stops inside a part when its wide values come to the cap: in a chain each
    /// link holds the sum of the links below it, and the links above where it stopped are left
    /// to the loop, which must read the sums the other core made into them. A chain under one
    /// GC root, then a second root with objects the loop sums before it comes to the chain: a
    /// few children (the loop comes to the chain in 16 bits), or a chain of its own (the loop
    /// stops at the cap first, and comes to the first chain in 32 bits). Links of 1,000 bytes
    /// make the sizes wide from the 66th link up; links of 1 byte over 65,535 links make the
    /// sizes and the counts wide together.
    #[test]
    fn links_left_to_the_loop_read_the_other_cores_sums() {
        links_left_to_the_loop(400, 5, false, 1_000);
        links_left_to_the_loop(400, 300, true, 1_000);
        links_left_to_the_loop(70_000, 5, false, 1);
        links_left_to_the_loop(70_000, 70_000, true, 1);
    }

    /// A GC root with a chain of `links` below it, then a second root with `more` objects: its
    /// children, or `chained` one below the other; every object of `each` bytes.
    fn links_left_to_the_loop(links: usize, more: usize, chained: bool, each: u64) {
        // Preorder numbers are node numbers (0 is no object): 1 is the first root, 2..=links+1
        // its chain, then the second root and its objects.
        let second = links as u32 + 2;
        let n = second as usize + 1 + more;
        let mut idom_n = vec![raw::UNREACHABLE; n];
        let mut vertex = vec![raw::ROOT];
        let mut noting = Noting::new(n);
        let mut stack: Vec<u32> = Vec::new();
        let mut add = |v: u32, pops: usize, idom: u32, stack: &mut Vec<u32>, noting: &mut Noting| {
            for _ in 0..pops {
                stack.pop();
                noting.leave(stack.len(), v, stack.iter().copied());
            }
            idom_n[v as usize] = idom;
            vertex.push(v);
            noting.enter(stack.len(), v);
            stack.push(v);
        };
        add(1, 0, raw::ROOT, &mut stack, &mut noting);
        for v in 2..second {
            add(v, 0, v - 1, &mut stack, &mut noting);
        }
        add(second, stack.len(), raw::ROOT, &mut stack, &mut noting);
        for v in second + 1..n as u32 {
            if chained {
                add(v, 0, v - 1, &mut stack, &mut noting);
            } else {
                add(v, usize::from(v > second + 1), second, &mut stack, &mut noting);
            }
        }
        while stack.pop().is_some() {
            noting.leave(stack.len(), n as u32, stack.iter().copied());
        }
        let parts = noting.finish(n);
        // The first chain is the first part, under no object but its root: where the other
        // core starts, and stops.
        assert_eq!((parts.span(0), parts.path(0).len()), ((1, second as usize), 0));
        // Each object retains itself and what lies below it on its chain (the second root: all
        // of its objects).
        let below = |v: usize| -> u64 {
            match v {
                0 => 0,
                v if v < second as usize => (second as usize - v) as u64,
                v if v == second as usize || chained => (n - v) as u64,
                _ => 1,
            }
        };
        for cap in [50, 100, 200] {
            let sums = retained_sizes_with(&idom_n, vertex.clone(), &parts, cap, Helping::First, |_| each);
            for v in 0..n {
                let got = (sums.retained.get(v as u32), sums.counts.get(v as u32));
                assert_eq!(got, (each * below(v), below(v)), "{links} links, {more} more, cap {cap}, node {v}");
            }
            assert_eq!(sums.reachable_bytes, each * (n as u64 - 1), "{links} links, {more} more, cap {cap}");
        }
    }

    /// The sums with the vertices' loop split, the other core's parts taken first or as it
    /// comes to them, in 16 bits or widened part way, against each object's dominated objects
    /// summed one by one up the tree: on random DFS trees with dominators among the DFS
    /// ancestors, as semi-NCA gives them, with leaves, twigs after the vertices, unreachable
    /// objects, nodes numbered out of preorder and values of 64 KB and 4 GB and more.
    #[test]
    fn split_sums_are_the_sums() {
        let mut next = crate::testing::xorshift(0x5851_F42D_4C95_7F2D);
        for round in 0..40 {
            let m = 300 + (next() % 3000) as usize;
            let (twigs, leaves, lost) = (m / 20, m, 30usize);
            let n = m + twigs + leaves + lost;
            let mut node: Vec<u32> = (0..n as u32).collect();
            for i in (1..n).rev() {
                node.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            // Preorder 1..=m as a DFS makes it: each vertex's parent is on the path to the one
            // before; its dominator is one of its DFS ancestors (0: the virtual root).
            let mut vertex = vec![raw::ROOT; m + 1];
            let mut idom_n = vec![raw::UNREACHABLE; n];
            let mut noting = Noting::new(n);
            let mut stack: Vec<u32> = Vec::new();
            let shallow = next().is_multiple_of(2);
            for i in 1..=m {
                vertex[i] = node[i - 1];
                let up = match next() % 10 {
                    0..=5 => 0,
                    6 | 7 => 1,
                    8 => 2,
                    _ => (next() % 12) as usize,
                };
                let up = if shallow && stack.len() > 6 { up.max(2) } else { up };
                for _ in 0..up.min(stack.len()) {
                    stack.pop();
                    noting.leave(stack.len(), i as u32, stack.iter().map(|&p| vertex[p as usize]));
                }
                let above = stack.len() as u64 + 1;
                let d = match next() % 3 {
                    0 => stack.last().copied().unwrap_or(0),
                    _ => match next() % above {
                        0 => 0,
                        k => stack[k as usize - 1],
                    },
                };
                idom_n[vertex[i] as usize] = if d == 0 { raw::ROOT } else { vertex[d as usize] };
                noting.enter(stack.len(), i as u32);
                stack.push(i as u32);
            }
            while stack.pop().is_some() {
                noting.leave(stack.len(), m as u32 + 1, stack.iter().map(|&p| vertex[p as usize]));
            }
            let parts = noting.finish(m + 1);
            assert!(parts.len() >= 4, "round {round}: {} parts", parts.len());
            // Twigs follow the vertices; a leaf's dominator is a vertex, a twig or the root.
            let mut all = vertex.clone();
            for t in 0..twigs {
                let v = node[m + t];
                all.push(v);
                idom_n[v as usize] = vertex[1 + (next() % m as u64) as usize];
            }
            for l in 0..leaves {
                idom_n[node[m + twigs + l] as usize] = match next() % 20 {
                    0 => raw::ROOT,
                    1..=4 => all[m + 1 + (next() % twigs as u64) as usize],
                    _ => vertex[1 + (next() % m as u64) as usize],
                };
            }
            let size = |v: u32| match v {
                v if v % 1999 == 0 => 5 << 30,
                v if v % 13 == 0 => 30_000,
                v => 50 + u64::from(v % 7) * 40,
            };
            let want = sums_up_the_tree(&idom_n, size, |_| 1);
            for helping in [Helping::Never, Helping::First, Helping::Other] {
                for cap in [3, 40, 200, usize::MAX] {
                    let sums = retained_sizes_with(&idom_n, all.clone(), &parts, cap, helping, size);
                    let got = |v: usize| (sums.retained.get(v as u32), sums.counts.get(v as u32));
                    let first = (0..n).find(|&v| got(v) != (want.0[v], want.1[v]));
                    assert!(
                        first.is_none() && sums.reachable_bytes == want.2,
                        "round {round}, {helping:?}, cap {cap}: node {first:?} {:?}, bytes {} against {}",
                        first.map(|v| (got(v), want.0[v], want.1[v])),
                        sums.reachable_bytes,
                        want.2
                    );
                }
            }
        }
    }
}
