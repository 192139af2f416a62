//! Views of a set of objects a screen lists: `m` merges their shortest paths from the GC roots
//! into one tree, `D` groups their immediate dominators by class. The set is what the screen
//! shows: a class's instances (or the open instance list), a suspect's objects, the objects a
//! thread holds, the objects the selected tree node dominates. The analysis runs on a thread
//! (a class of millions takes longer than a keypress may); the view says so meanwhile.

use std::sync::Arc;

use heap::Node;

use super::cursor::Cursor;
use super::keymap::Action;
use super::model::SetOf;
use super::model::{App, SetKind, SetView, ThreadRow};
use super::msg::{Effect, Job, JobKind};

fn nodes(v: Vec<Node>) -> SetOf {
    SetOf::Nodes(Arc::new(v))
}
use super::screen::Screen;

/// One row of a set view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetRow {
    /// A node of the merged paths' tree (its index there) at a depth.
    Merged(usize, usize),
    /// A group of immediate dominators (its index).
    Group(usize),
    /// One dominator of the open group (its place in the group's list).
    Dominator(usize),
}

impl App {
    /// The set of objects the screen lists where the cursor is, and what to call it.
    fn listed_set(&self) -> Option<(String, SetOf)> {
        let l = self.loaded()?;
        let heap = &l.heap;
        match self.screen {
            Screen::Classes => match &self.classes.instances {
                Some((c, nodes, _)) => {
                    Some((format!("{} instances of {}", nodes.len(), heap.index.classes[c.index()].name), nodes.set()))
                }
                None => {
                    let c = self.classes.rows.get(self.classes.cursor.selected)?.class?;
                    let count = heap.instances_by_retained(c).len();
                    Some((format!("{count} instances of {}", heap.index.classes[c.index()].name), SetOf::Class(c)))
                }
            },
            Screen::Leaks => {
                let k = self.selected_leak()?;
                Some((format!("{} objects of the suspect {}", k.instances.len(), k.class), nodes(k.instances.clone())))
            }
            Screen::Threads => {
                let rows = self.thread_rows();
                let t = match rows.get(self.threads.cursor.selected)? {
                    ThreadRow::Thread(t) | ThreadRow::Frame(t, _) | ThreadRow::Local(t, ..) | ThreadRow::Note(t, _) => {
                        *t
                    }
                };
                let t = l.threads.get(t)?;
                let mut nodes: Vec<Node> =
                    t.frames.iter().flatten().flat_map(|f| &f.locals).chain(&t.unplaced).map(|l| l.node).collect();
                nodes.sort_unstable();
                nodes.dedup();
                let name = t.name.as_deref().unwrap_or("<unnamed>");
                Some((format!("{} objects the thread {name:?} holds", nodes.len()), SetOf::Nodes(Arc::new(nodes))))
            }
            // A class group: its objects.
            Screen::Dominators if self.dom.groups.is_some() => {
                let sel = self.dom.group_cursor.selected;
                let row = *self.group_rows(sel + 1).get(sel)?;
                let g = &self.dom.groups.as_ref()?.nodes[row.group];
                let name = &heap.index.classes[g.class.index()].name;
                Some((format!("{} {name} in the dominator tree", g.objects.len()), nodes(g.objects.clone())))
            }
            Screen::Dominators => {
                let n = self.selected_node()?;
                let nodes = heap.dominators.children(Some(n)).to_vec();
                Some((
                    format!("{} objects {} dominates", nodes.len(), heap.display_class(n)),
                    SetOf::Nodes(Arc::new(nodes)),
                ))
            }
            _ => None,
        }
    }

    /// `m` / `D`: starts the analysis of the listed set; its view opens now and fills when the
    /// result arrives.
    pub(super) fn analyse_set(&mut self, what: JobKind) -> Vec<Effect> {
        let Some(heap) = self.heap() else { return Vec::new() };
        let empty = |s: &SetOf| match s {
            SetOf::Class(c) => self.heap().is_none_or(|h| h.instances_by_retained(*c).is_empty()),
            SetOf::Nodes(n) => n.is_empty(),
        };
        let Some((title, set)) = self.listed_set().filter(|(_, s)| !empty(s)) else {
            self.status = Some("no objects listed here to analyse".into());
            return Vec::new();
        };
        let name = match what {
            JobKind::MergedPaths => "merging the shortest paths from the GC roots",
            JobKind::ImmediateDominators => "finding the immediate dominators",
        };
        self.remember();
        self.next_job += 1;
        let number = self.next_job;
        let kind = SetKind::Pending(name, number);
        self.set_view = Some(SetView { screen: self.screen, title: title.clone(), kind, cursor: Cursor::default() });
        vec![Effect::Analyse(Job { heap, title, number, set, what })]
    }

    /// The result of analysis `number`: it fills its view, and the places that remember that
    /// view while it waited (so `Back` does not return to a view that waits for ever).
    pub(super) fn analysed(&mut self, heap: &Arc<heap::Heap>, number: u64, kind: SetKind) {
        if !self.heap().is_some_and(|h| Arc::ptr_eq(&h, heap)) {
            return;
        }
        let views = self.set_view.iter_mut().chain(self.places.iter_mut().filter_map(|p| p.set_view.as_mut()));
        for v in views {
            if matches!(v.kind, SetKind::Pending(_, n) if n == number) {
                v.kind = kind.clone();
            }
        }
    }

