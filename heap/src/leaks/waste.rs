//! Reports that are not leaks but where memory goes: threads grouped by name (Probe's thread
//! report, for "pthread_create failed" OOMs) and duplicated Strings (memory wasted on copies).

use rustc_hash::FxHashMap;

use crate::analysis::Heap;
use crate::dominators::Reach;
use crate::index::strings::{array_of, key, SKIPPED};
use crate::index::{csr, HashedStrings, Node, StringCopies};
use crate::prefetch::AHEAD;

use super::rules::instances_of_subclasses;

/// Threads whose names differ only in their numbers (`pool-3-thread-17`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct ThreadGroup {
    /// The name with every run of digits written `#`.
    pub name: String,
    /// How many live threads have it.
    pub count: usize,
    /// One real name of the group.
    pub example: String,
}

/// Live threads grouped by name, the largest groups first.
pub fn thread_groups(heap: &Heap) -> Vec<ThreadGroup> {
    thread_groups_of(heap, instances_of_subclasses(heap, "java.lang.Thread"))
}

/// [`thread_groups`] of `threads`, the `Thread` instances (for a caller that found them with
/// other classes' in one look).
pub(crate) fn thread_groups_of(heap: &Heap, threads: Vec<Node>) -> Vec<ThreadGroup> {
    let idx = &heap.index;
    let mut groups: FxHashMap<String, (usize, String)> = FxHashMap::default();
    for t in threads {
        if heap.dominators.reach(t) != Reach::Strong {
            continue;
        }
        let name = idx.field_node(t, "name").and_then(|s| idx.string_value(s)).unwrap_or_else(|| "<unnamed>".into());
        let mut pattern = String::with_capacity(name.len());
        for ch in name.chars() {
            if ch.is_ascii_digit() {
                if !pattern.ends_with('#') {
                    pattern.push('#');
                }
            } else {
                pattern.push(ch);
            }
        }
        let e = groups.entry(pattern).or_insert_with(|| (0, name.clone()));
        e.0 += 1;
    }
    let mut out: Vec<ThreadGroup> =
        groups.into_iter().map(|(name, (count, example))| ThreadGroup { name, count, example }).collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then(a.name.cmp(&b.name)));
    out
}

/// Strings with the same contents, kept more than once.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DuplicateString {
    /// The contents (the first 100 characters).
    pub value: String,
    /// How many live copies.
    pub count: u64,
    /// Bytes all but one copy take (String objects and their value arrays).
    pub wasted_bytes: u64,
}

