//! Pieces several screens draw with.

use ratatui::style::Style;

use crate::ui::model::App;

/// A bar of `width` cells for `part` of `whole`.
pub fn bar(part: u64, whole: u64, width: usize) -> String {
    let filled = if whole == 0 { 0 } else { ((part as f64 / whole as f64) * width as f64).round() as usize };
    format!("{}{}", "█".repeat(filled.min(width)), "·".repeat(width - filled.min(width)))
}

/// The style of a list row, selected or not.
pub fn selected_style(app: &App, selected: bool) -> Style {
    if selected {
        app.theme.selection
    } else {
        app.theme.text
    }
}
