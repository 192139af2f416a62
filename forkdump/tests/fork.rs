//! The fork orchestration against the test double of libart (`tests/libart-double`), loaded
//! into this process with `dlopen` and resolved the way the real one is (its file's symbols plus
//! its load base from `/proc/self/maps`). The double models the ART state a forked child
//! inherits (the mutator lock, the suspension count, the GC slot and a GC that runs through
//! suspensions, `thread_list_lock_` and `thread_suspend_count_lock_` taken by threads the
//! suspension does not stop, a logger's lock), so these tests show both sides:
//! - the one sequence survives, on every release's model, a GC running and the locks taken
//!   around the fork, with the window before `fork` widened (the `test-hooks` feature), and the
//!   dump streamed through the stripper equals the fixture stripped (and restored) directly;
//! - every earlier sequence hangs its child there: the 8–10 and 11–14 ones in the window a GC
//!   starts in, the 15 one on `thread_suspend_count_lock_`, `ScopedSuspendAll` alone in
//!   `DumpHeap` (and its `Hprof` object sees a segment twice);
//! - the child's own watchdog (SIGKILL, which nothing blocks) ends a child stuck on a lock held
//!   at the fork; a dump written whole is kept though the child then hangs; reads and `waitpid`
//!   interrupted by signals (EINTR) are retried; a crashed child is reported; `Agent_OnAttach`
//!   works end to end and runs nothing when the thread cannot attach to the runtime.
//!
//! The double is one per process, so the tests take turns.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use forkdump::fork::{fork_dump, ArtApi, Dumper, ForkError, HprofCtor, This};
use forkdump::plan::Sequence;
use heap::strip::{restore_plan, rewrite_all, strip_plan, Mode, Rewriter, StripOptions};

static TURN: Mutex<()> = Mutex::new(());

use test_support::double::{attach, fixture, java_vm, load as load_double, sym};

/// Suspensions in effect and ever taken.
fn double_state(handle: usize) -> (i32, i32) {
    // SAFETY: the double's function, with its signature.
    unsafe {
        let f: unsafe extern "C" fn(*mut i32) -> i32 = std::mem::transmute(sym(handle, "heaptui_double_state"));
        let mut n = 0;
        let s = f(&mut n);
        (s, n)
    }
}

/// The mutator lock, `thread_list_lock_`, `thread_suspend_count_lock_` and a GC section held: all
/// 0 when the app runs freely (as the double's churn leaves them, its locks a moment at a time).
fn locks(handle: usize) -> [i32; 4] {
    let mut out = [0i32; 4];
    // SAFETY: the double's function, with its signature.
    unsafe {
        let f: unsafe extern "C" fn(*mut i32) = std::mem::transmute(sym(handle, "heaptui_double_locks"));
        f(out.as_mut_ptr());
    }
    out
}

/// The `Hprof` object's functions, for a dump that uses them instead of `DumpHeap`.
fn hprof_object(handle: usize) -> Dumper {
    // SAFETY: the double's functions, with ART's signatures.
    unsafe {
        Dumper::Hprof {
            ctor: std::mem::transmute::<*mut libc::c_void, HprofCtor>(sym(handle, forkdump::art::HPROF_CTOR)),
            dump: std::mem::transmute::<*mut libc::c_void, This>(sym(handle, forkdump::art::HPROF_DUMP)),
            dtor: std::mem::transmute::<*mut libc::c_void, This>(sym(handle, forkdump::art::HPROF_DTOR)),
        }
    }
}

/// Sets the double's knobs (the rest unset).
fn knobs(pairs: &[(&str, &str)]) {
    for k in [
        "HEAPTUI_DOUBLE_MODE",
        "HEAPTUI_DOUBLE_ART",
        "HEAPTUI_DOUBLE_GC",
        "HEAPTUI_DOUBLE_LOGGER",
        "HEAPTUI_DOUBLE_CHURN",
    ] {
        std::env::remove_var(k);
    }
    std::env::remove_var("HEAPTUI_FORK_WIDEN_MS");
    std::env::set_var("HEAPTUI_DOUBLE_DUMP", fixture());
    for (k, v) in pairs {
        std::env::set_var(format!("HEAPTUI_DOUBLE_{k}"), v);
    }
}

