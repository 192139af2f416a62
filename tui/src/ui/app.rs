//! The one model of the interactive UI, and `update`, which changes it. `update` does no I/O: it
//! returns effects (copy, export) for the main loop to carry out.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;
use heap::leaks::Leak;
use heap::{Heap, Node};
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, MouseEventKind};

use super::keymap::{action_for, Action};
use super::theme::Theme;

/// The screens, numbered as their keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Screen {
    Overview,
    Classes,
    Leaks,
    Dominators,
    Inspector,
    Monitor,
}

impl Screen {
    pub const ALL: [Screen; 6] =
        [Screen::Overview, Screen::Classes, Screen::Leaks, Screen::Dominators, Screen::Inspector, Screen::Monitor];

    pub fn title(self) -> &'static str {
        match self {
            Screen::Overview => "Overview",
            Screen::Classes => "Classes",
            Screen::Leaks => "Leaks",
            Screen::Dominators => "Dominators",
            Screen::Inspector => "Inspector",
            Screen::Monitor => "Monitor",
        }
    }

    fn index(self) -> usize {
        Screen::ALL.iter().position(|&s| s == self).unwrap_or(0)
    }
}

/// A message to the model.
pub enum Msg {
    /// Terminal input.
    Input(Event),
    /// A loading phase advanced.
    Progress { phase: &'static str, done: u64, total: u64 },
    /// Loading finished.
    Loaded(Result<Box<Loaded>, String>),
    /// The leak rules finished on this heap (after `Loaded`: the screens show before them).
    Leaks(Arc<Heap>, Vec<Leak>),
    /// Time passed (redraw progress).
    Tick,
    /// A sample of the watched process.
    Sample(Box<agent::sample::Sample>),
    /// The watch ended (the process exited, the phone went away).
    WatchEnded(String),
    /// More things to pick (processes, found after the picker opened).
    Picks(Vec<PickItem>),
    /// A dump asked for on the monitor screen finished.
    Dumped(Result<std::path::PathBuf, String>),
}

/// A dump to open, or a process to watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A file.
    File(std::path::PathBuf),
    /// The bundled demo dump.
    Demo,
    /// A process to watch on the monitor screen.
    Process(super::monitor::Target),
}

/// Something for the main loop to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Start loading a dump.
    Open(Source),
    /// Put text on the clipboard (OSC 52).
    Copy(String),
    /// Write `contents` to a new text file named after `stem`, and `json` beside it.
    Export { stem: String, contents: String, json: Option<String> },
    /// Start sampling a process.
    Watch(super::monitor::Target),
    /// Dump the watched process (the trigger's kind, or `manual`).
    Dump(super::monitor::Target, &'static str),
}

/// An analysed dump with what the screens show.
pub struct Loaded {
    pub heap: Arc<Heap>,
    pub leaks: Vec<Leak>,
    /// Whether the leak rules are still running (`leaks` is empty until they finish).
    pub leaks_pending: bool,
    pub path: String,
    pub file_bytes: u64,
    /// Figures the overview shows, computed once (each is a pass over every object).
    pub summary: heap::report::Summary,
    pub heap_totals: Vec<(String, u64, u64)>,
    pub top_retained: Vec<Node>,
    /// Children of the dominator tree's widest nodes, sorted ahead of time by [`Loaded::warm`].
    pub presorted: Arc<std::sync::Mutex<HashMap<Node, Vec<Node>>>>,
}

impl Loaded {
    /// Bundles an analysed dump with the figures the screens need.
    pub fn new(heap: Arc<Heap>, leaks: Vec<Leak>, path: String, file_bytes: u64) -> Loaded {
        let summary = heap.summary();
        let heap_totals = heap.heap_totals();
        let top_retained = heap.top_retained(200);
        Loaded {
            heap,
            leaks,
            leaks_pending: false,
            path,
            file_bytes,
            summary,
            heap_totals,
            top_retained,
            presorted: Default::default(),
        }
    }

