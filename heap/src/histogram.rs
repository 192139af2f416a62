//! The class histogram: each class's instances, shallow bytes and retained bytes, the last under
//! heaptui's rules or a peer's. A leaf of the analysis: the analysis and the peers' semantics
//! both call it, and it calls neither.

use rayon::prelude::*;

use crate::dominators::{Dominators, Reach};
use crate::index::{Index, Node, ObjectKind};

/// One row of the class histogram.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClassStats {
    /// Instance (or array) dumps whose class is exactly this one. Class objects are not counted
    /// here, under `java.lang.Class` or elsewhere: the summary counts them.
    pub instances: u64,
    /// Their total shallow size.
    pub shallow_bytes: u64,
    /// Their retained size, each object counted once: instances dominated by another instance of
    /// the same class are skipped, and so are weakly reachable ones (VisualVM's "retained size by
    /// class").
    pub retained_bytes: u64,
}

/// Instances and shallow bytes per class, without retained sizes: all a histogram-only run needs
/// (an index built with `skip_references`).
pub fn shallow_histogram(index: &Index) -> Vec<ClassStats> {
    let classes = index.classes.len();
    let class = |v: Node| (!is_class_object(index, v)).then(|| index.class_of(v).index());
    count_by(index, classes, class)
        .into_iter()
        .map(|(instances, shallow_bytes)| ClassStats { instances, shallow_bytes, retained_bytes: 0 })
        .collect()
}

/// The objects and their shallow bytes in each of `groups` groups, `group(object)` saying
/// which (`None`: in none); on every core, in runs of a million objects.
pub(crate) fn count_by(index: &Index, groups: usize, group: impl Fn(Node) -> Option<usize> + Sync) -> Vec<(u64, u64)> {
    count_by_each_run(index, groups, || &group)
}

/// [`count_by`] with a `group` of each run's own, made by `make`: one that keeps state from an
/// object to the next in node order.
pub(crate) fn count_by_each_run<G: FnMut(Node) -> Option<usize>>(
    index: &Index,
    groups: usize,
    make: impl Fn() -> G + Sync,
) -> Vec<(u64, u64)> {
    const RUN: u32 = 1 << 20;
    let n = index.len() as u32;
    (0..n.div_ceil(RUN))
        .into_par_iter()
        .map(|k| {
            let mut group = make();
            let mut counts = vec![(0u64, 0u64); groups];
            for v in (k * RUN..k.saturating_add(1).saturating_mul(RUN).min(n)).map(Node) {
                if let Some(e) = group(v).and_then(|g| counts.get_mut(g)) {
                    e.0 += 1;
                    e.1 += index.shallow_size(v);
                }
            }
            counts
        })
        .reduce(
            || vec![(0, 0); groups],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    (x.0, x.1) = (x.0 + y.0, x.1 + y.1);
                }
                a
            },
        )
}

/// The histogram: `stats`, the [`shallow_histogram`], with each class's retained size.
pub(crate) fn with_retained(index: &Index, dom: &Dominators, mut stats: Vec<ClassStats>) -> Vec<ClassStats> {
    // Runs of subtrees of about 1/64 of the objects each (a tenth of a second's work on one core
    // for the 1 GB benchmark dump: enough of them to share out, few enough to cost nothing).
    let split = (dom.strong_objects / 64).max(1 << 14);
    let retained = retained_by_class(index, dom, split);
    for (s, r) in stats.iter_mut().zip(retained) {
        s.retained_bytes = r;
    }
    stats
}

/// Retained size by class: the dominator tree walked depth first, an object counted only when
/// no object above it has its class.
///
/// Only strongly reachable objects count: weakly reachable ones go at the next collection
/// (VisualVM gives them no retained size either). Their subtrees hang off the virtual root apart
/// from the strong part, so skipping those subtrees is enough.
///
/// On every core: the children of an object retaining more than `big` objects are cut into runs
/// retaining about that many each, and all runs but the first are walked as tasks of their own,
/// each given the classes above it.
pub(crate) fn retained_by_class(index: &Index, dom: &Dominators, big: u64) -> Vec<u64> {
    // Class objects are not instances of a histogram row; `u32::MAX` marks them on the stack.
    retained_by_rows(index, dom, big, &|v: Node| if is_class_object(index, v) { u32::MAX } else { index.class_of(v).0 })
}

