//! Drawing: one function per screen, all reading the model. Nothing here changes state or waits.

use heap::leaks::inspect::Leaking;
use heap::leaks::LeakKind;
use heap::report::{hex, human_bytes, shorten};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Gauge, Paragraph, Row, Table, Wrap};
use ratatui::Frame;

use super::model::{App, Load};
use super::screen::Screen;
use super::keymap::help_for;

/// Draws the whole UI.
pub fn draw(frame: &mut Frame<'_>, app: &App) {
    let [tabs, body, status] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1), Constraint::Length(1)]).areas(frame.area());
    draw_tabs(frame, tabs, app);
    match &app.load {
        Load::Picking(p) => draw_picker(frame, body, app, p),
        _ if app.screen == Screen::Monitor => draw_monitor(frame, body, app),
        Load::Empty => draw_no_dump(frame, body, app),
        Load::Loading(_) => draw_loading(frame, body, app),
        Load::Failed(e) => draw_error(frame, body, app, e),
        Load::Ready(_) => match app.screen {
            Screen::Overview => draw_overview(frame, body, app),
            Screen::Classes => draw_classes(frame, body, app),
            Screen::Leaks => draw_leaks(frame, body, app),
            Screen::Dominators => draw_dominators(frame, body, app),
            Screen::Inspector => draw_inspector(frame, body, app),
            Screen::Monitor => draw_monitor(frame, body, app),
        },
    }
    draw_status(frame, status, app);
    if app.help {
        draw_help(frame, body, app);
    }
}

fn draw_tabs(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let mut spans = vec![Span::styled(" heaptui ", app.theme.header)];
    for (i, s) in Screen::ALL.iter().enumerate() {
        let style = if *s == app.screen { app.theme.selection } else { app.theme.dim };
        spans.push(Span::styled(format!(" {} {} ", i + 1, s.title()), style));
    }
    frame.render_widget(Line::from(spans), area);
}

fn draw_status(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let mut left = format!(" {}", app.screen.title());
    if let Some(l) = app.loaded() {
        left.push_str(&format!(" · {}", shorten(&l.path, (area.width as usize / 4).clamp(12, 40))));
    }
    match app.screen {
        Screen::Classes => {
            if let Some((c, nodes, cur)) = &app.classes.instances {
                if let Some(l) = app.loaded() {
                    left.push_str(&format!(
                        " · {} · {}/{}",
                        l.heap.index.classes[*c as usize].name,
                        cur.selected + 1,
                        nodes.len()
                    ));
                }
            } else {
                left.push_str(&format!(
                    " · {}/{}",
                    (app.classes.cursor.selected + 1).min(app.classes.rows.len()),
                    app.classes.rows.len()
                ));
                if let Some(s) = app.classes.sort {
                    left.push_str(&format!(" · sort: {}", s.label()));
                }
                if app.classes.editing || !app.classes.filter.is_empty() {
                    left.push_str(&format!(" · filter: {}", app.classes.filter.shown(app.classes.editing)));
                }
            }
        }
        Screen::Inspector => left.push_str(&format!(" · history {}", app.inspector.history.len())),
        _ => {}
    }
    if let Some(s) = &app.status {
        left.push_str(&format!(" · {s}"));
    }
    let right = "? help  q quit ";
    let width = area.width as usize;
    let room = width.saturating_sub(right.chars().count());
    if left.chars().count() > room {
        left = left.chars().take(room.saturating_sub(1)).collect::<String>() + "…";
    }
    let pad = room.saturating_sub(left.chars().count());
    let text = format!("{left}{}{right}", " ".repeat(pad));
    frame.render_widget(Paragraph::new(text).style(app.theme.status), area);
}

fn draw_picker(frame: &mut Frame<'_>, area: Rect, app: &App, p: &super::picker::Picker) {
    let [head, list] = Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(area);
    let second = if p.editing || !p.filter.is_empty() {
        Line::raw(format!("filter: {}", p.filter.shown(p.editing)))
    } else {
        Line::styled(
            "Enter opens a dump or watches a process (phones' apps, then dumps, then local JVMs) · / filter",
            app.theme.dim,
        )
    };
    frame.render_widget(
        Paragraph::new(vec![Line::styled("Open a heap dump or watch a process", app.theme.header), second]),
        head,
    );
    let height = list.height as usize;
    let lines: Vec<Line<'_>> = p
        .shown
        .iter()
        .enumerate()
        .skip(p.cursor.offset)
        .take(height)
        .map(|(row, &i)| Line::styled(format!(" {}", p.items[i].label), selected_style(app, row == p.cursor.selected)))
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
}

