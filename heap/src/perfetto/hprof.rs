//! A heap graph written as an Android HPROF (1.0.3), so the engine indexes it like any dump and
//! other tools (Android Studio, MAT, VisualVM) open it. Ids are 4 bytes when they fit, as ART's
//! own dumps have them (its references are 32-bit), else 8 ([`Ids`]). What the graph lacks is
//! not made up: field values and primitive array contents are absent (instances carry their
//! reference fields and the few values the runtime records, [`Recorded`]; primitive arrays are
//! NODATA records of the length their size allows).
//!
//! The graph keeps types and objects apart (a class's `java.lang.Class<…>` object is an ordinary
//! object of its own type), so each type becomes a class with an id of its own ([`Ids::class`]),
//! outside the objects' ids; its layout is its own reference fields (names without the class
//! prefix, deobfuscated where a mapping says), then, for objects whose references outnumber the
//! fields their types name (references the runtime holds, or objects that list their own fields
//! in older traces), extra fields named `<runtime>`, then the recorded values its objects carry
//! (`size` of a `NativeAllocationRegistry`, `mWidth` of a `Bitmap`...). Roots keep their kinds (Android's root
//! tags); heaps their types (HEAP DUMP INFO `app`, `zygote`, `image`). Sizes are the graph's:
//! [`crate::Index::from_perfetto`] sets them after indexing.

use std::collections::HashMap;

use super::{Graph, Recorded, RootType};
use crate::spec::{record, sub};

/// The bit that sets a type's class id apart from object ids when ids are 8 bytes (ART's object
/// ids are addresses below 2^48).
pub const CLASS_BIT: u64 = 1 << 62;

/// How a graph's ids are written: their size, and where the types' class ids lie.
///
/// Ids are 4 bytes when every id the graph holds, and a class id for each type above them, fits
/// in 32 bits: ART's heap references are 32-bit, and tools that read 8-byte dumps guess the
/// pointer size from `java.lang.System`'s properties, which a graph does not record (VisualVM
/// fails without them). Else they are 8 bytes, with class ids set apart by [`CLASS_BIT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ids {
    /// 4 or 8.
    pub size: u8,
    /// What is added to a type id to make its class id.
    base: u64,
    /// The id of a `java.lang.ref.Reference` class written when the graph has none.
    reference: u64,
}

impl Ids {
    /// The layout for `g`.
    pub fn of(g: &Graph) -> Ids {
        let mut top = 0u64;
        for o in &g.objects {
            top = top.max(o.id);
            top = o.refs.iter().fold(top, |m, r| m.max(r.target));
        }
        top = g.roots.iter().fold(top, |m, r| m.max(r.0));
        top = g.types.iter().fold(top, |m, t| m.max(t.classloader.unwrap_or(0)));
        let last_type = g.types.iter().map(|t| t.id).max().unwrap_or(0);
        // Class ids start on the 4 KiB boundary above every object id: apart from them, and
        // easy to tell apart by eye in a hex dump.
        let base = (top | 0xfff) + 1;
        match base.checked_add(last_type).and_then(|c| c.checked_add(1)) {
            Some(reference) if reference <= u64::from(u32::MAX) => Ids { size: 4, base, reference },
            _ => Ids { size: 8, base: CLASS_BIT, reference: CLASS_BIT | (1 << 61) },
        }
    }

    /// The class id of type `type_id`.
    pub fn class(&self, type_id: u64) -> u64 {
        if self.size == 8 {
            CLASS_BIT | type_id
        } else {
            self.base + type_id
        }
    }
}

/// A primitive element type by name (`int` → HPROF's 10) and its size.
fn primitive(name: &str) -> Option<(u8, u64)> {
    Some(match name {
        "boolean" => (4, 1),
        "char" => (5, 2),
        "float" => (6, 4),
        "double" => (7, 8),
        "byte" => (8, 1),
        "short" => (9, 2),
        "int" => (10, 4),
        "long" => (11, 8),
        _ => return None,
    })
}

struct Writer {
    out: Vec<u8>,
    id_size: u8,
    strings: HashMap<String, u64>,
    heap: Vec<u8>,
}

impl Writer {
    fn record(&mut self, tag: u8, body: &[u8]) {
        self.out.push(tag);
        self.out.extend_from_slice(&0u32.to_be_bytes());
        self.out.extend_from_slice(&(body.len() as u32).to_be_bytes());
        self.out.extend_from_slice(body);
    }

    fn string(&mut self, s: &str) -> u64 {
        if let Some(&id) = self.strings.get(s) {
            return id;
        }
        let id = self.strings.len() as u64 + 1;
        let mut body = Vec::with_capacity(8 + s.len());
        self.body_id(&mut body, id);
        body.extend_from_slice(s.as_bytes());
        self.record(record::STRING, &body);
        self.strings.insert(s.to_string(), id);
        id
    }