/// The `top` duplicated Strings by memory wasted.
///
/// A String's value is the characters it sees: before JDK 7u6, and on Dalvik, Strings share one
/// `char[]` and each reads its own stretch of it (`offset`, `count`), so Strings on one array are
/// most often different strings. Equal values count as copies; what the copies waste is each
/// extra String object, and each extra array that holds them: an array only that value fills
/// costs its shallow size, one that also holds other characters only the value's bytes. An
/// array shared by several equal Strings is one copy, not several.
pub fn duplicate_strings(heap: &Heap, top: usize) -> Vec<DuplicateString> {
    let idx = &heap.index;
    let Some(string) = idx.classes_named("java.lang.String").next() else { return Vec::new() };
    // The fields' places in a String's record, looked up once.
    let place =
        |name: &str| idx.classes[string.index()].fields.iter().find(|f| f.name == name).map(|f| f.offset as usize);
    let Some(value_at) = place("value") else { return Vec::new() };
    let window = place("offset").zip(place("count"));
    let id_size = idx.header.id_size;
    let int_at = |data: &[u8], at: usize| -> Option<i64> {
        data.get(at..at + 4).map(|b| i64::from(i32::from_be_bytes([b[0], b[1], b[2], b[3]])))
    };
    // When `value` is a String's first reference and there is no window (JDK 7u6 and later,
    // where it is the only one; ART, where the class follows), a String with a value has its
    // array as its first edge: no need to read the String's record, nor to look its array's id
    // up. (With no value, the first edge, if any, is to no primitive array: no value either way.)
    let only_edge = crate::index::StringLayout::value_first(&idx.classes[string.index()]);
    // The hashes come from the second pass when it made them (`Options::hash_strings`): then
    // nothing reads the dump here, and the Strings that may be copies were most likely found
    // while the dominator tree was built (see `Index::find_string_copies`).
    let held = idx.string_hashes.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
    let copies = match held {
        Some(HashedStrings::Copies(copies)) => Some(copies),
        Some(HashedStrings::PerString(hashes)) => idx.string_copies(hashes),
        None => None,
    };
    if let Some(copies) = copies.filter(|c| only_edge && c.class == string) {
        return top_copies(heap, reachable_copies(heap, &copies), top);
    }
    // A String's array, and the stretch of it the String reads (in array elements) when it says.
    let value_of = |s: Node| -> Option<(Node, Option<(usize, usize)>)> {
        if only_edge {
            let t = *idx.graph().edges(s.0).first()?;
            return Some((Node(t & !csr::WEAK), None));
        }
        let Ok(crate::hprof::SubRecord::Instance { data, .. }) = idx.record(s) else { return None };
        let b = data.get(value_at..value_at + id_size as usize)?;
        let array = idx.node(crate::hprof::cursor::read_id(b, id_size))?;
        let stretch = window.and_then(|(o, c)| {
            let (o, c) = (int_at(data, o)?, int_at(data, c)?);
            Some((usize::try_from(o).ok()?, usize::try_from(c).ok()?))
        });
        Some((array, stretch))
    };
    // Otherwise each String's array is read. One key per string: the 64-bit hash of its
    // characters, its array, and its place in `strings` (which are in node order); sorted, equal
    // values are neighbours, the copies on one array together. No map: 16 bytes a string with
    // the list of strings. Two different values sharing a hash does not happen in practice (ten
    // million strings' hashes collide once in about 370,000 dumps).
    //
    // The arrays are read a slice of strings at a time on every core, the pages given back
    // behind them, and beside the keys go each one's own size and what its array costs as a
    // copy (the sort moves 16 bytes a string, not 24).
    use rayon::prelude::*;
    const SLICE: usize = 1 << 11;
    let span = crate::trace::span("duplicate strings: instances");
    let strings = heap.instances_of(string);
    drop(span);
    let span = crate::trace::span("duplicate strings: read");
    let mut keys: Vec<u128> = vec![SKIPPED; strings.len()];
    let mut costs: Vec<(u32, u32)> = vec![(0, 0); strings.len()];
    let slices = keys.par_chunks_mut(SLICE).zip(costs.par_chunks_mut(SLICE)).zip(strings.par_chunks(SLICE));
    slices.enumerate().for_each_init(
        || Behind::new(&idx.data),
        |behind, (k, ((keys, costs), slice))| {
            // Each String's array is a cache miss in the dump, and the String's row in the graph
            // one before it: they are asked for some Strings ahead, the rows further ahead than
            // the arrays they lead to, so that the misses of a slice overlap. (Where a String's
            // array is found in its record, the record is what is asked for.)
            let g = idx.graph();
            let soon = |j: usize| {
                if let Some(&s) = slice.get(j + 2 * AHEAD).filter(|_| only_edge) {
                    g.prefetch_start(s.0);
                }
                if let Some(&s) = slice.get(j + AHEAD) {
                    let array = if only_edge { g.edges(s.0).first().map(|&t| Node(t & !csr::WEAK)) } else { Some(s) };
                    if let Some(n) = array {
                        crate::prefetch::read(&idx.data, idx.offset(n) as usize);
                    }
                }
            };
            for (j, &s) in slice.iter().enumerate() {
                soon(j);
                if heap.dominators.reach(s) != Reach::Strong {
                    continue;
                }
                let Some((array, stretch)) = value_of(s) else { continue };
                let Some((elem, bytes)) = idx.primitive_array_bytes(array) else { continue };
                let width = elem.size(id_size) as usize;
                // The characters this String reads: its stretch when it has one that fits.
                let chars = match stretch {
                    Some((from, count)) if from.checked_add(count).is_some_and(|end| end * width <= bytes.len()) => {
                        &bytes[from * width..(from + count) * width]
                    }
                    _ => bytes,
                };
                let array_cost = if chars.len() == bytes.len() { idx.shallow_size(array) } else { chars.len() as u64 };
                let h = crate::index::StringHashes::of(chars, elem);
                let (at, array_at) = (idx.offset(s), idx.offset(array));
                behind.read(at.min(array_at), at.max(array_at) + bytes.len() as u64);
                keys[j] = key(h, array.0, (k * SLICE + j) as u32);
                costs[j] = (cap(idx.shallow_size(s)), cap(array_cost));
            }
            behind.settle();
        },
    );
    idx.release_pages();
    drop(span);
    let span = crate::trace::span("duplicate strings: sort");
    // Strings with no value go: the runs below are then the counted copies alone.
    keys.retain(|&key| key != SKIPPED);
    keys.par_sort_unstable();
    drop(span);
    let span = crate::trace::span("duplicate strings: runs");
    // The runs in stretches cut where one value ends, on every core.
    let cuts = run_cuts(&keys, 64);
    let out: Vec<(u64, u64, Node)> = cuts
        .par_windows(2)
        .flat_map_iter(|w| {
            // Most runs are one string (11 M of them on a dump of long lists).
            keys[w[0]..w[1]].chunk_by(|a, b| a >> 64 == b >> 64).filter(|c| c.len() > 1).map(|copies| {
                let place = |key: u128| key as u32 as usize;
                let (count, wasted, kept) = waste(
                    copies,
                    |k| u64::from(costs[place(k)].0),
                    |on_one| on_one.iter().map(|&k| u64::from(costs[place(k)].1)).min().unwrap_or(0),
                );
                (count, wasted, strings[place(kept)])
            })
        })
        .collect();
    drop((keys, costs, strings));
    drop(span);
    top_copies(heap, out, top)
}

