//! Stripping, restoring and converting dumps: plans for the streaming [`Rewriter`].
//!
//! | mode | zygote and image heaps | primitive array values | instance fields |
//! |---|---|---|---|
//! | `koom` | dropped (KOOM) | dropped, lengths kept | kept |
//! | `triage` (default) | dropped unless `keep_zygote` | kept for arrays of ≤ `keep_strings` elements (every String up to that length stays readable) | kept |
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
