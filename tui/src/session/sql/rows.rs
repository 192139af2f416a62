//! A query's rows as people and programs read them: cells as text, JSON objects, CSV (guarded
//! against spreadsheet formulas, or exact), the schema's listing, and errors that point into the
//! query. Shared by `query` on the command line and the UI's SQL screen and exports.

use rusqlite::types::Value;

use super::QueryError;

/// Columns whose integers are object ids, shown as 0x… in the table.
pub fn is_id(column: &str) -> bool {
    matches!(column, "id" | "src" | "dst" | "dominator" | "class_id" | "super" | "loader" | "thread")
        || column.ends_with("_id")
}

impl QueryError {
    /// The error for people: SQLite's message with where in `sql` it points when it says, or
    /// why the query was refused.
    pub fn explain(&self, sql: &str) -> String {
        match self {
            QueryError::Sql(rusqlite::Error::SqlInputError { msg, offset, .. }) if *offset >= 0 => {
                let at = (*offset as usize).min(sql.len());
                let near: String = sql.get(at..).unwrap_or("").chars().take(20).collect();
                format!("bad query at byte {at} (near {near:?}): {msg}")
            }
            QueryError::Sql(e) if e.to_string().contains("not authorized") => {
                format!("bad query: {}", super::READ_ONLY)
            }
            QueryError::Sql(e) => format!("bad query: {e}"),
            QueryError::Refused(why) => format!("bad query: {why}"),
        }
    }
}

/// The schema as text.
pub fn schema_text() -> String {
    let mut out = String::new();
    for (table, columns) in super::SCHEMA {
        out.push_str(&format!("{table}({})\n", columns.iter().map(|(c, _)| *c).collect::<Vec<_>>().join(", ")));
        for (c, what) in *columns {
            out.push_str(&format!("  {c:<18} {what}\n"));
        }
    }
    out.push_str("functions\n");
    for (f, what) in super::FUNCTIONS {
        out.push_str(&format!("  {f:<18} {what}\n"));
    }
    out
}

/// A cell as text: ids as 0x… when `hex`, NULL shown when `hex`.
pub fn cell_text(column: &str, v: &Value, hex: bool) -> String {
    match v {
        Value::Null => {
            if hex {
                "NULL".into()
            } else {
                String::new()
            }
        }
        Value::Integer(i) if hex && is_id(column) => heap::fmt::hex(*i as u64),
        Value::Integer(i) => i.to_string(),
        Value::Real(r) => r.to_string(),
        Value::Text(t) => t.clone(),
        Value::Blob(b) => format!("<{} bytes>", b.len()),
    }
}

/// A row as a JSON object (ids as integers).
pub fn json_row(columns: &[String], row: &[Value]) -> serde_json::Value {
    let mut o = serde_json::Map::new();
    for (c, v) in columns.iter().zip(row) {
        let j = match v {
            Value::Null => serde_json::Value::Null,
            Value::Integer(i) => serde_json::json!(i),
            Value::Real(x) => serde_json::json!(x),
            Value::Text(t) => serde_json::json!(t),
            Value::Blob(b) => serde_json::json!(b),
        };
        o.insert(c.clone(), j);
    }
    serde_json::Value::Object(o)
}

/// The rows as a JSON array of objects (ids as integers).
pub fn json(columns: &[String], rows: &[Vec<Value>]) -> serde_json::Value {
    serde_json::Value::Array(rows.iter().map(|r| json_row(columns, r)).collect())
}

/// The rows as CSV with a header (ids as integers), text cells guarded against formulas: one
/// that starts with `=`, `+`, `-`, `@`, a tab or a carriage return (which a spreadsheet would
/// evaluate) gets a leading `'`; numbers are left as they are.
pub fn csv(columns: &[String], rows: &[Vec<Value>]) -> String {
    csv_header(columns) + &csv_rows(columns, rows, true)
}

/// The rows as CSV with the exact values (`--format csv-raw`).
pub fn csv_raw(columns: &[String], rows: &[Vec<Value>]) -> String {
    csv_header(columns) + &csv_rows(columns, rows, false)
}

/// RFC 4180: a field holding a comma, a quote, a line feed or a carriage return is quoted, its
/// quotes doubled, every character kept as it is.
fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV header line.
pub fn csv_header(columns: &[String]) -> String {
    columns.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",") + "\n"
}

/// Rows as CSV lines, text cells guarded when `guard` (see [`csv`]).
pub fn csv_rows(columns: &[String], rows: &[Vec<Value>], guard: bool) -> String {
    let field = |c: &str, v: &Value| {
        let text = cell_text(c, v, false);
        let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
        if guard && formula && matches!(v, Value::Text(_)) {
            quote(&format!("'{text}"))
        } else {
            quote(&text)
        }
    };
    let mut out = String::new();
    for r in rows {
        let cells: Vec<String> = columns.iter().zip(r).map(|(c, v)| field(c, v)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
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
}