    fn u8(&mut self, v: u8) {
        self.heap.push(v);
    }

    fn u32(&mut self, v: u32) {
        self.heap.extend_from_slice(&v.to_be_bytes());
    }

    fn id(&mut self, v: u64) {
        if self.id_size == 4 {
            self.heap.extend_from_slice(&(v as u32).to_be_bytes());
        } else {
            self.heap.extend_from_slice(&v.to_be_bytes());
        }
    }

    /// An id inside a top-level record's body.
    fn body_id(&self, body: &mut Vec<u8>, v: u64) {
        if self.id_size == 4 {
            body.extend_from_slice(&(v as u32).to_be_bytes());
        } else {
            body.extend_from_slice(&v.to_be_bytes());
        }
    }

    /// Ends the current heap dump segment when it nears the u32 length limit.
    fn flush_segment(&mut self, force: bool) {
        if !self.heap.is_empty() && (force || self.heap.len() > 1 << 30) {
            let heap = std::mem::take(&mut self.heap);
            self.record(record::HEAP_DUMP_SEGMENT, &heap);
        }
    }
}

/// A class as written: its graph type's id, name, superclass and fields (indexes into
/// [`Graph::fields`]), its extra `<runtime>` fields, loader and instance size.
struct Class {
    id: u64,
    name: String,
    superclass: Option<u64>,
    fields: Vec<u32>,
    extras: usize,
    /// The values its objects carry ([`Recorded`]), after its reference fields.
    values: Vec<Recorded>,
    loader: u64,
    size: u64,
}

/// The type id standing for a `java.lang.ref.Reference` class written when the graph's reference
/// types reach none (the engine knows weak references by the `referent` declared there).
const REFERENCE_TYPE: u64 = u64::MAX;

/// The classes to write: the graph's types, each with the fields its objects use (older traces
/// name fields per object, not per type), a `referent` moved to a `java.lang.ref.Reference` the
/// reference types reach, and room for the references no field names.
fn classes(g: &Graph) -> Vec<Class> {
    let mut out: Vec<Class> = g
        .types
        .iter()
        .map(|t| Class {
            id: t.id,
            name: t.deobfuscated.clone().unwrap_or_else(|| t.name.clone()),
            superclass: t.superclass,
            fields: t.fields.clone(),
            extras: 0,
            values: Vec::new(),
            loader: t.classloader.unwrap_or(0),
            size: t.object_size,
        })
        .collect();
    let by_id: HashMap<u64, usize> = out.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let chain = |out: &[Class], id: u64| -> Vec<usize> {
        let mut v = Vec::new();
        let mut cur = Some(id);
        while let Some(i) = cur.and_then(|c| by_id.get(&c).copied()) {
            if v.contains(&i) || v.len() > 512 {
                break;
            }
            v.push(i);
            cur = out[i].superclass;
        }
        v
    };
    // Fields objects name that their type chain does not: the object's own type's. The chains'
    // fields only grow here, so what a type's chain named at first is looked at first, and the
    // chain walked again only for a field that was not among them (older traces' objects).
    let chain_fields = |out: &[Class], id: u64| -> Vec<u32> {
        chain(out, id).iter().flat_map(|&k| out[k].fields.iter().copied()).collect()
    };
    let mut first_known: HashMap<u64, Vec<u32>> = HashMap::new();
    for o in &g.objects {
        let Some(&i) = by_id.get(&o.type_id) else { continue };
        let base = first_known.entry(o.type_id).or_insert_with(|| chain_fields(&out, o.type_id));
        let new: Vec<u32> = o.refs.iter().filter_map(|r| r.field).filter(|f| !base.contains(f)).collect();
        if new.is_empty() {
            continue;
        }
        let known = chain_fields(&out, o.type_id);
        for f in new {
            if !known.contains(&f) && !out[i].fields.contains(&f) {
                out[i].fields.push(f);
            }
        }
    }
    // The referent of reference types, declared by java.lang.ref.Reference.
    let has_reference = out.iter().any(|c| c.name == "java.lang.ref.Reference");
    if !has_reference {
        let mut referent = None;
        for (i, t) in g.types.iter().enumerate() {
            if !(8..=11).contains(&t.kind) {
                continue;
            }
            let Some(at) =
                out[i].fields.iter().position(|&f| g.fields[f as usize].name.ends_with("Reference.referent"))
            else {
                continue;
            };
            referent.get_or_insert(out[i].fields.remove(at));
            let top = *chain(&out, t.id).last().unwrap_or(&i);
            out[top].superclass = Some(REFERENCE_TYPE);
        }
        if let Some(f) = referent {
            out.push(Class {
                id: REFERENCE_TYPE,
                name: "java.lang.ref.Reference".into(),
                superclass: None,
                fields: vec![f],
                extras: 0,
                values: Vec::new(),
                loader: 0,
                size: 0,
            });
        }
    }
    // Room for references no field of the object's chain names (the fields are final now: each
    // type's chain is gathered once).
    let by_id: HashMap<u64, usize> = out.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let mut named_by_type: HashMap<u64, Vec<u32>> = HashMap::new();
    for o in &g.objects {
        let Some(&i) = by_id.get(&o.type_id) else { continue };
        let named = named_by_type.entry(o.type_id).or_insert_with(|| {
            let mut named: Vec<u32> = Vec::new();
            let mut cur = Some(o.type_id);
            while let Some(k) = cur.and_then(|c| by_id.get(&c).copied()) {
                if named.len() > 1 << 16 {
                    break;
                }
                named.extend(&out[k].fields);
                cur = out[k].superclass.filter(|&s| s != out[k].id);
            }
            named
        });
        let unnamed = o.refs.iter().filter(|r| r.field.is_none_or(|f| !named.contains(&f))).count();
        out[i].extras = out[i].extras.max(unnamed);
        for &(r, _) in &o.values {
            if !out[i].values.contains(&r) {
                out[i].values.push(r);
            }
        }
    }
    for c in &mut out {
        c.values.sort();
    }
    out
}

