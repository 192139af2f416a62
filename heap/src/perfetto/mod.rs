//! Java heap graphs from Perfetto traces: what ART's `perfetto_hprof` (the `android.java_hprof`
//! data source, Android 11+) writes for a profileable app. A graph has types (with superclass,
//! class loader, location and reference field names), objects (type, size, heap, references by
//! field) and roots, but no array contents and no field values beyond the few the runtime picks
//! ([`Recorded`]: a native registry's size, a Bitmap's id and dimensions, an app's version).
//!
//! [`read`] decodes a trace (gzip too) and assembles each graph from its packets the way
//! Perfetto's trace processor does (`src/trace_processor/importers/proto/heap_graph_tracker.cc`
//! and `deobfuscation_tracker.cc`, read at commit `ec5d16b14b`): a graph's packets share a
//! trusted sequence id and are numbered by `index` (a gap marks the graph truncated); object ids
//! may be deltas from the previous object's; the heap type is carried from object to object until
//! it changes; `reference_field_id_base` is added to every non-zero reference; a reference's field
//! is the object's own list when it has one, else its type's fields, most specific class first,
//! then each superclass's; a field name `"int Foo.bar"` is the name `Foo.bar` of type `int`.
//! Deobfuscation mappings anywhere in the trace rename types and fields as Perfetto does: a type
//! whose location names no package takes any mapping's name for it; one from `/data/app/PKG-…`
//! only its package's; a field `Cls.member` becomes `Deobf.member` (or the member's qualified
//! name when the mapping gives one).

pub mod encode;
pub mod hprof;
pub mod proto;

use std::collections::HashMap;

use prost::Message;

/// Why a trace cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// Not a protobuf trace.
    #[error("not a Perfetto trace: {0}")]
    Decode(String),
    /// A gzip trace that does not decompress.
    #[error("the gzip trace does not decompress: {0}")]
    Gzip(String),
}

/// A root's kind, as `HeapGraphRoot.Type` numbers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootType(pub i32);

impl RootType {
    /// Perfetto's name (`ROOT_JAVA_FRAME`...).
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 15] = [
            "ROOT_UNKNOWN",
            "ROOT_JNI_GLOBAL",
            "ROOT_JNI_LOCAL",
            "ROOT_JAVA_FRAME",
            "ROOT_NATIVE_STACK",
            "ROOT_STICKY_CLASS",
            "ROOT_THREAD_BLOCK",
            "ROOT_MONITOR_USED",
            "ROOT_THREAD_OBJECT",
            "ROOT_INTERNED_STRING",
            "ROOT_FINALIZING",
            "ROOT_DEBUGGER",
            "ROOT_REFERENCE_CLEANUP",
            "ROOT_VM_INTERNAL",
            "ROOT_JNI_MONITOR",
        ];
        usize::try_from(self.0).ok().and_then(|i| NAMES.get(i)).copied().unwrap_or("ROOT_UNKNOWN")
    }
}

/// The heap an object is in, as `HeapGraphObject.HeapType` numbers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HeapType(pub i32);

impl HeapType {
    /// Perfetto's name (`HEAP_TYPE_APP`...), `None` when the trace did not say.
    pub fn name(self) -> Option<&'static str> {
        match self.0 {
            1 => Some("HEAP_TYPE_APP"),
            2 => Some("HEAP_TYPE_ZYGOTE"),
            3 => Some("HEAP_TYPE_BOOT_IMAGE"),
            _ => None,
        }
    }
}

/// A reference field's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// `Foo.bar`.
    pub name: String,
    /// Its declared type, when the trace gives one (`int` in `"int Foo.bar"`).
    pub type_name: Option<String>,
    /// Its name before obfuscation, when a mapping gives one.
    pub deobfuscated: Option<String>,
}

