//! `heaptui analyze` on damaged dumps, as a user runs it: every variant ends within a time bound
//! with status 0 (and a warning when cut) or 1 with a message naming a byte offset, never a panic,
//! and its peak memory stays within a bounded multiple of the file's size.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> PathBuf {
    std::env::var_os("HEAPTUI_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"))
        .join(name)
}

/// Runs `heaptui analyze FILE`: its status, stderr and peak RSS (KiB), killed past `limit`.
// The child is reaped with wait4 (for its resource usage), not Child::wait.
#[allow(clippy::zombie_processes)]
fn analyze(file: &std::path::Path, limit: Duration) -> (i32, String, i64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["analyze", file.to_str().unwrap(), "--format", "json"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(err).unwrap_or_default());
    let start = Instant::now();
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 reaps our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if start.elapsed() >= limit {
            // SAFETY: our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("{} still running after {limit:?}: a hang", file.display());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 128 + libc::WTERMSIG(status) };
    (code, reader.join().unwrap(), usage.ru_maxrss)
}

#[test]
fn damaged_dumps_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut tried = 0;
    for name in
        ["jvm/hprof-slurp__hprof-32.bin", "android/ahat-art__RI.hprof", "android/adt-tools-base__dialer.android-hprof"]
    {
        let bytes = std::fs::read(fixture(name)).unwrap();
        for i in 0..12 {
            let mut b = bytes.clone();
            let what = if i % 2 == 0 {
                let cut = (next() % b.len() as u64) as usize;
                b.truncate(cut);
                format!("cut at {cut}")
            } else {
                for _ in 0..4 {
                    let at = (next() % b.len() as u64) as usize;
                    b[at] ^= 1 << (next() % 8);
                }
                "four bits flipped".to_string()
            };
            let file = dir.path().join(format!("v{tried}.hprof"));
            std::fs::write(&file, &b).unwrap();
            let (code, err, rss_kb) = analyze(&file, Duration::from_secs(30));
            tried += 1;
            assert!(code == 0 || code == 1, "{name}, {what}: status {code}\n{err}");
            assert!(!err.contains("panicked"), "{name}, {what}: {err}");
            if code == 1 {
                assert!(err.contains(" at 0x") || err.contains("header at"), "{name}, {what}: no offset in {err}");
            }
            // The process's own baseline (~30 MiB here) plus a bounded multiple of the file.
            let bound = 96 * 1024 + 24 * b.len() as i64 / 1024;
            assert!(rss_kb <= bound, "{name}, {what}: {rss_kb} KiB peak for {} bytes", b.len());
        }
    }
    assert_eq!(tried, 36);
}