/// The graph as HPROF bytes, with ids laid out as [`Ids::of`] says.
pub fn write(g: &Graph) -> Vec<u8> {
    let ids = Ids::of(g);
    let class_id = |type_id: u64| if type_id == REFERENCE_TYPE { ids.reference } else { ids.class(type_id) };
    let mut w =
        Writer { out: b"JAVA PROFILE 1.0.3\0".to_vec(), id_size: ids.size, strings: HashMap::new(), heap: Vec::new() };
    w.out.extend_from_slice(&u32::from(ids.size).to_be_bytes());
    w.out.extend_from_slice(&g.timestamp.to_be_bytes());
    let classes = classes(g);
    let by_id: HashMap<u64, usize> = classes.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let types: HashMap<u64, usize> = g.types.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
    // Classes: LOAD CLASS and CLASS DUMP each.
    for (serial, c) in classes.iter().enumerate() {
        let name_id = w.string(&c.name);
        let mut body = (serial as u32 + 1).to_be_bytes().to_vec();
        w.body_id(&mut body, class_id(c.id));
        body.extend_from_slice(&0u32.to_be_bytes());
        w.body_id(&mut body, name_id);
        w.record(record::LOAD_CLASS, &body);
        let mut fields: Vec<u64> = c
            .fields
            .iter()
            .map(|&f| {
                let field = &g.fields[f as usize];
                let full = field.deobfuscated.as_deref().unwrap_or(&field.name);
                let short = full.rsplit('.').next().unwrap_or(full).to_string();
                w.string(&short)
            })
            .collect();
        let runtime = w.string("<runtime>");
        fields.extend(std::iter::repeat_n(runtime, c.extras));
        let mut types = vec![2u8; fields.len()];
        for r in &c.values {
            let (_, name, ty) = r.field();
            fields.push(w.string(name));
            types.push(ty);
        }
        w.u8(sub::CLASS_DUMP);
        w.id(class_id(c.id));
        w.u32(0);
        w.id(c.superclass.filter(|s| by_id.contains_key(s)).map_or(0, class_id));
        w.id(c.loader);
        w.id(0);
        w.id(0);
        w.id(0);
        w.id(0);
        w.u32(c.size.min(u64::from(u32::MAX)) as u32);
        w.heap.extend_from_slice(&0u16.to_be_bytes());
        w.heap.extend_from_slice(&0u16.to_be_bytes());
        w.heap.extend_from_slice(&(fields.len().min(u16::MAX as usize) as u16).to_be_bytes());
        for (name, ty) in fields.into_iter().zip(types).take(u16::MAX as usize) {
            w.id(name);
            w.u8(ty);
        }
        w.flush_segment(false);
    }
    // Roots, with Android's tags.
    for &(id, RootType(kind)) in &g.roots {
        let tag = match kind {
            1 => sub::ROOT_JNI_GLOBAL,
            2 => sub::ROOT_JNI_LOCAL,
            3 => sub::ROOT_JAVA_FRAME,
            4 => sub::ROOT_NATIVE_STACK,
            5 => sub::ROOT_STICKY_CLASS,
            6 => sub::ROOT_THREAD_BLOCK,
            7 => sub::ROOT_MONITOR_USED,
            8 => sub::ROOT_THREAD_OBJECT,
            9 => sub::ROOT_INTERNED_STRING,
            10 => sub::ROOT_FINALIZING,
            11 => sub::ROOT_DEBUGGER,
            12 => sub::ROOT_REFERENCE_CLEANUP,
            13 => sub::ROOT_VM_INTERNAL,
            14 => sub::ROOT_JNI_MONITOR,
            _ => sub::ROOT_UNKNOWN,
        };
        w.u8(tag);
        w.id(id);
        let tail = sub::root_tail_len(tag, usize::from(ids.size)).unwrap_or(0);
        w.heap.extend(std::iter::repeat_n(0u8, tail));
    }
    // Objects, each heap announced when it changes.
    let mut heap = None;
    for o in &g.objects {
        let kind = match o.heap.0 {
            2 => Some((u32::from(b'Z'), "zygote")),
            3 => Some((u32::from(b'I'), "image")),
            1 => Some((u32::from(b'A'), "app")),
            _ => None,
        };
        if kind.is_some() && kind != heap {
            if let Some((code, name)) = kind {
                let name_id = w.string(name);
                w.u8(sub::HEAP_DUMP_INFO);
                w.u32(code);
                w.id(name_id);
            }
            heap = kind;
        }
        let name = types.get(&o.type_id).map_or("", |&i| g.types[i].name.as_str());
        let element = name.strip_suffix("[]");
        match element {
            Some(e) if !e.ends_with("[]") && primitive(e).is_some() => {
                let (code, size) = primitive(e).unwrap_or((8, 1));
                w.u8(sub::PRIMITIVE_ARRAY_NODATA);
                w.id(o.id);
                w.u32(0);
                w.u32((o.self_size / size).min(u64::from(u32::MAX)) as u32);
                w.u8(code);
            }
            Some(_) => {
                w.u8(sub::OBJECT_ARRAY_DUMP);
                w.id(o.id);
                w.u32(0);
                w.u32(o.refs.len() as u32);
                w.id(class_id(o.type_id));
                for r in &o.refs {
                    w.id(r.target);
                }
            }
            None => {
                // Class by class up the chain, each slot filled with the reference its field
                // names; at the object's own class, the references no slot takes.
                let mut left: Vec<Option<&super::Reference>> = o.refs.iter().map(Some).collect();
                let mut take = |f: u32| -> u64 {
                    let at = left.iter().position(|r| r.is_some_and(|r| r.field == Some(f)));
                    at.and_then(|i| left[i].take()).map_or(0, |r| r.target)
                };
                let mut slots: Vec<u64> = Vec::new();
                let mut own_extras = 0;
                let (mut cur, mut depth) = (Some(o.type_id), 0);
                let mut chain = Vec::new();
                while let (Some(i), true) = (cur.and_then(|c| by_id.get(&c).copied()), depth < 512) {
                    slots.extend(classes[i].fields.iter().map(|&f| take(f)));
                    if depth == 0 {
                        own_extras = slots.len();
                    }
                    slots.extend(std::iter::repeat_n(0, classes[i].extras));
                    chain.push((i, slots.len()));
                    cur = classes[i].superclass;
                    depth += 1;
                }
                // The unnamed references, into the object's own class's extra slots.
                let unnamed: Vec<u64> = left.iter().flatten().map(|r| r.target).collect();
                let room = by_id.get(&o.type_id).map_or(0, |&i| classes[i].extras);
                for (k, t) in unnamed.into_iter().take(room).enumerate() {
                    slots[own_extras + k] = t;
                }
                // Each class's slots, then the values it records (a value the object lacks: 0).
                let mut data = Vec::with_capacity(slots.len() * usize::from(ids.size));
                let mut from = 0;
                for (i, end) in chain {
                    for &v in &slots[from..end] {
                        if ids.size == 4 {
                            data.extend_from_slice(&(v as u32).to_be_bytes());
                        } else {
                            data.extend_from_slice(&v.to_be_bytes());
                        }
                    }
                    from = end;
                    for r in &classes[i].values {
                        let v = o.values.iter().find(|(k, _)| k == r).map_or(0, |&(_, v)| v);
                        match r.field().2 {
                            10 => data.extend_from_slice(&(v as i32).to_be_bytes()),
                            _ => data.extend_from_slice(&v.to_be_bytes()),
                        }
                    }
                }
                w.u8(sub::INSTANCE_DUMP);
                w.id(o.id);
                w.u32(0);
                w.id(class_id(o.type_id));
                w.u32(data.len() as u32);
                w.heap.extend_from_slice(&data);
            }
        }
        w.flush_segment(false);
    }
    w.flush_segment(true);
    w.record(record::HEAP_DUMP_END, &[]);
    w.out
}