/// A type (class).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Type {
    /// Its id in the trace (its own id space).
    pub id: u64,
    /// Its name as recorded.
    pub name: String,
    /// Its name before obfuscation, when a mapping gives one.
    pub deobfuscated: Option<String>,
    /// Where it was loaded from.
    pub location: Option<String>,
    /// Its superclass's type id.
    pub superclass: Option<u64>,
    /// Its class loader's object id.
    pub classloader: Option<u64>,
    /// Its instances' size.
    pub object_size: u64,
    /// `HeapGraphType.Kind` (1 normal, 3 String, 4 array, 5 class...).
    pub kind: i32,
    /// Its own reference fields (indexes into [`Graph::fields`]).
    pub fields: Vec<u32>,
}

/// A reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    /// Its field (an index into [`Graph::fields`]), when the trace names one.
    pub field: Option<u32>,
    /// The object referred to; 0 for null.
    pub target: u64,
}

/// An object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    /// Its id.
    pub id: u64,
    /// Its type's id.
    pub type_id: u64,
    /// Its size in bytes (its type's instance size when the trace gave none).
    pub self_size: u64,
    /// Its heap.
    pub heap: HeapType,
    /// Its references, in field order, then those the runtime holds for it (no field).
    pub refs: Vec<Reference>,
    /// The values the runtime recorded for it (most objects: none).
    pub values: Vec<(Recorded, i64)>,
}

/// A field value a heap graph records: the runtime writes these few for the objects they belong
/// to (`HeapGraphObject`'s "object value fields"), and no other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Recorded {
    /// `libcore.util.NativeAllocationRegistry.size` (the native bytes each registration
    /// stands for; its lowest bit says whether they were malloc'd).
    NativeRegistrySize,
    /// `android.graphics.Bitmap.mId`.
    BitmapId,
    /// `android.graphics.Bitmap.mSourceId`.
    BitmapSourceId,
    /// `android.graphics.Bitmap.mWidth`.
    BitmapWidth,
    /// `android.graphics.Bitmap.mHeight`.
    BitmapHeight,
    /// `android.content.pm.ApplicationInfo.longVersionCode`.
    VersionCode,
}

impl Recorded {
    /// Every value a graph can record.
    pub const ALL: [Recorded; 6] = [
        Recorded::NativeRegistrySize,
        Recorded::BitmapId,
        Recorded::BitmapSourceId,
        Recorded::BitmapWidth,
        Recorded::BitmapHeight,
        Recorded::VersionCode,
    ];

    /// The class declaring the field, the field's name, and its HPROF basic type (10 int,
    /// 11 long).
    pub fn field(self) -> (&'static str, &'static str, u8) {
        match self {
            Recorded::NativeRegistrySize => ("libcore.util.NativeAllocationRegistry", "size", 11),
            Recorded::BitmapId => ("android.graphics.Bitmap", "mId", 11),
            Recorded::BitmapSourceId => ("android.graphics.Bitmap", "mSourceId", 11),
            Recorded::BitmapWidth => ("android.graphics.Bitmap", "mWidth", 10),
            Recorded::BitmapHeight => ("android.graphics.Bitmap", "mHeight", 10),
            Recorded::VersionCode => ("android.content.pm.ApplicationInfo", "longVersionCode", 11),
        }
    }

    /// Every recorded field as `Class.field`, for messages.
    pub fn names() -> String {
        let all: Vec<String> = Recorded::ALL
            .iter()
            .map(|r| {
                let (class, field, _) = r.field();
                format!("{}.{field}", class.rsplit('.').next().unwrap_or(class))
            })
            .collect();
        all.join(", ")
    }
}

/// What identifies a graph among a trace's: its process and time, and its extent.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GraphInfo {
    /// The process.
    pub pid: i32,
    /// Its command line, when the trace has it.
    pub process: Option<String>,
    /// When the graph was taken (ns, the trace's clock).
    pub timestamp_ns: u64,
    /// Its objects.
    pub objects: usize,
    /// Its roots.
    pub roots: usize,
    /// Packets were lost.
    pub truncated: bool,
}