/// A fork dump's raw bytes, or its error.
fn dump_raw(api: &ArtApi, timeout: Duration) -> Result<Vec<u8>, ForkError> {
    let mut out = Vec::new();
    fork_dump(api, timeout, &mut |b| {
        out.extend_from_slice(b);
        Ok(())
    })?;
    Ok(out)
}

fn strip(bytes: &[u8]) -> Vec<u8> {
    rewrite_all(bytes, Vec::new(), strip_plan(&StripOptions { mode: Mode::Triage, ..Default::default() })).unwrap().0
}

fn restore(bytes: &[u8]) -> Vec<u8> {
    rewrite_all(bytes, Vec::new(), restore_plan()).unwrap().0
}

extern "C" fn on_usr1(_: libc::c_int) {}

#[test]
fn fork_dump_through_the_libart_double() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let double = load_double();
    attach(double);
    let raw = std::fs::read(fixture()).unwrap();
    // The child pauses now and then, so the parent blocks in read() while the signals arrive.
    knobs(&[("MODE", "slow")]);
    let api = ArtApi::from_loaded("libart_double.so").unwrap();
    assert_eq!(api.sequence, Sequence::Hold);
    // The double exports the `Hprof` object: the child dumps on the hold it inherited.
    assert!(matches!(api.dumper, Dumper::Hprof { .. }));

    // Signals while the parent reads and waits: SIGUSR1 without SA_RESTART, sent to this thread
    // every millisecond.
    // SAFETY: installing a handler that does nothing.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_usr1 as extern "C" fn(libc::c_int) as usize;
        sa.sa_flags = 0;
        libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut());
    }
    let me = unsafe { libc::pthread_self() } as usize;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let s2 = stop.clone();
    let pest = std::thread::spawn(move || {
        let mut sent = 0;
        while !s2.load(std::sync::atomic::Ordering::SeqCst) {
            unsafe { libc::pthread_kill(me as libc::pthread_t, libc::SIGUSR1) };
            sent += 1;
            std::thread::sleep(Duration::from_millis(1));
        }
        sent
    });
    let (_, before) = double_state(double);
    let mut r = Rewriter::new(Vec::new(), strip_plan(&StripOptions { mode: Mode::Triage, ..Default::default() }));
    let report = fork_dump(&api, Duration::from_secs(60), &mut |b| r.feed(b).map_err(std::io::Error::other)).unwrap();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(pest.join().unwrap() > 0);
    // The signals did interrupt the parent's reads, and it went on.
    assert!(report.interrupted > 0, "{report:?}");
    let (streamed, _) = r.finish().unwrap();
    assert_eq!(report.bytes, raw.len() as u64);
    assert_eq!((report.suspend.as_str(), report.dumper.as_str()), (Sequence::Hold.name(), "Hprof::Dump"));
    // Resumed, once suspended by us (the child's own suspension is the child's); every lock free.
    assert_eq!(double_state(double), (0, before + 1));
    assert_eq!(locks(double), [0, 0, 0, 0]);
    // What crossed the pipe in pieces, stripped on the way, is the fixture stripped whole.
    assert_eq!(streamed, strip(&raw));
    assert_eq!(restore(&streamed), restore(&strip(&raw)));

    // A child that never finishes ends at the limit; the parent is resumed all the same.
    knobs(&[("MODE", "hang")]);
    let e = fork_dump(&api, Duration::from_millis(800), &mut |_| Ok(())).unwrap_err();
    assert!(matches!(e, ForkError::ChildWatchdog(_)), "{e}");
    assert_eq!((double_state(double).0, locks(double)), (0, [0, 0, 0, 0]));
    // One that blocks signals cannot keep its watchdog's SIGKILL away: it ends at its own
    // limit, before the parent's backstop.
    knobs(&[("MODE", "hang-hard")]);
    let started = std::time::Instant::now();
    let e = fork_dump(&api, Duration::from_millis(800), &mut |_| Ok(())).unwrap_err();
    assert!(matches!(e, ForkError::ChildWatchdog(_)), "{e}");
    assert!(started.elapsed() < Duration::from_millis(1500), "{:?}", started.elapsed());
    assert_eq!(double_state(double).0, 0);
    // One that hangs after writing every byte: the dump is whole, and kept.
    knobs(&[("MODE", "hang-after")]);
    let mut got = Vec::new();
    let report = fork_dump(&api, Duration::from_millis(800), &mut |b| {
        got.extend_from_slice(b);
        Ok(())
    })
    .unwrap();
    assert_eq!(got, raw);
    assert!(report.ended.as_deref().is_some_and(|e| e.contains("whole")), "{report:?}");

    // A child that crashes.
    knobs(&[("MODE", "crash")]);
    let e = fork_dump(&api, Duration::from_secs(60), &mut |_| Ok(())).unwrap_err();
    assert_eq!(e.to_string(), format!("the dumping child died of signal {}", libc::SIGABRT));
    assert_eq!(double_state(double).0, 0, "resumed after a crashed child");

    // The JVMTI entry point, as `cmd activity attach-agent` calls it: the dump runs on a thread
    // of its own, which attaches itself to the runtime through the JavaVM it is given.
    knobs(&[]);
    let vm = java_vm(double);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("app.hprof");
    let options = |out: &Path| {
        let o = agent::protocol::ForkOptions {
            out: out.display().to_string(),
            lib: "libart_double.so".into(),
            // An earlier host's SDK level, taken and ignored: the library's symbols decide.
            sdk: Some(26),
            ..Default::default()
        };
        std::ffi::CString::new(o.to_text().unwrap()).unwrap()
    };
    // SAFETY: the options string is NUL-terminated; the VM is the double's.
    let code = unsafe { forkdump::Agent_OnAttach(vm, options(&out).as_ptr(), std::ptr::null_mut()) };
    assert_eq!(code, 0);
    // It returns at once (Android calls it on the app's main thread); the report says when done.
    let report = wait_for(&dir.path().join("app.hprof.json"));
    assert_eq!(report["ok"], true, "{report}");
    assert_eq!(report["report"]["bytes"], raw.len());
    assert_eq!(report["report"]["suspend"], Sequence::Hold.name());
    assert_eq!(std::fs::read(&out).unwrap(), strip(&raw));
    // Never over an existing dump: the second one fails, and its report does not replace the first.
    let code = unsafe { forkdump::Agent_OnAttach(vm, options(&out).as_ptr(), std::ptr::null_mut()) };
    assert_eq!(code, 0);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(std::fs::read(&out).unwrap(), strip(&raw));
    assert_eq!(wait_for(&dir.path().join("app.hprof.json"))["ok"], true);
    // Without a runtime to attach to, nothing runs (ART's suspension would abort the app on a
    // thread that is not the runtime's); the report says why.
    let (_, suspensions) = double_state(double);
    let lost = dir.path().join("lost.hprof");
    let code = unsafe { forkdump::Agent_OnAttach(std::ptr::null_mut(), options(&lost).as_ptr(), std::ptr::null_mut()) };
    assert_eq!(code, 0);
    let report = wait_for(&dir.path().join("lost.hprof.json"));
    assert_eq!(report["ok"], false);
    assert!(report["error"].as_str().unwrap().contains("could not attach itself to the runtime"), "{report}");
    assert!(!lost.exists());
    assert_eq!(double_state(double).1, suspensions, "nothing called into the runtime");
    assert_eq!(locks(double), [0, 0, 0, 0]);
    // Options without a usable out= are refused at once.
    let bad = std::ffi::CString::new("mode=triage").unwrap();
    assert_eq!(unsafe { forkdump::Agent_OnAttach(std::ptr::null_mut(), bad.as_ptr(), std::ptr::null_mut()) }, -1);
}

