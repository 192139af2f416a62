//! Stripping, restoring and converting dumps: plans for the streaming [`Rewriter`].
//!
//! | mode | zygote and image heaps | primitive array values | instance fields |
//! |---|---|---|---|
//! | `koom` | dropped (KOOM) | dropped, lengths kept; `Bitmap.dumpData`'s pictures kept | kept |
//! | `triage` (default) | dropped unless `keep_zygote` | kept for arrays of ≤ `keep_strings` elements (every String up to that length stays readable), and `Bitmap.dumpData`'s pictures | kept |
//! | `redact` | as `triage` | dropped | primitives zeroed (Bitmap `mWidth`/`mHeight` kept) |
//! | `matrix` | kept | dropped except `String.value` arrays; identical Bitmap buffers kept once | kept |
//!
//! Dropped values are written as PRIMITIVE ARRAY NODATA (0xC3) records; `restore` writes them back
//! as zeros of the right length. `matrix` needs to know which arrays are String values and which
//! buffers are equal before writing, so it reads the dump twice (after the dump, as Matrix does);
//! the others stream.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use crate::error::Result;
use crate::hprof::{BasicType, Format};
use crate::index::{Index, Options};
pub use crate::rewrite::{rewrite_all, ArrayValues, Plan, RewriteStats, Rewriter, HEAP_IMAGE, HEAP_ZYGOTE};
use crate::spec::sub::instance;

/// How to strip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// KOOM's: drop the zygote and image heaps, and every primitive array's values.
    Koom,
    /// Matrix's: every primitive array's values but Strings', one copy of equal Bitmap buffers.
    Matrix,
    /// Ours: what leak triage needs.
    Triage,
    /// Triage with every value that could be user data zeroed.
    Redact,
}

impl Mode {
    /// Parses `koom`, `matrix`, `triage` or `redact`.
    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "koom" => Mode::Koom,
            "matrix" => Mode::Matrix,
            "triage" => Mode::Triage,
            "redact" => Mode::Redact,
            _ => return None,
        })
    }
}

/// Stripping options.
#[derive(Debug, Clone, Copy)]
pub struct StripOptions {
    /// The mode.
    pub mode: Mode,
    /// `triage`: arrays of at most this many elements keep their values.
    pub keep_strings: u32,
    /// `triage`, `redact`: keep the zygote and image heaps.
    pub keep_zygote: bool,
}

impl Default for StripOptions {
    fn default() -> Self {
        StripOptions { mode: Mode::Triage, keep_strings: 256, keep_zygote: false }
    }
}

/// The streaming plan of a mode (`matrix` has none: see [`strip_matrix`]).
pub fn strip_plan(o: &StripOptions) -> Plan {
    let heaps = if o.keep_zygote { Vec::new() } else { vec![HEAP_ZYGOTE, HEAP_IMAGE] };
    let mut p = Plan::identity();
    match o.mode {
        Mode::Koom => {
            p.drop_heaps = vec![HEAP_ZYGOTE, HEAP_IMAGE];
            p.array_values = ArrayValues::Drop;
        }
        Mode::Triage => {
            p.drop_heaps = heaps;
            p.array_values = ArrayValues::KeepUpTo(o.keep_strings);
        }
        Mode::Redact => {
            p.drop_heaps = heaps;
            p.array_values = ArrayValues::Drop;
            p.zero_fields = true;
        }
        Mode::Matrix => p.array_values = ArrayValues::Drop,
    }
    p
}

/// [`strip_plan`] for the dump `data`: in `triage` and `koom`, the pictures the app compressed
/// into `Bitmap.dumpData` for `am dumpheap -b` keep their bytes (Android 8 and later hold a
/// Bitmap's pixels natively, and these arrays are the only pixels such a dump has); `redact`
/// drops them with every other value, as they may be a user's photos.
pub fn strip_plan_for(o: &StripOptions, data: &[u8]) -> Plan {
    let mut p = strip_plan(o);
    if matches!(o.mode, Mode::Triage | Mode::Koom) {
        p.keep_values = dump_data_buffers(data);
    }
    p
}

/// [`strip_plan_for`] the dump in the file at `path`, mapped and read once more before the
/// rewrite (a compressed file, or one that cannot be mapped, keeps no pictures: the plan of
/// [`strip_plan`]).
pub fn strip_plan_for_file(o: &StripOptions, path: &std::path::Path) -> Plan {
    if !matches!(o.mode, Mode::Triage | Mode::Koom) {
        return strip_plan(o);
    }
    use std::os::unix::fs::OpenOptionsExt;
    // A regular file only: a FIFO opened here would lose its writer's data to this open.
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).ok();
    let map = file.filter(|f| f.metadata().is_ok_and(|m| m.is_file())).and_then(|f| {
        // SAFETY: mapped read-only and only read. As with every dump the engine maps, a file cut
        // short by someone else while mapped would fault; the agent's raw file is in its own
        // folder, and `strip`'s input is the user's.
        unsafe { memmap2::Mmap::map(&f) }.ok()
    });
    match map {
        Some(m) => strip_plan_for(o, &m),
        None => strip_plan(o),
    }
}

