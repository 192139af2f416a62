//! The `?` popup, generated from the keymap.

use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::ui::keymap::{help_for, Binding};
use crate::ui::model::App;

pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let bindings = help_for(app.screen);
    // One column when it fits, two side by side on short terminals.
    let columns = if bindings.len() as u16 + 2 > area.height && area.width >= 80 { 2 } else { 1 };
    let per_column = bindings.len().div_ceil(columns);
    let col_width = if columns == 2 { (area.width as usize - 2) / 2 } else { 58.min(area.width as usize - 2) };
    let h = (per_column as u16 + 2).min(area.height);
    let w = (col_width * columns + 2) as u16;
    let popup = Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h };
    let cell = |b: &Binding| {
        let text: String = format!("{:<14}{}", b.label, b.description).chars().take(col_width).collect();
        format!("{text:<col_width$}")
    };
    let mut lines: Vec<Line<'_>> = (0..per_column)
        .map(|row| {
            let spans: Vec<Span<'_>> = (0..columns)
                .filter_map(|c| bindings.get(c * per_column + row))
                .map(|b| Span::styled(cell(b), app.theme.text))
                .collect();
            Line::from(spans)
        })
        .collect();
    // On the Query screen, worked examples below the keys when the terminal has the rows.
    let mut popup = popup;
    if app.screen == crate::ui::screen::Screen::Query {
        let examples = crate::ui::query::EXAMPLES;
        // Two lines an example (what it asks, then the query) when the rows allow, else one.
        let per = if popup.height as usize + 2 * examples.len() < area.height as usize { 2 } else { 1 };
        if popup.height as usize + per * examples.len() < area.height as usize {
            // As wide as the longest query, within the screen.
            let widest = examples.iter().map(|(what, sql)| sql.chars().count() + what.len() + 4).max().unwrap_or(0);
            let inner = widest.max(popup.width as usize - 2).min(area.width as usize - 2);
            lines.push(Line::styled("Examples:", app.theme.header));
            for (what, sql) in examples {
                let text: String = if per == 2 {
                    lines.push(Line::styled(format!("{what}:"), app.theme.dim));
                    format!("  {sql}")
                } else {
                    format!("{what}: {sql}")
                };
                let cut = text.chars().count() > inner;
                let mut text: String = text.chars().take(if cut { inner - 1 } else { inner }).collect();
                if cut {
                    text.push('…');
                }
                lines.push(Line::styled(text, app.theme.text));
            }
            popup.height += (per * examples.len()) as u16 + 1;
            popup.width = inner as u16 + 2;
            popup.x = area.x + (area.width - popup.width) / 2;
            popup.y = area.y + (area.height - popup.height) / 2;
        }
    }
    frame.render_widget(Clear, popup);
    let title = format!(" Keys: {} (any key closes) ", app.screen.title());
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default().borders(Borders::ALL).title(title).style(app.theme.text.add_modifier(Modifier::empty())),
        ),
        popup,
    );
}
