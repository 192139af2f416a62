//! The class histogram in one streaming pass: instances and shallow bytes per class, nothing else
//! (no object index, no reference graph, no dominators). What `analyze --histogram-only` prints,
//! hprof-slurp's job, in a fraction of the memory a full analysis needs.

use std::path::Path;

use rustc_hash::FxHashMap;

use crate::data::Data;
use crate::error::{ErrorKind, Result};
use crate::hprof::{parse_header, read_sub_record, BasicType, Cursor, Header, Records, SubRecord, TopRecord};
use crate::index::sizes::{SizeModel, Sizer};
use crate::index::{class_table, sizer_for, Counts};
use crate::spec::record;
use crate::spec::sub::{self, instance, object_array};

/// One histogram row.
#[derive(Debug, Clone, serde::Serialize)]
pub struct QuickRow {
    /// Class name.
    pub class: String,
    /// Class object id (0 for classes the dump does not describe).
    pub class_id: u64,
    /// Instance (or array) dumps of exactly this class.
    pub instances: u64,
    /// Their shallow bytes.
    pub shallow_bytes: u64,
}

/// The histogram of a dump.
pub struct QuickHistogram {
    /// The header.
    pub header: Header,
    /// Rows, largest shallow size first.
    pub rows: Vec<QuickRow>,
    /// Record counts.
    pub counts: Counts,
    /// The size model used.
    pub sizer: Sizer,
    /// Truncation and such.
    pub warnings: Vec<String>,
}

#[derive(Default)]
struct Tally {
    strings: FxHashMap<u64, (u64, u32)>,
    load_class: FxHashMap<u64, u64>,
    class_dumps: Vec<usize>,
    instances: FxHashMap<u64, u64>,
    object_arrays: FxHashMap<(u64, u32), u64>,
    primitive_arrays: FxHashMap<(u8, u32), u64>,
    counts: Counts,
    mat_compressed: bool,
    prev_array: Option<(u64, u32)>,
}

/// Reads the dump at `path` once and counts (the `dump`-th heap dump when it holds several).
pub fn quick_histogram(path: &Path, model: Option<SizeModel>, dump: usize) -> Result<QuickHistogram> {
    let data = Data::open(path)?;
    let header = parse_header(&data)?;
    let id_size = header.id_size;
    let mut t = Tally::default();
    let mut warnings = Vec::new();
    let mut records = Records::new(&data, header.records_start);
    let (mut dumps, mut in_segments) = (0usize, false);
    loop {
        let rec = match records.next_record() {
            Ok(Some(r)) => r,
            Ok(None) => break,
            Err(e) if matches!(e.kind, ErrorKind::Truncated { .. }) => {
                warnings.push(format!("the dump is truncated: {e}"));
                break;
            }
            Err(e) => return Err(e),
        };
        match rec.tag {
            record::HEAP_DUMP_END => in_segments = false,
            record::HEAP_DUMP | record::HEAP_DUMP_SEGMENT => {
                if rec.tag == record::HEAP_DUMP || !in_segments {
                    dumps += 1;
                }
                in_segments = rec.tag == record::HEAP_DUMP_SEGMENT;
                if dumps != dump + 1 {
                    continue;
                }
                let end = rec.body_offset + rec.body.len();
                let mut c = Cursor::new(&data[..end], rec.body_offset, id_size);
                while c.pos() < end {
                    if let Err(e) = count_sub_record(&mut c, &mut t) {
                        let e = e.in_record(rec.tag);
                        if rec.is_truncated() && matches!(e.kind, ErrorKind::Truncated { .. }) {
                            warnings.push(format!("the dump is truncated: {e}"));
                            break;
                        }
                        return Err(e);
                    }
                }
            }
            _ => match rec.decode(&data, id_size)? {
                TopRecord::String { id, utf8 } => {
                    let off = (utf8.as_ptr() as usize).saturating_sub(data.as_ptr() as usize);
                    t.strings.insert(id, (off as u64, utf8.len() as u32));
                }
                TopRecord::LoadClass { class_id, name_id, .. } => {
                    t.load_class.insert(class_id, name_id);
                }
                _ => {}
            },
        }
    }
    let string = |id: u64| -> Option<String> {
        let &(off, len) = t.strings.get(&id)?;
        data.get(off as usize..off as usize + len as usize).map(|b| String::from_utf8_lossy(b).into_owned())
    };
    let table = class_table(&data, id_size, &t.class_dumps, &t.load_class, &string, &|_| None)?;
    let sizer = sizer_for(model, &header, &table.classes, t.mat_compressed, None);
    let inst_sizes = sizer.instance_sizes(&table.classes);
    let mut per_class = vec![(0u64, 0u64); table.classes.len()];
    for (class_id, n) in &t.instances {
        let c = table.by_id.get(class_id).copied().unwrap_or(table.unknown_class) as usize;
        per_class[c].0 += n;
        per_class[c].1 += n * inst_sizes[c];
    }
    for (&(class_id, len), &n) in &t.object_arrays {
        let c = table.by_id.get(&class_id).copied().unwrap_or(table.object_array_class) as usize;
        per_class[c].0 += n;
        per_class[c].1 += n * sizer.array_size(BasicType::Object, len);
    }
    for (&(code, len), &n) in &t.primitive_arrays {
        let Some(ty) = BasicType::from_code(code) else { continue };
        let k = BasicType::PRIMITIVES.iter().position(|&p| p == ty).unwrap_or(0);
        let c = table.prim_class[k] as usize;
        per_class[c].0 += n;
        per_class[c].1 += n * sizer.array_size(ty, len);
    }
    let mut rows: Vec<QuickRow> = per_class
        .into_iter()
        .enumerate()
        .filter(|(_, (n, _))| *n > 0)
        .map(|(c, (instances, shallow_bytes))| QuickRow {
            class: table.classes[c].name.clone(),
            class_id: table.classes[c].id,
            instances,
            shallow_bytes,
        })
        .collect();
    rows.sort_by(|a, b| b.shallow_bytes.cmp(&a.shallow_bytes).then(a.class.cmp(&b.class)));
    t.counts.loaded_classes = t.load_class.len() as u64;
    Ok(QuickHistogram { header, rows, counts: t.counts, sizer, warnings })
}

