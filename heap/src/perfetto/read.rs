//! Reading a trace a packet at a time ([`Trace::scan`], [`Trace::graph`]): each packet's
//! heap graph part walked field by field ([`super::wire`]), its types, objects and roots each
//! decoded alone, so what is held is one packet's bytes and the graph being kept.

use std::collections::HashMap;

use prost::Message;

use super::wire::{Fields, Value, WireError};
use super::{
    normalize, package_of, proto, Field, Graph, GraphInfo, HeapType, Object, Recorded, Reference, RootType, TraceError,
    Type, MAX_GRAPHS, MAX_PACKET,
};

/// The most bytes of process names kept (only the names of graphs' processes are shown).
const MAX_PROCESS_NAMES: usize = 16 << 20;

/// What a process name costs beside its bytes (its pid and the map's entry).
const PROCESS_ENTRY: usize = 48;

/// A graph being assembled from its packets (or only counted, when `keep` is off).
#[derive(Default)]
struct Building {
    keep: bool,
    graph: Graph,
    /// Objects and roots seen (the VM's own roots counted in), when not kept.
    objects: usize,
    roots: usize,
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

/// A graph's identity within a trace: its writer's sequence, its process, and how many graphs
/// of the same sequence and process came before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct GraphId {
    seq: u32,
    pid: i32,
    nth: u32,
}

/// A trace's packets, decoded one at a time from its bytes (gzip'd or not).
struct Packets<'a> {
    r: std::io::BufReader<Box<dyn std::io::Read + 'a>>,
    stream: &'static str,
    offset: u64,
    /// Where the current packet's bytes begin.
    start: u64,
    number: u64,
    /// The bytes the stream may yield (gzip: the expansion budget).
    budget: crate::expand::Budget,
    buf: Vec<u8>,
}

