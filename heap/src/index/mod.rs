//! The index of a dump: every object as a dense node with its class, heap, file offset, shallow
//! size and outgoing references; the class table; the GC roots.
//!
//! Built in two passes. The first walks the top-level records in file order, parsing the few
//! that hold metadata (strings, class names), then the sub-records of the heap dump records,
//! groups of whole records on every core (framing within a record cannot be parallel: HPROF has
//! no sync marks; HotSpot writes a segment per megabyte or so, Android one per 8 MB), noting each
//! object's id and offset, class dumps and roots. The second reads each object again, in
//! parallel chunks, for its class, size and references.

pub mod classes;
pub(crate) mod column;
pub mod csr;
pub mod ids;
pub mod sizes;
pub mod stacks;
pub(crate) mod strings;

use std::path::Path;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::data::Data;
use crate::error::{Error, ErrorKind, Limit, Result};
use crate::hprof::cursor::read_id;
use crate::hprof::{
    parse_header, read_sub_record, BasicType, ClassDump, Cursor, Header, Record, Records, RootKind, SubRecord,
    TopRecord,
};
use crate::spec::sub::{self, instance, object_array};
use crate::spec::{heap_type, record};
use classes::{java_name, Class, ClassId, ClassKind, Field, Static, Strength};
use column::Column;
use csr::{Csr, WEAK};
use ids::{IdMap, Ids};
use sizes::{detect_ref_size_mat, detect_ref_size_visualvm, SizeModel, Sizer};
use stacks::{StackRecords, Stacks, ThreadRoot};
pub(crate) use strings::{HashedStrings, StringCopies, StringHashes};

/// Shallow sizes at or above this are kept in `big_shallow`, the column holding this mark.
pub(crate) const BIG_SHALLOW: u16 = u16::MAX;

/// The phases of loading, for progress reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Walking the records.
    Read,
    /// Sorting ids, building the class table, reading references.
    Index,
    /// Dominator tree and retained sizes.
    Dominators,
    /// Class histogram and retained size by class.
    Histogram,
}

impl Phase {
    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Read => "read",
            Phase::Index => "index",
            Phase::Dominators => "dominators",
            Phase::Histogram => "histogram",
        }
    }
}

/// A progress callback: phase, units done, units in total (bytes for `Read`).
pub type Progress<'a> = &'a (dyn Fn(Phase, u64, u64) + Sync);

/// How to open a dump.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// Size model; `None` picks `android` for 1.0.3 dumps and `hotspot` otherwise.
    pub size_model: Option<SizeModel>,
    /// Called as each phase advances.
    pub progress: Option<Progress<'a>>,
    /// Which heap dump to read when the file holds several (0: the first). The old hprof agent
    /// appends one per request; tools read the first unless asked.
    pub dump: usize,
    /// Skip reading references (for a histogram alone: no graph, no dominators).
    pub skip_references: bool,
    /// Whose rules the analysis follows (roots, which references keep objects alive, what
    /// retained sizes count); the index itself is the same under every rule set.
    pub semantics: crate::Semantics,
    /// Hash each String's characters while the second pass has its array at hand, for the
    /// duplicate strings report (8 bytes a String, kept until the report takes them). Without
    /// it the report reads every String's array again. Not part of the index cache.
    pub hash_strings: bool,
}

/// What kind of object a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    /// An INSTANCE DUMP.
    Instance,
    /// An OBJECT ARRAY DUMP.
    ObjectArray,
    /// A PRIMITIVE ARRAY DUMP (or NODATA).
    PrimitiveArray,
    /// A CLASS DUMP: the class object.
    Class,
}

/// A heap of an Android dump (app, zygote, image), or the single heap of a HotSpot dump.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct HeapName {
    /// The heap type of HEAP DUMP INFO (0 for the default heap).
    pub heap_type: u32,
    /// Its name (`app`, `zygote`, `image`, `default`).
    pub name: String,
}

/// Counts of what the heap records hold.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// CLASS DUMP records.
    pub classes: u64,
    /// INSTANCE DUMP records.
    pub instances: u64,
    /// OBJECT ARRAY DUMP records.
    pub object_arrays: u64,
    /// PRIMITIVE ARRAY (and NODATA) records.
    pub primitive_arrays: u64,
    /// GC root records (all kinds, including those naming objects absent from the dump).
    pub root_records: u64,
    /// GC root records by kind, counted the same way.
    pub root_records_by_kind: std::collections::BTreeMap<RootKind, u64>,
    /// Distinct class ids named by LOAD CLASS records (a class may be loaded more than once).
    pub loaded_classes: u64,
    /// Top-level records by name (`STRING`, `LOAD CLASS`, `STACK TRACE`...), over the whole file.
    #[serde(deserialize_with = "deserialize_record_counts")]
    pub records: std::collections::BTreeMap<&'static str, u64>,
}

/// Reads back record counts keyed by [`crate::spec::record_name`] (names outside it count as unknown).
fn deserialize_record_counts<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<std::collections::BTreeMap<&'static str, u64>, D::Error> {
    let named: std::collections::BTreeMap<String, u64> = serde::Deserialize::deserialize(d)?;
    let mut out = std::collections::BTreeMap::new();
    for (name, n) in named {
        let known = (0..=u8::MAX).map(crate::spec::record_name).find(|k| *k == name).unwrap_or("unknown record");
        let e = out.entry(known).or_default();
        *e = u64::saturating_add(*e, n);
    }
    Ok(out)
}

/// The index of one dump.
pub struct Index {
    pub(crate) data: Data,
    /// The file header.
    pub header: Header,
    pub(crate) strings: FxHashMap<u64, (u64, u32)>,
    /// The class table.
    pub classes: Vec<Class>,
    pub(crate) class_by_id: FxHashMap<u64, u32>,
    pub(crate) class_by_node: FxHashMap<u32, u32>,
    pub(crate) ids: Ids,
    pub(crate) offsets: Column<u32>,
    pub(crate) heap_runs: HeapRuns,
    pub(crate) class_of: Column<u16>,
    pub(crate) shallow: crate::slab::Slab<u16>,
    pub(crate) big_shallow: FxHashMap<u32, u64>,
    pub(crate) refs: Csr,
    pub(crate) roots: Vec<(Node, RootKind)>,
    /// The thread each thread-owned root (a local, a frame...) belongs to, by node.
    pub(crate) root_threads: FxHashMap<u32, u32>,
    /// The threads, their stacks and locals.
    pub(crate) stacks: Stacks,
    pub(crate) marked_unreachable: Vec<u32>,
    /// Heaps in the order the dump names them.
    pub heaps: Vec<HeapName>,
    /// The size model in force.
    pub sizer: Sizer,
    /// Record counts.
    pub counts: Counts,
    /// Things worth telling the user (truncation, dangling ids).
    pub warnings: Vec<String>,
    /// For an index made from a Perfetto trace: which of its heap graphs, and every graph it
    /// holds. A graph records no field values beyond a few ([`crate::perfetto::Recorded`]).
    pub heap_graph: Option<crate::perfetto::Origin>,
    pub(crate) java_lang_class: u32,
    /// Class table indexes by name, built on first use (reset when names change).
    pub(crate) by_name: std::sync::OnceLock<FxHashMap<String, Vec<ClassId>>>,
    /// See [`Index::strong_leaves`] and [`Index::weak_holders`].
    pub(crate) edge_kinds: std::sync::OnceLock<csr::EdgeKinds>,
    /// What [`Options::hash_strings`] asked for, until the duplicate strings report takes it.
    pub(crate) string_hashes: std::sync::Mutex<Option<HashedStrings>>,
}

/// Where a String keeps its characters, when the second pass can hash them: `value` is the
/// class's first reference and the class has not both `offset` and `count` (JDK 7u6 and later,
/// where `value` is the one reference; ART, where Object's `shadow$_klass_` follows it), so the
/// String's characters are its whole array, and a String with a value has it as its first edge.
#[derive(Clone, Copy)]
pub(crate) struct StringLayout {
    class: u32,
}

impl StringLayout {
    /// The layout of the first class named `java.lang.String`, as the report finds it.
    fn of(classes: &[Class]) -> Option<StringLayout> {
        let class = classes.iter().position(|c| c.name == "java.lang.String")?;
        Self::value_first(&classes[class]).then_some(StringLayout { class: class as u32 })
    }

    /// Whether a String of class `c` keeps its characters as described above: its whole array,
    /// its first edge. The duplicate strings report asks the same of the class.
    pub(crate) fn value_first(c: &Class) -> bool {
        let place = |name: &str| c.fields.iter().find(|f| f.name == name).map(|f| f.offset);
        let windowed = place("offset").zip(place("count")).is_some();
        place("value").is_some_and(|value| !windowed && c.ref_offsets.first() == Some(&value))
    }
}

/// A node: an object's dense index, its place in the sorted list of object ids (as opposed to
/// its id in the file, or its class's [`ClassId`]).
///
/// Packed columns (the reference graph, the dominator arrays) keep nodes as bare `u32`; this is
/// what the engine's API speaks. `repr(transparent)` and `Pod`, so a `&[u32]` of nodes can be seen
/// as `&[Node]` without a copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
#[repr(transparent)]
pub struct Node(pub u32);

impl Node {
    /// The position in per-object lists (indexed like the id list), for indexing them.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

// SAFETY: a `repr(transparent)` wrapper of a `u32`: same layout, every bit pattern valid.
unsafe impl bytemuck::Zeroable for Node {}
// SAFETY: as above; no padding, no pointers.
unsafe impl bytemuck::Pod for Node {}

/// Which heap each stretch of the file belongs to: an Android dump switches heaps with HEAP DUMP
/// INFO records, so an object's heap follows from its file offset and costs nothing per object.
#[derive(Default)]
pub(crate) struct HeapRuns {
    /// File offsets where a run starts, ascending.
    pub(crate) starts: Vec<u64>,
    /// The heap (index into `Index::heaps`) of each run.
    pub(crate) heaps: Vec<u32>,
}

impl HeapRuns {
    /// The heap of the object at file offset `off` (0, the first, before any run).
    #[inline]
    pub(crate) fn heap_at(&self, off: u64) -> usize {
        self.heap_at_from(off, &mut 0)
    }

    /// [`HeapRuns::heap_at`] starting from `run`, the number of runs that started at or before
    /// the offset looked up last, and moving it (a search of every run's start when the offset
    /// lies elsewhere): objects read in node order mostly lie in the run of the one before
    /// (Android writes each heap's objects together), where a search for each took 0.08 s for
    /// the heap totals of a 14 M-object dump.
    #[inline]
    pub(crate) fn heap_at_from(&self, off: u64, run: &mut usize) -> usize {
        let k = *run;
        let here = (k == 0 || self.starts.get(k - 1).is_some_and(|&s| s <= off))
            && self.starts.get(k).is_none_or(|&s| off < s);
        if !here {
            *run = self.starts.partition_point(|&s| s <= off);
        }
        match *run {
            0 => 0,
            k => self.heaps[k - 1] as usize,
        }
    }

    fn enter(&mut self, off: u64, heap: u32) {
        if self.heaps.last().copied().unwrap_or(0) != heap {
            self.starts.push(off);
            self.heaps.push(heap);
        }
    }
}

struct Pass1 {
    /// Id and file offset of each object, in file order, in lists of about 16 MB of the file.
    objects: Vec<Objects>,
    heap_runs: HeapRuns,
    class_dumps: Vec<usize>,
    load_class: FxHashMap<u64, u64>,
    strings: FxHashMap<u64, (u64, u32)>,
    roots: Vec<(u64, RootKind)>,
    root_threads: Vec<ThreadRoot>,
    stack_records: StackRecords,
    unreachable: Vec<u64>,
    heaps: Vec<HeapName>,
    heap_name_ids: Vec<u64>,
    counts: Counts,
    mat_compressed: bool,
    warnings: Vec<String>,
}

impl Index {
    /// Opens the dump at `path` (plain or gzip).
    pub fn open(path: &Path, options: Options<'_>) -> Result<Index> {
        if crate::perfetto::is_trace(path) {
            let shown =
                |e: crate::perfetto::TraceError| Error::new(0, ErrorKind::Io(format!("{}: {e}", path.display())));
            let data = Data::map_raw(path)?;
            let trace = crate::perfetto::Trace::scan(&data).map_err(shown)?;
            let graph = trace.graph(options.dump).map_err(shown)?;
            let pid = graph.pid;
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            // The graph becomes a one-dump HPROF: `dump` chose among the graphs, not in it.
            let mut index = Index::from_graph(graph, Some(dir), Options { dump: 0, ..options })?;
            index.heap_graph = Some(crate::perfetto::Origin { number: options.dump + 1, graphs: trace.graphs.clone() });
            if trace.graphs.len() > 1 {
                index.warnings.insert(
                    0,
                    format!(
                        "the trace holds {} heap graphs; this is number {}, pid {pid} (--dump N picks another)",
                        trace.graphs.len(),
                        options.dump + 1,
                    ),
                );
            }
            return Ok(index);
        }
        Index::from_data(Data::open(path)?, options)
    }

    /// Indexes a dump held in memory.
    pub fn from_bytes(bytes: Vec<u8>, options: Options<'_>) -> Result<Index> {
        Index::from_data(Data::Owned(bytes), options)
    }

    /// Indexes a Perfetto heap graph: written as HPROF ([`crate::perfetto::hprof`]) and indexed
    /// as one, then each object given the size the graph records (the runtime's own figure,
    /// which no size model recomputes) and each type's class object none (the graph has its
    /// `java.lang.Class<…>` objects apart).
    pub fn from_perfetto(graph: &crate::perfetto::Graph, options: Options<'_>) -> Result<Index> {
        Index::from_graph(graph.clone(), None, options)
    }