    /// Work that would otherwise land on a keypress, done right after loading (the UI runs it on
    /// a thread): the reverse graph for the inspector's referrers, and the sorted children of
    /// every dominator-tree node with more than 20,000 of them.
    pub fn warm(heap: &Heap, presorted: &std::sync::Mutex<HashMap<Node, Vec<Node>>>) {
        if heap.index.is_empty() {
            return;
        }
        let _ = heap.referrers(0);
        let d = &heap.dominators;
        let wide: Vec<Node> = (0..heap.index.len() as u32).filter(|&n| d.children(Some(n)).len() > 20_000).collect();
        for n in wide {
            let sorted = heap.dominated(Some(n));
            if let Ok(mut m) = presorted.lock() {
                m.insert(n, sorted);
            }
        }
    }
}

/// Loading progress per phase.
pub struct Progress {
    pub phases: Vec<(&'static str, u64, u64)>,
    pub started: Instant,
    /// When each phase first reported (its rate is measured from there).
    pub began: HashMap<&'static str, Instant>,
}

impl Progress {
    pub fn new() -> Progress {
        Progress { phases: Vec::new(), started: Instant::now(), began: HashMap::new() }
    }
}

impl Default for Progress {
    fn default() -> Self {
        Progress::new()
    }
}

/// One entry of the picker.
#[derive(Debug, Clone)]
pub struct PickItem {
    pub label: String,
    pub source: Source,
    /// Where it sorts: phones' apps, then dumps, then local JVMs, then other local processes,
    /// then the phones' other processes.
    pub rank: u8,
}

/// The picker: what is on offer, its filter, the cursor over the rows the filter keeps.
#[derive(Default)]
pub struct Picker {
    pub items: Vec<PickItem>,
    pub filter: String,
    pub editing: bool,
    pub cursor: Cursor,
    /// Indices into `items` of the rows shown.
    pub shown: Vec<usize>,
}

impl Picker {
    fn refilter(&mut self, matcher: &SkimMatcherV2) {
        self.shown = if self.filter.is_empty() {
            (0..self.items.len()).collect()
        } else {
            let mut scored: Vec<(i64, usize)> = self
                .items
                .iter()
                .enumerate()
                .filter_map(|(i, it)| matcher.fuzzy_match(&it.label, &self.filter).map(|s| (s, i)))
                .collect();
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            scored.into_iter().map(|x| x.1).collect()
        };
        if self.cursor.selected >= self.shown.len() {
            self.cursor = Cursor::default();
        }
    }

    /// Adds items in rank order, keeping the selected one selected.
    fn add(&mut self, more: Vec<PickItem>, matcher: &SkimMatcherV2) {
        let selected = self.shown.get(self.cursor.selected).map(|&i| self.items[i].label.clone());
        self.items.extend(more);
        self.items.sort_by_key(|it| it.rank);
        self.refilter(matcher);
        if let Some(label) = selected {
            if let Some(pos) = self.shown.iter().position(|&i| self.items[i].label == label) {
                self.cursor.selected = pos;
            }
        }
    }

    /// The selected item.
    pub fn selected(&self) -> Option<&PickItem> {
        self.shown.get(self.cursor.selected).map(|&i| &self.items[i])
    }
}

/// Where loading is.
pub enum Load {
    /// Nothing chosen yet: the dumps and processes on offer.
    Picking(Picker),
    /// Watching a process, no dump yet.
    Empty,
    Loading(Progress),
    Failed(String),
    Ready(Box<Loaded>),
}

/// A cursor over a list: the selected row and the first row shown.
#[derive(Debug, Default, Clone, Copy)]
pub struct Cursor {
    pub selected: usize,
    pub offset: usize,
}

impl Cursor {
    /// Moves by `delta` within `len` rows, keeping the selection on a page of `height` rows.
    pub fn step(&mut self, delta: isize, len: usize, height: usize) {
        if len == 0 {
            *self = Cursor::default();
            return;
        }
        let next = (self.selected as isize + delta).clamp(0, len as isize - 1) as usize;
        self.selected = next;
        self.fit(height);
    }

    /// Keeps the selection visible in a page of `height` rows.
    pub fn fit(&mut self, height: usize) {
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
    }
}

/// Sort columns of the class histogram.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Retained,
    Shallow,
    Instances,
    Name,
}

impl SortKey {
    pub fn next(self) -> SortKey {
        match self {
            SortKey::Retained => SortKey::Shallow,
            SortKey::Shallow => SortKey::Instances,
            SortKey::Instances => SortKey::Name,
            SortKey::Name => SortKey::Retained,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            SortKey::Retained => "retained",
            SortKey::Shallow => "shallow",
            SortKey::Instances => "instances",
            SortKey::Name => "name",
        }
    }
}

