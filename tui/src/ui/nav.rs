//! Moving around: the cursor of the list on screen, the selected object, opening it (an instance
//! list, a leak trace, a tree node, the inspector) and going back.

use heap::leaks::Leak;
use heap::Node;

use super::cursor::Cursor;
use super::model::{App, DiffRow, Place, INSPECTOR_PAGE};
use super::screen::Screen;

/// How many places `Back` can return through.
const PLACES: usize = 200;

/// How many suspects the Overview lists (before its largest objects).
pub const OVERVIEW_SUSPECTS: usize = 5;

/// The suspects the Overview lists for `l`.
pub fn overview_suspects(l: &super::model::Loaded) -> usize {
    l.leaks.len().min(OVERVIEW_SUSPECTS)
}

impl App {
    /// Rows of the current list on the current screen.
    fn list_len(&self) -> usize {
        match self.screen {
            Screen::Classes => match &self.classes.instances {
                Some((_, nodes, _)) => nodes.len(),
                None => self.classes.rows.len(),
            },
            Screen::Leaks => match &self.leaks.trace {
                Some(_) => self.selected_leak().map_or(0, |k| k.trace.len()),
                None => self.leak_rows().len(),
            },
            Screen::Dominators if self.dom.groups.is_some() => self.group_rows(usize::MAX).len(),
            Screen::Dominators => self.dom.filtered.as_ref().map_or(self.dom.visible, Vec::len),
            Screen::Inspector => self.inspector_rows().len(),
            Screen::Overview => self.loaded().map_or(0, |l| overview_suspects(l) + l.top_retained.len()),
            Screen::Diff => match &self.diff.choosing {
                Some(p) => p.shown.len(),
                None => self.diff_rows().len(),
            },
            Screen::Threads => self.thread_rows().len(),
            Screen::Query => self.query.result.as_ref().map_or(0, |r| r.rows.len()),
            Screen::Monitor => 0,
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
            Screen::Dominators if self.dom.groups.is_some() => self.dom.group_cursor.step(delta, len, page),
            Screen::Dominators => {
                self.dom.cursor.step(delta, len, page);
                self.sort_visible();
            }
            Screen::Inspector => self.inspector.cursor.step(delta, len, page),
            Screen::Overview => self.overview.step(delta, len, page),
            Screen::Diff => match &mut self.diff.choosing {
                Some(p) => p.cursor.step(delta, len, page),
                None => self.diff.cursor.step(delta, len, page),
            },
            Screen::Threads => self.threads.cursor.step(delta, len, page),
            Screen::Query => self.query.cursor.step(delta, len, page),
            Screen::Monitor => {}
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
            Screen::Diff if self.diff.choosing.is_none() => self.diff.cursor.offset,
            Screen::Threads => self.threads.cursor.offset,
            Screen::Query => self.query.cursor.offset,
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
            Screen::Diff => self.diff.cursor.selected,
            Screen::Threads => self.threads.cursor.selected,
            Screen::Query => self.query.cursor.selected,
            _ => 0,
        }
    }