/// A size in 32 bits (the largest for anything larger).
fn cap(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// What one value's `copies` waste (their keys, sorted): their count, the bytes, and the key of
/// the copy kept. The lowest String is the one kept; every other is an extra object
/// (`object(key)` bytes), and every array but its one an extra copy of the characters
/// (`array(keys of the Strings on it)` bytes).
fn waste(copies: &[u128], object: impl Fn(u128) -> u64, array: impl Fn(&[u128]) -> u64) -> (u64, u64, u128) {
    let kept = copies.iter().copied().min_by_key(|&k| k as u32).unwrap_or(SKIPPED);
    let objects: u64 = copies.iter().filter(|&&k| k != kept).map(|&k| object(k)).sum();
    let arrays: u64 = copies
        .chunk_by(|a, b| array_of(*a) == array_of(*b))
        .filter(|on_one| array_of(on_one[0]) != array_of(kept))
        .map(array)
        .sum();
    (copies.len() as u64, objects + arrays, kept)
}

/// The `top` values by bytes wasted, from each value's copies, bytes wasted and kept String.
fn top_copies(heap: &Heap, mut out: Vec<(u64, u64, Node)>, top: usize) -> Vec<DuplicateString> {
    out.sort_by_key(|&(_, wasted, node)| (std::cmp::Reverse(wasted), node));
    out.truncate(top);
    out.into_iter()
        .map(|(count, wasted_bytes, s)| DuplicateString {
            value: heap.index.string_value(s).map(|v| v.chars().take(100).collect()).unwrap_or_default(),
            count,
            wasted_bytes,
        })
        .collect()
}

/// The values held more than once among the strongly reachable Strings of `copies`: each one's
/// copies, bytes wasted and kept String. A modern String's characters are its whole array, its
/// first edge (kept with it in `copies`), so an extra array costs its shallow size.
fn reachable_copies(heap: &Heap, copies: &StringCopies) -> Vec<(u64, u64, Node)> {
    use rayon::prelude::*;
    let _span = crate::trace::span("duplicate strings: runs");
    let idx = &heap.index;
    let size = |n: u32| u64::from(cap(idx.shallow_size(Node(n))));
    let StringCopies { nodes, runs, .. } = copies;
    // Runs in stretches of about a 64th of them, on every core.
    let stretch = (runs.len() / 64).max(1);
    runs.par_chunks(stretch)
        .enumerate()
        .flat_map_iter(|(k, ends)| {
            let mut start = if k == 0 { 0 } else { runs[k * stretch - 1] as usize };
            // A reachable copy as `waste` reads a key: its array, then itself.
            let mut strong: Vec<u128> = Vec::new();
            ends.iter().filter_map(move |&end| {
                let run = start..end as usize;
                start = end as usize;
                strong.clear();
                for at in run {
                    // Each String's reach and size, and its array's size, are cache misses:
                    // asked for some Strings ahead.
                    if let Some(&copy) = nodes.get(at + AHEAD) {
                        crate::prefetch::read(&heap.dominators.reach, copy as u32 as usize);
                        crate::prefetch::read(&idx.shallow, copy as u32 as usize);
                        crate::prefetch::read(&idx.shallow, (copy >> 32) as usize);
                    }
                    let copy = nodes[at];
                    if heap.dominators.reach(Node(copy as u32)) == Reach::Strong {
                        strong.push(u128::from(copy));
                    }
                }
                (strong.len() > 1).then(|| {
                    let (count, wasted, kept) = waste(&strong, |k| size(k as u32), |on_one| size(array_of(on_one[0])));
                    (count, wasted, Node(kept as u32))
                })
            })
        })
        .collect()
}

/// About `parts` places to cut sorted `keys` at, the first 0 and the last its length, none
/// inside a run of one value (keys equal in their high 64 bits).
fn run_cuts(keys: &[u128], parts: usize) -> Vec<usize> {
    let mut cuts = vec![0];
    for k in 1..parts {
        let mut at = (keys.len() * k / parts).max(*cuts.last().unwrap_or(&0));
        while at > 0 && at < keys.len() && keys[at] >> 64 == keys[at - 1] >> 64 {
            at += 1;
        }
        cuts.push(at);
    }
    cuts.push(keys.len());
    cuts.dedup();
    cuts
}

/// The stretch of a mapped dump a pass has read and not yet given back: given back once it spans
/// [`Behind::SPAN`] bytes, and when the pass ends. Giving pages back on one core interrupts the
/// others to forget them (in a virtual machine, an exit to the host each time): on a dump of
/// long lists, releasing behind every slice of 2,048 Strings took a quarter of the read.
struct Behind<'d> {
    data: &'d crate::data::Data,
    lo: u64,
    hi: u64,
}

