//! Drawing: one module per screen, all reading the model. Nothing here changes state or waits.

mod chrome;
mod classes;
pub mod common;
mod diff;
mod dominators;
mod help;
mod inspector;
mod leaks;
mod loading;
mod monitor;
mod overview;
mod picker;
pub mod picture;
mod query;
mod sets;
mod threads;

use ratatui::layout::{Constraint, Layout};
use ratatui::Frame;

use crate::ui::model::{App, Load};
use crate::ui::screen::Screen;

/// Draws the whole UI, then [`common::scrub`]s the frame: whatever a screen put there, no cell
/// sends a control character.
pub fn draw(frame: &mut Frame<'_>, app: &App) {
    screens(frame, app);
    common::scrub(frame.buffer_mut());
    let [_, body, _] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1), Constraint::Length(1)]).areas(frame.area());
    picture::draw(frame, app, body);
}

fn screens(frame: &mut Frame<'_>, app: &App) {
    let [tabs, body, status] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1), Constraint::Length(1)]).areas(frame.area());
    chrome::tabs(frame, tabs, app);
    match &app.load {
        Load::Picking(p) => picker::draw(frame, body, app, p),
        _ if app.screen == Screen::Monitor => monitor::draw(frame, body, app),
        Load::Empty => loading::no_dump(frame, body, app),
        Load::Loading(_) => loading::draw(frame, body, app),
        Load::Failed(e) => loading::error(frame, body, app, e),
        Load::Ready(_) if app.preview.is_some() => picture::title(frame, body, app),
        Load::Ready(_) if app.set_view_here().is_some() => {
            if let Some(v) = app.set_view_here() {
                sets::draw(frame, body, app, v);
            }
        }
        Load::Ready(_) => match app.screen {
            Screen::Overview => overview::draw(frame, body, app),
            Screen::Classes => classes::draw(frame, body, app),
            Screen::Leaks => leaks::draw(frame, body, app),
            Screen::Dominators => dominators::draw(frame, body, app),
            Screen::Inspector => inspector::draw(frame, body, app),
            Screen::Monitor => monitor::draw(frame, body, app),
            Screen::Diff => diff::draw(frame, body, app),
            Screen::Threads => threads::draw(frame, body, app),
            Screen::Query => query::draw(frame, body, app),
        },
    }
    if matches!(app.load, Load::Ready(_)) && app.screen != Screen::Monitor {
        picture::prepare(frame, app, body);
    }
    chrome::status(frame, status, app);
    if app.help {
        help::draw(frame, body, app);
    }
}
