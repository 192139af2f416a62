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

/// The Bitmaps whose pictures are on screen and where, for a body of `body`: the preview over
/// all of it; the Inspector's right-hand pane for a Bitmap; on Leaks, a group of duplicate
/// Bitmaps side by side in that pane (up to four).
pub fn areas(app: &App, body: Rect) -> Vec<(Node, Rect)> {
    if let Some(n) = app.preview {
        let [_, pane] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        return vec![(n, pane)];
    }
    let Some(heap) = app.loaded().map(|l| &l.heap) else { return Vec::new() };
    if app.set_view_here().is_some() || body.width < MIN_WIDTH {
        return Vec::new();
    }
    let shown: Vec<Node> = match app.screen {
        Screen::Inspector => app.inspector.history.last().copied().into_iter().collect(),
        Screen::Leaks => match app.selected_leak() {
            Some(k) if k.rule == "android.bitmap.duplicate" => k.instances.iter().take(4).copied().collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let shown: Vec<Node> = shown.into_iter().filter(|&n| matches!(heap.bitmap_info(n), Some(Ok(_)))).collect();
    if shown.is_empty() {
        return Vec::new();
    }
    let [_, right] = Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(body);
    let [_, pane] = Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(right);
    let cells = Layout::horizontal(vec![Constraint::Ratio(1, shown.len() as u32); shown.len()]).split(pane);
    shown.into_iter().zip(cells.iter().copied()).collect()
}

/// Where a screen's text goes when pictures take the right-hand pane.
pub fn text_area(app: &App, body: Rect) -> Rect {
    if app.preview.is_some() || areas(app, body).is_empty() {
        return body;
    }
    let [left, _] = Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(body);
    left
}

/// Makes the pictures [`areas`] names, once per Bitmap and size (a picture that cannot be made
/// is kept as why, so it is not tried again on every redraw), and writes why in the pane of each
/// that cannot. Runs before the frame is scrubbed: the reason is text.
pub fn prepare(frame: &mut Frame<'_>, app: &App, body: Rect) {
    if app.help {
        return;
    }
    let wanted = areas(app, body);
    let mut cache = app.pictures.cache.borrow_mut();
    cache.retain(|(n, a, _)| wanted.contains(&(*n, *a)));
    for &(n, pane) in &wanted {
        if !cache.iter().any(|(cn, ca, _)| *cn == n && *ca == pane) {
            let made = make(app, n, pane);
            cache.push((n, pane, made));
        }
        if let Some((_, _, Err(why))) = cache.iter().find(|(cn, ca, _)| *cn == n && *ca == pane) {
            let text = format!("no picture: {why}");
            frame.render_widget(
                ratatui::widgets::Paragraph::new(heap::fmt::safe(&text))
                    .wrap(ratatui::widgets::Wrap { trim: true })
                    .style(app.theme.dim),
                pane,
            );
        }
    }
}

/// Bitmap `n`'s picture fitted to `pane`, or why there is none.
fn make(app: &App, n: Node, pane: Rect) -> Result<ratatui_image::protocol::Protocol, String> {
    let picture = match app.loaded().and_then(|l| l.heap.bitmap(n)) {
        Some(Ok(p)) => p,
        Some(Err(why)) => return Err(why.to_string()),
        None => return Err("not a Bitmap".into()),
    };
    let image = crate::session::pictures::to_image(picture).map_err(|e| format!("it does not decode: {e}"))?;
    let (fw, fh) = app.pictures.picker.font_size();
    let image = crate::session::pictures::fit(
        image,
        u32::from(pane.width) * u32::from(fw),
        u32::from(pane.height) * u32::from(fh),
    );
    let image = image::DynamicImage::ImageRgba8(image);
    app.pictures.picker.new_protocol(image, pane, Resize::Scale(None)).map_err(|e| e.to_string())
}

/// Draws the pictures [`prepare`] made. Runs after the frame is scrubbed (a graphics protocol's
/// cells hold escape sequences by design).
pub fn draw(frame: &mut Frame<'_>, app: &App, body: Rect) {
    // The help is drawn over the screen: no picture over it.
    if app.help {
        return;
    }
    let wanted = areas(app, body);
    let cache = app.pictures.cache.borrow();
    for &(n, pane) in &wanted {
        if let Some((_, _, Ok(protocol))) = cache.iter().find(|(cn, ca, _)| *cn == n && *ca == pane) {
            frame.render_widget(Image::new(protocol), pane);
        }
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
    let what = format!("{} {}", heap.display_class(n), heap::fmt::hex(heap.index.id(n)));
    match heap.bitmap_info(n) {
        Some(Ok((width, height, Some(config)))) => format!("{what}: {width}x{height} {}", config.name()),
        Some(Ok((width, height, None))) => format!("{what}: {width}x{height}, encoded by ART"),
        Some(Err(why)) => format!("{what}: no picture: {why}"),
        None => format!("{what} is not a Bitmap"),
    }
}