    /// The object under the cursor, if the screen has one.
    pub fn selected_node(&self) -> Option<Node> {
        let loaded = self.loaded()?;
        if let Some(v) = self.set_view_here() {
            let row = *self.set_rows(v.cursor.selected + 1).get(v.cursor.selected)?;
            return self.set_row_node(row);
        }
        match self.screen {
            Screen::Classes => match self.classes.instances.as_ref() {
                Some((_, nodes, c)) => nodes.get(c.selected).copied(),
                // A class row names its class object.
                None => {
                    let class = self.classes.rows.get(self.classes.cursor.selected)?.class?;
                    loaded.heap.index.classes[class.index()].node
                }
            },
            Screen::Leaks => {
                let leak = self.selected_leak()?;
                match self.leaks.trace {
                    Some(c) => leak.trace.get(c.selected).map(|t| t.node),
                    None => leak.instances.first().copied(),
                }
            }
            // A group names no one object: its largest.
            Screen::Dominators if self.dom.groups.is_some() => {
                let sel = self.dom.group_cursor.selected;
                let row = *self.group_rows(sel + 1).get(sel)?;
                self.dom.groups.as_ref()?.nodes[row.group]
                    .objects
                    .iter()
                    .copied()
                    .max_by_key(|&n| loaded.heap.dominators.retained(n))
            }
            Screen::Dominators => {
                self.dom_rows(self.dom.cursor.selected + 1).get(self.dom.cursor.selected).map(|r| r.node)
            }
            Screen::Inspector => self.inspector.history.last().copied(),
            Screen::Overview => {
                let i = self.overview.selected;
                match i.checked_sub(overview_suspects(loaded)) {
                    None => loaded.leaks.get(i).and_then(|k| k.instances.first().copied()),
                    Some(j) => loaded.top_retained.get(j).copied(),
                }
            }
            Screen::Diff => match self.diff_rows().get(self.diff.cursor.selected)? {
                DiffRow::Growing(i) => loaded.baseline.as_ref()?.growing.get(*i).map(|g| g.node),
                DiffRow::Class(_) => None,
            },
            Screen::Threads => self.thread_row_node(*self.thread_rows().get(self.threads.cursor.selected)?),
            Screen::Query => self.query_row_node(),
            Screen::Monitor => None,
        }
    }

    pub(super) fn open(&mut self) -> Vec<super::msg::Effect> {
        match self.screen {
            Screen::Classes if self.classes.instances.is_none() => {
                let Some(class) = self.classes.rows.get(self.classes.cursor.selected).and_then(|r| r.class) else {
                    return Vec::new();
                };
                if self.loaded().is_none() {
                    return Vec::new();
                }
                self.remember();
                return self.list_instances(class);
            }
            Screen::Leaks if self.leaks.trace.is_none() => {
                if self.selected_leak().is_some() {
                    self.remember();
                    self.leaks.trace = Some(Cursor::default());
                }
            }
            // Grouped by class, Enter opens or closes a group.
            Screen::Dominators if self.dom.groups.is_some() => {
                let sel = self.dom.group_cursor.selected;
                let open = self
                    .group_rows(sel + 1)
                    .get(sel)
                    .is_some_and(|r| self.dom.groups.as_ref().is_some_and(|g| !g.open.contains(&r.group)));
                self.toggle_group(open);
            }
            Screen::Dominators => {
                // Enter expands a closed node with children; on a leaf or an open node it inspects.
                let rows = self.dom_rows(self.dom.cursor.selected + 1);
                let Some(row) = rows.get(self.dom.cursor.selected).copied() else { return Vec::new() };
                let leaf = self.heap().is_none_or(|h| h.dominators.children(Some(row.node)).is_empty());
                if leaf || self.dom.expanded.contains(&Some(row.node)) || self.dom.filtered.is_some() {
                    self.inspect(row.node);
                } else {
                    self.expand(true);
                }
            }
            Screen::Inspector => match self.inspector_rows().get(self.inspector.cursor.selected).and_then(|r| r.link) {
                Some(Link::Object(n)) => self.inspect(n),
                Some(Link::More) => self.inspector.shown += INSPECTOR_PAGE,
                None => {}
            },
            Screen::Diff => return self.open_diff(),
            // A row naming an object opens it; with no rows, Enter opens the SQL prompt.
            Screen::Query => match self.query_row_node() {
                Some(n) => self.inspect(n),
                None if self.query.result.as_ref().is_none_or(|r| r.rows.is_empty()) => {
                    self.act(super::keymap::Action::EditQuery);
                }
                None => self.status = Some("this row names no object (its first id column)".into()),
            },
            // A thread opens or closes its stack; a local opens in the Inspector.
            Screen::Threads => match self.thread_rows().get(self.threads.cursor.selected) {
                Some(super::model::ThreadRow::Thread(_)) => {
                    let open = self.selected_node().is_some_and(|n| !self.threads.open.contains(&n));
                    self.toggle_thread(open);
                }
                Some(_) => {
                    if let Some(n) = self.selected_node() {
                        self.inspect(n);
                    }
                }
                None => {}
            },
            // A suspect opens its trace on Leaks; an object opens in the Inspector.
            Screen::Overview => {
                let i = self.overview.selected;
                let suspects = self.loaded().map_or(0, overview_suspects);
                if i < suspects {
                    self.remember();
                    self.screen = Screen::Leaks;
                    self.leaks.filter.clear();
                    self.leaks.cursor = Cursor { selected: i, offset: 0 };
                    self.leaks.cursor.fit(self.page);
                    self.leaks.trace = Some(Cursor::default());
                } else if let Some(n) = self.selected_node() {
                    self.inspect(n);
                }
            }
            _ => {
                if let Some(n) = self.selected_node() {
                    self.inspect(n);
                }
            }
        }
        Vec::new()
    }

