//! Strip, restore, convert: byte-for-byte against Debian's `hprof-conv`, round trips on every
//! fixture and mode, independence from how the input is chunked, and damaged input.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;
use heap::dominators::UNREACHABLE;
use heap::strip::{
    convert_plan, restore_plan, rewrite_all, strip_matrix, strip_plan, Mode, Plan, Rewriter, StripOptions,
};
use heap::{Heap, Index, Options};
use proptest::prelude::*;

const HPROF_CONV: &str = "/usr/lib/android-sdk/platform-tools/hprof-conv";

/// A fixture's bytes, a gzip original decompressed.
fn read_dump(name: &str) -> Vec<u8> {
    let path = fixture(name);
    let raw = std::fs::read(&path).unwrap();
    if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&raw[..]), &mut out).unwrap();
        return out;
    }
    raw
}

fn rewrite(bytes: &[u8], plan: Plan) -> Vec<u8> {
    rewrite_all(bytes, Vec::new(), plan).unwrap().0
}

fn analyse(bytes: Vec<u8>) -> Heap {
    let o = Options::default();
    Heap::analyse(Index::from_bytes(bytes, o).unwrap(), o)
}

const ANDROID: &[&str] = &[
    "android/adt-tools-base__dialer.android-hprof",
    "android/ahat-art__test-dump.hprof",
    "android/ahat-art__test-dump-base.hprof",
];

/// `heaptui convert` writes what AOSP's hprof-conv writes, byte for byte, with and without -z.
#[test]
fn convert_matches_hprof_conv() {
    assert!(Path::new(HPROF_CONV).exists(), "Debian's hprof-conv is missing: apt-get install hprof-conv");
    let dir = tempfile::tempdir().unwrap();
    for name in ANDROID {
        let input = fixture(name);
        let bytes = std::fs::read(&input).unwrap();
        for z in [false, true] {
            let theirs = dir.path().join("theirs.hprof");
            let mut cmd = Command::new(HPROF_CONV);
            if z {
                cmd.arg("-z");
            }
            let ok = cmd.arg(&input).arg(&theirs).status().unwrap();
            assert!(ok.success(), "hprof-conv failed on {name}");
            let theirs = std::fs::read(&theirs).unwrap();
            let ours = rewrite(&bytes, convert_plan(z));
            assert_eq!(ours.len(), theirs.len(), "{name} -z={z}");
            if let Some(at) = ours.iter().zip(&theirs).position(|(a, b)| a != b) {
                panic!("{name} -z={z}: first difference at byte {at}");
            }
        }
    }
}

/// What a dump looks like to the engine, in ids: objects with class, shallow size, dominator and
/// retained size, and the roots.
/// Per object: id, class, shallow size, dominator id, retained size.
type Objects = Vec<(u64, String, u64, u64, u64)>;

fn fingerprint(h: &Heap) -> (Objects, Vec<(u64, heap::hprof::RootKind)>) {
    let idx = &h.index;
    let objects = idx
        .nodes()
        .map(|n| {
            let dom = match h.dominators.idom(n) {
                UNREACHABLE => u64::MAX,
                d if d.0 >= u32::MAX - 1 => 0,
                d => idx.id(d),
            };
            (idx.id(n), h.display_class(n), idx.shallow_size(n), dom, h.dominators.retained(n))
        })
        .collect();
    let mut roots: Vec<_> = idx.roots().iter().map(|&(n, k)| (idx.id(n), k)).collect();
    roots.sort();
    (objects, roots)
}

/// For every fixture and streaming mode: restore(strip(x)), and strip(x) itself, analyse exactly as
/// x does once x loses what the mode drops (the zygote and image heaps' objects): same objects,
/// classes, shallow sizes, GC roots, dominators and retained sizes. Array values are what differ.
#[test]
fn round_trips_keep_the_analysis() {
    // Every dump of the fixtures (the 500 MB MAT dump is in the benchmarks instead).
    let mut names: Vec<String> = Vec::new();
    for sub in ["android", "jvm"] {
        for e in std::fs::read_dir(fixtures().join(sub)).unwrap() {
            let n = e.unwrap().file_name().to_string_lossy().to_string();
            let dump = n.ends_with(".hprof") || n.ends_with(".bin") || n.ends_with(".android-hprof");
            let packed = n.ends_with(".hprof.bz2") || n.ends_with(".hprof.gz");
            if (dump || packed) && !n.contains("java_pid1884") {
                names.push(format!("{sub}/{}", n.trim_end_matches(".bz2").trim_end_matches(".gz")));
            }
        }
    }
    assert!(names.len() >= 20, "{names:?}");
    for name in &names {
        let bytes = read_dump(name);
        for mode in [Mode::Koom, Mode::Triage, Mode::Redact] {
            let o = StripOptions { mode, ..Default::default() };
            let plan = strip_plan(&o);
            // x restricted to the heaps the mode keeps: the same heaps dropped, every value kept.
            let reference = Plan { drop_heaps: plan.drop_heaps.clone(), ..Plan::identity() };
            let expect = fingerprint(&analyse(rewrite(&bytes, reference)));
            let stripped = rewrite(&bytes, plan);
            assert!(stripped.len() <= bytes.len(), "{name} {mode:?}");
            assert_eq!(fingerprint(&analyse(stripped.clone())), expect, "{name} {mode:?} stripped");
            let restored = rewrite(&stripped, restore_plan());
            assert_eq!(fingerprint(&analyse(restored)), expect, "{name} {mode:?} restored");
        }
    }
}

