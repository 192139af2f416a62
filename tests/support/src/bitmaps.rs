//! Bitmaps whose pixels are known by construction, one in each format Android kept in the heap
//! (`ARGB_8888`, `RGB_565`, `ALPHA_8`), in a small dump as Android 7 and older write them: an
//! `android.graphics.Bitmap` with `mWidth`, `mHeight` and its pixels in the `byte[]` `mBuffer`;
//! and one whose pixels the dump does not hold. Written with the engine tests' HPROF writer.

use crate::builder::{Builder, INT, OBJ};

/// A Bitmap's buffer and the picture it must decode to.
pub struct Known {
    pub config: &'static str,
    pub width: u32,
    pub height: u32,
    /// The buffer as Android keeps it.
    pub buffer: Vec<u8>,
    /// What it shows: red, green, blue, alpha, a pixel after another, row by row.
    pub rgba: Vec<[u8; 4]>,
}

/// The Bitmaps: 4×2 pixels each.
pub fn known() -> Vec<Known> {
    // ARGB_8888: bytes R, G, B, A in memory.
    let argb: Vec<[u8; 4]> = vec![
        [255, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 255, 255],
        [0, 0, 0, 255],
        [18, 52, 86, 255],
        [200, 100, 50, 255],
        [0, 0, 0, 0],
    ];
    // RGB_565: a little-endian u16 each, red in the top 5 bits; the picture widens each channel
    // to 8 bits by repeating its high bits.
    let rgb565: [(u16, [u8; 4]); 8] = [
        (0xF800, [255, 0, 0, 255]),
        (0x07E0, [0, 255, 0, 255]),
        (0x001F, [0, 0, 255, 255]),
        (0xFFFF, [255, 255, 255, 255]),
        (0x0000, [0, 0, 0, 255]),
        (0xFFE0, [255, 255, 0, 255]),
        (0x8410, [132, 130, 132, 255]),
        (0x07FF, [0, 255, 255, 255]),
    ];
    let alphas = [0u8, 32, 64, 96, 128, 160, 200, 255];
    vec![
        Known { config: "ARGB_8888", width: 4, height: 2, buffer: argb.concat(), rgba: argb },
        Known {
            config: "RGB_565",
            width: 4,
            height: 2,
            buffer: rgb565.iter().flat_map(|(v, _)| v.to_le_bytes()).collect(),
            rgba: rgb565.iter().map(|(_, c)| *c).collect(),
        },
        Known {
            config: "ALPHA_8",
            width: 4,
            height: 2,
            buffer: alphas.to_vec(),
            rgba: alphas.iter().map(|&a| [0, 0, 0, a]).collect(),
        },
    ]
}

/// The id of the `i`th Bitmap of [`dump`]; the one after the last has no pixels, the one after
/// that holds the first one's pixels again (a duplicate).
pub fn id(i: usize) -> u32 {
    0x5000 + 0x100 * i as u32
}

/// A dump (HPROF 1.0.3, 4-byte ids) with the [`known`] Bitmaps, in order, then one whose
/// `mBuffer` is null, then a copy of the first; each held by a GC root.
pub fn dump() -> Vec<u8> {
    let mut b = Builder::new("1.0.3");
    b.string(0x1001, "mWidth");
    b.string(0x1002, "mHeight");
    b.string(0x1003, "mBuffer");
    b.class(0x100, "java.lang.Object", 0, &[]);
    b.class(0x200, "android.graphics.Bitmap", 0x100, &[(0x1001, INT), (0x1002, INT), (0x1003, OBJ)]);
    let known = known();
    for (i, k) in known.iter().enumerate() {
        let pixels = id(i) + 0x10;
        b.instance(id(i), 0x200, &[k.width, k.height, pixels]);
        b.primitive_array(pixels, 8, k.buffer.len() as u32, &k.buffer);
        b.root(id(i));
    }
    b.instance(id(known.len()), 0x200, &[4, 2, 0]);
    b.root(id(known.len()));
    let copy = id(known.len() + 1);
    b.instance(copy, 0x200, &[known[0].width, known[0].height, copy + 0x10]);
    b.primitive_array(copy + 0x10, 8, known[0].buffer.len() as u32, &known[0].buffer);
    b.root(copy);
    b.root(0x100).root(0x200);
    b.finish()
}