/// Where an index made from a trace came from: which of the trace's graphs (1-based, as
/// `--dump N` counts them), and every graph the trace holds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Origin {
    /// The graph indexed, counted from 1.
    pub number: usize,
    /// The trace's graphs in order.
    pub graphs: Vec<GraphInfo>,
}

/// One process's heap at one time.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    /// The process.
    pub pid: i32,
    /// Its command line, when the trace's process tree has it.
    pub process: Option<String>,
    /// When the graph was taken (the first packet's timestamp).
    pub timestamp: u64,
    /// Types, in the order the trace gives them.
    pub types: Vec<Type>,
    /// Objects, in the order the trace gives them.
    pub objects: Vec<Object>,
    /// Roots: object and kind, in the order the trace gives them.
    pub roots: Vec<(u64, RootType)>,
    /// Field names, deduplicated.
    pub fields: Vec<Field>,
    /// Packets were missing (an `index` skipped) or the last one never came.
    pub truncated: bool,
}

impl Graph {
    /// What identifies this graph among others.
    pub fn info(&self) -> GraphInfo {
        GraphInfo {
            pid: self.pid,
            process: self.process.clone(),
            timestamp_ns: self.timestamp,
            objects: self.objects.len(),
            roots: self.roots.len(),
            truncated: self.truncated,
        }
    }

    /// The type with id `id`.
    pub fn type_of(&self, id: u64) -> Option<&Type> {
        self.types.iter().find(|t| t.id == id)
    }

    /// The root kind Perfetto gives object `id`: of the root sets holding it, a sticky class
    /// first, then a JNI global, then a JNI local, else the first listed
    /// (`HeapGraphTracker::MarkRoot`).
    pub fn root_type_of(&self, id: u64) -> Option<RootType> {
        let rank = |t: RootType| match t.0 {
            5 => 0,
            1 => 1,
            2 => 2,
            _ => 3,
        };
        self.roots.iter().filter(|r| r.0 == id).map(|r| r.1).fold(None, |best, t| match best {
            Some(b) if rank(b) <= rank(t) => Some(b),
            _ => Some(t),
        })
    }
}

/// A graph being assembled from its packets.
#[derive(Default)]
struct Building {
    graph: Graph,
    next_index: u64,
    prev_id: u64,
    heap: HeapType,
    /// Interned field names: iid → `"int Foo.bar"`.
    field_names: HashMap<u64, String>,
    location_names: HashMap<u64, String>,
    type_fields: Vec<Vec<u64>>,
    type_locations: Vec<Option<u64>>,
    /// Per object: its own field iids (empty: its type's).
    object_fields: Vec<Vec<u64>>,
    /// Per object: whether its record gave no size (its type's is its size).
    sized_by_type: Vec<bool>,
}

/// Whether the file at `path` is a Perfetto trace rather than an HPROF dump: its name ends in
/// `.pftrace`, `.perfetto-trace` or `.perfetto` (gzip'd too), or its first byte is a trace's
/// first packet (field 1, length-delimited) where a dump has `J`.
pub fn is_trace(path: &std::path::Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    if [".pftrace", ".perfetto-trace", ".perfetto"].iter().any(|e| name.ends_with(e)) {
        return true;
    }
    let mut head = [0u8; 1];
    std::fs::File::open(path).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head)).is_ok() && head[0] == 0x0a
}