/// With nothing dropped (HotSpot dumps have no zygote), the reference is the original itself.
#[test]
fn hotspot_strip_matches_the_original_analysis() {
    let bytes = std::fs::read(fixture("jvm/eclipse-mat__sun_jdk5_64bit.hprof")).unwrap();
    let original = fingerprint(&analyse(bytes.clone()));
    let stripped = rewrite(&bytes, strip_plan(&StripOptions { mode: Mode::Koom, ..Default::default() }));
    assert!(stripped.len() < bytes.len(), "{} of {}", stripped.len(), bytes.len());
    assert_eq!(fingerprint(&analyse(stripped)), original);
}

/// Triage keeps Strings up to the limit readable; koom keeps none; redact zeroes primitive fields.
#[test]
fn what_each_mode_keeps() {
    let bytes = std::fs::read(fixture("jvm/py-hprof__example-java.hprof")).unwrap();
    let triage = analyse(rewrite(&bytes, strip_plan(&StripOptions::default())));
    let cars = single_instance(&triage, "com.example.Cars");
    let make = follow(&triage, follow(&triage, cars, "mine"), "make");
    assert_eq!(triage.index.string_value(make).as_deref(), Some("Fånark"));
    assert_eq!(triage.index.field(follow(&triage, cars, "mine"), "numWheels"), Some(heap::values::Value::Int(2)));
    let koom = analyse(rewrite(&bytes, strip_plan(&StripOptions { mode: Mode::Koom, ..Default::default() })));
    let cars = single_instance(&koom, "com.example.Cars");
    assert_eq!(koom.index.string_value(follow(&koom, follow(&koom, cars, "mine"), "make")), None);
    let redact = analyse(rewrite(&bytes, strip_plan(&StripOptions { mode: Mode::Redact, ..Default::default() })));
    let cars = single_instance(&redact, "com.example.Cars");
    let mine = follow(&redact, cars, "mine");
    assert_eq!(redact.index.field(mine, "numWheels"), Some(heap::values::Value::Int(0)));
    assert!(redact.index.field(mine, "make").and_then(|v| v.as_object()).is_some(), "references stay");
    // Restored: the values come back as zeros of the right length.
    let restored = analyse(rewrite(
        &rewrite(&bytes, strip_plan(&StripOptions { mode: Mode::Redact, ..Default::default() })),
        restore_plan(),
    ));
    let cars = single_instance(&restored, "com.example.Cars");
    let make = follow(&restored, follow(&restored, cars, "mine"), "make");
    let value = follow(&restored, make, "value");
    assert_eq!(restored.index.array_length(value), Some(6));
    assert!(restored.index.primitive_array_bytes(value).unwrap().1.iter().all(|&b| b == 0));
}

/// Matrix: String values stay, other arrays lose theirs; run on the Android dumps' Bitmaps too.
#[test]
fn matrix_keeps_string_values() {
    let bytes = std::fs::read(fixture("android/adt-tools-base__dialer.android-hprof")).unwrap();
    let (out, stats) = strip_matrix(bytes.clone(), Vec::new()).unwrap();
    assert!(stats.arrays_emptied > 0);
    let h = analyse(out);
    let state = class(&h, "java.lang.Thread$State");
    let new = h.index.node(h.index.static_value(state, "NEW").unwrap().as_object().unwrap()).unwrap();
    assert_eq!(h.index.string_value(follow(&h, new, "name")).as_deref(), Some("NEW"));
    let original = analyse(bytes);
    assert_eq!(h.index.len(), original.index.len());
}

