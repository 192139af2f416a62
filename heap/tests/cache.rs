//! The on-disk index cache: a dump re-opened from its cache answers exactly as when analysed, and
//! a stale, damaged or foreign cache file is a miss (never a panic, never a wrong answer).

mod common;

use std::path::{Path, PathBuf};

use heap::cache::{Cache, Miss, KEEP};
use heap::report::FileInfo;
use heap::{Heap, Options, SizeModel};

/// A copy of fixture `name` in a temporary directory (its time stamps are changed below).
fn copy(name: &str, dir: &Path) -> PathBuf {
    let src = common::fixture(name);
    let to = dir.join(src.file_name().unwrap());
    std::fs::copy(&src, &to).unwrap();
    to
}

fn cache_in(dir: &Path) -> Cache {
    let mut c = Cache::new(dir.join("cache"));
    c.min_bytes = 0;
    c
}

/// Everything the front ends read, compared between two heaps of the same dump.
fn assert_same(a: &Heap, b: &Heap) {
    let (ia, ib) = (&a.index, &b.index);
    assert_eq!(ia.len(), ib.len());
    assert_eq!(ia.classes.len(), ib.classes.len());
    for (ca, cb) in ia.classes.iter().zip(&ib.classes) {
        assert_eq!(format!("{ca:?}"), format!("{cb:?}"));
    }
    assert_eq!(ia.roots(), ib.roots());
    assert_eq!(ia.stacks(), ib.stacks());
    for &(n, _) in ia.roots() {
        assert_eq!(ia.root_thread(n), ib.root_thread(n));
    }
    assert_eq!(ia.graph().len(), ib.graph().len());
    for n in ia.nodes() {
        assert_eq!(ia.id(n), ib.id(n));
        assert_eq!(ib.node(ib.id(n)), Some(n));
        assert_eq!(
            (ia.class_of(n), ia.shallow_size(n), ia.offset(n)),
            (ib.class_of(n), ib.shallow_size(n), ib.offset(n))
        );
        assert_eq!((ia.heap_of(n), ia.as_class(n)), (ib.heap_of(n), ib.as_class(n)));
        assert_eq!(ia.graph().edges(n.0), ib.graph().edges(n.0));
        let (da, db) = (&a.dominators, &b.dominators);
        assert_eq!(
            (da.idom(n), da.retained(n), da.retained_count(n)),
            (db.idom(n), db.retained(n), db.retained_count(n))
        );
        assert_eq!(da.reach(n), db.reach(n));
        assert_eq!(da.children(Some(n)), db.children(Some(n)));
        // Paths are walked from each object to its root: a sample keeps the test quick on
        // dumps with long chains.
        if n.0 % 61 == 0 {
            let (pa, pb) = (a.paths().path(ia, n), b.paths().path(ib, n));
            assert_eq!(format!("{pa:?}"), format!("{pb:?}"));
            assert_eq!(ia.string_value(n), ib.string_value(n));
        }
    }
    assert_eq!(a.dominators.children(None), b.dominators.children(None));
    let hist =
        |h: &Heap| h.histogram.iter().map(|c| (c.instances, c.shallow_bytes, c.retained_bytes)).collect::<Vec<_>>();
    assert_eq!(hist(a), hist(b));
    // The whole report, leaks included.
    let report = |h: &Heap| {
        let leaks = heap::leaks::find_leaks(h, &heap::leaks::LeakConfig::default());
        h.analyze_json_with_leaks(&FileInfo { path: "dump", bytes: 0, cut_names: false }, 50, &leaks)
    };
    assert_eq!(report(a), report(b));
}