/// Reads every heap graph in a trace (`bytes`: the file; gzip is undone).
pub fn read(bytes: &[u8]) -> Result<Vec<Graph>, TraceError> {
    let owned;
    let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(bytes), &mut out)
            .map_err(|e| TraceError::Gzip(e.to_string()))?;
        owned = out;
        &owned[..]
    } else {
        bytes
    };
    let trace = proto::Trace::decode(bytes).map_err(|e| TraceError::Decode(e.to_string()))?;
    let mut processes: HashMap<i32, String> = HashMap::new();
    let mut mappings = Vec::new();
    let mut open: HashMap<(u32, i32), Building> = HashMap::new();
    let mut done: Vec<Building> = Vec::new();
    for packet in trace.packet {
        if let Some(tree) = packet.process_tree {
            for p in tree.processes {
                if let (Some(pid), Some(cmd)) = (p.pid, p.cmdline.first()) {
                    processes.insert(pid, cmd.clone());
                }
            }
        }
        if let Some(m) = packet.deobfuscation_mapping {
            mappings.push(m);
        }
        let Some(part) = packet.heap_graph else { continue };
        let pid = part.pid.unwrap_or(0);
        let key = (packet.trusted_packet_sequence_id.unwrap_or(0), pid);
        let b = open.entry(key).or_insert_with(|| Building {
            graph: Graph { pid, timestamp: packet.timestamp.unwrap_or(0), ..Graph::default() },
            ..Building::default()
        });
        let index = part.index.unwrap_or(b.next_index);
        if index != b.next_index {
            b.graph.truncated = true;
        }
        b.next_index = index + 1;
        let continued = part.continued.unwrap_or(false);
        add_part(b, part);
        if !continued {
            if let Some(b) = open.remove(&key) {
                done.push(b);
            }
        }
    }
    // Graphs whose last packet never came are kept, marked.
    for (_, mut b) in open {
        b.graph.truncated = true;
        done.push(b);
    }
    let mut graphs: Vec<Graph> = done.into_iter().map(finish).collect();
    graphs.sort_by_key(|g| (g.timestamp, g.pid));
    for g in &mut graphs {
        g.process = processes.get(&g.pid).cloned();
        for m in &mappings {
            deobfuscate(g, m);
        }
    }
    Ok(graphs)
}

fn add_part(b: &mut Building, part: proto::HeapGraph) {
    for s in part.field_names {
        if let (Some(iid), Some(text)) = (s.iid, s.str) {
            b.field_names.insert(iid, String::from_utf8_lossy(&text).into_owned());
        }
    }
    for s in part.location_names {
        if let (Some(iid), Some(text)) = (s.iid, s.str) {
            b.location_names.insert(iid, String::from_utf8_lossy(&text).into_owned());
        }
    }
    for t in part.types {
        b.graph.types.push(Type {
            id: t.id.unwrap_or(0),
            name: t.class_name.unwrap_or_default(),
            deobfuscated: None,
            location: None,
            superclass: t.superclass_id.filter(|&s| s != 0),
            classloader: t.classloader_id.filter(|&c| c != 0),
            object_size: t.object_size.unwrap_or(0),
            kind: t.kind.unwrap_or(0),
            fields: Vec::new(),
        });
        b.type_fields.push(t.reference_field_id);
        b.type_locations.push(t.location_id);
    }
    for o in part.objects {
        let id = match (o.id, o.id_delta) {
            (Some(id), _) => id,
            (None, Some(delta)) => b.prev_id.wrapping_add(delta),
            (None, None) => b.prev_id,
        };
        b.prev_id = id;
        if let Some(h) = o.heap_type_delta {
            b.heap = HeapType(h);
        }
        let base = o.reference_field_id_base.unwrap_or(0);
        b.graph.objects.push(Object {
            id,
            type_id: o.type_id.unwrap_or(0),
            self_size: o.self_size.unwrap_or(0),
            heap: b.heap,
            refs: o
                .reference_object_id
                .iter()
                .map(|&t| Reference { field: None, target: if t == 0 { 0 } else { t.wrapping_add(base) } })
                .chain(o.runtime_internal_object_id.iter().map(|&t| Reference { field: None, target: t }))
                .collect(),
            values: [
                (Recorded::NativeRegistrySize, o.native_allocation_registry_size_field),
                (Recorded::BitmapId, o.bitmap_id_field),
                (Recorded::BitmapSourceId, o.bitmap_source_id_field),
                (Recorded::BitmapWidth, o.bitmap_width_field.map(i64::from)),
                (Recorded::BitmapHeight, o.bitmap_height_field.map(i64::from)),
                (Recorded::VersionCode, o.application_info_long_version_code_field),
            ]
            .into_iter()
            .filter_map(|(r, v)| Some((r, v?)))
            .collect(),
        });
        b.object_fields.push(o.reference_field_id);
        b.sized_by_type.push(o.self_size.is_none());
    }
    for r in part.roots {
        let kind = RootType(r.root_type.unwrap_or(0));
        b.graph.roots.extend(r.object_ids.into_iter().map(|id| (id, kind)));
    }
}

