//! Bitmaps' pictures on screen: beside the Inspector's text when the object open is a Bitmap
//! whose pixels the dump holds, or over the whole screen (`v`). Drawn with the terminal's
//! graphics protocol where it has one (kitty, iTerm2, sixel: the picker asks it at start-up) and
//! with true-colour half blocks everywhere else, by `ratatui-image`.
//!
//! The picture is drawn after the frame is scrubbed of control characters: a graphics protocol's
//! cells hold escape sequences by design, made by `ratatui-image` from pixels, never text from
//! the dump.

use heap::Node;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::Frame;
use ratatui_image::{Image, Resize};

use crate::ui::model::App;
use crate::ui::screen::Screen;

/// Narrower bodies give the Inspector's text all the room (`v` still shows the picture).
const MIN_WIDTH: u16 = 70;

/// The Bitmap whose picture is on screen and where, for a body of `body`: the preview over all
/// of it, or the Inspector's right-hand pane.
pub fn area(app: &App, body: Rect) -> Option<(Node, Rect)> {
    if let Some(n) = app.preview {
        let [_, pane] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        return Some((n, pane));
    }
    if app.screen != Screen::Inspector || app.set_view_here().is_some() || body.width < MIN_WIDTH {
        return None;
    }
    let n = *app.inspector.history.last()?;
    let heap = &app.loaded()?.heap;
    if !matches!(heap.bitmap(n), Some(Ok(_))) {
        return None;
    }
    let [_, right] = Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(body);
    let [_, pane] = Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(right);
    Some((n, pane))
}

/// Draws the picture [`area`] names, if any (made once per Bitmap and size, then kept).
pub fn draw(frame: &mut Frame<'_>, app: &App, body: Rect) {
    let Some((n, pane)) = area(app, body) else { return };
    let mut cache = app.pictures.cache.borrow_mut();
    if !cache.as_ref().is_some_and(|(cn, ca, _)| *cn == n && *ca == pane) {
        *cache = None;
        let Some(Ok(picture)) = app.loaded().and_then(|l| l.heap.bitmap(n)) else { return };
        let Ok(image) = crate::session::pictures::to_image(&picture) else { return };
        let image = image::DynamicImage::ImageRgba8(image);
        match app.pictures.picker.new_protocol(image, pane, Resize::Scale(None)) {
            Ok(protocol) => *cache = Some((n, pane, protocol)),
            Err(_) => return,
        }
    }
    if let Some((_, _, protocol)) = cache.as_ref() {
        frame.render_widget(Image::new(protocol), pane);
    }
}

/// The preview's title line: which Bitmap, its size and format; the picture goes below it.
pub fn title(frame: &mut Frame<'_>, body: Rect, app: &App) {
    let Some((n, heap)) = app.preview.zip(app.loaded().map(|l| &l.heap)) else { return };
    let text = format!("{} · any key closes", describe(heap, n));
    frame.render_widget(super::common::line(text, app.theme.header), body);
}

/// A Bitmap in a line: its class, id, size and format, or why there is no picture.
pub fn describe(heap: &heap::Heap, n: Node) -> String {
    use heap::bitmap::Picture;
    let what = format!("{} {}", heap.display_class(n), heap::fmt::hex(heap.index.id(n)));
    match heap.bitmap(n) {
        Some(Ok(Picture::Raw { width, height, config, .. })) => format!("{what}: {width}x{height} {}", config.name()),
        Some(Ok(Picture::Encoded { width, height, .. })) => format!("{what}: {width}x{height}, encoded by ART"),
        Some(Err(why)) => format!("{what}: no picture: {why}"),
        None => format!("{what} is not a Bitmap"),
    }
}
