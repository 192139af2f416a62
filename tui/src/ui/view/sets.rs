//! A set view over its screen: the merged paths' tree, or the immediate dominators by class and
//! one group's dominators.

use heap::fmt::{hex, human_bytes, shorten_middle};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Row, Table};
use ratatui::Frame;

use super::common::{line, row, selected_style};
use crate::ui::model::{App, SetKind, SetView};
use crate::ui::sets::SetRow;

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App, v: &SetView) {
    let Some(l) = app.loaded() else { return };
    let heap = &l.heap;
    let [head, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(area);
    let what = match &v.kind {
        SetKind::Pending(doing, _) => format!("{doing} of {}…", v.title),
        SetKind::Merged { tree, .. } => format!(
            "Shortest paths from the GC roots to {} ({} unreachable), merged · Esc back",
            v.title, tree.unreachable
        ),
        SetKind::Dominators { result, group: None } => format!(
            "Immediate dominators of {}, by class ({} unreachable) · Enter lists them · Esc back",
            v.title, result.unreachable
        ),
        SetKind::Dominators { result, group: Some(g) } => {
            let name =
                result.groups.get(*g).map(|g| heap::immediate::ImmediateDominators::name(heap, g)).unwrap_or_default();
            format!("The {name} dominating {} · Enter inspects · Esc back", v.title)
        }
    };
    frame.render_widget(Paragraph::new(line(shorten_middle(&what, area.width as usize), app.theme.header)), head);
    if let SetKind::Pending(..) = v.kind {
        frame.render_widget(Paragraph::new(Line::styled("(working on it; keys still work)", app.theme.dim)), body);
        return;
    }
    let height = body.height.saturating_sub(1) as usize;
    let cur = v.cursor;
    let rows = app.set_rows(cur.offset + height + 1);
    let width = body.width as usize;
    let (header, widths): (Row<'_>, Vec<Constraint>) = match &v.kind {
        SetKind::Merged { .. } => (
            Row::new([format!("{:>8}", "paths"), format!("{:>10}", "retained"), "reference → object".into()]),
            vec![Constraint::Length(9), Constraint::Length(11), Constraint::Min(10)],
        ),
        SetKind::Dominators { group: None, .. } => (
            Row::new([
                format!("{:>10}", "dominators"),
                format!("{:>10}", "dominated"),
                format!("{:>10}", "retained"),
                "class".into(),
            ]),
            vec![Constraint::Length(11), Constraint::Length(11), Constraint::Length(11), Constraint::Min(10)],
        ),
        _ => (
            Row::new([format!("{:>10}", "retained"), "object".into()]),
            vec![Constraint::Length(11), Constraint::Min(10)],
        ),
    };
    let lines = rows.iter().enumerate().skip(cur.offset).map(|(i, &r)| {
        let cells: Vec<String> = match (&v.kind, r) {
            (SetKind::Merged { tree, open }, SetRow::Merged(k, depth)) => {
                let n = &tree.nodes[k];
                let marker = match (tree.children(k).is_empty(), open.contains(&k)) {
                    (true, _) => "  ",
                    (false, true) => "▾ ",
                    (false, false) => "▸ ",
                };
                let reference = n
                    .parent
                    .and_then(|p| heap::paths::reference_name(&heap.index, tree.nodes[p].node, n.node))
                    .map(|r| format!("{r} → "))
                    .unwrap_or_default();
                let indent = "  ".repeat(depth.min(width.saturating_sub(22) / 4));
                let id = hex(heap.index.id(n.node));
                let room = width.saturating_sub(22 + indent.len() + 2 + reference.chars().count() + id.len() + 1);
                vec![
                    format!("{:>8}", n.paths),
                    format!("{:>10}", human_bytes(n.retained)),
                    format!(
                        "{indent}{marker}{reference}{} {id}",
                        shorten_middle(&heap.display_class(n.node), room.max(8))
                    ),
                ]
            }
            (SetKind::Dominators { result, .. }, SetRow::Group(g)) => {
                let g = &result.groups[g];
                vec![
                    format!("{:>10}", g.dominators.len()),
                    format!("{:>10}", g.dominated),
                    format!("{:>10}", human_bytes(g.retained)),
                    shorten_middle(&heap::immediate::ImmediateDominators::name(heap, g), width.saturating_sub(34)),
                ]
            }
            (_, r) => {
                let n = app.set_row_node(r);
                vec![
                    n.map_or_else(String::new, |n| format!("{:>10}", human_bytes(heap.dominators.retained(n)))),
                    n.map_or_else(String::new, |n| format!("{} {}", heap.display_class(n), hex(heap.index.id(n)))),
                ]
            }
        };
        row(cells).style(selected_style(app, i == cur.selected))
    });
    frame.render_widget(Table::new(lines, widths).header(header.style(app.theme.header)), body);
}
