//! Hostile Perfetto traces, written here byte by byte (a protobuf encoder of a few lines, apart
//! from the engine's reader, with the field numbers of Perfetto's `heap_graph.proto` and
//! `trace_packet.proto`): each takes memory or time out of all proportion to its size in a
//! reader that decodes a whole trace, pads every object to its type's largest, or compares
//! every pair.

use std::io::Write;

/// Appends `v` as a varint.
fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Field `field` as a varint.
fn uint(out: &mut Vec<u8>, field: u64, v: u64) {
    varint(out, field << 3);
    varint(out, v);
}

/// Field `field`, length-delimited.
fn bytes(out: &mut Vec<u8>, field: u64, b: &[u8]) {
    varint(out, (field << 3) | 2);
    varint(out, b.len() as u64);
    out.extend_from_slice(b);
}

/// Field `field`, packed varints.
fn packed(out: &mut Vec<u8>, field: u64, vs: &[u64]) {
    let mut body = Vec::new();
    for &v in vs {
        varint(&mut body, v);
    }
    bytes(out, field, &body);
}

/// A `HeapGraphType`: id, class name, instance size.
pub fn graph_type(id: u64, name: &str, size: u64) -> Vec<u8> {
    let mut t = Vec::new();
    uint(&mut t, 1, id);
    bytes(&mut t, 3, name.as_bytes());
    uint(&mut t, 4, size);
    t
}

/// A `HeapGraphObject`: id, type, and references the runtime holds (no field names them).
pub fn object(id: u64, type_id: u64, runtime_refs: &[u64]) -> Vec<u8> {
    let mut o = Vec::new();
    uint(&mut o, 1, id);
    uint(&mut o, 2, type_id);
    if !runtime_refs.is_empty() {
        packed(&mut o, 10, runtime_refs);
    }
    o
}

/// A `HeapGraphObject` whose references each name a field of their own (older traces).
pub fn object_with_fields(id: u64, type_id: u64, refs: &[(u64, u64)]) -> Vec<u8> {
    let mut o = Vec::new();
    uint(&mut o, 1, id);
    uint(&mut o, 2, type_id);
    packed(&mut o, 4, &refs.iter().map(|r| r.0).collect::<Vec<_>>());
    packed(&mut o, 5, &refs.iter().map(|r| r.1).collect::<Vec<_>>());
    o
}

/// The parts of one `HeapGraph` packet.
#[derive(Default)]
pub struct Part {
    /// The process.
    pub pid: u64,
    /// `HeapGraphType`s.
    pub types: Vec<Vec<u8>>,
    /// `HeapGraphObject`s.
    pub objects: Vec<Vec<u8>>,
    /// JNI-global roots.
    pub roots: Vec<u64>,
    /// Interned field names: iid and text.
    pub fields: Vec<(u64, String)>,
    /// More packets follow.
    pub continued: bool,
    /// The packet's number in its graph.
    pub index: u64,
}

/// A `TracePacket` holding `part` (sequence 1).
pub fn packet(part: &Part) -> Vec<u8> {
    let mut g = Vec::new();
    uint(&mut g, 1, part.pid);
    for o in &part.objects {
        bytes(&mut g, 2, o);
    }
    for (iid, text) in &part.fields {
        let mut s = Vec::new();
        uint(&mut s, 1, *iid);
        bytes(&mut s, 2, text.as_bytes());
        bytes(&mut g, 4, &s);
    }
    uint(&mut g, 5, u64::from(part.continued));
    uint(&mut g, 6, part.index);
    if !part.roots.is_empty() {
        let mut r = Vec::new();
        packed(&mut r, 1, &part.roots);
        uint(&mut r, 2, 1);
        bytes(&mut g, 7, &r);
    }
    for t in &part.types {
        bytes(&mut g, 9, t);
    }
    let mut p = Vec::new();
    uint(&mut p, 8, 1_000);
    uint(&mut p, 10, 1);
    bytes(&mut p, 56, &g);
    p
}

/// A `TracePacket` holding a deobfuscation mapping of `classes` (obfuscated, real name).
pub fn mapping(classes: &[(String, String)]) -> Vec<u8> {
    let mut m = Vec::new();
    bytes(&mut m, 1, b"com.example");
    for (obf, real) in classes {
        let mut c = Vec::new();
        bytes(&mut c, 1, obf.as_bytes());
        bytes(&mut c, 2, real.as_bytes());
        bytes(&mut m, 3, &c);
    }
    let mut p = Vec::new();
    bytes(&mut p, 64, &m);
    p
}

/// A trace of `packets`.
pub fn trace(packets: &[Vec<u8>]) -> Vec<u8> {
    let mut t = Vec::new();
    for p in packets {
        bytes(&mut t, 1, p);
    }
    t
}

/// `bytes` gzip'd.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = g.write_all(bytes);
    g.finish().unwrap_or_default()
}

/// One object of type `Holder` holding `refs` objects through the runtime, and `same` more
/// objects of its type holding none, all of them its targets: a writer that gives every object
/// its type's largest count of unnamed references writes `same × refs` slots (gzip'd: 28.8 KB
/// for 16 GiB at 100,000 and 20,000).
pub fn padded_type(refs: u64, same: u64) -> Vec<u8> {
    padded_type_of(42, refs, same)
}

