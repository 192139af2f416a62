//! The one model of the interactive UI: where loading is, the analysed dump, and each screen's
//! state. `update.rs` changes it; the views read it.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use fuzzy_matcher::skim::SkimMatcherV2;
use heap::index::classes::ClassKind;
use heap::leaks::Leak;
use heap::{ClassId, Heap, Node};

use super::cursor::Cursor;
use super::line_edit::LineEdit;
use super::monitor::MonitorState;
use super::picker::{PickItem, Picker};
use super::screen::Screen;
use super::theme::Theme;

/// An analysed dump with what the screens show.
pub struct Loaded {
    pub heap: Arc<Heap>,
    pub leaks: Vec<Leak>,
    /// Whether the leak rules are still running (`leaks` is empty until they finish).
    pub leaks_pending: bool,
    /// The rules that could not decide on this dump (it lacks the values they read).
    pub undecided: Vec<heap::leaks::Undecided>,
    /// When opening the dump began.
    pub started: Instant,
    /// How long the analysis took, to the leak suspects (ms), once they are found.
    pub analysis_ms: Option<u128>,
    /// What changed since the baseline, when there is one.
    pub baseline: Option<Baseline>,
    pub path: String,
    pub file_bytes: u64,
    /// Figures the overview shows, computed once (each is a pass over every object).
    pub summary: heap::report::Summary,
    pub heap_totals: Vec<(String, u64, u64)>,
    /// The biggest roots of the dominator tree, largest first (MAT's "biggest objects"): a chain
    /// of objects each dominating the next is one entry, its head, not one per link.
    pub top_retained: Vec<Node>,
    /// Lists too long to sort on a keypress, sorted ahead of time by [`Loaded::warm`].
    pub presorted: Arc<std::sync::Mutex<Presorted>>,
    /// Instance lists this long or longer are put in another order on a thread
    /// ([`SORT_ON_THREAD`]; tests lower it).
    pub sort_on_thread: usize,
    /// The dump's threads with their stacks, largest retained first.
    pub threads: Vec<heap::threads::Thread>,
    /// What the Threads screen's filter matches for each thread (its name, class and frames),
    /// made once: a dump's 200,000 frames would otherwise be formatted again on each keystroke.
    pub thread_text: Vec<String>,
    /// The Inspector's object and its path from a GC root, kept while it is shown: the rows are
    /// made again on every key, and naming a step through a table of millions of slots scans it.
    pub inspected_path: std::sync::Mutex<Option<(Node, Arc<Vec<heap::paths::Step>>)>>,
    /// The Overview's word on Bitmaps the dump holds no pixels for, and why, when it has some.
    pub no_pixels: Option<String>,
}

/// Lists sorted ahead of time, on the thread that warms up after loading.
#[derive(Default)]
pub struct Presorted {
    /// Children of the dominator tree's widest nodes, largest retained first.
    pub children: HashMap<Node, Arc<Vec<Node>>>,
    /// The instances of the array classes with the most instances, largest shallow size first.
    pub by_shallow: HashMap<ClassId, Arc<Vec<Node>>>,
}

/// Array classes with at least this many instances have their shallow order made ahead of time
/// (5 million byte[] take 110–130 ms to put in that order on this project's machine).
const PRESORT_ARRAYS: usize = 250_000;

/// Instance lists this long or longer are put in another order on a thread: copying and
/// sorting the 14.6 M Strings of a 1 GB dump took 30–60 ms.
pub const SORT_ON_THREAD: usize = 1_000_000;

/// A class's instances in one order: the engine's own list (largest retained first), read where
/// it is rather than copied, or a sorted list.
#[derive(Clone)]
pub struct Instances {
    pub order: InstanceSort,
    list: List,
}

/// How many rows a long list or array shows at first, and how many more each `Enter` on its
/// last row adds.
pub const INSPECTOR_PAGE: usize = 1000;

/// The objects a job analyses: a class's instances (listed on the job's thread: a class of
/// millions is not copied on a keypress), or a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetOf {
    Class(heap::ClassId),
    Nodes(Arc<Vec<heap::Node>>),
}

#[derive(Clone)]
enum List {
    ByRetained(Arc<Heap>, ClassId),
    Sorted(Arc<Vec<Node>>),
}

impl Instances {
    /// A list sorted in `order`.
    pub fn sorted(order: InstanceSort, nodes: Arc<Vec<Node>>) -> Instances {
        Instances { order, list: List::Sorted(nodes) }
    }

