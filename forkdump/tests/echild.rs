//! An app that ignores SIGCHLD (or reaps its children itself): the kernel reaps the dumping
//! child, and the parent's `waitpid` answers ECHILD. A dump written whole is kept, the report
//! saying what became of the child; one cut short is a failure. A process of its own (SIGCHLD's
//! disposition is the whole process's), with the test double of libart.

use std::time::Duration;

use forkdump::fork::{fork_dump, ArtApi};

#[test]
fn a_child_the_app_reaps_leaves_a_whole_dump_kept() {
    let lib = test_support::build::built(&["-p", "libart-double"], "libart_double.so");
    let fixture = std::env::var_os("HEAPTUI_FIXTURES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"))
        .join("android/ahat-art__test-dump.hprof");
    let raw = std::fs::read(&fixture).unwrap();
    std::env::set_var("HEAPTUI_DOUBLE_DUMP", &fixture);
    let c = std::ffi::CString::new(lib.to_str().unwrap()).unwrap();
    // SAFETY: loading the repository's double; its JavaVM attaches this thread; SIGCHLD ignored
    // in this test's own process.
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