    /// Opens `n` in the inspector, remembering where we were.
    pub fn inspect(&mut self, n: Node) {
        self.remember();
        if self.inspector.history.last() != Some(&n) {
            self.inspector.history.push(n);
        }
        self.inspector.cursor = Cursor::default();
        self.inspector.filter.clear();
        self.inspector.shown = INSPECTOR_PAGE;
        self.screen = Screen::Inspector;
    }

    /// Goes to `screen`, remembering where we were.
    pub fn goto(&mut self, screen: Screen) {
        if screen != self.screen {
            self.remember();
            self.screen = screen;
        }
    }

    /// Remembers the place on screen, for `Back` to return to.
    pub(super) fn remember(&mut self) {
        let place = Place {
            screen: self.screen,
            overview: self.overview,
            diff: self.diff.cursor,
            classes_cursor: self.classes.cursor,
            instances: self.classes.instances.clone(),
            instance_sort: self.classes.instance_sort,
            leaks_cursor: self.leaks.cursor,
            trace: self.leaks.trace,
            dom_cursor: self.dom.cursor,
            dom_expanded: self.dom.expanded.clone(),
            inspector: self.inspector.clone(),
            threads: self.threads.cursor,
            set_view: self.set_view.clone(),
            query: self.query.cursor,
        };
        if self.places.len() == PLACES {
            self.places.remove(0);
        }
        self.places.push(place);
    }

    /// Returns to the last place remembered: its screen, and what was open and selected there.
    /// With none, closes what is open on this screen.
    pub(super) fn back(&mut self) {
        // A list open on the screen (the dumps to take a baseline from) closes first.
        if self.screen == Screen::Diff && self.diff.choosing.take().is_some() {
            return;
        }
        let Some(p) = self.places.pop() else {
            // (Places are kept up to a bound: with none left, a view over the screen closes.)
            if self.set_view_here().is_some() {
                let left = self.set_view.take();
                self.trash.extend(left);
                return;
            }
            match self.screen {
                Screen::Classes if self.classes.instances.is_some() => self.classes.instances = None,
                Screen::Leaks if self.leaks.trace.is_some() => self.leaks.trace = None,
                _ => {}
            }
            return;
        };
        self.screen = p.screen;
        self.overview = p.overview;
        self.diff.cursor = p.diff;
        self.classes.cursor = p.classes_cursor;
        self.classes.instances = p.instances;
        self.classes.instance_sort = p.instance_sort;
        self.leaks.cursor = p.leaks_cursor;
        self.leaks.trace = p.trace;
        self.dom.cursor = p.dom_cursor;
        if self.dom.expanded != p.dom_expanded {
            self.dom.expanded = p.dom_expanded;
            self.recount_dom();
        }
        self.inspector = p.inspector;
        self.threads.cursor = p.threads;
        self.query.cursor = p.query;
        // The view left may hold the last reference to the results of millions of objects:
        // they are freed when the UI is idle (see [`App::release`]).
        let left = std::mem::replace(&mut self.set_view, p.set_view);
        self.trash.extend(left);
        self.sort_visible();
    }

