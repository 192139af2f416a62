//! Screen 9: the SQL prompt (or the query run), then its rows as a table; the schema beside
//! them with `S`.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Table};
use ratatui::Frame;

use super::common::{line, row, selected_style};
use crate::ui::model::App;

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let q = &app.query;
    let t = &app.theme;
    let [head, body] = Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(area);
    let first = match (&q.input, &q.running, &q.result) {
        (Some(input), _, _) => line(format!("SQL> {}", input.shown(true)), t.header),
        (None, Some((sql, stop)), _) => {
            let (read, secs) = stop.progress();
            line(
                format!("running {secs:.0} s, {} read: {sql} · Esc interrupts", heap::fmt::count(read, "row")),
                t.header,
            )
        }
        (None, None, Some(r)) => line(format!("SQL: {} · / edits · S tables", r.sql), t.header),
        (None, None, None) => {
            line("/ types a query (SQL over objects, classes, refs, roots, fields) · S tables", t.header)
        }
    };
    let second = match (&q.error, &q.result) {
        (Some(e), _) => line(e.clone(), t.error),
        (None, Some(r)) => {
            let sort = q.sort.map_or(String::new(), |(c, desc)| {
                format!(" · sorted by {} {}", r.columns.get(c).map_or("", String::as_str), if desc { "↓" } else { "↑" })
            });
            let more = if r.more > 0 { format!(" (and {} more not kept)", r.more) } else { String::new() };
            Line::styled(
                format!("{} rows{more} in {} ms{sort} · Enter opens the row's object", r.rows.len(), r.ms),
                t.dim,
            )
        }
        _ => Line::styled(
            "e.g. SELECT class, count(*), sum(retained) FROM objects GROUP BY class_id ORDER BY 3 DESC LIMIT 10",
            t.dim,
        ),
    };
    frame.render_widget(Paragraph::new(vec![first, second]), head);
    let (table_area, schema_area) = if q.schema {
        let [a, b] = Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(body);
        (a, Some(b))
    } else {
        (body, None)
    };
    if let Some(area) = schema_area {
        let text = crate::session::sql::rows::schema_text();
        let lines: Vec<Line<'_>> = text.lines().map(|l| line(l.to_string(), t.dim)).collect();
        frame.render_widget(Paragraph::new(lines), area);
    }
    let Some(r) = &q.result else {
        // Before any query: worked examples.
        let mut lines = vec![Line::default(), line("Examples (/ opens the prompt):".to_string(), t.header)];
        for (what, sql) in crate::ui::query::EXAMPLES {
            lines.push(line(format!("  {what}"), t.dim));
            lines.push(line(format!("    {sql}"), t.text));
        }
        frame.render_widget(Paragraph::new(lines), table_area);
        return;
    };
    let height = table_area.height.saturating_sub(1) as usize;
    let order = app.query_rows();
    let header = row(r.columns.iter().cloned()).style(t.header);
    let widths: Vec<Constraint> = r
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let widest = order
                .iter()
                .take(200)
                .map(|&k| crate::session::sql::rows::cell_text(c, &r.rows[k][i], true).chars().count())
                .chain([c.chars().count()])
                .max()
                .unwrap_or(4);
            Constraint::Length(widest.min(60) as u16)
        })
        .collect();
    let rows = order.iter().enumerate().skip(q.cursor.offset).take(height).map(|(i, &k)| {
        let cells = r.columns.iter().zip(&r.rows[k]).map(|(c, v)| crate::session::sql::rows::cell_text(c, v, true));
        row(cells).style(selected_style(app, i == q.cursor.selected))
    });
    frame.render_widget(Table::new(rows, widths).header(header), table_area);
}
