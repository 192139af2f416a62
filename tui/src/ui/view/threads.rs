//! Screen 8: the threads, each open on its stack: frames as a Java stack trace reads, each
//! followed by the objects it holds with their retained sizes.

use heap::fmt::{hex, human_bytes, shorten_middle};
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Row, Table};
use ratatui::Frame;

use super::common::{row, selected_style};
use crate::ui::model::{App, ThreadRow};

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Some(l) = app.loaded() else { return };
    let heap = &l.heap;
    if l.threads.is_empty() {
        let text = "The dump names no threads (no THREAD OBJECT roots).";
        frame.render_widget(Paragraph::new(Line::styled(text, app.theme.dim)), area);
        return;
    }
    let rows = app.thread_rows();
    let cur = app.threads.cursor;
    let height = area.height.saturating_sub(1) as usize;
    let room = (area.width as usize).saturating_sub(12);
    let header =
        Row::new([format!("{:>10}", "retained"), "thread · frame · object it holds".into()]).style(app.theme.header);
    let body = rows.iter().enumerate().skip(cur.offset).take(height).map(|(i, &r)| {
        let (size, text, style) = match r {
            ThreadRow::Thread(t) => {
                let t = &l.threads[t];
                let marker = if app.threads.open.contains(&t.node) { "▾" } else { "▸" };
                let frames = match &t.frames {
                    Some(f) => format!("{} frames", f.len()),
                    None => "no stack".to_string(),
                };
                let locals = t.frames.iter().flatten().map(|f| f.locals.len()).sum::<usize>() + t.unplaced.len();
                let name = t.name.as_deref().map_or_else(|| "<unnamed>".to_string(), |n| format!("\"{n}\""));
                // The marker, the name and the counts stay; the class gives way, in its middle.
                let head = format!("{marker} {}", shorten_middle(&name, room / 3));
                let tail = format!("{} · {frames}, {locals} locals", hex(heap.index.id(t.node)));
                let class = room.saturating_sub(head.chars().count() + tail.chars().count() + 2).max(8);
                let text = format!("{head} {} {tail}", shorten_middle(&heap.display_class(t.node), class));
                (Some(t.node), text, app.theme.text)
            }
            ThreadRow::Frame(t, f) => {
                let f = &l.threads[t].frames.as_ref().map(|v| &v[f].frame);
                let text = f.map_or_else(String::new, |f| {
                    let at = format!("{}.{}({})", f.class, f.method, f.location());
                    format!("    at {}", shorten_middle(&at, room.saturating_sub(7)))
                });
                (None, text, app.theme.text)
            }
            ThreadRow::Local(..) => {
                let n = app.thread_row_node(r);
                let text = n.map_or_else(String::new, |n| {
                    let id = hex(heap.index.id(n));
                    let class = room.saturating_sub(15 + id.len()).max(8);
                    format!("        holds {} {id}", shorten_middle(&heap.display_class(n), class))
                });
                (n, text, app.theme.text)
            }
            ThreadRow::Note(_, why) => (None, format!("    ({why})"), app.theme.dim),
        };
        let size = size.map_or_else(String::new, |n| format!("{:>10}", human_bytes(heap.dominators.retained(n))));
        let style = if i == cur.selected { selected_style(app, true) } else { style };
        row([size, shorten_middle(&text, room)]).style(style)
    });
    let widths = [Constraint::Length(11), Constraint::Min(10)];
    frame.render_widget(Table::new(body, widths).header(header), area);
}
