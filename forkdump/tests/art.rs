//! The fork dump on a real ART (Android 10's runtime, `./run-tests` builds it:
//! `test_support::art`): the library attached to an app as `cmd activity attach-agent` attaches
//! it (the app calls `Agent_OnAttach` with its `JavaVM*` on its main thread), dump after dump,
//! while the app keeps ART collecting (a concurrent GC asked for every 20 ms, garbage made
//! without pause). Each dump must complete and hold the app's 2,000 sessions; the app must run
//! on. With the window before `fork` widened (the library's test hook), the 8–10 sequence of
//! earlier versions hangs its child on this runtime, and the one sequence does not.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use agent::protocol::{ForkOptions, ForkOutcome, Mode};
use test_support::art::{art, request, App};

/// The two tests take turns: each keeps one core busy with an app that collects.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Dumps in a row (`HEAPTUI_ART_FORK_DUMPS` for a longer run).
fn dumps() -> usize {
    std::env::var("HEAPTUI_ART_FORK_DUMPS").ok().and_then(|n| n.parse().ok()).unwrap_or(10)
}

fn sessions_in(dump: &Path) -> u64 {
    let heap = heap::Heap::open(dump, heap::Options::default()).unwrap();
    let class = heap.index.classes_named("Sessions$Session").next().expect("Sessions$Session in the dump");
    heap.histogram[class.index()].instances
}

fn gcs(pid: u32) -> u64 {
    request(pid, "stat art.gc.gc-count", None).unwrap().lines().next().unwrap().parse().unwrap()
}

/// Attaches the library to the app for one dump into `out`, and waits for its report.
fn fork_dump(pid: u32, library: &Path, out: &Path, timeout_s: u64) -> (ForkOutcome, Duration) {
    let options = ForkOptions {
        out: out.display().to_string(),
        mode: Mode::None,
        timeout_s,
        lib: "libart.so.0".into(),
        sdk: None,
    };
    let started = Instant::now();
    let answer =
        request(pid, &format!("attach-agent {}", options.attach_argument(library.to_str().unwrap()).unwrap()), None);
    assert!(answer.as_deref().is_some_and(|a| a.ends_with("ok\n")), "{answer:?}");
    let report = PathBuf::from(format!("{}.json", out.display()));
    loop {
        if let Ok(text) = std::fs::read(&report) {
            return (serde_json::from_slice(&text).unwrap(), started.elapsed());
        }
        assert!(started.elapsed() < Duration::from_secs(90), "no report for {}", out.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn fork_dumps_complete_on_a_real_art_while_it_collects() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let library = test_support::build::forkdump_library();
    let dir = tempfile::tempdir().unwrap();
    let jar = art().compile(&["tests/java/art/Sessions.java"], dir.path());
    let app = art().start(&jar, "Sessions", &["2000", "0", "20"], &App::new("com.example.forked"));
    let gcs_before = gcs(app.pid);
    let mut pauses = Vec::new();
    let mut failed = Vec::new();
    let n = dumps();
    for i in 0..n {
        let out = dir.path().join(format!("dump-{i}.hprof"));
        let (outcome, took) = fork_dump(app.pid, &library, &out, 60);
        match (&outcome.report, outcome.ok) {
            (Some(r), true) => {
                pauses.push(r.pause_us);
                assert_eq!(sessions_in(&out), 2000, "dump {i}");
                eprintln!(
                    "dump {i}: {} ({}), paused {} us, child {} ms, {took:?}",
                    r.suspend, r.dumper, r.pause_us, r.child_ms
                );
            }
            _ => {
                eprintln!("dump {i}: failed: {:?} after {took:?}", outcome.error);
                failed.push((i, outcome.error.clone()));
            }
        }
        let _ = std::fs::remove_file(&out);
        // The app runs on, and answers.
        assert!(request(app.pid, "gc", None).is_some_and(|a| a.ends_with("ok\n")), "the app after dump {i}");
    }
    let collected = gcs(app.pid) - gcs_before;
    pauses.sort_unstable();
    eprintln!(
        "{} of {n} dumps complete; {collected} GCs by ART's count; pauses {:?} us (min, median, max)",
        n - failed.len(),
        (pauses.first(), pauses.get(pauses.len() / 2), pauses.last())
    );
    assert!(collected > n as u64, "ART kept collecting ({collected} GCs)");
    assert!(failed.is_empty(), "{failed:?}");
    // The children logged nothing (their minimum severity raised before the dump): the one
    // `hprof: heap dump` line of ART's there is none of theirs.
    let log = app.stop();
    assert!(!log.contains("heaptui-fork-dump.hprof"), "{log}");
}

/// The window before `fork` widened (the hook asks ART for a GC there, and waits 3 ms) in an app
/// of 200,000 sessions, whose collections take longer than that: the 8–10 sequence of earlier
/// versions (`Dbg::SuspendVM`, whose GC section ends when it returns) lets the GC start there,
/// and the child's `DumpHeap` waits for it forever (its watchdog ends it); the one sequence
/// holds the section across `fork`, and its child dumps.
#[test]
fn an_earlier_sequence_hangs_on_the_real_art_and_the_one_sequence_does_not() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let library = test_support::build::forkdump_library();
    let dir = tempfile::tempdir().unwrap();
    let jar = art().compile(&["tests/java/art/Sessions.java"], dir.path());
    let start = |sequence: Option<&str>| {
        let mut app = App::new("com.example.widened");
        app.xmx_mb = 512;
        app.env.push(("HEAPTUI_FORK_WIDEN_MS".into(), "3".into()));
        if let Some(s) = sequence {
            app.env.push(("HEAPTUI_FORK_SEQUENCE".into(), s.into()));
        }
        art().start(&jar, "Sessions", &["200000"], &app)
    };
    // The hook asks for a GC and waits 3 ms: a GC of this heap runs longer, so the fork lands in
    // it nearly always; a few tries make a hang certain (each costs the 5 s watchdog, a miss
    // only a dump).
    let old = start(Some("debugger"));
    let mut outcomes = Vec::new();
    for i in 0..5 {
        let (outcome, _) = fork_dump(old.pid, &library, &dir.path().join(format!("old-{i}.hprof")), 5);
        let hung = !outcome.ok && outcome.error.as_deref().is_some_and(|e| e.contains("watchdog"));
        outcomes.push(outcome);
        if hung {
            break;
        }
    }
    assert!(outcomes.last().is_some_and(|o| !o.ok), "the earlier sequence's children never hung: {outcomes:?}");
    assert!(request(old.pid, "gc", None).is_some_and(|a| a.ends_with("ok\n")), "the app runs on");
    drop(old);
    let new = start(None);
    for i in 0..3 {
        let out = dir.path().join(format!("new-{i}.hprof"));
        let (outcome, _) = fork_dump(new.pid, &library, &out, 60);
        assert!(outcome.ok, "{outcome:?}");
        assert_eq!(sessions_in(&out), 200_000);
    }
}
