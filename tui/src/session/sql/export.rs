//! The query tables written as Parquet files (`query FILE --export DIR`), so that DuckDB, Spark,
//! pandas or ClickHouse can read many dumps at once. The rows and cells are the virtual tables'
//! own (one definition of what each column holds), read without SQLite; the column names are
//! [`SCHEMA`]'s. Ids and numbers are 64-bit integers, names and kinds UTF-8 strings. `fields`'
//! `value` holds numbers, ids and booleans; a float's or double's value is in `value_real` and a
//! char's in `value_text`, since a Parquet column has one type.
//!
//! Rows go out a row group at a time, so memory stays a row group's worth whatever the dump's
//! size; strings the index holds (class names, kinds) are shared, not copied, across rows.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context as _;
use bytes::Bytes;
use heap::Heap;
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

use super::{Cell, Classes, Db, Fields, Objects, Refs, Roots, Row, Table, SCHEMA};

/// Rows a row group holds: a few MB a column, and groups large enough for readers to skip well.
const GROUP: usize = 256 * 1024;

/// A column's Parquet type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ty {
    Int,
    Real,
    Text,
}

/// The columns held as text; every other column is a 64-bit integer.
const TEXT: &[(&str, &str)] = &[
    ("objects", "class"),
    ("objects", "kind"),
    ("objects", "heap"),
    ("objects", "reachability"),
    ("objects", "root"),
    ("objects", "string"),
    ("objects", "reachability_kind"),
    ("classes", "name"),
    ("refs", "name"),
    ("refs", "kind"),
    ("roots", "kind"),
    ("fields", "name"),
    ("fields", "type"),
];

/// A table's Parquet columns: name, the table's column it is read from, and its type.
fn columns(table: &str) -> Vec<(String, usize, Ty)> {
    let names = SCHEMA.iter().find(|(t, _)| *t == table).map_or(&[][..], |(_, c)| *c);
    let mut out: Vec<(String, usize, Ty)> = names
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            let ty = if TEXT.contains(&(table, *name)) { Ty::Text } else { Ty::Int };
            (name.to_string(), i, ty)
        })
        .collect();
    if table == "fields" {
        // `value` stays the integers; the other kinds of value get columns of their own.
        let value = out.iter().position(|c| c.0 == "value").unwrap_or(0);
        out.push(("value_real".into(), out[value].1, Ty::Real));
        out.push(("value_text".into(), out[value].1, Ty::Text));
    }
    out
}

/// What was written for one table.
pub struct Written {
    pub table: &'static str,
    pub path: PathBuf,
    pub rows: u64,
    pub bytes: u64,
    pub seconds: f64,
}

/// Writes every table to `dir/TABLE.parquet` (the directory is made if missing). A file already
/// there is never replaced: the export stops with an error naming it, before writing anything.
pub fn export(heap: Arc<Heap>, dir: &Path, mut progress: impl FnMut(&Written)) -> anyhow::Result<Vec<Written>> {
    // Folders it makes are its owner's alone, as the dumps' are; the files 0600.
    crate::session::files::private_dir(dir)?;
    let tables = ["objects", "classes", "refs", "roots", "fields"];
    for t in tables {
        let path = dir.join(format!("{t}.parquet"));
        if std::fs::symlink_metadata(&path).is_ok() {
            crate::fail!(Output, "{} exists; not replaced (export into an empty directory)", path.display());
        }
    }
    let names = Names::new(&heap);
    let db = Db::new(heap);
    let (heap, names) = (&db, &names);
    // The tables are written side by side, a thread each (two cores halve the time).
    let results: Vec<anyhow::Result<Written>> = std::thread::scope(|s| {
        let jobs: Vec<_> = tables
            .iter()
            .map(|&t| {
                s.spawn(move || match t {
                    "objects" => table::<Objects>(heap, names, dir),
                    "classes" => table::<Classes>(heap, names, dir),
                    "refs" => table::<Refs>(heap, names, dir),
                    "roots" => table::<Roots>(heap, names, dir),
                    _ => table::<Fields>(heap, names, dir),
                })
            })
            .collect();
        jobs.into_iter()
            .map(|j| j.join().unwrap_or_else(|_| Err(crate::exit::Code::Internal.error("an export thread failed"))))
            .collect()
    });
    let mut out = Vec::new();
    for r in results {
        let w = r?;
        progress(&w);
        out.push(w);
    }
    Ok(out)
}

/// The names the index holds, made once as shared byte strings.
struct Names {
    classes: Vec<ByteArray>,
    heaps: Vec<ByteArray>,
}

impl Names {
    fn new(heap: &Heap) -> Names {
        let shared = |s: &str| ByteArray::from(Bytes::from(s.as_bytes().to_vec()));
        Names {
            classes: heap.index.classes.iter().map(|c| shared(&c.name)).collect(),
            heaps: heap.index.heaps.iter().map(|h| shared(&h.name)).collect(),
        }
    }

