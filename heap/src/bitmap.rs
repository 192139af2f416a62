//! The pictures of `android.graphics.Bitmap`s, where the dump holds their pixels: a raw
//! `mBuffer` (Android 7 and older keep the pixels in a Java `byte[]`), or the compressed image
//! ART records for a Bitmap's native pixels in `Bitmap.dumpData` (`am dumpheap -b`, Android 8
//! and later). Pre-Oreo dumps do not record the pixel format (Skia keeps it natively), so it is
//! read from the buffer's bytes per pixel: 4 `ARGB_8888` (bytes R, G, B, A in memory, as Skia's
//! N32 is on Android), 2 `RGB_565` (little-endian, red in the high bits), 1 `ALPHA_8`.

use crate::index::Node;
use crate::values::Value;
use crate::Heap;

/// How a Bitmap's pixels are kept in the dump.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Config {
    /// 4 bytes a pixel: red, green, blue, alpha.
    Argb8888,
    /// 2 bytes a pixel: 5 bits red, 6 green, 5 blue.
    Rgb565,
    /// 1 byte a pixel: alpha only.
    Alpha8,
}

impl Config {
    /// Bytes a pixel takes.
    pub fn bytes_per_pixel(self) -> u64 {
        match self {
            Config::Argb8888 => 4,
            Config::Rgb565 => 2,
            Config::Alpha8 => 1,
        }
    }

    /// Android's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Config::Argb8888 => "ARGB_8888",
            Config::Rgb565 => "RGB_565",
            Config::Alpha8 => "ALPHA_8",
        }
    }
}

/// A Bitmap's picture as the dump holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picture {
    /// Raw pixels, decoded to RGBA (8 bits a channel, as Skia stores them: premultiplied).
    #[allow(missing_docs)]
    Raw { width: u32, height: u32, config: Config, rgba: Vec<u8> },
    /// An encoded image (PNG, JPEG or WebP) ART wrote for the Bitmap, `format` as
    /// `Bitmap.CompressFormat` numbers it when the dump says.
    #[allow(missing_docs)]
    Encoded { width: u32, height: u32, format: Option<i64>, bytes: Vec<u8> },
}

impl Picture {
    /// The media type of an encoded picture, by `Bitmap.CompressFormat`'s numbers (JPEG 0, PNG
    /// 1, WebP 2 and later).
    pub fn mime(&self) -> Option<&'static str> {
        match self {
            Picture::Encoded { format: Some(0), .. } => Some("image/jpeg"),
            Picture::Encoded { format: Some(1), .. } => Some("image/png"),
            Picture::Encoded { format: Some(2..=4), .. } => Some("image/webp"),
            _ => None,
        }
    }

    /// Its size in pixels.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Picture::Raw { width, height, .. } | Picture::Encoded { width, height, .. } => (*width, *height),
        }
    }
}

/// The array holding a Bitmap's pixels: its `mBuffer`, or the buffer ART records for its native
/// pointer in `Bitmap.dumpData` (`natives[i]` ↔ `buffers[i]`); and whether it is that encoded
/// buffer.
pub(crate) fn pixels_array(heap: &Heap, bitmap: Node) -> Option<(Node, bool)> {
    // One Bitmap: the two arrays read once, no map made (the UI asks for each frame).
    pixels_array_in(heap, bitmap, |ptr| {
        let (natives, buffers) = dump_arrays(heap)?;
        let slot = natives.iter().position(|v| v.as_i64() == Some(ptr))?;
        heap.index.node(buffers.get(slot)?.as_object()?)
    })
}

/// `Bitmap.dumpData`'s `natives` and `buffers`, when the dump has them.
fn dump_arrays(heap: &Heap) -> Option<(Vec<Value>, Vec<Value>)> {
    let idx = &heap.index;
    let data = dump_data(heap)?;
    Some((idx.array_values(idx.field_node(data, "natives")?)?, idx.array_values(idx.field_node(data, "buffers")?)?))
}