    /// The leak groups the filter leaves, as indexes into the loaded leaks, in order.
    pub fn leak_rows(&self) -> Vec<usize> {
        use super::model::LeakSort;
        let Some(l) = self.loaded() else { return Vec::new() };
        let filter = self.leaks.filter.as_str();
        let mut rows: Vec<usize> = (0..l.leaks.len())
            .filter(|&i| {
                let k = &l.leaks[i];
                filter.is_empty() || {
                    use fuzzy_matcher::FuzzyMatcher;
                    let text = format!("{} {} {}", k.class, k.rule, k.reason);
                    self.matcher.fuzzy_match(&text, filter).is_some()
                }
            })
            .collect();
        let k = |i: &usize| &l.leaks[*i];
        match self.leaks.sort {
            LeakSort::Rank => {}
            LeakSort::Retained => rows.sort_by(|a, b| k(b).retained_bytes.cmp(&k(a).retained_bytes).then(a.cmp(b))),
            LeakSort::Count => rows.sort_by(|a, b| k(b).instances.len().cmp(&k(a).instances.len()).then(a.cmp(b))),
            LeakSort::Class => rows.sort_by(|a, b| k(a).class.cmp(&k(b).class).then(a.cmp(b))),
        }
        rows
    }

    /// The leak group under the cursor (through the filter).
    pub fn selected_leak(&self) -> Option<&Leak> {
        let i = *self.leak_rows().get(self.leaks.cursor.selected)?;
        self.loaded()?.leaks.get(i)
    }

    /// The inspector's rows below the object's summary: its fields (a class object's statics,
    /// loader and superclass among them), then an array's contents (an object array's elements;
    /// a primitive array's values, bytes as hex and ASCII, chars as text), its referrers, and the
    /// path from a GC root. Long contents and referrer lists show a page, and a row that shows
    /// more. The filter narrows the first three by their text; the path is always whole.
    pub fn inspector_rows(&self) -> Vec<InspectorRow> {
        use fuzzy_matcher::FuzzyMatcher;
        use heap::fmt::{hex, human_bytes};
        let (Some(loaded), Some(&n)) = (self.loaded(), self.inspector.history.last()) else { return Vec::new() };
        let heap = &loaded.heap;
        let idx = &heap.index;
        let filter = self.inspector.filter.as_str();
        let keep = |text: &str| filter.is_empty() || self.matcher.fuzzy_match(text, filter).is_some();
        let object = |tn: Node| {
            format!("{} {} ({})", heap.display_class(tn), hex(idx.id(tn)), human_bytes(heap.dominators.retained(tn)))
        };
        let mut rows = Vec::new();
        let push = |rows: &mut Vec<InspectorRow>, section, text: String, link| {
            if keep(&text) {
                rows.push(InspectorRow { section, text, link });
            }
        };
        for f in idx.fields(n) {
            let st = if f.is_static { "static " } else { "" };
            let target = f.value.as_object().and_then(|id| idx.node(id));
            let text = match target {
                Some(tn) => {
                    let extra = idx
                        .string_value(tn)
                        .map(|s| format!(" {:?}", heap::fmt::shorten_end(&s, 40)))
                        .unwrap_or_default();
                    format!("{st}{} {} → {}{extra}", f.ty.java_name(), f.name, object(tn))
                }
                None => format!("{st}{} {} = {}", f.ty.java_name(), f.name, f.value),
            };
            push(&mut rows, Section::Fields, text, target.map(Link::Object));
        }
        // A class object: what it keeps besides its statics.
        if let Some(c) = idx.as_class(n) {
            let class = &idx.classes[c.index()];
            if let Some(sup) = class.super_class.and_then(|s| idx.classes[s.index()].node) {
                push(&mut rows, Section::Fields, format!("<superclass> → {}", object(sup)), Some(Link::Object(sup)));
            }
            match idx.node(class.loader) {
                Some(l) => push(&mut rows, Section::Fields, format!("<loader> → {}", object(l)), Some(Link::Object(l))),
                None => push(&mut rows, Section::Fields, "<loader> = the bootstrap loader".to_string(), None),
            }
        }
        let limit = self.inspector.shown;
        match idx.record(n) {
            Ok(heap::hprof::SubRecord::ObjectArray { elements, length, .. }) => {
                let id_size = idx.header.id_size;
                let section = Section::Elements(length as usize);
                for (i, b) in elements.chunks_exact(id_size as usize).take(limit).enumerate() {
                    let id = heap::hprof::cursor::read_id(b, id_size);
                    match idx.node(id) {
                        Some(tn) => push(&mut rows, section, format!("[{i}] → {}", object(tn)), Some(Link::Object(tn))),
                        None if id == 0 => push(&mut rows, section, format!("[{i}] null"), None),
                        None => push(&mut rows, section, format!("[{i}] → {} (not in the dump)", hex(id)), None),
                    }
                }
                let more = (length as usize).saturating_sub(limit);
                if more > 0 {
                    rows.push(InspectorRow { section, text: more_text(more), link: Some(Link::More) });
                }
            }
            Ok(heap::hprof::SubRecord::PrimitiveArray { elem, length, data, .. }) => {
                let section = Section::Values(length as usize, elem.java_name());
                match data {
                    None => rows.push(InspectorRow { section, text: "(values not in the dump)".into(), link: None }),
                    Some(data) => {
                        let (texts, rest) = value_rows(elem, data, idx.header.id_size, limit);
                        for t in texts {
                            push(&mut rows, section, t, None);
                        }
                        if rest > 0 {
                            rows.push(InspectorRow { section, text: more_text(rest), link: Some(Link::More) });
                        }
                    }
                }
            }
            _ => {}
        }
        let referrers = heap.referrers(n);
        let count = referrers.len();
        for (r, weak) in referrers.iter().take(limit) {
            let w = if *weak { " (weak)" } else { "" };
            push(&mut rows, Section::Referrers(count), format!("← {}{w}", object(*r)), Some(Link::Object(*r)));
        }
        if count > limit {
            let text = more_text(count - limit);
            rows.push(InspectorRow { section: Section::Referrers(count), text, link: Some(Link::More) });
        }
        for s in loaded.path_to(n).iter() {
            let r = s.reference.as_deref().unwrap_or("(root)");
            let text = format!("{r:<20} {}", heap.display_class(s.node));
            rows.push(InspectorRow { section: Section::Path, text, link: Some(Link::Object(s.node)) });
        }
        rows
    }
}

