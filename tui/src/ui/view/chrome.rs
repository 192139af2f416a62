//! What every screen has: the tab bar on top, the status line at the bottom.

use heap::fmt::shorten;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::ui::model::{App, LeakSort, Prompt};
use crate::ui::screen::Screen;

pub fn tabs(frame: &mut Frame<'_>, area: Rect, app: &App) {
    // The tabs' titles take `full` columns; the program's name goes first when they would not fit,
    // then the other tabs' titles are cut to three letters (their numbers, the keys, stay).
    let full: usize = Screen::ALL.iter().enumerate().map(|(i, s)| format!(" {} {} ", i + 1, s.title()).len()).sum();
    let width = area.width as usize;
    let mut spans = if width >= full + 9 { vec![Span::styled(" heaptui ", app.theme.header)] } else { Vec::new() };
    for (i, s) in Screen::ALL.iter().enumerate() {
        let style = if *s == app.screen { app.theme.selection } else { app.theme.dim };
        let title = if width >= full || *s == app.screen { s.title() } else { &s.title()[..3] };
        let tab = format!(" {} {title} ", i + 1);
        spans.push(Span::styled(tab, style));
    }
    frame.render_widget(Line::from(spans), area);
}

pub fn status(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let mut left = format!(" {}", app.screen.title());
    // The file's name when there is room for it (the Overview always names it).
    // While a prompt is open, what is typed comes first: the file's name gives way to it.
    if let Some(l) = app.loaded().filter(|_| area.width >= 120 && app.prompt.is_none()) {
        left.push_str(&format!(" · {}", shorten(&l.path, (area.width as usize / 6).clamp(10, 40))));
    }
    match app.screen {
        Screen::Classes => {
            // (An instance list's class is its title.)
            if let Some((_, nodes, cur)) = &app.classes.instances {
                left.push_str(&format!(" · {}/{} · sort: {}", cur.selected + 1, nodes.len(), nodes.order.label()));
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
        Screen::Leaks if app.leaks.trace.is_none() && app.leaks.sort != LeakSort::Rank => {
            left.push_str(&format!(" · sort: {}", app.leaks.sort.label()))
        }
        _ => {}
    }
    // The filter of the list on screen, with the caret while it is typed.
    let typing = app.prompt == Some(Prompt::Filter);
    if let Some(f) = app.filter_text().filter(|f| typing || !f.is_empty()) {
        left.push_str(&format!(" · filter: {}", f.shown(typing)));
        if typing && app.screen == Screen::Dominators {
            left.push_str(" (Enter applies)");
        }
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
    // What every screen must say of the dump: its warnings (in the warning colour, the first
    // shortened, with how many more), and the size model and rule set in force.
    let (warning, model) = match app.loaded() {
        Some(l) => (warning_text(&l.heap.index.warnings), format!("model {} · ", l.heap.model_and_rules())),
        None => (None, String::new()),
    };
    let right = format!("{model}? help  q quit ");
    let width = area.width as usize;
    let mut room = width.saturating_sub(right.chars().count());
    // The warning takes at most 3/5 of the line; while a prompt is open, only what the text
    // typed leaves (none when that is under 12 columns).
    let typed = if app.prompt.is_some() { left.chars().count() + 1 } else { 0 };
    let warning = warning.filter(|_| typed == 0 || room.saturating_sub(typed) >= 12).map(|w| {
        let w = super::common::safe(w).into_owned();
        let most = if typed > 0 { room - typed } else { (room * 3 / 5).max(12) };
        let w = if w.chars().count() > most { w.chars().take(most - 1).collect::<String>() + "…" } else { w };
        room = room.saturating_sub(w.chars().count() + 1);
        format!("{w} ")
    });
    // Cut, the left part keeps a space before the right one.
    if left.chars().count() > room {
        left = left.chars().take(room.saturating_sub(2)).collect::<String>() + "… ";
    }
    let pad = room.saturating_sub(left.chars().count());
    let mut spans = vec![Span::styled(format!("{left}{}", " ".repeat(pad)), app.theme.status)];
    if let Some(w) = warning {
        spans.push(Span::styled(w, app.theme.warning));
    }
    spans.push(Span::styled(right, app.theme.status));
    frame.render_widget(Paragraph::new(Line::from(spans)).style(app.theme.status), area);
}

/// The status line's warning: the dump's first warning, and how many more there are.
fn warning_text(warnings: &[String]) -> Option<String> {
    let first = warnings.first()?;
    Some(match warnings.len() {
        1 => format!("⚠ {first}"),
        n => format!("⚠ {n} warnings: {first}"),
    })
}
