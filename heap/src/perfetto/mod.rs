//! Java heap graphs from Perfetto traces: what ART's `perfetto_hprof` (the `android.java_hprof`
//! data source, Android 11+) writes for a profileable app. A graph has types (with superclass,
//! class loader, location and reference field names), objects (type, size, heap, references by
//! field) and roots, but no array contents and no field values beyond the few the runtime picks
//! ([`Recorded`]: a native registry's size, a Bitmap's id and dimensions, an app's version).
//!
//! [`Trace::scan`] reads a trace (gzip too) a packet at a time and lists its graphs;
//! [`Trace::graph`] reads it again and keeps only the graph asked for ([`read`] keeps every one,
//! for small traces). Memory is what the kept graph needs: one packet is decoded at a time
//! (at most [`MAX_PACKET`] bytes), a trace lists at most [`MAX_GRAPHS`] graphs, and a gzip'd
//! trace decodes at most [`crate::expand::max_expansion`] times its size. Each graph is
//! assembled from its packets the way
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
mod read;
mod wire;

pub use read::{read, Trace};

/// Why a trace cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// A gzip trace that does not decompress.
    #[error("the gzip trace does not decompress: {0}")]
    Gzip(String),
    /// A packet that cannot be read, or one past a bound.
    #[error("at byte {offset} of the {stream} (packet {packet}): {what}")]
    Malformed {
        /// `trace`, or `decompressed trace` for a gzip'd one.
        stream: &'static str,
        /// Where the packet (or its key) starts.
        offset: u64,
        /// The packets read before it, plus one.
        packet: u64,
        /// What is wrong.
        what: String,
    },
    /// A graph asked for that the trace does not hold.
    #[error("the trace holds {held} Java heap graph{} (--dump 1 to {held})", if *held == 1 { "" } else { "s" })]
    NoGraph {
        /// How many it holds.
        held: usize,
    },
}

/// The most bytes one packet may hold. ART's `perfetto_hprof` writes a graph in packets of a
/// few hundred KB; Perfetto's trace processor takes any size, but a packet is decoded whole.
pub const MAX_PACKET: u64 = 64 << 20;

/// The most heap graphs a trace may list. A dump per process per trigger makes a handful; a
/// continuous dump config one every few seconds.
pub const MAX_GRAPHS: usize = 65_536;

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
pub(crate) fn normalize(name: &str) -> (&str, bool, usize) {
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
