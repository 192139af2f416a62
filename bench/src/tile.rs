//! Dumps larger than this machine's memory: HeapGen's dump repeated. No JVM here can hold a 32 GB
//! heap, and a generator of ours would guess at what a JVM's dump holds; repeating a real one keeps
//! its classes, its object shapes and its share of strings, arrays and references exactly.
//!
//! `tile(src, dst, copies)` writes the source's records once and its objects `copies` times.
//! - Copy `j` adds `j × stride` to every object's id, the stride being a power of two above every
//!   id in the source, so no two copies share an object. Class ids and null stay as they are: the
//!   classes are written once, and every copy's objects are instances of them.
//! - Each copy is held as the original is. Its GC roots are the original's, shifted, with thread
//!   serials shifted too, so each copy has threads of its own whose stack locals are its own.
//!   What the classes hold in the original (static fields, loaders, signers, protection domains)
//!   is held in every later copy by an `UNKNOWN` root on the shifted object.
//! - So each copy's live objects are the original's, shifted, and the dump holds `copies` times
//!   the source's objects, references and object bytes (the test below checks this).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use heap::hprof::{parse_header, read_sub_record, BasicType, Cursor, Record, Records, SubRecord};
use heap::spec::{record, sub};
use rustc_hash::{FxHashMap, FxHashSet};

/// HeapGen's `mb` dump repeated `copies` times, made into the cache (`copies` 1: the dump itself).
pub fn dump(mb: u64, copies: u32) -> Result<PathBuf> {
    let src = crate::make_dump(mb)?;
    if copies <= 1 {
        return Ok(src);
    }
    let out = path(&src, copies);
    if !out.exists() {
        // A run stopped while writing leaves its part behind (and it would count as used).
        let _ = std::fs::remove_file(out.with_extension("part"));
        let need = std::fs::metadata(&src)?.len().saturating_mul(u64::from(copies));
        let free = free_bytes(&crate::cache_dir())?;
        if free < need + (1 << 30) {
            bail!(
                "{} copies of {} need {:.1} GB on disk and a GB to spare; {} has {:.1} GB free",
                copies,
                src.display(),
                need as f64 / 1e9,
                crate::cache_dir().display(),
                free as f64 / 1e9
            );
        }
        eprintln!("writing {copies} copies of {} to {} ...", src.display(), out.display());
        let tmp = out.with_extension("part");
        tile(&src, &tmp, copies)?;
        std::fs::rename(&tmp, &out)?;
    }
    Ok(out)
}

/// Where `copies` copies of the dump `src` are kept (`src` itself for one).
pub fn path(src: &Path, copies: u32) -> PathBuf {
    if copies <= 1 {
        return src.to_path_buf();
    }
    let stem = src.file_stem().and_then(|s| s.to_str()).unwrap_or("heapgen");
    crate::cache_dir().join(format!("{stem}-x{copies}.hprof"))
}

/// Bytes free to this user on the file system of `dir`.
fn free_bytes(dir: &Path) -> Result<u64> {
    let c = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes())?;
    // SAFETY: statvfs fills the zeroed struct it is given; `c` is a valid C string.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return Err(std::io::Error::last_os_error()).context(dir.display().to_string());
    }
    Ok(st.f_bavail as u64 * st.f_frsize as u64)
}

/// The source's classes, as the copies need them.
struct Source {
    /// Class object ids: never shifted.
    classes: FxHashSet<u64>,
    /// Instance layouts by class, own fields first.
    layouts: FxHashMap<u64, Vec<BasicType>>,
    /// Objects that class records refer to (statics, loaders, signers, protection domains).
    held_by_classes: Vec<u64>,
    /// Above every id in the source: copy `j` adds `j × stride`.
    stride: u64,
    /// Above every thread serial in the source: copy `j` adds `j × threads`.
    threads: u32,
}