/// The one sequence, on each release's model, with a GC running back to back through the
/// suspensions, threads taking `thread_list_lock_` and `thread_suspend_count_lock_` around it,
/// and the window before `fork` widened: the child never hangs and never sees an object twice,
/// whichever dumper it uses, and the app gets every lock back.
#[test]
fn the_one_sequence_survives_every_model_with_a_gc_and_the_locks_taken() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let double = load_double();
    attach(double);
    let raw = std::fs::read(fixture()).unwrap();
    for art in ["10", "14", "15"] {
        knobs(&[("ART", art), ("GC", "1"), ("CHURN", "1")]);
        std::env::set_var("HEAPTUI_FORK_WIDEN_MS", "20");
        let api = ArtApi::from_loaded("libart_double.so").unwrap();
        assert_eq!(api.sequence, Sequence::Hold);
        for dumper in [api.dumper, hprof_object(double)] {
            let mut api = api;
            api.dumper = dumper;
            for attempt in 0..4 {
                let got = dump_raw(&api, Duration::from_secs(10))
                    .unwrap_or_else(|e| panic!("Android {art}'s model, attempt {attempt}: {e}"));
                assert!(got == raw, "Android {art}'s model: the dump differs from what the heap holds");
                assert_eq!(double_state(double).0, 0, "Android {art}'s model");
                assert_eq!(locks(double)[0], 0, "Android {art}'s model: the mutator lock");
            }
        }
    }
    knobs(&[]);
}

