//! The dominator tree's rows: opening and closing nodes, the rows shown (never more than are on
//! screen), and sorting children only as far as they are shown.

use std::collections::HashMap;

use heap::{Heap, Node};

use super::model::{App, DomRow, Kids};

impl Kids {
    pub(super) fn new(nodes: Vec<Node>) -> Kids {
        Kids { nodes: std::sync::Arc::new(nodes), sorted: 0 }
    }

    /// Sorts at least the first `upto` children (a few more, to spare the next keys the work).
    fn sort_to(&mut self, upto: usize, heap: &Heap) {
        let d = &heap.dominators;
        let nodes: &mut Vec<Node> = std::sync::Arc::make_mut(&mut self.nodes);
        self.sorted = sort_prefix(nodes, self.sorted, upto, |n| d.retained(n));
    }
}

/// Puts at least the first `upto` of `nodes` in order, largest `key` first (ties by node),
/// `sorted` of them being so already; returns how many are now (a few more than asked, to
/// spare the next keys the work). Every key is read once, on all cores (they are scattered
/// reads), then the best are selected and only they sorted: a list of millions costs a
/// selection, not a full sort.
pub(super) fn sort_prefix(nodes: &mut [Node], sorted: usize, upto: usize, key: impl Fn(Node) -> u64 + Sync) -> usize {
    use rayon::prelude::*;
    if upto <= sorted || sorted >= nodes.len() {
        return sorted;
    }
    let end = (upto.max(sorted + 256) * 2).min(nodes.len());
    let mut keyed: Vec<(std::cmp::Reverse<u64>, Node)> =
        nodes[sorted..].par_iter().map(|&n| (std::cmp::Reverse(key(n)), n)).collect();
    let k = end - sorted;
    if k < keyed.len() {
        keyed.select_nth_unstable(k - 1);
    }
    keyed[..k].sort_unstable();
    for (slot, (_, n)) in nodes[sorted..].iter_mut().zip(keyed) {
        *slot = n;
    }
    end
}

impl App {
    /// Opens (`open`) or closes the selected node; closing a leaf or a closed node moves to its
    /// parent.
    pub(super) fn expand(&mut self, open: bool) {
        let rows = self.dom_rows(self.dom.cursor.selected + 1);
        let Some(row) = rows.get(self.dom.cursor.selected).copied() else { return };
        let Some(heap) = self.heap() else { return };
        if open {
            if self.dom.expanded.contains(&Some(row.node)) {
                return;
            }
            let ready =
                self.loaded().and_then(|l| l.presorted.lock().ok().and_then(|m| m.children.get(&row.node).cloned()));
            self.dom.children.entry(Some(row.node)).or_insert_with(|| match ready {
                Some(nodes) => Kids { sorted: nodes.len(), nodes },
                None => Kids::new(heap.dominators.children(Some(row.node)).to_vec()),
            });
            self.dom.expanded.insert(Some(row.node));
            self.dom.visible += self.visible_below(row.node);
            self.sort_visible();
        } else if self.dom.expanded.contains(&Some(row.node)) {
            self.dom.visible -= self.visible_below(row.node);
            self.dom.expanded.remove(&Some(row.node));
            self.sort_visible();
        } else {
            // Collapsing a leaf or a closed node moves to its parent, which is above it.
            if let Some(Some(parent)) = heap.dominator(row.node) {
                if let Some(i) = rows.iter().rposition(|r| r.node == parent) {
                    self.dom.cursor.selected = i;
                    self.dom.cursor.fit(self.page);
                }
            }
        }
    }

    /// Rows shown under the expanded node `n` (its children, and theirs where expanded).
    ///
    /// Counted from the expanded nodes, which are few, rather than by walking `n`'s children: a
    /// node can dominate millions (a huge array's elements), and looking each one up in the
    /// expanded set took 130–160 ms. An expanded node shows its children under `n` when it is
    /// `n`, or its immediate dominator is expanded and shows under `n`; each answer is kept, so
    /// every expanded node is climbed from once.
    fn visible_below(&self, n: Node) -> usize {
        let Some(heap) = self.heap() else { return 0 };
        let mut under: HashMap<Node, bool> = HashMap::new();
        under.insert(n, true);
        let mut count = 0;
        for &e in self.dom.expanded.iter().flatten() {
            let mut path = Vec::new();
            let mut cur = e;
            let answer = loop {
                if let Some(&known) = under.get(&cur) {
                    break known;
                }
                path.push(cur);
                match heap.dominator(cur) {
                    Some(Some(p)) if self.dom.expanded.contains(&Some(p)) => cur = p,
                    _ => break false,
                }
            };
            under.extend(path.into_iter().map(|v| (v, answer)));
            if answer {
                count += self.dom.children.get(&Some(e)).map_or(0, |k| k.nodes.len());
            }
        }
        count
    }

