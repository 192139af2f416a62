//! The fork orchestration against the test double of libart (`tests/libart-double`: ART's mangled
//! functions, writing a fixture dump in many `write()`s), loaded into this process with
//! `dlopen` and resolved the way the real one is (its file's symbols plus its load base from
//! `/proc/self/maps`). Covered: the dump streamed through the stripper equals the fixture
//! stripped (and restored) directly; the fork happens inside the suspension and the parent is
//! resumed; reads and `waitpid` interrupted by signals (EINTR) are retried; a child that hangs is
//! killed by the watchdog; a child that crashes is reported; `Agent_OnAttach` end to end.

use std::path::{Path, PathBuf};
use std::time::Duration;

use forkdump::fork::{fork_dump, ArtApi, Dumper, ForkError, Suspend};
use heap::strip::{restore_plan, rewrite_all, strip_plan, Mode, Rewriter, StripOptions};

fn fixture() -> PathBuf {
    std::env::var_os("HEAPTUI_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"))
        .join("android/ahat-art__test-dump.hprof")
}

/// Builds the double (a no-op when it is up to date) and loads it; returns its handle.
fn load_double() -> usize {
    let lib = test_support::build::built(&["-p", "libart-double"], "libart_double.so");
    let c = std::ffi::CString::new(lib.to_str().unwrap()).unwrap();
    // SAFETY: loading a library built from this repository.
    let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW) };
    assert!(!h.is_null(), "dlopen {}", lib.display());
    h as usize
}

fn double_state(handle: usize) -> (i32, i32) {
    let name = std::ffi::CString::new("heaptui_double_state").unwrap();
    // SAFETY: the symbol the double exports, with its signature.
    unsafe {
        let f = libc::dlsym(handle as *mut libc::c_void, name.as_ptr());
        assert!(!f.is_null());
        let f: unsafe extern "C" fn(*mut i32) -> i32 = std::mem::transmute(f);
        let mut n = 0;
        let s = f(&mut n);
        (s, n)
    }
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
    let double = load_double();
    let raw = std::fs::read(fixture()).unwrap();
    std::env::set_var("HEAPTUI_DOUBLE_DUMP", fixture());
    // The child pauses now and then, so the parent blocks in read() while the signals arrive.
    std::env::set_var("HEAPTUI_DOUBLE_MODE", "slow");
    let api = ArtApi::from_loaded("libart_double.so").unwrap();
    assert!(matches!(api.suspend, Suspend::ScopedSuspendAll { .. }));
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
    assert_eq!((report.suspend.as_str(), report.dumper.as_str()), ("ScopedSuspendAll", "Hprof::Dump"));
    // Resumed, once suspended; the child saw the suspension (it exits 42 otherwise).
    assert_eq!(double_state(double), (0, before + 1));
    // What crossed the pipe in pieces, stripped on the way, is the fixture stripped whole.
    assert_eq!(streamed, strip(&raw));
    assert_eq!(restore(&streamed), restore(&strip(&raw)));

    // A child that never finishes: killed at the limit; the parent is resumed all the same.
    std::env::set_var("HEAPTUI_DOUBLE_MODE", "hang");
    let e = fork_dump(&api, Duration::from_millis(800), &mut |_| Ok(())).unwrap_err();
    assert!(matches!(e, ForkError::Watchdog(_)), "{e}");
    assert_eq!(double_state(double).0, 0);

    // A child that crashes.
    std::env::set_var("HEAPTUI_DOUBLE_MODE", "crash");
    let e = fork_dump(&api, Duration::from_secs(60), &mut |_| Ok(())).unwrap_err();
    assert_eq!(e.to_string(), format!("the dumping child died of signal {}", libc::SIGABRT));
    assert_eq!(double_state(double).0, 0, "resumed after a crashed child");

    // The JVMTI entry point, as `cmd activity attach-agent` calls it.
    std::env::remove_var("HEAPTUI_DOUBLE_MODE");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("app.hprof");
    let opts = std::ffi::CString::new(format!("out={},mode=triage,lib=libart_double.so", out.display())).unwrap();
    // SAFETY: the options string is NUL-terminated; the VM pointers are unused.
    let code = unsafe { forkdump::Agent_OnAttach(std::ptr::null_mut(), opts.as_ptr(), std::ptr::null_mut()) };
    assert_eq!(code, 0);
    // It returns at once (Android calls it on the app's main thread); the report says when done.
    let report = wait_for(&dir.path().join("app.hprof.json"));
    assert_eq!(report["ok"], true, "{report}");
    assert_eq!(report["report"]["bytes"], raw.len());
    assert_eq!(std::fs::read(&out).unwrap(), strip(&raw));
    // Never over an existing dump: the second one fails, and its report does not replace the first.
    let code = unsafe { forkdump::Agent_OnAttach(std::ptr::null_mut(), opts.as_ptr(), std::ptr::null_mut()) };
    assert_eq!(code, 0);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(std::fs::read(&out).unwrap(), strip(&raw));
    assert_eq!(wait_for(&dir.path().join("app.hprof.json"))["ok"], true);
    // Options without a usable out= are refused at once.
    let bad = std::ffi::CString::new("mode=triage").unwrap();
    assert_eq!(unsafe { forkdump::Agent_OnAttach(std::ptr::null_mut(), bad.as_ptr(), std::ptr::null_mut()) }, -1);
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
