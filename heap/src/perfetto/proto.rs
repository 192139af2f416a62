//! The protobuf messages of a Perfetto trace that carry Java heap graphs, as `prost` reads them.
//!
//! Transcribed, with the same field numbers and only the fields heaptui reads, from the Android
//! Open Source Project's Perfetto (Apache License 2.0), commit
//! `ec5d16b14b743ba6063d720956d6d6af6610fd72` (2026-08-22):
//! `protos/third_party/android/art/heap_graph.proto` (HeapGraph and its parts, the extension
//! `TracePacket.heap_graph = 56`), `protos/perfetto/trace/trace_packet.proto` (the packet's
//! timestamp 8, trusted sequence id 10, process tree 2, deobfuscation mapping 64),
//! `protos/perfetto/trace/profiling/profile_common.proto` (InternedString),
//! `protos/perfetto/trace/profiling/deobfuscation.proto` and `protos/perfetto/trace/ps/
//! process_tree.proto`. Fields not listed here are skipped by the decoder, as protobuf wants.

/// A trace file: its packets.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Trace {
    /// The packets, in order.
    #[prost(message, repeated, tag = "1")]
    pub packet: Vec<TracePacket>,
}

/// One packet.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TracePacket {
    /// When (ns, in the trace's clock).
    #[prost(uint64, optional, tag = "8")]
    pub timestamp: Option<u64>,
    /// The writer's sequence: a heap graph's packets share one.
    #[prost(uint32, optional, tag = "10")]
    pub trusted_packet_sequence_id: Option<u32>,
    /// Processes and their command lines.
    #[prost(message, optional, tag = "2")]
    pub process_tree: Option<ProcessTree>,
    /// A part of a heap graph (the extension ART's perfetto_hprof writes).
    #[prost(message, optional, tag = "56")]
    pub heap_graph: Option<HeapGraph>,
    /// ProGuard/R8 names for a package.
    #[prost(message, optional, tag = "64")]
    pub deobfuscation_mapping: Option<DeobfuscationMapping>,
}

/// Processes.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ProcessTree {
    /// The processes.
    #[prost(message, repeated, tag = "1")]
    pub processes: Vec<Process>,
}

/// A process.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Process {
    /// Its pid.
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    /// Its command line.
    #[prost(string, repeated, tag = "3")]
    pub cmdline: Vec<String>,
    /// Its uid.
    #[prost(int32, optional, tag = "5")]
    pub uid: Option<i32>,
}

/// An interned string.
#[derive(Clone, PartialEq, prost::Message)]
pub struct InternedString {
    /// Its id.
    #[prost(uint64, optional, tag = "1")]
    pub iid: Option<u64>,
    /// Its bytes.
    #[prost(bytes = "vec", optional, tag = "2")]
    pub str: Option<Vec<u8>>,
}

/// A root set.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HeapGraphRoot {
    /// The objects.
    #[prost(uint64, repeated, packed = "true", tag = "1")]
    pub object_ids: Vec<u64>,
    /// Their kind (`HeapGraphRoot.Type`: 0 unknown, 1 JNI global... 14 JNI monitor).
    #[prost(int32, optional, tag = "2")]
    pub root_type: Option<i32>,
}

/// A type (class).
#[derive(Clone, PartialEq, prost::Message)]
pub struct HeapGraphType {
    /// Its id (in the type id space, not the object one).
    #[prost(uint64, optional, tag = "1")]
    pub id: Option<u64>,
    /// Where it was loaded from (an interned location name).
    #[prost(uint64, optional, tag = "2")]
    pub location_id: Option<u64>,
    /// Its name (`java.lang.String`, `int[]`, `java.lang.Class<Foo>`).
    #[prost(string, optional, tag = "3")]
    pub class_name: Option<String>,
    /// Its instances' size.
    #[prost(uint64, optional, tag = "4")]
    pub object_size: Option<u64>,
    /// Its superclass's type id.
    #[prost(uint64, optional, tag = "5")]
    pub superclass_id: Option<u64>,
    /// Its own reference fields (interned field names), most specific class first; its
    /// superclasses' follow theirs.
    #[prost(uint64, repeated, packed = "true", tag = "6")]
    pub reference_field_id: Vec<u64>,
    /// What its instances are (`HeapGraphType.Kind`).
    #[prost(int32, optional, tag = "7")]
    pub kind: Option<i32>,
    /// Its class loader (an object id).
    #[prost(uint64, optional, tag = "8")]
    pub classloader_id: Option<u64>,
}