/// Resolves the interned names: locations, field names, each reference's field.
fn finish(mut b: Building) -> Graph {
    let g = &mut b.graph;
    let mut index: HashMap<u64, u32> = HashMap::new();
    let mut field_of = |iid: u64, fields: &mut Vec<Field>| -> Option<u32> {
        if let Some(&i) = index.get(&iid) {
            return Some(i);
        }
        let text = b.field_names.get(&iid)?;
        let (type_name, name) = match text.split_once(' ') {
            Some((t, n)) => (Some(t.to_string()), n.to_string()),
            None => (None, text.clone()),
        };
        fields.push(Field { name, type_name, deobfuscated: None });
        let i = (fields.len() - 1) as u32;
        index.insert(iid, i);
        Some(i)
    };
    for (t, (iids, location)) in g.types.iter_mut().zip(b.type_fields.iter().zip(&b.type_locations)) {
        t.fields = iids.iter().filter_map(|&iid| field_of(iid, &mut g.fields)).collect();
        t.location = location.and_then(|l| b.location_names.get(&l).cloned());
    }
    let by_id: HashMap<u64, usize> = g.types.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
    // Each type's fields with its superclasses', most specific first (a cycle in a corrupt
    // trace stops at the first repeat).
    let chain_fields = |type_id: u64| -> Vec<u32> {
        let mut out = Vec::new();
        let mut seen = Vec::new();
        let mut cur = Some(type_id);
        while let Some(id) = cur {
            if seen.contains(&id) || seen.len() > 512 {
                break;
            }
            seen.push(id);
            let Some(&i) = by_id.get(&id) else { break };
            out.extend_from_slice(&g.types[i].fields);
            cur = g.types[i].superclass;
        }
        out
    };
    // The zygote's and the boot image's objects are never collected: roots of the VM's own
    // (Perfetto's `internal_vm_roots`), after the trace's root sets.
    let vm: Vec<u64> = g.objects.iter().filter(|o| matches!(o.heap.0, 2 | 3)).map(|o| o.id).collect();
    g.roots.extend(vm.into_iter().map(|id| (id, RootType(13))));
    // An object without a size of its own has its type's (Perfetto's deferred sizes).
    for (o, _) in g.objects.iter_mut().zip(&b.sized_by_type).filter(|(_, &by_type)| by_type) {
        if let Some(&i) = by_id.get(&o.type_id) {
            o.self_size = g.types[i].object_size;
        }
    }
    let mut layouts: HashMap<u64, Vec<u32>> = HashMap::new();
    for (o, own) in g.objects.iter_mut().zip(&b.object_fields) {
        let names: Vec<Option<u32>> = if own.is_empty() {
            let layout = layouts.entry(o.type_id).or_insert_with(|| chain_fields(o.type_id));
            layout.iter().map(|&f| Some(f)).collect()
        } else {
            own.iter().map(|&iid| field_of(iid, &mut g.fields)).collect()
        };
        for (r, name) in o.refs.iter_mut().zip(names) {
            r.field = name;
        }
    }
    b.graph
}