fn read_source(data: &[u8], start: usize) -> Result<Source> {
    let mut own: FxHashMap<u64, (u64, Vec<BasicType>)> = FxHashMap::default();
    let mut held = Vec::new();
    let mut max_id = 0u64;
    let mut max_thread = 0u32;
    let mut records = Records::new(data, start);
    while let Some(r) = records.next_record()? {
        if r.tag != record::HEAP_DUMP && r.tag != record::HEAP_DUMP_SEGMENT {
            continue;
        }
        let mut c = Cursor::new(data, r.body_offset, 8);
        let end = r.body_offset + r.body.len();
        while c.pos() < end {
            match read_sub_record(&mut c)? {
                SubRecord::Class(cd) => {
                    max_id = max_id.max(cd.id);
                    for st in cd.statics.iter().filter(|s| s.ty == BasicType::Object) {
                        held.push(u64::from_be_bytes(st.value.try_into()?));
                    }
                    held.extend([cd.loader_id, cd.signers_id, cd.protection_domain_id]);
                    own.insert(cd.id, (cd.super_id, cd.fields.iter().map(|f| f.ty).collect()));
                }
                SubRecord::Instance { id, .. }
                | SubRecord::ObjectArray { id, .. }
                | SubRecord::PrimitiveArray { id, .. } => max_id = max_id.max(id),
                SubRecord::Root { thread, .. } => max_thread = max_thread.max(thread.unwrap_or(0)),
                _ => {}
            }
        }
    }
    let classes: FxHashSet<u64> = own.keys().copied().collect();
    held.retain(|id| *id != 0 && !classes.contains(id));
    held.sort_unstable();
    held.dedup();
    Ok(Source {
        layouts: crate::android::layouts(&own),
        classes,
        held_by_classes: held,
        stride: (max_id + 1).next_power_of_two(),
        threads: max_thread + 1,
    })
}

/// Writes `copies` copies of the objects of the HotSpot dump at `src` (8-byte ids) to `dst`.
pub fn tile(src: &Path, dst: &Path, copies: u32) -> Result<()> {
    let file = std::fs::File::open(src)?;
    // SAFETY: the benchmark's own cached dump, not changed while it is read.
    let data = unsafe { memmap2::Mmap::map(&file)? };
    let header = parse_header(&data)?;
    if header.id_size != 8 {
        bail!("{} has {}-byte ids; the tiling reads 8-byte ones", src.display(), header.id_size);
    }
    let source = read_source(&data, header.records_start)?;
    if source.stride.checked_mul(u64::from(copies)).is_none() {
        bail!("{copies} copies of ids up to {:#x} do not fit in 8 bytes", source.stride);
    }
    let mut w = Segments::new(std::fs::File::create_new(dst).with_context(|| dst.display().to_string())?);
    w.out.write_all(&data[..header.records_start])?;
    // Everything but the heap dump as it is; the heap dump's records, copied, where it ends (or
    // at the end of the file: older dumps have one HEAP DUMP record and no end).
    let mut records = Records::new(&data, header.records_start);
    let mut heap_records = Vec::new();
    while let Some(r) = records.next_record()? {
        match r.tag {
            record::HEAP_DUMP | record::HEAP_DUMP_SEGMENT => heap_records.push(r),
            record::HEAP_DUMP_END => {
                copy_heap(&data, &source, &std::mem::take(&mut heap_records), copies, &mut w)?;
                w.out.write_all(&data[r.offset..r.body_offset + r.body.len()])?;
            }
            _ => w.out.write_all(&data[r.offset..r.body_offset + r.body.len()])?,
        }
    }
    copy_heap(&data, &source, &heap_records, copies, &mut w)?;
    w.out.flush()?;
    Ok(())
}

