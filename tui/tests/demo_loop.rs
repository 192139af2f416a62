//! `heaptui demo` without a terminal: the whole loop on a real JVM (OpenJDK) — the bundled
//! LeakyCache grows, KOOM's heap trigger fires, the JVM is dumped through the attach protocol and
//! stripped, and the report names the leaking cache.

use std::process::Command;

#[test]
fn the_demo_loop_ends_at_the_leak() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["demo", "--interval", "0.25", "--timeout", "60"])
        .env("XDG_DATA_HOME", dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("TRIGGER heap"), "{err}");
    let report = String::from_utf8(out.stdout).unwrap();
    // The report opens with the dump's path, stored under XDG_DATA_HOME.
    let path = report.split_whitespace().next().unwrap();
    assert!(path.starts_with(dir.path().join("heaptui/dumps/local/LeakyCache").to_str().unwrap()), "{path}");
    assert!(std::path::Path::new(path).exists());
    // The program stops growing at 88 % of its 32 MiB heap; the trigger is at 80 %: the cache
    // class is the one suspect and holds nearly all of the heap, mostly in sessions.
    let suspects = report.split("Leak suspects (1)").nth(1).expect(&report);
    let first = suspects.lines().nth(1).unwrap();
    assert!(first.contains("class LeakyCache"), "{first}");
    assert!(suspects.contains("LeakyCache$Session"), "{report}");
}
