//! Screen 1: the dump at a glance (heaps, leak suspects, the largest retained objects).

use heap::fmt::{human_bytes, shorten, shorten_middle};
use heap::leaks::LeakKind;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::common::{bar, line, selected_style, span};
use crate::ui::model::App;
use crate::ui::nav::overview_suspects;

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Some(l) = app.loaded() else { return };
    let heap = &l.heap;
    let s = l.summary;
    let idx = &heap.index;
    let t = &app.theme;
    let mut lines = vec![
        Line::from(vec![Span::styled(shorten(&l.path, area.width as usize - 2), t.header)]),
        Line::styled(
            format!(
                "{}, {}, size model {}",
                match &idx.heap_graph {
                    Some(g) => format!("Perfetto heap graph {} of {}", g.number, g.graphs.len()),
                    None => format!("HPROF {}, {}-byte ids", idx.header.format.as_str(), idx.header.id_size),
                },
                // The dump's size; a compressed file's own size beside it.
                match idx.bytes().len() as u64 {
                    n if n == l.file_bytes || l.file_bytes == 0 || idx.heap_graph.is_some() => human_bytes(n),
                    n => format!("{} ({} on disk)", human_bytes(n), human_bytes(l.file_bytes)),
                },
                idx.sizer.model.name()
            ),
            t.dim,
        ),
        Line::raw(s.objects_line()),
        Line::raw(format!(
            "{} GC roots on {} objects; {} reachable ({})",
            s.gc_roots,
            s.gc_root_objects,
            s.reachable_objects,
            human_bytes(s.reachable_bytes)
        )),
    ];
    for w in &idx.warnings {
        lines.push(line(format!("⚠ {w}"), t.error));
    }
    if let Some(why) = &l.no_pixels {
        lines.push(line(why.as_str(), t.dim));
    }
    lines.push(Line::raw(""));
    let wide = area.width as usize;
    let barw = (wide / 4).clamp(10, 40);
    let total = s.shallow_bytes.max(1);
    lines.push(Line::styled("Heaps", t.header));
    for (name, objects, bytes) in &l.heap_totals {
        lines.push(Line::from(vec![
            span(format!("  {name:<8} "), Style::default()),
            Span::styled(bar(*bytes, total, barw), Style::default().fg(t.bar)),
            Span::raw(format!(" {:>10} {objects:>10} objects", human_bytes(*bytes))),
        ]));
    }
    lines.push(Line::raw(""));
    if l.leaks_pending {
        lines.push(Line::styled("Leak suspects (finding...)", t.header));
    } else {
        lines.push(Line::styled(format!("Leak suspects ({})", l.leaks.len()), t.header));
    }
    let reach = s.reachable_bytes.max(1);
    let selected = app.overview.selected;
    for (i, leak) in l.leaks.iter().take(overview_suspects(l)).enumerate() {
        let kind = match leak.kind {
            LeakKind::Application => "app",
            LeakKind::Library => "lib",
            LeakKind::Unreachable => "unr",
        };
        lines.push(Line::from(vec![
            Span::raw(format!("  {kind} ")),
            Span::styled(bar(leak.retained_bytes, reach, barw), Style::default().fg(t.bar)),
            Span::raw(format!(" {:>10} {}x ", human_bytes(leak.retained_bytes), leak.instances.len())),
            Span::styled(
                shorten_middle(&leak.class, wide.saturating_sub(barw + 28)),
                selected_style(app, i == selected),
            ),
        ]));
    }
    if l.leaks.is_empty() && !l.leaks_pending {
        if idx.is_partial() {
            lines.push(Line::styled("  none found in what could be read: the dump is partial", t.error));
        } else {
            lines.push(Line::styled("  none found", t.dim));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("Largest retained objects", t.header));
    // The objects scroll so that the selected one stays in view.
    let room = (area.height as usize).saturating_sub(lines.len()).max(1);
    let suspects = overview_suspects(l);
    let first = selected.saturating_sub(suspects).saturating_sub(room - 1);
    for (j, &n) in l.top_retained.iter().enumerate().skip(first).take(room) {
        lines.push(Line::from(vec![
            Span::raw("  "),
            Span::styled(bar(heap.dominators.retained(n), reach, barw), Style::default().fg(t.bar)),
            Span::raw(format!(" {:>10} ", human_bytes(heap.dominators.retained(n)))),
            Span::styled(
                shorten_middle(&heap.display_class(n), wide.saturating_sub(barw + 16)),
                selected_style(app, suspects + j == selected),
            ),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), area);
}
