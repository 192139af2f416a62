//! `heaptui query FILE 'SQL'`: SQL over the dump's objects, classes, references, roots and
//! fields (`session::sql`), printed as a table, JSON or CSV.

use std::path::PathBuf;
use std::sync::Arc;

use rusqlite::types::Value;

use crate::session::sql::{self, rows};

/// Output formats of `query`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum QueryFormat {
    /// Aligned columns for people; ids as 0x….
    Table,
    /// A JSON array of objects, one a row; ids as integers.
    Json,
    /// CSV with a header; ids as integers; a text cell that a spreadsheet would run as a
    /// formula (starting `=`, `+`, `-`, `@`, tab or CR) gets a leading `'` (OWASP's guard).
    Csv,
    /// CSV with the exact values, no guard (for programs, not spreadsheets).
    CsvRaw,
}

/// Arguments of `query`.
#[derive(clap::Args)]
pub struct Args {
    /// The heap dump.
    pub file: PathBuf,
    /// The SQL (SQLite's dialect); `--schema` lists the tables.
    #[arg(required_unless_present_any = ["schema", "export"])]
    pub sql: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = QueryFormat::Table)]
    pub format: QueryFormat,
    /// Prints the tables, their columns and the functions, a line each.
    #[arg(long)]
    pub schema: bool,
    /// Writes every table as Parquet (`DIR/objects.parquet`, ...) for DuckDB, Spark, pandas or
    /// ClickHouse; never over an existing file.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["sql", "schema"])]
    pub export: Option<PathBuf>,
    #[command(flatten)]
    pub open: super::OpenArgs,
}

/// Runs `query`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.schema {
        return super::print(&rows::schema_text());
    }
    if let Some(dir) = &args.export {
        let heap = Arc::new(super::open(&args.file, &args.open)?);
        let start = std::time::Instant::now();
        let written = sql::export::export(heap, dir, |w| {
            println!(
                "{:<8} {:>14}  {:>10}  {:>6.2} s  {}",
                w.table,
                heap::fmt::count(w.rows, "row"),
                heap::fmt::human_bytes(w.bytes),
                w.seconds,
                heap::fmt::safe(&w.path.display().to_string())
            );
        })?;
        let secs = start.elapsed().as_secs_f64();
        let size = std::fs::metadata(&args.file).map_or(0, |m| m.len());
        println!(
            "{} tables, {} written in {secs:.2} s ({:.0} MB/s of dump)",
            written.len(),
            heap::fmt::human_bytes(written.iter().map(|w| w.bytes).sum()),
            size as f64 / 1e6 / secs.max(1e-9)
        );
        return Ok(());
    }
    let Some(text) = args.sql.as_deref() else { crate::fail!(Usage, "give the SQL, or --schema or --export DIR") };
    let heap = Arc::new(super::open(&args.file, &args.open)?);
    let conn = sql::connect(heap)?;
    let explain = |e: sql::QueryError| anyhow::anyhow!(e.explain(text));
    let mut q = sql::query(&conn, text).map_err(explain)?;
    let columns = q.columns.clone();
    // CSV and JSON stream a batch at a time; the table keeps what it aligns, up to its bound.
    let mut batch: Vec<Vec<Value>> = Vec::new();
    let mut failed = None;
    let print_batch = |batch: &mut Vec<Vec<Value>>, first: bool| -> anyhow::Result<()> {
        // The header comes with the first rows (or alone at the end): a query that fails
        // before its first row prints nothing.
        let header = if first { rows::csv_header(&columns) } else { String::new() };
        let out = match args.format {
            QueryFormat::Csv => header + &rows::csv_rows(&columns, batch, true),
            QueryFormat::CsvRaw => header + &rows::csv_rows(&columns, batch, false),
            _ => {
                let objects: Vec<String> = batch
                    .iter()
                    .map(|r| {
                        let text = serde_json::to_string_pretty(&rows::json_row(&columns, r)).unwrap_or_default();
                        text.lines().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n")
                    })
                    .collect();
                // `[` comes with the first row; a query without rows prints `[]`.
                let sep = if first { "[\n" } else { ",\n" };
                if objects.is_empty() {
                    String::new()
                } else {
                    format!("{sep}{}", objects.join(",\n"))
                }
            }
        };
        batch.clear();
        match args.format {
            QueryFormat::Json => super::print_json(&out),
            _ => super::print_data(&out),
        }
    };
    match args.format {
        QueryFormat::Table => {
            let (mut kept, mut bytes, mut more) = (Vec::new(), 0usize, 0u64);
            q.each(|row| {
                if kept.len() < TABLE_ROWS && bytes < TABLE_BYTES {
                    bytes += row.iter().map(|v| rows::cell_text("", v, true).len()).sum::<usize>();
                    kept.push(row);
                } else {
                    more += 1;
                }
                Ok(true)
            })
            .map_err(explain)?;
            super::print(&aligned(&columns, &kept))?;
            if more > 0 {
                super::note(&format!(
                    "{} more rows not shown: a table keeps {TABLE_ROWS} rows or {} MiB; --format csv or json prints every row",
                    more,
                    TABLE_BYTES >> 20
                ));
            }
            Ok(())
        }
        format => {
            let mut first = true;
            q.each(|row| {
                batch.push(row);
                if batch.len() >= 1024 {
                    if let Err(e) = print_batch(&mut batch, first) {
                        failed = Some(e);
                        return Ok(false);
                    }
                    first = false;
                }
                Ok(true)
            })
            .map_err(explain)?;
            if let Some(e) = failed {
                return Err(e);
            }
            let none = first && batch.is_empty();
            print_batch(&mut batch, first)?;
            if format == QueryFormat::Json {
                super::print_json(if none { "[]\n" } else { "\n]\n" })?;
            }
            Ok(())
        }
    }
}