fn draw_no_dump(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let text = vec![
        Line::styled("No dump yet", app.theme.header),
        Line::raw(""),
        Line::raw("The monitor (6) is watching a process: press d there to dump it now, or a to dump"),
        Line::raw("when a trigger fires. The dump opens here when it is taken."),
    ];
    frame.render_widget(Paragraph::new(text), area);
}

fn draw_loading(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Load::Loading(p) = &app.load else { return };
    let block = Block::default().borders(Borders::ALL).title(" Loading ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // A dump taken from the monitor shows its own phases first.
    let dumping = p.phases.iter().any(|(n, _, _)| *n == "dump");
    let names: Vec<&str> = if dumping {
        vec!["dump", "strip", "transfer", "restore", "read", "index", "dominators", "histogram", "leaks"]
    } else {
        vec!["read", "index", "dominators", "histogram", "leaks"]
    };
    let rows = Layout::vertical(names.iter().map(|_| Constraint::Length(2)).collect::<Vec<_>>()).split(inner);
    for (i, name) in names.iter().enumerate() {
        let (done, total) = p.phases.iter().find(|(n, _, _)| n == name).map_or((0, 0), |e| (e.1, e.2));
        let ratio = if total > 0 { (done as f64 / total as f64).clamp(0.0, 1.0) } else { 0.0 };
        let mut label = format!("{name:<11} {:>3.0}%", ratio * 100.0);
        let elapsed = p.began.get(name).unwrap_or(&p.started).elapsed().as_secs_f64();
        if matches!(*name, "read" | "transfer" | "restore") && total > 1 && done > 0 {
            let rate = done as f64 / elapsed.max(0.001);
            label.push_str(&format!(
                "  {} of {}  {}/s",
                human_bytes(done),
                human_bytes(total),
                human_bytes(rate as u64)
            ));
            if ratio < 1.0 {
                label.push_str(&format!("  ETA {:.0} s", (total - done) as f64 / rate));
            }
        }
        let later = p.phases.iter().position(|(n, _, _)| n == name).is_some_and(|k| k + 1 < p.phases.len());
        let ratio = if later { 1.0 } else { ratio };
        if let Some(area) = rows.get(i) {
            let g = Gauge::default().ratio(ratio).label(label).gauge_style(Style::default().fg(app.theme.bar));
            frame.render_widget(g, Rect { height: 1, ..*area });
        }
    }
}

fn draw_error(frame: &mut Frame<'_>, area: Rect, app: &App, e: &str) {
    let text = vec![
        Line::styled("The dump could not be opened", app.theme.error),
        Line::raw(""),
        Line::raw(e.to_string()),
        Line::raw(""),
        Line::styled("q quits", app.theme.dim),
    ];
    frame.render_widget(
        Paragraph::new(text).wrap(Wrap { trim: false }).block(Block::default().borders(Borders::ALL)),
        area,
    );
}

/// A bar of `width` cells for `part` of `whole`.
fn bar(part: u64, whole: u64, width: usize) -> String {
    let filled = if whole == 0 { 0 } else { ((part as f64 / whole as f64) * width as f64).round() as usize };
    format!("{}{}", "█".repeat(filled.min(width)), "·".repeat(width - filled.min(width)))
}

fn draw_overview(frame: &mut Frame<'_>, area: Rect, app: &App) {
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
            Span::raw(format!("  {name:<8} ")),
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

fn selected_style(app: &App, selected: bool) -> Style {
    if selected {
        app.theme.selection
    } else {
        app.theme.text
    }
}

fn draw_classes(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Some(l) = app.loaded() else { return };
    let heap = &l.heap;
    let height = area.height.saturating_sub(1) as usize;
    let name_width = (area.width as usize).saturating_sub(40).max(10);
    if let Some((c, nodes, cur)) = &app.classes.instances {
        let header =
            Row::new(["id".to_string(), format!("{:>10}", "shallow"), format!("{:>10}", "retained"), "reach".into()])
                .style(app.theme.header);
        let rows = nodes.iter().enumerate().skip(cur.offset).take(height).map(|(i, &n)| {
            Row::new([
                hex(heap.index.id(n)),
                format!("{:>10}", human_bytes(heap.index.shallow_size(n))),
                format!("{:>10}", human_bytes(heap.dominators.retained(n))),
                format!("{:?}", heap.dominators.reach(n)).to_lowercase(),
            ])
            .style(selected_style(app, i == cur.selected))
        });
        let widths = [Constraint::Length(20), Constraint::Length(11), Constraint::Length(11), Constraint::Min(8)];
        let title = format!(" {} ", shorten(&heap.index.classes[*c as usize].name, area.width as usize - 4));
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
        Row::new([
            format!("{:>10}", r.instances),
            format!("{:>10}", human_bytes(r.shallow)),
            format!("{:>10}", human_bytes(r.retained)),
            shorten(&r.name, name_width),
        ])
        .style(selected_style(app, i == app.classes.cursor.selected))
    });
    let widths = [Constraint::Length(10), Constraint::Length(11), Constraint::Length(11), Constraint::Min(10)];
    frame.render_widget(Table::new(rows, widths).header(header), area);
}

fn draw_leaks(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Some(l) = app.loaded() else { return };
    let heap = &l.heap;
    let t = &app.theme;
    if l.leaks_pending {
        frame.render_widget(Paragraph::new("Finding leak suspects...").style(t.dim), area);
        return;
    }
    if l.leaks.is_empty() {
        frame.render_widget(
            Paragraph::new("No leak suspects: no rule flagged anything in this dump.").style(t.dim),
            area,
        );
        return;
    }
    let Some(tc) = app.leaks.trace else {
        let height = area.height.saturating_sub(1) as usize;
        let header = Row::new([
            "kind".to_string(),
            format!("{:>10}", "retained"),
            format!("{:>5}", "count"),
            "class — reason".into(),
        ])
        .style(t.header);
        let width = (area.width as usize).saturating_sub(36).max(10);
        let rows = l.leaks.iter().enumerate().skip(app.leaks.cursor.offset).take(height).map(|(i, k)| {
            let kind = format!("{:?}", k.kind).to_lowercase();
            Row::new([
                kind,
                format!("{:>10}", human_bytes(k.retained_bytes)),
                format!("{:>5}", k.instances.len()),
                format!("{} — {}", shorten(&k.class, width / 2), k.reason),
            ])
            .style(selected_style(app, i == app.leaks.cursor.selected))
        });
        let widths = [Constraint::Length(11), Constraint::Length(11), Constraint::Length(6), Constraint::Min(10)];
        frame.render_widget(Table::new(rows, widths).header(header), area);
        return;
    };
    let Some(leak) = l.leaks.get(app.leaks.cursor.selected) else { return };
    let mut lines: Vec<Line<'_>> = vec![Line::styled(format!("{} ({})", leak.reason, leak.rule), t.header)];
    if let Some(lib) = leak.library {
        lines.push(Line::styled(format!("library leak: {} {} — {}", lib.pattern(), lib.bug, lib.description), t.dim));
    }
    let root = leak.gc_root.map_or("unknown", |k| k.name());
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
            Span::styled(heap.display_class(step.node), selected_style(app, i == tc.selected)),
            Span::styled(format!(" {}", hex(heap.index.id(step.node))), t.dim),
        ]));
        let pad = if last { "     " } else { "│    " };
        lines.push(Line::from(vec![Span::raw(pad), Span::raw("Leaking: "), Span::styled(verdict, style)]));
        for label in &step.labels {
            lines.push(Line::styled(format!("{pad}{label}"), t.dim));
        }
        if let Some(r) = &step.reference {
            let s = if step.suspect_reference { t.suspect } else { t.text };
            lines.push(Line::from(vec![Span::raw(format!("{pad}↓ ")), Span::styled(r.clone(), s)]));
        }
    }
    lines.push(Line::styled(
        format!(
            "Retaining {} in {} objects ({} instances in this group)",
            human_bytes(leak.retained_bytes),
            leak.retained_objects,
            leak.instances.len()
        ),
        t.dim,
    ));
    let height = area.height as usize;
    let scroll = selected_line.saturating_sub(height.saturating_sub(4));
    frame.render_widget(Paragraph::new(lines).scroll((scroll as u16, 0)), area);
}

