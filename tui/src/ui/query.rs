//! Screen 9: SQL over the dump (`session::sql`, the tables `heaptui query` reads). The query is
//! typed at a prompt with a history (↑/↓); it runs on a thread, `Esc` interrupts it (SQLite's
//! interrupt); the rows come back as a table that scrolls and sorts, and `Enter` on a row whose
//! first id column names an object opens it in the Inspector.

use std::sync::Arc;

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use rusqlite::types::Value;

use super::cursor::Cursor;
use super::line_edit::Edit;
use super::model::{App, QueryResult};
use super::msg::Effect;

/// At most this many rows are kept for the screen (the query says how many it gave).
pub const MAX_ROWS: usize = 100_000;

/// The first column of a result that holds object ids.
pub fn id_column(columns: &[String]) -> Option<usize> {
    columns.iter().position(|c| crate::session::sql::rows::is_id(c))
}

impl App {
    /// A key while the SQL prompt is open: typed into it; ↑/↓ walk the history; `Enter` runs the
    /// query; `Esc` closes the prompt.
    pub(super) fn query_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let q = &mut self.query;
        let Some(line) = &mut q.input else { return Vec::new() };
        match (key.code, line.key(key)) {
            (_, Some(Edit::Submit)) => {
                let sql = line.as_str().trim().to_string();
                q.input = None;
                if sql.is_empty() {
                    return Vec::new();
                }
                return self.run_query(sql);
            }
            (_, Some(Edit::Cancel)) => q.input = None,
            (KeyCode::Up, None) if !q.history.is_empty() => {
                let at = q.browsing.map_or(q.history.len() - 1, |i| i.saturating_sub(1));
                line.set(&q.history[at]);
                q.browsing = Some(at);
            }
            (KeyCode::Down, None) => {
                if let Some(i) = q.browsing {
                    match q.history.get(i + 1) {
                        Some(next) => {
                            line.set(next);
                            q.browsing = Some(i + 1);
                        }
                        None => {
                            line.clear();
                            q.browsing = None;
                        }
                    }
                }
            }
            _ => {}
        }
        Vec::new()
    }

    /// Starts `sql` on a thread; the rows come back as a message.
    pub(super) fn run_query(&mut self, sql: String) -> Vec<Effect> {
        let Some(heap) = self.heap() else { return Vec::new() };
        let q = &mut self.query;
        if q.history.last() != Some(&sql) {
            q.history.push(sql.clone());
        }
        q.browsing = None;
        q.error = None;
        // One query at a time: the one running (if any) is stopped.
        if let Some((_, old)) = q.running.take() {
            old.stop();
        }
        let stop = crate::session::sql::Stop::default();
        q.running = Some((sql.clone(), stop.clone()));
        vec![Effect::Query(super::msg::QueryJob { heap, sql, stop })]
    }

    /// `Esc` while a query runs: SQLite's interrupt (the query ends with an error saying so).
    pub(super) fn interrupt_query(&mut self) -> bool {
        let Some((_, stop)) = &self.query.running else { return false };
        stop.stop();
        self.status = Some("interrupting the query…".into());
        true
    }

    /// A query's result: shown if it is the one running.
    pub(super) fn query_done(&mut self, stop: &crate::session::sql::Stop, result: Result<QueryResult, String>) {
        let q = &mut self.query;
        if q.running.as_ref().is_none_or(|(_, s)| !s.same(stop)) {
            return;
        }
        q.running = None;
        q.cursor = Cursor::default();
        q.sort = None;
        match result {
            Ok(r) => {
                q.result = Some(r);
                q.error = None;
            }
            Err(e) => q.error = Some(e),
        }
        self.order_query_rows();
    }

    /// The result's rows in the order chosen (indices into its rows).
    pub fn query_rows(&self) -> &[usize] {
        &self.query.order
    }

    /// Puts the result's rows in the order chosen.
    fn order_query_rows(&mut self) {
        let q = &mut self.query;
        let Some(r) = &q.result else {
            q.order.clear();
            return;
        };
        let mut order: Vec<usize> = (0..r.rows.len()).collect();
        if let Some((col, desc)) = q.sort {
            order.sort_by(|&a, &b| {
                let o = compare(&r.rows[a][col], &r.rows[b][col]);
                if desc {
                    o.reverse()
                } else {
                    o
                }
            });
        }
        q.order = order;
    }

    /// `s` on the Query screen: sorts by the next column, descending first, then ascending.
    pub(super) fn sort_query(&mut self) {
        let Some(r) = &self.query.result else { return };
        let n = r.columns.len();
        self.query.sort = match self.query.sort {
            None if n > 0 => Some((0, true)),
            Some((c, true)) => Some((c, false)),
            Some((c, false)) if c + 1 < n => Some((c + 1, true)),
            _ => None,
        };
        self.query.cursor = Cursor::default();
        self.order_query_rows();
    }

    /// The object the selected row's first id column names.
    pub(super) fn query_row_node(&self) -> Option<heap::Node> {
        let r = self.query.result.as_ref()?;
        let col = id_column(&r.columns)?;
        let row = *self.query_rows().get(self.query.cursor.selected)?;
        match r.rows[row][col] {
            Value::Integer(id) => self.heap()?.index.node(id as u64),
            _ => None,
        }
    }
}

