//! Every object grouped by its class, each class's objects largest retained first: what an
//! instance list, a filter by class name and a query by class read, instead of a pass over
//! every object each time.

use rayon::prelude::*;

use crate::dominators::Dominators;
use crate::index::classes::ClassId;
use crate::index::{Index, Node};

/// The objects of class `c` are `nodes[starts[c]..starts[c + 1]]`, largest retained size first,
/// ties (and unreachable objects, which retain nothing) in id order. Four bytes an object.
pub struct ByClass {
    starts: Vec<u32>,
    nodes: Vec<Node>,
}

/// Classes with more objects than this are sorted with their keys read once into a list (one
/// scattered read an object instead of two a comparison).
const KEYED: usize = 64;

impl ByClass {
    /// Groups the objects of `index` by class (a count, then a fill in node order: each class's
    /// list starts in id order), then sorts each class's list by retained size, the classes
    /// spread over every core.
    pub(crate) fn build(index: &Index, dominators: &Dominators) -> ByClass {
        let (mut nodes, starts) =
            crate::cut::grouped(index.nodes(), index.classes.len(), |n| index.class_of(n).index());
        // Each class's list as its own slice, so the cores can sort them apart.
        let mut lists = crate::cut::by_lengths(&mut nodes, starts.windows(2).map(|w| (w[1] - w[0]) as usize));
        // The largest classes first, so that one of them is not left to the last core alone.
        lists.sort_unstable_by_key(|l| std::cmp::Reverse(l.len()));
        lists.into_par_iter().for_each(|list| sort_by_retained(list, dominators));
        ByClass { starts, nodes }
    }

    /// The objects whose class is exactly `class`, largest retained first.
    pub fn of(&self, class: ClassId) -> &[Node] {
        let c = class.index();
        match (self.starts.get(c), self.starts.get(c + 1)) {
            (Some(&a), Some(&b)) => &self.nodes[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.starts.len() * 4 + self.nodes.len() * 4
    }
}

/// Sorts `list` (ascending nodes) largest retained first, ties by node.
fn sort_by_retained(list: &mut [Node], d: &Dominators) {
    if list.len() <= KEYED {
        list.sort_unstable_by_key(|&n| (std::cmp::Reverse(d.retained(n)), n));
        return;
    }
    let mut keyed: Vec<(std::cmp::Reverse<u64>, Node)> =
        list.iter().map(|&n| (std::cmp::Reverse(d.retained(n)), n)).collect();
    if keyed.len() > 1 << 16 {
        keyed.par_sort_unstable();
    } else {
        keyed.sort_unstable();
    }
    for (slot, (_, n)) in list.iter_mut().zip(keyed) {
        *slot = n;
    }
}
