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
use crate::ui::nav::Section;

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
    // A Bitmap's picture takes the right-hand pane (drawn after the frame is scrubbed).
    let area = super::picture::text_area(app, area);
    let d = &heap.dominators;
    let width = area.width as usize;
    let mut lines: Vec<Line<'_>> = vec![
        Line::from(vec![span(heap.display_class(n), t.header), span(format!(" {}", hex(idx.id(n))), t.dim)]),
        line(
            format!(
                "heap {} · shallow {} · retained {} in {} · {}{}",
                idx.heaps.get(idx.heap_of(n)).map_or("default", |h| h.name.as_str()),
                human_bytes(idx.shallow_size(n)),
                human_bytes(d.retained(n)),
                heap::fmt::count(u64::from(d.retained_count(n)), "object"),
                super::common::reachability(heap, n),
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
        let names: Vec<&str> = roots.iter().map(|k| k.label()).collect();
        let of = idx.root_thread(n).and_then(|th| heap.thread_name(th)).map(|th| format!(" (thread '{th}')"));
        lines.push(line(format!("GC root: {}{}", names.join(", "), of.unwrap_or_default()), t.accent));
    }
    if heap.is_bitmap(n) {
        lines.push(line(format!("{} · v shows it whole", super::picture::describe(heap, n)), t.accent));
    }
    // A class object: the class it stands for, its instances and their sizes.
    if let Some(c) = idx.as_class(n) {
        let h = heap.histogram[c.index()];
        lines.push(line(
            format!(
                "class object of {}: {}, {} shallow, {} retained",
                idx.classes[c.index()].name,
                heap::fmt::count(h.instances, "instance"),
                human_bytes(h.shallow_bytes),
                human_bytes(h.retained_bytes)
            ),
            Style::default(),
        ));
    }
    if let Some(s) = idx.string_value(n) {
        lines.push(line(
            format!("value: {:?}", heap::fmt::shorten_end(&s, width.saturating_sub(10).max(2))),
            Style::default(),
        ));
    }
    // The rows, in the order `inspector_rows` lists them; the cursor moves over every one,
    // and those that name an object (or more of a list) lead somewhere.
    let mut at = 0usize;
    let sel = app.inspector.cursor.selected;
    let mut selected_line = 0;
    let mut row_line = |lines: &mut Vec<Line<'_>>, text: String, links: bool| {
        let style = if at == sel {
            selected_style(app, true)
        } else if links {
            t.text
        } else {
            t.dim
        };
        if at == sel {
            selected_line = lines.len();
        }
        lines.push(line(text, style));
        at += 1;
    };
    // The sections' headers, each before its first row (Fields and the path even when empty).
    let rows = app.inspector_rows();
    let header = |lines: &mut Vec<Line<'_>>, s: Section| {
        let text = match s {
            Section::Fields => "Fields".to_string(),
            Section::Elements(len) => format!("Elements ({len})"),
            Section::Values(len, ty) => format!("Values ({})", heap::fmt::count(len as u64, ty)),
            Section::Referrers(count) => format!("Referrers ({count})"),
            Section::Path => "Path from a GC root".to_string(),
        };
        lines.push(Line::styled(text, t.header));
        if s == Section::Fields && idx.heap_graph.is_some() {
            // Short enough for 80 columns; `inspect` and the warnings name the few values kept.
            lines.push(line(
                "  values not recorded (a heap graph keeps references and a few runtime values)",
                t.leaking_unknown,
            ));
        }
    };
    // Each section under its header, in order; Fields, Referrers and the path have theirs even
    // when the filter leaves them empty, Elements only for an object array.
    let contents = rows.iter().find_map(|r| match r.section {
        s @ (Section::Elements(_) | Section::Values(..)) => Some(s),
        _ => None,
    });
    let mut sections = vec![Section::Fields];
    sections.extend(contents);
    sections.extend([Section::Referrers(heap.referrers(n).len()), Section::Path]);
    for s in sections {
        header(&mut lines, s);
        for r in rows.iter().filter(|r| std::mem::discriminant(&r.section) == std::mem::discriminant(&s)) {
            row_line(&mut lines, format!("  {}", r.text), r.link.is_some());
        }
    }
    let height = area.height as usize;
    let scroll = selected_line.saturating_sub(height.saturating_sub(2));
    frame.render_widget(Paragraph::new(lines).scroll((scroll as u16, 0)), area);
}