/// The package a type's location names (`/data/app/[~~x/]PKG-y/base.apk`), as Perfetto's
/// `PackageFromApp` reads it; `None` for other locations.
pub fn package_of(location: &str) -> Option<&str> {
    let rest = location.strip_prefix("/data/app/").or_else(|| {
        let at = location.find("dex extracted in memory from /data/app/")?;
        Some(&location[at + "dex extracted in memory from /data/app/".len()..])
    })?;
    let rest = if rest.starts_with('~') { rest.split_once('/')?.1 } else { rest };
    let dir = rest.split_once('/')?.0;
    Some(dir.split_once('-')?.0)
}

/// A type name without `java.lang.Class<…>` and array brackets, and how to put them back.
fn normalize(name: &str) -> (&str, bool, usize) {
    let (inner, class) = match name.strip_prefix("java.lang.Class<").and_then(|n| n.strip_suffix('>')) {
        Some(inner) => (inner, true),
        None => (name, false),
    };
    let mut base = inner;
    let mut arrays = 0;
    while let Some(b) = base.strip_suffix("[]") {
        base = b;
        arrays += 1;
    }
    (base, class, arrays)
}

fn deobfuscate(g: &mut Graph, m: &proto::DeobfuscationMapping) {
    let package = m.package_name.as_deref().filter(|p| !p.is_empty());
    for cls in &m.obfuscated_classes {
        let (Some(obf), Some(deobf)) = (cls.obfuscated_name.as_deref(), cls.deobfuscated_name.as_deref()) else {
            continue;
        };
        for t in &mut g.types {
            let (base, class, arrays) = normalize(&t.name);
            let from = t.location.as_deref().and_then(package_of);
            if base != obf || (from.is_some() && from != package) {
                continue;
            }
            let mut name = format!("{deobf}{}", "[]".repeat(arrays));
            if class {
                name = format!("java.lang.Class<{name}>");
            }
            t.deobfuscated = Some(name);
        }
        for member in &cls.obfuscated_members {
            let (Some(mobf), Some(mdeobf)) = (member.obfuscated_name.as_deref(), member.deobfuscated_name.as_deref())
            else {
                continue;
            };
            let merged = format!("{obf}.{mobf}");
            let full = if mdeobf.contains('.') { mdeobf.to_string() } else { format!("{deobf}.{mdeobf}") };
            for f in g.fields.iter_mut().filter(|f| f.name == merged) {
                f.deobfuscated = Some(full.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Perfetto's own cases (`heap_graph_tracker_unittest.cc`, `PackageFromLocation*`).
    #[test]
    fn packages_from_locations() {
        assert_eq!(
            package_of("/data/app/org.perfetto.test-6XfQhnaSkFwGK0sYL9is0G==/base.apk"),
            Some("org.perfetto.test")
        );
        assert_eq!(
            package_of("/data/app/~~ASDFGH1234QWerT==/com.perfetto.test-MNBVCX7890SDTst6==/test.apk"),
            Some("com.perfetto.test")
        );
        assert_eq!(
            package_of("/data/app/com.google.android.apps.wellbeing-qfQCaB4uJ7P0OPpZQqOu0Q==/oat/arm64/base.odex"),
            Some("com.google.android.apps.wellbeing")
        );
        assert_eq!(
            package_of(
                "[anon:dalvik-classes.dex extracted in memory from /data/app/~~uUgHYtbjPNr2VFa3byIF4Q==/com.perfetto.example-aC94wTfXRC60l2HJU5YvjQ==/base.apk]"
            ),
            Some("com.perfetto.example")
        );
        assert_eq!(package_of("base.apk!classes.dex"), None);
    }

    #[test]
    fn names_normalize() {
        assert_eq!(normalize("java.lang.Class<a[][]>"), ("a", true, 2));
        assert_eq!(normalize("a"), ("a", false, 0));
    }
}