/// The sub-records of `heap_records`, `copies` times, as HEAP DUMP SEGMENTs.
fn copy_heap(data: &[u8], source: &Source, heap_records: &[Record<'_>], copies: u32, w: &mut Segments) -> Result<()> {
    if heap_records.is_empty() {
        return Ok(());
    }
    for j in 0..u64::from(copies) {
        for r in heap_records {
            let mut c = Cursor::new(data, r.body_offset, 8);
            let end = r.body_offset + r.body.len();
            while c.pos() < end {
                let at = c.pos();
                let s = read_sub_record(&mut c)?;
                copy_sub_record(source, j, &s, &data[at..c.pos()], w)?;
            }
        }
        if j > 0 {
            for &id in &source.held_by_classes {
                w.sub(&[sub::ROOT_UNKNOWN])?;
                w.sub(&(id + j * source.stride).to_be_bytes())?;
                w.end_sub()?;
            }
        }
    }
    w.flush_segment()
}

/// The output: top-level records written as they come, heap sub-records gathered into
/// HEAP DUMP SEGMENTs of up to 64 MB.
struct Segments {
    out: std::io::BufWriter<std::fs::File>,
    seg: Vec<u8>,
}

impl Segments {
    const MAX: usize = 64 << 20;

    fn new(file: std::fs::File) -> Segments {
        Segments {
            out: std::io::BufWriter::with_capacity(1 << 20, file),
            seg: Vec::with_capacity(Self::MAX + (1 << 20)),
        }
    }

    /// Part of a sub-record (a segment only ends between whole ones, at `end_sub`).
    fn sub(&mut self, b: &[u8]) -> Result<()> {
        self.seg.extend_from_slice(b);
        Ok(())
    }

    fn end_sub(&mut self) -> Result<()> {
        if self.seg.len() >= Self::MAX {
            self.flush_segment()?;
        }
        Ok(())
    }

    fn flush_segment(&mut self) -> Result<()> {
        if self.seg.is_empty() {
            return Ok(());
        }
        self.out.write_all(&[record::HEAP_DUMP_SEGMENT])?;
        self.out.write_all(&0u32.to_be_bytes())?;
        self.out.write_all(&u32::try_from(self.seg.len()).context("segment over 4 GB")?.to_be_bytes())?;
        self.out.write_all(&self.seg)?;
        self.seg.clear();
        Ok(())
    }
}

/// Copy `j` of one heap sub-record (`raw`, parsed as `s`).
fn copy_sub_record(src: &Source, j: u64, s: &SubRecord<'_>, raw: &[u8], w: &mut Segments) -> Result<()> {
    let shift = |id: u64| if id == 0 || src.classes.contains(&id) { id } else { id + j * src.stride };
    let thread = |serial: u32| serial + j as u32 * src.threads;
    let patch = |b: &mut [u8], at: usize| {
        let id = u64::from_be_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]));
        b[at..at + 8].copy_from_slice(&shift(id).to_be_bytes());
    };
    if j == 0 {
        w.sub(raw)?;
        return w.end_sub();
    }
    let mut b = raw.to_vec();
    match s {
        SubRecord::Class(_) | SubRecord::HeapDumpInfo { .. } => return Ok(()),
        SubRecord::Root { id, .. } if src.classes.contains(id) => return Ok(()),
        SubRecord::Root { .. } => {
            patch(&mut b, 1);
            // The thread serial, where the root names one, follows the id (a JNI global's tail is
            // its reference's id instead).
            if b.len() >= 13 && raw[0] != sub::ROOT_JNI_GLOBAL {
                let t = u32::from_be_bytes(b[9..13].try_into()?);
                b[9..13].copy_from_slice(&thread(t).to_be_bytes());
            }
        }
        SubRecord::Instance { class_id, data, .. } => {
            patch(&mut b, 1);
            let mut at = b.len() - data.len();
            for &ty in src.layouts.get(class_id).map_or(&[][..], Vec::as_slice) {
                let n = ty.size(8) as usize;
                if at + n > b.len() {
                    break;
                }
                if ty == BasicType::Object {
                    patch(&mut b, at);
                }
                at += n;
            }
        }
        SubRecord::ObjectArray { elements, .. } => {
            patch(&mut b, 1);
            for at in (b.len() - elements.len()..b.len()).step_by(8) {
                patch(&mut b, at);
            }
        }
        SubRecord::PrimitiveArray { .. } | SubRecord::Unreachable { .. } => patch(&mut b, 1),
    }
    w.sub(&b)?;
    w.end_sub()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three copies of a HotSpot fixture hold three times its objects, references and bytes of
    /// objects, every class's count three times over, and three times its live objects: each copy
    /// is held as the original is.
    #[test]
    fn copies_are_held_as_the_original() {
        let (a, b) = crate::fixture_and("tile", |src, dst| tile(src, dst, 3));
        let is_class = |h: &heap::Heap, n| h.index.as_class(n).is_some();
        let classes = a.index.nodes().filter(|&n| is_class(&a, n)).count();
        assert_eq!(b.index.nodes().filter(|&n| is_class(&b, n)).count(), classes);
        assert_eq!(b.index.len() - classes, 3 * (a.index.len() - classes));
        let class_edges = |h: &heap::Heap| {
            h.index.nodes().filter(|&n| is_class(h, n)).map(|n| h.index.graph().edges(n.0).len()).sum::<usize>()
        };
        assert_eq!(class_edges(&b), class_edges(&a));
        assert_eq!(b.index.graph().len() - class_edges(&b), 3 * (a.index.graph().len() - class_edges(&a)));
        let live_classes = a
            .index
            .nodes()
            .filter(|&n| is_class(&a, n) && a.dominators.reach(n) != heap::dominators::Reach::Unreachable)
            .count() as u64;
        assert_eq!(b.dominators.reachable_objects - live_classes, 3 * (a.dominators.reachable_objects - live_classes));
        let counts = |h: &heap::Heap| {
            let mut m: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
            for n in h.index.nodes().filter(|&n| !is_class(h, n)) {
                let e = m.entry(h.index.class(n).name.clone()).or_default();
                e.0 += 1;
                e.1 += h.index.shallow_size(n);
            }
            m
        };
        let (ca, cb) = (counts(&a), counts(&b));
        assert_eq!(ca.len(), cb.len());
        for (name, (n, bytes)) in &ca {
            assert_eq!(cb[name], (3 * n, 3 * bytes), "{name}");
        }
    }
}
