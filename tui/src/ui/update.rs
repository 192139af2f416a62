//! `update`, the one place the model changes: messages in, effects out. It does no I/O; it
//! returns effects (open, watch, dump, copy, export) for the main loop to carry out. Keys are
//! routed here: to the prompt being typed in, to the help, or through the keymap to an action.

use std::sync::Arc;
use std::time::Instant;

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, MouseEventKind};

use super::export::{Rows, Shown};
use super::keymap::{action_for, Action};
use super::line_edit::{Edit, LineEdit};
use super::model::{App, Kids, LeaksState, Load, Loaded, Progress, Prompt, SortKey};
use super::monitor::{MonitorState, Request, Target};
use super::msg::{Effect, Msg};
use super::screen::Screen;
use super::source::Source;
use super::theme::Theme;

impl App {
    /// A model with a dump already analysed (tests, benchmarks).
    pub fn with_loaded(theme: Theme, loaded: Loaded) -> App {
        let mut app = App::new(theme);
        app.update(Msg::Loaded(Ok(Box::new(loaded))));
        app
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
                // What the screens hold names the previous dump's objects (a dump opened from
                // the monitor replaces one): none of it carries over.
                self.forget_the_dump();
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
            Msg::Leaks(heap, leaks, undecided) => {
                // Only for the dump on screen (another may have been opened meanwhile).
                if let Load::Ready(loaded) = &mut self.load {
                    if !Arc::ptr_eq(&loaded.heap, &heap) {
                        return Vec::new();
                    }
                    loaded.leaks = leaks;
                    loaded.undecided = undecided;
                    loaded.analysis_ms = Some(loaded.started.elapsed().as_millis());
                    loaded.leaks_pending = false;
                }
                Vec::new()
            }
            Msg::Tick => {
                self.release();
                Vec::new()
            }
            Msg::Baseline(heap, diff) => {
                if let Load::Ready(loaded) = &mut self.load {
                    if Arc::ptr_eq(&loaded.heap, &heap) {
                        self.status = Some(format!("compared with {}", diff.path));
                        loaded.baseline = Some(*diff);
                        self.diff.cursor = super::cursor::Cursor::default();
                    }
                }
                Vec::new()
            }
            Msg::QueryDone(stop, result) => {
                self.query_done(&stop, result);
                Vec::new()
            }
            Msg::Analysed(heap, number, kind) => {
                self.analysed(&heap, number, kind);
                Vec::new()
            }
            Msg::Sorted(heap, class, order, nodes) => {
                self.sorted(&heap, class, order, nodes);
                Vec::new()
            }
            Msg::Note(note) => {
                self.status = Some(note);
                Vec::new()
            }
            Msg::Sample(sample) => {
                let Some(m) = &mut self.monitor else { return Vec::new() };
                match m.on_sample(*sample) {
                    Some(Request::Dump(kind)) => {
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
                MouseEventKind::Down(_) => {
                    self.click(m.row as usize);
                    Vec::new()
                }
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

    /// Routes a key: to the prompt being typed in (the picker's filter, the monitor's
    /// thresholds, the class filter), else to the help, else through the keymap.
    fn key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if key.kind == KeyEventKind::Release {
            return Vec::new();
        }
        self.last_key = Instant::now();
        if let Load::Picking(p) = &mut self.load {
            if p.editing {
                match p.filter.key(key) {
                    Some(Edit::Changed) => p.refilter(&self.matcher),
                    Some(Edit::Cancel) => {
                        p.editing = false;
                        p.filter.clear();
                        p.refilter(&self.matcher);
                    }
                    // Enter ends the filter and opens what it selected.
                    Some(Edit::Submit) => {
                        p.editing = false;
                        if let Some(item) = p.selected() {
                            let source = item.source.clone();
                            return self.choose(source);
                        }
                    }
                    None => match key.code {
                        KeyCode::Up => p.cursor.step(-1, p.shown.len(), self.page),
                        KeyCode::Down => p.cursor.step(1, p.shown.len(), self.page),
                        _ => {}
                    },
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
        if let Some(m) = &mut self.monitor {
            if let Some(spec) = &mut m.editing {
                match spec.key(key) {
                    Some(Edit::Cancel) => m.editing = None,
                    Some(Edit::Submit) => {
                        let spec = m.editing.take().map(|s| s.into_string()).unwrap_or_default();
                        if !spec.trim().is_empty() {
                            self.status = Some(match m.apply(spec.trim()) {
                                Ok(()) => format!("thresholds: {}", m.describe()),
                                Err(e) => format!("thresholds not changed: {e}"),
                            });
                        }
                    }
                    Some(Edit::Changed) | None => {}
                }
                return Vec::new();
            }
        }
        if self.prompt.is_some() {
            self.prompt_key(key);
            return Vec::new();
        }
        if self.screen == Screen::Query && self.query.input.is_some() {
            return self.query_key(key);
        }
        // Esc while a query runs interrupts it.
        if self.screen == Screen::Query && key.code == KeyCode::Esc && self.interrupt_query() {
            return Vec::new();
        }
        // An error opening a dump chosen in the picker: Esc (or Enter) goes back to the list.
        if matches!(self.load, Load::Failed(_))
            && matches!(key.code, KeyCode::Esc | KeyCode::Enter | KeyCode::Backspace)
        {
            if let Some(p) = self.picker.take() {
                self.load = Load::Picking(p);
                return Vec::new();
            }
        }
        // The picture over the screen: any key closes it.
        if self.preview.take().is_some() {
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

    /// Frees the views left behind, on a thread, once no key has come for a second.
    fn release(&mut self) {
        if !self.trash.is_empty() && self.last_key.elapsed() >= std::time::Duration::from_secs(1) {
            let trash = std::mem::take(&mut self.trash);
            std::thread::spawn(move || drop(trash));
        }
    }

    /// Carries out one action.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        self.status = None;
        if let Some(effects) = self.set_act(action) {
            return effects;
        }
        match action {
            Action::Quit => self.quit = true,
            Action::Help => self.help = true,
            Action::Goto(s) => self.goto(s),
            Action::NextScreen => self.goto(Screen::ALL[(self.screen.index() + 1) % Screen::ALL.len()]),
            Action::PrevScreen => {
                self.goto(Screen::ALL[(self.screen.index() + Screen::ALL.len() - 1) % Screen::ALL.len()])
            }
            Action::Up => self.step(-1),
            Action::Down => self.step(1),
            Action::PageUp => self.step(-(self.page as isize)),
            Action::PageDown => self.step(self.page as isize),
            Action::Top => self.step(isize::MIN / 2),
            Action::Bottom => self.step(isize::MAX / 2),
            Action::Open => return self.open(),
            Action::Back => self.back(),
            Action::Filter => match self.filter_mut() {
                Some(_) => self.prompt = Some(Prompt::Filter),
                None => self.status = Some("nothing to filter on this screen".into()),
            },
            Action::PickBaseline => self.choose_baseline(),
            Action::GoTo => {
                if self.loaded().is_some() {
                    self.prompt = Some(Prompt::Goto(LineEdit::new(), None));
                }
            }
            Action::Sort => return self.sort(),
            Action::GroupPackages => {
                self.classes.grouped = !self.classes.grouped;
                self.classes.instances = None;
                self.rebuild_class_rows();
            }
            Action::MergedPaths => return self.analyse_set(super::msg::JobKind::MergedPaths),
            Action::ImmediateDominators => return self.analyse_set(super::msg::JobKind::ImmediateDominators),
            Action::GroupByClass => self.toggle_groups(),
            Action::EditQuery => {
                let last = self.query.history.last().cloned().unwrap_or_default();
                let mut line = LineEdit::new();
                line.set(&last);
                self.query.input = Some(line);
                // The query shown is the history's last: ↑ goes to the one before.
                self.query.browsing = self.query.history.len().checked_sub(1);
            }
            Action::Schema => self.query.schema = !self.query.schema,
            Action::Preview => match self.selected_node() {
                Some(n) if self.heap().is_some_and(|h| h.is_bitmap(n)) => self.preview = Some(n),
                _ => {
                    self.status = Some("v shows a Bitmap's picture: select one (Classes, Inspector, a trace...)".into())
                }
            },
            Action::Expand if self.screen == Screen::Dominators && self.dom.groups.is_some() => self.toggle_group(true),
            Action::Collapse if self.screen == Screen::Dominators && self.dom.groups.is_some() => {
                self.toggle_group(false)
            }
            Action::Expand if self.screen == Screen::Threads => self.toggle_thread(true),
            Action::Collapse if self.screen == Screen::Threads => self.toggle_thread(false),
            Action::Expand if self.screen == Screen::Dominators => self.expand(true),
            Action::Collapse if self.screen == Screen::Dominators => self.expand(false),
            Action::Expand | Action::Collapse => {}
            Action::Inspect => {
                if let Some(n) = self.selected_node() {
                    self.inspect(n);
                }
            }
            Action::Copy => return self.copy(),
            Action::CopyTrace => return self.copy_trace(),
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
                Some(m) => m.editing = Some(LineEdit::new()),
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
                    return vec![Effect::Dump(target, agent::trigger::Kind::Manual)];
                }
                None => self.status = Some("nothing is being watched".into()),
            },
        }
        Vec::new()
    }

    /// Drops every screen's state that names objects of the dump on screen: lists, traces, the
    /// tree's open nodes, the Inspector's trail, filters, the places to go back to. The sort
    /// orders chosen stay.
    fn forget_the_dump(&mut self) {
        let classes_sort = self.classes.sort;
        let instance_sort = self.classes.instance_sort;
        self.classes = super::model::ClassesState { sort: classes_sort, instance_sort, ..Default::default() };
        let leak_sort = self.leaks.sort;
        self.leaks = LeaksState { sort: leak_sort, ..Default::default() };
        self.dom = Default::default();
        self.inspector = Default::default();
        self.overview = Default::default();
        self.diff = Default::default();
        self.threads = Default::default();
        self.set_view = None;
        self.preview = None;
        self.pictures.cache.replace(Vec::new());
        self.trash.clear();
        self.places.clear();
        self.prompt = None;
        self.picker = None;
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
                self.monitor = Some(MonitorState::new(target.clone(), self.trigger_config.clone()));
                self.load = Load::Empty;
                self.screen = Screen::Monitor;
                vec![Effect::Watch(target)]
            }
            source => {
                // The picker is kept: a dump that fails to open goes back to it.
                let was = std::mem::replace(&mut self.load, Load::Loading(Progress::new()));
                if let Load::Picking(p) = was {
                    self.picker = Some(p);
                }
                vec![Effect::Open(source)]
            }
        }
    }

    /// Starts watching `target` (`heaptui` with a process, tests).
    pub fn watch(&mut self, target: Target) -> Vec<Effect> {
        self.choose(Source::Process(target))
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

    /// `Y`: the selected suspect's whole trace as text, as `--format leakcanary` prints it.
    fn copy_trace(&mut self) -> Vec<Effect> {
        let (Some(loaded), Some(leak)) = (self.loaded(), self.selected_leak()) else {
            self.status = Some("no leak trace to copy".into());
            return Vec::new();
        };
        let text = heap::leaks::render::leak_trace_text(&loaded.heap, leak);
        self.status = Some(format!("copied the trace ({} lines)", text.lines().count()));
        vec![Effect::Copy(text)]
    }

    fn export(&mut self) -> Vec<Effect> {
        let Some(shown) = self.shown() else { return Vec::new() };
        // Files people `cat`: the text made safe as the headless commands make it, the JSON exact.
        let contents = heap::fmt::safe_lines(&super::export::text(&shown)).into_owned();
        let json = serde_json::to_string_pretty(&super::export::json(&shown))
            .ok()
            .map(|j| heap::fmt::safe_json(&j).into_owned());
        let stem = format!("heaptui-{}", self.screen.title().to_lowercase());
        let ext = if matches!(shown.rows, super::export::Rows::Query(_)) { "csv" } else { "txt" };
        vec![Effect::Export { stem, ext, contents, json }]
    }

    /// What the screen shows, as plain data for export; `None` when there is nothing to export.
    fn shown(&self) -> Option<Shown<'_>> {
        let loaded = self.loaded()?;
        let rows = match self.screen {
            _ if self.set_view_here().is_some() => {
                let v = self.set_view_here()?;
                Rows::Set(&v.title, &v.kind)
            }
            Screen::Overview | Screen::Monitor => Rows::Summary,
            Screen::Classes => match &self.classes.instances {
                Some((class, nodes, _)) => Rows::Instances { class: *class, nodes },
                None => Rows::Classes(&self.classes.rows),
            },
            Screen::Leaks => Rows::Leaks,
            Screen::Dominators => Rows::Tree(self.dom_rows(10_000)),
            Screen::Inspector => Rows::Object(*self.inspector.history.last()?),
            Screen::Diff => Rows::Diff(loaded.baseline.as_ref()?),
            Screen::Threads => Rows::Threads(&loaded.threads),
            Screen::Query => Rows::Query(self.query.result.as_ref()?),
        };
        Some(Shown {
            heap: &loaded.heap,
            leaks: &loaded.leaks,
            path: &loaded.path,
            file_bytes: loaded.file_bytes,
            analysis_ms: loaded.analysis_ms.unwrap_or(0),
            undecided: &loaded.undecided,
            rows,
        })
    }

    /// Opens `class`'s instance list in the order wanted, at its top. A list of millions is
    /// sorted on a thread: until it arrives the list stays as it is (in the engine's order when
    /// it was not open), the bar names the order it is in, and the status line says it is
    /// being sorted.
    pub(super) fn list_instances(&mut self, class: heap::ClassId) -> Vec<Effect> {
        let order = self.classes.instance_sort;
        let Load::Ready(l) = &self.load else { return Vec::new() };
        if let Some(list) = l.instances(class, order) {
            self.classes.instances = Some((class, list, super::cursor::Cursor::default()));
            return Vec::new();
        }
        let heap = l.heap.clone();
        let count = heap.instances_by_retained(class).len();
        if self.classes.instances.as_ref().is_none_or(|(c, ..)| *c != class) {
            let now = l.instances(class, super::model::InstanceSort::Retained);
            self.classes.instances = now.map(|list| (class, list, super::cursor::Cursor::default()));
        }
        self.status = Some(format!("sorting {count} instances by {}…", order.label()));
        vec![Effect::Sort(super::msg::SortJob { heap, class, order })]
    }

    /// A list sorted on a thread: it replaces its class's list wherever that list is open and
    /// waits for that order, on screen and in the places `Back` returns to (the list may have
    /// been left while it was sorted).
    fn sorted(
        &mut self,
        heap: &Arc<heap::Heap>,
        class: heap::ClassId,
        order: super::model::InstanceSort,
        nodes: Arc<Vec<heap::Node>>,
    ) {
        if !self.heap().is_some_and(|h| Arc::ptr_eq(&h, heap)) {
            return;
        }
        let open = std::iter::once((&mut self.classes.instances, self.classes.instance_sort))
            .chain(self.places.iter_mut().map(|p| (&mut p.instances, p.instance_sort)));
        for (instances, wanted) in open {
            if let Some((c, list, cursor)) = instances {
                if *c == class && wanted == order && list.order != order {
                    *list = super::model::Instances::sorted(order, nodes.clone());
                    *cursor = super::cursor::Cursor::default();
                }
            }
        }
        if self.status.as_deref().is_some_and(|s| s.starts_with("sorting ")) {
            self.status = None;
        }
    }

    /// `s`: the next order of the list on screen.
    fn sort(&mut self) -> Vec<Effect> {
        match self.screen {
            Screen::Classes if self.classes.instances.is_some() => {
                self.classes.instance_sort = self.classes.instance_sort.next();
                if let Some((class, ..)) = self.classes.instances {
                    return self.list_instances(class);
                }
            }
            Screen::Classes => {
                self.classes.sort = Some(self.classes.sort.unwrap_or(SortKey::Retained).next());
                self.rebuild_class_rows();
            }
            Screen::Leaks if self.leaks.trace.is_none() => {
                self.leaks.sort = self.leaks.sort.next();
                self.leaks.cursor = super::cursor::Cursor::default();
            }
            Screen::Query => self.sort_query(),
            Screen::Threads => {
                self.threads.by_name = !self.threads.by_name;
                self.threads.cursor = super::cursor::Cursor::default();
            }
            _ => self.status = Some("this list has one order (largest retained first)".into()),
        }
        Vec::new()
    }
}
