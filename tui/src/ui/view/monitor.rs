//! Screen 6, the live monitor: the watched process's Java heap, RSS/PSS, threads and open files
//! charted against the lines that trigger a dump, and the events log.

use agent::sample::{Field, Sample};
use heap::fmt::human_bytes;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph};
use ratatui::Frame;

use super::common::{self, span};
use crate::ui::model::App;
use crate::ui::theme::Theme;

fn mib(b: u64) -> f64 {
    b as f64 / (1 << 20) as f64
}

/// Draws the monitor screen.
pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let theme = &app.theme;
    let Some(m) = &app.monitor else {
        let text = vec![
            Line::styled("Nothing is being watched", theme.header),
            Line::raw(""),
            Line::raw("Run heaptui with no argument and pick a process (a phone's app or a local JVM):"),
            Line::raw("this screen then charts its Java heap, RSS/PSS, threads and open files against"),
            Line::raw("the lines that trigger a dump. Headless: heaptui monitor PROCESS --json."),
        ];
        frame.render_widget(Paragraph::new(text), area);
        return;
    };
    let [head, charts, log] =
        Layout::vertical([Constraint::Length(3), Constraint::Min(8), Constraint::Length(7)]).areas(area);
    let last = m.samples.back().map(|s| &s.1);
    let name = &m.target.name;
    let mut state =
        format!("auto-dump {}{}", if m.auto_dump { "ON" } else { "off" }, if m.dumping { " · dumping…" } else { "" });
    if let Some(p) = m.dumps.last() {
        state.push_str(&format!(" · dumped {}", p.display()));
    }
    if let Some(e) = &m.ended {
        state.push_str(&format!(" · ended: {e}"));
    }
    let mut lines = vec![
        Line::from(vec![
            span(format!("{} ({}) on {}", name, m.target.pid, m.target.device()), theme.header),
            span(format!("  {state}"), Style::default()),
        ]),
        common::line(format!("thresholds: {}", m.describe()), theme.dim),
    ];
    lines.push(match &m.editing {
        Some(spec) => {
            common::line(format!("new thresholds (Enter applies, Esc cancels): {}", spec.shown(true)), Style::default())
        }
        None => Line::styled("a auto-dump · t thresholds · d dump now", theme.dim),
    });
    frame.render_widget(Paragraph::new(lines), head);

    let [top, bottom] = Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(charts);
    let [heap_area, mem_area] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(top);
    let [thr_area, fd_area] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(bottom);
    let series = |f: &dyn Fn(&Sample) -> Option<f64>| -> Vec<(f64, f64)> {
        m.samples.iter().filter_map(|(t, s)| f(s).map(|v| (*t, v))).collect()
    };
    let flat = |v: Option<f64>| -> Vec<(f64, f64)> {
        match (v, m.samples.front(), m.samples.back()) {
            (Some(v), Some(a), Some(b)) => vec![(a.0, v), (b.0, v)],
            _ => Vec::new(),
        }
    };

    // Java heap: used, max, and the trigger's line.
    let used = series(&|s| s.java_heap.map(|h| mib(h.used)));
    let max = last.and_then(|s| s.java_heap).map(|h| h.max);
    let line = max.and_then(|mx| m.triggers.heap_line(mx));
    let title = match (last, last.and_then(|s| s.java_heap)) {
        (Some(s), Some(h)) => format!(
            " Java heap {} / {}{}{} ",
            human_bytes(h.used),
            human_bytes(h.max),
            s.sources.get(&Field::HeapLimit).map_or(String::new(), |src| format!(" ({src})")),
            line.map_or(String::new(), |l| format!(", dump at {}", human_bytes(l)))
        ),
        (Some(s), None) if s.missing.iter().any(|m| m.field == Field::JavaHeap) => {
            format!(" Java heap: unavailable{} ", why(s, Field::JavaHeap))
        }
        _ => " Java heap: unknown (no hsperfdata or dumpsys) ".to_string(),
    };
    // Each dump as a vertical line, as high as the heap's max.
    let top = max.map(mib).unwrap_or_else(|| used.iter().map(|p| p.1).fold(1.0, f64::max));
    let mut heap_series = vec![
        ("used", used, theme.accent),
        ("max", flat(max.map(mib)), theme.dim),
        ("trigger", flat(line.map(mib)), theme.error),
    ];
    // Marks of dumps older than the oldest sample kept have scrolled off.
    let since = m.samples.front().map_or(0.0, |s| s.0);
    for (i, &t) in m.marks.iter().filter(|&&t| t >= since).enumerate() {
        heap_series.push((if i == 0 { "dump" } else { "" }, vec![(t, 0.0), (t, top)], theme.header));
    }
    chart(frame, heap_area, theme, &title, "MiB", heap_series);

    let rss = series(&|s| Some(s.rss_kb as f64 / 1024.0));
    let pss = series(&|s| s.pss_kb.map(|k| k as f64 / 1024.0));
    let title = match last {
        Some(s) => format!(
            " RSS {} · PSS {}{} ",
            human_bytes(s.rss_kb.saturating_mul(1024)),
            s.pss_kb.map_or("unavailable".into(), |k| human_bytes(k.saturating_mul(1024))),
            from(s, Field::PssKb)
        ),
        None => " RSS · PSS ".into(),
    };
    chart(frame, mem_area, theme, &title, "MiB", vec![("rss", rss, theme.accent), ("pss", pss, theme.dim)]);

    let threads = series(&|s| Some(s.threads as f64));
    let tl = m.triggers.config.threads.map(|n| n as f64);
    let title = format!(" Threads {} ", last.map_or("-".into(), |s| s.threads.to_string()));
    chart(
        frame,
        thr_area,
        theme,
        &title,
        "",
        vec![("threads", threads, theme.accent), ("trigger", flat(tl), theme.error)],
    );

    let fds = series(&|s| s.fds.map(|n| n as f64));
    let fl = m.triggers.fd_line(last.and_then(|s| s.fd_limit)).map(|n| n as f64);
    let title = match last {
        Some(s) if s.fds.is_none() => format!(" Open files: unavailable{} ", why(s, Field::Fds)),
        _ => format!(
            " Open files {}{}{} ",
            last.and_then(|s| s.fds).map_or("-".into(), |n| n.to_string()),
            last.and_then(|s| s.fd_limit).map_or(String::new(), |l| format!(" of {l}")),
            last.map_or(String::new(), |s| from(s, Field::Fds))
        ),
    };
    chart(frame, fd_area, theme, &title, "", vec![("fds", fds, theme.accent), ("trigger", flat(fl), theme.error)]);

    let block = Block::default().borders(Borders::TOP).title(" Events ");
    let inner = block.inner(log);
    frame.render_widget(block, log);
    let shown: Vec<Line<'_>> = m
        .events
        .iter()
        .rev()
        .take(inner.height as usize)
        .map(|(t, e)| {
            let style = if e.starts_with("TRIGGER") { theme.error } else { Style::default() };
            common::line(format!("{t:>7.1}s  {e}"), style)
        })
        .collect();
    frame.render_widget(Paragraph::new(shown), inner);
}

