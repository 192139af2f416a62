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
//!
//! A class has as many `<runtime>` fields as most of its objects need, never so many that the
//! padding passes twice the references it holds (plus 8 a object): an object with more keeps
//! them all in an array of its own (class `<runtime>[]`, ids after the classes', size 0), its
//! first `<runtime>` field pointing to it. So what is written grows with the graph, not with
//! its largest object times its type's count. [`Layout::size`] is known before anything is
//! written, and [`write_to`] streams (segments of a few MiB).

use std::collections::{HashMap, HashSet};
use std::io::Write;

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
    /// The id of the `<runtime>[]` class.
    runtime: u64,
    /// The first `<runtime>[]` array's id; the others follow.
    arrays: u64,
}

impl Ids {
    /// The layout for `g` and `arrays` `<runtime>[]` arrays.
    fn with_arrays(g: &Graph, arrays: u64) -> Ids {
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
        let end = base.checked_add(last_type).and_then(|c| c.checked_add(3)).and_then(|c| c.checked_add(arrays));
        match end {
            Some(end) if end <= u64::from(u32::MAX) => {
                let reference = base + last_type + 1;
                Ids { size: 4, base, reference, runtime: reference + 1, arrays: reference + 2 }
            }
            _ => Ids {
                size: 8,
                base: CLASS_BIT,
                reference: CLASS_BIT | (1 << 61),
                runtime: CLASS_BIT | (1 << 61) | 1,
                arrays: 1 << 60,
            },
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

/// The HPROF being written: records straight to `out`, heap sub-records gathered into
/// segments of [`SEGMENT`] bytes.
struct Writer<W: Write> {
    out: W,
    written: u64,
    id_size: u8,
    strings: HashMap<String, u64>,
    heap: Vec<u8>,
}

/// The size at which a heap dump segment is ended.
const SEGMENT: usize = 8 << 20;

impl<W: Write> Writer<W> {
    fn raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.written += bytes.len() as u64;
        self.out.write_all(bytes)
    }

    fn record(&mut self, tag: u8, body: &[u8]) -> std::io::Result<()> {
        let mut head = [0u8; 9];
        head[0] = tag;
        head[5..].copy_from_slice(&(body.len() as u32).to_be_bytes());
        self.raw(&head)?;
        self.raw(body)
    }

    fn string(&mut self, s: &str) -> std::io::Result<u64> {
        if let Some(&id) = self.strings.get(s) {
            return Ok(id);
        }
        let id = self.strings.len() as u64 + 1;
        let mut body = Vec::with_capacity(8 + s.len());
        self.body_id(&mut body, id);
        body.extend_from_slice(s.as_bytes());
        self.record(record::STRING, &body)?;
        self.strings.insert(s.to_string(), id);
        Ok(id)
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

    /// Ends the current heap dump segment when it is large enough (or `force`).
    fn flush_segment(&mut self, force: bool) -> std::io::Result<()> {
        if !self.heap.is_empty() && (force || self.heap.len() > SEGMENT) {
            let heap = std::mem::take(&mut self.heap);
            self.record(record::HEAP_DUMP_SEGMENT, &heap)?;
            self.heap = heap;
            self.heap.clear();
        }
        Ok(())
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

/// The most fields a class may have (a CLASS DUMP counts them in 16 bits).
const MAX_FIELDS: usize = u16::MAX as usize;
/// The most fields a class's whole chain may have, its superclasses' included: readers resolve a
/// layout of at most 65,536 (the engine's index does). Named fields past it are left to
/// `<runtime>` slots, slots past it to the `<runtime>[]` arrays.
const MAX_CHAIN: usize = 60_000;

/// An object's references, handed to the slots their fields name, each at most once; what no
/// slot takes is left, in the object's order.
struct Pool<'g> {
    refs: &'g [super::Reference],
    used: Vec<bool>,
    /// For objects of many references: their positions sorted by field, and where each field's
    /// run starts.
    sorted: Option<(Vec<usize>, HashMap<u32, usize>)>,
}

impl<'g> Pool<'g> {
    fn new(refs: &'g [super::Reference]) -> Pool<'g> {
        let sorted = (refs.len() > 16).then(|| {
            let mut order: Vec<usize> = (0..refs.len()).filter(|&i| refs[i].field.is_some()).collect();
            order.sort_by_key(|&i| (refs[i].field, i));
            let mut starts = HashMap::new();
            for (k, &i) in order.iter().enumerate() {
                if let Some(f) = refs[i].field {
                    starts.entry(f).or_insert(k);
                }
            }
            (order, starts)
        });
        Pool { refs, used: vec![false; refs.len()], sorted }
    }

    /// The first reference not yet taken whose field is `f`.
    fn take(&mut self, f: u32) -> Option<u64> {
        let at = match &mut self.sorted {
            None => (0..self.refs.len()).find(|&i| !self.used[i] && self.refs[i].field == Some(f)),
            Some((order, starts)) => {
                let k = starts.get_mut(&f)?;
                let i = *order.get(*k).filter(|&&i| self.refs[i].field == Some(f))?;
                *k += 1;
                Some(i)
            }
        }?;
        self.used[at] = true;
        Some(self.refs[at].target)
    }

    /// The references no slot took.
    fn left(&self) -> impl Iterator<Item = u64> + '_ {
        self.refs.iter().zip(&self.used).filter(|(_, &u)| !u).map(|(r, _)| r.target)
    }
}

/// How a graph is written: its classes, each object's class chain, and its ids.
pub struct Layout {
    /// The ids.
    pub ids: Ids,
    classes: Vec<Class>,
    by_id: HashMap<u64, usize>,
    /// Per class: its chain up to the root class (indexes, itself first).
    chains: Vec<Vec<usize>>,
    /// Objects whose references no slots take all of, in the graph's order (indexes).
    overflow: Vec<usize>,
}

impl Layout {
    /// The layout of `g`.
    pub fn of(g: &Graph) -> Layout {
        let (classes, by_id, chains, overflow) = classes(g);
        let ids = Ids::with_arrays(g, overflow.len() as u64);
        Layout { ids, classes, by_id, chains, overflow }
    }

    /// The ids of the `<runtime>[]` arrays.
    pub fn runtime_arrays(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.overflow.len() as u64).map(|k| self.ids.arrays + k)
    }

    /// The id of the `<runtime>[]` class, when the graph needs one.
    pub fn runtime_class(&self) -> Option<u64> {
        (!self.overflow.is_empty()).then_some(self.ids.runtime)
    }

    /// The bytes [`write_to`] writes for `g` (counted by writing to nothing).
    pub fn size(&self, g: &Graph) -> u64 {
        write_to(g, self, std::io::sink()).unwrap_or(u64::MAX)
    }
}

/// The chain of type `id` (class indexes, itself first; a cycle stops at its first repeat).
fn chain_of(classes: &[Class], by_id: &HashMap<u64, usize>, id: u64) -> Vec<usize> {
    let mut v = Vec::new();
    let mut cur = Some(id);
    while let Some(i) = cur.and_then(|c| by_id.get(&c).copied()) {
        if v.contains(&i) || v.len() > 512 {
            break;
        }
        v.push(i);
        cur = classes[i].superclass;
    }
    v
}

/// How many of `refs` no slot of `slots` (field → slots naming it) takes.
fn unnamed(refs: &[super::Reference], slots: &HashMap<u32, u32>) -> usize {
    let mut fields: Vec<u32> = refs.iter().filter_map(|r| r.field).filter(|f| slots.contains_key(f)).collect();
    fields.sort_unstable();
    let mut taken = 0;
    for run in fields.chunk_by(|a, b| a == b) {
        taken += run.len().min(slots.get(&run[0]).copied().unwrap_or(0) as usize);
    }
    refs.len() - taken
}

/// The `<runtime>` slots a class's objects get, from how many references each of its own
/// instances leaves unnamed (`counts`, sorted here) and how many instances of its subclasses carry
/// its slots too (`zeros`, needing none of them): the most any needs, unless padding every one
/// to that passes twice the references they hold plus 8 slots each; then the largest count that
/// does not. At least 1 when some object needs more (its slot points to its `<runtime>[]` array).
fn room(counts: &mut [u32], zeros: u64, cap: usize) -> usize {
    counts.sort_unstable();
    let own = counts.len() as u64;
    let n = own + zeros;
    let mut below = 0u64;
    let mut best = 0u64;
    for (k, &c) in counts.iter().enumerate() {
        // Every object padded to c: the slots against the references they fill.
        let filled = below + u64::from(c) * (own - k as u64);
        if n.saturating_mul(u64::from(c)) <= 2 * filled + 8 * n {
            best = u64::from(c);
        }
        below += u64::from(c);
    }
    let max = counts.last().copied().unwrap_or(0);
    let mut k = (best as usize).min(cap);
    if (max as usize) > k {
        k = k.max(1).min(cap.max(1));
    }
    k
}

type Classes = (Vec<Class>, HashMap<u64, usize>, Vec<Vec<usize>>, Vec<usize>);

/// The classes to write: the graph's types, each with the fields its objects use (older traces
/// name fields per object, not per type), a `referent` moved to a `java.lang.ref.Reference` the
/// reference types reach, and room for the references no field names; with each class's chain
/// and the objects that need a `<runtime>[]` array.
fn classes(g: &Graph) -> Classes {
    let mut out: Vec<Class> = g
        .types
        .iter()
        .map(|t| Class {
            id: t.id,
            name: t.deobfuscated.clone().unwrap_or_else(|| t.name.clone()),
            superclass: t.superclass,
            fields: t.fields.iter().copied().take(MAX_CHAIN).collect(),
            extras: 0,
            values: Vec::new(),
            loader: t.classloader.unwrap_or(0),
            size: t.object_size,
        })
        .collect();
    let by_id: HashMap<u64, usize> = out.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    // Fields objects name that their type chain does not: the object's own type's.
    let mut own: Vec<HashSet<u32>> = out.iter().map(|c| c.fields.iter().copied().collect()).collect();
    let mut chains: HashMap<u64, Vec<usize>> = HashMap::new();
    for o in &g.objects {
        let Some(&i) = by_id.get(&o.type_id) else { continue };
        let chain = chains.entry(o.type_id).or_insert_with(|| chain_of(&out, &by_id, o.type_id));
        for f in o.refs.iter().filter_map(|r| r.field) {
            if out[i].fields.len() < MAX_CHAIN && !chain.iter().any(|&k| own[k].contains(&f)) {
                out[i].fields.push(f);
                own[i].insert(f);
            }
        }
    }
    drop(own);
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
            let top = *chain_of(&out, &by_id, t.id).last().unwrap_or(&i);
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
    // Each class's chain, and each class's own instances (arrays write their references as
    // elements: they take no slots; told as `write_to` tells them, by their type's name).
    let by_id: HashMap<u64, usize> = out.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let chains: Vec<Vec<usize>> = out.iter().map(|c| chain_of(&out, &by_id, c.id)).collect();
    let types: HashMap<u64, usize> = g.types.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); out.len()];
    for (n, o) in g.objects.iter().enumerate() {
        let Some(&i) = by_id.get(&o.type_id) else { continue };
        for &(r, _) in &o.values {
            if !out[i].values.contains(&r) {
                out[i].values.push(r);
            }
        }
        if types.get(&o.type_id).is_some_and(|&t| g.types[t].name.ends_with("[]")) {
            continue;
        }
        members[i].push(n as u32);
    }
    for c in &mut out {
        c.values.sort();
    }
    // The instances of its subclasses carry a class's slots too.
    let mut below = vec![0u64; out.len()];
    for (i, chain) in chains.iter().enumerate() {
        for &k in chain.iter().skip(1) {
            below[k] += members[i].len() as u64;
        }
    }
    // Superclasses first: each class's named fields cut to what its chain may hold beside what
    // is above it, then its own `<runtime>` slots sized by what its objects leave unnamed.
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by_key(|&i| chains[i].len());
    let mut left: Vec<u32> = vec![0; g.objects.len()];
    for &i in &order {
        let above: usize =
            chains[i].iter().skip(1).map(|&k| out[k].fields.len() + out[k].values.len() + out[k].extras).sum();
        let own_room = MAX_CHAIN.saturating_sub(above + out[i].values.len());
        // One slot kept for a `<runtime>[]` array's id.
        out[i].fields.truncate(own_room.saturating_sub(1));
        let mut slots: HashMap<u32, u32> = HashMap::new();
        for &k in &chains[i] {
            for &f in &out[k].fields {
                *slots.entry(f).or_insert(0) += 1;
            }
        }
        let mut counts: Vec<u32> = members[i]
            .iter()
            .map(|&n| {
                let u = unnamed(&g.objects[n as usize].refs, &slots).min(u32::MAX as usize) as u32;
                left[n as usize] = u;
                u
            })
            .collect();
        let cap = own_room.saturating_sub(out[i].fields.len());
        out[i].extras = room(&mut counts, below[i], cap);
    }
    // A chain that loops (a malformed trace) may still pass the bound: its slots give way.
    for &i in &order {
        let total: usize = chains[i].iter().map(|&k| out[k].fields.len() + out[k].values.len() + out[k].extras).sum();
        let over = total.saturating_sub(MAX_CHAIN);
        out[i].extras -= over.min(out[i].extras);
    }
    // In the graph's order, as `write_to` meets them.
    let mut overflow: Vec<usize> = (0..out.len())
        .flat_map(|i| members[i].iter().map(move |&n| (i, n)))
        .filter(|&(i, n)| left[n as usize] as usize > out[i].extras)
        .map(|(_, n)| n as usize)
        .collect();
    overflow.sort_unstable();
    (out, by_id, chains, overflow)
}

/// The graph as HPROF bytes, with ids laid out as [`Layout::of`] says (small graphs; a large
/// one goes to a file with [`write_to`]).
pub fn write(g: &Graph) -> Vec<u8> {
    let layout = Layout::of(g);
    let mut out = Vec::new();
    // Writing to memory fails only when memory does.
    let _ = write_to(g, &layout, &mut out);
    out
}

/// The graph as HPROF in an unnamed file in `dir` (else `TMPDIR`), created exclusively and gone
/// when closed, read from its start. Its size is counted first and refused past the space the
/// file system offers ([`crate::expand`]).
pub fn to_file(g: &Graph, layout: &Layout, dir: Option<&std::path::Path>) -> std::io::Result<std::fs::File> {
    let size = layout.size(g);
    let made = dir.map(|d| (tempfile::tempfile_in(d), d.to_path_buf()));
    let (mut file, at) = match made {
        Some((Ok(f), d)) => (f, d),
        _ => (tempfile::tempfile()?, std::env::temp_dir()),
    };
    if let Some(space) = crate::expand::Space::of_file(&file, &at) {
        if size > space.usable() {
            let budget = crate::expand::Budget { limit: space.usable(), bound: crate::expand::Bound::Space(space) };
            return Err(std::io::Error::other(format!("{size} bytes: {}", budget.exceeded())));
        }
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 20, &file);
    write_to(g, layout, &mut out)?;
    drop(out);
    std::io::Seek::rewind(&mut file)?;
    Ok(file)
}

/// Writes the graph as HPROF to `out`; the bytes written.
pub fn write_to(g: &Graph, layout: &Layout, out: impl Write) -> std::io::Result<u64> {
    let ids = layout.ids;
    let classes = &layout.classes;
    let class_id = |type_id: u64| if type_id == REFERENCE_TYPE { ids.reference } else { ids.class(type_id) };
    let mut w = Writer { out, written: 0, id_size: ids.size, strings: HashMap::new(), heap: Vec::new() };
    w.raw(b"JAVA PROFILE 1.0.3\0")?;
    w.raw(&u32::from(ids.size).to_be_bytes())?;
    w.raw(&g.timestamp.to_be_bytes())?;
    let types: HashMap<u64, usize> = g.types.iter().enumerate().map(|(i, t)| (t.id, i)).collect();
    // Classes: LOAD CLASS and CLASS DUMP each.
    let mut serial = 0u32;
    let mut load = |w: &mut Writer<_>, id: u64, name: &str| -> std::io::Result<()> {
        let name_id = w.string(name)?;
        serial += 1;
        let mut body = serial.to_be_bytes().to_vec();
        w.body_id(&mut body, id);
        body.extend_from_slice(&0u32.to_be_bytes());
        w.body_id(&mut body, name_id);
        w.record(record::LOAD_CLASS, &body)
    };
    let class_dump = |w: &mut Writer<_>, id: u64, superclass: u64, loader: u64, size: u64, fields: &[(u64, u8)]| {
        w.u8(sub::CLASS_DUMP);
        w.id(id);
        w.u32(0);
        w.id(superclass);
        w.id(loader);
        w.id(0);
        w.id(0);
        w.id(0);
        w.id(0);
        w.u32(size.min(u64::from(u32::MAX)) as u32);
        w.heap.extend_from_slice(&0u16.to_be_bytes());
        w.heap.extend_from_slice(&0u16.to_be_bytes());
        w.heap.extend_from_slice(&(fields.len().min(MAX_FIELDS) as u16).to_be_bytes());
        for &(name, ty) in fields.iter().take(MAX_FIELDS) {
            w.id(name);
            w.u8(ty);
        }
    };
    for c in classes {
        load(&mut w, class_id(c.id), &c.name)?;
        let mut fields: Vec<(u64, u8)> = Vec::with_capacity(c.fields.len() + c.extras + c.values.len());
        for &f in &c.fields {
            let field = &g.fields[f as usize];
            let full = field.deobfuscated.as_deref().unwrap_or(&field.name);
            let short = full.rsplit('.').next().unwrap_or(full);
            fields.push((w.string(short)?, 2));
        }
        let runtime = w.string("<runtime>")?;
        fields.extend(std::iter::repeat_n((runtime, 2), c.extras));
        for r in &c.values {
            let (_, name, ty) = r.field();
            fields.push((w.string(name)?, ty));
        }
        let superclass = c.superclass.filter(|s| layout.by_id.contains_key(s)).map_or(0, class_id);
        class_dump(&mut w, class_id(c.id), superclass, c.loader, c.size, &fields);
        w.flush_segment(false)?;
    }
    if let Some(id) = layout.runtime_class() {
        load(&mut w, id, "<runtime>[]")?;
        class_dump(&mut w, id, 0, 0, 0, &[]);
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
        w.flush_segment(false)?;
    }
    // Objects, each heap announced when it changes.
    let mut heap = None;
    // The objects whose references go to a `<runtime>[]` array; the kth's array has id
    // `ids.arrays + k`, as [`Layout::runtime_arrays`] lists them.
    let mut overflow = layout.overflow.iter().enumerate().peekable();
    let mut slots: Vec<u64> = Vec::new();
    for (n, o) in g.objects.iter().enumerate() {
        let kind = match o.heap.0 {
            2 => Some((u32::from(b'Z'), "zygote")),
            3 => Some((u32::from(b'I'), "image")),
            1 => Some((u32::from(b'A'), "app")),
            _ => None,
        };
        if kind.is_some() && kind != heap {
            if let Some((code, name)) = kind {
                let name_id = w.string(name)?;
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
                w.u32(o.refs.len().min(u32::MAX as usize) as u32);
                w.id(class_id(o.type_id));
                for r in &o.refs {
                    w.id(r.target);
                }
            }
            None => {
                // Class by class up the chain, each slot filled with the reference its field
                // names; at the object's own class, the references no slot takes (or, when
                // they pass its room, the id of the array holding them all).
                let chain = layout.by_id.get(&o.type_id).map_or(&[][..], |&i| &layout.chains[i][..]);
                let mut pool = Pool::new(&o.refs);
                slots.clear();
                let mut ends = Vec::with_capacity(chain.len());
                let mut own_extras = 0;
                for (depth, &i) in chain.iter().enumerate() {
                    for &f in &classes[i].fields {
                        let v = pool.take(f).unwrap_or(0);
                        slots.push(v);
                    }
                    if depth == 0 {
                        own_extras = slots.len();
                    }
                    slots.extend(std::iter::repeat_n(0, classes[i].extras));
                    ends.push(slots.len());
                }
                let room = chain.first().map_or(0, |&i| classes[i].extras);
                while overflow.peek().is_some_and(|&(_, &k)| k < n) {
                    overflow.next();
                }
                let array = match overflow.peek() {
                    Some(&(k, &at)) if at == n => {
                        overflow.next();
                        Some(ids.arrays + k as u64)
                    }
                    _ => None,
                };
                match array {
                    Some(id) if room > 0 => slots[own_extras] = id,
                    _ => {
                        for (k, t) in pool.left().take(room).enumerate() {
                            slots[own_extras + k] = t;
                        }
                    }
                }
                // Each class's slots, then the values it records (a value the object lacks: 0).
                let mut data = Vec::with_capacity(slots.len() * usize::from(ids.size));
                let mut from = 0;
                for (&i, &end) in chain.iter().zip(&ends) {
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
                if let Some(id) = array {
                    let left: Vec<u64> = pool.left().collect();
                    w.u8(sub::OBJECT_ARRAY_DUMP);
                    w.id(id);
                    w.u32(0);
                    w.u32(left.len().min(u32::MAX as usize) as u32);
                    w.id(ids.runtime);
                    for t in left {
                        w.id(t);
                    }
                }
            }
        }
        w.flush_segment(false)?;
    }
    w.flush_segment(true)?;
    w.record(record::HEAP_DUMP_END, &[])?;
    w.out.flush()?;
    Ok(w.written)
}
