//! Bitmaps' pictures as images: raw pixels as they are, encoded ones (PNG, JPEG, WebP) decoded
//! within bounds a hostile dump cannot lift (a small file that claims a huge picture is refused,
//! not decoded), and written as PNG files that never replace one.

use heap::bitmap::Picture;
use image::RgbaImage;

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

/// Writes the picture to a new PNG file at `path` (never over an existing file or through a
/// link: the file is created exclusively).
pub fn write_png(p: &Picture, path: &std::path::Path) -> anyhow::Result<()> {
    use std::io::Write as _;
    let img = to_image(p.clone()).map_err(anyhow::Error::msg)?;
    let mut bytes = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)?;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| crate::exit::Code::Output.error(format!("cannot create {}: {e}", path.display())))?;
    f.write_all(&bytes)?;
    Ok(())
}