/// One row of the classes screen: a class, or a package with its totals.
#[derive(Debug, Clone)]
pub struct ClassRow {
    pub name: String,
    pub class: Option<u32>,
    pub instances: u64,
    pub shallow: u64,
    pub retained: u64,
}

#[derive(Default)]
pub struct ClassesState {
    pub filter: String,
    pub editing: bool,
    pub sort: Option<SortKey>,
    pub grouped: bool,
    pub cursor: Cursor,
    pub rows: Vec<ClassRow>,
    /// Every row before filtering, for the grouping it was built for.
    pub base: Vec<ClassRow>,
    pub base_grouped: Option<bool>,
    /// The last filter and the rows (indices into `base`) it matched.
    pub matched: Option<(String, Vec<u32>)>,
    /// The instance list of a class, when open.
    pub instances: Option<(u32, Vec<Node>, Cursor)>,
}

#[derive(Default)]
pub struct LeaksState {
    pub cursor: Cursor,
    /// The trace of the selected leak, when open, with its cursor.
    pub trace: Option<Cursor>,
}

/// The dominator tree: which nodes are expanded, and the cursor over the visible rows.
#[derive(Default)]
pub struct DomState {
    pub expanded: HashSet<Option<Node>>,
    pub cursor: Cursor,
    /// Children of expanded nodes, largest retained first as far as they have been shown.
    pub children: HashMap<Option<Node>, Kids>,
    /// How many rows are visible (recounted when a node opens or closes, not per key).
    pub visible: usize,
}

/// The children of a dominator-tree node, sorted by retained size only as far as rows have been
/// shown: a node with 500,000 children costs a selection, not a full sort, when it opens.
pub struct Kids {
    pub nodes: Vec<Node>,
    /// `nodes[..sorted]` are the largest, in order.
    pub sorted: usize,
}

impl Kids {
    fn new(nodes: Vec<Node>) -> Kids {
        Kids { nodes, sorted: 0 }
    }

    /// Sorts at least the first `upto` children (a few more, to spare the next keys the work).
    fn sort_to(&mut self, upto: usize, heap: &Heap) {
        if upto <= self.sorted || self.sorted == self.nodes.len() {
            return;
        }
        use rayon::prelude::*;
        let d = &heap.dominators;
        let end = (upto.max(self.sorted + 256) * 2).min(self.nodes.len());
        // Read every size once (on all cores: they are scattered reads), then select and sort
        // the (size, node) pairs.
        let mut keyed: Vec<(std::cmp::Reverse<u64>, Node)> =
            self.nodes[self.sorted..].par_iter().map(|&n| (std::cmp::Reverse(d.retained(n)), n)).collect();
        let k = end - self.sorted;
        if k < keyed.len() {
            keyed.select_nth_unstable(k - 1);
        }
        keyed[..k].sort_unstable();
        for (slot, (_, n)) in self.nodes[self.sorted..].iter_mut().zip(keyed) {
            *slot = n;
        }
        self.sorted = end;
    }
}

/// One visible row of the dominator tree.
#[derive(Debug, Clone, Copy)]
pub struct DomRow {
    pub node: Node,
    pub depth: usize,
}

#[derive(Default)]
pub struct InspectorState {
    /// Objects visited, the current one last (a browser's history).
    pub history: Vec<Node>,
    pub cursor: Cursor,
}

/// The model.
pub struct App {
    pub load: Load,
    pub screen: Screen,
    pub theme: Theme,
    pub help: bool,
    pub quit: bool,
    pub status: Option<String>,
    /// Rows available to lists (the terminal height minus chrome).
    pub page: usize,
    pub classes: ClassesState,
    pub leaks: LeaksState,
    pub dom: DomState,
    pub inspector: InspectorState,
    /// The process being watched (screen 6).
    pub monitor: Option<super::monitor::MonitorState>,
    /// Thresholds a new watch starts with (the config file's, then `--trigger`'s).
    pub trigger_config: agent::trigger::Config,
    /// What was shown before a dump began (back to it if the dump fails).
    before_dump: Option<Load>,
    matcher: SkimMatcherV2,
}

