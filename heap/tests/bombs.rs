//! Small inputs built to take memory out of all proportion: class layouts that multiply through
//! their superclasses, compressed files that expand thousands of times. Each must end in a clear
//! error, quickly, with the process's peak memory (getrusage) far below what the input asks for.
//! One test per binary concern, in one test function each, since the peak is the process's.

use std::io::Write;

use heap::{Error, ErrorKind, Index, Limit, Options};

mod common;

use test_support::hostile::{gzip_bomb, layout_bomb, zstd_bomb};

#[test]
fn bombs_end_in_errors_within_bounded_memory() {
    // 20 000 subclasses of a class of 20 000 fields: 1.7 MB (with a LOAD CLASS and a name per
    // class) that would resolve to 400 M fields (some 20 GB). The budget (64 times the declared
    // fields, at least 4 M) stops it.
    let bytes = layout_bomb(20_000, 20_000);
    assert!(bytes.len() < 2 << 20, "{}", bytes.len());
    let e = Index::from_bytes(bytes, Options::default()).err().expect("an error");
    assert!(matches!(e.kind, ErrorKind::TooLarge(Limit::Layouts { declared: 20_000, limit: 4_194_304 })), "{e}");
    assert!(e.to_string().contains("CLASS DUMP"), "{e}");
    assert!(test_support::peak::own() < 600 << 20, "peak {} MB", test_support::peak::own() >> 20);

    // A real class hierarchy well inside the budget still opens: 2 000 subclasses of 200 fields.
    let index = Index::from_bytes(layout_bomb(200, 2_000), Options::default()).unwrap();
    assert!(index.classes.iter().filter(|c| c.name == "S").all(|c| c.fields.len() == 200));

    // Compressed bombs: a dump's start and 1 GiB of zeros, in zstd (32 KB: past the default
    // ratio, 10 000) and gzip (1 MB: gzip cannot pass about 1 030, so a lower
    // HEAPTUI_MAX_EXPANSION stands in for a file system too small to take it).
    let dir = tempfile::tempdir().unwrap();
    let zst = dir.path().join("bomb.hprof.zst");
    std::fs::write(&zst, zstd_bomb(1024).unwrap()).unwrap();
    let gz = dir.path().join("bomb.hprof.gz");
    std::fs::write(&gz, gzip_bomb(1024).unwrap()).unwrap();
    for (file, ratio) in [(&zst, "10000"), (&gz, "200")] {
        let size = std::fs::metadata(file).unwrap().len();
        assert!(size < 8 << 20, "{size}");
        if ratio != "10000" {
            std::env::set_var("HEAPTUI_MAX_EXPANSION", ratio);
        }
        let e = Index::open(file, Options::default()).err().expect("an error");
        std::env::remove_var("HEAPTUI_MAX_EXPANSION");
        let text = e.to_string();
        assert!(text.contains(&format!("expands past {ratio} times its size")), "{e}");
        // It says how much it stopped at, from how much.
        let limit = (size * ratio.parse::<u64>().unwrap()).max(1 << 20);
        assert!(text.contains(&format!("more than {limit} bytes from {size}")), "{e}");
        assert!(text.contains(&format!("HEAPTUI_MAX_EXPANSION above {ratio}")), "{e}");
        // Nothing left beside it: the temporary file had no name.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
    assert!(test_support::peak::own() < 600 << 20, "peak {} MB", test_support::peak::own() >> 20);

    // A header followed by zeros alone is refused at its first record, before anything is
    // written.
    let zeros = dir.path().join("zeros.hprof.gz");
    std::fs::write(&zeros, test_support::hostile::gzip_header_then_zeros(64).unwrap()).unwrap();
    let e = Index::open(&zeros, Options::default()).err().expect("an error");
    assert!(e.to_string().contains("first record (byte 31, decompressed) has tag 0x00"), "{e}");

    // A compressed file that is not a dump is refused at its first bytes.
    let not = dir.path().join("not.gz");
    let mut g = flate2::write::GzEncoder::new(std::fs::File::create(&not).unwrap(), flate2::Compression::fast());
    g.write_all(&vec![b'x'; 1 << 20]).unwrap();
    g.finish().unwrap();
    let e: Error = Index::open(&not, Options::default()).err().expect("an error");
    assert!(matches!(e.kind, ErrorKind::NotHprof), "{e}");

    // A real dump that gzips 560 times (MAT's java_pid1884: 522,836,448 bytes in 935 KB) is
    // admitted by the default policy, which 200 times refused; decompressed to an unnamed file.
    let mat = common::fixture("jvm/eclipse-mat__java_pid1884.0001.hprof.gz");
    let data = heap::data::Data::open(&mat).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(data.len(), 522_836_448);
    assert!(data.starts_with(b"JAVA PROFILE 1.0.2\0"));
    drop(data);

    // A real dump, compressed, opens as it does plain (the peers' fixture through zstd).
    let fixture = common::fixture("android/ahat-art__test-dump.hprof");
    let raw = std::fs::read(&fixture).unwrap();
    let packed = dir.path().join("real.hprof.zst");
    std::fs::write(&packed, zstd::encode_all(&raw[..], 3).unwrap()).unwrap();
    let a = Index::open(&fixture, Options::default()).unwrap();
    let b = Index::open(&packed, Options::default()).unwrap();
    assert_eq!((a.len(), a.classes.len()), (b.len(), b.classes.len()));
}