fn draw_dominators(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let Some(l) = app.loaded() else { return };
    let heap = &l.heap;
    let height = area.height.saturating_sub(1) as usize;
    let cur = app.dom.cursor;
    let rows = app.dom_rows(cur.offset + height);
    let total = heap.dominators.reachable_bytes.max(1);
    let width = area.width as usize;
    let header =
        Row::new([format!("{:>10}", "retained"), format!("{:>6}", "share"), "object".into()]).style(app.theme.header);
    let body = rows.iter().enumerate().skip(cur.offset).map(|(i, r)| {
        let retained = heap.dominators.retained(r.node);
        let has_children = !heap.dominators.children(Some(r.node)).is_empty();
        let marker = match (has_children, app.dom.expanded.contains(&Some(r.node))) {
            (false, _) => "  ",
            (true, true) => "▾ ",
            (true, false) => "▸ ",
        };
        let label =
            format!("{}{marker}{} {}", "  ".repeat(r.depth), heap.display_class(r.node), hex(heap.index.id(r.node)));
        Row::new([
            format!("{:>10}", human_bytes(retained)),
            format!("{:>5.1}% {}", retained as f64 * 100.0 / total as f64, bar(retained, total, 8)),
            shorten(&label, width.saturating_sub(29)),
        ])
        .style(selected_style(app, i == cur.selected))
    });
    let widths = [Constraint::Length(11), Constraint::Length(16), Constraint::Min(10)];
    frame.render_widget(Table::new(body, widths).header(header), area);
}