/// A dump (HPROF 1.0.2, 4-byte ids) holding one `java.lang.Object[]` of `len` elements (id
/// 0x10), element `i` the object `0x100000 + 16 * i` when `i % 3 != 0` and null otherwise; the
/// array is a GC root. (An array longer than one page of anything that reads it a page at a
/// time.)
pub fn long_array_dump(len: u32) -> Vec<u8> {
    let mut b = Builder::new("1.0.2");
    b.class(0x100, "java.lang.Object", 0, &[]);
    b.class(0x200, "[Ljava/lang/Object;", 0x100, &[]);
    let element = |i: u32| if i.is_multiple_of(3) { 0 } else { 0x10_0000 + 16 * i };
    for i in (0..len).filter(|i| !i.is_multiple_of(3)) {
        b.instance(element(i), 0x100, &[]);
    }
    let mut array = vec![0x22];
    array.extend_from_slice(&0x10u32.to_be_bytes());
    array.extend_from_slice(&0u32.to_be_bytes());
    array.extend_from_slice(&len.to_be_bytes());
    array.extend_from_slice(&0x200u32.to_be_bytes());
    for i in 0..len {
        array.extend_from_slice(&element(i).to_be_bytes());
    }
    b.raw(&array);
    b.root(0x10).root(0x100).root(0x200);
    b.finish()
}

/// The id of the Bitmap in [`undecodable_dump`].
pub const UNDECODABLE: u32 = 0x5000;

/// A dump (HPROF 1.0.3, 4-byte ids) as `am dumpheap -b` writes on Android 8+: one 4×2 Bitmap
/// [`UNDECODABLE`] whose pixels are in `Bitmap.dumpData` as an encoded picture (format 1, PNG),
/// but whose bytes are no PNG: its size reads, its picture does not decode.
pub fn undecodable_dump() -> Vec<u8> {
    use crate::builder::LONG;
    let mut b = Builder::new("1.0.3");
    for (id, name) in [(0x1001, "mWidth"), (0x1002, "mHeight"), (0x1003, "mNativePtr"), (0x1004, "dumpData")] {
        b.string(id, name);
    }
    for (id, name) in [(0x1005, "format"), (0x1006, "natives"), (0x1007, "buffers")] {
        b.string(id, name);
    }
    b.class(0x100, "java.lang.Object", 0, &[]);
    b.class_with_static(
        0x200,
        "android.graphics.Bitmap",
        0x100,
        &[(0x1001, INT), (0x1002, INT), (0x1003, LONG)],
        0x1004,
        0x300,
    );
    b.class(0x250, "android.graphics.Bitmap$DumpData", 0x100, &[(0x1005, INT), (0x1006, OBJ), (0x1007, OBJ)]);
    b.class(0x260, "java.lang.Object[]", 0x100, &[]);
    b.instance(0x300, 0x250, &[1, 0x310, 0x320]);
    b.primitive_array(0x310, 11, 1, &0xabcu64.to_be_bytes());
    b.object_array(0x320, 0x260, &[0x330]);
    let garbage = b"this is no PNG at all";
    b.primitive_array(0x330, 8, garbage.len() as u32, garbage);
    let mut fields = Vec::new();
    fields.extend_from_slice(&4u32.to_be_bytes());
    fields.extend_from_slice(&2u32.to_be_bytes());
    fields.extend_from_slice(&0xabcu64.to_be_bytes());
    b.instance_raw(UNDECODABLE, 0x200, &fields);
    b.root(UNDECODABLE).root(0x100).root(0x200).root(0x250);
    b.finish()
}