/// [`padded_type`] as process `pid`'s graph.
pub fn padded_type_of(pid: u64, refs: u64, same: u64) -> Vec<u8> {
    let targets: Vec<u64> = (0..refs).map(|k| 0x1000 + 0x10 * (1 + k % same)).collect();
    let mut objects = vec![object(0x1000, 1, &targets)];
    objects.extend((1..=same).map(|k| object(0x1000 + 0x10 * k, 1, &[])));
    let part = Part {
        pid,
        types: vec![graph_type(1, "com.example.Holder", 16)],
        objects,
        roots: vec![0x1000],
        ..Part::default()
    };
    gzip(&trace(&[packet(&part)]))
}

/// One `Base` with `refs` references the runtime holds and `subs` instances of `Sub extends
/// Base` holding none: a writer that sizes a class's slots by its own instances alone pads every
/// `Sub` to `refs` slots (4 GB at 50,000 and 20,000).
pub fn inherited_padding(refs: u64, subs: u64) -> Vec<u8> {
    let targets: Vec<u64> = (0..refs).map(|k| 0x2000 + 0x10 * (1 + k % subs)).collect();
    let mut sub = graph_type(2, "com.example.Sub", 16);
    uint(&mut sub, 5, 1);
    let mut objects = vec![object(0x2000, 1, &targets)];
    objects.extend((1..=subs).map(|k| object(0x2000 + 0x10 * k, 2, &[])));
    let part = Part {
        pid: 42,
        types: vec![graph_type(1, "com.example.Base", 16), sub],
        objects,
        roots: vec![0x2000],
        ..Part::default()
    };
    gzip(&trace(&[packet(&part)]))
}

/// `count` objects with nothing but an id delta of 16 and a type (6 bytes each before gzip):
/// a reader that decodes the whole trace first holds some 370 bytes an object.
pub fn tiny_objects(count: u64) -> Vec<u8> {
    let mut g = Vec::new();
    uint(&mut g, 1, 42);
    let mut o = Vec::new();
    uint(&mut o, 7, 16);
    uint(&mut o, 2, 1);
    for _ in 0..count {
        bytes(&mut g, 2, &o);
    }
    let mut t = Vec::new();
    uint(&mut t, 1, 1);
    bytes(&mut t, 3, b"T");
    uint(&mut t, 4, 16);
    bytes(&mut g, 9, &t);
    uint(&mut g, 5, 0);
    let mut p = Vec::new();
    uint(&mut p, 10, 1);
    bytes(&mut p, 56, &g);
    gzip(&trace(&[p]))
}

/// `count` graphs of one packet each (an object and a root), 9 bytes a graph gzip'd.
pub fn many_graphs(count: u64) -> Vec<u8> {
    let packets: Vec<Vec<u8>> = (0..count)
        .map(|k| {
            packet(&Part {
                pid: k % 30_000 + 1,
                types: vec![graph_type(1, "T", 16)],
                objects: vec![object(0x10, 1, &[])],
                roots: vec![0x10],
                ..Part::default()
            })
        })
        .collect();
    gzip(&trace(&packets))
}

/// A packet that declares `len` bytes and holds a few.
pub fn huge_packet(len: u64) -> Vec<u8> {
    let mut t = Vec::new();
    varint(&mut t, (1 << 3) | 2);
    varint(&mut t, len);
    t.extend_from_slice(&[0x40, 0x01]);
    t
}

/// `MiB` MiB of zeros, gzip'd: no trace at all.
pub fn zeros(mib: usize) -> Vec<u8> {
    gzip(&vec![0u8; mib << 20])
}

/// One object whose `refs` references each name a field of their own (an older trace's
/// layout): a writer that looks each field up among the object's references takes `refs²`.
pub fn many_fields(refs: u64) -> Vec<u8> {
    let fields: Vec<(u64, String)> = (1..=refs).map(|k| (k, format!("com.example.Wide.f{k}"))).collect();
    let refs: Vec<(u64, u64)> = (1..=refs).map(|k| (k, 0x1000)).collect();
    let part = Part {
        pid: 42,
        types: vec![graph_type(1, "com.example.Wide", 16)],
        objects: vec![object_with_fields(0x1000, 1, &refs)],
        roots: vec![0x1000],
        fields,
        ..Part::default()
    };
    gzip(&trace(&[packet(&part)]))
}

/// `types` types and a mapping naming as many classes: a reader that compares every mapped
/// class with every type takes `types²`.
pub fn many_mapped(types: u64) -> Vec<u8> {
    let part = Part {
        pid: 42,
        types: (1..=types).map(|k| graph_type(k, &format!("a{k}"), 16)).collect(),
        objects: vec![object(0x1000, 1, &[])],
        roots: vec![0x1000],
        ..Part::default()
    };
    let classes: Vec<(String, String)> = (1..=types).map(|k| (format!("a{k}"), format!("com.example.C{k}"))).collect();
    gzip(&trace(&[packet(&part), mapping(&classes)]))
}