    /// [`Index::from_perfetto`] of a graph given away: the HPROF is written to an unnamed file
    /// in `dir` (else `TMPDIR`), its size checked first against the space there, and the graph
    /// freed before indexing (only each object's size is kept).
    fn from_graph(graph: crate::perfetto::Graph, dir: Option<&Path>, options: Options<'_>) -> Result<Index> {
        let layout = crate::perfetto::hprof::Layout::of(&graph);
        let data = write_graph(&graph, &layout, dir)?;
        let ids = layout.ids;
        let mut zero: Vec<u64> = graph.types.iter().map(|t| ids.class(t.id)).collect();
        zero.extend(layout.runtime_class());
        zero.extend(layout.runtime_arrays());
        drop(layout);
        let sizes: Vec<(u64, u64)> = graph.objects.iter().map(|o| (o.id, o.self_size)).collect();
        let (info, truncated) = (graph.info(), graph.truncated);
        drop(graph);
        let mut index = Index::from_data(data, options)?;
        let mut shallow = std::mem::take(&mut index.shallow).into_vec();
        let mut set = |id: u64, size: u64| {
            let Some(n) = index.ids.map().and_then(|m| m.node(id)) else { return };
            if size >= u64::from(BIG_SHALLOW) {
                shallow[n as usize] = BIG_SHALLOW;
                index.big_shallow.insert(n, size);
            } else {
                shallow[n as usize] = size as u16;
                index.big_shallow.remove(&n);
            }
        };
        for (id, size) in sizes {
            set(id, size);
        }
        for id in zero {
            set(id, 0);
        }
        index.shallow = shallow.into();
        index.heap_graph = Some(crate::perfetto::Origin { number: 1, graphs: vec![info] });
        index.warnings.push(format!(
            "a Perfetto heap graph records no field values (but {}) and no array contents: what needs a value is not decided",
            crate::perfetto::Recorded::names()
        ));
        if truncated {
            index.warnings.push(format!("{GRAPH_INCOMPLETE} (packets were lost; Perfetto's buffer was too small)"));
        }
        Ok(index)
    }

    /// Whether the dump was cut short (or the heap graph lost packets): what was read is
    /// indexed, and findings may be missing.
    pub fn is_partial(&self) -> bool {
        self.warnings.iter().any(|w| w.starts_with(TRUNCATED) || w.starts_with(GRAPH_INCOMPLETE))
    }

    /// The threads the dump names (its THREAD OBJECT roots), their stacks and local roots.
    pub fn stacks(&self) -> &Stacks {
        &self.stacks
    }

    /// The names a stack frame gives, read from the dump (its class's name dotted, as Java
    /// writes it).
    pub fn frame(&self, f: &stacks::RawFrame) -> stacks::Frame {
        let name = |id: u64| if id == 0 { String::new() } else { self.string(id).unwrap_or_default() };
        stacks::Frame {
            class: java_name(&name(f.class)),
            method: name(f.method),
            signature: name(f.signature),
            source: name(f.source),
            line: f.line,
        }
    }

    /// Frame `i` of [`Stacks::frames`], with the names and line a mapping file gave it when the
    /// index was deobfuscated.
    pub fn frame_at(&self, i: u32) -> Option<stacks::Frame> {
        let raw = self.stacks.frames.get(i as usize)?;
        let mut frame = self.frame(raw);
        if let Some(Some(m)) = self.stacks.mapped.get(i as usize) {
            frame.class = m.class.clone();
            frame.method = m.method.clone();
            frame.line = m.line;
        }
        Some(frame)
    }

    /// The thread whose local (or frame, native stack...) root `n` is, when the dump says.
    pub fn root_thread(&self, n: Node) -> Option<Node> {
        self.root_threads.get(&n.0).map(|&t| Node(t))
    }

    /// What a person must be told beside an object's fields when the dump does not record their
    /// values (a Perfetto heap graph); `None` for a dump that does.
    pub fn values_note(&self) -> Option<String> {
        self.heap_graph.as_ref().map(|_| {
            format!(
                "values not recorded: a Perfetto heap graph keeps references, no array contents, and no values but {}",
                crate::perfetto::Recorded::names()
            )
        })
    }

    /// Indexes the dump in `data`.
    pub fn from_data(data: Data, options: Options<'_>) -> Result<Index> {
        let header = parse_header(&data)?;
        let span = crate::trace::span("index: pass 1");
        let p1 = pass1(&data, &header, options)?;
        data.release_all();
        drop(span);
        let index = build(data, header, p1, options)?;
        index.data.release_all();
        Ok(index)
    }

    /// Whether the second pass hashed the Strings' characters ([`Options::hash_strings`], on a
    /// layout it can hash) and the duplicate strings report has not taken the hashes yet.
    pub fn holds_string_hashes(&self) -> bool {
        self.string_hashes.lock().unwrap_or_else(std::sync::PoisonError::into_inner).is_some()
    }

    /// Turns the second pass's String hashes, when the index holds them, into the Strings that
    /// may be copies ([`StringCopies`]), kept here for the duplicate strings report. The
    /// analysis calls this on the core the paths leave idle while the dominator tree is built:
    /// the report's sort of a key per String is then off the critical path (0.29 s of a dump of
    /// 14.6 M Strings).
    ///
    /// The copies are made while `peak` is held (see [`crate::Heap::analyse`]). A core waiting
    /// for its share of them may run any other job of the pool meanwhile; the only other holder
    /// of `peak` is semi-NCA, which the tree's own thread runs (never a job another core can
    /// take) and which waits for no job while it holds it. So no core waits for itself.
    pub(crate) fn find_string_copies(&self, peak: &std::sync::Mutex<()>) {
        // The index's lock is not held while the copies are made, for the reason above: another
        // job a waiting core runs may ask for the index's hashes.
        let lock = || self.string_hashes.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let taken = lock().take();
        let made = match taken {
            Some(HashedStrings::PerString(hashes)) => {
                let _held = peak.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                self.string_copies(hashes).map(HashedStrings::Copies)
            }
            other => other,
        };
        *lock() = made;
    }

    /// The Strings of `hashed` that may be copies of one another; `None` when its Strings are not
    /// this index's instances of its class.
    pub(crate) fn string_copies(&self, hashed: StringHashes) -> Option<StringCopies> {
        let g = self.graph();
        let first_edge = |v: u32| g.edges(v).first().map(|&t| t & !WEAK);
        strings::copies_of(hashed, self.len() as u32, |v| self.class_of(Node(v)), first_edge)
    }

    /// Gives the dump's mapped pages back to the kernel (see [`Data::release`]); the engine does
    /// so behind each pass over the file.
    pub fn release_pages(&self) {
        self.data.release_all();
    }

    /// The raw bytes of the dump.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }

    /// Number of objects (nodes), class objects included.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the dump holds no objects.
    pub fn is_empty(&self) -> bool {
        self.ids.len() == 0
    }

    /// Every node, in order.
    pub fn nodes(&self) -> impl DoubleEndedIterator<Item = Node> + ExactSizeIterator + Clone {
        (0..self.len() as u32).map(Node)
    }

    /// The nodes for which `keep` holds, in order; every object looked at on every core.
    pub fn nodes_where(&self, keep: impl Fn(Node) -> bool + Sync + Send) -> Vec<Node> {
        (0..self.len() as u32).into_par_iter().map(Node).filter(|&n| keep(n)).collect()
    }

    /// The object id of node `n`.
    pub fn id(&self, n: Node) -> u64 {
        match self.ids.map() {
            Some(map) => map.id(n.0),
            None => self.id_in_record(n.index()),
        }
    }

    /// The node of object `id`.
    pub fn node(&self, id: u64) -> Option<Node> {
        if let Some(map) = self.ids.map() {
            return map.node(id).map(Node);
        }
        // A search of one stretch of nodes between two samples, by their records' ids.
        let mut stretch = self.ids.stretch_of(id)?;
        while !stretch.is_empty() {
            let mid = stretch.start + stretch.len() / 2;
            match self.id_in_record(mid).cmp(&id) {
                std::cmp::Ordering::Less => stretch.start = mid + 1,
                std::cmp::Ordering::Greater => stretch.end = mid,
                std::cmp::Ordering::Equal => return Some(Node(mid as u32)),
            }
        }
        None
    }

    /// Node `n`'s id as its record in the dump gives it: the first field after the tag, in
    /// every kind of object record.
    fn id_in_record(&self, n: usize) -> u64 {
        let at = self.offsets.get(n) as usize + 1;
        self.bytes().get(at..).map_or(0, |b| read_id(b, self.header.id_size))
    }

    /// Every id at hand, for a caller about to read many (an export, SQL): once an analysis
    /// has let the map go ([`Index::thin_ids`]), it is made again from the records, the
    /// dump's pages given back behind the read, and then kept.
    pub fn id_map(&self) -> &IdMap {
        self.ids.rebuild(|n| self.id_in_record(n), |n| self.offsets.get(n), |read| self.data.release(read))
    }

    /// Lets the id map go (see [`ids::Ids`]): ids are then read from the dump's records.
    pub(crate) fn thin_ids(&mut self) {
        self.ids.thin();
    }

    /// The class (table index) of node `n`; for class objects, `java.lang.Class`.
    #[inline]
    pub fn class_of(&self, n: Node) -> ClassId {
        ClassId(self.class_of.get(n.index()) as u32)
    }

    /// The class of node `n`.
    pub fn class(&self, n: Node) -> &Class {
        &self.classes[self.class_of(n).index()]
    }

    /// If node `n` is a class object, its class table index.
    pub fn as_class(&self, n: Node) -> Option<ClassId> {
        self.class_by_node.get(&n.0).copied().map(ClassId)
    }

    /// The class of the class object `id`.
    pub fn class_by_id(&self, id: u64) -> Option<ClassId> {
        self.class_by_id.get(&id).copied().map(ClassId)
    }

    /// Classes named `name` (Java source form); several loaders may define the same name.
    pub fn classes_named<'s>(&'s self, name: &'s str) -> impl Iterator<Item = ClassId> + 's {
        let by_name = self.by_name.get_or_init(|| {
            let mut m: FxHashMap<String, Vec<ClassId>> = FxHashMap::default();
            for (i, c) in self.classes.iter().enumerate() {
                m.entry(c.name.clone()).or_default().push(ClassId(i as u32));
            }
            m
        });
        by_name.get(name).map_or(&[][..], Vec::as_slice).iter().copied()
    }

    /// The class `java.lang.Class`.
    pub fn java_lang_class(&self) -> ClassId {
        ClassId(self.java_lang_class)
    }

    /// Shallow size of node `n` under the size model.
    #[inline]
    pub fn shallow_size(&self, n: Node) -> u64 {
        let s = self.shallow[n.index()];
        if s == BIG_SHALLOW {
            self.big_shallow.get(&n.0).copied().unwrap_or(u64::from(BIG_SHALLOW))
        } else {
            u64::from(s)
        }
    }

    /// File offset of the sub-record of node `n`.
    #[inline]
    pub fn offset(&self, n: Node) -> u64 {
        self.offsets.get(n.index())
    }

    /// Heap (index into `heaps`) of node `n`.
    pub fn heap_of(&self, n: Node) -> usize {
        self.heap_runs.heap_at(self.offset(n))
    }

    /// [`Index::heap_of`] for objects asked in about node order: `run` (0 at first) is where
    /// the last lookup ended (see [`HeapRuns::heap_at_from`]).
    pub(crate) fn heap_of_from(&self, n: Node, run: &mut usize) -> usize {
        self.heap_runs.heap_at_from(self.offset(n), run)
    }

    /// What kind of object node `n` is.
    pub fn kind(&self, n: Node) -> ObjectKind {
        match self.data.get(self.offset(n) as usize).copied() {
            Some(sub::INSTANCE_DUMP) => ObjectKind::Instance,
            Some(sub::OBJECT_ARRAY_DUMP) => ObjectKind::ObjectArray,
            Some(sub::CLASS_DUMP) => ObjectKind::Class,
            _ => ObjectKind::PrimitiveArray,
        }
    }

    /// Outgoing references of `n` (strong and weak), as nodes.
    pub fn references(&self, n: Node) -> impl Iterator<Item = Node> + '_ {
        self.refs.edges(n.0).iter().map(|&t| Node(t & !WEAK))
    }

