//! An app that ignores SIGCHLD (or reaps its children itself): the kernel reaps the dumping
//! child, and the parent's `waitpid` answers ECHILD. A dump written whole is kept, the report
//! saying what became of the child; one cut short is a failure. A process of its own (SIGCHLD's
//! disposition is the whole process's), with the test double of libart.

use std::time::Duration;

use forkdump::fork::{fork_dump, ArtApi};

#[test]
fn a_child_the_app_reaps_leaves_a_whole_dump_kept() {
    let fixture = test_support::double::fixture();
    let raw = std::fs::read(&fixture).unwrap();
    std::env::set_var("HEAPTUI_DOUBLE_DUMP", &fixture);
    let double = test_support::double::load();
    test_support::double::attach(double);
    // SAFETY: SIGCHLD's disposition, in this test's own process.
    unsafe {
        libc::signal(libc::SIGCHLD, libc::SIG_IGN);
    }
    let api = ArtApi::from_loaded("libart_double.so").unwrap();
    let mut got = Vec::new();
    let report = fork_dump(&api, Duration::from_secs(30), &mut |b| {
        got.extend_from_slice(b);
        Ok(())
    })
    .unwrap();
    assert_eq!(got, raw);
    assert!(report.ended.as_deref().is_some_and(|e| e.contains("reaped by the app")), "{report:?}");

    // A child that crashes half way, reaped by the kernel all the same: the bytes are not whole.
    std::env::set_var("HEAPTUI_DOUBLE_MODE", "crash");
    let e = fork_dump(&api, Duration::from_secs(30), &mut |_| Ok(())).unwrap_err();
    assert!(e.to_string().contains("reaped by the app"), "{e}");
}
