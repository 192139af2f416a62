//! The test double of libart (`tests/libart-double`) in this process, as the fork dump's tests
//! use it: built, loaded with `dlopen`, and the calling thread attached to its runtime.

// Only tests call this: what cannot be done is a failed test, said where it happened.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::PathBuf;

/// The dump the double writes (`HEAPTUI_DOUBLE_DUMP`): ahat's test dump among the fixtures.
pub fn fixture() -> PathBuf {
    std::env::var_os("HEAPTUI_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures"))
        .join("android/ahat-art__test-dump.hprof")
}

/// Builds the double (a no-op when it is up to date) and loads it; its handle.
pub fn load() -> usize {
    let lib = crate::build::built(&["-p", "libart-double"], "libart_double.so");
    let c = std::ffi::CString::new(lib.to_str().unwrap()).unwrap();
    // SAFETY: loading a library built from this repository.
    let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW) };
    assert!(!h.is_null(), "dlopen {}", lib.display());
    h as usize
}

/// A symbol the double exports.
pub fn sym(handle: usize, name: &str) -> *mut libc::c_void {
    let c = std::ffi::CString::new(name).unwrap();
    // SAFETY: a symbol the double exports.
    let f = unsafe { libc::dlsym(handle as *mut libc::c_void, c.as_ptr()) };
    assert!(!f.is_null(), "{name}");
    f
}

/// The double's `JavaVM*`.
pub fn java_vm(handle: usize) -> *mut libc::c_void {
    // SAFETY: the double's function, with its signature.
    unsafe {
        std::mem::transmute::<*mut libc::c_void, extern "C" fn() -> *mut libc::c_void>(sym(
            handle,
            "heaptui_double_java_vm",
        ))()
    }
}

/// Makes this thread one of the double's runtime threads, as `AttachCurrentThread` does.
pub fn attach(handle: usize) {
    let vm = java_vm(handle);
    // SAFETY: the double's JavaVM: its invocation interface's fifth entry attaches.
    unsafe {
        let table = *(vm as *const *const usize);
        let f: extern "C" fn(*mut libc::c_void, *mut *mut libc::c_void, *mut libc::c_void) -> i32 =
            std::mem::transmute(*table.add(4));
        let mut env = std::ptr::null_mut();
        assert_eq!(f(vm, &mut env, std::ptr::null_mut()), 0);
    }
}