    /// Outgoing references of `n` with a flag: `true` for the `referent` of a Reference.
    pub fn references_weak(&self, n: Node) -> impl Iterator<Item = (Node, bool)> + '_ {
        self.refs.edges(n.0).iter().map(|&t| (Node(t & !WEAK), t & WEAK != 0))
    }

    /// A bit per node set for objects with no strong reference of their own (noted as the index
    /// is built; for an index from its cache made on first use, with [`Index::weak_holders`]).
    pub(crate) fn strong_leaves(&self) -> &[u64] {
        &self.edge_kinds.get_or_init(|| self.refs.kinds()).strong_leaves
    }

    /// A bit per node set for objects holding a weak reference (as [`Index::strong_leaves`]).
    pub(crate) fn weak_holders(&self) -> &[u64] {
        &self.edge_kinds.get_or_init(|| self.refs.kinds()).weak_holders
    }

    /// Whether `n` holds no strong reference (see [`csr::EdgeKinds`]).
    #[inline]
    pub(crate) fn is_strong_leaf(leaves: &[u64], n: u32) -> bool {
        crate::bits::get(leaves, n as usize)
    }

    /// The reference graph.
    pub fn graph(&self) -> &Csr {
        &self.refs
    }

    /// GC roots: one entry per root record that names an object of the dump.
    pub fn roots(&self) -> &[(Node, RootKind)] {
        &self.roots
    }

    /// Objects the dump marks unreachable (Android 0x90 records).
    pub fn marked_unreachable(&self) -> &[Node] {
        bytemuck::cast_slice(&self.marked_unreachable)
    }

    /// The text of STRING record `id`.
    pub fn string(&self, id: u64) -> Option<String> {
        let &(off, len) = self.strings.get(&id)?;
        let b = self.data.get(off as usize..off as usize + len as usize)?;
        Some(String::from_utf8_lossy(b).into_owned())
    }

    /// The sub-record of node `n`, parsed.
    pub fn record(&self, n: Node) -> Result<SubRecord<'_>> {
        let mut c = Cursor::new(&self.data, self.offset(n) as usize, self.header.id_size);
        read_sub_record(&mut c)
    }

    /// For arrays, the number of elements.
    pub fn array_length(&self, n: Node) -> Option<u32> {
        match self.record(n).ok()? {
            SubRecord::ObjectArray { length, .. } | SubRecord::PrimitiveArray { length, .. } => Some(length),
            _ => None,
        }
    }
}

/// How the warning for a dump cut short begins ([`Index::is_partial`] looks for it).
const TRUNCATED: &str = "the dump is truncated";
/// How the warning for a heap graph with packets missing begins.
const GRAPH_INCOMPLETE: &str = "the heap graph is incomplete";

/// A graph's HPROF in an unnamed file ([`crate::perfetto::hprof::to_file`]), mapped.
fn write_graph(
    graph: &crate::perfetto::Graph,
    layout: &crate::perfetto::hprof::Layout,
    dir: Option<&Path>,
) -> Result<Data> {
    let io = |e: std::io::Error| Error::new(0, ErrorKind::Io(format!("the heap graph's HPROF: {e}")));
    let file = crate::perfetto::hprof::to_file(graph, layout, dir).map_err(io)?;
    // SAFETY: the file is ours alone (unnamed), and nothing writes it while mapped.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
    Ok(Data::Mapped(map))
}

/// The warning for a dump cut short at `e`.
fn truncated(e: &Error) -> String {
    format!("{TRUNCATED}: {e}; objects up to there are indexed")
}

/// The first pass: the top-level records in file order, then the heap dump bodies of the dump
/// asked for on every core, joined in file order. An error among the top-level records is
/// kept until the bodies before it are read, so the first error in file order is the one
/// reported.
fn pass1(whole: &Data, header: &Header, options: Options<'_>) -> Result<Pass1> {
    let mut p = Pass1 {
        objects: Vec::new(),
        heap_runs: HeapRuns::default(),
        class_dumps: Vec::new(),
        load_class: FxHashMap::default(),
        strings: FxHashMap::default(),
        roots: Vec::new(),
        root_threads: Vec::new(),
        stack_records: StackRecords::default(),
        unreachable: Vec::new(),
        heaps: vec![HeapName { heap_type: heap_type::DEFAULT, name: heap_type::name(heap_type::DEFAULT).into() }],
        heap_name_ids: vec![0],
        counts: Counts::default(),
        mat_compressed: false,
        warnings: Vec::new(),
    };
    let top = TopLevel::walk(whole, header, options.dump, &mut p);
    let parts = walk_bodies(whole, header.id_size, &top.bodies, options.progress);
    let mut last_array: Option<(u64, u32)> = None;
    for part in parts {
        if p.join(part, header.id_size, &mut last_array)? {
            break;
        }
    }
    if let Some(e) = top.failed {
        return Err(e);
    }
    p.warnings.extend(top.end_warnings);
    let dumps = top.dumps;
    if dumps > 1 {
        p.warnings.push(format!("the file holds {dumps} heap dumps; this is dump {} of them", options.dump + 1));
    }
    if options.dump > 0 && dumps <= options.dump {
        p.warnings.push(format!("the file holds {dumps} heap dumps; there is no dump {}", options.dump + 1));
    }
    if let Some(cb) = options.progress {
        let total = whole.len() as u64;
        cb(Phase::Read, total, total);
    }
    Ok(p)
}

/// The top-level records, walked in order: the metadata ones parsed into [`Pass1`], the heap
/// dump bodies of the dump asked for listed. Only their heads are read, so this walk is quick;
/// the bodies are walked after, in parallel.
#[derive(Default)]
struct TopLevel {
    bodies: Vec<Body>,
    /// The first error, reported once the bodies before it are read.
    failed: Option<Error>,
    /// Truncation found here, said after what the bodies say.
    end_warnings: Vec<String>,
    /// Heap dumps in the file: a HEAP DUMP record is one; a run of segments up to HEAP DUMP END
    /// is one.
    dumps: usize,
    in_segments: bool,
}