/// The ids of the arrays `Bitmap.dumpData.buffers` points at, and of its `natives` (which tell
/// whose picture each is), in the dump `data`, found without an index: one pass for the names
/// and classes, one for `Bitmap`'s statics; when `dumpData` is set, one for its instance and one
/// for its `buffers` array. A dump that does not parse gives up
/// what it holds before the damage (the rewrite that follows reports the damage itself).
pub fn dump_data_buffers(data: &[u8]) -> HashSet<u64> {
    use crate::hprof::{parse_header, Cursor, Records, SubRecord, TopRecord};
    let Ok(header) = parse_header(data) else { return HashSet::new() };
    let id_size = header.id_size;
    // Every sub-record of every heap dump record, until one does not parse.
    let each_sub = |f: &mut dyn FnMut(&SubRecord<'_>) -> bool| {
        let mut records = Records::new(data, header.records_start);
        while let Ok(Some(r)) = records.next_record() {
            if !matches!(r.decode(data, id_size), Ok(TopRecord::HeapDump)) {
                continue;
            }
            let mut c = Cursor::new(&data[..r.body_offset + r.body.len()], r.body_offset, id_size);
            while c.left() > 0 {
                match crate::hprof::read_sub_record(&mut c) {
                    Ok(sub) if f(&sub) => {}
                    Ok(_) => return,
                    Err(_) => break,
                }
            }
        }
    };
    // Pass 1: the names, which class ids are Bitmap and Bitmap$DumpData, Bitmap's `dumpData`,
    // and where `buffers` and `natives` lie in a DumpData's fields (its own fields come first).
    let (mut names, mut classes) = (HashMap::new(), Vec::new());
    let mut records = Records::new(data, header.records_start);
    while let Ok(Some(r)) = records.next_record() {
        match r.decode(data, id_size) {
            Ok(TopRecord::String { id, utf8 }) => {
                if let Ok(
                    name @ ("android.graphics.Bitmap"
                    | "android.graphics.Bitmap$DumpData"
                    | "dumpData"
                    | "buffers"
                    | "natives"),
                ) = std::str::from_utf8(utf8)
                {
                    names.insert(id, name);
                }
            }
            Ok(TopRecord::LoadClass { class_id, name_id, .. }) => classes.push((class_id, name_id)),
            _ => {}
        }
    }
    let named = |want: &str| -> HashSet<u64> {
        classes.iter().filter(|(_, n)| names.get(n) == Some(&want)).map(|&(c, _)| c).collect()
    };
    let (bitmaps, dump_datas) = (named("android.graphics.Bitmap"), named("android.graphics.Bitmap$DumpData"));
    if bitmaps.is_empty() || dump_datas.is_empty() {
        return HashSet::new();
    }
    let (mut dump_data, mut fields_at) = (None, HashMap::new());
    each_sub(&mut |sub| {
        if let SubRecord::Class(c) = sub {
            if bitmaps.contains(&c.id) {
                let value = c.statics.iter().find(|s| names.get(&s.name_id) == Some(&"dumpData"));
                // The first set one, as `bitmap::dump_data` reads it.
                if let Some(s) = value.filter(|s| s.ty == BasicType::Object && dump_data.is_none()) {
                    dump_data = Some(crate::hprof::cursor::read_id(s.value, id_size)).filter(|&d| d != 0);
                }
            }
            if dump_datas.contains(&c.id) {
                let (mut at, mut buffers, mut natives) = (0usize, None, None);
                for f in &c.fields {
                    match names.get(&f.name_id) {
                        Some(&"buffers") if f.ty == BasicType::Object => buffers = Some(at),
                        Some(&"natives") if f.ty == BasicType::Object => natives = Some(at),
                        _ => {}
                    }
                    at += f.ty.size(id_size) as usize;
                }
                if let (Some(b), Some(n)) = (buffers, natives) {
                    fields_at.insert(c.id, (b, n));
                }
            }
        }
        true
    });
    let Some(dump_data) = dump_data else { return HashSet::new() };
    // Pass 2: the DumpData object's `buffers` and `natives`.
    let mut arrays = None;
    each_sub(&mut |sub| match sub {
        SubRecord::Instance { id, class_id, data, .. } if *id == dump_data => {
            let read =
                |at: usize| data.get(at..at + id_size as usize).map(|b| crate::hprof::cursor::read_id(b, id_size));
            arrays = fields_at.get(class_id).and_then(|&(b, n)| Some((read(b)?, read(n)?)));
            false
        }
        _ => true,
    });
    let Some((buffers, natives)) = arrays.filter(|&(b, _)| b != 0) else { return HashSet::new() };
    // Pass 3: the arrays `buffers` holds.
    let mut kept = HashSet::from([natives]);
    each_sub(&mut |sub| match sub {
        SubRecord::ObjectArray { id, elements, .. } if *id == buffers => {
            kept.extend(elements.chunks_exact(id_size as usize).map(|e| crate::hprof::cursor::read_id(e, id_size)));
            kept.remove(&0);
            false
        }
        _ => true,
    });
    kept
}

