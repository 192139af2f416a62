//! The picker: dumps and processes to open, and the filter being typed.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::common::{line, selected_style};
use crate::ui::model::App;
use crate::ui::picker::Picker;

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App, p: &Picker) {
    let [head, list] = Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(area);
    let second = if p.editing || !p.filter.is_empty() {
        line(format!("filter: {}", p.filter.shown(p.editing)), Style::default())
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
        .map(|(row, &i)| line(format!(" {}", p.items[i].label), selected_style(app, row == p.cursor.selected)))
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
}