    /// The set a job analyses: the class itself when the list is the engine's (the job lists
    /// it on its thread), the sorted list otherwise.
    pub fn set(&self) -> SetOf {
        match &self.list {
            List::ByRetained(_, class) => SetOf::Class(*class),
            List::Sorted(nodes) => SetOf::Nodes(nodes.clone()),
        }
    }
}

impl std::ops::Deref for Instances {
    type Target = [Node];

    fn deref(&self) -> &[Node] {
        match &self.list {
            List::ByRetained(heap, class) => heap.instances_by_retained(*class),
            List::Sorted(nodes) => nodes,
        }
    }
}

impl Loaded {
    /// Bundles an analysed dump with the figures the screens need.
    pub fn new(heap: Arc<Heap>, leaks: Vec<Leak>, path: String, file_bytes: u64) -> Loaded {
        let summary = heap.summary();
        let heap_totals = heap.heap_totals();
        let mut top_retained = heap.dominated(None);
        top_retained.truncate(200);
        let threads = heap.threads();
        let thread_text = threads
            .iter()
            .map(|t| {
                let mut text = format!("{} {}", t.name.as_deref().unwrap_or(""), heap.display_class(t.node));
                for s in t.frames.iter().flatten() {
                    text.push_str(&format!(" {}.{}", s.frame.class, s.frame.method));
                }
                text
            })
            .collect();
        let no_pixels = crate::session::pictures::missing(&heap, std::path::Path::new(&path));
        Loaded {
            heap,
            leaks,
            leaks_pending: false,
            undecided: Vec::new(),
            started: Instant::now(),
            analysis_ms: None,
            baseline: None,
            path,
            file_bytes,
            summary,
            heap_totals,
            top_retained,
            presorted: Default::default(),
            sort_on_thread: SORT_ON_THREAD,
            threads,
            thread_text,
            inspected_path: Default::default(),
            no_pixels,
        }
    }

    /// The path from a GC root to `n` ([`heap::paths::GcPaths::path`]), made once while `n` is
    /// the one asked for.
    pub fn path_to(&self, n: Node) -> Arc<Vec<heap::paths::Step>> {
        let mut memo = self.inspected_path.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match &*memo {
            Some((m, path)) if *m == n => path.clone(),
            _ => {
                let path = Arc::new(self.heap.paths().path(&self.heap.index, n));
                *memo = Some((n, path.clone()));
                path
            }
        }
    }

    /// Work that would otherwise land on a keypress, done right after loading (the UI runs it on
    /// a thread): the reverse graph for the inspector's referrers, the histogram's order (the
    /// Classes screen's, grouped or not), every class's instances sorted (instance lists, the
    /// tree's filter), the sorted children of every dominator-tree node with more than 20,000 of
    /// them, and the shallow order of the largest array classes.
    pub fn warm(heap: &Heap, presorted: &std::sync::Mutex<Presorted>) {
        if heap.index.is_empty() {
            return;
        }
        let _ = heap.referrers(Node(0));
        let _ = heap.histogram_order();
        let _ = heap.by_class();
        let _ = heap.reachability(Node(0));
        let d = &heap.dominators;
        let wide: Vec<Node> = heap.index.nodes().filter(|&n| d.children(Some(n)).len() > 20_000).collect();
        for n in wide {
            let sorted = heap.dominated(Some(n));
            if let Ok(mut m) = presorted.lock() {
                m.children.insert(n, Arc::new(sorted));
            }
        }
        for (c, class) in heap.index.classes.iter().enumerate() {
            let c = ClassId(c as u32);
            if class.kind != ClassKind::Instance && heap.instances_by_retained(c).len() >= PRESORT_ARRAYS {
                let sorted = Arc::new(InstanceSort::Shallow.sort(heap, c));
                if let Ok(mut m) = presorted.lock() {
                    m.by_shallow.insert(c, sorted);
                }
            }
        }
    }

    /// The instances of `class` in `order`, when that takes no longer than a keypress may: the
    /// engine's own order, read where it is; one sorted ahead of time; or a list shorter than
    /// [`Loaded::sort_on_thread`], sorted now. `None` for a longer list, to be sorted on a thread
    /// ([`super::msg::SortJob`]).
    pub fn instances(&self, class: ClassId, order: InstanceSort) -> Option<Instances> {
        let list = match order {
            InstanceSort::Retained => List::ByRetained(self.heap.clone(), class),
            _ => match self.presorted.lock().ok().and_then(|m| m.by_shallow.get(&class).cloned()) {
                Some(list) if order == InstanceSort::Shallow => List::Sorted(list),
                _ if self.heap.instances_by_retained(class).len() >= self.sort_on_thread => return None,
                _ => List::Sorted(Arc::new(order.sort(&self.heap, class))),
            },
        };
        Some(Instances { order, list })
    }
}