/// [`pixels_array`], with `buffer_of` finding the dump's buffer for a native pointer when the
/// Bitmap has no `mBuffer`.
pub(crate) fn pixels_array_in(
    heap: &Heap,
    bitmap: Node,
    buffer_of: impl FnOnce(i64) -> Option<Node>,
) -> Option<(Node, bool)> {
    let idx = &heap.index;
    if let Some(b) = idx.field_node(bitmap, "mBuffer") {
        return Some((b, false));
    }
    // No native pointer (0: a redacted dump's) has no picture.
    Some((buffer_of(idx.field(bitmap, "mNativePtr")?.as_i64().filter(|&p| p != 0)?)?, true))
}

/// What ART's `Bitmap.dumpData` holds, made ready for looking many Bitmaps up in: the slot of
/// each native pointer (the first, if one comes twice), and the buffers. One read of its two
/// arrays for all the Bitmaps a rule reads, where [`pixels_array`] reads both whole for each
/// (quadratic in the Bitmaps: 2 s for 20,000, and a hostile dump's leak rules would never end).
pub(crate) struct DumpBuffers {
    slots: rustc_hash::FxHashMap<i64, usize>,
    buffers: Vec<Value>,
}

impl DumpBuffers {
    /// The dump's, when it has a `Bitmap.dumpData` (`am dumpheap -b`).
    pub(crate) fn of(heap: &Heap) -> Option<DumpBuffers> {
        let (natives, buffers) = dump_arrays(heap)?;
        let mut slots = rustc_hash::FxHashMap::default();
        for (slot, v) in natives.iter().enumerate() {
            if let Some(ptr) = v.as_i64() {
                slots.entry(ptr).or_insert(slot);
            }
        }
        Some(DumpBuffers { slots, buffers })
    }

    /// The buffer at native pointer `ptr`'s slot, as [`pixels_array`] finds it.
    pub(crate) fn buffer(&self, heap: &Heap, ptr: i64) -> Option<Node> {
        heap.index.node(self.buffers.get(*self.slots.get(&ptr)?)?.as_object()?)
    }
}

/// The `Bitmap.dumpData` object ART fills for `am dumpheap -b`, when the dump has one.
fn dump_data(heap: &Heap) -> Option<Node> {
    let idx = &heap.index;
    // The first Bitmap class whose `dumpData` is set (the stripper's pre-scan reads it so too).
    idx.classes_named("android.graphics.Bitmap")
        .find_map(|c| idx.static_value(c, "dumpData")?.as_object().filter(|&id| id != 0))
        .and_then(|id| idx.node(id))
}

/// A Bitmap's picture, told without decoding it: width, height, and its format (`None` for an
/// encoded picture).
pub type Info = (u32, u32, Option<Config>);

/// A Bitmap's width, height, the bytes of its pixels, and whether they are an encoded picture.
type Located<'a> = (u32, u32, &'a [u8], bool);

const NO_PIXELS: &str =
    "the dump holds no pixels for this Bitmap (Android 8 and later keep them natively; `am dumpheap -b` records them)";
const NO_CONTENTS: &str = "the Bitmap's pixel array has no contents in the dump (stripped?)";

impl Heap {
    /// Whether `n` is a `android.graphics.Bitmap` (or of a subclass).
    pub fn is_bitmap(&self, n: Node) -> bool {
        let idx = &self.index;
        // (`is_subclass` walks a bounded chain: a dump's superclasses can make a cycle.)
        idx.as_class(n).is_none()
            && idx.classes_named("android.graphics.Bitmap").any(|b| self.is_subclass(idx.class_of(n), b))
    }

    /// What Bitmap `n`'s picture is without decoding it: its size and format (`None` for an
    /// encoded picture), or why there is none; `None` when `n` is not a Bitmap. Cheap enough for
    /// every frame: no pixel is copied.
    pub fn bitmap_info(&self, n: Node) -> Option<Result<Info, String>> {
        Some(self.pixels(n)?.and_then(|(w, h, bytes, encoded)| {
            let config = if encoded { None } else { Some(config_for(w, h, bytes.len())?) };
            Ok((w, h, config))
        }))
    }