/// The most rows a table keeps to align them, and the most bytes of cells.
const TABLE_ROWS: usize = 100_000;
const TABLE_BYTES: usize = 64 << 20;

/// Columns padded to their widest cell (numbers to the right); names made safe by `print`.
fn aligned(columns: &[String], rows: &[Vec<rusqlite::types::Value>]) -> String {
    let cells: Vec<Vec<String>> =
        rows.iter().map(|r| columns.iter().zip(r).map(|(c, v)| rows::cell_text(c, v, true)).collect()).collect();
    let widths: Vec<usize> = (0..columns.len())
        .map(|i| cells.iter().map(|r| r[i].chars().count()).chain([columns[i].chars().count()]).max().unwrap_or(0))
        .collect();
    let numeric: Vec<bool> = (0..columns.len())
        .map(|i| {
            rows.iter().all(|r| {
                matches!(
                    r[i],
                    rusqlite::types::Value::Integer(_) | rusqlite::types::Value::Real(_) | rusqlite::types::Value::Null
                )
            })
        })
        .collect();
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                // Padded by hand: `format!`'s width stops at 65,535 (a long String's cell).
                let pad = " ".repeat(widths[i].saturating_sub(c.chars().count()));
                if numeric[i] {
                    pad + c
                } else {
                    format!("{c}{pad}")
                }
            })
            .collect();
        parts.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(columns);
    for r in &cells {
        out.push_str(&line(r));
    }
    out.push_str(&format!("({} rows)\n", rows.len()));
    out
}

#[cfg(test)]
mod tests {
    use rusqlite::types::Value;

    /// A cell of 65,536 characters or more (a long String selected) is padded, not a panic of
    /// `format!`'s width; numbers still align right.
    #[test]
    fn long_cells_align_without_panic() {
        let long = "x".repeat(70_000);
        let columns = vec!["s".to_string(), "n".to_string()];
        let rows = vec![
            vec![Value::Text(long.clone()), Value::Integer(7)],
            vec![Value::Text("y".into()), Value::Integer(123)],
        ];
        let text = super::aligned(&columns, &rows);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "header, two rows, the count");
        assert!(lines[1].starts_with(&long) && lines[1].ends_with("    7"), "{}", &lines[1][69_990..]);
        assert!(lines[2].starts_with("y ") && lines[2].ends_with("123"));
        assert_eq!(lines[1].chars().count(), lines[2].chars().count());
    }
}
