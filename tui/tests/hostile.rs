//! Hostile input through the command line, built by code (`test_support::hostile`): a stripped
//! dump whose NODATA arrays declare far more than it holds, restored and converted; each case
//! asserts the exact outcome (an error that says how to allow more, nothing written, and the
//! time and memory bounded), and that a genuine expansion still goes through when allowed.

use std::process::{Command, Output};

fn heaptui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heaptui")).args(args).output().unwrap()
}

#[test]
fn nodata_bombs_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    // 20 arrays of 4 G - 1 longs: 32 GiB each, 640 GiB in all, from 1 KB.
    let bomb = dir.path().join("bomb.hprof");
    std::fs::write(&bomb, test_support::hostile::nodata_bomb(20, u32::MAX)).unwrap();
    assert!(std::fs::metadata(&bomb).unwrap().len() < 2048);
    for cmd in ["restore", "convert"] {
        let out_file = dir.path().join(format!("{cmd}.hprof"));
        let start = std::time::Instant::now();
        let out = heaptui(&[cmd, bomb.to_str().unwrap(), out_file.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{cmd}: {err}");
        assert!(err.contains("NODATA arrays declare more than 1073741824 bytes"), "{cmd}: {err}");
        assert!(err.contains("--max-output BYTES"), "{cmd}: {err}");
        assert!(start.elapsed() < std::time::Duration::from_secs(20), "{cmd}");
        // Nothing left: no output, no temporary file.
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, ["bomb.hprof"], "{cmd}");
    }

    // A genuine expansion past the default: 40 arrays of 4 MiB each (160 MiB from 1 KB), allowed
    // with --max-output, restores to exactly what the records declare.
    let big = dir.path().join("big.hprof");
    std::fs::write(&big, test_support::hostile::nodata_bomb(40, 512 * 1024)).unwrap();
    let out_file = dir.path().join("big-restored.hprof");
    let out = heaptui(&["restore", big.to_str().unwrap(), out_file.to_str().unwrap(), "--max-output", "200000000"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let len = std::fs::metadata(&out_file).unwrap().len();
    // Each array: its 19-byte head (tag, id, stack, length, type) plus 4 MiB of zeros.
    assert!(len > 40 * (4 << 20) && len < 40 * (4 << 20) + (1 << 16), "{len}");
    // The default bound (10,000 times the input, at least 1 GiB) lets it through too.
    let out_file = dir.path().join("big-default.hprof");
    let out = heaptui(&["restore", big.to_str().unwrap(), out_file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // And a bound below what it declares refuses it.
    let out_file = dir.path().join("big-small.hprof");
    let out = heaptui(&["restore", big.to_str().unwrap(), out_file.to_str().unwrap(), "--max-output", "1000000"]);
    assert!(!out.status.success());
    assert!(!out_file.exists());
}

/// The whole corpus through `analyze`, each file under a name that carries the terminal payload
/// too: each case ends as its `Expect` says, within a minute, with no control character on
/// stdout or stderr; and no child took more than 1 GiB at its peak (`getrusage` of the children).
#[test]
fn the_corpus_gives_each_cases_outcome() {
    use test_support::hostile::{corpus, payload, unsafe_chars, Expect};
    let dir = tempfile::tempdir().unwrap();
    for case in corpus().unwrap() {
        let path = dir.path().join(format!("{}{}", payload(), case.name));
        std::fs::write(&path, &case.bytes).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .arg("analyze")
            .arg(&path)
            .env("HEAPTUI_INDEX_CACHE", "off")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(60) {
                let _ = child.kill();
                panic!("{}: still running after 60 s", case.name);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let out = child.wait_with_output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(unsafe_chars(&stdout, true), [], "{}: stdout", case.name);
        assert_eq!(unsafe_chars(&stderr, false), [], "{}: stderr {stderr}", case.name);
        match case.expect {
            Expect::Opens => assert!(out.status.success(), "{}: {stderr}", case.name),
            Expect::Error(text) => {
                assert!(!out.status.success(), "{}", case.name);
                assert!(stderr.contains(text), "{}: {stderr}", case.name);
                // The file's name, escaped, names what failed.
                assert!(stderr.contains(test_support::hostile::SHOWN), "{}: {stderr}", case.name);
            }
        }
    }
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    assert!((u.ru_maxrss as u64) < (1 << 20), "a child peaked at {} MB", u.ru_maxrss >> 10);
    // Nothing was left beside the files (the decompressed dumps had no names).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), corpus().unwrap().len());
}

/// Links planted where `strip`, `restore` and `convert` write: at the output's name (dangling,
/// pointing at a file that does not exist yet, and pointing at one that does) and at the
/// temporary names the next processes would use. Each command fails or writes its own file;
/// the planted targets are never created or changed.
#[test]
fn planted_links_redirect_no_write() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let names = dir.path().join("names.hprof");
    std::fs::write(&names, test_support::hostile::dump()).unwrap();
    let android = dir.path().join("android.hprof");
    std::fs::write(&android, test_support::hostile::nodata_bomb(2, 16)).unwrap();
    let victim = dir.path().join("victim");
    let kept = dir.path().join("kept");
    std::fs::write(&kept, b"the user's file").unwrap();
    for (cmd, input) in [("strip", &names), ("restore", &android), ("convert", &android)] {
        // At the output's name: a dangling link, then a link to an existing file.
        for (target, exists) in [(&victim, false), (&kept, true)] {
            let out_path = dir.path().join(format!("{cmd}-out.hprof"));
            symlink(target, &out_path).unwrap();
            let out = heaptui(&[cmd, input.to_str().unwrap(), out_path.to_str().unwrap()]);
            assert!(!out.status.success(), "{cmd} wrote through a link to {}", target.display());
            assert!(!victim.exists(), "{cmd} created the link's target");
            assert_eq!(std::fs::read(&kept).unwrap(), b"the user's file");
            assert_eq!(exists, target.exists());
            std::fs::remove_file(&out_path).unwrap();
        }
        // At the temporary names of the next 300 processes.
        let last: u32 = std::fs::read_to_string("/proc/sys/kernel/ns_last_pid").unwrap().trim().parse().unwrap();
        let out_path = dir.path().join(format!("{cmd}-next.hprof"));
        for pid in last + 1..last + 300 {
            symlink(&victim, dir.path().join(format!(".{cmd}-next.hprof.{pid}.tmp"))).unwrap();
        }
        let out = heaptui(&[cmd, input.to_str().unwrap(), out_path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        // It wrote its own file, or it met a planted name and said so; never the victim.
        assert!(out.status.success() || err.contains("cannot create"), "{cmd}: {err}");
        assert!(!victim.exists(), "{cmd} wrote through a planted temporary name");
        assert_eq!(out.status.success(), out_path.exists() && !out_path.is_symlink(), "{cmd}");
        for pid in last + 1..last + 300 {
            let _ = std::fs::remove_file(dir.path().join(format!(".{cmd}-next.hprof.{pid}.tmp")));
        }
    }
}

/// `doctor --libart` reads a runtime's library whole: a device file (endless) or a file past
/// 256 MiB is refused before it is read.
#[test]
fn a_library_that_is_no_file_is_not_read() {
    let out = heaptui(&["doctor", "--libart", "/dev/zero"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a regular file"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("libart.so");
    std::fs::File::create(&big).unwrap().set_len(300 << 20).unwrap();
    let out = heaptui(&["doctor", "--libart", big.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("314572800 bytes: more than a runtime's library (256 MiB at most)"), "{err}");
}

/// SQL typed or pasted only reads: `VACUUM INTO` and `ATTACH` create no file, a write and a
/// PRAGMA that changes a setting are refused with the reason, a second statement is refused
/// rather than dropped, and a cell is at most 64 MiB.
#[test]
fn sql_only_reads() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("names.hprof");
    std::fs::write(&dump, test_support::hostile::dump()).unwrap();
    let target = dir.path().join("made.db");
    std::fs::write(dir.path().join("empty.db"), b"").unwrap();
    let cases = [
        (format!("VACUUM INTO '{}'", target.display()), "only reads the heap"),
        (format!("ATTACH DATABASE '{}' AS x", target.display()), "only reads the heap"),
        (format!("ATTACH DATABASE '{}' AS x", dir.path().join("empty.db").display()), "only reads the heap"),
        ("CREATE TEMP TABLE t(x)".to_string(), "only reads the heap"),
        ("PRAGMA writable_schema = 1".to_string(), "only reads the heap"),
        ("SELECT 1; SELECT 2".to_string(), "one statement at a time"),
        ("SELECT length(zeroblob(1000000000))".to_string(), "string or blob too big"),
    ];
    for (sql, why) in cases {
        let out = heaptui(&["query", dump.to_str().unwrap(), &sql]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{sql}");
        assert!(err.contains(why), "{sql}: {err}");
    }
    assert!(!target.exists());
    assert_eq!(std::fs::read(dir.path().join("empty.db")).unwrap(), b"");
    // What reads still works: a listing PRAGMA, a recursive query.
    let out = heaptui(&["query", dump.to_str().unwrap(), "PRAGMA table_info(objects)", "--format", "csv"]);
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains(",retained,"));
}

/// `query`'s rows stream: 400,000 rows of 1,000 characters (400 MB of CSV) pass with the
/// process's peak far below them; a table keeps 100,000 rows and says how many more there were.
#[test]
fn query_rows_stream() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("names.hprof");
    std::fs::write(&dump, test_support::hostile::dump()).unwrap();
    let rows = |n: u32| {
        format!(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {n}) \
             SELECT x, printf('%.1000c', 'a') AS s FROM c"
        )
    };
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_heaptui"));
    cmd.args(["query", dump.to_str().unwrap(), &rows(400_000), "--format", "csv"]);
    let (out, peak) = test_support::peak::run(&cmd).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.len() > 400_000_000, "{}", out.stdout.len());
    assert!(peak < 150 << 20, "it peaked at {} MB", peak >> 20);
    let out = heaptui(&["query", dump.to_str().unwrap(), &rows(100_100).replace("'%.1000c'", "'%.1c'")]);
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("100 more rows not shown"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Serials a device names itself by (over USB, its descriptor's), served by a fake adb server
/// (`test_support::fake_adb`, the one thing the real server cannot be made to say): a serial
/// with shell syntax is quoted in the command heaptui suggests, one with terminal controls is
/// shown escaped.
#[test]
fn serials_are_quoted_and_escaped() {
    let shell = "x;reboot$(id)";
    let controls = format!("y{}", test_support::hostile::TITLE);
    let listing = format!("{shell}\trecovery usb:1-1 transport_id:3\n{controls}\tdevice usb:1-2 transport_id:4\n");
    let server = test_support::fake_adb::FakeAdbServer::start(&listing).unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .args(args)
            .env("ANDROID_ADB_SERVER_PORT", server.port.to_string())
            .env_remove("ANDROID_SERIAL")
            .output()
            .unwrap()
    };
    let out = run(&["ps", "-s", shell]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("`adb -s 'x;reboot$(id)' reboot`"), "{err}");
    let out = run(&["devices"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(test_support::hostile::unsafe_chars(&text, true), [], "{text}");
    assert!(text.contains(shell), "{text}");
}
