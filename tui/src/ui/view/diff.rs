//! Screen 7: what changed since the baseline; without one, how to give one, or the dumps to
//! choose it from.

use heap::fmt::{human_bytes, shorten_middle};
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Row, Table};
use ratatui::Frame;

use super::common::{line, row, selected_style};
use crate::ui::model::{App, DiffRow};

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Some(l) = app.loaded() else { return };
    let t = &app.theme;
    if let Some(p) = &app.diff.choosing {
        let height = (area.height as usize).saturating_sub(1);
        let mut lines =
            vec![Line::styled("Take which dump as the baseline? (Enter takes it, / filters, Esc goes back)", t.header)];
        lines.extend(
            p.shown
                .iter()
                .enumerate()
                .skip(p.cursor.offset)
                .take(height)
                .map(|(row, &i)| line(format!(" {}", p.items[i].label), selected_style(app, row == p.cursor.selected))),
        );
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    let Some(b) = &l.baseline else {
        let lines = vec![
            Line::styled("No baseline to compare with.", t.header),
            Line::raw(""),
            line("Open the dump with an earlier one of the same app:  heaptui --baseline OLD.hprof NEW.hprof", t.text),
            line("or press b to take one of the dumps heaptui knows (this directory's, and those it stored).", t.text),
        ];
        frame.render_widget(Paragraph::new(lines), area);
        return;
    };
    let rows = app.diff_rows();
    let height = (area.height as usize).saturating_sub(2);
    let width = (area.width as usize).saturating_sub(44).max(12);
    let signed = |before: u64, now: u64| -> String {
        let (sign, d) = if now >= before { ("+", now - before) } else { ("-", before - now) };
        format!("{sign}{}", human_bytes(d))
    };
    let count = |before: u64, now: u64| format!("{:+}", now as i128 - before as i128);
    let header =
        Row::new([format!("{:>10}", "retained"), format!("{:>10}", "count"), "what".to_string()]).style(t.header);
    let body = rows.iter().enumerate().skip(app.diff.cursor.offset).take(height).map(|(i, r)| {
        let cells = match *r {
            DiffRow::Growing(g) => {
                let g = &b.growing[g];
                [
                    format!("{:>10}", signed(g.retained_bytes.0, g.retained_bytes.1)),
                    format!("{:>10}", count(g.elements.0, g.elements.1)),
                    format!(
                        "grew {} → {} elements: {} ({})",
                        g.elements.0,
                        g.elements.1,
                        shorten_middle(&g.path, width / 2),
                        shorten_middle(&g.class, width / 3)
                    ),
                ]
            }
            DiffRow::Class(c) => {
                let d = &b.classes[c];
                let what = match d.instances {
                    (0, _) => "new ",
                    (_, 0) => "gone ",
                    _ => "",
                };
                [
                    format!("{:>10}", signed(d.retained_bytes.0, d.retained_bytes.1)),
                    format!("{:>10}", count(d.instances.0, d.instances.1)),
                    format!("{what}{}", shorten_middle(&d.class, width)),
                ]
            }
        };
        row(cells).style(selected_style(app, i == app.diff.cursor.selected))
    });
    let title = line(
        format!(
            "Since {}: {} grew, {} changed",
            shorten_middle(&b.path, (area.width as usize).saturating_sub(50)),
            heap::fmt::count(b.growing.len() as u64, "collection"),
            if b.classes.len() == 1 { "1 class".to_string() } else { format!("{} classes", b.classes.len()) }
        ),
        t.dim,
    );
    let [head, table] = ratatui::layout::Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(area);
    frame.render_widget(Paragraph::new(title), head);
    let widths = [Constraint::Length(11), Constraint::Length(11), Constraint::Min(10)];
    frame.render_widget(Table::new(body, widths).header(header), table);
}