/// SQLite's order across types: NULL, numbers, text, blobs.
fn compare(a: &Value, b: &Value) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let rank = |v: &Value| match v {
        Value::Null => 0,
        Value::Integer(_) | Value::Real(_) => 1,
        Value::Text(_) => 2,
        Value::Blob(_) => 3,
    };
    let num = |v: &Value| match v {
        Value::Integer(i) => *i as f64,
        Value::Real(r) => *r,
        _ => 0.0,
    };
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::Text(x), Value::Text(y)) => x.cmp(y),
        (Value::Blob(x), Value::Blob(y)) => x.cmp(y),
        _ if rank(a) == rank(b) && rank(a) == 1 => num(a).partial_cmp(&num(b)).unwrap_or(Ordering::Equal),
        _ => rank(a).cmp(&rank(b)),
    }
}

/// Runs `sql` over `heap` (on the thread the UI gives it), handing the interrupt handle over
/// first.
pub fn run(heap: Arc<heap::Heap>, sql: &str, stop: &crate::session::sql::Stop) -> Result<QueryResult, String> {
    let start = std::time::Instant::now();
    let conn = crate::session::sql::connect_counting(heap, stop.rows_read()).map_err(|e| e.to_string())?;
    if !stop.started(conn.get_interrupt_handle()) {
        return Err("bad query: interrupted".into());
    }
    let (columns, rows, more) = crate::session::sql::collect(&conn, sql, MAX_ROWS).map_err(|e| e.explain(sql))?;
    Ok(QueryResult { sql: sql.to_string(), columns, rows, more, ms: start.elapsed().as_millis() })
}

/// Worked examples, shown on screen 9 before a query has run and under `?` there.
pub const EXAMPLES: &[(&str, &str)] = &[
    ("classes by retained size", "SELECT class, count(*), sum(retained) FROM objects GROUP BY class_id ORDER BY 3 DESC LIMIT 10"),
    ("Strings over 10,000 chars", "SELECT id, length(string), retained FROM objects WHERE class = 'java.lang.String' AND length(string) > 10000"),
    ("HashMaps of over 1,000 entries, and who holds them", "SELECT o.id, f.value AS size, path(o.id) FROM objects o JOIN fields f ON f.id = o.id WHERE o.class = 'java.util.HashMap' AND f.name = 'size' AND f.value > 1000"),
    ("every Activity and its mDestroyed", "SELECT o.id, o.class, f.value FROM objects o JOIN fields f ON f.id = o.id WHERE o.class LIKE '%Activity' AND f.name = 'mDestroyed'"),
    ("what refers to an object", "SELECT src, name, kind FROM refs WHERE dst = 0x12c4a8f0"),
];
