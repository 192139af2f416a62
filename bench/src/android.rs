//! An Android-shaped dump for the suite, converted from a HeapGen (HotSpot) dump: no ART runs
//! here to make a real one, and the Android fixtures are a few MB.
//!
//! What makes a dump Android-shaped for the engine, and what the conversion does:
//! - `JAVA PROFILE 1.0.3` with 4-byte ids: object ids become `address >> 3` (HotSpot's
//!   addresses are 8-aligned and below 32 GB with compressed oops); string and stack-frame ids,
//!   which are symbol addresses, are renumbered from 1; every id in every record is rewritten,
//!   instance field data included (through the class layouts), so records shrink.
//! - Class names in Android's source form (`java.lang.String`, `int[]`).
//! - Three heaps announced by HEAP DUMP INFO: the boot classes' class objects in `image`, the first
//!   tenth of the objects in file order (HotSpot writes the oldest first) in `zygote`, the rest in
//!   `app`, switching as ART's writer does whenever the heap changes.
//!
//! The object graph, sizes of primitive data and GC roots are HeapGen's, so the analysis of the
//! result is comparable with the original's; the shallow sizes follow the Android model.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use heap::hprof::{parse_header, read_sub_record, BasicType, Cursor, Records, SubRecord, TopRecord};
use heap::spec::heap_type::{APP as HEAP_APP, IMAGE as HEAP_IMAGE, ZYGOTE as HEAP_ZYGOTE};
use heap::spec::{record, sub};
use rustc_hash::{FxHashMap, FxHashSet};

/// The Android-shaped version of HeapGen's `mb` dump, made once into the cache.
pub fn dump(mb: u64) -> Result<PathBuf> {
    let src = crate::make_dump(mb)?;
    let stem = src.file_stem().and_then(|s| s.to_str()).unwrap_or("heapgen");
    let out = crate::cache_dir().join(format!("{stem}-android.hprof"));
    if !out.exists() {
        eprintln!("converting {} to an Android-shaped dump ...", src.display());
        let tmp = out.with_extension("part");
        convert(&src, &tmp)?;
        std::fs::rename(&tmp, &out)?;
    }
    Ok(out)
}

struct Ids {
    names: FxHashMap<u64, u32>,
}

impl Ids {
    fn object(id: u64) -> Result<u32> {
        if id & 7 != 0 || id >> 35 != 0 {
            bail!("object id {id:#x} is not an 8-aligned address below 32 GB");
        }
        Ok((id >> 3) as u32)
    }

    /// String and frame ids: renumbered in order of first sight (0 stays 0).
    fn name(&mut self, id: u64) -> u32 {
        if id == 0 {
            return 0;
        }
        let next = self.names.len() as u32 + 1;
        *self.names.entry(id).or_insert(next)
    }
}

fn put4(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_be_bytes());
}