impl<'a> Packets<'a> {
    fn new(bytes: &'a [u8]) -> Packets<'a> {
        let gzip = bytes.starts_with(&[0x1f, 0x8b]);
        let (r, stream, budget): (Box<dyn std::io::Read + 'a>, _, _) = if gzip {
            (
                Box::new(flate2::read::MultiGzDecoder::new(bytes)),
                "decompressed trace",
                crate::expand::Budget::for_input(bytes.len() as u64, None),
            )
        } else {
            (Box::new(bytes), "trace", crate::expand::Budget { limit: u64::MAX, bound: crate::expand::Bound::Asked })
        };
        Packets {
            r: std::io::BufReader::with_capacity(1 << 16, r),
            stream,
            offset: 0,
            start: 0,
            number: 0,
            budget,
            buf: Vec::new(),
        }
    }

    fn error(&self, offset: u64, what: impl Into<String>) -> TraceError {
        TraceError::Malformed { stream: self.stream, offset, packet: self.number + 1, what: what.into() }
    }

    fn io(&self, e: std::io::Error) -> TraceError {
        if self.stream == "trace" {
            self.error(self.offset, e.to_string())
        } else {
            TraceError::Gzip(format!("at byte {} of the decompressed trace: {e}", self.offset))
        }
    }

    /// The next byte; `None` at the end.
    fn byte(&mut self) -> Result<Option<u8>, TraceError> {
        let mut b = [0u8; 1];
        loop {
            match std::io::Read::read(&mut self.r, &mut b) {
                Ok(0) => return Ok(None),
                Ok(_) => {
                    self.offset += 1;
                    return Ok(Some(b[0]));
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.io(e)),
            }
        }
    }

    /// A varint; `None` when the stream ends before its first byte.
    fn varint(&mut self) -> Result<Option<u64>, TraceError> {
        let start = self.offset;
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let Some(b) = self.byte()? else {
                return if shift == 0 { Ok(None) } else { Err(self.error(start, "the trace ends inside a varint")) };
            };
            if shift == 63 && b > 1 {
                return Err(self.error(start, "a varint longer than 64 bits"));
            }
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(Some(v));
            }
        }
        Err(self.error(start, "a varint longer than 10 bytes"))
    }

    /// Reads `len` bytes into the buffer (`skip`: drops them); false when the stream ends first.
    fn take(&mut self, len: u64, skip: bool) -> Result<bool, TraceError> {
        if self.offset.saturating_add(len) > self.budget.limit {
            return Err(self.error(self.offset, self.budget.exceeded()));
        }
        let mut part = std::io::Read::take(&mut self.r, len);
        let got = if skip {
            std::io::copy(&mut part, &mut std::io::sink())
        } else {
            self.buf.clear();
            std::io::Read::read_to_end(&mut part, &mut self.buf).map(|n| n as u64)
        };
        let got = match got {
            Ok(n) => n,
            Err(e) => return Err(self.io(e)),
        };
        self.offset += got;
        Ok(got == len)
    }

    /// Reads the next packet into the buffer; false at the end of the trace, or where a last
    /// packet was cut short (a trace being written, or one pulled incomplete: its open graphs are
    /// marked truncated).
    fn next(&mut self) -> Result<bool, TraceError> {
        loop {
            let start = self.offset;
            if start > self.budget.limit {
                return Err(self.error(start, self.budget.exceeded()));
            }
            let Some(key) = self.varint()? else { return Ok(false) };
            let (field, wire) = (key >> 3, key & 7);
            if field == 0 {
                return Err(self.error(start, format!("field number 0 (key {key:#x}): not a Perfetto trace")));
            }
            let whole = match wire {
                0 => self.varint()?.is_some(),
                1 => self.take(8, true)?,
                5 => self.take(4, true)?,
                2 => {
                    let Some(len) = self.varint()? else { return Ok(false) };
                    if field != 1 {
                        self.take(len, true)?
                    } else if len > MAX_PACKET {
                        return Err(self.error(start, format!("a packet of {len} bytes (at most {MAX_PACKET})")));
                    } else {
                        self.start = self.offset;
                        let whole = self.take(len, false)?;
                        if whole {
                            self.number += 1;
                        }
                        return Ok(whole);
                    }
                }
                _ => return Err(self.error(start, format!("wire type {wire} at the top level: not a Perfetto trace"))),
            };
            if !whole {
                return Ok(false);
            }
        }
    }

    /// An error at `part` (a slice of the current packet) plus `e.at`.
    fn wire(&self, part: &[u8], e: WireError) -> TraceError {
        let within = (part.as_ptr() as usize).wrapping_sub(self.buf.as_ptr() as usize);
        let at = self.start + within.min(self.buf.len()) as u64 + e.at as u64;
        TraceError::Malformed { stream: self.stream, offset: at, packet: self.number, what: e.what.to_string() }
    }
}

/// What heaptui reads of a packet: slices of it.
#[derive(Default)]
struct Packet<'a> {
    timestamp: u64,
    seq: u32,
    trees: Vec<&'a [u8]>,
    graph: Option<&'a [u8]>,
    mappings: Vec<&'a [u8]>,
}

impl<'a> Packet<'a> {
    fn of(bytes: &'a [u8]) -> Result<Packet<'a>, (&'a [u8], WireError)> {
        let mut p = Packet::default();
        for f in Fields::of(bytes) {
            let (n, v) = f.map_err(|e| (bytes, e))?;
            match (n, v) {
                (8, v) => p.timestamp = v.int().unwrap_or(0),
                (10, v) => p.seq = v.int().unwrap_or(0) as u32,
                (2, Value::Bytes(b)) => p.trees.push(b),
                (56, Value::Bytes(b)) => p.graph = Some(b),
                (64, Value::Bytes(b)) => p.mappings.push(b),
                _ => {}
            }
        }
        Ok(p)
    }
}

/// A heap graph packet's own fields: its process, whether more follow, its number.
fn graph_head(g: &[u8]) -> Result<(i32, bool, Option<u64>), WireError> {
    let (mut pid, mut continued, mut index) = (0, false, None);
    for f in Fields::of(g) {
        match f? {
            (1, v) => pid = v.int().unwrap_or(0) as i32,
            (5, v) => continued = v.int().unwrap_or(0) != 0,
            (6, v) => index = v.int(),
            _ => {}
        }
    }
    Ok((pid, continued, index))
}

/// The first command line of each process in a process tree, by pid (read field by field: a
/// process's strings are never all decoded).
fn processes(tree: &[u8], mut each: impl FnMut(i32, &[u8])) -> Result<(), (&[u8], WireError)> {
    for f in Fields::of(tree) {
        let (n, v) = f.map_err(|e| (tree, e))?;
        let (1, Value::Bytes(p)) = (n, v) else { continue };
        let (mut pid, mut cmd) = (None, None);
        for f in Fields::of(p) {
            match f.map_err(|e| (p, e))? {
                (1, v) => pid = v.int().map(|v| v as i32),
                (3, Value::Bytes(c)) if cmd.is_none() => cmd = Some(c),
                _ => {}
            }
        }
        if let (Some(pid), Some(cmd)) = (pid, cmd) {
            each(pid, cmd);
        }
    }
    Ok(())
}

/// Which graphs a walk over a trace keeps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// None: each is counted.
    None,
    /// This one only; the walk ends when it does.
    One(GraphId),
}