    /// The set view open on this screen, if any.
    pub fn set_view_here(&self) -> Option<&SetView> {
        self.set_view.as_ref().filter(|v| v.screen == self.screen)
    }

    /// The rows of the set view (at most `limit`).
    pub fn set_rows(&self, limit: usize) -> Vec<SetRow> {
        let Some(v) = self.set_view_here() else { return Vec::new() };
        match &v.kind {
            SetKind::Pending(..) => Vec::new(),
            SetKind::Merged { tree, open } => {
                let mut rows = Vec::new();
                let mut stack: Vec<(usize, usize)> = tree.roots.iter().rev().map(|&r| (r, 0)).collect();
                while let Some((i, depth)) = stack.pop() {
                    if rows.len() >= limit {
                        break;
                    }
                    rows.push(SetRow::Merged(i, depth));
                    if open.contains(&i) {
                        stack.extend(tree.children(i).iter().rev().map(|&k| (k, depth + 1)));
                    }
                }
                rows
            }
            SetKind::Dominators { result, group: None } => {
                (0..result.groups.len()).take(limit).map(SetRow::Group).collect()
            }
            SetKind::Dominators { result, group: Some(g) } => {
                (0..result.groups.get(*g).map_or(0, |g| g.dominators.len()))
                    .take(limit)
                    .map(SetRow::Dominator)
                    .collect()
            }
        }
    }

    /// The object a set view's row names.
    pub(super) fn set_row_node(&self, row: SetRow) -> Option<Node> {
        let v = self.set_view_here()?;
        match (&v.kind, row) {
            (SetKind::Merged { tree, .. }, SetRow::Merged(i, _)) => tree.nodes.get(i).map(|n| n.node),
            (SetKind::Dominators { result, group: Some(g) }, SetRow::Dominator(k)) => {
                result.groups.get(*g)?.dominators.get(k).copied()
            }
            _ => None,
        }
    }

    /// An action while a set view is open on this screen; `None` for those it leaves to the
    /// screen (switching screens, quitting, help...).
    pub(super) fn set_act(&mut self, action: Action) -> Option<Vec<Effect>> {
        self.set_view_here()?;
        let page = self.page;
        let rows = self.set_rows(usize::MAX);
        let selected = self.set_view.as_ref().map_or(0, |v| v.cursor.selected);
        let row = rows.get(selected).copied();
        let len = rows.len();
        let step = |app: &mut App, delta: isize| {
            if let Some(v) = &mut app.set_view {
                v.cursor.step(delta, len, page);
            }
        };
        match action {
            Action::Up => step(self, -1),
            Action::Down => step(self, 1),
            Action::PageUp => step(self, -(page as isize)),
            Action::PageDown => step(self, page as isize),
            Action::Top => step(self, isize::MIN / 2),
            Action::Bottom => step(self, isize::MAX / 2),
            Action::Back => self.back(),
            Action::Expand | Action::Collapse => self.toggle_merged(row, action == Action::Expand),
            Action::Open => match row {
                // A closed node with children opens; otherwise the object opens in the Inspector.
                Some(SetRow::Merged(i, _)) => {
                    let closed = match self.set_view.as_ref().map(|v| &v.kind) {
                        Some(SetKind::Merged { tree, open }) => !open.contains(&i) && !tree.children(i).is_empty(),
                        _ => false,
                    };
                    if closed {
                        self.toggle_merged(row, true);
                    } else if let Some(n) = row.and_then(|r| self.set_row_node(r)) {
                        self.inspect(n);
                    }
                }
                Some(SetRow::Group(g)) => {
                    self.remember();
                    if let Some(v) = &mut self.set_view {
                        if let SetKind::Dominators { group, .. } = &mut v.kind {
                            *group = Some(g);
                        }
                        v.cursor = Cursor::default();
                    }
                }
                Some(SetRow::Dominator(_)) => {
                    if let Some(n) = row.and_then(|r| self.set_row_node(r)) {
                        self.inspect(n);
                    }
                }
                None => {}
            },
            Action::Inspect => {
                if let Some(n) = row.and_then(|r| self.set_row_node(r)) {
                    self.inspect(n);
                }
            }
            Action::Filter | Action::Sort | Action::MergedPaths | Action::ImmediateDominators => {
                self.status = Some("Esc closes this view first".into());
            }
            _ => return None,
        }
        Some(Vec::new())
    }

    /// Opens or closes a node of the merged paths' tree; closing a node inside goes to its parent.
    fn toggle_merged(&mut self, row: Option<SetRow>, open_it: bool) {
        let Some(SetRow::Merged(i, _)) = row else { return };
        let Some(v) = &mut self.set_view else { return };
        let SetKind::Merged { tree, open } = &mut v.kind else { return };
        if open_it {
            if !tree.children(i).is_empty() {
                open.insert(i);
            }
        } else if !open.remove(&i) {
            if let Some(p) = tree.nodes[i].parent {
                open.remove(&p);
                let target = p;
                let rows = self.set_rows(usize::MAX);
                if let (Some(pos), Some(v)) =
                    (rows.iter().position(|r| matches!(r, SetRow::Merged(x, _) if *x == target)), &mut self.set_view)
                {
                    v.cursor.selected = pos;
                    v.cursor.fit(self.page);
                }
            }
        }
    }
}