/// Retained size by class under a peer's rules (`semantics`, not heaptui's own):
/// - MAT sums the retained set of a class's instances *and its class object* (the minimum
///   retained size of `ClassImpl.getRetainedHeapSizeOfObjects`: the tops of the dominator
///   subtrees among them);
/// - VisualVM skips an instance only when an instance of its exact class is above it and the
///   class "can contain itself" (`ClassDump.canContainItself`: two instances or more and an
///   object field, not String, StringBuffer, StringBuilder or File; object arrays always,
///   primitive arrays never); the others count even when nested;
/// - ahat and perflib have no such column: heaptui's definition over their tree.
pub(crate) fn retained_by_class_for(
    index: &Index,
    dom: &Dominators,
    histogram: &[ClassStats],
    semantics: crate::Semantics,
) -> Vec<u64> {
    use crate::Semantics;
    let big = (dom.strong_objects / 64).max(1 << 14);
    match semantics {
        Semantics::Mat => retained_by_rows(index, dom, big, &|v: Node| {
            if is_class_object(index, v) {
                index.as_class(v).map_or(u32::MAX, |c| c.0)
            } else {
                index.class_of(v).0
            }
        }),
        Semantics::Visualvm => {
            let always: Vec<bool> = index
                .classes
                .iter()
                .zip(histogram)
                .map(|(c, s)| {
                    let named =
                        ["java.lang.String", "java.lang.StringBuffer", "java.lang.StringBuilder", "java.io.File"];
                    let contains = match c.kind {
                        crate::index::classes::ClassKind::ObjectArray => true,
                        crate::index::classes::ClassKind::PrimitiveArray(_) => false,
                        _ => {
                            s.instances >= 2
                                && c.fields.iter().any(|f| f.ty == crate::hprof::BasicType::Object)
                                && !named.contains(&c.name.as_str())
                        }
                    };
                    !contains
                })
                .collect();
            // A class object is an instance of java.lang.Class to the chain check (a
            // java.lang.Class instance record below one is skipped), but not summed.
            let class_class = index.java_lang_class().0 | UNCOUNTED;
            retained_by_rows(index, dom, big, &|v: Node| {
                if is_class_object(index, v) {
                    class_class
                } else {
                    let c = index.class_of(v).0;
                    if always[c as usize] {
                        c | ALWAYS
                    } else {
                        c
                    }
                }
            })
        }
        Semantics::Heaptui | Semantics::Ahat | Semantics::Perflib => retained_by_class(index, dom, big),
    }
}

/// A row that counts every instance, nested ones too (VisualVM's classes that cannot contain
/// themselves).
const ALWAYS: u32 = 1 << 31;
/// A row that is not summed but hides the row's objects below it (VisualVM's class objects).
const UNCOUNTED: u32 = 1 << 30;

/// Retained size per row, `row` naming each object's (`u32::MAX`: none; with [`ALWAYS`]: counted
/// even below another of its row; with [`UNCOUNTED`]: not counted, hiding its row below it).
fn retained_by_rows<R: Fn(Node) -> u32 + Sync>(index: &Index, dom: &Dominators, big: u64, row: &R) -> Vec<u64> {
    let nc = index.classes.len();
    let totals = std::sync::Mutex::new(vec![0u64; nc]);
    let tops: Vec<Node> = dom.children(None).iter().copied().filter(|&t| dom.reach(t) == Reach::Strong).collect();
    let (shared, tops) = (&totals, &tops[..]);
    rayon::scope(|s| {
        // The virtual root's children in runs too.
        let (mut start, mut sum) = (0, 0u64);
        for (i, &t) in tops.iter().enumerate() {
            sum += u64::from(dom.retained_count(t));
            if sum > big || i + 1 == tops.len() {
                let run = &tops[start..=i];
                s.spawn(move |s| walk(s, dom, row, big, shared, run, Vec::new()));
                (start, sum) = (i + 1, 0);
            }
        }
    });
    totals.into_inner().unwrap_or_default()
}

