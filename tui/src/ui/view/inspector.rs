//! Screen 5: one object, its fields, referrers and path from a GC root; every row that names an
//! object links to it.

use heap::fmt::{hex, human_bytes};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::common::{line, selected_style, span};
use crate::ui::model::App;

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Some(l) = app.loaded() else { return };
    let heap = &l.heap;
    let idx = &heap.index;
    let t = &app.theme;
    let Some(&n) = app.inspector.history.last() else {
        frame.render_widget(
            Paragraph::new("Nothing open yet: press Enter on an object in Classes, Leaks or Dominators.").style(t.dim),
            area,
        );
        return;
    };
    let d = &heap.dominators;
    let width = area.width as usize;
    let mut lines: Vec<Line<'_>> = vec![
        Line::from(vec![span(heap.display_class(n), t.header), span(format!(" {}", hex(idx.id(n))), t.dim)]),
        line(
            format!(
                "heap {} · shallow {} · retained {} in {} objects · {:?}{}",
                idx.heaps.get(idx.heap_of(n)).map_or("default", |h| h.name.as_str()),
                human_bytes(idx.shallow_size(n)),
                human_bytes(d.retained(n)),
                d.retained_count(n),
                d.reach(n),
                match heap.native_size(n) {
                    0 => String::new(),
                    b => format!(" · native {}", human_bytes(b)),
                }
            ),
            Style::default(),
        ),
    ];
    let roots = heap.root_kinds(n);
    if !roots.is_empty() {
        let names: Vec<&str> = roots.iter().map(|k| k.name()).collect();
        lines.push(Line::styled(format!("GC root: {}", names.join(", ")), t.accent));
    }
    if let Some(s) = idx.string_value(n) {
        lines.push(line(
            format!("value: {:?}", s.chars().take(width.saturating_sub(10)).collect::<String>()),
            Style::default(),
        ));
    }
    // Link rows, in the order `inspector_links` lists them.
    let mut link = 0usize;
    let sel = app.inspector.cursor.selected;
    let mut selected_line = 0;
    let mut link_line = |lines: &mut Vec<Line<'_>>, text: String| {
        let style = selected_style(app, link == sel);
        if link == sel {
            selected_line = lines.len();
        }
        lines.push(line(text, style));
        link += 1;
    };
    lines.push(Line::styled("Fields", t.header));
    if idx.heap_graph.is_some() {
        // Short enough for 80 columns; `inspect` and the warnings name the few values kept.
        lines.push(line(
            "  values not recorded (a heap graph keeps references and a few runtime values)",
            t.leaking_unknown,
        ));
    }
    for f in idx.fields(n) {
        let st = if f.is_static { "static " } else { "" };
        let target = f.value.as_object().and_then(|id| idx.node(id));
        let text = match target {
            Some(tn) => {
                let extra = idx
                    .string_value(tn)
                    .map(|s| format!(" {:?}", s.chars().take(40).collect::<String>()))
                    .unwrap_or_default();
                format!("  {st}{} {} → {}{extra}", f.ty.java_name(), f.name, heap.display_class(tn))
            }
            None => format!("  {st}{} {} = {}", f.ty.java_name(), f.name, f.value),
        };
        if target.is_some() {
            link_line(&mut lines, text);
        } else {
            lines.push(line(text, t.text));
        }
    }
    if idx.class(n).kind == heap::index::classes::ClassKind::ObjectArray {
        if let Some(values) = idx.array_values(n) {
            lines.push(Line::styled(format!("Elements ({})", values.len()), t.header));
            for (i, v) in values.iter().take(1000).enumerate() {
                if let Some(tn) = v.as_object().and_then(|id| idx.node(id)) {
                    link_line(&mut lines, format!("  [{i}] → {}", heap.display_class(tn)));
                }
            }
        }
    }
    let referrers = heap.referrers(n);
    lines.push(Line::styled(format!("Referrers ({})", referrers.len()), t.header));
    for (r, weak) in referrers.iter().take(200) {
        let w = if *weak { " (weak)" } else { "" };
        link_line(&mut lines, format!("  ← {} {}{w}", heap.display_class(*r), hex(idx.id(*r))));
    }
    let path = heap.paths().path(idx, n);
    lines.push(Line::styled("Path from a GC root", t.header));
    for s in path {
        let r = s.reference.unwrap_or_else(|| "(root)".into());
        link_line(&mut lines, format!("  {r:<20} {}", heap.display_class(s.node)));
    }
    let height = area.height as usize;
    let scroll = selected_line.saturating_sub(height.saturating_sub(2));
    frame.render_widget(Paragraph::new(lines).scroll((scroll as u16, 0)), area);
}