#[test]
fn a_cached_dump_answers_as_the_analysed_one() {
    for name in [
        "android/adt-tools-base__dialer.android-hprof",
        "android/ahat-art__test-dump.hprof",
        "jvm/eclipse-mat__sun_jdk6_30_x64_compressedOops.hprof",
        // Compressed input: decompressed into memory on both paths.
        "jvm/eclipse-mat__openjdk_jdk11_04_x64.hprof",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let dump = copy(name, dir.path());
        let cache = cache_in(dir.path());
        assert!(matches!(cache.load(&dump, Options::default(), ""), Err(Miss::Absent)), "{name}");
        let fresh = Heap::open(&dump, Options::default()).unwrap();
        let file = cache.store(&fresh, &cache.ticket(&dump, Options::default(), "").unwrap()).unwrap();
        let cached = cache.load(&dump, Options::default(), "").unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_same(&fresh, &cached);
        // Readable by its owner only: it holds the dump's class and field names.
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600, "{name}");
        assert_eq!(std::fs::metadata(file.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
    }
}

#[test]
fn a_changed_dump_or_other_options_miss() {
    let dir = tempfile::tempdir().unwrap();
    let dump = copy("android/ahat-art__test-dump.hprof", dir.path());
    let cache = cache_in(dir.path());
    let heap = Heap::open(&dump, Options::default()).unwrap();
    cache.store(&heap, &cache.ticket(&dump, Options::default(), "").unwrap()).unwrap();
    assert!(cache.load(&dump, Options::default(), "").is_ok());

    // Other options, another mapping file: other cache files.
    let hotspot = Options { size_model: Some(SizeModel::Hotspot), ..Default::default() };
    assert!(matches!(cache.load(&dump, hotspot, ""), Err(Miss::Absent)));
    assert!(matches!(cache.load(&dump, Options::default(), "mapping"), Err(Miss::Absent)));

    // The same size and modification time, one byte of content changed: the fingerprint.
    let meta = std::fs::metadata(&dump).unwrap();
    let mut bytes = std::fs::read(&dump).unwrap();
    bytes[100] ^= 0xff;
    std::fs::write(&dump, &bytes).unwrap();
    let f = std::fs::File::options().write(true).open(&dump).unwrap();
    f.set_modified(meta.modified().unwrap()).unwrap();
    drop(f);
    assert_eq!(std::fs::metadata(&dump).unwrap().modified().unwrap(), meta.modified().unwrap());
    assert!(matches!(cache.load(&dump, Options::default(), ""), Err(Miss::Stale)));

    // Only the modification time changed.
    bytes[100] ^= 0xff;
    std::fs::write(&dump, &bytes).unwrap();
    assert!(matches!(cache.load(&dump, Options::default(), ""), Err(Miss::Stale)));

    // Too small for the threshold: not looked up.
    let mut strict = cache.clone();
    strict.min_bytes = bytes.len() as u64 + 1;
    assert!(matches!(strict.load(&dump, Options::default(), ""), Err(Miss::NotCached)));
}

#[test]
fn a_damaged_cache_is_a_miss_and_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let dump = copy("android/adt-tools-base__dialer.android-hprof", dir.path());
    let cache = cache_in(dir.path());
    let heap = Heap::open(&dump, Options::default()).unwrap();
    let file = cache.store(&heap, &cache.ticket(&dump, Options::default(), "").unwrap()).unwrap();
    let good = std::fs::read(&file).unwrap();

    // A flipped byte anywhere past the key (in the key it is another dump's cache: stale), and
    // truncation at many lengths.
    // The key's length is at 16 (after the magic, the format and padding to 8 bytes).
    let key_end = 16 + 8 + u64::from_le_bytes(good[16..24].try_into().unwrap()) as usize;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..40 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut bad = good.clone();
        let at = key_end + (seed as usize) % (good.len() - key_end);
        bad[at] ^= 1 << (i % 8);
        std::fs::write(&file, &bad).unwrap();
        match cache.load(&dump, Options::default(), "") {
            Err(Miss::Corrupt(_)) => {}
            other => panic!("byte {at} flipped: {:?}", other.err()),
        }
        assert!(!file.exists(), "a damaged cache file is removed");
    }
    for len in [0, 5, 12, 20, key_end, key_end + 100, good.len() / 2, good.len() - 8, good.len() - 1] {
        std::fs::write(&file, &good[..len]).unwrap();
        assert!(matches!(cache.load(&dump, Options::default(), ""), Err(Miss::Corrupt(_))), "truncated to {len}");
    }
    // A magic number and the current format's number (the file's bytes 8..12), then nothing of sense.
    let mut garbage = good[..12].to_vec();
    garbage.extend_from_slice(b"garbage garbage garbage");
    std::fs::write(&file, &garbage).unwrap();
    assert!(matches!(cache.load(&dump, Options::default(), ""), Err(Miss::Corrupt(_))));
    // Written again, it is good again.
    cache.store(&heap, &cache.ticket(&dump, Options::default(), "").unwrap()).unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), good);
    assert!(cache.load(&dump, Options::default(), "").is_ok());
    // A good file that others could write is not used: its arrays are used where they lie.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o620)).unwrap();
    let not_private = cache.load(&dump, Options::default(), "");
    assert!(matches!(not_private, Err(Miss::Corrupt(heap::cache::Damage::NotPrivate))), "{:?}", not_private.err());
}