/// Walks the subtrees of `tops`, the classes of the objects above them in `above`, adding to
/// `totals` the retained size of each object whose class is not already on the path above it
/// (so nested instances of a class count once). A subtree retaining more than `big` objects is
/// cut into runs of children, each walked as a task of its own.
fn walk<'s, R: Fn(Node) -> u32 + Sync>(
    s: &rayon::Scope<'s>,
    dom: &'s Dominators,
    row: &'s R,
    big: u64,
    totals: &'s std::sync::Mutex<Vec<u64>>,
    tops: &'s [Node],
    above: Vec<u32>,
) {
    let nc = totals.lock().map_or(0, |t| t.len());
    let mut active = vec![0u32; nc];
    for &c in &above {
        active[c as usize] += 1;
    }
    let mut sums = vec![0u64; nc];
    // Adds `v` where it counts; its row on the stack (`u32::MAX` for none). Inlined: the
    // leaves' loop calls it for most objects.
    #[inline(always)]
    fn count_in<R: Fn(Node) -> u32>(v: Node, row: &R, dom: &Dominators, active: &[u32], sums: &mut [u64]) -> u32 {
        let c = row(v);
        if c != u32::MAX && c & ALWAYS != 0 {
            sums[(c & !ALWAYS) as usize] += dom.retained(v);
            return u32::MAX;
        }
        if c != u32::MAX {
            let counted = c & UNCOUNTED == 0;
            let c = c & !UNCOUNTED;
            if counted && active[c as usize] == 0 {
                sums[c as usize] += dom.retained(v);
            }
            return c;
        }
        c
    }
    // [`count_in`], and its row marked on the path: `v` goes on the stack.
    #[inline(always)]
    fn enter<R: Fn(Node) -> u32>(v: Node, row: &R, dom: &Dominators, active: &mut [u32], sums: &mut [u64]) -> u32 {
        let c = count_in(v, row, dom, active, sums);
        if c != u32::MAX {
            active[c as usize] += 1;
        }
        c
    }
    // (node, next child, its row, children walked here).
    let mut stack: Vec<(Node, u32, u32, u32)> = Vec::new();
    for &top in tops {
        // A leaf among the tops (the slots of a huge array cut into runs) is counted where it
        // stands, as the leaves below are: a frame of its own each, and a look at its (empty)
        // row of children, took most of the arrays dump's walk.
        if dom.retained_count(top) == 1 {
            count_in(top, row, dom, &active, &mut sums);
            continue;
        }
        let c = enter(top, row, dom, &mut active, &mut sums);
        stack.push((top, 0, c, u32::MAX));
        while let Some(&(v, pos, c, mut end)) = stack.last() {
            let kids = dom.children(Some(v));
            if pos == 0 && u64::from(dom.retained_count(v)) > big {
                // Runs of children retaining about `big` objects: the first walked here.
                let runs = child_runs(dom, kids, big, u64::from(dom.retained_count(v)).saturating_sub(1));
                end = runs.first().map_or(0, |r| r.1 as u32);
                if runs.len() > 1 {
                    let path: Vec<u32> =
                        above.iter().copied().chain(stack.iter().map(|f| f.2)).filter(|&c| c != u32::MAX).collect();
                    for &(a, b) in &runs[1..] {
                        let (path, tops) = (path.clone(), &kids[a..b]);
                        s.spawn(move |s| walk(s, dom, row, big, totals, tops, path));
                    }
                }
            }
            let end = end.min(kids.len() as u32);
            // The tree's leaves (most objects) are counted where they stand: nothing is above
            // them but the path already on the stack.
            let mut pos = pos;
            while pos < end && dom.retained_count(kids[pos as usize]) == 1 {
                count_in(kids[pos as usize], row, dom, &active, &mut sums);
                pos += 1;
            }
            if pos < end {
                let w = kids[pos as usize];
                if let Some(top) = stack.last_mut() {
                    (top.1, top.3) = (pos + 1, end);
                }
                let cw = enter(w, row, dom, &mut active, &mut sums);
                stack.push((w, 0, cw, u32::MAX));
            } else {
                if c != u32::MAX {
                    active[c as usize] -= 1;
                }
                stack.pop();
            }
        }
    }
    if let Ok(mut t) = totals.lock() {
        for (t, s) in t.iter_mut().zip(sums) {
            *t += s;
        }
    }
}

/// The children `kids` of one object (which retain `total` objects together) in runs of
/// consecutive children retaining more than `big` objects together, as index ranges. What is
/// left after the last full run joins it: every task walks more than `big` objects, so a deep
/// chain (a list's node holding the rest of the list and its item) is not a task per link.
fn child_runs(dom: &Dominators, kids: &[Node], big: u64, total: u64) -> Vec<(usize, usize)> {
    // Children that retain four objects each or fewer on average (the slots of a huge array)
    // are cut by their number alone: reading each one's count first was a pass on one core over
    // 22 M children before the others could start. Any cut gives the same sums.
    if kids.len() >= 1 << 16 && total <= 4 * kids.len() as u64 {
        let per_run = (kids.len() as u64 * big).div_ceil(total.max(1)).max(1) as usize;
        return (0..kids.len()).step_by(per_run).map(|a| (a, (a + per_run).min(kids.len()))).collect();
    }
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let (mut start, mut sum) = (0, 0u64);
    for (i, &w) in kids.iter().enumerate() {
        sum += u64::from(dom.retained_count(w));
        if sum > big {
            runs.push((start, i + 1));
            (start, sum) = (i + 1, 0);
        }
    }
    match runs.last_mut() {
        Some(last) => last.1 = kids.len(),
        None => runs.push((0, kids.len())),
    }
    runs
}

/// Whether `v` is a class object (they count in the summary, not as instances of a class).
#[inline]
fn is_class_object(index: &Index, v: Node) -> bool {
    index.class_of(v) == index.java_lang_class() && index.kind(v) == ObjectKind::Class
}
