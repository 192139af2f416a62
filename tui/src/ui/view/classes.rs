//! Screen 2: the class histogram, or one class's instances.

use heap::fmt::{hex, human_bytes, shorten_middle};
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Block, Row, Table};
use ratatui::Frame;

use super::common::{row, selected_style};
use crate::ui::model::App;

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Some(l) = app.loaded() else { return };
    let heap = &l.heap;
    let height = area.height.saturating_sub(1) as usize;
    let name_width = (area.width as usize).saturating_sub(40).max(10);
    if let Some((c, nodes, cur)) = &app.classes.instances {
        let header =
            Row::new(["id".to_string(), format!("{:>10}", "shallow"), format!("{:>10}", "retained"), "reach".into()])
                .style(app.theme.header);
        let rows = nodes.iter().enumerate().skip(cur.offset).take(height).map(|(i, &n)| {
            row([
                hex(heap.index.id(n)),
                format!("{:>10}", human_bytes(heap.index.shallow_size(n))),
                format!("{:>10}", human_bytes(heap.dominators.retained(n))),
                super::common::reachability(heap, n).to_string(),
            ])
            .style(selected_style(app, i == cur.selected))
        });
        let widths = [Constraint::Length(20), Constraint::Length(11), Constraint::Length(11), Constraint::Min(8)];
        let title = format!(" {} ", shorten_middle(&heap.index.classes[c.index()].name, area.width as usize - 4));
        frame.render_widget(Table::new(rows, widths).header(header).block(Block::default().title(title)), area);
        return;
    }
    let last = if app.classes.grouped { "package" } else { "class" };
    let header = Row::new([
        format!("{:>10}", "instances"),
        format!("{:>10}", "shallow"),
        format!("{:>10}", "retained"),
        last.into(),
    ])
    .style(app.theme.header);
    let rows = app.classes.rows.iter().enumerate().skip(app.classes.cursor.offset).take(height).map(|(i, r)| {
        row([
            format!("{:>10}", r.instances),
            format!("{:>10}", human_bytes(r.shallow)),
            format!("{:>10}", human_bytes(r.retained)),
            shorten_middle(&r.name, name_width),
        ])
        .style(selected_style(app, i == app.classes.cursor.selected))
    });
    let widths = [Constraint::Length(10), Constraint::Length(11), Constraint::Length(11), Constraint::Min(10)];
    frame.render_widget(Table::new(rows, widths).header(header), area);
}