    /// The first `limit` visible rows of the dominator tree (never more: a 10-million-node tree
    /// costs only what is on screen); through the filter, when one is set.
    pub fn dom_rows(&self, limit: usize) -> Vec<DomRow> {
        if let Some(rows) = &self.dom.filtered {
            return rows.iter().take(limit).copied().collect();
        }
        let mut out = Vec::new();
        self.walk_dom(limit, |_, _, row| out.push(row));
        out
    }

    /// Visits the first `limit` visible rows: the list each comes from, its index there, the row.
    fn walk_dom(&self, limit: usize, mut visit: impl FnMut(Option<Node>, usize, DomRow)) {
        let Some(top) = self.dom.children.get(&None) else { return };
        let mut stack: Vec<(Option<Node>, &[Node], usize)> = vec![(None, &top.nodes, 0)];
        let mut count = 0;
        while let Some((list, nodes, i)) = stack.last_mut() {
            if count >= limit {
                break;
            }
            let Some(&n) = nodes.get(*i) else {
                stack.pop();
                continue;
            };
            let (list, index) = (*list, *i);
            *i += 1;
            let depth = stack.len() - 1;
            visit(list, index, DomRow { node: n, depth });
            count += 1;
            if self.dom.expanded.contains(&Some(n)) {
                if let Some(kids) = self.dom.children.get(&Some(n)) {
                    stack.push((Some(n), &kids.nodes, 0));
                }
            }
        }
    }