impl TopLevel {
    fn walk(whole: &Data, header: &Header, dump: usize, p: &mut Pass1) -> TopLevel {
        let data: &[u8] = whole;
        let mut top = TopLevel::default();
        let mut records = Records::new(data, header.records_start);
        let mut released = 0usize;
        loop {
            // Reading a record's head maps the pages around it (the kernel maps whole folios, up
            // to megabytes): they are given back behind the walk, 8 MB at a time.
            if records.pos() >= released + (8 << 20) {
                whole.release(released..records.pos());
                released = records.pos();
            }
            let rec = match records.next_record() {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) if matches!(e.kind, ErrorKind::Truncated { .. }) => {
                    top.end_warnings.push(truncated(&e));
                    break;
                }
                Err(e) => {
                    top.failed = Some(e);
                    break;
                }
            };
            *p.counts.records.entry(crate::spec::record_name(rec.tag)).or_default() += 1;
            if let Err(e) = top.record(data, header.id_size, &rec, dump, p) {
                top.failed = Some(e.in_record(rec.tag));
                break;
            }
        }
        top
    }

    /// Notes one record: strings and class names into `p`, heap dump bodies of dump `dump`
    /// into the list.
    fn record(&mut self, data: &[u8], id_size: u32, rec: &Record<'_>, dump: usize, p: &mut Pass1) -> Result<()> {
        match rec.decode(data, id_size)? {
            TopRecord::String { id, utf8 } => {
                let off = (utf8.as_ptr() as usize).saturating_sub(data.as_ptr() as usize);
                p.strings.insert(id, (off as u64, utf8.len() as u32));
            }
            TopRecord::LoadClass { class_id, name_id, serial, .. } => {
                p.load_class.insert(class_id, name_id);
                p.stack_records.class_names.insert(serial, name_id);
            }
            // Threads' stacks (few, and small next to the heap): kept until the thread object
            // roots say which traces are stacks.
            TopRecord::StackFrame { id, method_name_id, signature_id, source_file_id, class_serial, line } => {
                let frame = stacks::RawFrame {
                    method: method_name_id,
                    signature: signature_id,
                    source: source_file_id,
                    class: u64::from(class_serial),
                    line,
                };
                p.stack_records.frames.insert(id, frame);
            }
            TopRecord::StackTrace { serial, thread_serial, frames } => {
                let ids = frames.chunks_exact(id_size as usize).map(|b| read_id(b, id_size)).collect();
                p.stack_records.traces.insert(serial, (thread_serial, ids));
            }
            TopRecord::HeapDumpEnd => self.in_segments = false,
            TopRecord::HeapDump => {
                if rec.tag == record::HEAP_DUMP || !self.in_segments {
                    self.dumps += 1;
                }
                self.in_segments = rec.tag == record::HEAP_DUMP_SEGMENT;
                let (start, end) = (rec.body_offset, rec.body_offset + rec.body.len());
                if self.dumps == dump + 1 {
                    self.bodies.push(Body { tag: rec.tag, start, end, declared_len: rec.declared_len });
                } else if rec.is_truncated() {
                    // Another dump of the file, cut short: said, as its bodies are not read.
                    let e = Error::new(
                        end as u64,
                        ErrorKind::Truncated { needed: u64::from(rec.declared_len), left: rec.body.len() as u64 },
                    );
                    self.end_warnings.push(truncated(&e.in_record(rec.tag)));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// Walks the heap dump `bodies` in groups of about 16 MB of consecutive records, on every core:
/// each group gives its objects, roots and class dumps in file order (framing within a record
/// cannot be parallel: HPROF has no sync marks).
fn walk_bodies(whole: &Data, id_size: u32, bodies: &[Body], progress: Option<Progress<'_>>) -> Vec<Part> {
    const GROUP: usize = 16 << 20;
    let mut groups: Vec<&[Body]> = Vec::new();
    let (mut first, mut bytes) = (0, 0);
    for (i, b) in bodies.iter().enumerate() {
        bytes += b.end - b.start;
        if bytes >= GROUP || i + 1 == bodies.len() {
            groups.push(&bodies[first..=i]);
            (first, bytes) = (i + 1, 0);
        }
    }
    let total = whole.len() as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    groups
        .par_iter()
        .map(|group| {
            let mut part = Part::default();
            for b in group.iter() {
                part.walk(whole, id_size, b);
                whole.release(b.start..b.end);
                let len = (b.end - b.start) as u64;
                let now = done.fetch_add(len, std::sync::atomic::Ordering::Relaxed) + len;
                if let Some(cb) = progress {
                    if now >> 26 != (now - len) >> 26 {
                        cb(Phase::Read, now, total);
                    }
                }
                if part.stop {
                    break;
                }
            }
            part.objects.list.shrink_to_fit();
            part
        })
        .collect()
}

impl Pass1 {
    /// Adds what the next group of bodies holds, in file order; `Ok(true)` when the dump ends
    /// in it. `last_array` carries MAT's compressed-oops test across groups.
    fn join(&mut self, part: Part, id_size: u32, last_array: &mut Option<(u64, u32)>) -> Result<bool> {
        if let Some(e) = part.error {
            return Err(e);
        }
        if id_size == 8 {
            self.mat_compressed |= part.mat_compressed
                || part.first_array.is_some_and(|a| detect_ref_size_mat(last_array.iter().copied().chain([a])));
            *last_array = part.last_array.or(*last_array);
        }
        if !part.objects.list.is_empty() {
            self.objects.push(part.objects);
        }
        self.class_dumps.extend(part.class_dumps);
        self.roots.extend(part.roots);
        self.root_threads.extend(part.root_threads);
        self.unreachable.extend(part.unreachable);
        for (off, heap_type, name_id) in part.heap_infos {
            let i = match self.heaps.iter().position(|h| h.heap_type == heap_type) {
                Some(i) => i,
                None => {
                    self.heaps.push(HeapName { heap_type, name: String::new() });
                    self.heap_name_ids.push(name_id);
                    self.heaps.len() - 1
                }
            };
            self.heap_runs.enter(off, i as u32);
        }
        let (c, pc) = (&mut self.counts, part.counts);
        c.classes += pc.classes;
        c.instances += pc.instances;
        c.object_arrays += pc.object_arrays;
        c.primitive_arrays += pc.primitive_arrays;
        c.root_records += pc.root_records;
        for (k, v) in pc.root_records_by_kind {
            *c.root_records_by_kind.entry(k).or_default() += v;
        }
        self.warnings.extend(part.warning);
        Ok(part.stop)
    }
}

/// A HEAP DUMP record or segment of the dump being read: its body's bounds in the file (up to
/// the end of the file when it is cut short), and its declared length.
struct Body {
    tag: u8,
    start: usize,
    end: usize,
    declared_len: u32,
}

/// Objects of a group of heap dump bodies: id and file offset of each, in file order, and where
/// each body's begin in the list.
#[derive(Default)]
struct Objects {
    list: Vec<(u64, u64)>,
    bodies: Vec<usize>,
}

/// What a group of heap dump bodies holds, in file order.
#[derive(Default)]
struct Part {
    objects: Objects,
    class_dumps: Vec<usize>,
    roots: Vec<(u64, RootKind)>,
    /// Roots' thread serials: (object, serial, kind, the depth or stack trace serial after it).
    root_threads: Vec<ThreadRoot>,
    unreachable: Vec<u64>,
    /// HEAP DUMP INFO records: offset, heap type, name id.
    heap_infos: Vec<(u64, u32, u64)>,
    /// The sub-record counts.
    counts: Counts,
    /// The first and last object arrays (address, length), for MAT's compressed-oops test
    /// across groups (8-byte ids only), and that test's result within the group.
    first_array: Option<(u64, u32)>,
    last_array: Option<(u64, u32)>,
    mat_compressed: bool,
    /// The dump ends in this group (cut short): nothing after it is read.
    stop: bool,
    warning: Option<String>,
    error: Option<Error>,
}

impl Part {
    /// Walks the sub-records of `b`, keeping what they hold; a cut-short record ends the walk
    /// with a warning, anything else wrong with an error.
    fn walk(&mut self, whole: &Data, id_size: u32, b: &Body) {
        let data: &[u8] = whole;
        let mut c = Cursor::new(&data[..b.end], b.start, id_size);
        // The pages behind the walk are done with: the process keeps a window of 8 MB, not the
        // file (a madvise per 8 MB costs nothing next to reading them).
        let mut released = b.start;
        self.objects.bodies.push(self.objects.list.len());
        while c.pos() < b.end {
            if let Err(e) = self.sub_record(&mut c) {
                let e = e.in_record(b.tag);
                if b.end - b.start < b.declared_len as usize && matches!(e.kind, ErrorKind::Truncated { .. }) {
                    self.warning = Some(truncated(&e));
                    self.stop = true;
                } else {
                    self.error = Some(e);
                    self.stop = true;
                }
                return;
            }
            if c.pos() >= released + (8 << 20) {
                whole.release(released..c.pos());
                released = c.pos();
            }
        }
        if b.end - b.start < b.declared_len as usize {
            let e = Error::new(
                b.end as u64,
                ErrorKind::Truncated { needed: u64::from(b.declared_len), left: (b.end - b.start) as u64 },
            )
            .in_record(b.tag);
            self.warning = Some(truncated(&e));
            self.stop = true;
        }
    }

    #[inline]
    fn sub_record(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        let start = c.pos();
        let id_size = c.id_size() as usize;
        let tag = *c.data().get(start).unwrap_or(&0);
        let offset = start as u64;
        // Hot path: objects are framed by their lengths without building views.
        let fast: Option<Result<u64>> = match tag {
            sub::INSTANCE_DUMP => Some((|| {
                c.skip_to(start, sub::ID)?;
                let id = c.id()?;
                c.skip_to(start, instance::length(id_size))?;
                let n = c.u4()?;
                c.skip(n as usize)?;
                self.counts.instances += 1;
                Ok(id)
            })()),
            sub::OBJECT_ARRAY_DUMP => Some((|| {
                c.skip_to(start, sub::ID)?;
                let id = c.id()?;
                c.skip_to(start, object_array::length(id_size))?;
                let n = c.u4()?;
                c.skip_to(start, object_array::head_len(id_size))?;
                c.skip((n as usize).saturating_mul(id_size))?;
                self.counts.object_arrays += 1;
                if id_size == 8 {
                    if !self.mat_compressed {
                        self.mat_compressed = detect_ref_size_mat(self.last_array.iter().copied().chain([(id, n)]));
                    }
                    self.first_array.get_or_insert((id, n));
                    self.last_array = Some((id, n));
                }
                Ok(id)
            })()),
            _ => None,
        };
        if let Some(r) = fast {
            let id = r.map_err(|e| e.in_sub_record(tag))?;
            self.objects.list.push((id, offset));
            return Ok(());
        }
        match read_sub_record(c)? {
            SubRecord::Root { kind, id, thread, detail } => {
                self.counts.root_records += 1;
                *self.counts.root_records_by_kind.entry(kind).or_default() += 1;
                self.roots.push((id, kind));
                if let Some(serial) = thread {
                    self.root_threads.push((id, serial, kind, detail));
                }
            }
            SubRecord::Class(cd) => {
                self.counts.classes += 1;
                self.objects.list.push((cd.id, offset));
                self.class_dumps.push(start);
            }
            SubRecord::PrimitiveArray { id, .. } => {
                self.counts.primitive_arrays += 1;
                self.objects.list.push((id, offset));
            }
            SubRecord::HeapDumpInfo { heap_type, name_id } => self.heap_infos.push((offset, heap_type, name_id)),
            SubRecord::Unreachable { id } => self.unreachable.push(id),
            SubRecord::Instance { .. } | SubRecord::ObjectArray { .. } => {}
        }
        Ok(())
    }
}

/// Everything after the first pass: objects by id, the class table and size model, the second
/// pass over every object, then the roots.
fn build(data: Data, header: Header, mut p: Pass1, options: Options<'_>) -> Result<Index> {
    let progress = options.progress;
    let id_size = header.id_size;
    if let Some(cb) = progress {
        cb(Phase::Index, 0, 3);
    }
    let span = crate::trace::span("index: ids");
    let (mat_align, ids, offsets) = sort_objects(std::mem::take(&mut p.objects), &mut p.warnings)?;
    let string = |id: u64| -> Option<String> {
        let &(off, len) = p.strings.get(&id)?;
        data.get(off as usize..off as usize + len as usize).map(|b| String::from_utf8_lossy(b).into_owned())
    };
    p.counts.loaded_classes = p.load_class.len() as u64;
    let mut heaps = p.heaps;
    for (h, name_id) in heaps.iter_mut().zip(&p.heap_name_ids) {
        if h.name.is_empty() {
            h.name = string(*name_id).unwrap_or_else(|| heap_type::name(h.heap_type).to_string());
        }
    }

    drop(span);
    let span = crate::trace::span("index: classes");
    let table = class_table(&data, id_size, &p.class_dumps, &p.load_class, &string, &|id| ids.node(id).map(Node))?;
    if table.classes.len() as u64 > Column::<u16>::MAX + 1 {
        return Err(Error::new(0, ErrorKind::TooLarge(Limit::Classes(table.classes.len() as u64))));
    }
    let sizer = sizer_for(options.size_model, &header, &table.classes, p.mat_compressed, Some(mat_align));
    let inst_sizes = sizer.instance_sizes(&table.classes);
    let class_inst_size = inst_sizes[table.java_lang_class as usize];
    let class_declared = u64::from(table.classes[table.java_lang_class as usize].declared_instance_size);
    let class_obj_sizes: Vec<u64> =
        table.classes.iter().map(|c| sizer.class_object_size(c, class_inst_size, class_declared)).collect();
    if let Some(cb) = progress {
        cb(Phase::Index, 1, 3);
    }

    drop(span);
    let span = crate::trace::span("index: pass 2");
    let pass2 = Pass2 {
        data: &data,
        id_size,
        ids: &ids,
        offsets: &offsets,
        classes: &table.classes,
        class_by_id: &table.by_id,
        prim_class: &table.prim_class,
        object_array_class: table.object_array_class,
        java_lang_class: table.java_lang_class,
        unknown_class: table.unknown_class,
        inst_sizes: &inst_sizes,
        class_obj_sizes: &class_obj_sizes,
        sizer,
        skip_references: options.skip_references,
        strings: StringLayout::of(&table.classes).filter(|_| options.hash_strings && !options.skip_references),
    };
    let out = pass2.run();
    drop(span);
    let span = crate::trace::span("index: merge");
    let ObjectColumns { class_of, shallow, big_shallow, refs, edge_kinds, string_hashes } =
        out.merge(&mut p.warnings)?;
    if let Some(cb) = progress {
        cb(Phase::Index, 2, 3);
    }

    drop(span);
    let _span = crate::trace::span("index: roots");
    let roots = resolve_roots(p.roots, &ids, &mut p.warnings);
    let root_threads = resolve_root_threads(&p.root_threads, &ids);
    let stacks = Stacks::resolve(&p.root_threads, &p.stack_records, |id| ids.node(id));
    let marked_unreachable = p.unreachable.iter().filter_map(|&id| ids.node(id)).collect();
    let classes = table.classes;
    let class_by_node = classes.iter().enumerate().filter_map(|(i, c)| c.node.map(|n| (n.0, i as u32))).collect();
    if let Some(cb) = progress {
        cb(Phase::Index, 3, 3);
    }
    Ok(Index {
        data,
        header,
        strings: p.strings,
        classes,
        class_by_id: table.by_id,
        class_by_node,
        ids: Ids::whole(ids),
        offsets,
        heap_runs: p.heap_runs,
        class_of,
        shallow: shallow.into(),
        big_shallow,
        refs,
        roots,
        root_threads,
        stacks,
        marked_unreachable,
        heaps,
        sizer,
        counts: p.counts,
        warnings: p.warnings,
        heap_graph: None,
        java_lang_class: table.java_lang_class,
        by_name: Default::default(),
        edge_kinds: edge_kinds.into(),
        string_hashes: std::sync::Mutex::new(string_hashes.map(HashedStrings::PerString)),
    })
}

/// Objects by id; the position is the node number. Pass 1's lists are made of runs of ascending
/// ids (a dump lists each stretch of memory in address order; HotSpot's parallel dumper writes
/// the stretches in any order, 700 runs in the 1 GB benchmark dump): ordered by their first
/// ids, runs that do not overlap are the sorted list, read where they lie. Otherwise
/// (overlapping runs, repeated ids) the objects are sorted into one list. The sorted list is
/// then read in pieces, four per core (see [`number_objects`]). Gives MAT's
/// alignment too, read off the sorted ids before they are packed.
fn sort_objects(mut objects: Vec<Objects>, warnings: &mut Vec<String>) -> Result<(u64, IdMap, Column<u32>)> {
    let order = match InOrder::of(&objects) {
        Some(order) => order,
        None => {
            let mut all: Vec<(u64, u64)> = Vec::with_capacity(objects.iter().map(|o| o.list.len()).sum());
            for o in std::mem::take(&mut objects) {
                all.extend_from_slice(&o.list);
            }
            // By id, then file offset: of objects sharing an id, the first in the file is kept.
            all.par_sort_unstable();
            let before = all.len();
            all.dedup_by_key(|o| o.0);
            if all.len() != before {
                warnings.push(format!(
                    "{} objects share an id with another; the first of each is kept",
                    before - all.len()
                ));
            }
            let order = InOrder::whole(all.len());
            objects.push(Objects { list: all, bodies: vec![0] });
            order
        }
    };
    let pieces = order.pieces(&objects, 4 * rayon::current_num_threads());
    let (ids, offsets, mat_align) = number_objects(&pieces);
    let offsets = offsets.ok_or_else(|| Error::new(0, ErrorKind::TooLarge(Limit::FileSize)))?;
    Ok((mat_align, ids, offsets))
}

/// The id map, the file offsets by node and MAT's alignment, from the objects in sorted
/// `pieces`, each piece on some core: one pass for what the values depend on (the lowest id,
/// the bits every id shares, whether offsets need more than 32 bits, the steps between ids),
/// one to write them. `None` for the offsets when one needs more than 40 bits.
fn number_objects(pieces: &[Piece<'_>]) -> (IdMap, Option<Column<u32>>, u64) {
    let len = pieces.last().map_or(0, |p| p.start + p.len);
    let Some(min) = pieces.iter().find_map(|p| p.ends()).map(|(first, _)| first) else {
        return (IdMap::new(Vec::new()), Column::collect(std::iter::empty()), sizes::mat_alignment(0));
    };
    /// What a piece's ids and offsets share, or how they step.
    #[derive(Clone, Copy)]
    struct Seen {
        /// The bits set in any id's distance from the lowest.
        common: u64,
        /// The bits set in any offset.
        offsets: u64,
        /// The steps' greatest common divisor (see [`sizes::gcd_of_steps`]).
        steps: u64,
    }
    let seen: Vec<Seen> = pieces
        .par_iter()
        .map(|p| {
            let (mut common, mut offsets) = (0u64, 0u64);
            let mut steps = sizes::Steps::default();
            p.for_each(|_, id, off| {
                common |= id - min;
                offsets |= off;
                steps.add(id);
            });
            Seen { common, offsets, steps: steps.gcd() }
        })
        .collect();
    let common = seen.iter().fold(0, |a, s| a | s.common);
    let wide = seen.iter().fold(0, |a, s| a | s.offsets);
    // With the steps across pieces: from each piece's last id to the next one's first.
    let mut steps = sizes::Steps::default();
    for p in pieces {
        if let Some((first, last)) = p.ends() {
            steps.add(first);
            steps.add(last);
        }
    }
    let steps = seen.iter().map(|s| s.steps).fold(steps.gcd(), sizes::gcd);
    let pack = if common == 0 { 0 } else { common.trailing_zeros() };
    if wide > Column::<u32>::MAX {
        return (IdMap::new(Vec::new()), None, sizes::mat_alignment(steps));
    }
    let wide = wide > u64::from(u32::MAX);
    // Zeroed, so the pages are first touched by the core that writes them.
    let mut lo = vec![0u32; len];
    let mut offsets_lo = vec![0u32; len];
    let mut offsets_hi = if wide { vec![0u8; len] } else { Vec::new() };
    let lengths = || pieces.iter().map(|p| p.len);
    let (lo_parts, offsets_parts) =
        (crate::cut::by_lengths(&mut lo, lengths()), crate::cut::by_lengths(&mut offsets_lo, lengths()));
    let high_parts = crate::cut::by_lengths(&mut offsets_hi, lengths().map(|len| if wide { len } else { 0 }));
    // Each piece's runs of ids that share their high 32 bits, as (high bits, first position).
    let piece_runs: Vec<Vec<(u32, u32)>> = pieces
        .par_iter()
        .zip(lo_parts)
        .zip(offsets_parts)
        .zip(high_parts)
        .map(|(((p, lo), offsets), high)| {
            let mut runs: Vec<(u32, u32)> = Vec::new();
            p.for_each(|i, id, off| {
                let v = (id - min) >> pack;
                if runs.last().is_none_or(|r| r.0 != (v >> 32) as u32) {
                    runs.push(((v >> 32) as u32, (p.start + i) as u32));
                }
                lo[i] = v as u32;
                offsets[i] = off as u32;
                if let Some(h) = high.get_mut(i) {
                    *h = (off >> 32) as u8;
                }
            });
            runs
        })
        .collect();
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for r in piece_runs.into_iter().flatten() {
        if runs.last().is_none_or(|last| last.0 != r.0) {
            runs.push(r);
        }
    }
    let ids = IdMap::from_packed(lo.into(), runs, min, pack);
    (ids, Column::from_parts(offsets_lo.into(), offsets_hi.into()), sizes::mat_alignment(steps))
}

/// GC roots as nodes; root records naming objects absent from the dump are counted in a warning.
/// Each root that belongs to a thread (a local, a frame...), with that thread's object: the
/// thread object root with the same serial. The first record of an object wins.
fn resolve_root_threads(records: &[ThreadRoot], ids: &IdMap) -> FxHashMap<u32, u32> {
    let is_thread = |kind: RootKind| kind == RootKind::ThreadObject;
    let threads: FxHashMap<u32, u32> = records
        .iter()
        .filter(|r| is_thread(r.2))
        .filter_map(|&(id, serial, ..)| Some((serial, ids.node(id)?)))
        .collect();
    let mut out = FxHashMap::default();
    for &(id, serial, kind, _) in records {
        if is_thread(kind) {
            continue;
        }
        if let (Some(n), Some(&t)) = (ids.node(id), threads.get(&serial)) {
            out.entry(n).or_insert(t);
        }
    }
    out
}

fn resolve_roots(records: Vec<(u64, RootKind)>, ids: &IdMap, warnings: &mut Vec<String>) -> Vec<(Node, RootKind)> {
    let mut roots = Vec::with_capacity(records.len());
    let mut missing_roots = 0u64;
    for (id, kind) in records {
        match ids.node(id) {
            Some(n) => roots.push((Node(n), kind)),
            None => missing_roots += 1,
        }
    }
    if missing_roots > 0 {
        warnings.push(format!("{missing_roots} GC root records name objects that are not in the dump"));
    }
    roots
}

/// Pass 1's objects in id order, without moving them: ascending runs of its lists
/// (`(list, start, end)`) in the order of their first ids, and the objects of the runs that
/// overlap others sorted apart, merged in as read.
///
/// A dump lists each stretch of memory in address order, and HotSpot's parallel dumper writes
/// the stretches in any order, a segment each: a run ends where the ids go down or a segment
/// begins (the 1 GB benchmark dump has 1,200 segments, 800 descents). HotSpot writes its class
/// objects first, in no order: their short runs overlap the others and move apart.
struct InOrder {
    runs: Vec<(usize, usize, usize)>,
    extra: Vec<(u64, u64)>,
}

impl InOrder {
    /// The order of `lists`' objects; `None` when an id repeats, or when so many objects are
    /// out of runs that a sort does better.
    fn of(lists: &[Objects]) -> Option<InOrder> {
        let total: usize = lists.iter().map(|o| o.list.len()).sum();
        // Each list's runs on some core, all of them counted as they are found: more runs than
        // 1 in 64 objects, and a sort does better.
        let bound = 64 + total / 64;
        let found = std::sync::atomic::AtomicUsize::new(0);
        let runs: Option<Vec<Vec<(usize, usize, usize)>>> = lists
            .par_iter()
            .enumerate()
            .map(|(k, o)| {
                let list = &o.list;
                let mut runs = Vec::new();
                let mut bodies = o.bodies.iter().copied().peekable();
                let mut start = 0;
                for i in 1..=list.len() {
                    while bodies.next_if(|&b| b < i).is_some() {}
                    if i == list.len() || list[i].0 <= list[i - 1].0 || bodies.peek() == Some(&i) {
                        runs.push((k, start, i));
                        start = i;
                        if found.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= bound {
                            return None;
                        }
                    }
                }
                Some(runs)
            })
            .collect();
        let mut runs: Vec<(usize, usize, usize)> = runs?.concat();
        let first = |&(k, a, _): &(usize, usize, usize)| lists[k].list[a].0;
        let last = |&(k, _, b): &(usize, usize, usize)| lists[k].list[b - 1].0;
        let len = |&(_, a, b): &(usize, usize, usize)| b - a;
        runs.sort_unstable_by_key(first);
        // Where two runs overlap, the shorter moves apart.
        let mut kept: Vec<(usize, usize, usize)> = Vec::with_capacity(runs.len());
        let mut apart: Vec<(usize, usize, usize)> = Vec::new();
        let mut moved = 0;
        for r in runs {
            let mut keep = true;
            while let Some(prev) = kept.last() {
                if last(prev) < first(&r) {
                    break;
                }
                if len(&r) <= len(prev) {
                    keep = false;
                    break;
                }
                moved += len(prev);
                apart.extend(kept.pop());
            }
            if keep {
                kept.push(r);
            } else {
                moved += len(&r);
                apart.push(r);
            }
            if moved > total / 8 {
                return None;
            }
        }
        let mut extra: Vec<(u64, u64)> = Vec::with_capacity(moved);
        for &(k, a, b) in &apart {
            extra.extend_from_slice(&lists[k].list[a..b]);
        }
        extra.par_sort_unstable();
        if extra.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        // An object apart may not repeat one in the runs.
        let in_runs = |id: u64| {
            let r = kept.partition_point(|r| first(r) <= id);
            r > 0 && {
                let (k, a, b) = kept[r - 1];
                lists[k].list[a..b].binary_search_by_key(&id, |o| o.0).is_ok()
            }
        };
        if extra.iter().any(|o| in_runs(o.0)) {
            return None;
        }
        Some(InOrder { runs: kept, extra })
    }

    /// A list holding every object once, sorted: the order of its one run.
    fn whole(len: usize) -> InOrder {
        InOrder { runs: vec![(0, 0, len)], extra: Vec::new() }
    }

    /// The objects of `lists` in this order, cut into about `count` pieces of as many objects
    /// each (the last may be shorter), each read on its own. The runs are ascending and apart,
    /// so a piece is its stretch of runs (cut anywhere: each part of a run is ascending too) and
    /// the objects moved apart whose ids fall in its range.
    fn pieces<'a>(&'a self, lists: &'a [Objects], count: usize) -> Vec<Piece<'a>> {
        let total: usize = self.runs.iter().map(|&(_, a, b)| b - a).sum();
        let size = total.div_ceil(count.max(1)).max(1);
        let mut cut: Vec<Vec<&'a [(u64, u64)]>> = vec![Vec::new()];
        let mut room = size;
        for &(k, a, b) in &self.runs {
            let mut run = &lists[k].list[a..b];
            while !run.is_empty() {
                if room == 0 {
                    cut.push(Vec::new());
                    room = size;
                }
                let (here, rest) = run.split_at(run.len().min(room));
                room -= here.len();
                cut.last_mut().expect("one piece at least").push(here);
                run = rest;
            }
        }
        // A piece's objects moved apart: from the first id of its runs (the first piece: any
        // below too) to the next piece's first.
        let first_extra = |runs: &[&[(u64, u64)]]| match runs.first().and_then(|r| r.first()) {
            Some(o) => self.extra.partition_point(|e| e.0 < o.0),
            None => self.extra.len(),
        };
        let bounds: Vec<usize> = (0..cut.len()).map(|i| if i == 0 { 0 } else { first_extra(&cut[i]) }).collect();
        let mut start = 0;
        cut.into_iter()
            .enumerate()
            .map(|(i, runs)| {
                let extra = &self.extra[bounds[i]..bounds.get(i + 1).copied().unwrap_or(self.extra.len())];
                let len = runs.iter().map(|r| r.len()).sum::<usize>() + extra.len();
                let piece = Piece { runs, extra, start, len };
                start += len;
                piece
            })
            .collect()
    }
}

/// A stretch of the sorted objects (see [`InOrder::pieces`]): runs, the objects moved apart
/// that fall among them, the position its first object takes and its length.
struct Piece<'a> {
    runs: Vec<&'a [(u64, u64)]>,
    extra: &'a [(u64, u64)],
    start: usize,
    len: usize,
}

impl Piece<'_> {
    /// Its lowest and highest ids.
    fn ends(&self) -> Option<(u64, u64)> {
        let first = self.runs.first().and_then(|r| r.first()).into_iter().chain(self.extra.first());
        let last = self.runs.last().and_then(|r| r.last()).into_iter().chain(self.extra.last());
        Some((first.map(|o| o.0).min()?, last.map(|o| o.0).max()?))
    }

    /// `f(position in the piece, id, offset)` for each of its objects, in id order: the runs
    /// read as plain slices, cut only where an object moved apart falls among them.
    #[inline]
    fn for_each(&self, mut f: impl FnMut(usize, u64, u64)) {
        let mut i = 0;
        let mut each = |objects: &[(u64, u64)]| {
            for &(id, off) in objects {
                f(i, id, off);
                i += 1;
            }
        };
        let mut extra = self.extra;
        for run in &self.runs {
            let mut run: &[(u64, u64)] = run;
            while let Some((x, rest)) = extra.split_first() {
                let below = run.partition_point(|o| o.0 < x.0);
                if below == run.len() {
                    break;
                }
                each(&run[..below]);
                each(std::slice::from_ref(x));
                (run, extra) = (&run[below..], rest);
            }
            each(run);
        }
        each(extra);
    }
}

/// The size model for a dump: chosen by dialect unless named, its parameters detected as the
/// model's peer detects them (`sorted_ids` for MAT's alignment; 8 without them).
pub(crate) fn sizer_for(
    model: Option<SizeModel>,
    header: &Header,
    classes: &[Class],
    mat_compressed: bool,
    mat_align: Option<u64>,
) -> Sizer {
    let id_size = header.id_size;
    let model = model.unwrap_or(if header.format.is_android() { SizeModel::Android } else { SizeModel::Hotspot });
    match model {
        SizeModel::Android => Sizer { model, id_size, ref_size: id_size, align: 8 },
        SizeModel::Hotspot => {
            let ref_size = if id_size == 4 { 4 } else { detect_ref_size_visualvm(classes).unwrap_or(8) };
            Sizer { model, id_size, ref_size, align: 8 }
        }
        SizeModel::Mat => {
            let ref_size = if id_size == 8 && mat_compressed { 4 } else { id_size };
            Sizer { model, id_size, ref_size, align: mat_align.unwrap_or(8) }
        }
    }
}

/// The class table and the classes every dump needs whether or not it describes them.
pub(crate) struct ClassTable {
    pub classes: Vec<Class>,
    pub by_id: FxHashMap<u64, u32>,
    pub prim_class: Vec<u32>,
    pub object_array_class: u32,
    pub java_lang_class: u32,
    pub unknown_class: u32,
}

/// Builds the class table from the CLASS DUMP records at `class_dumps`, with names from LOAD CLASS
/// and STRING records, layouts resolved through superclasses, and made-up entries for primitive
/// arrays, `Object[]`, `java.lang.Class` and objects of unknown classes where the dump has none.
pub(crate) fn class_table(
    data: &[u8],
    id_size: u32,
    class_dumps: &[usize],
    load_class: &FxHashMap<u64, u64>,
    string: &dyn Fn(u64) -> Option<String>,
    node_of: &dyn Fn(u64) -> Option<Node>,
) -> Result<ClassTable> {
    let mut classes: Vec<Class> = Vec::with_capacity(class_dumps.len() + 16);
    let mut dumps: Vec<ClassDump<'_>> = Vec::with_capacity(class_dumps.len());
    let mut offsets: Vec<usize> = Vec::with_capacity(class_dumps.len());
    for &off in class_dumps {
        let mut c = Cursor::new(data, off, id_size);
        if let Ok(SubRecord::Class(cd)) = read_sub_record(&mut c) {
            dumps.push(cd);
            offsets.push(off);
        }
    }
    let mut class_by_id: FxHashMap<u64, u32> = FxHashMap::default();
    for cd in &dumps {
        let name = load_class
            .get(&cd.id)
            .and_then(|&sid| string(sid))
            .map(|s| java_name(&s))
            .unwrap_or_else(|| format!("unknown class 0x{:x}", cd.id));
        class_by_id.insert(cd.id, classes.len() as u32);
        classes.push(Class {
            id: cd.id,
            node: node_of(cd.id),
            kind: class_kind(&name),
            name,
            super_class: None,
            loader: cd.loader_id,
            declared_instance_size: cd.instance_size,
            fields: cd
                .fields
                .iter()
                .map(|f| Field {
                    name: string(f.name_id).unwrap_or_default(),
                    ty: f.ty,
                    offset: 0,
                    declared_by: ClassId(0),
                })
                .collect(),
            own_fields: cd.fields.len(),
            statics: cd
                .statics
                .iter()
                .map(|s| Static {
                    name: string(s.name_id).unwrap_or_default(),
                    ty: s.ty,
                    raw: s.value.iter().fold(0u64, |a, &b| (a << 8) | u64::from(b)),
                })
                .collect(),
            data_size: 0,
            ref_offsets: Vec::new(),
            referent: None,
        });
    }
    for (i, cd) in dumps.iter().enumerate() {
        classes[i].super_class = class_by_id.get(&cd.super_id).copied().filter(|&s| s as usize != i).map(ClassId);
    }
    drop(dumps);
    resolve_layouts(&mut classes, id_size, &offsets)?;

    let synth = |classes: &mut Vec<Class>, name: &str, kind: ClassKind| -> u32 {
        if let Some(i) = classes.iter().position(|c| c.name == name && c.kind == kind) {
            return i as u32;
        }
        classes.push(Class {
            id: 0,
            node: None,
            name: name.to_string(),
            super_class: None,
            loader: 0,
            declared_instance_size: 0,
            kind,
            fields: Vec::new(),
            own_fields: 0,
            statics: Vec::new(),
            data_size: 0,
            ref_offsets: Vec::new(),
            referent: None,
        });
        (classes.len() - 1) as u32
    };
    let prim_class: Vec<u32> = BasicType::PRIMITIVES
        .iter()
        .map(|&t| synth(&mut classes, &format!("{}[]", t.java_name()), ClassKind::PrimitiveArray(t)))
        .collect();
    let object_array_class = synth(&mut classes, "java.lang.Object[]", ClassKind::ObjectArray);
    let java_lang_class = synth(&mut classes, "java.lang.Class", ClassKind::Instance);
    let unknown_class = synth(&mut classes, "unknown class", ClassKind::Instance);

    Ok(ClassTable { classes, by_id: class_by_id, prim_class, object_array_class, java_lang_class, unknown_class })
}

fn class_kind(name: &str) -> ClassKind {
    let Some(base) = name.strip_suffix("[]") else { return ClassKind::Instance };
    BasicType::PRIMITIVES
        .iter()
        .find(|t| t.java_name() == base)
        .map_or(ClassKind::ObjectArray, |&t| ClassKind::PrimitiveArray(t))
}

/// The most inherited fields the layouts may resolve to, for classes that declare `declared`:
/// real dumps resolve to 5-15 times what they declare (an app's classes average a few
/// superclasses), and a few million are room for any class library. Each resolved field costs
/// about 50 bytes.
pub fn layout_budget(declared: u64) -> u64 {
    declared.saturating_mul(64).max(4 << 20)
}

/// Places every field: an instance's data holds its class's own fields first, then its
/// superclass's, and so on up to `java.lang.Object`. Fails when the layouts would resolve to
/// more fields than [`layout_budget`] allows (`offsets`: where each class's CLASS DUMP is).
fn resolve_layouts(classes: &mut [Class], id_size: u32, offsets: &[usize]) -> Result<()> {
    let n = classes.len();
    let declared: u64 = classes.iter().map(|c| c.own_fields as u64).sum();
    let budget = layout_budget(declared);
    let mut resolved = 0u64;
    // Chain of each class, guarded against cycles in a corrupt dump.
    for i in 0..n {
        let mut chain = vec![i];
        let mut cur = classes[i].super_class;
        while let Some(s) = cur {
            if chain.len() > 512 || chain.contains(&s.index()) {
                break;
            }
            chain.push(s.index());
            cur = classes[s.index()].super_class;
        }
        // A corrupt dump could chain classes of 65535 fields each; no real layout comes near this.
        const MAX_FIELDS: usize = 1 << 16;
        let count = chain.iter().map(|&k| classes[k].own_fields).sum::<usize>().min(MAX_FIELDS);
        resolved += count as u64;
        if resolved > budget {
            let at = offsets.get(i).copied().unwrap_or(0) as u64;
            return Err(Error::new(at, ErrorKind::TooLarge(Limit::Layouts { declared, limit: budget }))
                .in_sub_record(crate::spec::sub::CLASS_DUMP));
        }
        let mut fields = Vec::with_capacity(count);
        let mut offset = 0u32;
        for &k in &chain {
            let room = MAX_FIELDS.saturating_sub(fields.len());
            for f in classes[k].fields.iter().take(classes[k].own_fields.min(room)) {
                fields.push(Field { name: f.name.clone(), ty: f.ty, offset, declared_by: ClassId(k as u32) });
                offset = offset.saturating_add(f.ty.size(id_size));
            }
        }
        let names: Vec<&str> = chain.iter().map(|&k| classes[k].name.as_str()).collect();
        let referent = if names.contains(&"java.lang.ref.Reference") {
            let strength = names
                .iter()
                .find_map(|n| match *n {
                    "java.lang.ref.SoftReference" => Some(Strength::Soft),
                    "java.lang.ref.WeakReference" => Some(Strength::Weak),
                    "java.lang.ref.PhantomReference" => Some(Strength::Phantom),
                    "java.lang.ref.FinalReference" | "java.lang.ref.FinalizerReference" | "java.lang.ref.Finalizer" => {
                        Some(Strength::Finalizer)
                    }
                    _ => None,
                })
                .unwrap_or(Strength::Weak);
            fields
                .iter()
                .find(|f| f.name == "referent" && classes[f.declared_by.index()].name == "java.lang.ref.Reference")
                .map(|f| (f.offset, strength))
        } else {
            None
        };
        let c = &mut classes[i];
        c.ref_offsets = fields.iter().filter(|f| f.ty == BasicType::Object).map(|f| f.offset).collect();
        c.data_size = offset;
        c.fields = fields;
        c.referent = referent;
    }
    Ok(())
}

struct Pass2<'a> {
    data: &'a Data,
    id_size: u32,
    ids: &'a IdMap,
    offsets: &'a Column<u32>,
    classes: &'a [Class],
    class_by_id: &'a FxHashMap<u64, u32>,
    prim_class: &'a [u32],
    object_array_class: u32,
    java_lang_class: u32,
    unknown_class: u32,
    inst_sizes: &'a [u64],
    class_obj_sizes: &'a [u64],
    sizer: Sizer,
    skip_references: bool,
    /// Whose characters to hash, when asked.
    strings: Option<StringLayout>,
}

struct ChunkOut {
    big: Vec<(u32, u64)>,
    /// Nodes whose class number needs more than 16 bits, with its high byte.
    class_high: Vec<(u32, u8)>,
    targets: Vec<u32>,
    dangling: u64,
    /// How many Strings' hashes the chunk wrote at the start of its stretch of the pass's list.
    strings: usize,
}

/// The class table's answer for a class id, remembered for the ids looked up last: a slot for
/// the ids whose hash falls there. An object's class is most often one seen a few objects
/// before (a list's nodes, their values and the values' arrays, in turn), and a look in the
/// table's hash map took a tenth of the second pass on a dump of lists.
struct ClassMemo {
    slots: [(u64, Option<u32>); ClassMemo::SLOTS],
}

impl ClassMemo {
    const SLOTS: usize = 64;

    /// Every slot starts as the answer for one id (any will do), looked up.
    fn new(by_id: &FxHashMap<u64, u32>) -> ClassMemo {
        ClassMemo { slots: [(0, by_id.get(&0).copied()); ClassMemo::SLOTS] }
    }

    /// `by_id`'s index of class `id`, if it holds one.
    #[inline]
    fn get(&mut self, id: u64, by_id: &FxHashMap<u64, u32>) -> Option<u32> {
        let slot = &mut self.slots[(id.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58) as usize];
        if slot.0 != id {
            *slot = (id, by_id.get(&id).copied());
        }
        slot.1
    }
}

/// A chunk's stretch of the second pass's list of Strings' hashes, written from its start.
struct Slots<'s> {
    slots: &'s mut [u64],
    filled: usize,
}

impl Slots<'_> {
    fn push(&mut self, hash: u64) {
        // A stretch has a slot per node of the chunk: one String a node at most.
        if let Some(slot) = self.slots.get_mut(self.filled) {
            *slot = hash;
            self.filled += 1;
        }
    }
}