/// What a walk over a trace found.
#[derive(Default)]
struct Walked {
    graphs: Vec<(GraphId, Building)>,
    processes: HashMap<i32, String>,
    /// Packets with deobfuscation mappings.
    mapped: bool,
}

/// Reads `bytes` a packet at a time: the graphs (the one `keep` names kept, the others
/// counted) and, when scanning, the processes' names.
fn walk(bytes: &[u8], keep: Keep) -> Result<Walked, TraceError> {
    let mut packets = Packets::new(bytes);
    let mut out = Walked::default();
    let mut names = 0usize;
    let mut open: HashMap<(u32, i32), (GraphId, Building)> = HashMap::new();
    let mut seen: HashMap<(u32, i32), u32> = HashMap::new();
    while packets.next()? {
        let buf = &packets.buf[..];
        let packet = Packet::of(buf).map_err(|(at, e)| packets.wire(at, e))?;
        if keep == Keep::None {
            for tree in &packet.trees {
                // The last name a process was given (a zygote child is renamed after its
                // package); each entry charged its map overhead too, so empty names are bounded.
                processes(tree, |pid, cmd| {
                    let old = out.processes.get(&pid).map_or(0, |c| c.len() + PROCESS_ENTRY);
                    if names - old + cmd.len() + PROCESS_ENTRY <= MAX_PROCESS_NAMES {
                        names = names - old + cmd.len() + PROCESS_ENTRY;
                        out.processes.insert(pid, String::from_utf8_lossy(cmd).into_owned());
                    }
                })
                .map_err(|(at, e)| packets.wire(at, e))?;
            }
        }
        out.mapped |= !packet.mappings.is_empty();
        let Some(part) = packet.graph else { continue };
        let (pid, continued, index) = graph_head(part).map_err(|e| packets.wire(part, e))?;
        let key = (packet.seq, pid);
        if !open.contains_key(&key) {
            if out.graphs.len() + open.len() >= MAX_GRAPHS {
                let what = format!("more than {MAX_GRAPHS} heap graphs");
                return Err(TraceError::Malformed {
                    stream: packets.stream,
                    offset: packets.start,
                    packet: packets.number,
                    what,
                });
            }
            let nth = seen.entry(key).or_insert(0);
            let id = GraphId { seq: key.0, pid, nth: *nth };
            *nth += 1;
            let b = Building {
                keep: keep == Keep::One(id),
                graph: Graph { pid, timestamp: packet.timestamp, ..Graph::default() },
                ..Building::default()
            };
            open.insert(key, (id, b));
        }
        let Some((_, b)) = open.get_mut(&key) else { continue };
        let index = index.unwrap_or(b.next_index);
        if index != b.next_index {
            b.graph.truncated = true;
        }
        b.next_index = index.saturating_add(1);
        add_part(b, part).map_err(|(at, e)| packets.wire(at, e))?;
        if !continued {
            if let Some((id, b)) = open.remove(&key) {
                let done = Keep::One(id) == keep;
                out.graphs.push((id, b));
                if done {
                    return Ok(out);
                }
            }
        }
    }
    // Graphs whose last packet never came are kept, marked, in the order they began.
    let mut open: Vec<_> = open.into_values().collect();
    open.sort_by_key(|(id, _)| (id.seq, id.pid, id.nth));
    for (id, mut b) in open {
        b.graph.truncated = true;
        out.graphs.push((id, b));
    }
    // As `--dump N` counts them: by time, then process.
    out.graphs.sort_by_key(|(_, b)| (b.graph.timestamp, b.graph.pid));
    Ok(out)
}