/// Converts the HotSpot dump at `src` (8-byte ids) into an Android-shaped one at `dst`.
pub fn convert(src: &Path, dst: &Path) -> Result<()> {
    let file = std::fs::File::open(src)?;
    // SAFETY: the benchmark's own cached dump, not changed while it is read.
    let data = unsafe { memmap2::Mmap::map(&file)? };
    let header = parse_header(&data)?;
    if header.id_size != 8 {
        bail!("{} has {}-byte ids; the conversion reads 8-byte ones", src.display(), header.id_size);
    }
    let id_size = 8;

    // Pass 1: class layouts (own fields, then the superclass's), which strings name classes, and
    // how many objects there are.
    let mut own: FxHashMap<u64, (u64, Vec<BasicType>)> = FxHashMap::default();
    let mut class_names: FxHashSet<u64> = FxHashSet::default();
    let mut objects_total = 0u64;
    let mut records = Records::new(&data, header.records_start);
    while let Some(r) = records.next_record()? {
        match r.tag {
            record::LOAD_CLASS => {
                if let TopRecord::LoadClass { name_id, .. } = r.decode(&data, id_size)? {
                    class_names.insert(name_id);
                }
            }
            record::HEAP_DUMP | record::HEAP_DUMP_SEGMENT => {
                let mut c = Cursor::new(&data, r.body_offset, id_size);
                let end = r.body_offset + r.body.len();
                while c.pos() < end {
                    match read_sub_record(&mut c)? {
                        SubRecord::Class(cd) => {
                            own.insert(cd.id, (cd.super_id, cd.fields.iter().map(|f| f.ty).collect()));
                        }
                        SubRecord::Instance { .. }
                        | SubRecord::ObjectArray { .. }
                        | SubRecord::PrimitiveArray { .. } => {
                            objects_total += 1;
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    let layouts = layouts(&own);
    let zygote_until = objects_total / 10;

    // Pass 2: write.
    let mut w = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(dst)?);
    w.write_all(b"JAVA PROFILE 1.0.3\0")?;
    w.write_all(&4u32.to_be_bytes())?;
    w.write_all(&header.timestamp_ms.to_be_bytes())?;
    let mut ids = Ids { names: FxHashMap::default() };
    let emit = |w: &mut std::io::BufWriter<std::fs::File>, tag: u8, body: &[u8]| -> Result<()> {
        w.write_all(&[tag])?;
        w.write_all(&0u32.to_be_bytes())?;
        w.write_all(&u32::try_from(body.len()).context("record over 4 GB")?.to_be_bytes())?;
        w.write_all(body)?;
        Ok(())
    };
    // The heaps' names first, as ART writes its strings before the heap dump.
    let heap_name = |ids: &mut Ids, heap: u32| ids.name(u64::MAX - u64::from(heap));
    for (heap, name) in [(HEAP_IMAGE, "image"), (HEAP_ZYGOTE, "zygote"), (HEAP_APP, "app")] {
        let mut b = Vec::new();
        put4(&mut b, heap_name(&mut ids, heap));
        b.extend_from_slice(name.as_bytes());
        emit(&mut w, record::STRING, &b)?;
    }
    let mut seg: Vec<u8> = Vec::with_capacity(9 << 20);
    let mut current_heap = u32::MAX;
    let mut objects = 0u64;
    let mut records = Records::new(&data, header.records_start);
    while let Some(r) = records.next_record()? {
        let mut b = Vec::new();
        match r.decode(&data, id_size)? {
            TopRecord::String { id, utf8 } => {
                put4(&mut b, ids.name(id));
                if class_names.contains(&id) {
                    let raw = String::from_utf8_lossy(utf8);
                    b.extend_from_slice(heap::index::classes::java_name(&raw).as_bytes());
                } else {
                    b.extend_from_slice(utf8);
                }
                emit(&mut w, record::STRING, &b)?;
            }
            TopRecord::LoadClass { serial, class_id, stack_serial, name_id } => {
                put4(&mut b, serial);
                put4(&mut b, Ids::object(class_id)?);
                put4(&mut b, stack_serial);
                put4(&mut b, ids.name(name_id));
                emit(&mut w, record::LOAD_CLASS, &b)?;
            }
            TopRecord::StackFrame { id, method_name_id, signature_id, source_file_id, class_serial, line } => {
                for v in [id, method_name_id, signature_id, source_file_id] {
                    put4(&mut b, ids.name(v));
                }
                put4(&mut b, class_serial);
                b.extend_from_slice(&line.to_be_bytes());
                emit(&mut w, record::STACK_FRAME, &b)?;
            }
            TopRecord::StackTrace { serial, thread_serial, frames } => {
                put4(&mut b, serial);
                put4(&mut b, thread_serial);
                put4(&mut b, (frames.len() / 8) as u32);
                for f in frames.chunks_exact(8) {
                    let id = u64::from_be_bytes(f.try_into()?);
                    put4(&mut b, ids.name(id));
                }
                emit(&mut w, record::STACK_TRACE, &b)?;
            }
            TopRecord::HeapDump => {
                let mut c = Cursor::new(&data, r.body_offset, id_size);
                let end = r.body_offset + r.body.len();
                while c.pos() < end {
                    let start = c.pos();
                    let s = read_sub_record(&mut c)?;
                    let raw = &data[start..c.pos()];
                    let heap = match &s {
                        SubRecord::Class(cd) if cd.loader_id == 0 => Some(HEAP_IMAGE),
                        SubRecord::Class(_) => Some(HEAP_APP),
                        SubRecord::Instance { .. }
                        | SubRecord::ObjectArray { .. }
                        | SubRecord::PrimitiveArray { .. } => {
                            objects += 1;
                            Some(if objects <= zygote_until { HEAP_ZYGOTE } else { HEAP_APP })
                        }
                        _ => None,
                    };
                    if let Some(h) = heap.filter(|&h| h != current_heap) {
                        seg.push(sub::HEAP_DUMP_INFO);
                        put4(&mut seg, h);
                        put4(&mut seg, heap_name(&mut ids, h));
                        current_heap = h;
                    }
                    sub_record(&s, raw, &layouts, &mut ids, &mut seg)?;
                    if seg.len() > 8 << 20 {
                        emit(&mut w, record::HEAP_DUMP_SEGMENT, &seg)?;
                        seg.clear();
                        // Each segment says its heap again.
                        current_heap = u32::MAX;
                    }
                }
            }
            TopRecord::HeapDumpEnd => {
                if !seg.is_empty() {
                    emit(&mut w, record::HEAP_DUMP_SEGMENT, &seg)?;
                    seg.clear();
                }
                emit(&mut w, record::HEAP_DUMP_END, &[])?;
            }
            // Nothing else in an OpenJDK 17 dump matters to the engine.
            _ => {}
        }
    }
    if !seg.is_empty() {
        emit(&mut w, record::HEAP_DUMP_SEGMENT, &seg)?;
        emit(&mut w, record::HEAP_DUMP_END, &[])?;
    }
    w.flush()?;
    Ok(())
}

/// Each class's instance layout, its own fields first and then its superclasses', from each class's
/// own fields and superclass (`own`); a superclass chain longer than 64 is cut there.
pub(crate) fn layouts(own: &FxHashMap<u64, (u64, Vec<BasicType>)>) -> FxHashMap<u64, Vec<BasicType>> {
    let mut layouts = FxHashMap::default();
    for &class in own.keys() {
        let mut types = Vec::new();
        let mut cur = class;
        for _ in 0..64 {
            let Some((sup, fields)) = own.get(&cur) else { break };
            types.extend_from_slice(fields);
            cur = *sup;
        }
        layouts.insert(class, types);
    }
    layouts
}

/// One heap sub-record with 4-byte ids.
fn sub_record(
    s: &SubRecord<'_>,
    raw: &[u8],
    layouts: &FxHashMap<u64, Vec<BasicType>>,
    ids: &mut Ids,
    out: &mut Vec<u8>,
) -> Result<()> {
    let id8 = |b: &[u8]| u64::from_be_bytes(b[..8].try_into().unwrap_or([0; 8]));
    match s {
        SubRecord::Root { id, .. } => {
            let tag = raw[0];
            out.push(tag);
            put4(out, Ids::object(*id)?);
            if tag == sub::ROOT_JNI_GLOBAL {
                put4(out, ids.name(id8(&raw[9..])));
            } else {
                out.extend_from_slice(&raw[9..]);
            }
        }
        SubRecord::Class(cd) => {
            out.push(sub::CLASS_DUMP);
            put4(out, Ids::object(cd.id)?);
            put4(out, cd.stack_serial);
            for v in [cd.super_id, cd.loader_id, cd.signers_id, cd.protection_domain_id, 0, 0] {
                put4(out, Ids::object(v)?);
            }
            put4(out, cd.instance_size);
            out.extend_from_slice(&0u16.to_be_bytes()); // constant pool: none
            out.extend_from_slice(&(cd.statics.len() as u16).to_be_bytes());
            for st in &cd.statics {
                put4(out, ids.name(st.name_id));
                out.push(st.ty.code());
                if st.ty == BasicType::Object {
                    put4(out, Ids::object(id8(st.value))?);
                } else {
                    out.extend_from_slice(st.value);
                }
            }
            out.extend_from_slice(&(cd.fields.len() as u16).to_be_bytes());
            for f in &cd.fields {
                put4(out, ids.name(f.name_id));
                out.push(f.ty.code());
            }
        }
        SubRecord::Instance { id, stack_serial, class_id, data } => {
            let layout = layouts.get(class_id).map_or(&[][..], Vec::as_slice);
            let mut body = Vec::with_capacity(data.len());
            let mut at = 0usize;
            for &ty in layout {
                let n = ty.size(8) as usize;
                let Some(v) = data.get(at..at + n) else { bail!("instance {id:#x} shorter than its class") };
                if ty == BasicType::Object {
                    put4(&mut body, Ids::object(id8(v))?);
                } else {
                    body.extend_from_slice(v);
                }
                at += n;
            }
            out.push(sub::INSTANCE_DUMP);
            put4(out, Ids::object(*id)?);
            put4(out, *stack_serial);
            put4(out, Ids::object(*class_id)?);
            put4(out, body.len() as u32);
            out.extend_from_slice(&body);
        }
        SubRecord::ObjectArray { id, stack_serial, length, class_id, elements } => {
            out.push(sub::OBJECT_ARRAY_DUMP);
            put4(out, Ids::object(*id)?);
            put4(out, *stack_serial);
            put4(out, *length);
            put4(out, Ids::object(*class_id)?);
            for e in elements.chunks_exact(8) {
                put4(out, Ids::object(id8(e))?);
            }
        }
        SubRecord::PrimitiveArray { id, stack_serial, length, elem, data } => {
            out.push(sub::PRIMITIVE_ARRAY_DUMP);
            put4(out, Ids::object(*id)?);
            put4(out, *stack_serial);
            put4(out, *length);
            out.push(elem.code());
            out.extend_from_slice(data.unwrap_or(&[]));
        }
        SubRecord::HeapDumpInfo { .. } | SubRecord::Unreachable { .. } => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A HotSpot fixture converted keeps its graph: the same objects (ids `>> 3`), references,
    /// GC roots and dominator tree (retained counts are model-free), with class names in
    /// Android's form and the objects spread over the three heaps.
    #[test]
    fn conversion_keeps_the_graph() {
        let (a, b) = crate::fixture_and("android", convert);
        assert_eq!(b.index.header.id_size, 4);
        assert_eq!(b.index.sizer.model, heap::SizeModel::Android);
        assert_eq!(a.index.len(), b.index.len());
        assert_eq!(a.index.graph().len(), b.index.graph().len());
        assert_eq!(a.index.roots().len(), b.index.roots().len());
        assert_eq!(a.dominators.reachable_objects, b.dominators.reachable_objects);
        for n in a.index.nodes() {
            let m = b.index.node(a.index.id(n) >> 3).expect("every object kept");
            assert_eq!(a.dominators.retained_count(n), b.dominators.retained_count(m));
            assert_eq!(a.index.class(n).name, b.index.class(m).name);
        }
        let heaps: Vec<&str> = b.index.heaps.iter().map(|h| h.name.as_str()).collect();
        for h in ["image", "zygote", "app"] {
            assert!(heaps.contains(&h), "{heaps:?}");
        }
        assert!(b.index.classes_named("java.lang.String").next().is_some());
    }
}