/// What the second pass gives before its chunks are joined.
struct Pass2Out {
    strings: Option<StringLayout>,
    /// A slot per node (see [`Pass2::run`]).
    string_hashes: Vec<u64>,
    class_lo: Vec<u16>,
    shallow: Vec<u16>,
    /// The running end of each node's edges, relative to its chunk (`starts[0]` is 0).
    starts: Vec<u32>,
    chunks: Vec<ChunkOut>,
}

/// The per-object columns the second pass fills (see the fields of [`Index`]).
struct ObjectColumns {
    class_of: Column<u16>,
    shallow: Vec<u16>,
    big_shallow: FxHashMap<u32, u64>,
    refs: Csr,
    edge_kinds: csr::EdgeKinds,
    string_hashes: Option<StringHashes>,
}

/// Nodes per chunk of the second pass.
const CHUNK: usize = 1 << 15;

/// The stretch of the dump a chunk of records in node order (the second pass, the id map made
/// again) has read and not yet given back.
///
/// A chunk of small objects spans a few megabytes of the dump, one of objects of kilobytes
/// (arrays of bytes, as bitmaps and buffers are) hundreds: those stayed mapped until the
/// chunk's end (the many-classes dump's peak, 193 MB of its 198). So the pages go back every
/// [`RECORDS_SPAN`] bytes of the stream of records the chunk reads. Nodes are in the order of
/// ids, which is the file's within each stretch of memory the dump lists; but objects written
/// apart lie among them (HotSpot writes the class objects first). A stretch given back from
/// the lowest offset read to the highest, as each chunk's end did, takes with it the pages of
/// the records other chunks are reading: given back so every 8 MB, the many-classes dump's
/// pass faulted 2.7 times as often. So a record out of the stream is read where it is and left
/// to the chunk's end, unless [`STRAYS`] come in a row: the stream has moved on. At the end the
/// strays' pages are given back only when they were most of the records (a dump whose node
/// order is not the file's: the stretch from the lowest to the highest, as before); otherwise
/// they wait for the pass's end, or the caller's `release_pages`.
pub(crate) struct Behind {
    lo: u64,
    hi: u64,
    /// Strays in a row.
    strays: u32,
    /// Records noted, strays among them, and where the strays lay.
    noted: u32,
    strayed: u32,
    stray_lo: u64,
    stray_hi: u64,
}