/// What changed since a baseline (an earlier dump of the same app), as `analyze --baseline`
/// computes it. The baseline's own analysis is not kept: only what the screen shows.
pub struct Baseline {
    /// The baseline's file.
    pub path: String,
    /// The histogram's changes, largest retained growth first.
    pub classes: Vec<heap::diff::ClassDelta>,
    /// Collections that grew, keyed by their path from a GC root, largest growth first.
    pub growing: Vec<heap::diff::Growth>,
}

/// One row of the Diff screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffRow {
    /// A collection that grew (an index into [`Baseline::growing`]).
    Growing(usize),
    /// A class whose counts changed (an index into [`Baseline::classes`]).
    Class(usize),
}

/// The Diff screen: its cursor and filter, and the list of dumps to take a baseline from.
#[derive(Default)]
pub struct DiffState {
    pub cursor: Cursor,
    pub filter: LineEdit,
    /// `b`: the dumps on offer as a baseline, while one is being chosen.
    pub choosing: Option<Picker>,
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
    pub class: Option<ClassId>,
    pub instances: u64,
    pub shallow: u64,
    pub retained: u64,
}

#[derive(Default)]
pub struct ClassesState {
    pub filter: LineEdit,
    pub sort: Option<SortKey>,
    pub grouped: bool,
    pub cursor: Cursor,
    pub rows: Vec<ClassRow>,
    /// Every row before filtering, for the grouping it was built for.
    pub base: Vec<ClassRow>,
    pub base_grouped: Option<bool>,
    /// The last filter and the rows (indices into `base`) it matched.
    pub matched: Option<(String, Vec<u32>)>,
    /// The instance list of a class, when open (shared with the places that remember it).
    pub instances: Option<(ClassId, Instances, Cursor)>,
    /// The order instance lists are wanted in (the list open may still be in another, while
    /// this one is sorted on a thread).
    pub instance_sort: InstanceSort,
}

/// Orders of a class's instance list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InstanceSort {
    #[default]
    Retained,
    Shallow,
    Id,
}

impl InstanceSort {
    pub fn next(self) -> InstanceSort {
        match self {
            InstanceSort::Retained => InstanceSort::Shallow,
            InstanceSort::Shallow => InstanceSort::Id,
            InstanceSort::Id => InstanceSort::Retained,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            InstanceSort::Retained => "retained",
            InstanceSort::Shallow => "shallow",
            InstanceSort::Id => "id",
        }
    }

    /// The instances of `class` in this order. The engine keeps every class's instances largest retained first; the id order is
    /// a sort of them by bits, and so is the shallow order when every instance has the same size
    /// (ties go by id); arrays' sizes differ, and a counting sort orders them.
    pub fn sort(self, heap: &Heap, class: ClassId) -> Vec<Node> {
        let mut nodes = heap.instances_by_retained(class).to_vec();
        let same_size = |nodes: &[Node]| {
            let mut sizes = nodes.iter().map(|&n| heap.index.shallow_size(n));
            let first = sizes.next();
            sizes.all(|s| Some(s) == first)
        };
        if self == InstanceSort::Retained {
            return nodes;
        }
        // In id order, the sizes are read ascending through their column.
        sort_nodes(&mut nodes, heap.index.len());
        if self == InstanceSort::Shallow && !same_size(&nodes) {
            sort_by_shallow(heap, &mut nodes);
        }
        nodes
    }
}