#[inline]
fn count_sub_record(c: &mut Cursor<'_>, t: &mut Tally) -> Result<()> {
    let start = c.pos();
    let id = c.id_size() as usize;
    let tag = *c.data().get(start).unwrap_or(&0);
    let r = match tag {
        sub::INSTANCE_DUMP => (|| {
            c.skip_to(start, instance::class_id(id))?;
            let class = c.id()?;
            let n = c.u4()?;
            c.skip(n as usize)?;
            t.counts.instances += 1;
            *t.instances.entry(class).or_default() += 1;
            Ok(())
        })(),
        sub::OBJECT_ARRAY_DUMP => (|| {
            c.skip_to(start, sub::ID)?;
            let array_id = c.id()?;
            c.skip_to(start, object_array::length(id))?;
            let len = c.u4()?;
            let class = c.id()?;
            c.skip((len as usize).saturating_mul(id))?;
            t.counts.object_arrays += 1;
            *t.object_arrays.entry((class, len)).or_default() += 1;
            if id == 8 && !t.mat_compressed {
                t.mat_compressed =
                    crate::index::sizes::detect_ref_size_mat(t.prev_array.iter().copied().chain([(array_id, len)]));
                t.prev_array = Some((array_id, len));
            }
            Ok(())
        })(),
        _ => match read_sub_record(c)? {
            SubRecord::Class(_) => {
                t.counts.classes += 1;
                t.class_dumps.push(start);
                Ok(())
            }
            SubRecord::PrimitiveArray { elem, length, .. } => {
                t.counts.primitive_arrays += 1;
                *t.primitive_arrays.entry((elem.code(), length)).or_default() += 1;
                Ok(())
            }
            SubRecord::Root { kind, .. } => {
                t.counts.root_records += 1;
                *t.counts.root_records_by_kind.entry(kind).or_default() += 1;
                Ok(())
            }
            _ => Ok(()),
        },
    };
    r.map_err(|e: crate::error::Error| e.in_sub_record(tag))
}