/// Bytes of the stream a chunk reads past before it gives their pages back.
const RECORDS_SPAN: u64 = 8 << 20;

/// Records in a row out of the stream that start a new one.
const STRAYS: u32 = 16;

impl Behind {
    pub(crate) fn new(at: u64) -> Behind {
        Behind { lo: at, hi: at, strays: 0, noted: 0, strayed: 0, stray_lo: u64::MAX, stray_hi: 0 }
    }

    /// Notes the record at offset `at`, about to be read; the stretch to give back, if any.
    #[inline]
    pub(crate) fn note(&mut self, at: u64) -> Option<std::ops::Range<usize>> {
        self.noted = self.noted.saturating_add(1);
        if at >= self.lo && at <= self.hi + RECORDS_SPAN {
            self.hi = self.hi.max(at);
            self.strays = 0;
            if self.hi - self.lo < RECORDS_SPAN {
                return None;
            }
            // Not the last record's pages: it is about to be read (to the 64 KiB below it, as
            // `Data::release` rounds its start down to that).
            let behind = self.lo as usize..(self.hi & !0xffff) as usize;
            self.lo = self.hi;
            return Some(behind);
        }
        self.strays += 1;
        self.strayed = self.strayed.saturating_add(1);
        (self.stray_lo, self.stray_hi) = (self.stray_lo.min(at), self.stray_hi.max(at));
        if self.strays < STRAYS {
            return None;
        }
        // The stream moves to `at`: the old one is given back, unless `at` lies among its pages.
        let behind = self.read();
        let near = (self.lo & !0xffff)..self.hi.saturating_add(0x1000);
        (self.lo, self.hi, self.strays) = (at, at, 0);
        (!near.contains(&at)).then_some(behind)
    }

    /// The stream read so far and not given back, through the page where its last record
    /// starts.
    pub(crate) fn read(&self) -> std::ops::Range<usize> {
        self.lo as usize..self.hi as usize
    }

    /// What a chunk gives back at its end: the stream, and the strays' stretch when they were
    /// most of the records.
    pub(crate) fn finish(&self) -> impl Iterator<Item = std::ops::Range<usize>> {
        let strays = (self.strayed > self.noted / 2).then_some(self.stray_lo as usize..self.stray_hi as usize);
        std::iter::once(self.read()).chain(strays)
    }
}

/// Bytes of a large object array's slots the second pass reads before it gives their pages back.
const RECORD_STRETCH: usize = 4 << 20;

impl Pass2Out {
    /// Joins the chunks: row starts made absolute, edges in one list, large sizes and class
    /// numbers into their maps. Counts the dangling references in a warning.
    fn merge(self, warnings: &mut Vec<String>) -> Result<ObjectColumns> {
        let Pass2Out { strings, mut string_hashes, class_lo, shallow, mut starts, mut chunks } = self;
        let total_edges: usize = chunks.iter().map(|c| c.targets.len()).sum();
        if total_edges >= u32::MAX as usize {
            return Err(Error::new(0, ErrorKind::TooLarge(Limit::References(total_edges as u64))));
        }
        let mut big_shallow = FxHashMap::default();
        let mut class_of = Column { lo: class_lo.into(), hi: Default::default() };
        let mut dangling = 0u64;
        let mut hashed = 0;
        for (k, ch) in chunks.iter_mut().enumerate() {
            // Each chunk's hashes moved down behind the ones before (none when not asked for).
            if ch.strings > 0 {
                string_hashes.copy_within(k * CHUNK..k * CHUNK + ch.strings, hashed);
                hashed += ch.strings;
            }
            big_shallow.extend(std::mem::take(&mut ch.big));
            class_of.set_high(ch.class_high.iter().map(|&(n, b)| (n as usize, b)));
            dangling += ch.dangling;
        }
        if dangling > 0 {
            warnings.push(format!("{dangling} references name objects that are not in the dump; they are ignored"));
        }
        // The slots past the hashes given back (the list is mapped memory of its own: shrunk,
        // its end is unmapped).
        string_hashes.truncate(hashed);
        string_hashes.shrink_to_fit();
        // Each chunk's edges into its place in one list, and its row ends moved by as much, on
        // every core. Zeroed, the list's pages are first touched by the core that copies.
        let mut targets = vec![0u32; total_edges];
        // Where each chunk's edges start in it: the count of the chunks' before.
        let bases: Vec<u32> = chunks
            .iter()
            .scan(0u32, |before, ch| Some(std::mem::replace(before, *before + ch.targets.len() as u32)))
            .collect();
        let places = crate::cut::by_lengths(&mut targets, chunks.iter().map(|ch| ch.targets.len()));
        // And each object's two bits of `csr::EdgeKinds` from its edges as they pass: a read of
        // every edge of its own for them took 0.04–0.11 s of both cores before the dominator
        // tree. A chunk's bits are whole words of their own.
        const _: () = assert!(CHUNK.is_multiple_of(64));
        let n = starts.len() - 1;
        let mut strong_leaves = vec![0u64; n.div_ceil(64)];
        let mut weak_holders = vec![0u64; n.div_ceil(64)];
        let bits = strong_leaves.par_chunks_mut(CHUNK / 64).zip(weak_holders.par_chunks_mut(CHUNK / 64));
        let jobs = chunks.into_par_iter().zip(bases).zip(places).zip(bits);
        starts[1..].par_chunks_mut(CHUNK).zip(jobs).for_each(|(ends, (((ch, base), place), (leaves, weak)))| {
            let mut first = 0;
            for (i, e) in ends.iter_mut().enumerate() {
                let (mut has_strong, mut has_weak) = (false, false);
                for &t in &ch.targets[first..*e as usize] {
                    has_strong |= t & WEAK == 0;
                    has_weak |= t & WEAK != 0;
                }
                leaves[i / 64] |= u64::from(!has_strong) << (i % 64);
                weak[i / 64] |= u64::from(has_weak) << (i % 64);
                first = *e as usize;
                *e += base;
            }
            place.copy_from_slice(&ch.targets);
        });
        let kinds = csr::EdgeKinds { strong_leaves, weak_holders };
        let starts = csr::Starts::new(&starts);
        Ok(ObjectColumns {
            class_of,
            shallow,
            big_shallow,
            refs: Csr { starts, targets: targets.into() },
            edge_kinds: kinds,
            string_hashes: strings.map(|l| StringHashes { class: ClassId(l.class), hashes: string_hashes }),
        })
    }
}