    /// A cell as text, when it is text.
    fn text(&self, cell: &Cell) -> Option<ByteArray> {
        match cell {
            Cell::Text(s) => Some(ByteArray::from(Bytes::from(s.clone().into_bytes()))),
            Cell::Str(s) => Some(ByteArray::from(Bytes::from_static(s.as_bytes()))),
            Cell::Class(c) => self.classes.get(*c as usize).cloned(),
            Cell::Heap(h) => Some(self.heaps.get(*h).cloned().unwrap_or_else(|| "default".into())),
            Cell::Int(_) | Cell::Real(_) | Cell::Null => None,
        }
    }
}

/// One column's values for the row group being filled, with a definition level a row (1 a
/// value, 0 NULL).
enum Values {
    Int(Vec<i64>, Vec<i16>),
    Real(Vec<f64>, Vec<i16>),
    Text(Vec<ByteArray>, Vec<i16>),
}

impl Values {
    fn new(ty: Ty) -> Values {
        match ty {
            Ty::Int => Values::Int(Vec::new(), Vec::new()),
            Ty::Real => Values::Real(Vec::new(), Vec::new()),
            Ty::Text => Values::Text(Vec::new(), Vec::new()),
        }
    }

    fn push(&mut self, cell: &Cell, names: &Names) {
        match self {
            Values::Int(v, d) => match cell {
                Cell::Int(i) => {
                    v.push(*i);
                    d.push(1);
                }
                _ => d.push(0),
            },
            Values::Real(v, d) => match cell {
                Cell::Real(r) => {
                    v.push(*r);
                    d.push(1);
                }
                _ => d.push(0),
            },
            Values::Text(v, d) => match names.text(cell) {
                Some(s) => {
                    v.push(s);
                    d.push(1);
                }
                None => d.push(0),
            },
        }
    }

    fn clear(&mut self) {
        match self {
            Values::Int(v, d) => (v.clear(), d.clear()),
            Values::Real(v, d) => (v.clear(), d.clear()),
            Values::Text(v, d) => (v.clear(), d.clear()),
        };
    }
}

/// Writes table `T` to `dir/NAME.parquet`, created exclusively.
fn table<T: Table>(heap: &Db, names: &Names, dir: &Path) -> anyhow::Result<Written> {
    let start = Instant::now();
    let cols = columns(T::NAME);
    let fields = cols
        .iter()
        .map(|(name, _, ty)| {
            let (physical, logical) = match ty {
                Ty::Int => (Physical::INT64, None),
                Ty::Real => (Physical::DOUBLE, None),
                Ty::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
            };
            Type::primitive_type_builder(name, physical)
                .with_repetition(Repetition::OPTIONAL)
                .with_logical_type(logical)
                .build()
                .map(Arc::new)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let schema = Arc::new(Type::group_type_builder(T::NAME).with_fields(fields).build()?);
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(1)?))
        .set_created_by(format!("heaptui {}", env!("CARGO_PKG_VERSION")))
        .build();
    let path = dir.join(format!("{}.parquet", T::NAME));
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    let written = (|| -> anyhow::Result<u64> {
        let mut writer = SerializedFileWriter::new(file, schema, Arc::new(props))?;
        let mut values: Vec<Values> = cols.iter().map(|c| Values::new(c.2)).collect();
        let mut rows = T::rows(heap, 0, None);
        T::prepare(heap, 0, u64::MAX);
        let mut count = 0u64;
        let mut in_group = 0;
        let mut row: Option<Row> = rows.next_row(heap);
        while row.is_some() || in_group > 0 {
            if let Some(r) = &row {
                for (v, (_, col, _)) in values.iter_mut().zip(&cols) {
                    v.push(&T::cell(heap, r, *col as i32), names);
                }
                in_group += 1;
                count += 1;
                row = rows.next_row(heap);
            }
            if in_group == GROUP || (row.is_none() && in_group > 0) {
                write_group(&mut writer, &values)?;
                values.iter_mut().for_each(Values::clear);
                // The dump's pages this group read leave the resident set (they stay cached).
                heap.index.release_pages();
                in_group = 0;
            }
        }
        writer.close()?;
        Ok(count)
    })();
    let rows = match written {
        Ok(rows) => rows,
        Err(e) => {
            // Only the file this export created, never one it did not.
            let _ = std::fs::remove_file(&path);
            return Err(e.context(format!("writing {}", path.display())));
        }
    };
    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    Ok(Written { table: T::NAME, path, rows, bytes, seconds: start.elapsed().as_secs_f64() })
}

fn write_group(writer: &mut SerializedFileWriter<File>, values: &[Values]) -> anyhow::Result<()> {
    let mut group = writer.next_row_group()?;
    for v in values {
        let Some(mut column) = group.next_column()? else { crate::fail!(Internal, "more values than columns") };
        match v {
            Values::Int(v, d) => column.typed::<Int64Type>().write_batch(v, Some(d), None)?,
            Values::Real(v, d) => column.typed::<DoubleType>().write_batch(v, Some(d), None)?,
            Values::Text(v, d) => column.typed::<ByteArrayType>().write_batch(v, Some(d), None)?,
        };
        column.close()?;
    }
    group.close()?;
    Ok(())
}
