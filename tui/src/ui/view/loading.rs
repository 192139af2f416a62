//! What shows before a dump is ready: the loading phases, the error, or nothing yet (a process
//! is watched, no dump taken).

use heap::fmt::human_bytes;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Gauge, Paragraph, Wrap};
use ratatui::Frame;

use crate::ui::model::{App, Load};

pub fn no_dump(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let text = vec![
        Line::styled("No dump yet", app.theme.header),
        Line::raw(""),
        Line::raw("The monitor (6) is watching a process: press d there to dump it now, or a to dump"),
        Line::raw("when a trigger fires. The dump opens here when it is taken."),
    ];
    frame.render_widget(Paragraph::new(text), area);
}

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
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

pub fn error(frame: &mut Frame<'_>, area: Rect, app: &App, e: &str) {
    let text = vec![
        Line::styled("The dump could not be opened", app.theme.error),
        Line::raw(""),
        super::common::line(e, Style::default()),
        Line::raw(""),
        Line::styled(
            if app.picker.is_some() { "Esc goes back to the list · q quits" } else { "q quits" },
            app.theme.dim,
        ),
    ];
    frame.render_widget(
        Paragraph::new(text).wrap(Wrap { trim: false }).block(Block::default().borders(Borders::ALL)),
        area,
    );
}