/// Writes any stripped dump back as a standard one: NODATA arrays become arrays of zeros.
pub fn restore_plan() -> Plan {
    Plan { restore_nodata: true, ..Plan::identity() }
}

/// Android → HotSpot, as AOSP's `hprof-conv` does it (`drop_zygote`: its `-z`).
pub fn convert_plan(drop_zygote: bool) -> Plan {
    Plan {
        drop_heaps: if drop_zygote { vec![HEAP_ZYGOTE, HEAP_IMAGE] } else { Vec::new() },
        to_hotspot: true,
        version: Some(Format::V102),
        keep_segments: true,
        heap_per_record: true,
        ..Plan::identity()
    }
}

/// Matrix's stripping, after the dump: index `data` to learn which primitive arrays are String
/// values and which Bitmap buffers are equal, then rewrite it keeping those values (and one copy of
/// each buffer; duplicates point at the kept one).
pub fn strip_matrix<W: Write>(data: Vec<u8>, out: W) -> Result<(W, RewriteStats)> {
    let index = Index::from_bytes(data, Options::default())?;
    let mut keep: HashSet<u64> = HashSet::new();
    for c in index.classes_named("java.lang.String").collect::<Vec<_>>() {
        for n in index.nodes().filter(|&n| index.class_of(n) == c) {
            if let Some(v) = index.field(n, "value").and_then(|v| v.as_object()) {
                keep.insert(v);
            }
        }
    }
    // Bitmap buffers: the first of each content is kept, later ones re-pointed to it.
    let mut first: HashMap<Vec<u8>, u64> = HashMap::new();
    let mut repoint: HashMap<u64, u64> = HashMap::new();
    for c in index.classes_named("android.graphics.Bitmap").collect::<Vec<_>>() {
        for n in index.nodes().filter(|&n| index.class_of(n) == c) {
            let Some(buf) = index.field(n, "mBuffer").and_then(|v| v.as_object()) else { continue };
            let Some((BasicType::Byte, bytes)) = index.node(buf).and_then(|b| index.primitive_array_bytes(b)) else {
                continue;
            };
            match first.get(bytes) {
                Some(&kept) if kept != buf => {
                    repoint.insert(buf, kept);
                }
                Some(_) => {}
                None => {
                    first.insert(bytes.to_vec(), buf);
                    keep.insert(buf);
                }
            }
        }
    }
    // Re-point the Bitmaps whose buffer is a duplicate: patch their mBuffer field in a copy.
    let mut bytes = index.bytes().to_vec();
    let id_size = index.header.id_size as usize;
    for c in index.classes_named("android.graphics.Bitmap").collect::<Vec<_>>() {
        let Some(field) = index.classes[c.index()].fields.iter().find(|f| f.name == "mBuffer") else { continue };
        for n in index.nodes().filter(|&n| index.class_of(n) == c) {
            let Some(old) = index.field(n, "mBuffer").and_then(|v| v.as_object()) else { continue };
            let Some(&kept) = repoint.get(&old) else { continue };
            let at = index.offset(n) as usize + instance::head_len(id_size) + field.offset as usize;
            let new = if id_size == 4 { (kept as u32).to_be_bytes().to_vec() } else { kept.to_be_bytes().to_vec() };
            if let Some(slot) = bytes.get_mut(at..at + id_size) {
                slot.copy_from_slice(&new);
            }
        }
    }
    let mut plan = strip_plan(&StripOptions { mode: Mode::Matrix, ..Default::default() });
    plan.keep_arrays = Some(keep);
    plan.remove_arrays = repoint.keys().copied().collect();
    let mut r = Rewriter::new(out, plan);
    r.feed(&bytes)?;
    r.finish()
}