impl App {
    /// A model that waits for a dump to load.
    pub fn new(theme: Theme) -> App {
        App {
            load: Load::Loading(Progress::new()),
            screen: Screen::Overview,
            theme,
            help: false,
            quit: false,
            status: None,
            page: 20,
            classes: ClassesState { sort: Some(SortKey::Retained), ..Default::default() },
            leaks: LeaksState::default(),
            dom: DomState::default(),
            inspector: InspectorState::default(),
            monitor: None,
            trigger_config: agent::trigger::Config::default(),
            before_dump: None,
            matcher: SkimMatcherV2::default(),
        }
    }

    /// A model that offers dumps to open (`heaptui` with no argument).
    pub fn picker(theme: Theme, items: Vec<PickItem>) -> App {
        let mut app = App::new(theme);
        let mut picker = Picker::default();
        picker.add(items, &app.matcher);
        app.load = Load::Picking(picker);
        app
    }

    /// A model with a dump already analysed (tests, benchmarks).
    pub fn with_loaded(theme: Theme, loaded: Loaded) -> App {
        let mut app = App::new(theme);
        app.update(Msg::Loaded(Ok(Box::new(loaded))));
        app
    }

    /// The analysed dump, once loaded.
    pub fn loaded(&self) -> Option<&Loaded> {
        match &self.load {
            Load::Ready(l) => Some(l),
            _ => None,
        }
    }