/// An object.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HeapGraphObject {
    /// Its id.
    #[prost(uint64, optional, tag = "1")]
    pub id: Option<u64>,
    /// Its id as the difference from the previous object's.
    #[prost(uint64, optional, tag = "7")]
    pub id_delta: Option<u64>,
    /// Its type.
    #[prost(uint64, optional, tag = "2")]
    pub type_id: Option<u64>,
    /// Its size in bytes.
    #[prost(uint64, optional, tag = "3")]
    pub self_size: Option<u64>,
    /// Added to each non-zero `reference_object_id` (a base for compact varints).
    #[prost(uint64, optional, tag = "6")]
    pub reference_field_id_base: Option<u64>,
    /// The fields of its references, when its type does not say (arrays, classes, older ART).
    #[prost(uint64, repeated, packed = "true", tag = "4")]
    pub reference_field_id: Vec<u64>,
    /// The objects it refers to (0: null).
    #[prost(uint64, repeated, packed = "true", tag = "5")]
    pub reference_object_id: Vec<u64>,
    /// Its heap, when it differs from the previous object's (`HeapType`: 1 app, 2 zygote, 3 boot
    /// image).
    #[prost(int32, optional, tag = "9")]
    pub heap_type_delta: Option<i32>,
    /// `NativeAllocationRegistry.size`, for registry objects.
    #[prost(int64, optional, tag = "8")]
    pub native_allocation_registry_size_field: Option<i64>,
    /// `Bitmap.mId`.
    #[prost(int64, optional, tag = "11")]
    pub bitmap_id_field: Option<i64>,
    /// `Bitmap.mSourceId`.
    #[prost(int64, optional, tag = "12")]
    pub bitmap_source_id_field: Option<i64>,
    /// `Bitmap.mWidth`.
    #[prost(uint32, optional, tag = "13")]
    pub bitmap_width_field: Option<u32>,
    /// `Bitmap.mHeight`.
    #[prost(uint32, optional, tag = "14")]
    pub bitmap_height_field: Option<u32>,
    /// `ApplicationInfo.longVersionCode`.
    #[prost(int64, optional, tag = "15")]
    pub application_info_long_version_code_field: Option<i64>,
    /// Objects it holds through runtime structures, not fields.
    #[prost(uint64, repeated, packed = "true", tag = "10")]
    pub runtime_internal_object_id: Vec<u64>,
}

/// A part of a heap graph: the graph of one process at one time comes in several packets of one
/// sequence, numbered by `index`, the last with `continued` false.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HeapGraph {
    /// The process.
    #[prost(int32, optional, tag = "1")]
    pub pid: Option<i32>,
    /// Objects.
    #[prost(message, repeated, tag = "2")]
    pub objects: Vec<HeapGraphObject>,
    /// Roots.
    #[prost(message, repeated, tag = "7")]
    pub roots: Vec<HeapGraphRoot>,
    /// Types.
    #[prost(message, repeated, tag = "9")]
    pub types: Vec<HeapGraphType>,
    /// Field names (`"Foo.bar"` or `"int Foo.bar"`).
    #[prost(message, repeated, tag = "4")]
    pub field_names: Vec<InternedString>,
    /// Location names (the dex or apk a type came from).
    #[prost(message, repeated, tag = "8")]
    pub location_names: Vec<InternedString>,
    /// More packets of this graph follow.
    #[prost(bool, optional, tag = "5")]
    pub continued: Option<bool>,
    /// This packet's number in the graph, from 0.
    #[prost(uint64, optional, tag = "6")]
    pub index: Option<u64>,
}

/// ProGuard/R8 names for one package.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DeobfuscationMapping {
    /// The package.
    #[prost(string, optional, tag = "1")]
    pub package_name: Option<String>,
    /// Its classes.
    #[prost(message, repeated, tag = "3")]
    pub obfuscated_classes: Vec<ObfuscatedClass>,
}

/// A class's names.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ObfuscatedClass {
    /// As compiled.
    #[prost(string, optional, tag = "1")]
    pub obfuscated_name: Option<String>,
    /// As written.
    #[prost(string, optional, tag = "2")]
    pub deobfuscated_name: Option<String>,
    /// Its fields.
    #[prost(message, repeated, tag = "3")]
    pub obfuscated_members: Vec<ObfuscatedMember>,
}

/// A member's names.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ObfuscatedMember {
    /// As compiled.
    #[prost(string, optional, tag = "1")]
    pub obfuscated_name: Option<String>,
    /// As written: a bare name, or a qualified one when it was inlined from another class.
    #[prost(string, optional, tag = "2")]
    pub deobfuscated_name: Option<String>,
}