    /// Sorts each child list as far as the rows on screen (and a page more) reach.
    pub(super) fn sort_visible(&mut self) {
        let Some(heap) = self.heap() else { return };
        let need = self.dom.cursor.offset + 2 * self.page + 1;
        // Sorting can bring other (expanded) nodes into view: repeat until nothing changes.
        for _ in 0..4 {
            let mut reach: HashMap<Option<Node>, usize> = HashMap::new();
            self.walk_dom(need, |list, i, _| {
                let e = reach.entry(list).or_insert(0);
                *e = (*e).max(i + 1);
            });
            let mut changed = false;
            for (list, upto) in reach {
                if let Some(k) = self.dom.children.get_mut(&list) {
                    if upto > k.sorted && k.sorted < k.nodes.len() {
                        k.sort_to(upto, &heap);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Counts the visible rows again (after the expanded set changed wholesale).
    pub(super) fn recount_dom(&mut self) {
        let mut count = 0;
        self.walk_dom(usize::MAX, |_, _, _| count += 1);
        self.dom.visible = count;
    }

    /// Applies the dominator tree's filter: the reachable objects whose class matches it (a class
    /// object, the class it stands for) (the
    /// largest [`FILTER_MATCHES`] by retained size), each under its chain of dominators, as a
    /// tree with the largest first at each level. Class names are matched once each; of each
    /// matching class only the largest instances are read.
    pub(super) fn filter_dom(&mut self) {
        self.dom.cursor = super::cursor::Cursor::default();
        let pattern = self.dom.filter.as_str().to_string();
        let Some(heap) = self.heap().filter(|_| !pattern.is_empty()) else {
            self.dom.filtered = None;
            return;
        };
        let idx = &heap.index;
        let d = &heap.dominators;
        // The largest matches: each matching class's instances are kept largest first, so only
        // the head of each list is read (the first reachable ones), and its class object.
        type Best = std::collections::BinaryHeap<std::cmp::Reverse<(u64, Node)>>;
        let mut best = Best::new();
        let mut keep = |n: Node| {
            best.push(std::cmp::Reverse((d.retained(n), n)));
            if best.len() > FILTER_MATCHES {
                best.pop();
            }
        };
        let reachable = |n: Node| heap.dominator(n).is_some();
        for (c, class) in idx.classes.iter().enumerate() {
            if !super::histogram::is_match(&class.name, &pattern) {
                continue;
            }
            // A class object matches by the class it stands for (`class Foo`), as it is shown;
            // not as an instance of java.lang.Class.
            let instances = heap.instances_by_retained(heap::ClassId(c as u32)).iter().copied();
            let objects = instances.filter(|&n| idx.as_class(n).is_none() && reachable(n)).take(FILTER_MATCHES);
            objects.chain(class.node.filter(|&n| reachable(n))).for_each(&mut keep);
        }
        // Every match and its dominators, each under its parent.
        let mut kids: HashMap<Option<Node>, Vec<Node>> = HashMap::new();
        let mut seen: std::collections::HashSet<Node> = Default::default();
        for std::cmp::Reverse((_, n)) in best.into_vec() {
            let mut cur = n;
            while seen.insert(cur) {
                let parent = heap.dominator(cur).flatten();
                kids.entry(parent).or_default().push(cur);
                match parent {
                    Some(p) => cur = p,
                    None => break,
                }
            }
        }
        for list in kids.values_mut() {
            list.sort_by(|a, b| d.retained(*b).cmp(&d.retained(*a)).then(a.cmp(b)));
        }
        let mut rows = Vec::new();
        let mut stack: Vec<(Node, usize)> =
            kids.get(&None).map(|l| l.iter().rev().map(|&n| (n, 0)).collect()).unwrap_or_default();
        while let Some((n, depth)) = stack.pop() {
            rows.push(DomRow { node: n, depth });
            if let Some(l) = kids.get(&Some(n)) {
                stack.extend(l.iter().rev().map(|&k| (k, depth + 1)));
            }
        }
        self.dom.filtered = Some(rows);
    }
}

/// How many matching objects the dominator tree's filter shows (with their ancestors).
pub const FILTER_MATCHES: usize = 500;

/// The objects of `objects` grouped by class, largest retained first (ties by class).
fn group_by_class(heap: &Heap, objects: impl Iterator<Item = Node>) -> Vec<super::model::ClassGroup> {
    let idx = &heap.index;
    let d = &heap.dominators;
    // By class table index: no hashing per object.
    let mut slot: Vec<u32> = vec![u32::MAX; idx.classes.len()];
    let mut groups: Vec<super::model::ClassGroup> = Vec::new();
    for n in objects {
        let c = idx.class_of(n);
        if slot[c.index()] == u32::MAX {
            slot[c.index()] = groups.len() as u32;
            groups.push(super::model::ClassGroup { class: c, objects: Vec::new(), retained: 0, children: None });
        }
        let g = &mut groups[slot[c.index()] as usize];
        g.objects.push(n);
        g.retained = g.retained.saturating_add(d.retained(n));
    }
    groups.sort_by(|a, b| b.retained.cmp(&a.retained).then(a.class.cmp(&b.class)));
    groups
}

/// One visible row of the grouped tree: a group (its index) and its depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupRow {
    pub group: usize,
    pub depth: usize,
}

impl App {
    /// `c`: groups the dominator tree by class, or back to objects.
    pub(super) fn toggle_groups(&mut self) {
        if self.dom.groups.take().is_some() {
            return;
        }
        let Some(heap) = self.heap() else { return };
        let mut groups = super::model::ClassGroups::default();
        for g in group_by_class(&heap, heap.dominators.children(None).iter().copied()) {
            groups.roots.push(groups.nodes.len());
            groups.nodes.push(g);
        }
        self.dom.groups = Some(groups);
        self.dom.group_cursor = super::cursor::Cursor::default();
    }

    /// The grouped tree's visible rows (at most `limit`).
    pub fn group_rows(&self, limit: usize) -> Vec<GroupRow> {
        let Some(g) = &self.dom.groups else { return Vec::new() };
        let mut rows = Vec::new();
        let mut stack: Vec<(usize, usize)> = g.roots.iter().rev().map(|&r| (r, 0)).collect();
        while let Some((i, depth)) = stack.pop() {
            if rows.len() >= limit {
                break;
            }
            rows.push(GroupRow { group: i, depth });
            if g.open.contains(&i) {
                if let Some(kids) = &g.nodes[i].children {
                    stack.extend(kids.iter().rev().map(|&k| (k, depth + 1)));
                }
            }
        }
        rows
    }

    /// Opens (grouping what its objects dominate, the first time) or closes the selected group.
    pub(super) fn toggle_group(&mut self, open: bool) {
        let Some(heap) = self.heap() else { return };
        let sel = self.dom.group_cursor.selected;
        let Some(row) = self.group_rows(sel + 1).get(sel).copied() else { return };
        let Some(g) = &mut self.dom.groups else { return };
        if !open {
            g.open.remove(&row.group);
            return;
        }
        if g.nodes[row.group].children.is_none() {
            let d = &heap.dominators;
            let below = group_by_class(
                &heap,
                g.nodes[row.group].objects.iter().flat_map(|&n| d.children(Some(n)).iter().copied()),
            );
            let mut kids = Vec::with_capacity(below.len());
            for child in below {
                kids.push(g.nodes.len());
                g.nodes.push(child);
            }
            g.nodes[row.group].children = Some(kids);
        }
        if g.nodes[row.group].children.as_ref().is_some_and(|k| !k.is_empty()) {
            g.open.insert(row.group);
        }
    }
}
