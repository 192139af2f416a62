//! Pieces several screens draw with, and the one way text reaches the screen: every string a
//! screen builds from a dump, a device, a process, a file name or an error goes into a widget
//! through [`safe`], [`line`], [`span`] or [`row`], which show its control characters escaped
//! ([`heap::fmt::safe`]); [`scrub`] then checks the whole frame before it is sent.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Row};

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

/// `s` with its control characters shown escaped, as given when it has none. Applied to the
/// whole string before it becomes a widget's text: ratatui drops a newline (or splits the text
/// at it) and writes other control characters to the terminal as they are.
pub fn safe<'a>(s: impl Into<Cow<'a, str>>) -> Cow<'a, str> {
    let s = s.into();
    let escaped = match heap::fmt::safe(&s) {
        Cow::Owned(e) => Some(e),
        Cow::Borrowed(_) => None,
    };
    match escaped {
        Some(e) => Cow::Owned(e),
        None => s,
    }
}

/// One line of text in `style`, made [`safe`].
pub fn line<'a>(s: impl Into<Cow<'a, str>>, style: Style) -> Line<'a> {
    Line::styled(safe(s), style)
}

/// A span in `style`, made [`safe`].
pub fn span<'a>(s: impl Into<Cow<'a, str>>, style: Style) -> Span<'a> {
    Span::styled(safe(s), style)
}

/// A table row whose cells are made [`safe`].
pub fn row<'a>(cells: impl IntoIterator<Item = String>) -> Row<'a> {
    Row::new(cells.into_iter().map(|c| Cell::from(safe(c))))
}

/// What a cell that held a control character shows instead: one column wide, as the terminal
/// would otherwise have misplaced what follows.
pub const SCRUBBED: &str = "\u{fffd}";

/// The last check before a frame is sent: a cell whose symbol holds a character a terminal could
/// act on (a string that reached a widget without going through [`safe`]) shows [`SCRUBBED`]
/// instead, so no escape sequence leaves heaptui through the screen. Returns how many cells.
pub fn scrub(buf: &mut Buffer) -> usize {
    let mut scrubbed = 0;
    for cell in buf.content.iter_mut() {
        if cell.symbol().chars().any(heap::fmt::is_unsafe) {
            cell.set_symbol(SCRUBBED);
            scrubbed += 1;
        }
    }
    scrubbed
}

/// How `n` is reachable, for a person: ahat's kinds (strong, soft, finalizer, weak, phantom,
/// unreachable) once the warm-up has worked them out, the tree's strong, weak or unreachable
/// before.
pub fn reachability(heap: &heap::Heap, n: heap::Node) -> &'static str {
    heap.reachability_if_made(n).map_or_else(|| heap.dominators.reach(n).name(), |kind| kind.name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::widgets::{Paragraph, Widget};

    #[test]
    fn helpers_escape_and_borrow_clean_text() {
        assert!(matches!(safe("java.lang.String"), Cow::Borrowed(_)));
        assert_eq!(safe(String::from("a\x1b[2Jb\nc")), "a\\x1b[2Jb\\nc");
        assert_eq!(line("x\u{9b}1m", Style::default()).spans[0].content, "x\\u{9b}1m");
        assert_eq!(span("\u{202e}cba", Style::default()).content, "\\u{202e}cba");
    }

    #[test]
    fn scrub_replaces_cells_holding_control_characters() {
        // What ratatui does with a raw line: the ESC goes into a cell of its own, sent as it is.
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 1));
        Paragraph::new(Line::raw("ab\x1b]52;c;aGk=\x07\u{202e}z")).render(buf.area, &mut buf);
        assert!(buf.content.iter().any(|c| c.symbol().contains('\x1b')));
        assert_eq!(scrub(&mut buf), 2);
        assert!(buf.content.iter().all(|c| !c.symbol().chars().any(heap::fmt::is_unsafe)));
        let shown: String = buf.content.iter().map(|c| c.symbol()).collect();
        assert!(shown.starts_with("ab\u{fffd}]52;c;aGk=\u{fffd}z"), "{shown:?}");
        // A clean frame is left alone.
        let mut clean = Buffer::empty(Rect::new(0, 0, 10, 1));
        Paragraph::new("a — b").render(clean.area, &mut clean);
        assert_eq!(scrub(&mut clean), 0);
    }
}