/// Sorts `nodes` (in id order) largest shallow size first, ties in id order, in two passes: a
/// count of each size, then each node put in its size's place (a stable counting sort; sizes of
/// 65,535 bytes and more share one count and are then sorted among themselves, being few).
fn sort_by_shallow(heap: &Heap, nodes: &mut [Node]) {
    const TOP: usize = u16::MAX as usize;
    let keys: Vec<u16> = nodes.iter().map(|&n| heap.index.shallow_size(n).min(TOP as u64) as u16).collect();
    // Slot `TOP - size`: the largest first.
    let mut starts = vec![0usize; TOP + 2];
    for &k in &keys {
        starts[TOP - k as usize + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let big = starts[1];
    let mut out = vec![Node(0); nodes.len()];
    for (&n, &k) in nodes.iter().zip(&keys) {
        let slot = &mut starts[TOP - k as usize];
        out[*slot] = n;
        *slot += 1;
    }
    out[..big].sort_unstable_by_key(|&n| (std::cmp::Reverse(heap.index.shallow_size(n)), n));
    nodes.copy_from_slice(&out);
}

/// Sorts distinct nodes ascending. A long list is put in order through a bit per object of the
/// dump (`total` of them; 1.7 MB for 14 million, which the caches hold): a bit set for each
/// node, then the set bits read in order. Ten times faster than a comparison sort of millions of
/// shuffled nodes, and than two radix passes.
fn sort_nodes(nodes: &mut [Node], total: usize) {
    if nodes.len() < 1 << 14 || nodes.iter().any(|n| n.index() >= total) {
        nodes.sort_unstable();
        return;
    }
    let mut bits = vec![0u64; total.div_ceil(64)];
    for n in nodes.iter() {
        bits[n.index() / 64] |= 1 << (n.0 % 64);
    }
    let mut slots = nodes.iter_mut();
    for (w, &word) in bits.iter().enumerate() {
        let mut x = word;
        while x != 0 {
            let Some(slot) = slots.next() else { return };
            *slot = Node((w * 64) as u32 + x.trailing_zeros());
            x &= x - 1;
        }
    }
}

/// Orders of the leak suspects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LeakSort {
    /// As the engine ranks them: the app's first, then by retained size.
    #[default]
    Rank,
    Retained,
    Count,
    Class,
}

impl LeakSort {
    pub fn next(self) -> LeakSort {
        match self {
            LeakSort::Rank => LeakSort::Retained,
            LeakSort::Retained => LeakSort::Count,
            LeakSort::Count => LeakSort::Class,
            LeakSort::Class => LeakSort::Rank,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            LeakSort::Rank => "kind, retained",
            LeakSort::Retained => "retained",
            LeakSort::Count => "count",
            LeakSort::Class => "class",
        }
    }
}

#[derive(Default)]
pub struct LeaksState {
    pub cursor: Cursor,
    /// The trace of the selected leak, when open, with its cursor.
    pub trace: Option<Cursor>,
    /// Narrows the suspects (fuzzy, on class, rule and reason).
    pub filter: LineEdit,
    /// Their order.
    pub sort: LeakSort,
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
    /// Narrows the tree to the nodes whose class matches, with their ancestors.
    pub filter: LineEdit,
    /// The rows the filter leaves, when one is set.
    pub filtered: Option<Vec<DomRow>>,
    /// `c`: the tree grouped by class (MAT's "group by class"), when on.
    pub groups: Option<ClassGroups>,
    /// The cursor over the grouped rows.
    pub group_cursor: Cursor,
}

/// The dominator tree grouped by class: at each level, the objects of one class together, with
/// their count and retained size; opening a group groups everything its objects dominate.
#[derive(Default, Clone)]
pub struct ClassGroups {
    pub nodes: Vec<ClassGroup>,
    /// The groups of the virtual root's children, largest retained first.
    pub roots: Vec<usize>,
    pub open: HashSet<usize>,
}

/// One group: objects of one class under the same parent group.
#[derive(Clone)]
pub struct ClassGroup {
    pub class: ClassId,
    pub objects: Vec<Node>,
    /// Their retained sizes added (their subtrees are apart: each object has one dominator).
    pub retained: u64,
    /// The groups of what they dominate, largest first, once opened.
    pub children: Option<Vec<usize>>,
}

/// The children of a dominator-tree node, sorted by retained size only as far as rows have been
/// shown: a node with 500,000 children costs a selection, not a full sort, when it opens.
pub struct Kids {
    /// Shared with [`Presorted`] when sorted ahead of time (a node may dominate millions, and a
    /// copy of them would take a keypress's time); copied on the first sort otherwise.
    pub nodes: Arc<Vec<Node>>,
    /// `nodes[..sorted]` are the largest, in order.
    pub sorted: usize,
}

/// One visible row of the dominator tree.
#[derive(Debug, Clone, Copy)]
pub struct DomRow {
    pub node: Node,
    pub depth: usize,
}

#[derive(Clone)]
pub struct InspectorState {
    /// Objects visited, the current one last (a browser's history).
    pub history: Vec<Node>,
    pub cursor: Cursor,
    /// Narrows the fields, elements and referrers (on name, type and class).
    pub filter: LineEdit,
    /// How many rows of a long array or referrer list show (a page more with each `Enter` on
    /// the last).
    pub shown: usize,
}

impl Default for InspectorState {
    fn default() -> Self {
        InspectorState {
            history: Vec::new(),
            cursor: Cursor::default(),
            filter: LineEdit::default(),
            shown: INSPECTOR_PAGE,
        }
    }
}

/// The Threads screen: which threads are open, the cursor, the filter and the order.
#[derive(Default)]
pub struct ThreadsState {
    pub cursor: Cursor,
    /// Threads whose stacks are open (by thread object).
    pub open: HashSet<Node>,
    /// Narrows the threads (fuzzy, on the name, the class and the frames' methods).
    pub filter: LineEdit,
    /// Largest retained first (the default), or by name.
    pub by_name: bool,
}

/// One row of the Threads screen: indices into the loaded threads, their frames and locals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadRow {
    Thread(usize),
    Frame(usize, usize),
    /// A local of a frame (`Some(frame)`) or of no frame the dump gives.
    Local(usize, Option<usize>, usize),
    /// Why a thread shows no frames, or that its trace is where it started.
    Note(usize, &'static str),
}

/// A view of a set of objects a screen lists (`m`: their merged paths from the GC roots, `D`:
/// their immediate dominators), drawn over the screen it was asked on until `Esc`.
#[derive(Clone)]
pub struct SetView {
    /// The screen it belongs to.
    pub screen: Screen,
    /// What the set is ("2000 instances of Session").
    pub title: String,
    pub kind: SetKind,
    pub cursor: Cursor,
}

/// What a [`SetView`] shows.
#[derive(Clone)]
pub enum SetKind {
    /// Being computed on a thread (the analysis named, and its job's number).
    Pending(&'static str, u64),
    /// The merged shortest paths, with the tree's open nodes.
    Merged { tree: Arc<heap::merged::MergedPaths>, open: HashSet<usize> },
    /// The immediate dominators by class; `group`: the one whose dominators are listed.
    Dominators { result: Arc<heap::immediate::ImmediateDominators>, group: Option<usize> },
}

/// How Bitmaps' pictures are drawn: the terminal's graphics protocol (or half blocks), and the
/// last picture made for a size of pane (made again only when either changes).
pub struct Pictures {
    pub picker: ratatui_image::picker::Picker,
    /// Each picture made for a pane, or why it could not be.
    #[allow(clippy::type_complexity)]
    pub cache:
        std::cell::RefCell<Vec<(Node, ratatui::layout::Rect, Result<ratatui_image::protocol::Protocol, String>)>>,
}

impl Default for Pictures {
    /// Half blocks: what any true-colour terminal shows. A cell shows two pixels, one above the
    /// other, so the picture is made at the pane's size in cells times two rows. (With a
    /// font's pixel size, a full-screen Bitmap would be scaled to a picture a hundred times
    /// larger than the cells can show, and then down again, on the frame it first appears.)
    fn default() -> Pictures {
        let mut picker = ratatui_image::picker::Picker::from_fontsize((1, 2));
        picker.set_protocol_type(ratatui_image::picker::ProtocolType::Halfblocks);
        Pictures { picker, cache: Default::default() }
    }
}

impl Pictures {
    /// The terminal's own graphics protocol (kitty, iTerm2, sixel) and font size, asked of it
    /// once the UI has the terminal; half blocks when it answers none, inside tmux (whose
    /// passthrough differs by version), or with `HEAPTUI_GRAPHICS=halfblocks`.
    pub fn picker_for_terminal() -> ratatui_image::picker::Picker {
        let asked =
            std::env::var("HEAPTUI_GRAPHICS").map_or(true, |v| v != "halfblocks") && std::env::var_os("TMUX").is_none();
        match asked.then(ratatui_image::picker::Picker::from_query_stdio) {
            Some(Ok(p)) if p.protocol_type() != ratatui_image::picker::ProtocolType::Halfblocks => p,
            _ => Pictures::default().picker,
        }
    }
}

/// What a query gave.
pub struct QueryResult {
    pub sql: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<rusqlite::types::Value>>,
    /// Rows the query gave beyond the screen's 100,000.
    pub more: u64,
    pub ms: u128,
}

/// The Query screen.
#[derive(Default)]
pub struct QueryState {
    /// The SQL being typed, while the prompt is open.
    pub input: Option<LineEdit>,
    /// Queries run, the latest last; `browsing` is where ↑/↓ are in it.
    pub history: Vec<String>,
    pub browsing: Option<usize>,
    pub result: Option<QueryResult>,
    pub error: Option<String>,
    /// The query running, and the handle that interrupts it (set once its connection exists).
    pub running: Option<(String, crate::session::sql::Stop)>,
    pub cursor: Cursor,
    /// The column sorted by and whether descending.
    pub sort: Option<(usize, bool)>,
    /// The result's rows in that order (indices into its rows), sorted when the order changes,
    /// not per frame.
    pub order: Vec<usize>,
    /// Whether the schema is shown beside the results.
    pub schema: bool,
}

/// What is being typed at the bottom of the screen: while it is open every key goes into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    /// `/`: the filter of the list on screen (its text is that screen's filter).
    Filter,
    /// `:`: an object id or a class name to go to, and the class name `Tab` would complete it
    /// to.
    Goto(LineEdit, Option<String>),
}

/// A place to come back to (`Esc`, `Backspace`): the screen, and what was open and selected on
/// each screen, as a browser's history keeps pages.
#[derive(Clone)]
pub struct Place {
    pub screen: Screen,
    pub overview: Cursor,
    pub diff: Cursor,
    pub classes_cursor: Cursor,
    pub instances: Option<(ClassId, Instances, Cursor)>,
    pub instance_sort: InstanceSort,
    pub leaks_cursor: Cursor,
    pub trace: Option<Cursor>,
    pub dom_cursor: Cursor,
    pub dom_expanded: HashSet<Option<Node>>,
    pub inspector: InspectorState,
    pub threads: Cursor,
    pub set_view: Option<SetView>,
    pub query: Cursor,
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
    /// The Overview's rows: its suspects, then its largest objects.
    pub overview: Cursor,
    pub classes: ClassesState,
    pub leaks: LeaksState,
    pub dom: DomState,
    pub inspector: InspectorState,
    pub diff: DiffState,
    pub threads: ThreadsState,
    /// The set view open, if any (`m`, `D`).
    pub set_view: Option<SetView>,
    /// Screen 9: SQL.
    pub query: QueryState,
    /// The number the next analysis of a set gets (its result is matched to its view by it).
    pub(super) next_job: u64,
    /// Views left, to free when no key has come for a while: giving hundreds of megabytes back
    /// to the system holds the process's memory map, and a keypress that then touches fresh
    /// memory would wait 20 ms for it.
    pub(super) trash: Vec<SetView>,
    /// When the last key came.
    pub(super) last_key: Instant,
    /// `v`: the Bitmap shown over the whole screen.
    pub preview: Option<Node>,
    /// How pictures are drawn, and the last one made.
    pub pictures: Pictures,
    /// The prompt being typed in, if any.
    pub prompt: Option<Prompt>,
    /// Where `Back` returns to, the latest last.
    pub places: Vec<Place>,
    /// The picker a dump was chosen in, while that dump loads (back to it if it fails).
    pub picker: Option<Picker>,
    /// The process being watched (screen 6).
    pub monitor: Option<MonitorState>,
    /// Thresholds a new watch starts with (the config file's, then `--trigger`'s).
    pub trigger_config: agent::trigger::Config,
    /// What was shown before a dump began (back to it if the dump fails).
    pub(super) before_dump: Option<Load>,
    pub(super) matcher: SkimMatcherV2,
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
            overview: Cursor::default(),
            classes: ClassesState { sort: Some(SortKey::Retained), ..Default::default() },
            leaks: LeaksState::default(),
            dom: DomState::default(),
            inspector: InspectorState::default(),
            diff: DiffState::default(),
            threads: Default::default(),
            set_view: None,
            query: QueryState::default(),
            trash: Vec::new(),
            next_job: 0,
            last_key: Instant::now(),
            preview: None,
            pictures: Pictures::default(),
            prompt: None,
            places: Vec::new(),
            picker: None,
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

    /// The analysed dump, once loaded.
    pub fn loaded(&self) -> Option<&Loaded> {
        match &self.load {
            Load::Ready(l) => Some(l),
            _ => None,
        }
    }

    pub(super) fn heap(&self) -> Option<Arc<Heap>> {
        self.loaded().map(|l| l.heap.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_sort_by_bits_as_by_comparison() {
        let mut x = 0x9e37_79b9u32;
        let total = 3_000_000;
        let mut nodes: Vec<Node> = (0..200_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                Node(x % total)
            })
            .collect();
        nodes.sort_unstable();
        nodes.dedup();
        let expected = nodes.clone();
        nodes.reverse();
        nodes.rotate_left(12_345);
        sort_nodes(&mut nodes, total as usize);
        assert_eq!(nodes, expected);
    }
}