impl Pass2<'_> {
    /// Class, size and references of every object, in parallel chunks. Class and size go
    /// straight into their final arrays; each chunk's edges into a vector of its own, and
    /// `starts` first holds each chunk's own running ends.
    ///
    /// Strings' hashes, when asked for, go into a list with a slot per node, each chunk's at the
    /// start of its stretch: a list that large is mapped memory of its own, and only the pages
    /// written become resident (below glibc's mmap threshold, up to 32 MB, the list may come
    /// from its arenas and be resident whole). Lists of each chunk's own, kept to the report,
    /// held glibc's arenas open behind them (45 MB more at the dominator tree's peak on a dump
    /// of small maps, with 2,316 Strings); joined into one, their freed memory stayed there.
    fn run(&self) -> Pass2Out {
        let n = self.ids.len();
        let mut class_lo = vec![0u16; n];
        let mut shallow = vec![0u16; n];
        let mut starts = vec![0u32; n + 1];
        let mut string_hashes = vec![0u64; if self.strings.is_some() { n } else { 0 }];
        let hash_slots: Vec<&mut [u64]> = match self.strings {
            Some(_) => string_hashes.chunks_mut(CHUNK).collect(),
            None => (0..n.div_ceil(CHUNK)).map(|_| <&mut [u64]>::default()).collect(),
        };
        let chunks: Vec<ChunkOut> = class_lo
            .par_chunks_mut(CHUNK)
            .zip(shallow.par_chunks_mut(CHUNK))
            .zip(starts[1..].par_chunks_mut(CHUNK))
            .zip(hash_slots)
            .enumerate()
            .map(|(k, (((class_of, shallow), ends), hashes))| self.chunk(k * CHUNK, class_of, shallow, ends, hashes))
            .collect();
        Pass2Out { strings: self.strings, string_hashes, class_lo, shallow, starts, chunks }
    }

    /// Nodes `from..from + class_of.len()`: class and size into the slices, the running end of
    /// each node's edges (relative to the chunk) into `ends`, the Strings' hashes into `hashes`.
    fn chunk(
        &self,
        from: usize,
        class_of: &mut [u16],
        shallow: &mut [u16],
        ends: &mut [u32],
        hashes: &mut [u64],
    ) -> ChunkOut {
        let len = class_of.len();
        let mut out = ChunkOut {
            big: Vec::new(),
            class_high: Vec::new(),
            targets: Vec::with_capacity(len * 2),
            dangling: 0,
            strings: 0,
        };
        let mut classes = ClassMemo::new(self.class_by_id);
        let mut hashes = Slots { slots: hashes, filled: 0 };
        let mut behind = Behind::new(self.offsets.get(from));
        for i in 0..len {
            let n = from + i;
            if let Some(read) = behind.note(self.offsets.get(n)) {
                self.data.release(read);
            }
            let (class, size) = self.object(n, &mut out, &mut hashes, &mut classes);
            class_of[i] = class as u16;
            if class >> 16 != 0 {
                out.class_high.push((n as u32, (class >> 16) as u8));
            }
            if size >= u64::from(BIG_SHALLOW) {
                shallow[i] = BIG_SHALLOW;
                out.big.push((n as u32, size));
            } else {
                shallow[i] = size as u16;
            }
            ends[i] = out.targets.len() as u32;
        }
        out.strings = hashes.filled;
        // Done with the chunk's records: give their pages back (those of records read out of
        // the stream only when they were most of the chunk's; else at the end of the pass).
        behind.finish().for_each(|read| self.data.release(read));
        out
    }

    #[inline]
    fn push_ref(&self, raw: u64, weak: bool, out: &mut ChunkOut) {
        if raw == 0 || self.skip_references {
            return;
        }
        match self.ids.node(raw) {
            Some(t) => out.targets.push(if weak { t | WEAK } else { t }),
            None => out.dangling += 1,
        }
    }

    /// The hash of the characters of a String whose array is `array` ([`StringHashes`]). The
    /// array most often lies next to the String in the dump, in pages this pass has just read
    /// or is about to.
    fn string_hash(&self, array: Option<u32>) -> u64 {
        let Some(t) = array else { return StringHashes::NONE };
        let mut c = Cursor::new(self.data, self.offsets.get(t as usize) as usize, self.id_size);
        match read_sub_record(&mut c) {
            Ok(SubRecord::PrimitiveArray { elem, data: Some(chars), .. }) => StringHashes::of(chars, elem),
            _ => StringHashes::NONE,
        }
    }

    fn object(&self, n: usize, out: &mut ChunkOut, hashes: &mut Slots<'_>, classes: &mut ClassMemo) -> (u32, u64) {
        let off = self.offsets.get(n) as usize;
        let mut c = Cursor::new(self.data, off, self.id_size);
        let id = self.id_size as usize;
        match read_sub_record(&mut c) {
            Ok(SubRecord::Instance { class_id, data, .. }) => {
                let ci = classes.get(class_id, self.class_by_id).unwrap_or(self.unknown_class);
                let cls = &self.classes[ci as usize];
                let referent = cls.referent.map(|r| r.0);
                let edges = out.targets.len();
                for &o in &cls.ref_offsets {
                    if let Some(b) = data.get(o as usize..o as usize + id) {
                        self.push_ref(read_id(b, self.id_size), Some(o) == referent, out);
                    }
                }
                if self.strings.is_some_and(|l| l.class == ci) {
                    // `value` is a String's first reference: its first edge, when it has a value
                    // (with none, the first edge leads to no primitive array: no hash).
                    hashes.push(self.string_hash(out.targets.get(edges).map(|&t| t & !WEAK)));
                }
                (ci, self.inst_sizes[ci as usize])
            }
            Ok(SubRecord::ObjectArray { class_id, elements, length, .. }) => {
                let ci = classes.get(class_id, self.class_by_id).unwrap_or(self.object_array_class);
                // A large array's pages are given back a stretch at a time as its slots are
                // read, not with the rest of the chunk's records: two arrays of 176 MB, one on
                // each core, were the arrays dump's peak (a stretch is a whole number of ids).
                let large = elements.len() >= 2 * RECORD_STRETCH;
                for stretch in elements.chunks(RECORD_STRETCH) {
                    for b in stretch.chunks_exact(id) {
                        self.push_ref(read_id(b, self.id_size), false, out);
                    }
                    if large {
                        self.data.release_part(stretch);
                    }
                }
                (ci, self.sizer.array_size(BasicType::Object, length))
            }
            Ok(SubRecord::PrimitiveArray { elem, length, .. }) => {
                let k = BasicType::PRIMITIVES.iter().position(|&t| t == elem).unwrap_or(0);
                (self.prim_class[k], self.sizer.array_size(elem, length))
            }
            Ok(SubRecord::Class(cd)) => {
                for s in &cd.statics {
                    if s.ty == BasicType::Object {
                        self.push_ref(read_id(s.value, self.id_size), false, out);
                    }
                }
                // A class keeps its defining loader and its superclass alive, as in the JVM.
                self.push_ref(cd.loader_id, false, out);
                self.push_ref(cd.super_id, false, out);
                let size = self.class_by_id.get(&cd.id).map_or(0, |&ci| self.class_obj_sizes[ci as usize]);
                (self.java_lang_class, size)
            }
            _ => (self.unknown_class, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Column, IdMap, InOrder, Objects};
    use crate::index::sizes::detect_alignment_mat;
    use proptest::prelude::*;

    /// Feeds `offsets` to a [`super::Behind`] as the second pass does, checking that nothing is
    /// given back at or ahead of the record about to be read; returns what was, and the rest.
    fn given_back(offsets: &[u64]) -> (Vec<std::ops::Range<usize>>, std::ops::Range<usize>) {
        let mut behind = super::Behind::new(offsets[0]);
        let (mut back, mut read) = (Vec::new(), 0);
        for &at in offsets {
            read = read.max(at as usize);
            if let Some(r) = behind.note(at) {
                // `Data::release` gives back whole pages, from 64 KiB below the start.
                let (page, pages) = (at as usize & !0xfff, (r.start & !0xffff)..(r.end + 0xfff) & !0xfff);
                assert!(!pages.contains(&page), "{r:?} given back, {at} about to be read");
                assert!(r.end <= read, "{r:?} given back, {read} read at most");
                back.push(r);
            }
        }
        (back, behind.read())
    }

    /// Objects of kilobytes (a byte array each, as in the many-classes dump), their class
    /// objects' records (written first by HotSpot) among them in id order: the stream is given
    /// back a span at a time, all of it but the last span, and none of the class objects' pages.
    #[test]
    fn a_chunk_gives_its_stream_back_as_it_goes_but_not_the_records_apart() {
        const MB: u64 = 1 << 20;
        let mut offsets = Vec::new();
        for k in 0..30_000u64 {
            offsets.push(92 * MB + 40_000 * k);
            if k % 3 == 2 {
                offsets.push(8 * MB + 700 * k);
            }
        }
        let (back, rest) = given_back(&offsets);
        let last = 92 * MB + 40_000 * 29_999;
        assert!(back.len() as u64 >= (last - 92 * MB) / (super::RECORDS_SPAN + 64 * 1024), "{} given back", back.len());
        let mut covered = (92 * MB as usize) & !0xffff;
        for r in &back {
            assert!(
                r.start >= 92 * MB as usize && r.start & !0xffff <= covered,
                "{r:?} after {covered}: a gap, or a stray's pages"
            );
            covered = covered.max(r.end);
        }
        assert_eq!(rest.end as u64, last);
        assert!(last - covered as u64 <= super::RECORDS_SPAN + 0x10000, "{} bytes kept", last - covered as u64);
    }

    /// A stream that moves on to another stretch of the dump is followed once `STRAYS` records
    /// in a row lie there: the old one given back to its last record, the new one as it goes.
    #[test]
    fn a_chunk_follows_its_stream_to_another_stretch() {
        const MB: u64 = 1 << 20;
        let old: Vec<u64> = (0..1_000u64).map(|k| 200 * MB + 20_000 * k).collect();
        let new: Vec<u64> = (0..2_000u64).map(|k| 20_000 * k).collect();
        let (back, rest) = given_back(&[old.clone(), new.clone()].concat());
        let old_end = *old.last().unwrap() as usize;
        assert!(back.iter().any(|r| r.end == old_end), "the old stream kept: {back:?}");
        // The first strays are left to the pass's end; the new stream starts at the last.
        let later: Vec<_> = back.iter().filter(|r| r.end < 200 * MB as usize).collect();
        assert_eq!(later.first().map(|r| r.start as u64), Some(new[super::STRAYS as usize - 1]));
        for w in later.windows(2) {
            assert!(w[1].start & !0xffff <= w[0].end && w[1].start >= w[0].start, "a gap: {w:?}");
        }
        let covered = later.last().unwrap().end as u64;
        assert!(*new.last().unwrap() - covered <= super::RECORDS_SPAN + 0x10000);
        assert_eq!(rest.end as u64, *new.last().unwrap());
    }

    /// A stream that moves on to just below where it started (in the same 64 KiB) is not given
    /// back: `Data::release` would round down to the page about to be read.
    #[test]
    fn a_stream_that_moves_just_below_itself_keeps_its_pages() {
        let start = (10 << 20) + 40_000;
        let offsets: Vec<u64> = [start, start + 500].into_iter().chain((1..=16).map(|k| start - 100 * k)).collect();
        let (back, rest) = given_back(&offsets);
        assert!(back.is_empty(), "{back:?}");
        assert_eq!(rest.start as u64, start - 1600);
    }

    /// Records in no order of the file (each below the one before): nearly all are strays, and
    /// the chunk's end gives back everything it read, the strays' stretch with the stream.
    #[test]
    fn a_chunk_out_of_the_files_order_gives_back_all_it_read_at_its_end() {
        const MB: u64 = 1 << 20;
        let offsets: Vec<u64> = (0..400u64).map(|k| 500 * MB - MB * k).collect();
        let mut behind = super::Behind::new(offsets[0]);
        for &at in &offsets {
            let _ = behind.note(at);
        }
        let ends: Vec<_> = behind.finish().collect();
        assert_eq!(ends.len(), 2, "{ends:?}");
        assert_eq!(ends[1], (101 * MB) as usize..(499 * MB) as usize);
        // In the file's order, with a few records apart, those are left to the pass's end.
        let mut behind = super::Behind::new(100 * MB);
        for at in (0..400).map(|k| 100 * MB + 20_000 * k).chain([8 * MB]) {
            let _ = behind.note(at);
        }
        let ends: Vec<_> = behind.finish().collect();
        assert_eq!(ends.len(), 1, "{ends:?}");
        assert!(ends[0].start as u64 >= 100 * MB);
    }

    proptest! {
        /// Whatever the order of the records (streams that go up and back, near each other and
        /// far), nothing is given back at or ahead of the record about to be read, nor past the
        /// furthest read ([`given_back`] checks both at every step).
        #[test]
        fn nothing_is_given_back_ahead_of_the_reader(
            steps in proptest::collection::vec((0usize..3, -(1i64 << 20)..4 << 20), 1..400),
        ) {
            let (mut offsets, mut at) = (Vec::new(), [0u64, 3 << 20, 40 << 20]);
            for (stream, step) in steps {
                at[stream] = at[stream].saturating_add_signed(step);
                offsets.push(at[stream]);
            }
            given_back(&offsets);
        }
    }

    /// The class memo answers as the class table does, for ids that share a slot, ids the
    /// table lacks (a damaged dump's instance may name any), 0 and the highest id.
    #[test]
    fn a_remembered_class_is_the_class_tables() {
        let by_id: rustc_hash::FxHashMap<u64, u32> =
            (0..300u64).map(|k| (0x7000_0000 + k * 0x68, k as u32)).chain([(0, 301), (u64::MAX, 302)]).collect();
        let mut memo = super::ClassMemo::new(&by_id);
        let mut asked: Vec<u64> = by_id.keys().copied().collect();
        asked.extend((0..400u64).map(|k| 0x7000_0000 + k * 0x34));
        asked.extend([1, 0x68, u64::MAX - 1]);
        for round in 0..3 {
            for &id in asked.iter().skip(round * 7) {
                assert_eq!(memo.get(id, &by_id), by_id.get(&id).copied(), "id {id:#x}");
            }
        }
        let empty = rustc_hash::FxHashMap::default();
        assert_eq!(super::ClassMemo::new(&empty).get(0, &empty), None);
    }

    /// A lookup that starts from the run the last one found gives what a search of every
    /// run's start gives, in any order of offsets: ascending (as objects are read in node
    /// order), descending, and jumping back and forth across runs.
    #[test]
    fn a_heap_found_from_the_last_run_is_the_heap_searched_for() {
        let runs = super::HeapRuns { starts: vec![100, 200, 350, 351, 1000], heaps: vec![2, 1, 2, 0, 1] };
        let mut offsets: Vec<u64> = (0..1200).step_by(7).collect();
        offsets.extend((0..1200).rev().step_by(13));
        offsets.extend([5, 1100, 99, 100, 101, 350, 351, 352, 999, 1000, 0, 2000]);
        // The heap of the last run starting at or before the offset; 0 before the first.
        let searched = |off: u64| match runs.starts.iter().rposition(|&s| s <= off) {
            Some(k) => runs.heaps[k] as usize,
            None => 0,
        };
        let mut run = 0;
        for off in offsets {
            assert_eq!(runs.heap_at_from(off, &mut run), searched(off), "offset {off}");
            assert_eq!(runs.heap_at(off), searched(off), "offset {off}");
        }
        let none = super::HeapRuns::default();
        assert_eq!(none.heap_at_from(42, &mut 0), 0);
    }

    /// The two bits per object noted while the second pass's edges were merged are those of a
    /// read of every edge afterwards, on real dumps with weak referents (the JDK's and ART's
    /// `Reference`s): ahat's test dump (every kind of `Reference`), and two of more than one
    /// chunk each (a chunk's bits are whole words of their own).
    #[test]
    fn edge_kinds_noted_in_the_merge_are_those_of_the_graph() {
        let dir = crate::testing::fixtures();
        let names = [
            ("android/ahat-art__test-dump.hprof", 1),
            ("android/adt-tools-base__dialer.android-hprof", 2),
            ("jvm/eclipse-mat__openjdk_jdk11_04_x64.hprof.gz", 6),
        ];
        for (name, chunks) in names {
            let index = super::Index::open(&dir.join(name), super::Options::default()).expect(name);
            assert_eq!(index.len().div_ceil(super::CHUNK), chunks, "{name}: {} objects", index.len());
            let noted = index.edge_kinds.get().expect("noted by the merge");
            let read = index.graph().kinds();
            assert!(noted.weak_holders.iter().any(|&w| w != 0), "{name}: no weak referent");
            assert_eq!(noted.strong_leaves, read.strong_leaves, "{name}");
            assert_eq!(noted.weak_holders, read.weak_holders, "{name}");
        }
    }

    /// Once the id map is let go, ids read from the records are the map's: every node's id,
    /// every id's node, no node for an id between two objects' or beyond either end, and the
    /// map made again from the records is the map let go. On dumps with 4-byte ids (ART's, a
    /// 32-bit HotSpot's) and 8-byte ones, each of many stretches of sampled nodes.
    #[test]
    fn ids_read_from_the_records_are_the_maps() {
        let dir = crate::testing::fixtures();
        for name in [
            "android/ahat-art__test-dump.hprof",
            "jvm/eclipse-mat__sun_jdk5_13_x32.hprof",
            "jvm/eclipse-mat__openjdk_jdk11_04_x64.hprof.gz",
        ] {
            let mut index = super::Index::open(&dir.join(name), super::Options::default()).expect(name);
            let map = index.ids.map().expect("whole while built");
            let ids: Vec<u64> = map.ids().collect();
            let (min, pack, lo, runs) = map.parts();
            let parts = (min, pack, lo.to_vec(), runs.to_vec());
            let absent: Vec<u64> = ids
                .windows(2)
                .filter(|w| w[1] - w[0] > 1)
                .map(|w| w[0] + 1)
                .chain([0, ids[0] - 1, ids[ids.len() - 1] + 1, u64::MAX])
                .collect();
            assert!(ids.len() > 2 * super::ids::SAMPLE, "{name}: {} objects", ids.len());
            index.thin_ids();
            assert!(index.ids.map().is_none(), "{name}: the map let go");
            for (n, &id) in ids.iter().enumerate() {
                assert_eq!(index.id(super::Node(n as u32)), id, "{name}: node {n}");
                assert_eq!(index.node(id), Some(super::Node(n as u32)), "{name}: id {id:#x}");
            }
            for &id in &absent {
                assert_eq!(index.node(id), None, "{name}: id {id:#x}");
            }
            let (min, pack, lo, runs) = index.id_map().parts();
            assert_eq!((min, pack, lo.to_vec(), runs.to_vec()), parts, "{name}: the map made again");
        }
    }

    /// The objects of `lists` in the order `InOrder` reads them.
    fn read(lists: &[Objects], order: &InOrder) -> Vec<(u64, u64)> {
        let mut got = Vec::new();
        for p in order.pieces(lists, 1) {
            p.for_each(|_, id, off| got.push((id, off)));
        }
        assert_eq!(got.len(), lists.iter().map(|o| o.list.len()).sum::<usize>());
        got
    }

    /// A dump as HotSpot's parallel dumper writes one: class objects first in no order, then
    /// stretches of memory each in address order, the stretches shuffled, cut into segments
    /// and the segments into groups.
    fn dump(stretches: Vec<Vec<u64>>, classes: Vec<u64>, segment: usize, group: usize) -> Vec<Objects> {
        let mut offset = 0u64;
        let mut next = |id: u64| {
            offset += 1;
            (id, offset)
        };
        let mut segments: Vec<Vec<(u64, u64)>> = vec![classes.into_iter().map(&mut next).collect()];
        for s in stretches {
            for chunk in s.chunks(segment.max(1)) {
                segments.push(chunk.iter().map(|&id| next(id)).collect());
            }
        }
        segments
            .chunks(group.max(1))
            .map(|g| {
                let mut o = Objects::default();
                for s in g {
                    o.bodies.push(o.list.len());
                    o.list.extend_from_slice(s);
                }
                o
            })
            .collect()
    }

    proptest! {
        #[test]
        fn runs_read_in_order_are_the_sorted_objects(
            ids in proptest::collection::btree_set(1u64..1 << 40, 1..3000),
            cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..40),
            classes in proptest::collection::vec(any::<prop::sample::Index>(), 0..40),
            shuffle in any::<u64>(),
            segment in 1usize..200,
            group in 1usize..8,
        ) {
            let ids: Vec<u64> = ids.into_iter().collect();
            // Class objects are taken out of the stretches and written first, in no order.
            let mut class_ids: Vec<u64> = classes.iter().map(|i| ids[i.index(ids.len())]).collect();
            class_ids.sort_unstable();
            class_ids.dedup();
            class_ids.sort_by_key(|&id| id.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let rest: Vec<u64> = ids.iter().copied().filter(|id| !class_ids.contains(id)).collect();
            let mut at: Vec<usize> = cuts.iter().map(|i| i.index(rest.len() + 1)).collect();
            at.extend([0, rest.len()]);
            at.sort_unstable();
            at.dedup();
            let mut stretches: Vec<Vec<u64>> = at.windows(2).map(|w| rest[w[0]..w[1]].to_vec()).collect();
            let mut x = shuffle | 1;
            for i in (1..stretches.len()).rev() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                stretches.swap(i, (x % (i as u64 + 1)) as usize);
            }
            let lists = dump(stretches, class_ids, segment, group);
            let mut want: Vec<(u64, u64)> = lists.iter().flat_map(|o| o.list.iter().copied()).collect();
            want.sort_unstable();
            // Either the order reads the objects sorted, or the caller sorts them.
            if let Some(order) = InOrder::of(&lists) {
                prop_assert_eq!(read(&lists, &order), want.clone());
                // Cut into pieces, they read the same, each where it says it starts.
                for count in [1, 2, 3, 8, 64] {
                    let pieces = order.pieces(&lists, count);
                    prop_assert!(pieces.len() <= count);
                    let mut got = Vec::new();
                    for p in &pieces {
                        prop_assert_eq!(p.start, got.len());
                        p.for_each(|i, id, off| got.push((i, id, off)));
                        prop_assert!(got[p.start..].iter().enumerate().all(|(k, o)| o.0 == k));
                        prop_assert_eq!(got.len(), p.start + p.len);
                    }
                    let got: Vec<(u64, u64)> = got.into_iter().map(|(_, id, off)| (id, off)).collect();
                    prop_assert_eq!(&got, &want);
                }
            }
        }

        /// The ids, offsets and alignment made piece by piece are those made from the whole
        /// sorted list by the plain definitions, for ids of any alignment and offsets past 4 GB.
        #[test]
        fn numbered_in_pieces_as_in_one_list(
            ids in proptest::collection::btree_set(0u64..1 << 44, 1..2000),
            shift in 0u32..6,
            base in 0u64..1 << 20,
            far in any::<bool>(),
            count in 1usize..20,
        ) {
            let want: Vec<(u64, u64)> =
                ids.iter().enumerate().map(|(i, &id)| ((id << shift) + base, i as u64 * 977 + if far { 1 << 33 } else { 0 })).collect();
            let lists = vec![Objects { list: want.clone(), bodies: vec![0] }];
            let order = InOrder::whole(want.len());
            let (map, offsets, align) = super::number_objects(&order.pieces(&lists, count));
            let plain = IdMap::from_sorted(want.iter().map(|o| o.0));
            prop_assert_eq!(map.parts(), plain.parts());
            let column = Column::<u32>::collect(want.iter().map(|o| o.1)).unwrap();
            let offsets = offsets.unwrap();
            prop_assert_eq!(offsets.len(), column.len());
            prop_assert!((0..want.len()).all(|i| offsets.get(i) == column.get(i)));
            prop_assert_eq!(align, detect_alignment_mat(want.iter().map(|o| o.0)));
        }
    }

    #[test]
    fn stretches_out_of_order_and_classes_first_need_no_sort() {
        // Three stretches written 2, 0, 1, segments of 100 objects, class objects first.
        let stretch = |k: u64| (0..1000).map(|i| (k << 20) + 16 * i + 8).collect::<Vec<u64>>();
        let classes = vec![(1 << 20) + 16 * 550 + 8, 16 * 3 + 8, (2 << 20) + 16 * 950 + 8];
        let mut stretches = vec![stretch(2), stretch(0), stretch(1)];
        for s in &mut stretches {
            s.retain(|id| !classes.contains(id));
        }
        let lists = dump(stretches, classes, 100, 3);
        let order = InOrder::of(&lists).expect("runs apart");
        assert_eq!(order.extra.len(), 3);
        let got = read(&lists, &order);
        assert_eq!(got.len(), 3000);
        assert!(got.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn a_repeated_id_or_a_shuffled_dump_is_left_to_the_sort() {
        // The same object twice, in two segments.
        let twice = dump(vec![vec![8, 16, 24], vec![16, 32]], vec![], 10, 1);
        assert!(InOrder::of(&twice).is_none());
        // Descending ids: a run per object, more than a sort costs.
        let down = dump(vec![(0..10_000u64).rev().map(|i| 8 * i + 8).collect()], vec![], 100_000, 1);
        assert!(InOrder::of(&down).is_none());
    }
}
