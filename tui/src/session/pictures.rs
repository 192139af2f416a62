//! Bitmaps' pictures as images: raw pixels as they are, encoded ones (PNG, JPEG, WebP) decoded
//! within bounds a hostile dump cannot lift (a small file that claims a huge picture is refused,
//! not decoded), and written as PNG files that never replace one.

use heap::bitmap::Picture;
use image::RgbaImage;

/// The most pixels an encoded picture may decode to: a 64-megapixel photo (256 MB as RGBA).
const MAX_PIXELS: u64 = 64 << 20;

/// The picture as an RGBA image.
pub fn to_image(p: &Picture) -> Result<RgbaImage, String> {
    match p {
        Picture::Raw { width, height, rgba, .. } => RgbaImage::from_raw(*width, *height, rgba.clone())
            .ok_or_else(|| format!("{} bytes are not a {width}x{height} RGBA picture", rgba.len())),
        Picture::Encoded { bytes, .. } => {
            let bad = |e: image::ImageError| format!("the Bitmap's encoded pixels: {e}");
            let reader = || -> Result<_, String> {
                let mut r = image::ImageReader::new(std::io::Cursor::new(bytes))
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

/// Writes the picture to a new PNG file at `path` (never over an existing file or through a
/// link: the file is created exclusively).
pub fn write_png(p: &Picture, path: &std::path::Path) -> anyhow::Result<()> {
    use std::io::Write as _;
    let img = to_image(p).map_err(anyhow::Error::msg)?;
    let mut bytes = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)?;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", path.display()))?;
    f.write_all(&bytes)?;
    Ok(())
}