impl<'d> Behind<'d> {
    /// Enough that the interruptions are few (800 for a 1.6 GB dump of packed Strings), little
    /// enough that the pages held stay out of the peak: at 8 MB, HeapGen's dump peaked 11 MB
    /// higher, at 2 MB as before, for the same time.
    const SPAN: u64 = 2 << 20;

    fn new(data: &'d crate::data::Data) -> Behind<'d> {
        Behind { data, lo: u64::MAX, hi: 0 }
    }

    /// Notes that `lo..hi` of the dump was read.
    fn read(&mut self, lo: u64, hi: u64) {
        self.lo = self.lo.min(lo);
        self.hi = self.hi.max(hi);
    }

    /// Gives back what was read when it spans more than [`SPAN`](Self::SPAN): called between
    /// slices, so Strings far apart are given back a slice at a time, as before, and Strings
    /// packed together some slices at a time.
    fn settle(&mut self) {
        if self.hi.saturating_sub(self.lo) > Self::SPAN {
            self.release();
        }
    }

    fn release(&mut self) {
        if self.lo < self.hi {
            self.data.release(self.lo as usize..self.hi as usize);
        }
        (self.lo, self.hi) = (u64::MAX, 0);
    }
}

impl Drop for Behind<'_> {
    fn drop(&mut self) {
        self.release();
    }
}