/// Every earlier sequence, where the one sequence passes: the 8–10 and 11–14 ones give the GC
/// section up before `fork`, and a GC that starts in the (widened) window leaves the child's
/// `DumpHeap` waiting for it forever; the 15 one did not hold `thread_suspend_count_lock_`, which
/// a thread may hold at the fork; `ScopedSuspendAll` alone hangs `DumpHeap` and makes the
/// `Hprof` object see a segment twice.
#[test]
fn every_earlier_sequence_hangs_where_the_one_sequence_does_not() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let double = load_double();
    attach(double);
    let raw = std::fs::read(fixture()).unwrap();
    let hangs = |sequence: Sequence, knobs_: &[(&str, &str)], widen: &str| {
        knobs(knobs_);
        std::env::set_var("HEAPTUI_FORK_WIDEN_MS", widen);
        let api = ArtApi::with_sequence("libart_double.so", sequence).unwrap();
        // The window makes a hang all but certain; a loaded machine may still miss it once.
        let hung = (0..3).any(|_| match dump_raw(&api, Duration::from_secs(2)) {
            Err(e) => {
                assert!(matches!(e, ForkError::ChildWatchdog(_)), "{}: {e}", sequence.name());
                true
            }
            Ok(_) => false,
        });
        assert!(hung, "{} with {knobs_:?}: the child never hung", sequence.name());
        assert_eq!(double_state(double).0, 0, "{}: the app resumed", sequence.name());
    };
    hangs(Sequence::Debugger, &[("ART", "10"), ("GC", "1")], "30");
    hangs(Sequence::ReleaseMutator, &[("ART", "14"), ("GC", "1")], "30");
    hangs(Sequence::ThreadListLock, &[("ART", "15"), ("CHURN", "1")], "5");
    // Android 11's sequence on Android 15: the child's suspension waits for the inherited one.
    hangs(Sequence::ReleaseMutator, &[("ART", "15")], "0");
    hangs(Sequence::SuspendOnly, &[], "0");

    // The Hprof object in a child forked while a GC was half done: a segment visited twice.
    knobs(&[("GC", "1")]);
    let mut api = ArtApi::with_sequence("libart_double.so", Sequence::SuspendOnly).unwrap();
    api.dumper = hprof_object(double);
    let sizes: Vec<usize> = (0..6).map(|_| dump_raw(&api, Duration::from_secs(20)).unwrap().len()).collect();
    assert!(sizes.iter().any(|&n| n > raw.len()), "no dump saw objects twice: {sizes:?}");
    assert_eq!(double_state(double).0, 0);
    knobs(&[]);
}

/// A lock held at the fork by a thread the suspension does not stop (here the logger's, which
/// ART's dumper takes to log): the child ends itself at its limit and the app is not affected.
#[test]
fn the_childs_own_watchdog_ends_a_child_stuck_on_a_lock() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let double = load_double();
    attach(double);
    knobs(&[("LOGGER", "1")]);
    let api = ArtApi::from_loaded("libart_double.so").unwrap();
    let started = std::time::Instant::now();
    let e = dump_raw(&api, Duration::from_secs(1)).unwrap_err();
    assert!(matches!(e, ForkError::ChildWatchdog(_)), "{e}");
    // Its own timer, not the parent's kill (which comes at twice the limit).
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    assert_eq!((double_state(double).0, locks(double)), (0, [0, 0, 0, 0]));
    knobs(&[]);
}

fn wait_for(report: &Path) -> serde_json::Value {
    let start = std::time::Instant::now();
    loop {
        if let Ok(b) = std::fs::read(report) {
            if let Ok(v) = serde_json::from_slice(&b) {
                return v;
            }
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no report at {}", report.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}
