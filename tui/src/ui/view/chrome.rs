//! What every screen has: the tab bar on top, the status line at the bottom.

use heap::fmt::shorten;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::ui::model::{App, Prompt};
use crate::ui::screen::Screen;

pub fn tabs(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let mut spans = vec![Span::styled(" heaptui ", app.theme.header)];
    for (i, s) in Screen::ALL.iter().enumerate() {
        let style = if *s == app.screen { app.theme.selection } else { app.theme.dim };
        spans.push(Span::styled(format!(" {} {} ", i + 1, s.title()), style));
    }
    frame.render_widget(Line::from(spans), area);
}

pub fn status(frame: &mut Frame<'_>, area: Rect, app: &App) {
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
                        l.heap.index.classes[c.index()].name,
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
            }
        }
        Screen::Inspector => left.push_str(&format!(" · history {}", app.inspector.history.len())),
        _ => {}
    }
    // The filter of the list on screen, with the caret while it is typed.
    let typing = app.prompt == Some(Prompt::Filter);
    if let Some(f) = app.filter_text().filter(|f| typing || !f.is_empty()) {
        left.push_str(&format!(" · filter: {}", f.shown(typing)));
    }
    // The go-to prompt takes the whole line: what is typed and its completion must show.
    if let Some(Prompt::Goto(line, candidate)) = &app.prompt {
        left = format!(" go to (an id, or a class): {}", line.shown(true));
        if let Some(c) = candidate.as_ref().filter(|c| c.as_str() != line.as_str()) {
            left.push_str(&format!(" → {c} (Tab)"));
        }
    }
    if let Some(s) = &app.status {
        left.push_str(&format!(" · {s}"));
    }
    // The dump's class name, the filter typed, an error: escaped before it is measured.
    let mut left = super::common::safe(left).into_owned();
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
