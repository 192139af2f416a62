//! Bitmaps' pixels decoded from what the dump holds, against pictures known by construction in
//! each format Android kept in the heap (`test_support::bitmaps`).

use heap::bitmap::Picture;
use heap::{Heap, Index, Options};

#[test]
fn every_format_decodes_to_the_pixels_it_was_made_of() {
    let h = Heap::analyse(
        Index::from_bytes(test_support::bitmaps::dump(), Options::default()).unwrap(),
        Options::default(),
    );
    let known = test_support::bitmaps::known();
    for (i, k) in known.iter().enumerate() {
        let n = h.index.node(u64::from(test_support::bitmaps::id(i))).unwrap();
        assert!(h.is_bitmap(n));
        let Some(Ok(Picture::Raw { width, height, config, rgba })) = h.bitmap(n) else { panic!("{}", k.config) };
        assert_eq!((width, height, config.name()), (k.width, k.height, k.config));
        assert_eq!(rgba, k.rgba.concat(), "{}", k.config);
    }
    // A Bitmap without pixels says so; an object that is no Bitmap has no picture.
    let none = h.index.node(u64::from(test_support::bitmaps::id(known.len()))).unwrap();
    let why = h.bitmap(none).unwrap().unwrap_err();
    assert!(why.contains("no pixels"), "{why}");
    let class_object = h.index.node(0x200).unwrap();
    assert!(h.bitmap(class_object).is_none());
}

/// A buffer that fits no format for the size, and a size of zero, are said so (no panic, no
/// picture), as a hostile dump would make them.
#[test]
fn a_buffer_that_fits_no_format_is_refused() {
    let why = heap::bitmap::decode_raw(4, 2, &[0; 24]).unwrap_err();
    assert!(why.contains("24 bytes"), "{why}");
    assert!(heap::bitmap::decode_raw(0, 2, &[0; 8]).is_err());
    assert!(heap::bitmap::decode_raw(u32::MAX, u32::MAX, &[0; 8]).is_err());
}

/// The duplicate-bitmaps rule groups the first Bitmap with its copy (the same size and pixels)
/// and nothing else: the others share the size but not the bytes of pixels, and one has none.
#[test]
fn a_bitmap_and_its_copy_are_the_only_duplicates() {
    let h = Heap::analyse(
        Index::from_bytes(test_support::bitmaps::dump(), Options::default()).unwrap(),
        Options::default(),
    );
    let leaks = heap::leaks::find_leaks(&h, &heap::leaks::LeakConfig::default());
    let groups: Vec<_> = leaks.iter().filter(|l| l.rule == "android.bitmap.duplicate").collect();
    assert_eq!(groups.len(), 1, "{groups:?}");
    let copy = test_support::bitmaps::known().len() + 1;
    let mut want: Vec<_> =
        [0, copy].iter().map(|&i| h.index.node(u64::from(test_support::bitmaps::id(i))).unwrap()).collect();
    let mut got = groups[0].instances.clone();
    want.sort();
    got.sort();
    assert_eq!(got, want);
}