fn feed_in_chunks(bytes: &[u8], plan: Plan, cuts: &[usize]) -> Vec<u8> {
    let mut r = Rewriter::new(Vec::new(), plan);
    let mut at = 0;
    for &c in cuts {
        let end = (at + c).min(bytes.len());
        r.feed(&bytes[at..end]).unwrap();
        at = end;
    }
    r.feed(&bytes[at..]).unwrap();
    r.finish().unwrap().0
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The stripped output is identical whatever the chunking of the input (1 byte to 64 KiB).
    #[test]
    fn output_does_not_depend_on_chunking(cuts in proptest::collection::vec(1usize..65536, 1..200), small in proptest::collection::vec(1usize..16, 0..400)) {
        let bytes = std::fs::read(fixture("android/ahat-art__test-dump-base.hprof")).unwrap();
        let plan = strip_plan(&StripOptions::default());
        let whole = rewrite(&bytes, plan.clone());
        let mut all = small.clone();
        all.extend(cuts);
        prop_assert_eq!(&feed_in_chunks(&bytes, plan, &all), &whole);
    }
}

/// A dump cut short: the output is valid (it opens) with everything complete, and an error says
/// where the input stopped.
#[test]
fn truncated_input_gives_valid_output_and_an_error() {
    let bytes = std::fs::read(fixture("android/adt-tools-base__dialer.android-hprof")).unwrap();
    for cut in [100usize, 900_000, 1_500_003, 2_600_001] {
        let mut r = Rewriter::new(Vec::new(), strip_plan(&StripOptions::default()));
        r.feed(&bytes[..cut]).unwrap();
        let err = r.finish().expect_err("truncated input is an error");
        assert_eq!(err.offset, cut as u64, "{err}");
        // Run again keeping the output this time.
        let mut out = Vec::new();
        {
            let mut r = Rewriter::new(&mut out, strip_plan(&StripOptions::default()));
            r.feed(&bytes[..cut]).unwrap();
            let _ = r.finish();
        }
        if cut > 31 {
            let h = Index::from_bytes(out, Options::default()).unwrap();
            assert!(h.warnings.iter().all(|w| !w.contains("truncated")), "cut {cut}: {:?}", h.warnings);
        }
    }
}

/// An unknown sub-record tag is an error naming its offset.
#[test]
fn malformed_input_is_an_error_with_offset() {
    let mut bytes = std::fs::read(fixture("jvm/hprof-slurp__hprof-32.bin")).unwrap();
    // The first heap dump record's first sub-record tag.
    let index = Index::from_bytes(bytes.clone(), Options::default()).unwrap();
    let first_object = index.nodes().map(|n| index.offset(n)).min().unwrap() as usize;
    bytes[first_object] = 0x42;
    let err = rewrite_all(&bytes[..], Vec::new(), strip_plan(&StripOptions::default())).err().unwrap();
    assert_eq!(err.kind, heap::ErrorKind::UnknownSubRecord(0x42));
    assert_eq!(err.offset, first_object as u64);
}

/// Flipped bytes anywhere: every plan ends in output or an error, never a panic.
#[test]
fn flipped_bytes_never_panic_the_rewriter() {
    let original = std::fs::read(fixture("android/ahat-art__test-dump-base.hprof")).unwrap();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let plans = [
        strip_plan(&StripOptions::default()),
        strip_plan(&StripOptions { mode: Mode::Koom, ..Default::default() }),
        strip_plan(&StripOptions { mode: Mode::Redact, ..Default::default() }),
        restore_plan(),
        convert_plan(true),
    ];
    for round in 0..200 {
        let mut bytes = original.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() % bytes.len() as u64) as usize;
            bytes[at] ^= 1 << (next() % 8);
        }
        let plan = plans[round % plans.len()].clone();
        let _ = rewrite_all(&bytes[..], std::io::sink(), plan);
        if round % 10 == 0 {
            let _ = strip_matrix(bytes, std::io::sink());
        }
    }
}

