//! Android 15's suspension barrier: a thread that does not reach a suspend point in time aborts
//! the app, whatever asked for the suspension (KOOM's issue 290: its fork dump's); before 15 a
//! long suspension waits for it. The fork dump cannot prevent the abort, only not make it
//! likelier: it asks for one suspension, as `DumpHeap` does. Shown on the test double of libart
//! with a thread that holds the mutator lock for 3 s, the 15 case in a process of its own (it
//! ends that process).

use std::time::Duration;

use forkdump::fork::{fork_dump, ArtApi};

fn load_double() {
    let lib = test_support::build::built(&["-p", "libart-double"], "libart_double.so");
    let fixture = std::env::var_os("HEAPTUI_FIXTURES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"))
        .join("android/ahat-art__test-dump.hprof");
    std::env::set_var("HEAPTUI_DOUBLE_DUMP", &fixture);
    std::env::set_var("HEAPTUI_DOUBLE_STUCK", "1");
    let c = std::ffi::CString::new(lib.to_str().unwrap()).unwrap();
    // SAFETY: loading the repository's double; its JavaVM attaches this thread.
    unsafe {
        let h = libc::dlopen(c.as_ptr(), libc::RTLD_NOW);
        assert!(!h.is_null());
        let vm: extern "C" fn() -> *mut libc::c_void =
            std::mem::transmute(libc::dlsym(h, c"heaptui_double_java_vm".as_ptr()));
        let vm = vm();
        let table = *(vm as *const *const usize);
        let attach: extern "C" fn(*mut libc::c_void, *mut *mut libc::c_void, *mut libc::c_void) -> i32 =
            std::mem::transmute(*table.add(4));
        assert_eq!(attach(vm, &mut std::ptr::null_mut(), std::ptr::null_mut()), 0);
    }
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