/// Open file descriptors the heap holds, by what holds them (Probe's FD report, from the dump).
#[derive(Debug, Clone, serde::Serialize)]
pub struct FdGroup {
    /// Class of the object that refers to the `FileDescriptor` (a stream, socket, parcel...).
    pub holder: String,
    /// How many open descriptors.
    pub count: usize,
}

/// `java.io.FileDescriptor` objects that are still open (`descriptor`, or Android's `fd`, not -1),
/// grouped by the class of their first referrer, largest groups first.
pub fn fd_groups(heap: &Heap) -> Vec<FdGroup> {
    fd_groups_of(heap, instances_of_subclasses(heap, "java.io.FileDescriptor"))
}

/// [`fd_groups`] of `fds`, the `FileDescriptor` instances (for a caller that found them with
/// other classes' in one look).
pub(crate) fn fd_groups_of(heap: &Heap, fds: Vec<Node>) -> Vec<FdGroup> {
    let idx = &heap.index;
    let open: Vec<Node> = fds
        .into_iter()
        .filter(|&fd| {
            let v = ["descriptor", "fd"].iter().find_map(|f| idx.field(fd, f).and_then(crate::values::Value::as_i64));
            v.is_some_and(|v| v >= 0) && heap.dominators.reach(fd) != Reach::Unreachable
        })
        .collect();
    // Who refers to each: one pass over the forward graph (a handful of descriptors do not
    // warrant building the reverse graph), in runs of objects on every core.
    let mut referrers: FxHashMap<Node, Vec<Node>> = open.iter().map(|&fd| (fd, Vec::new())).collect();
    if !open.is_empty() {
        let g = idx.graph();
        // Each edge's target is looked up in a bit per 64 objects first (a few kilobytes that
        // stay in cache), then in a bit per object: a map lookup per edge took 0.2 s of a dump
        // of linked lists, and a bit per object alone, missing the cache at every edge, 0.13 s.
        let mut coarse = vec![0u64; idx.len().div_ceil(64 * 64)];
        let mut wanted = vec![0u64; idx.len().div_ceil(64)];
        for fd in &open {
            crate::bits::set(&mut coarse, fd.index() / 64);
            crate::bits::set(&mut wanted, fd.index());
        }
        // On every core, a run of objects each, its edges read as one slice (they are
        // consecutive), the source of an edge found only for a hit; the finds in node order.
        use rayon::prelude::*;
        const RUN: usize = 1 << 20;
        let found: Vec<Vec<(u32, Node)>> = (0..idx.len().div_ceil(RUN))
            .into_par_iter()
            .map(|k| {
                let (lo, hi) = (k * RUN, ((k + 1) * RUN).min(idx.len()));
                let first = g.starts.get(lo) as usize;
                let mut out = Vec::new();
                for (i, &t) in g.targets[first..g.starts.get(hi) as usize].iter().enumerate() {
                    let t = t & !crate::index::csr::WEAK;
                    if crate::bits::get(&coarse, t as usize / 64) && crate::bits::get(&wanted, t as usize) {
                        let source = g.starts.row_at((first + i) as u32, lo..hi);
                        out.push((t, Node(source as u32)));
                    }
                }
                out
            })
            .collect();
        for (t, v) in found.into_iter().flatten() {
            if let Some(r) = referrers.get_mut(&Node(t)) {
                if r.last() != Some(&v) {
                    r.push(v);
                }
            }
        }
    }
    let mut groups: FxHashMap<String, usize> = FxHashMap::default();
    for fd in open {
        // The stream or socket that owns it, rather than a class's static (FileDescriptor.out).
        let mut holders = referrers.remove(&fd).unwrap_or_default();
        holders.sort_by_key(|&r| idx.as_class(r).is_some());
        let holder = holders.first().map_or_else(|| "(none)".into(), |&r| heap.display_class(r));
        *groups.entry(holder).or_default() += 1;
    }
    let mut out: Vec<FdGroup> = groups.into_iter().map(|(holder, count)| FdGroup { holder, count }).collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then(a.holder.cmp(&b.holder)));
    out
}
