//! Screen 3: the leak suspects, or one suspect's trace from its GC root (as LeakCanary prints it).

use heap::fmt::{hex, human_bytes, shorten_middle};
use heap::leaks::inspect::Leaking;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Row, Table};
use ratatui::Frame;

use super::common::{line, row, selected_style, span};
use crate::ui::model::App;

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Some(l) = app.loaded() else { return };
    // Duplicate Bitmaps show their pictures side by side on the right.
    let area = super::picture::text_area(app, area);
    let heap = &l.heap;
    let t = &app.theme;
    if l.leaks_pending {
        frame.render_widget(Paragraph::new("Finding leak suspects...").style(t.dim), area);
        return;
    }
    // Rules that could not decide stand under the suspects, each on a line.
    let undecided: Vec<Line<'_>> = l
        .undecided
        .iter()
        .map(|u| {
            let class = u.class.rsplit('.').next().unwrap_or(u.class);
            line(format!("could not decide: {} on {} {class}: no {}", u.rule, u.objects, u.missing), t.leaking_unknown)
        })
        .collect();
    if l.leaks.is_empty() {
        let mut lines = vec![if heap.index.is_partial() {
            line("No leak suspects in what could be read: the dump is partial (its warning is below).", t.error)
        } else {
            line("No leak suspects: no rule flagged anything in this dump.", t.dim)
        }];
        lines.extend(undecided);
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    let Some(tc) = app.leaks.trace else {
        let below = (undecided.len() as u16).min(area.height / 3);
        let (area, under) = if below > 0 {
            let table = Rect { height: area.height - below, ..area };
            (table, Rect { y: area.y + table.height, height: below, ..area })
        } else {
            (area, Rect { height: 0, ..area })
        };
        if below > 0 {
            frame.render_widget(Paragraph::new(undecided), under);
        }
        let height = area.height.saturating_sub(1) as usize;
        let header = Row::new([
            "kind".to_string(),
            format!("{:>10}", "retained"),
            format!("{:>5}", "count"),
            "class — reason".into(),
        ])
        .style(t.header);
        let width = (area.width as usize).saturating_sub(36).max(10);
        let shown = app.leak_rows();
        let rows =
            shown.iter().map(|&i| &l.leaks[i]).enumerate().skip(app.leaks.cursor.offset).take(height).map(|(i, k)| {
                let kind = format!("{:?}", k.kind).to_lowercase();
                row([
                    kind,
                    format!("{:>10}", human_bytes(k.retained_bytes)),
                    format!("{:>5}", k.instances.len()),
                    format!("{} — {}", shorten_middle(&k.class, width / 2), k.reason),
                ])
                .style(selected_style(app, i == app.leaks.cursor.selected))
            });
        let widths = [Constraint::Length(11), Constraint::Length(11), Constraint::Length(6), Constraint::Min(10)];
        frame.render_widget(Table::new(rows, widths).header(header), area);
        return;
    };
    let Some(leak) = app.selected_leak() else { return };
    let mut lines: Vec<Line<'_>> = vec![line(format!("{} ({})", leak.reason, leak.rule), t.header)];
    if let Some(lib) = leak.library {
        lines.push(Line::styled(format!("library leak: {} {} — {}", lib.pattern(), lib.bug, lib.description), t.dim));
    }
    let root = leak.gc_root.map_or("Unknown GC root type", |k| k.label());
    lines.push(Line::styled(format!("┬ GC root: {root}"), t.dim));
    let mut selected_line = 0;
    for (i, step) in leak.trace.iter().enumerate() {
        let last = i + 1 == leak.trace.len();
        let head = if last { "╰→ " } else { "├─ " };
        let (verdict, style) = match step.leaking {
            Leaking::Yes => (format!("YES ({})", step.why), t.leaking_yes),
            Leaking::No => (format!("NO ({})", step.why), t.leaking_no),
            Leaking::Unknown => ("UNKNOWN".to_string(), t.leaking_unknown),
        };
        if i == tc.selected {
            selected_line = lines.len();
        }
        lines.push(Line::from(vec![
            Span::raw(head),
            span(heap.display_class(step.node), selected_style(app, i == tc.selected)),
            Span::styled(format!(" {}", hex(heap.index.id(step.node))), t.dim),
        ]));
        let pad = if last { "     " } else { "│    " };
        lines.push(Line::from(vec![Span::raw(pad), Span::raw("Leaking: "), span(verdict, style)]));
        // What each object holds, as LeakCanary gives it for the leaking ones: every node here.
        lines.push(line(
            format!(
                "{pad}Retaining {} in {}",
                human_bytes(heap.dominators.retained(step.node)),
                heap::fmt::count(u64::from(heap.dominators.retained_count(step.node)), "object")
            ),
            t.dim,
        ));
        for label in &step.labels {
            lines.push(line(format!("{pad}{label}"), t.dim));
        }
        if let Some(r) = &step.reference {
            let s = if step.suspect_reference { t.suspect } else { t.text };
            lines.push(Line::from(vec![Span::raw(format!("{pad}↓ ")), span(r.as_str(), s)]));
        }
    }
    lines.push(Line::styled(
        format!(
            "Retaining {} in {} ({} in this group)",
            human_bytes(leak.retained_bytes),
            heap::fmt::count(leak.retained_objects, "object"),
            heap::fmt::count(leak.instances.len() as u64, "instance")
        ),
        t.dim,
    ));
    let height = area.height as usize;
    let scroll = selected_line.saturating_sub(height.saturating_sub(4));
    frame.render_widget(Paragraph::new(lines).scroll((scroll as u16, 0)), area);
}
