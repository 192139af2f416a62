//! Bitmaps' pictures as images: raw pixels as they are, encoded ones (PNG, JPEG, WebP) decoded
//! within bounds a hostile dump cannot lift (a small file that claims a huge picture is refused,
//! not decoded), and written as PNG files that never replace one.

use heap::bitmap::Picture;
use image::RgbaImage;

/// What the Overview says when the dump has Bitmaps and no pixels for any of them: how many, and
/// why, from the dump's sidecar (`FILE.json`: the method could not carry them, or the phone's
/// `am` could not ask) when it has one, from the dump itself otherwise.
pub fn missing(heap: &heap::Heap, path: &std::path::Path) -> Option<String> {
    let idx = &heap.index;
    let bitmaps: Vec<_> = idx.classes_named("android.graphics.Bitmap").flat_map(|c| heap.instances_of(c)).collect();
    if bitmaps.is_empty() || heap.bitmaps_with_pixels(&bitmaps) > 0 {
        return None;
    }
    let why = sidecar_no_pixels(path).unwrap_or_else(|| {
        if idx.heap_graph.is_some() {
            crate::session::dump::NO_PIXELS_PERFETTO.to_string()
        } else {
            "Android 8 and later keep them in native memory; a dump holds them only when the app is asked \
             (`am dumpheap -b png`, Android 15, which `heaptui dump` asks for where the phone's am takes it)"
                .to_string()
        }
    });
    Some(format!("{} Bitmaps, no pixels in this dump: {why}", bitmaps.len()))
}

/// The most of a sidecar read: the file is anyone's.
const MAX_SIDECAR: u64 = 1 << 20;

/// The sidecar's `no_pixels`, when the dump has a sidecar that says: a regular file (opened
/// without blocking, so a FIFO in its place cannot hang the load), its first [`MAX_SIDECAR`]
/// bytes, JSON.
fn sidecar_no_pixels(path: &std::path::Path) -> Option<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut name = path.as_os_str().to_owned();
    name.push(".json");
    let f = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(name).ok()?;
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut text = Vec::new();
    f.take(MAX_SIDECAR).read_to_end(&mut text).ok()?;
    let v: serde_json::Value = serde_json::from_slice(&text).ok()?;
    v.get("no_pixels")?.as_str().map(str::to_string)
}

/// The most pixels an encoded picture may decode to: a 64-megapixel photo (256 MB as RGBA).
const MAX_PIXELS: u64 = 64 << 20;

/// The picture as an RGBA image (raw pixels are taken over, not copied).
pub fn to_image(p: Picture) -> Result<RgbaImage, String> {
    match p {
        Picture::Raw { width, height, rgba, .. } => {
            let len = rgba.len();
            RgbaImage::from_raw(width, height, rgba)
                .ok_or_else(|| format!("{len} bytes are not a {width}x{height} RGBA picture"))
        }
        Picture::Encoded { bytes, .. } => {
            let bad = |e: image::ImageError| format!("the Bitmap's encoded pixels: {e}");
            let reader = || -> Result<_, String> {
                let mut r = image::ImageReader::new(std::io::Cursor::new(&bytes))
                    .with_guessed_format()
                    .map_err(|e| format!("the Bitmap's encoded pixels: {e}"))?;
                let mut limits = image::Limits::default();
                limits.max_alloc = Some(MAX_PIXELS * 4);
                r.limits(limits);
                Ok(r)
            };
            // The size the header claims, before anything is decoded.
            let (w, h) = reader()?.into_dimensions().map_err(bad)?;
            if u64::from(w) * u64::from(h) > MAX_PIXELS {
                return Err(format!(
                    "the Bitmap's encoded picture claims {w}x{h} pixels, over the {MAX_PIXELS} allowed"
                ));
            }
            Ok(reader()?.decode().map_err(bad)?.to_rgba8())
        }
    }
}

/// The image made to fit a pane of `width`×`height` pixels when it is larger: averaged down
/// once here (each pixel of the result the mean of the pixels it covers), so that the terminal's
/// protocol gets a picture of the pane's size, not a full-screen Bitmap's 2 million pixels
/// sampled a pixel at a time. A smaller picture is left for the protocol to scale up.
pub fn fit(image: RgbaImage, width: u32, height: u32) -> RgbaImage {
    let (w, h) = image.dimensions();
    if width == 0 || height == 0 || (w <= width && h <= height) {
        return image;
    }
    // The largest size within the pane that keeps the picture's proportions.
    let scale = f64::min(f64::from(width) / f64::from(w), f64::from(height) / f64::from(h));
    let (nw, nh) = (((f64::from(w) * scale) as u32).max(1), ((f64::from(h) * scale) as u32).max(1));
    image::imageops::thumbnail(&image, nw, nh)
}

/// Writes the picture to a new PNG file at `path`, readable by its owner alone (never over an
/// existing file or through a link: the file is created exclusively); the width and height
/// written.
pub fn write_png(p: &Picture, path: &std::path::Path) -> anyhow::Result<(u32, u32)> {
    use std::io::Write as _;
    let img = to_image(p.clone()).map_err(anyhow::Error::msg)?;
    let mut bytes = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)?;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| crate::exit::Code::Output.error(format!("cannot create {}: {e}", path.display())))?;
    f.write_all(&bytes)?;
    // The size written: an encoded Bitmap's picture is what it decodes to, not its fields'.
    Ok((img.width(), img.height()))
}

#[cfg(test)]
mod tests {
    use super::sidecar_no_pixels;

    /// A sidecar is read only when it is a regular file of at most 1 MiB of JSON: a FIFO in its
    /// place does not hang the load, a larger one is not read past the bound.
    #[test]
    fn hostile_sidecars_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let dump = dir.path().join("d.hprof");
        let side = dir.path().join("d.hprof.json");
        std::fs::write(&side, br#"{"no_pixels":"an \u001b[2J am without -b"}"#).unwrap();
        assert_eq!(sidecar_no_pixels(&dump).as_deref(), Some("an \x1b[2J am without -b"));
        let mut big = br#"{"no_pixels":"x","pad":""#.to_vec();
        big.resize((1 << 20) + 10, b'a');
        big.extend_from_slice(br#""}"#);
        std::fs::write(&side, big).unwrap();
        assert_eq!(sidecar_no_pixels(&dump), None);
        std::fs::remove_file(&side).unwrap();
        let c = std::ffi::CString::new(side.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(sidecar_no_pixels(&dump), None);
    }
}