type Series<'a> = (&'a str, Vec<(f64, f64)>, Style);

fn chart(frame: &mut Frame<'_>, area: Rect, theme: &Theme, title: &str, unit: &str, series: Vec<Series<'_>>) {
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0.0f64);
    for (_, pts, _) in &series {
        for &(x, y) in pts {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
    }
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    if x1 - x0 < 1.0 {
        x1 = x0 + 1.0;
    }
    let y1 = if y1 <= 0.0 { 1.0 } else { y1 * 1.1 };
    let datasets: Vec<Dataset<'_>> = series
        .iter()
        .map(|(name, pts, style)| {
            Dataset::default().name(*name).marker(Marker::Braille).graph_type(GraphType::Line).style(*style).data(pts)
        })
        .collect();
    let label = |v: f64| if unit.is_empty() { format!("{v:.0}") } else { format!("{v:.0} {unit}") };
    let chart = Chart::new(datasets)
        .block(
            Block::default().borders(Borders::ALL).title(common::line(title, Style::default())).border_style(theme.dim),
        )
        .x_axis(Axis::default().bounds([x0, x1]).labels([format!("{x0:.0}s"), format!("{x1:.0}s")]).style(theme.dim))
        .y_axis(Axis::default().bounds([0.0, y1]).labels(["0".to_string(), label(y1)]).style(theme.dim));
    frame.render_widget(chart, area);
}

/// ` (from SOURCE)` when `field` was read another way than from the process's `/proc`.
fn from(s: &Sample, field: Field) -> String {
    s.sources.get(&field).map_or(String::new(), |src| format!(" (from {src})"))
}

/// `: WHY` for a figure the sample lacks, shortened to fit a chart's title.
fn why(s: &Sample, field: Field) -> String {
    s.missing
        .iter()
        .find(|m| m.field == field)
        .map_or(String::new(), |m| format!(": {}", heap::fmt::shorten(&m.why, 60)))
}