    /// Applies a message; returns what the main loop must do.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::Progress { phase, done, total } => {
                if let Load::Loading(p) = &mut self.load {
                    match p.phases.iter_mut().find(|(n, _, _)| *n == phase) {
                        Some(e) => (e.1, e.2) = (done, total),
                        None => {
                            p.phases.push((phase, done, total));
                            p.began.insert(phase, Instant::now());
                        }
                    }
                }
                Vec::new()
            }
            Msg::Loaded(Ok(loaded)) => {
                self.before_dump = None;
                let top = Kids::new(loaded.heap.dominators.children(None).to_vec());
                self.load = Load::Ready(loaded);
                self.rebuild_class_rows();
                self.dom.visible = top.nodes.len();
                self.dom.children.insert(None, top);
                self.dom.expanded.insert(None);
                self.sort_visible();
                Vec::new()
            }
            Msg::Loaded(Err(e)) => {
                self.load = Load::Failed(e);
                Vec::new()
            }
            Msg::Leaks(heap, leaks) => {
                // Only for the dump on screen (another may have been opened meanwhile).
                if let Load::Ready(loaded) = &mut self.load {
                    if !Arc::ptr_eq(&loaded.heap, &heap) {
                        return Vec::new();
                    }
                    loaded.leaks = leaks;
                    loaded.leaks_pending = false;
                }
                Vec::new()
            }
            Msg::Tick => Vec::new(),
            Msg::Sample(sample) => {
                let Some(m) = &mut self.monitor else { return Vec::new() };
                match m.on_sample(*sample) {
                    Some(super::monitor::Request::Dump(kind)) => {
                        let target = m.target.clone();
                        self.start_dump_screen();
                        vec![Effect::Dump(target, kind)]
                    }
                    None => Vec::new(),
                }
            }
            Msg::WatchEnded(why) => {
                if let Some(m) = &mut self.monitor {
                    let t = m.now();
                    m.events.push((t, format!("watch ended: {why}")));
                    m.ended = Some(why);
                }
                Vec::new()
            }
            Msg::Picks(more) => {
                if let Load::Picking(p) = &mut self.load {
                    p.add(more, &self.matcher);
                }
                Vec::new()
            }
            Msg::Dumped(result) => {
                let Some(m) = &mut self.monitor else { return Vec::new() };
                m.dumping = false;
                let t = m.now();
                match result {
                    Ok(path) => {
                        m.events.push((t, format!("dumped to {}", path.display())));
                        m.dumps.push(path.clone());
                        self.status = Some(format!("dumped to {}", path.display()));
                        if !matches!(self.load, Load::Loading(_)) {
                            self.load = Load::Loading(Progress::new());
                        }
                        vec![Effect::Open(Source::File(path))]
                    }
                    Err(e) => {
                        m.events.push((t, format!("dump failed: {e}")));
                        self.status = Some(format!("dump failed: {e}"));
                        // Back to what was shown before (a dump already open stays open); the
                        // monitor shows the error in its log.
                        if matches!(self.load, Load::Loading(_)) {
                            self.load = self.before_dump.take().unwrap_or(Load::Empty);
                        }
                        self.screen = Screen::Monitor;
                        Vec::new()
                    }
                }
            }
            Msg::Input(Event::Key(key)) => self.key(key),
            Msg::Input(Event::Mouse(m)) => match m.kind {
                MouseEventKind::ScrollDown => self.act(Action::Down),
                MouseEventKind::ScrollUp => self.act(Action::Up),
                MouseEventKind::Down(_) => self.click(m.row as usize),
                _ => Vec::new(),
            },
            Msg::Input(Event::Resize(_, h)) => {
                self.page = (h as usize).saturating_sub(5).max(1);
                self.sort_visible();
                Vec::new()
            }
            Msg::Input(_) => Vec::new(),
        }
    }

    fn key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if key.kind == ratatui::crossterm::event::KeyEventKind::Release {
            return Vec::new();
        }
        if let Load::Picking(p) = &mut self.load {
            if p.editing {
                match key.code {
                    KeyCode::Char(c) if !key.modifiers.contains(ratatui::crossterm::event::KeyModifiers::CONTROL) => {
                        p.filter.push(c);
                        p.refilter(&self.matcher);
                    }
                    KeyCode::Backspace => {
                        p.filter.pop();
                        p.refilter(&self.matcher);
                    }
                    KeyCode::Esc => {
                        p.editing = false;
                        p.filter.clear();
                        p.refilter(&self.matcher);
                    }
                    // Enter ends the filter and opens what it selected.
                    KeyCode::Enter => {
                        p.editing = false;
                        if let Some(item) = p.selected() {
                            let source = item.source.clone();
                            return self.choose(source);
                        }
                    }
                    KeyCode::Up => p.cursor.step(-1, p.shown.len(), self.page),
                    KeyCode::Down => p.cursor.step(1, p.shown.len(), self.page),
                    _ => {}
                }
                return Vec::new();
            }
            let n = p.shown.len();
            match action_for(Screen::Overview, key) {
                Some(Action::Quit) => self.quit = true,
                Some(Action::Up) => p.cursor.step(-1, n, self.page),
                Some(Action::Down) => p.cursor.step(1, n, self.page),
                Some(Action::PageUp) => p.cursor.step(-(self.page as isize), n, self.page),
                Some(Action::PageDown) => p.cursor.step(self.page as isize, n, self.page),
                Some(Action::Top) => p.cursor.step(isize::MIN / 2, n, self.page),
                Some(Action::Bottom) => p.cursor.step(isize::MAX / 2, n, self.page),
                Some(Action::Open) => {
                    if let Some(item) = p.selected() {
                        let source = item.source.clone();
                        return self.choose(source);
                    }
                }
                Some(Action::Help) => self.help = !self.help,
                _ if key.code == KeyCode::Char('/') => p.editing = true,
                _ => {}
            }
            return Vec::new();
        }
        if let Some(spec) = self.monitor.as_mut().and_then(|m| m.editing.as_mut()) {
            match key.code {
                KeyCode::Char(c) if !key.modifiers.contains(ratatui::crossterm::event::KeyModifiers::CONTROL) => {
                    spec.push(c)
                }
                KeyCode::Backspace => {
                    spec.pop();
                }
                KeyCode::Esc => {
                    if let Some(m) = &mut self.monitor {
                        m.editing = None;
                    }
                }
                KeyCode::Enter => {
                    if let Some(m) = &mut self.monitor {
                        let spec = m.editing.take().unwrap_or_default();
                        if !spec.trim().is_empty() {
                            self.status = Some(match m.apply(spec.trim()) {
                                Ok(()) => format!("thresholds: {}", m.describe()),
                                Err(e) => format!("thresholds not changed: {e}"),
                            });
                        }
                    }
                }
                _ => {}
            }
            return Vec::new();
        }
        if self.screen == Screen::Classes && self.classes.editing {
            match key.code {
                KeyCode::Char(c) if !key.modifiers.contains(ratatui::crossterm::event::KeyModifiers::CONTROL) => {
                    self.classes.filter.push(c);
                    self.rebuild_class_rows();
                }
                KeyCode::Backspace => {
                    self.classes.filter.pop();
                    self.rebuild_class_rows();
                }
                KeyCode::Enter => self.classes.editing = false,
                KeyCode::Esc => {
                    self.classes.editing = false;
                    self.classes.filter.clear();
                    self.rebuild_class_rows();
                }
                _ => {}
            }
            return Vec::new();
        }
        if self.help {
            if let Some(Action::Quit) = action_for(self.screen, key) {
                self.quit = true;
            }
            self.help = false;
            return Vec::new();
        }
        match action_for(self.screen, key) {
            Some(a) => self.act(a),
            None => Vec::new(),
        }
    }

    /// Carries out one action.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        self.status = None;
        match action {
            Action::Quit => self.quit = true,
            Action::Help => self.help = true,
            Action::Goto(s) => self.screen = s,
            Action::NextScreen => self.screen = Screen::ALL[(self.screen.index() + 1) % Screen::ALL.len()],
            Action::PrevScreen => {
                self.screen = Screen::ALL[(self.screen.index() + Screen::ALL.len() - 1) % Screen::ALL.len()]
            }
            Action::Up => self.step(-1),
            Action::Down => self.step(1),
            Action::PageUp => self.step(-(self.page as isize)),
            Action::PageDown => self.step(self.page as isize),
            Action::Top => self.step(isize::MIN / 2),
            Action::Bottom => self.step(isize::MAX / 2),
            Action::Open => self.open(),
            Action::Back => self.back(),
            Action::Filter => self.classes.editing = true,
            Action::Sort => {
                self.classes.sort = Some(self.classes.sort.unwrap_or(SortKey::Retained).next());
                self.rebuild_class_rows();
            }
            Action::GroupPackages => {
                self.classes.grouped = !self.classes.grouped;
                self.classes.instances = None;
                self.rebuild_class_rows();
            }
            Action::Expand => self.expand(true),
            Action::Collapse => self.expand(false),
            Action::Inspect => {
                if let Some(n) = self.selected_node() {
                    self.inspect(n);
                }
            }
            Action::Copy => return self.copy(),
            Action::Export => return self.export(),
            Action::AutoDump => match &mut self.monitor {
                Some(m) => {
                    m.auto_dump = !m.auto_dump;
                    let t = m.now();
                    let on = if m.auto_dump { "on" } else { "off" };
                    m.events.push((t, format!("auto-dump {on}")));
                    self.status = Some(format!("auto-dump {on}"));
                }
                None => self.status = Some("nothing is being watched".into()),
            },
            Action::Thresholds => match &mut self.monitor {
                Some(m) => m.editing = Some(String::new()),
                None => self.status = Some("nothing is being watched".into()),
            },
            Action::DumpNow => match &mut self.monitor {
                Some(m) if m.dumping => self.status = Some("a dump is already under way".into()),
                Some(m) => {
                    m.dumping = true;
                    let t = m.now();
                    m.events.push((t, "dump asked for (d)".into()));
                    m.marks.push(t);
                    let target = m.target.clone();
                    self.start_dump_screen();
                    return vec![Effect::Dump(target, "manual")];
                }
                None => self.status = Some("nothing is being watched".into()),
            },
        }
        Vec::new()
    }

    /// A dump is under way: the progress screen (dump, strip, transfer, restore, then loading),
    /// and the Leaks screen once it is analysed.
    fn start_dump_screen(&mut self) {
        let was = std::mem::replace(&mut self.load, Load::Loading(Progress::new()));
        self.before_dump = Some(was);
        self.screen = Screen::Leaks;
        self.leaks = LeaksState::default();
    }

    /// Acts on a picked item: opens a dump, or starts watching a process.
    fn choose(&mut self, source: Source) -> Vec<Effect> {
        match source {
            Source::Process(target) => {
                self.monitor = Some(super::monitor::MonitorState::new(target.clone(), self.trigger_config.clone()));
                self.load = Load::Empty;
                self.screen = Screen::Monitor;
                vec![Effect::Watch(target)]
            }
            source => {
                self.load = Load::Loading(Progress::new());
                vec![Effect::Open(source)]
            }
        }
    }

    /// Starts watching `target` (`heaptui` with a process, tests).
    pub fn watch(&mut self, target: super::monitor::Target) -> Vec<Effect> {
        self.choose(Source::Process(target))
    }

    fn heap(&self) -> Option<Arc<Heap>> {
        self.loaded().map(|l| l.heap.clone())
    }

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

    fn step(&mut self, delta: isize) {
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

    /// Sorts each child list as far as the rows on screen (and a page more) reach.
    fn sort_visible(&mut self) {
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

    fn click(&mut self, row: usize) -> Vec<Effect> {
        // Lists start two rows down (tab bar, header); a click selects the row under it.
        if row < 2 {
            return Vec::new();
        }
        let target = row - 2;
        let offset = match self.screen {
            Screen::Classes => self.classes.instances.as_ref().map_or(self.classes.cursor.offset, |i| i.2.offset),
            Screen::Leaks => self.leaks.trace.map_or(self.leaks.cursor.offset, |c| c.offset),
            Screen::Dominators => self.dom.cursor.offset,
            Screen::Inspector => self.inspector.cursor.offset,
            _ => return Vec::new(),
        };
        let current = self.selected_index();
        let delta = (offset + target) as isize - current as isize;
        self.step(delta);
        Vec::new()
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

    fn open(&mut self) {
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

    fn back(&mut self) {
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

    fn expand(&mut self, open: bool) {
        let rows = self.dom_rows(self.dom.cursor.selected + 1);
        let Some(row) = rows.get(self.dom.cursor.selected).copied() else { return };
        let Some(heap) = self.heap() else { return };
        if open {
            if self.dom.expanded.contains(&Some(row.node)) {
                return;
            }
            let ready = self.loaded().and_then(|l| l.presorted.lock().ok().and_then(|m| m.get(&row.node).cloned()));
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
    fn visible_below(&self, n: Node) -> usize {
        let mut count = 0;
        let mut stack = vec![n];
        while let Some(v) = stack.pop() {
            if !self.dom.expanded.contains(&Some(v)) {
                continue;
            }
            if let Some(kids) = self.dom.children.get(&Some(v)) {
                count += kids.nodes.len();
                stack.extend(kids.nodes.iter().copied().filter(|k| self.dom.expanded.contains(&Some(*k))));
            }
        }
        count
    }

    /// The first `limit` visible rows of the dominator tree (never more: a 10-million-node tree
    /// costs only what is on screen).
    pub fn dom_rows(&self, limit: usize) -> Vec<DomRow> {
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

    /// Rebuilds the class rows from the filter, sort and grouping.
    pub fn rebuild_class_rows(&mut self) {
        let Some(heap) = self.heap() else { return };
        // The unfiltered rows change only with the grouping.
        if self.classes.base_grouped != Some(self.classes.grouped) {
            self.classes.base = base_rows(&heap, self.classes.grouped);
            self.classes.base_grouped = Some(self.classes.grouped);
            self.classes.matched = None;
        }
        let base = &self.classes.base;
        let filter = &self.classes.filter;
        let mut picked: Vec<u32> = if filter.is_empty() {
            (0..base.len() as u32).collect()
        } else {
            // Typing one more character only narrows the matches: filter the last ones again.
            let from: Vec<u32> = match &self.classes.matched {
                Some((p, m)) if filter.starts_with(p.as_str()) => m.clone(),
                _ => (0..base.len() as u32).collect(),
            };
            let m = fuzzy_filter(&self.matcher, base, from, filter);
            self.classes.matched = Some((filter.clone(), m.clone()));
            m
        };
        let by_score = !filter.is_empty() && !self.classes.grouped;
        let key = |i: &u32| &base[*i as usize];
        match self.classes.sort {
            Some(SortKey::Retained) if !by_score => {
                picked.sort_by(|a, b| key(b).retained.cmp(&key(a).retained).then(key(a).name.cmp(&key(b).name)))
            }
            Some(SortKey::Shallow) => {
                picked.sort_by(|a, b| key(b).shallow.cmp(&key(a).shallow).then(key(a).name.cmp(&key(b).name)))
            }
            Some(SortKey::Instances) => {
                picked.sort_by(|a, b| key(b).instances.cmp(&key(a).instances).then(key(a).name.cmp(&key(b).name)))
            }
            Some(SortKey::Name) => picked.sort_by(|a, b| key(a).name.cmp(&key(b).name)),
            _ => {}
        }
        self.classes.rows = picked.into_iter().map(|i| base[i as usize].clone()).collect();
        self.classes.cursor = Cursor::default();
    }

    fn copy(&mut self) -> Vec<Effect> {
        let Some(loaded) = self.loaded() else { return Vec::new() };
        let Some(n) = self.selected_node() else {
            self.status = Some("nothing selected to copy".into());
            return Vec::new();
        };
        let id = format!("0x{:x}", loaded.heap.index.id(n));
        self.status = Some(format!("copied {id}"));
        vec![Effect::Copy(id)]
    }

    fn export(&mut self) -> Vec<Effect> {
        let Some(contents) = super::export::view_text(self) else { return Vec::new() };
        let json = super::export::view_json(self).and_then(|v| serde_json::to_string_pretty(&v).ok());
        let stem = format!("heaptui-{}", self.screen.title().to_lowercase());
        vec![Effect::Export { stem, contents, json }]
    }
}

/// Rows whose name matches `pattern` (fuzzy, as skim and fzf match), best match first. Split
/// across cores: 100,000 class names are a keystroke's work.
pub fn fuzzy_filter(matcher: &SkimMatcherV2, rows: &[ClassRow], among: Vec<u32>, pattern: &str) -> Vec<u32> {
    use rayon::prelude::*;
    let mut scored: Vec<(i64, u32)> = among
        .into_par_iter()
        .filter_map(|i| matcher.fuzzy_match(&rows[i as usize].name, pattern).map(|s| (s, i)))
        .collect();
    scored.sort_by_key(|&(s, i)| (std::cmp::Reverse(s), i));
    scored.into_iter().map(|(_, i)| i).collect()
}

/// The histogram's rows, one per class or (grouped) per package, largest retained first.
fn base_rows(heap: &Heap, grouped: bool) -> Vec<ClassRow> {
    let idx = &heap.index;
    let rows: Vec<ClassRow> = heap
        .histogram_order()
        .into_iter()
        .map(|c| {
            let h = heap.histogram[c as usize];
            ClassRow {
                name: idx.classes[c as usize].name.clone(),
                class: Some(c),
                instances: h.instances,
                shallow: h.shallow_bytes,
                retained: h.retained_bytes,
            }
        })
        .collect();
    if !grouped {
        return rows;
    }
    let mut packages: HashMap<String, ClassRow> = HashMap::new();
    for r in rows {
        let base = r.name.trim_end_matches("[]");
        let package = base.rsplit_once('.').map_or("(default package)", |(p, _)| p).to_string();
        let e = packages.entry(package.clone()).or_insert(ClassRow {
            name: package,
            class: None,
            instances: 0,
            shallow: 0,
            retained: 0,
        });
        e.instances += r.instances;
        e.shallow += r.shallow;
        // Retained sizes of classes in a package can overlap; the sum is an upper bound.
        e.retained += r.retained;
    }
    let mut out: Vec<ClassRow> = packages.into_values().collect();
    out.sort_by(|a, b| b.retained.cmp(&a.retained).then(a.name.cmp(&b.name)));
    out
}

/// What the picker offers: the bundled demo, heap dumps in `dir`, and dumps heaptui stored before
/// (`$XDG_DATA_HOME/heaptui/dumps`), newest first.
pub fn pick_items(dir: &std::path::Path) -> Vec<PickItem> {
    let mut items =
        vec![PickItem { label: "bundled demo (a JVM app with a leaking cache)".into(), source: Source::Demo, rank: 1 }];
    let is_dump = |p: &std::path::Path| {
        let name = p.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        [".hprof", ".hprof.gz", ".hprof.zst", ".android-hprof"].iter().any(|e| name.ends_with(e))
    };
    let mut found: Vec<(std::time::SystemTime, std::path::PathBuf)> = Vec::new();
    let mut scan = |d: &std::path::Path, depth: usize| {
        let mut stack = vec![(d.to_path_buf(), 0)];
        while let Some((d, level)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() && level < depth {
                    stack.push((p, level + 1));
                } else if is_dump(&p) {
                    let t = e.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
                    found.push((t, p));
                }
            }
        }
    };
    scan(dir, 0);
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/share")));
    if let Some(d) = data {
        scan(&d.join("heaptui").join("dumps"), 3);
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    for (_, p) in found {
        let size = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
        items.push(PickItem {
            label: format!("{}  ({})", p.display(), heap::report::human_bytes(size)),
            source: Source::File(p),
            rank: 1,
        });
    }
    items
}
