//! Screen 1: the dump at a glance (heaps, leak suspects, the largest retained objects).

use heap::fmt::{human_bytes, shorten};
use heap::leaks::LeakKind;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::common::{bar, span};
use crate::ui::model::App;

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
                "HPROF {}, {}-byte ids, {}, size model {}",
                idx.header.format.as_str(),
                idx.header.id_size,
                human_bytes(l.file_bytes),
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
        Line::raw(""),
    ];
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
    for leak in l.leaks.iter().take(5) {
        let kind = match leak.kind {
            LeakKind::Application => "app",
            LeakKind::Library => "lib",
            LeakKind::Unreachable => "unr",
        };
        lines.push(Line::from(vec![
            Span::raw(format!("  {kind} ")),
            Span::styled(bar(leak.retained_bytes, reach, barw), Style::default().fg(t.bar)),
            Span::raw(format!(" {:>10} {}x ", human_bytes(leak.retained_bytes), leak.instances.len())),
            Span::styled(shorten(&leak.class, wide.saturating_sub(barw + 28)), t.text),
        ]));
    }
    if l.leaks.is_empty() && !l.leaks_pending {
        lines.push(Line::styled("  none found", t.dim));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("Largest retained objects", t.header));
    let room = (area.height as usize).saturating_sub(lines.len()).max(1);
    for &n in l.top_retained.iter().take(room) {
        lines.push(Line::from(vec![
            Span::raw("  "),
            Span::styled(bar(heap.dominators.retained(n), reach, barw), Style::default().fg(t.bar)),
            Span::raw(format!(" {:>10} ", human_bytes(heap.dominators.retained(n)))),
            Span::styled(shorten(&heap.display_class(n), wide.saturating_sub(barw + 16)), t.text),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), area);
}