fn draw_inspector(frame: &mut Frame<'_>, area: Rect, app: &App) {
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
        Line::from(vec![
            Span::styled(heap.display_class(n), t.header),
            Span::styled(format!(" {}", hex(idx.id(n))), t.dim),
        ]),
        Line::raw(format!(
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
        )),
    ];
    let roots = heap.root_kinds(n);
    if !roots.is_empty() {
        let names: Vec<&str> = roots.iter().map(|k| k.name()).collect();
        lines.push(Line::styled(format!("GC root: {}", names.join(", ")), t.accent));
    }
    if let Some(s) = idx.string_value(n) {
        lines.push(Line::raw(format!("value: {:?}", s.chars().take(width.saturating_sub(10)).collect::<String>())));
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
        lines.push(Line::styled(text, style));
        link += 1;
    };
    lines.push(Line::styled("Fields", t.header));
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
            lines.push(Line::styled(text, t.text));
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

fn draw_monitor(frame: &mut Frame<'_>, area: Rect, app: &App) {
    super::monitor::draw(frame, area, &app.theme, app.monitor.as_ref());
}

fn draw_help(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let bindings = help_for(app.screen);
    // One column when it fits, two side by side on short terminals.
    let columns = if bindings.len() as u16 + 2 > area.height && area.width >= 80 { 2 } else { 1 };
    let per_column = bindings.len().div_ceil(columns);
    let col_width = if columns == 2 { (area.width as usize - 2) / 2 } else { 58.min(area.width as usize - 2) };
    let h = (per_column as u16 + 2).min(area.height);
    let w = (col_width * columns + 2) as u16;
    let popup = Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h };
    let cell = |b: &super::keymap::Binding| {
        let text: String = format!("{:<14}{}", b.label, b.description).chars().take(col_width).collect();
        format!("{text:<col_width$}")
    };
    let lines: Vec<Line<'_>> = (0..per_column)
        .map(|row| {
            let spans: Vec<Span<'_>> = (0..columns)
                .filter_map(|c| bindings.get(c * per_column + row))
                .map(|b| Span::styled(cell(b), app.theme.text))
                .collect();
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Clear, popup);
    let title = format!(" Keys: {} (any key closes) ", app.screen.title());
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default().borders(Borders::ALL).title(title).style(app.theme.text.add_modifier(Modifier::empty())),
        ),
        popup,
    );
}
