//! `heaptui query FILE 'SQL'`: SQL over the dump's objects, classes, references, roots and
//! fields (`session::sql`), printed as a table, JSON or CSV.

use std::path::PathBuf;
use std::sync::Arc;

use crate::session::sql;

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

/// Columns whose integers are object ids, shown as 0x… in the table.
pub fn is_id(column: &str) -> bool {
    matches!(column, "id" | "src" | "dst" | "dominator" | "class_id" | "super" | "loader" | "thread")
        || column.ends_with("_id")
}

/// Runs `query`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.schema {
        return super::print(&schema_text());
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
    let (columns, table, _) =
        sql::collect(&conn, text, usize::MAX).map_err(|e| anyhow::anyhow!(sql_error(&e, text)))?;
    match args.format {
        QueryFormat::Json => super::print_json(&(serde_json::to_string_pretty(&json(&columns, &table))? + "\n")),
        QueryFormat::Csv => super::print_data(&csv(&columns, &table)),
        QueryFormat::CsvRaw => super::print_data(&csv_raw(&columns, &table)),
        QueryFormat::Table => super::print(&aligned(&columns, &table)),
    }
}

/// SQLite's message, with where in the query it points when it says.
pub fn sql_error(e: &rusqlite::Error, sql: &str) -> String {
    match e {
        rusqlite::Error::SqlInputError { msg, offset, .. } if *offset >= 0 => {
            let at = (*offset as usize).min(sql.len());
            let near: String = sql[at..].chars().take(20).collect();
            format!("bad query at byte {at} (near {near:?}): {msg}")
        }
        e => format!("bad query: {e}"),
    }
}

/// The schema as text.
pub fn schema_text() -> String {
    let mut out = String::new();
    for (table, columns) in sql::SCHEMA {
        out.push_str(&format!("{table}({})\n", columns.iter().map(|(c, _)| *c).collect::<Vec<_>>().join(", ")));
        for (c, what) in *columns {
            out.push_str(&format!("  {c:<18} {what}\n"));
        }
    }
    out.push_str("functions\n");
    for (f, what) in sql::FUNCTIONS {
        out.push_str(&format!("  {f:<18} {what}\n"));
    }
    out
}

/// A cell as text: ids as 0x… when `hex`, NULL shown when `hex`.
pub fn cell_text(column: &str, v: &rusqlite::types::Value, hex: bool) -> String {
    use rusqlite::types::Value as V;
    match v {
        V::Null => {
            if hex {
                "NULL".into()
            } else {
                String::new()
            }
        }
        V::Integer(i) if hex && is_id(column) => heap::fmt::hex(*i as u64),
        V::Integer(i) => i.to_string(),
        V::Real(r) => r.to_string(),
        V::Text(t) => t.clone(),
        V::Blob(b) => format!("<{} bytes>", b.len()),
    }
}

/// The rows as a JSON array of objects (ids as integers).
pub fn json(columns: &[String], rows: &[Vec<rusqlite::types::Value>]) -> serde_json::Value {
    use rusqlite::types::Value as V;
    let rows: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let mut o = serde_json::Map::new();
            for (c, v) in columns.iter().zip(r) {
                let j = match v {
                    V::Null => serde_json::Value::Null,
                    V::Integer(i) => serde_json::json!(i),
                    V::Real(x) => serde_json::json!(x),
                    V::Text(t) => serde_json::json!(t),
                    V::Blob(b) => serde_json::json!(b),
                };
                o.insert(c.clone(), j);
            }
            serde_json::Value::Object(o)
        })
        .collect();
    serde_json::Value::Array(rows)
}

/// The rows as CSV with a header (ids as integers), text cells guarded against formulas: one
/// that starts with `=`, `+`, `-`, `@`, a tab or a carriage return (which a spreadsheet would
/// evaluate) gets a leading `'`; numbers are left as they are.
pub fn csv(columns: &[String], rows: &[Vec<rusqlite::types::Value>]) -> String {
    csv_with(columns, rows, true)
}

/// The rows as CSV with the exact values (`--format csv-raw`).
pub fn csv_raw(columns: &[String], rows: &[Vec<rusqlite::types::Value>]) -> String {
    csv_with(columns, rows, false)
}

/// RFC 4180: a field holding a comma, a quote, a line feed or a carriage return is quoted, its
/// quotes doubled, every character kept as it is.
fn csv_with(columns: &[String], rows: &[Vec<rusqlite::types::Value>], guard: bool) -> String {
    let quote = |s: &str| {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let field = |c: &str, v: &rusqlite::types::Value| {
        let text = cell_text(c, v, false);
        let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
        if guard && formula && matches!(v, rusqlite::types::Value::Text(_)) {
            quote(&format!("'{text}"))
        } else {
            quote(&text)
        }
    };
    let mut out = columns.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",") + "\n";
    for r in rows {
        let cells: Vec<String> = columns.iter().zip(r).map(|(c, v)| field(c, v)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// Columns padded to their widest cell (numbers to the right); names made safe by `print`.
fn aligned(columns: &[String], rows: &[Vec<rusqlite::types::Value>]) -> String {
    let cells: Vec<Vec<String>> =
        rows.iter().map(|r| columns.iter().zip(r).map(|(c, v)| cell_text(c, v, true)).collect()).collect();
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

    /// A dump's strings that a spreadsheet would run are guarded; numbers, even negative ones,
    /// are not; a carriage return stays one character; `csv-raw` keeps every value exact.
    #[test]
    fn csv_guards_formulas_and_keeps_values() {
        let columns = vec!["s".to_string(), "n".to_string()];
        let rows = vec![
            vec![Value::Text("=HYPERLINK(\"http://x\")".into()), Value::Integer(-5)],
            vec![Value::Text("a\rb".into()), Value::Real(-1.5)],
            vec![Value::Text("@SUM(A1)".into()), Value::Null],
            vec![Value::Text("\t+1".into()), Value::Integer(3)],
            vec![Value::Text("plain".into()), Value::Integer(4)],
        ];
        assert_eq!(
            super::csv(&columns, &rows),
            "s,n\n\"'=HYPERLINK(\"\"http://x\"\")\",-5\n\"a\rb\",-1.5\n'@SUM(A1),\n'\t+1,3\nplain,4\n"
        );
        assert_eq!(
            super::csv_raw(&columns, &rows),
            "s,n\n\"=HYPERLINK(\"\"http://x\"\")\",-5\n\"a\rb\",-1.5\n@SUM(A1),\n\t+1,3\nplain,4\n"
        );
    }

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
