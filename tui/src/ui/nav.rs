//! Moving around: the cursor of the list on screen, the selected object, opening it (an instance
//! list, a leak trace, a tree node, the inspector) and going back.

use heap::Node;

use super::cursor::Cursor;
use super::model::App;
use super::screen::Screen;

impl App {
    /// Rows of the current list on the current screen.
    fn list_len(&self) -> usize {
        match self.screen {
            Screen::Classes => match &self.classes.instances {
                Some((_, nodes, _)) => nodes.len(),
                None => self.classes.rows.len(),
            },
            Screen::Leaks => match (&self.leaks.trace, self.loaded()) {
                (Some(_), Some(l)) => l.leaks.get(self.leaks.cursor.selected).map_or(0, |k| k.trace.len()),
                (None, Some(l)) => l.leaks.len(),
                _ => 0,
            },
            Screen::Dominators => self.dom.visible,
            Screen::Inspector => self.inspector_links().len(),
            Screen::Overview | Screen::Monitor => 0,
        }
    }

    pub(super) fn step(&mut self, delta: isize) {
        let len = self.list_len();
        let page = self.page;
        match self.screen {
            Screen::Classes => match &mut self.classes.instances {
                Some((_, _, c)) => c.step(delta, len, page),
                None => self.classes.cursor.step(delta, len, page),
            },
            Screen::Leaks => match &mut self.leaks.trace {
                Some(c) => c.step(delta, len, page),
                None => self.leaks.cursor.step(delta, len, page),
            },
            Screen::Dominators => {
                self.dom.cursor.step(delta, len, page);
                self.sort_visible();
            }
            Screen::Inspector => self.inspector.cursor.step(delta, len, page),
            Screen::Overview | Screen::Monitor => {}
        }
    }

    /// Selects the list row under a click on terminal row `row`.
    pub(super) fn click(&mut self, row: usize) {
        // Lists start two rows down (tab bar, header); a click selects the row under it.
        if row < 2 {
            return;
        }
        let target = row - 2;
        let offset = match self.screen {
            Screen::Classes => self.classes.instances.as_ref().map_or(self.classes.cursor.offset, |i| i.2.offset),
            Screen::Leaks => self.leaks.trace.map_or(self.leaks.cursor.offset, |c| c.offset),
            Screen::Dominators => self.dom.cursor.offset,
            Screen::Inspector => self.inspector.cursor.offset,
            _ => return,
        };
        let current = self.selected_index();
        let delta = (offset + target) as isize - current as isize;
        self.step(delta);
    }

    fn selected_index(&self) -> usize {
        match self.screen {
            Screen::Classes => self.classes.instances.as_ref().map_or(self.classes.cursor.selected, |i| i.2.selected),
            Screen::Leaks => self.leaks.trace.map_or(self.leaks.cursor.selected, |c| c.selected),
            Screen::Dominators => self.dom.cursor.selected,
            Screen::Inspector => self.inspector.cursor.selected,
            _ => 0,
        }
    }

    /// The object under the cursor, if the screen has one.
    pub fn selected_node(&self) -> Option<Node> {
        let loaded = self.loaded()?;
        match self.screen {
            Screen::Classes => {
                let (_, nodes, c) = self.classes.instances.as_ref()?;
                nodes.get(c.selected).copied()
            }
            Screen::Leaks => {
                let leak = loaded.leaks.get(self.leaks.cursor.selected)?;
                match self.leaks.trace {
                    Some(c) => leak.trace.get(c.selected).map(|t| t.node),
                    None => leak.instances.first().copied(),
                }
            }
            Screen::Dominators => {
                self.dom_rows(self.dom.cursor.selected + 1).get(self.dom.cursor.selected).map(|r| r.node)
            }
            Screen::Inspector => self.inspector.history.last().copied(),
            _ => None,
        }
    }

    pub(super) fn open(&mut self) {
        match self.screen {
            Screen::Classes if self.classes.instances.is_none() => {
                let Some(heap) = self.heap() else { return };
                let Some(class) = self.classes.rows.get(self.classes.cursor.selected).and_then(|r| r.class) else {
                    return;
                };
                let mut nodes = heap.instances_of(class);
                let d = &heap.dominators;
                nodes.sort_by(|a, b| d.retained(*b).cmp(&d.retained(*a)).then(a.cmp(b)));
                self.classes.instances = Some((class, nodes, Cursor::default()));
            }
            Screen::Leaks if self.leaks.trace.is_none() => {
                if self.loaded().is_some_and(|l| !l.leaks.is_empty()) {
                    self.leaks.trace = Some(Cursor::default());
                }
            }
            Screen::Dominators => {
                // Enter expands a closed node with children; on a leaf or an open node it inspects.
                let rows = self.dom_rows(self.dom.cursor.selected + 1);
                let Some(row) = rows.get(self.dom.cursor.selected).copied() else { return };
                let leaf = self.heap().is_none_or(|h| h.dominators.children(Some(row.node)).is_empty());
                if leaf || self.dom.expanded.contains(&Some(row.node)) {
                    self.inspect(row.node);
                } else {
                    self.expand(true);
                }
            }
            Screen::Inspector => {
                let links = self.inspector_links();
                if let Some(&n) = links.get(self.inspector.cursor.selected) {
                    self.inspect(n);
                }
            }
            _ => {
                if let Some(n) = self.selected_node() {
                    self.inspect(n);
                }
            }
        }
    }

    /// Opens `n` in the inspector, remembering where we were.
    pub fn inspect(&mut self, n: Node) {
        if self.inspector.history.last() != Some(&n) {
            self.inspector.history.push(n);
        }
        self.inspector.cursor = Cursor::default();
        self.screen = Screen::Inspector;
    }

    pub(super) fn back(&mut self) {
        match self.screen {
            Screen::Inspector if self.inspector.history.len() > 1 => {
                self.inspector.history.pop();
                self.inspector.cursor = Cursor::default();
            }
            Screen::Classes if self.classes.instances.is_some() => self.classes.instances = None,
            Screen::Classes if !self.classes.filter.is_empty() => {
                self.classes.filter.clear();
                self.rebuild_class_rows();
            }
            Screen::Leaks if self.leaks.trace.is_some() => self.leaks.trace = None,
            _ => {}
        }
    }

    /// The objects the inspector's rows link to, in row order: fields, then referrers, then the
    /// path from a GC root.
    pub fn inspector_links(&self) -> Vec<Node> {
        let (Some(loaded), Some(&n)) = (self.loaded(), self.inspector.history.last()) else { return Vec::new() };
        let heap = &loaded.heap;
        let idx = &heap.index;
        let mut links: Vec<Node> =
            idx.fields(n).iter().filter_map(|f| f.value.as_object().and_then(|id| idx.node(id))).collect();
        if let Some(values) =
            idx.array_values(n).filter(|_| idx.class(n).kind == heap::index::classes::ClassKind::ObjectArray)
        {
            links.extend(values.iter().take(1000).filter_map(|v| v.as_object().and_then(|id| idx.node(id))));
        }
        links.extend(heap.referrers(n).into_iter().take(200).map(|(r, _)| r));
        links.extend(heap.paths().path(idx, n).into_iter().map(|s| s.node));
        links
    }
}
