//! **A test double of Android's `libart.so`** (no ART runs here): it exports the mangled
//! functions heaptui's fork dump calls, with ART's signatures, and behaves as far as the fork
//! dump can see: `ScopedSuspendAll` marks the runtime suspended until its destructor runs;
//! `Hprof`'s constructor takes the descriptor, `Hprof::Dump` writes a dump into it in many
//! `write()`s of varying sizes, as ART's output stream does; `DumpHeap` does the same in one call.
//!
//! Set before the suspension (read then, not in the child, which must not allocate):
//! `HEAPTUI_DOUBLE_DUMP` the dump file to write; `HEAPTUI_DOUBLE_MODE` `write` (default),
//! `slow` (the child pauses 200 ms before writing and 10 ms after every 64 writes, so the
//! reader blocks often), `hang` (the
//! child never finishes: the watchdog's case) or `crash` (the child aborts).
//! The child exits with 42 if it finds the runtime not suspended: the fork must happen inside the
//! suspension.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

static SUSPENDED: AtomicI32 = AtomicI32::new(0);
static SUSPENSIONS: AtomicI32 = AtomicI32::new(0);
static MODE: AtomicI32 = AtomicI32::new(0);
static DUMP_PTR: AtomicUsize = AtomicUsize::new(0);
static DUMP_LEN: AtomicUsize = AtomicUsize::new(0);

fn prepare() {
    MODE.store(
        match std::env::var("HEAPTUI_DOUBLE_MODE").as_deref() {
            Ok("hang") => 1,
            Ok("crash") => 2,
            Ok("slow") => 3,
            _ => 0,
        },
        Ordering::SeqCst,
    );
    if let Ok(p) = std::env::var("HEAPTUI_DOUBLE_DUMP") {
        if let Ok(bytes) = std::fs::read(p) {
            let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            DUMP_PTR.store(leaked.as_ptr() as usize, Ordering::SeqCst);
            DUMP_LEN.store(leaked.len(), Ordering::SeqCst);
        }
    }
}

/// Writes the prepared dump to `fd` in chunks of 1 to 8191 bytes (a fixed pseudo-random
/// sequence); only system calls, no allocation.
unsafe fn write_dump(fd: c_int) {
    if SUSPENDED.load(Ordering::SeqCst) != 1 {
        libc::_exit(42);
    }
    match MODE.load(Ordering::SeqCst) {
        1 => loop {
            libc::sleep(1000);
        },
        2 => libc::abort(),
        _ => {}
    }
    let (ptr, len) = (DUMP_PTR.load(Ordering::SeqCst) as *const u8, DUMP_LEN.load(Ordering::SeqCst));
    let mut at = 0usize;
    let mut seed = 0x2545_f491u32;
    let slow = MODE.load(Ordering::SeqCst) == 3;
    if slow {
        // The parent waits on an empty pipe first.
        libc::usleep(200_000);
    }
    let mut writes = 0u32;
    while at < len {
        writes += 1;
        if slow && writes & 63 == 0 {
            libc::usleep(10_000);
        }
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let want = (1 + (seed >> 8) % 8191) as usize;
        let n = libc::write(fd, ptr.add(at).cast(), want.min(len - at));
        if n < 0 {
            if *libc::__errno_location() == libc::EINTR {
                continue;
            }
            libc::_exit(3);
        }
        at += n as usize;
    }
}

/// `art::ScopedSuspendAll::ScopedSuspendAll(const char*, bool)`.
#[no_mangle]
pub extern "C" fn _ZN3art16ScopedSuspendAllC1EPKcb(_this: *mut c_void, _cause: *const c_char, _long: bool) {
    prepare();
    SUSPENDED.store(1, Ordering::SeqCst);
    SUSPENSIONS.fetch_add(1, Ordering::SeqCst);
}

/// `art::ScopedSuspendAll::~ScopedSuspendAll()`.
#[no_mangle]
pub extern "C" fn _ZN3art16ScopedSuspendAllD1Ev(_this: *mut c_void) {
    SUSPENDED.store(0, Ordering::SeqCst);
}

/// `art::hprof::Hprof::Hprof(const char*, int, bool)`: keeps the descriptor in the object.
///
/// # Safety
/// `this` points at room for an int.
#[no_mangle]
pub unsafe extern "C" fn _ZN3art5hprof5HprofC2EPKcib(this: *mut c_void, _path: *const c_char, fd: c_int, _ddms: bool) {
    *(this as *mut c_int) = fd;
}

/// `art::hprof::Hprof::Dump()`.
///
/// # Safety
/// `this` was constructed by the constructor above.
#[no_mangle]
pub unsafe extern "C" fn _ZN3art5hprof5Hprof4DumpEv(this: *mut c_void) {
    write_dump(*(this as *const c_int));
}

/// `art::hprof::Hprof::~Hprof()` (base object).
#[no_mangle]
pub extern "C" fn _ZN3art5hprof5HprofD2Ev(_this: *mut c_void) {}

/// `art::hprof::DumpHeap(const char*, int, bool)`.
///
/// # Safety
/// `fd` is open for writing.
#[no_mangle]
pub unsafe extern "C" fn _ZN3art5hprof8DumpHeapEPKcib(_path: *const c_char, fd: c_int, _ddms: bool) {
    write_dump(fd);
}

/// For the tests: whether the runtime is suspended now, and how many suspensions there were.
///
/// # Safety
/// `suspensions` is null or points at room for an int.
#[no_mangle]
pub unsafe extern "C" fn heaptui_double_state(suspensions: *mut c_int) -> c_int {
    if !suspensions.is_null() {
        *suspensions = SUSPENSIONS.load(Ordering::SeqCst);
    }
    SUSPENDED.load(Ordering::SeqCst)
}