/// A dump as Android 8 and later write one after `am dumpheap -b png`: two Bitmaps with their
/// pixels native (`mNativePtr`), and the static `Bitmap.dumpData` holding the pictures the app
/// compressed, 1,000 bytes each; and an unrelated byte[1000]. The pictures come first and the
/// Bitmap class last, so nothing streaming could know them when it meets them.
fn dump_data_dump() -> (Vec<u8>, [Vec<u8>; 2]) {
    use common::builder::{Builder, INT, LONG, OBJ};
    let pictures = [0u8, 1].map(|k| (0..1000u32).map(|i| (i * 7 + u32::from(k) * 91) as u8).collect::<Vec<u8>>());
    let mut b = Builder::new("1.0.3");
    for (id, s) in [(0x1001, "mNativePtr"), (0x1002, "mWidth"), (0x1003, "mHeight"), (0x1004, "dumpData")] {
        b.string(id, s);
    }
    for (id, s) in [(0x1011, "count"), (0x1012, "format"), (0x1013, "natives"), (0x1014, "buffers"), (0x1015, "max")] {
        b.string(id, s);
    }
    b.primitive_array(0x6010, 8, 1000, &pictures[0]);
    b.primitive_array(0x6020, 8, 1000, &pictures[1]);
    b.primitive_array(0x6030, 8, 1000, &[0x55; 1000]);
    b.object_array(0x6040, 0x400, &[0x6010, 0x6020]);
    let natives: Vec<u8> = [0x7f00_1000u64, 0x7f00_2000].iter().flat_map(|p| p.to_be_bytes()).collect();
    b.primitive_array(0x6050, LONG, 2, &natives);
    // DumpData { count 2, format 1 (PNG), natives, buffers, max 2 }.
    b.instance(0x6000, 0x300, &[2, 1, 0x6050, 0x6040, 2]);
    b.class(0x100, "java.lang.Object", 0, &[]);
    b.class(0x400, "byte[][]", 0x100, &[]);
    b.class(
        0x300,
        "android.graphics.Bitmap$DumpData",
        0x100,
        &[(0x1011, INT), (0x1012, INT), (0x1013, OBJ), (0x1014, OBJ), (0x1015, INT)],
    );
    for (id, ptr) in [(0x5000u32, 0x7f00_1000u64), (0x5100, 0x7f00_2000)] {
        let mut data = ptr.to_be_bytes().to_vec();
        data.extend_from_slice(&20u32.to_be_bytes());
        data.extend_from_slice(&10u32.to_be_bytes());
        b.instance_raw(id, 0x200, &data);
        b.root(id);
    }
    b.class_with_static(
        0x200,
        "android.graphics.Bitmap",
        0x100,
        &[(0x1001, LONG), (0x1002, INT), (0x1003, INT)],
        0x1004,
        0x6000,
    );
    b.root(0x6030).root(0x100).root(0x200).root(0x300);
    (b.finish(), pictures)
}

/// `am dumpheap -b`'s pictures survive `triage` (though longer than the 256 elements it keeps of
/// other arrays) and `koom` (which drops every other value), and go in `redact`; the plan without
/// the dump (a stream) drops them as any long array.
#[test]
fn bitmap_pictures_survive_triage_and_koom_and_go_in_redact() {
    use heap::bitmap::Picture;
    let (dump, pictures) = dump_data_dump();
    let kept = heap::strip::dump_data_buffers(&dump);
    assert_eq!(kept, [0x6010u64, 0x6020, 0x6050].into_iter().collect(), "the pictures and `natives`");
    let pictures_in = |bytes: Vec<u8>| -> Vec<Option<Vec<u8>>> {
        let h = analyse(bytes);
        [0x5000u64, 0x5100]
            .iter()
            .map(|&id| match h.bitmap(h.index.node(id).unwrap()) {
                Some(Ok(Picture::Encoded { bytes, format, .. })) => {
                    assert_eq!(format, Some(1));
                    Some(bytes)
                }
                _ => None,
            })
            .collect()
    };
    let long_array = |bytes: &[u8]| {
        let h = analyse(bytes.to_vec());
        h.index.node(0x6030).and_then(|n| h.index.primitive_array_bytes(n)).map(|(_, b)| b.to_vec())
    };
    let whole: Vec<_> = pictures.iter().cloned().map(Some).collect();
    assert_eq!(pictures_in(dump.clone()), whole, "the dump itself");
    for mode in [Mode::Triage, Mode::Koom] {
        let o = StripOptions { mode, ..Default::default() };
        let stripped = rewrite(&dump, heap::strip::strip_plan_for(&o, &dump));
        assert_eq!(pictures_in(stripped.clone()), whole, "{mode:?}");
        assert_eq!(long_array(&stripped), None, "{mode:?}: other long arrays lose their values");
        // Without the dump to look in first, they go as any long array.
        assert_eq!(pictures_in(rewrite(&dump, strip_plan(&o))), [None, None], "{mode:?}");
    }
    let o = StripOptions { mode: Mode::Redact, ..Default::default() };
    assert_eq!(pictures_in(rewrite(&dump, heap::strip::strip_plan_for(&o, &dump))), [None, None]);
    // A damaged dump gives up what it holds before the damage, and never panics.
    for cut in (0..dump.len()).step_by(7) {
        let found = heap::strip::dump_data_buffers(&dump[..cut]);
        assert!(found.is_subset(&kept), "cut at {cut}: {found:?}");
    }
}
