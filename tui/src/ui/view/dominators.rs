//! Screen 4: the dominator tree, only the rows on screen.

use heap::fmt::{hex, human_bytes, shorten_middle};
use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Row, Table};
use ratatui::Frame;

use super::common::{bar, row, selected_style};
use crate::ui::model::App;

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Some(l) = app.loaded() else { return };
    let heap = &l.heap;
    if let Some(groups) = &app.dom.groups {
        return draw_groups(frame, area, app, groups);
    }
    let height = area.height.saturating_sub(1) as usize;
    let cur = app.dom.cursor;
    let rows = app.dom_rows(cur.offset + height + 1);
    let total = heap.dominators.reachable_bytes.max(1);
    let width = area.width as usize;
    let header =
        Row::new([format!("{:>10}", "retained"), format!("{:>6}", "share"), "object".into()]).style(app.theme.header);
    let filtered = app.dom.filtered.is_some();
    let body = rows.iter().enumerate().skip(cur.offset).map(|(i, r)| {
        let retained = heap.dominators.retained(r.node);
        let has_children = !heap.dominators.children(Some(r.node)).is_empty();
        // Filtered, a node shows open when the rows under it are its (matching) descendants.
        let open = if filtered {
            rows.get(i + 1).is_some_and(|next| next.depth > r.depth)
        } else {
            app.dom.expanded.contains(&Some(r.node))
        };
        let marker = match (has_children, open) {
            (false, _) => "  ",
            (true, true) => "▾ ",
            (true, false) => "▸ ",
        };
        // The indentation and the marker always show; the class name gives way, in its middle.
        let indent = "  ".repeat(r.depth.min(width.saturating_sub(29) / 4));
        let id = hex(heap.index.id(r.node));
        let room = width.saturating_sub(29 + indent.len() + 2 + 1 + id.len());
        let label = format!("{indent}{marker}{} {id}", shorten_middle(&heap.display_class(r.node), room.max(8)));
        row([
            format!("{:>10}", human_bytes(retained)),
            format!("{:>5.1}% {}", retained as f64 * 100.0 / total as f64, bar(retained, total, 8)),
            label,
        ])
        .style(selected_style(app, i == cur.selected))
    });
    let widths = [Constraint::Length(11), Constraint::Length(16), Constraint::Min(10)];
    frame.render_widget(Table::new(body, widths).header(header), area);
}

/// The tree grouped by class: each row a class's objects at that level, their count and
/// retained size.
fn draw_groups(frame: &mut Frame<'_>, area: Rect, app: &App, groups: &crate::ui::model::ClassGroups) {
    let Some(l) = app.loaded() else { return };
    let heap = &l.heap;
    let height = area.height.saturating_sub(1) as usize;
    let cur = app.dom.group_cursor;
    let rows = app.group_rows(cur.offset + height + 1);
    let total = heap.dominators.reachable_bytes.max(1);
    let width = area.width as usize;
    let header = Row::new([
        format!("{:>10}", "retained"),
        format!("{:>6}", "share"),
        "class (objects) · grouped, c for objects".into(),
    ])
    .style(app.theme.header);
    let body = rows.iter().enumerate().skip(cur.offset).map(|(i, r)| {
        let g = &groups.nodes[r.group];
        let marker = match (&g.children, groups.open.contains(&r.group)) {
            (Some(k), _) if k.is_empty() => "  ",
            (_, true) => "▾ ",
            (_, false) => "▸ ",
        };
        let indent = "  ".repeat(r.depth.min(width.saturating_sub(29) / 4));
        let count = format!(" ({})", g.objects.len());
        let room = width.saturating_sub(29 + indent.len() + 2 + count.len());
        let label = format!(
            "{indent}{marker}{}{count}",
            shorten_middle(&heap.index.classes[g.class.index()].name, room.max(8))
        );
        row([
            format!("{:>10}", human_bytes(g.retained)),
            format!("{:>5.1}% {}", g.retained as f64 * 100.0 / total as f64, bar(g.retained, total, 8)),
            label,
        ])
        .style(selected_style(app, i == cur.selected))
    });
    let widths = [Constraint::Length(11), Constraint::Length(16), Constraint::Min(10)];
    frame.render_widget(Table::new(body, widths).header(header), area);
}