#[test]
fn the_directory_keeps_the_newest() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::fixture("jvm/hprof-slurp__hprof-64.bin");
    let heap = Heap::open(&src, Options::default()).unwrap();
    let cache = cache_in(dir.path());
    let mut files = Vec::new();
    for i in 0..KEEP + 3 {
        let dump = dir.path().join(format!("dump-{i}.hprof"));
        std::fs::copy(&src, &dump).unwrap();
        files.push(cache.store(&heap, &cache.ticket(&dump, Options::default(), "").unwrap()).unwrap());
        // Modification times must differ for "newest" to mean something.
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let left: Vec<bool> = files.iter().map(|f| f.exists()).collect();
    assert_eq!(left.iter().filter(|&&b| b).count(), KEEP);
    assert!(left[3..].iter().all(|&b| b), "the newest are kept: {left:?}");
}

#[test]
fn a_dump_that_changed_while_read_is_not_cached() {
    let dir = tempfile::tempdir().unwrap();
    let dump = copy("android/ahat-art__test-dump.hprof", dir.path());
    let cache = cache_in(dir.path());
    // A pull in progress: the dump is read while half of it is there.
    let whole = std::fs::read(&dump).unwrap();
    std::fs::write(&dump, &whole[..whole.len() / 2]).unwrap();
    let ticket = cache.ticket(&dump, Options::default(), "").unwrap();
    let partial = Heap::open(&dump, Options::default()).unwrap();
    std::fs::write(&dump, &whole).unwrap();
    let e = cache.store(&partial, &ticket).unwrap_err();
    assert!(e.to_string().contains("changed while it was read"), "{e}");
    assert!(matches!(cache.load(&dump, Options::default(), ""), Err(Miss::Absent)));
}

#[test]
fn pruning_touches_only_cache_files() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::fixture("jvm/hprof-slurp__hprof-64.bin");
    let heap = Heap::open(&src, Options::default()).unwrap();
    // A directory the user named, with files of theirs that look alike.
    let cache = {
        let mut c = Cache::new(dir.path());
        c.min_bytes = 0;
        c
    };
    let theirs = ["notes.idx", "0123456789abcdef.idx.bak", "my.tmp", "0123456789abcdeg.idx"];
    for (i, name) in theirs.iter().enumerate() {
        std::fs::write(dir.path().join(name), b"mine").unwrap();
        let f = std::fs::File::options().write(true).open(dir.path().join(name)).unwrap();
        f.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(7200 + i as u64)).unwrap();
    }
    for i in 0..KEEP + 2 {
        let dump = dir.path().join(format!("dump-{i}.hprof"));
        std::fs::copy(&src, &dump).unwrap();
        cache.store(&heap, &cache.ticket(&dump, Options::default(), "").unwrap()).unwrap();
    }
    for name in theirs {
        assert!(dir.path().join(name).exists(), "{name} was removed");
    }
}

#[test]
fn the_directory_keeps_within_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::fixture("jvm/hprof-slurp__hprof-64.bin");
    let heap = Heap::open(&src, Options::default()).unwrap();
    let mut cache = cache_in(dir.path());
    let mut files = Vec::new();
    for i in 0..4 {
        let dump = dir.path().join(format!("dump-{i}.hprof"));
        std::fs::copy(&src, &dump).unwrap();
        files.push(cache.store(&heap, &cache.ticket(&dump, Options::default(), "").unwrap()).unwrap());
        std::thread::sleep(std::time::Duration::from_millis(20));
        if i == 0 {
            // Room for two files of this size, not three.
            cache.max_bytes = std::fs::metadata(&files[0]).unwrap().len() * 5 / 2;
        }
    }
    let left: Vec<bool> = files.iter().map(|f| f.exists()).collect();
    assert_eq!(left, [false, false, true, true]);
    // Smaller than one file: the newest stays all the same.
    cache.max_bytes = 1;
    let dump = dir.path().join("dump-last.hprof");
    std::fs::copy(&src, &dump).unwrap();
    let last = cache.store(&heap, &cache.ticket(&dump, Options::default(), "").unwrap()).unwrap();
    assert!(last.exists());
    assert!(files.iter().all(|f| !f.exists()));
}
