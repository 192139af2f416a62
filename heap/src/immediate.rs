//! The immediate dominators of a set of objects, grouped by class (Eclipse MAT's "Immediate
//! Dominators"): which objects keep the set alive, one level up the dominator tree. For the
//! instances of a class it answers "who owns these": 4,000 `Session`s under one `HashMap` show as
//! one dominator of class `HashMap` dominating 4,000 objects.

use rustc_hash::FxHashMap;

use crate::index::classes::ClassId;
use crate::index::Node;
use crate::Heap;

/// The dominators of one class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DominatorGroup {
    /// Their class; `None` for the GC roots (objects of the set that nothing else dominates).
    pub class: Option<ClassId>,
    /// The distinct dominator objects, largest retained first (empty for the GC roots' group).
    pub dominators: Vec<Node>,
    /// How many objects of the set they dominate directly.
    pub dominated: u64,
    /// The dominators' retained sizes added (for the GC roots' group, the dominated objects'):
    /// a dominator inside another of the group counts in both.
    pub retained: u64,
}

/// The immediate dominators of a set, by class.
#[derive(Debug, Clone, Default)]
pub struct ImmediateDominators {
    /// Largest retained first.
    pub groups: Vec<DominatorGroup>,
    /// Objects of the set no GC root reaches (they have no dominator).
    pub unreachable: u64,
}

impl Heap {
    /// The immediate dominator of every object of `set`, grouped by the dominator's class.
    pub fn immediate_dominators(&self, set: &[Node]) -> ImmediateDominators {
        let idx = &self.index;
        let d = &self.dominators;
        let mut out = ImmediateDominators::default();
        let mut by_dominator: FxHashMap<Node, u64> = FxHashMap::default();
        let mut roots = DominatorGroup { class: None, dominators: Vec::new(), dominated: 0, retained: 0 };
        for &n in set {
            match self.dominator(n) {
                None => out.unreachable += 1,
                Some(None) => {
                    roots.dominated += 1;
                    roots.retained = roots.retained.saturating_add(d.retained(n));
                }
                Some(Some(dom)) => *by_dominator.entry(dom).or_default() += 1,
            }
        }
        let mut by_class: FxHashMap<ClassId, DominatorGroup> = FxHashMap::default();
        for (dom, count) in by_dominator {
            let class = idx.class_of(dom);
            let g = by_class.entry(class).or_insert_with(|| DominatorGroup {
                class: Some(class),
                dominators: Vec::new(),
                dominated: 0,
                retained: 0,
            });
            g.dominators.push(dom);
            g.dominated += count;
            g.retained = g.retained.saturating_add(d.retained(dom));
        }
        out.groups = by_class.into_values().collect();
        for g in &mut out.groups {
            g.dominators.sort_by(|&a, &b| d.retained(b).cmp(&d.retained(a)).then(a.cmp(&b)));
        }
        if roots.dominated > 0 {
            out.groups.push(roots);
        }
        out.groups.sort_by(|a, b| {
            b.retained.cmp(&a.retained).then(b.dominated.cmp(&a.dominated)).then(a.class.cmp(&b.class))
        });
        out
    }
}

impl ImmediateDominators {
    /// A group's name: its class, or `<GC roots>`.
    pub fn name(heap: &Heap, g: &DominatorGroup) -> String {
        g.class.map_or_else(|| "<GC roots>".to_string(), |c| heap.index.classes[c.index()].name.clone())
    }

    /// As JSON: `groups` (`class`, `dominators` count, `dominated`, `retained_bytes`, and the
    /// first `ids` of the dominators, largest first) and `unreachable`.
    pub fn to_json(&self, heap: &Heap, ids: usize) -> serde_json::Value {
        let groups: Vec<_> = self
            .groups
            .iter()
            .map(|g| {
                serde_json::json!({
                    "class": Self::name(heap, g),
                    "dominators": g.dominators.len(),
                    "dominated": g.dominated,
                    "retained_bytes": g.retained,
                    "ids": g.dominators.iter().take(ids).map(|&n| crate::fmt::hex(heap.index.id(n))).collect::<Vec<_>>(),
                })
            })
            .collect();
        serde_json::json!({ "groups": groups, "unreachable": self.unreachable })
    }

    /// As text, a row a class (names made safe for a terminal).
    pub fn to_text(&self, heap: &Heap) -> String {
        use crate::fmt::{human_bytes, safe};
        use std::fmt::Write as _;
        let mut out =
            format!("{:>10}  {:>10}  {:>10}  class of the dominators\n", "dominators", "dominated", "retained");
        for g in &self.groups {
            let _ = writeln!(
                out,
                "{:>10}  {:>10}  {:>10}  {}",
                g.dominators.len(),
                g.dominated,
                human_bytes(g.retained),
                safe(&Self::name(heap, g))
            );
        }
        if self.unreachable > 0 {
            let _ = writeln!(out, "({} unreachable: no dominator)", self.unreachable);
        }
        out
    }
}