    /// The picture of Bitmap `n`: `None` when `n` is not a Bitmap, `Some(Err(why))` when the
    /// dump does not hold its pixels or they do not fit its size.
    pub fn bitmap(&self, n: Node) -> Option<Result<Picture, String>> {
        Some(self.pixels(n)?.and_then(|(width, height, bytes, encoded)| {
            if encoded {
                let format = self.dump_data_format();
                return Ok(Picture::Encoded { width, height, format, bytes: bytes.to_vec() });
            }
            decode_raw(width, height, bytes)
        }))
    }

    /// Bitmap `n`'s size and the bytes holding its pixels, and whether they are ART's encoded
    /// picture; why not, when the dump lacks them; `None` when `n` is not a Bitmap.
    fn pixels(&self, n: Node) -> Option<Result<Located<'_>, String>> {
        if !self.is_bitmap(n) {
            return None;
        }
        let idx = &self.index;
        let dim = |name| idx.field(n, name).and_then(Value::as_i64).filter(|&v| v > 0 && v <= u32::MAX as i64);
        let (Some(w), Some(h)) = (dim("mWidth"), dim("mHeight")) else {
            return Some(Err("the dump records no width and height for this Bitmap".into()));
        };
        let Some((array, encoded)) = pixels_array(self, n) else {
            return Some(Err(NO_PIXELS.into()));
        };
        let Some((_, bytes)) = idx.primitive_array_bytes(array) else {
            return Some(Err(NO_CONTENTS.into()));
        };
        Some(Ok((w as u32, h as u32, bytes, encoded)))
    }

    /// How many of `bitmaps` the dump holds pixels for (an array, whatever its contents), with
    /// `Bitmap.dumpData`'s slots read once for all of them.
    pub fn bitmaps_with_pixels(&self, bitmaps: &[Node]) -> usize {
        let buffers = DumpBuffers::of(self);
        bitmaps
            .iter()
            .filter(|&&n| pixels_array_in(self, n, |ptr| buffers.as_ref()?.buffer(self, ptr)).is_some())
            .count()
    }

    /// The `format` of `Bitmap.dumpData`, when the dump has one.
    fn dump_data_format(&self) -> Option<i64> {
        self.index.field(dump_data(self)?, "format")?.as_i64()
    }
}

/// The format of `len` bytes of raw pixels for a `width`×`height` Bitmap, told by the bytes per
/// pixel (a buffer may be longer than the size asks: a reused allocation).
fn config_for(width: u32, height: u32, len: usize) -> Result<Config, String> {
    let pixels = u64::from(width) * u64::from(height);
    match (len as u64).checked_div(pixels).unwrap_or(0) {
        4 => Ok(Config::Argb8888),
        2 => Ok(Config::Rgb565),
        1 => Ok(Config::Alpha8),
        _ => Err(format!(
            "{len} bytes of pixels do not fit a {width}x{height} Bitmap in any format (4, 2 or 1 bytes a pixel)"
        )),
    }
}

/// Raw pixels of a `width`×`height` Bitmap, their format told by the bytes per pixel.
pub fn decode_raw(width: u32, height: u32, bytes: &[u8]) -> Result<Picture, String> {
    let config = config_for(width, height, bytes.len())?;
    let per = config.bytes_per_pixel();
    let pixels = u64::from(width) * u64::from(height);
    // Only the bytes the size asks for (a buffer may be longer: a reused allocation).
    let used = &bytes[..(pixels * per) as usize];
    let rgba: Vec<u8> = match config {
        Config::Argb8888 => used.to_vec(),
        Config::Rgb565 => used
            .chunks_exact(2)
            .flat_map(|p| {
                let v = u16::from_le_bytes([p[0], p[1]]);
                let (r, g, b) = ((v >> 11) as u8 & 0x1f, (v >> 5) as u8 & 0x3f, v as u8 & 0x1f);
                [(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2), 0xff]
            })
            .collect(),
        Config::Alpha8 => used.iter().flat_map(|&a| [0, 0, 0, a]).collect(),
    };
    Ok(Picture::Raw { width, height, config, rgba })
}