/// A trace's heap graphs, listed by one read; each read again when asked for.
pub struct Trace<'a> {
    bytes: &'a [u8],
    /// The graphs, by time then process (as `--dump N` counts them from 1).
    pub graphs: Vec<GraphInfo>,
    ids: Vec<GraphId>,
    processes: HashMap<i32, String>,
    mapped: bool,
}

impl<'a> Trace<'a> {
    /// Lists the graphs in `bytes` (the file; gzip is undone), keeping none.
    pub fn scan(bytes: &'a [u8]) -> Result<Trace<'a>, TraceError> {
        let walked = walk(bytes, Keep::None)?;
        let mut graphs = Vec::with_capacity(walked.graphs.len());
        let mut ids = Vec::with_capacity(walked.graphs.len());
        for (id, b) in walked.graphs {
            let g = &b.graph;
            graphs.push(GraphInfo {
                pid: g.pid,
                process: walked.processes.get(&g.pid).cloned(),
                timestamp_ns: g.timestamp,
                objects: b.objects,
                roots: b.roots,
                truncated: g.truncated,
            });
            ids.push(id);
        }
        Ok(Trace { bytes, graphs, ids, processes: walked.processes, mapped: walked.mapped })
    }

    /// Graph `n` (counted from 0), read again from the trace with nothing else kept.
    pub fn graph(&self, n: usize) -> Result<Graph, TraceError> {
        let Some(&id) = self.ids.get(n) else { return Err(TraceError::NoGraph { held: self.ids.len() }) };
        let walked = walk(self.bytes, Keep::One(id))?;
        let Some((_, b)) = walked.graphs.into_iter().find(|(g, _)| *g == id) else {
            return Err(TraceError::NoGraph { held: self.ids.len() });
        };
        let mut g = finish(b);
        g.process = self.processes.get(&g.pid).cloned();
        if self.mapped {
            deobfuscate(&mut g, self.bytes)?;
        }
        Ok(g)
    }
}

/// Reads every heap graph in a trace (`bytes`: the file; gzip is undone), each as
/// [`Trace::graph`] does (for small traces: the trace is read once for each).
pub fn read(bytes: &[u8]) -> Result<Vec<Graph>, TraceError> {
    let trace = Trace::scan(bytes)?;
    (0..trace.graphs.len()).map(|n| trace.graph(n)).collect()
}

/// Adds a heap graph packet's types, objects, roots and names to `b` in the order they come
/// (each decoded alone), or only counts its objects and roots.
fn add_part<'a>(b: &mut Building, part: &'a [u8]) -> Result<(), (&'a [u8], WireError)> {
    let at = |slice: &'a [u8]| move |e: WireError| (slice, e);
    let decode = |slice: &'a [u8]| {
        move |_: prost::DecodeError| (slice, WireError { at: 0, what: "a message that does not decode" })
    };
    for f in Fields::of(part) {
        let (n, v) = f.map_err(at(part))?;
        let Value::Bytes(item) = v else { continue };
        if !b.keep {
            match n {
                // Counted as `finish` would make them: the zygote's and the boot image's objects
                // are roots too.
                2 => {
                    for f in Fields::of(item) {
                        if let (9, v) = f.map_err(at(item))? {
                            b.heap = HeapType(v.int().unwrap_or(0) as i32);
                        }
                    }
                    b.objects += 1;
                    b.roots += usize::from(matches!(b.heap.0, 2 | 3));
                }
                7 => {
                    for f in Fields::of(item) {
                        match f.map_err(at(item))? {
                            (1, Value::Bytes(ids)) => b.roots += ids.iter().filter(|&&x| x & 0x80 == 0).count(),
                            (1, _) => b.roots += 1,
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        match n {
            2 => add_object(b, proto::HeapGraphObject::decode(item).map_err(decode(item))?),
            4 | 8 => {
                let s = proto::InternedString::decode(item).map_err(decode(item))?;
                if let (Some(iid), Some(text)) = (s.iid, s.str) {
                    let names = if n == 4 { &mut b.field_names } else { &mut b.location_names };
                    names.insert(iid, String::from_utf8_lossy(&text).into_owned());
                }
            }
            7 => {
                let r = proto::HeapGraphRoot::decode(item).map_err(decode(item))?;
                let kind = RootType(r.root_type.unwrap_or(0));
                b.graph.roots.extend(r.object_ids.into_iter().map(|id| (id, kind)));
            }
            9 => {
                let t = proto::HeapGraphType::decode(item).map_err(decode(item))?;
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
            _ => {}
        }
    }
    Ok(())
}

fn add_object(b: &mut Building, o: proto::HeapGraphObject) {
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

/// Renames the graph's types and fields as the trace's deobfuscation mappings say, read again
/// from the trace a packet at a time, in their order (a later mapping's name wins): a type whose
/// location names no package takes any mapping's name for it, one from `/data/app/PKG-…` only
/// its package's; a field `Cls.member` becomes `Deobf.member` (or the member's qualified name).
fn deobfuscate(g: &mut Graph, bytes: &[u8]) -> Result<(), TraceError> {
    // Types by their name's base (without `java.lang.Class<…>` and brackets), fields by name.
    let mut types: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, t) in g.types.iter().enumerate() {
        types.entry(normalize(&t.name).0.to_string()).or_default().push(i);
    }
    let mut fields: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, f) in g.fields.iter().enumerate() {
        fields.entry(f.name.clone()).or_default().push(i);
    }
    let mut packets = Packets::new(bytes);
    while packets.next()? {
        let buf = &packets.buf[..];
        let packet = Packet::of(buf).map_err(|(at, e)| packets.wire(at, e))?;
        for m in packet.mappings {
            rename(g, &types, &fields, m).map_err(|(at, e)| packets.wire(at, e))?;
        }
    }
    Ok(())
}

/// The last value of string field `n` in message `m`.
fn string_field(m: &[u8], n: u32) -> Result<Option<&[u8]>, (&[u8], WireError)> {
    let mut last = None;
    for f in Fields::of(m) {
        if let (k, Value::Bytes(b)) = f.map_err(|e| (m, e))? {
            if k == n {
                last = Some(b);
            }
        }
    }
    Ok(last)
}

/// One mapping (`DeobfuscationMapping`) applied, class by class, member by member.
fn rename<'a>(
    g: &mut Graph,
    types: &HashMap<String, Vec<usize>>,
    fields: &HashMap<String, Vec<usize>>,
    m: &'a [u8],
) -> Result<(), (&'a [u8], WireError)> {
    let package = string_field(m, 1)?.map(String::from_utf8_lossy).filter(|p| !p.is_empty());
    for f in Fields::of(m) {
        let (3, Value::Bytes(cls)) = f.map_err(|e| (m, e))? else { continue };
        let (Some(obf), Some(deobf)) = (string_field(cls, 1)?, string_field(cls, 2)?) else { continue };
        let (obf, deobf) = (String::from_utf8_lossy(obf), String::from_utf8_lossy(deobf));
        for &i in types.get(obf.as_ref()).map_or(&[][..], Vec::as_slice) {
            let t = &mut g.types[i];
            let (_, class, arrays) = normalize(&t.name);
            let from = t.location.as_deref().and_then(package_of);
            if from.is_some() && from != package.as_deref() {
                continue;
            }
            let mut name = format!("{deobf}{}", "[]".repeat(arrays));
            if class {
                name = format!("java.lang.Class<{name}>");
            }
            t.deobfuscated = Some(name);
        }
        for f in Fields::of(cls) {
            let (3, Value::Bytes(member)) = f.map_err(|e| (cls, e))? else { continue };
            let (Some(mobf), Some(mdeobf)) = (string_field(member, 1)?, string_field(member, 2)?) else { continue };
            let (mobf, mdeobf) = (String::from_utf8_lossy(mobf), String::from_utf8_lossy(mdeobf));
            let Some(at) = fields.get(&format!("{obf}.{mobf}")) else { continue };
            let full = if mdeobf.contains('.') { mdeobf.to_string() } else { format!("{deobf}.{mdeobf}") };
            for &i in at {
                g.fields[i].deobfuscated = Some(full.clone());
            }
        }
    }
    Ok(())
}
