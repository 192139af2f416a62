//! Android 15's suspension barrier: a thread that does not reach a suspend point in time aborts
//! the app, whatever asked for the suspension (KOOM's issue 290: its fork dump's); before 15 a
//! long suspension waits for it. The fork dump cannot prevent the abort, only not make it
//! likelier: it asks for one suspension, as `DumpHeap` does. Shown on the test double of libart
//! with a thread that holds the mutator lock for 3 s, the 15 case in a process of its own (it
//! ends that process).

use std::time::Duration;

use forkdump::fork::{fork_dump, ArtApi};

fn load_double() {
    let fixture = test_support::double::fixture();
    std::env::set_var("HEAPTUI_DOUBLE_DUMP", &fixture);
    std::env::set_var("HEAPTUI_DOUBLE_STUCK", "1");
    let double = test_support::double::load();
    test_support::double::attach(double);
}

/// Run by the test below in a process of its own: a fork dump on the 15 model with the slow
/// thread. The process ends with ART's abort.
#[test]
#[ignore = "run by the_15_barrier_aborts_the_app_and_14_waits, in a process of its own"]
fn barrier_on_15() {
    std::env::set_var("HEAPTUI_DOUBLE_ART", "15");
    load_double();
    let api = ArtApi::from_loaded("libart_double.so").unwrap();
    let _ = fork_dump(&api, Duration::from_secs(10), &mut |_| Ok(()));
}

#[test]
fn the_15_barrier_aborts_the_app_and_14_waits() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "barrier_on_15", "--nocapture"])
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(libc::SIGABRT), "{:?}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("SuspendAll timeout"));

    // On 14's model the long suspension waits the slow thread out: a long pause, a whole dump.
    std::env::set_var("HEAPTUI_DOUBLE_ART", "14");
    load_double();
    let api = ArtApi::from_loaded("libart_double.so").unwrap();
    let report = fork_dump(&api, Duration::from_secs(30), &mut |_| Ok(())).unwrap();
    assert!(report.pause_us > 1_000_000, "{report:?}");
    assert!(report.bytes > 0);
}