fn more_text(more: usize) -> String {
    format!("… {more} more (Enter shows {})", more.min(INSPECTOR_PAGE))
}

/// A primitive array's first `limit` rows of values, and how many values are left: bytes (and
/// booleans) 16 a row in hex and ASCII, chars 64 a row as text, numbers 8 a row.
fn value_rows(elem: heap::spec::BasicType, data: &[u8], id_size: u32, limit: usize) -> (Vec<String>, usize) {
    use heap::spec::BasicType as T;
    let size = elem.size(id_size).max(1) as usize;
    let count = data.len() / size;
    let per_row = match elem {
        T::Byte | T::Boolean => 16,
        T::Char => 64,
        _ => 8,
    };
    let mut rows = Vec::new();
    for (r, chunk) in data.chunks(per_row * size).take(limit).enumerate() {
        let first = r * per_row;
        let text = match elem {
            T::Byte | T::Boolean => {
                let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
                let ascii: String =
                    chunk.iter().map(|&b| if (0x20..0x7f).contains(&b) { b as char } else { '.' }).collect();
                format!("{first:>8}  {:<47}  {ascii}", hex.join(" "))
            }
            T::Char => {
                let units: Vec<u16> = chunk.chunks_exact(2).map(|b| u16::from_be_bytes([b[0], b[1]])).collect();
                format!("{first:>8}  {:?}", String::from_utf16_lossy(&units))
            }
            _ => {
                let values: Vec<String> = chunk
                    .chunks_exact(size)
                    .filter_map(|b| heap::values::Value::read(elem, b, id_size).map(|v| v.to_string()))
                    .collect();
                format!("{first:>8}  {}", values.join("  "))
            }
        };
        rows.push(text);
    }
    let shown = (limit * per_row).min(count);
    (rows, count - shown)
}

/// Where an inspector row belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Fields,
    /// An object array's elements (its length).
    Elements(usize),
    /// A primitive array's values (its length, its element type).
    Values(usize, &'static str),
    /// Who refers to the object (how many do).
    Referrers(usize),
    Path,
}

/// What a row leads to: an object, or more rows of its list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    Object(Node),
    More,
}

/// One row of the inspector: its section, its text, and what it links to.
#[derive(Debug, Clone)]
pub struct InspectorRow {
    pub section: Section,
    pub text: String,
    pub link: Option<Link>,
}
