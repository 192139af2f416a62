//! **A test double of Android's `libart.so`** (the real ART 10 of `tests/art/` runs the fork
//! dump too; this models what it cannot show: other releases, rare interleavings made certain).
//! It exports the mangled functions heaptui's fork dump calls, with ART's signatures, and
//! models the state of ART's that decides whether a forked child can dump: the mutator lock,
//! the count of suspensions, the GC slot and a GC that runs through suspensions,
//! `thread_list_lock_` and `thread_suspend_count_lock_` with the threads that take them while
//! others are suspended, and a logger's lock held by a thread the suspension does not stop.
//! Every piece is a plain atomic, so the child of `fork` inherits it as ART's child inherits
//! ART's memory, and nothing in the child can make progress that ART's child could not.
//!
//! The model, with the ART behaviour each piece stands for (citations in `docs/design.md`):
//! - `ScopedSuspendAll` counts a suspension under `thread_list_lock_` and
//!   `thread_suspend_count_lock_` (on the Android 15 model it first waits, forever, while
//!   another is counted: `SuspendAllInternal` on `resume_cond_`), then takes the mutator lock
//!   exclusively, which waits for the GC's shared hold; when that does not come within a second
//!   (ART: 10 s) a long suspension retries forever and a short one aborts, and on the 15 model
//!   any one aborts (15's barrier: a thread that misses it ends the app). Its destructor takes
//!   the two locks to count the resume and releases the mutator lock (aborting if it is not
//!   held, as ART's CHECK does).
//! - `Dbg::SuspendVM` (8–10) takes a GC critical section, suspends, leaves the mutator lock free
//!   and ends the section, as `SuspendAllForDebugger` does.
//! - The GC critical section waits, without limit, until no GC runs, then marks one running
//!   (`Heap::StartGC`); its destructor clears it (`FinishGC`).
//! - With `HEAPTUI_DOUBLE_GC=1` a GC thread runs concurrent GCs back to back, as ART's
//!   `HeapTaskDaemon` does in `kNative`: a suspension does not stop it. It claims the GC slot
//!   whenever no GC section holds it or waits for it (those are let in first, as ART wakes its
//!   waiters when a GC finishes), and takes the mutator lock shared for each phase (the CC
//!   collector's hold), so it waits while a suspension holds the lock exclusively, with the slot
//!   claimed: a suspension that gives up its section before `fork` lets it in.
//! - With `HEAPTUI_DOUBLE_CHURN=1` a thread takes `thread_list_lock_` and
//!   `thread_suspend_count_lock_` again and again for a moment, as exiting threads
//!   (`ThreadList::Unregister`) and threads leaving a suspended state do while others are
//!   suspended: a child may inherit either lock held by a thread it does not have.
//! - With `HEAPTUI_DOUBLE_STUCK=1` a runnable thread is slow to reach a suspend point: it holds
//!   the mutator lock shared for 3 s.
//! - With `HEAPTUI_DOUBLE_LOGGER=1` a native thread (never suspended) holds the logger's lock,
//!   stuck in a write; the `Hprof` constructor logs, as ART's does.
//! - `DumpHeap` is ART's: a GC section, a long `ScopedSuspendAll`, the `Hprof` object, the dump.
//! - `Hprof::Dump` requires the suspension (the mutator lock held exclusively, or the child
//!   exits 42) and, when it runs while a GC is half done, writes the first heap-dump segment
//!   twice: ART's visit of the allocation stack and the live bitmap (b/34967844).
//! - `Thread::CurrentFromGdb` is non-null only on threads attached to a runtime: the double's own
//!   `JavaVM` ([`heaptui_double_java_vm`]) or a real JVM's in the process.
//!
//! Set before the fork dump (read by the first call of each dump, in the parent):
//! `HEAPTUI_DOUBLE_DUMP` the dump file to write; `HEAPTUI_DOUBLE_MODE` `write` (default),
//! `slow` (the child pauses 200 ms before writing and 10 ms after every 64 writes), `hang` (the
//! child never finishes), `hang-hard` (the same with every signal it can block blocked),
//! `hang-after` (the child writes the whole dump, then never ends) or `crash`; `HEAPTUI_DOUBLE_ART` `10`, `14` (default) or `15`, the release whose suspension is
//! modelled.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::SeqCst};
use std::sync::Once;
use std::time::{Duration, Instant};

/// ART's lock objects: a state word (0 free, -1 held exclusively, n > 0 shared n times).
#[repr(C)]
pub struct Lock {
    state: AtomicI32,
}

static MUTATOR: Lock = Lock { state: AtomicI32::new(0) };
static THREAD_LIST: Lock = Lock { state: AtomicI32::new(0) };
static SUSPEND_COUNT_LOCK: Lock = Lock { state: AtomicI32::new(0) };
static LOGGER: Lock = Lock { state: AtomicI32::new(0) };
static LOGGER_WANTED: AtomicBool = AtomicBool::new(false);
static LOGGER_HELD: AtomicBool = AtomicBool::new(false);

/// `art::Locks::mutator_lock_`: a pointer to the lock.
#[no_mangle]
pub static _ZN3art5Locks13mutator_lock_E: &Lock = &MUTATOR;
/// `art::Locks::thread_list_lock_`: a pointer to the lock.
#[no_mangle]
pub static _ZN3art5Locks17thread_list_lock_E: &Lock = &THREAD_LIST;
/// `art::Locks::thread_suspend_count_lock_`: a pointer to the lock.
#[no_mangle]
pub static _ZN3art5Locks26thread_suspend_count_lock_E: &Lock = &SUSPEND_COUNT_LOCK;

/// Suspensions in effect (ART's `suspend_all_count_`).
static SUSPEND_COUNT: AtomicI32 = AtomicI32::new(0);
/// Whether the suspension in effect is a long one.
static LONG_SUSPEND: AtomicBool = AtomicBool::new(false);
/// Suspensions ever taken, for the tests.
static SUSPENSIONS: AtomicI32 = AtomicI32::new(0);
/// The collector type of the GC running (ART's `collector_type_running_`), 0 when none.
static GC_RUNNING: AtomicI32 = AtomicI32::new(0);
/// What the GC thread runs: concurrent copying (ART's `kCollectorTypeCC`).
const CONCURRENT_COPYING: i32 = 7;
/// What `Dbg::SuspendVM`'s GC section marks.
const DEBUGGER: i32 = 99;
/// Whether the GC thread runs GCs (a suspension then waits for it to stop at a suspend point).
static GC_THREAD: AtomicBool = AtomicBool::new(false);
/// Whether the tests want it to.
static GC_WANTED: AtomicBool = AtomicBool::new(false);
/// Threads waiting in `start_gc` (ART's waiters on `gc_complete_cond_`, woken when a GC
/// finishes): the GC thread lets them have the slot first.
static GC_WAITERS: AtomicI32 = AtomicI32::new(0);
/// Whether the tests want the lock churn.
static CHURN_WANTED: AtomicBool = AtomicBool::new(false);
static MODE: AtomicI32 = AtomicI32::new(0);
static ART: AtomicI32 = AtomicI32::new(14);
static DUMP_PTR: AtomicUsize = AtomicUsize::new(0);
static DUMP_LEN: AtomicUsize = AtomicUsize::new(0);
/// The first heap-dump segment of the dump: where it starts and ends.
static SEGMENT: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];

fn nap(us: u32) {
    // SAFETY: a system call.
    unsafe { libc::usleep(us) };
}

fn abort(why: &str) -> ! {
    // SAFETY: system calls; the message is what ART's CHECK would log.
    unsafe {
        libc::write(2, why.as_ptr().cast(), why.len());
        libc::abort()
    }
}

/// Reads the knobs and the dump (in the parent: this allocates) and starts the threads asked for.
fn prepare() {
    MODE.store(
        match std::env::var("HEAPTUI_DOUBLE_MODE").as_deref() {
            Ok("hang") => 1,
            Ok("crash") => 2,
            Ok("slow") => 3,
            Ok("hang-hard") => 4,
            Ok("hang-after") => 5,
            _ => 0,
        },
        SeqCst,
    );
    static GC: Once = Once::new();
    let gc = std::env::var("HEAPTUI_DOUBLE_GC").as_deref() == Ok("1");
    GC_WANTED.store(gc, SeqCst);
    if gc {
        GC_THREAD.store(true, SeqCst);
        GC.call_once(|| {
            std::thread::spawn(gc_thread);
        });
    }
    static CHURN: Once = Once::new();
    let churn = std::env::var("HEAPTUI_DOUBLE_CHURN").as_deref() == Ok("1");
    CHURN_WANTED.store(churn, SeqCst);
    if churn {
        CHURN.call_once(|| {
            std::thread::spawn(|| churn_thread(&THREAD_LIST, 20));
            std::thread::spawn(|| churn_thread(&SUSPEND_COUNT_LOCK, 2000));
        });
    }
    static STUCK: Once = Once::new();
    if std::env::var("HEAPTUI_DOUBLE_STUCK").as_deref() == Ok("1") {
        STUCK.call_once(|| {
            std::thread::spawn(stuck_thread);
        });
        while !STUCK_HOLDS.load(SeqCst) {
            nap(100);
        }
    }
    static LOG: Once = Once::new();
    let logger = std::env::var("HEAPTUI_DOUBLE_LOGGER").as_deref() == Ok("1");
    LOGGER_WANTED.store(logger, SeqCst);
    if logger {
        LOG.call_once(|| {
            std::thread::spawn(logger_thread);
        });
    }
    // Held (or let go) before the fork, whatever the scheduler does.
    while LOGGER_HELD.load(SeqCst) != logger {
        nap(100);
    }
    ART.store(std::env::var("HEAPTUI_DOUBLE_ART").ok().and_then(|v| v.parse().ok()).unwrap_or(14), SeqCst);
    static LAST: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
    let path = std::env::var("HEAPTUI_DOUBLE_DUMP").ok();
    let Ok(mut last) = LAST.lock() else { return };
    if *last == path {
        return;
    }
    last.clone_from(&path);
    if let Some(p) = path {
        if let Ok(bytes) = std::fs::read(p) {
            let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if let Some((start, end)) = first_segment(leaked) {
                SEGMENT[0].store(start, SeqCst);
                SEGMENT[1].store(end, SeqCst);
            }
            DUMP_PTR.store(leaked.as_ptr() as usize, SeqCst);
            DUMP_LEN.store(leaked.len(), SeqCst);
        }
    }
}

/// The first HEAP DUMP SEGMENT record (tag 0x1c) of an hprof file: header, then records of a
/// tag byte, a time and a length.
fn first_segment(b: &[u8]) -> Option<(usize, usize)> {
    let mut at = b.iter().position(|&c| c == 0)? + 1 + 4 + 8;
    while at + 9 <= b.len() {
        let len = u32::from_be_bytes(b[at + 5..at + 9].try_into().ok()?) as usize;
        let end = at + 9 + len;
        if b[at] == 0x1c {
            return (end <= b.len()).then_some((at, end));
        }
        at = end;
    }
    None
}

/// The CC collector's shared hold of the mutator lock: waits while it is held exclusively.
fn lock_shared(lock: &Lock) {
    loop {
        let now = lock.state.load(SeqCst);
        if now >= 0 && lock.state.compare_exchange(now, now + 1, SeqCst, SeqCst).is_ok() {
            return;
        }
        nap(50);
    }
}

fn unlock_shared(lock: &Lock) {
    lock.state.fetch_sub(1, SeqCst);
}

/// ART's heap task daemon running concurrent GCs back to back, in `kNative` (no suspension
/// stops it): it claims the GC slot whenever no GC section holds it, then runs four phases of a
/// millisecond, each under the mutator lock held shared, and pauses a little between GCs.
fn gc_thread() {
    loop {
        if !GC_WANTED.load(SeqCst) {
            GC_THREAD.store(false, SeqCst);
            nap(1000);
            continue;
        }
        if GC_WAITERS.load(SeqCst) > 0 || GC_RUNNING.compare_exchange(0, CONCURRENT_COPYING, SeqCst, SeqCst).is_err() {
            nap(20);
            continue;
        }
        for _ in 0..4 {
            lock_shared(&MUTATOR);
            nap(1000);
            unlock_shared(&MUTATOR);
        }
        GC_RUNNING.store(0, SeqCst);
        nap(20);
    }
}

/// Threads leaving (`ThreadList::Unregister`, with `thread_list_lock_`) and threads leaving a
/// suspended state (with `thread_suspend_count_lock_`), while others are suspended: each lock
/// taken for a moment, again and again, by a thread of its own (the second held longer, so a
/// fork finds it held unless the sequence holds it itself).
fn churn_thread(lock: &'static Lock, held_us: u32) {
    loop {
        if !CHURN_WANTED.load(SeqCst) {
            nap(1000);
            continue;
        }
        lock_exclusive(lock, None);
        nap(held_us);
        unlock_exclusive(lock, "churn\n");
        nap(20);
    }
}

/// Whether the slow thread holds the mutator lock shared now.
static STUCK_HOLDS: AtomicBool = AtomicBool::new(false);

/// A runnable thread slow to reach a suspend point (a long loop with no suspend check): it holds
/// the mutator lock shared for 3 s, once. A suspension waits for it: on 8–14 a long one retries
/// until it comes, on 15 ART's barrier gives up and aborts the app (KOOM's issue 290).
fn stuck_thread() {
    lock_shared(&MUTATOR);
    STUCK_HOLDS.store(true, SeqCst);
    nap(3_000_000);
    unlock_shared(&MUTATOR);
}

/// A native thread stuck in a log write (logd's socket full, say): it holds the logger's lock
/// for as long as the tests want it held.
fn logger_thread() {
    loop {
        if LOGGER_WANTED.load(SeqCst) && LOGGER.state.compare_exchange(0, -1, SeqCst, SeqCst).is_ok() {
            LOGGER_HELD.store(true, SeqCst);
            while LOGGER_WANTED.load(SeqCst) {
                nap(1000);
            }
            LOGGER_HELD.store(false, SeqCst);
            LOGGER.state.store(0, SeqCst);
        }
        nap(1000);
    }
}

/// Logs a line: takes the logger's lock, as liblog's writer does.
fn log(_line: &str) {
    while LOGGER.state.compare_exchange(0, -1, SeqCst, SeqCst).is_err() {
        nap(100);
    }
    LOGGER.state.store(0, SeqCst);
}

/// Waits until the lock is taken exclusively; `limit`: give up then (`false`).
fn lock_exclusive(lock: &Lock, limit: Option<Duration>) -> bool {
    let start = Instant::now();
    while lock.state.compare_exchange(0, -1, SeqCst, SeqCst).is_err() {
        if limit.is_some_and(|l| start.elapsed() >= l) {
            return false;
        }
        nap(100);
    }
    true
}

fn unlock_exclusive(lock: &Lock, what: &str) {
    if lock.state.compare_exchange(-1, 0, SeqCst, SeqCst).is_err() {
        abort(what);
    }
}

/// Counts a suspension (or a resume) as ART does, under `thread_list_lock_` and then
/// `thread_suspend_count_lock_`.
fn count_suspension(by: i32) {
    lock_exclusive(&THREAD_LIST, None);
    lock_exclusive(&SUSPEND_COUNT_LOCK, None);
    SUSPEND_COUNT.fetch_add(by, SeqCst);
    unlock_exclusive(&SUSPEND_COUNT_LOCK, "thread_suspend_count_lock_\n");
    unlock_exclusive(&THREAD_LIST, "thread_list_lock_\n");
}

/// ART's `SuspendAll`.
fn suspend_all(long: bool) {
    let art = ART.load(SeqCst);
    if art >= 15 {
        // Android 15: another suspension counted means waiting for its resume, without limit.
        while SUSPEND_COUNT.load(SeqCst) != 0 {
            nap(100);
        }
    }
    count_suspension(1);
    LONG_SUSPEND.store(long, SeqCst);
    while !lock_exclusive(&MUTATOR, Some(Duration::from_secs(1))) {
        if !LONG_SUSPEND.load(SeqCst) || art >= 15 {
            abort("SuspendAll timeout\n");
        }
    }
    SUSPENSIONS.fetch_add(1, SeqCst);
}

/// ART's `ResumeAll`.
fn resume_all() {
    unlock_exclusive(&MUTATOR, "ResumeAll without the mutator lock held exclusively\n");
    count_suspension(-1);
}

/// `Heap::StartGC`: waits, without limit, for no GC to run (and is let in first when one ends).
fn start_gc(kind: i32) {
    GC_WAITERS.fetch_add(1, SeqCst);
    while GC_RUNNING.compare_exchange(0, kind, SeqCst, SeqCst).is_err() {
        nap(100);
    }
    GC_WAITERS.fetch_sub(1, SeqCst);
}

thread_local! {
    static ATTACHED: Cell<bool> = const { Cell::new(false) };
}

/// `art::Thread::CurrentFromGdb()`: non-null on attached threads only.
#[no_mangle]
pub extern "C" fn _ZN3art6Thread14CurrentFromGdbEv() -> *mut c_void {
    if ATTACHED.with(Cell::get) || attached_to_a_jvm() {
        ATTACHED.with(|a| a as *const Cell<bool> as *mut c_void)
    } else {
        std::ptr::null_mut()
    }
}

/// Whether this thread is attached to a real JVM in the process (the test phone's apps).
fn attached_to_a_jvm() -> bool {
    type Created = unsafe extern "C" fn(*mut *mut c_void, c_int, *mut c_int) -> c_int;
    type GetEnv = unsafe extern "C" fn(*mut c_void, *mut *mut c_void, c_int) -> c_int;
    // SAFETY: JNI's invocation API, looked up where a JVM exports it; GetEnv is entry 6 of the
    // invocation interface.
    unsafe {
        let f = libc::dlsym(libc::RTLD_DEFAULT, c"JNI_GetCreatedJavaVMs".as_ptr());
        if f.is_null() {
            return false;
        }
        let created: Created = std::mem::transmute(f);
        let (mut vm, mut n) = (std::ptr::null_mut(), 0);
        if created(&mut vm, 1, &mut n) != 0 || n < 1 || vm.is_null() {
            return false;
        }
        let table = *(vm as *const *const *mut c_void);
        let get_env: GetEnv = std::mem::transmute(*table.add(6));
        let mut env = std::ptr::null_mut();
        get_env(vm, &mut env, 0x0001_0006) == 0
    }
}

type AttachFn = unsafe extern "C" fn(*mut c_void, *mut *mut c_void, *mut c_void) -> c_int;
type DetachFn = unsafe extern "C" fn(*mut c_void) -> c_int;

/// The double's `JavaVM`: its invocation interface's attach and detach mark the thread.
#[repr(C)]
struct Invoke {
    reserved: [usize; 4],
    attach: AttachFn,
    detach: DetachFn,
    get_env: usize,
    attach_daemon: AttachFn,
}

unsafe extern "C" fn attach(_vm: *mut c_void, env: *mut *mut c_void, _args: *mut c_void) -> c_int {
    ATTACHED.with(|a| a.set(true));
    if !env.is_null() {
        *env = std::ptr::null_mut();
    }
    0
}

unsafe extern "C" fn detach(_vm: *mut c_void) -> c_int {
    ATTACHED.with(|a| a.set(false));
    0
}

/// A `JavaVM`: its first (only) field is the invocation interface, which callers read through
/// the pointer, so the compiler never sees it read.
#[repr(C)]
struct Vm(#[allow(dead_code)] *const Invoke);
// SAFETY: points at a static.
unsafe impl Sync for Vm {}
static INVOKE: Invoke = Invoke { reserved: [0; 4], attach, detach, get_env: 0, attach_daemon: attach };
static VM: Vm = Vm(&INVOKE);

/// For the tests: a `JavaVM*` whose `AttachCurrentThread` makes the thread a runtime thread.
#[no_mangle]
pub extern "C" fn heaptui_double_java_vm() -> *mut c_void {
    &VM as *const Vm as *mut c_void
}

/// `art::ReaderWriterMutex::ExclusiveLock(Thread*)`.
#[no_mangle]
pub extern "C" fn _ZN3art17ReaderWriterMutex13ExclusiveLockEPNS_6ThreadE(this: &Lock, _self: *mut c_void) {
    lock_exclusive(this, None);
}

/// `art::ReaderWriterMutex::ExclusiveUnlock(Thread*)`.
#[no_mangle]
pub extern "C" fn _ZN3art17ReaderWriterMutex15ExclusiveUnlockEPNS_6ThreadE(this: &Lock, _self: *mut c_void) {
    unlock_exclusive(this, "ExclusiveUnlock of a lock not held\n");
}

/// `art::Mutex::ExclusiveLock(Thread*)`.
#[no_mangle]
pub extern "C" fn _ZN3art5Mutex13ExclusiveLockEPNS_6ThreadE(this: &Lock, _self: *mut c_void) {
    lock_exclusive(this, None);
}

/// `art::Mutex::ExclusiveUnlock(Thread*)`.
#[no_mangle]
pub extern "C" fn _ZN3art5Mutex15ExclusiveUnlockEPNS_6ThreadE(this: &Lock, _self: *mut c_void) {
    unlock_exclusive(this, "Mutex::ExclusiveUnlock of a lock not held\n");
}

/// `art::gc::ScopedGCCriticalSection::ScopedGCCriticalSection(Thread*, GcCause, CollectorType)`.
///
/// # Safety
/// `this` points at room for an int.
#[no_mangle]
pub unsafe extern "C" fn _ZN3art2gc23ScopedGCCriticalSectionC1EPNS_6ThreadENS0_7GcCauseENS0_13CollectorTypeE(
    this: *mut c_void,
    me: *mut c_void,
    _cause: c_int,
    kind: c_int,
) {
    prepare();
    if me.is_null() {
        abort("ScopedGCCriticalSection without a Thread\n");
    }
    start_gc(kind);
    *(this as *mut c_int) = kind;
}

/// `art::gc::ScopedGCCriticalSection::~ScopedGCCriticalSection()`.
#[no_mangle]
pub extern "C" fn _ZN3art2gc23ScopedGCCriticalSectionD1Ev(_this: *mut c_void) {
    GC_RUNNING.store(0, SeqCst);
}

/// `art::ScopedSuspendAll::ScopedSuspendAll(const char*, bool)`.
#[no_mangle]
pub extern "C" fn _ZN3art16ScopedSuspendAllC1EPKcb(_this: *mut c_void, _cause: *const c_char, long: bool) {
    prepare();
    suspend_all(long);
}

/// `art::ScopedSuspendAll::~ScopedSuspendAll()`.
#[no_mangle]
pub extern "C" fn _ZN3art16ScopedSuspendAllD1Ev(_this: *mut c_void) {
    resume_all();
}

/// `art::Dbg::SuspendVM()` (Android 8–10): a GC section, the suspension, the mutator lock left
/// free.
#[no_mangle]
pub extern "C" fn _ZN3art3Dbg9SuspendVMEv() {
    prepare();
    start_gc(DEBUGGER);
    suspend_all(false);
    unlock_exclusive(&MUTATOR, "SuspendAllForDebugger\n");
    GC_RUNNING.store(0, SeqCst);
}

/// `art::Dbg::ResumeVM()`.
#[no_mangle]
pub extern "C" fn _ZN3art3Dbg8ResumeVMEv() {
    count_suspension(-1);
}

/// `art::hprof::Hprof::Hprof(const char*, int, bool)`: logs, keeps the descriptor.
///
/// # Safety
/// `this` points at room for an int.
#[no_mangle]
pub unsafe extern "C" fn _ZN3art5hprof5HprofC2EPKcib(this: *mut c_void, _path: *const c_char, fd: c_int, _ddms: bool) {
    log("hprof: heap dump starting");
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

/// `art::hprof::DumpHeap(const char*, int, bool)`, as ART's: a GC section, a long suspension,
/// the `Hprof` object.
///
/// # Safety
/// `path` is a C string, `fd` is open for writing.
#[no_mangle]
pub unsafe extern "C" fn _ZN3art5hprof8DumpHeapEPKcib(path: *const c_char, fd: c_int, ddms: bool) {
    if _ZN3art6Thread14CurrentFromGdbEv().is_null() {
        abort("DumpHeap without a Thread\n");
    }
    start_gc(15);
    suspend_all(true);
    let mut hprof = 0 as c_int;
    let this = (&mut hprof as *mut c_int).cast();
    _ZN3art5hprof5HprofC2EPKcib(this, path, fd, ddms);
    _ZN3art5hprof5Hprof4DumpEv(this);
    resume_all();
    GC_RUNNING.store(0, SeqCst);
}

/// Writes the prepared dump to `fd` in chunks of 1 to 8191 bytes (a fixed pseudo-random
/// sequence); only system calls, no allocation. A GC half done means the first heap-dump
/// segment is visited, and written, twice.
unsafe fn write_dump(fd: c_int) {
    if SUSPEND_COUNT.load(SeqCst) < 1 || MUTATOR.state.load(SeqCst) != -1 {
        libc::_exit(42);
    }
    match MODE.load(SeqCst) {
        1 => loop {
            libc::sleep(1000);
        },
        4 => {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut set);
            libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            loop {
                libc::sleep(1000);
            }
        }
        2 => libc::abort(),
        _ => {}
    }
    let (ptr, len) = (DUMP_PTR.load(SeqCst) as *const u8, DUMP_LEN.load(SeqCst));
    let slow = MODE.load(SeqCst) == 3;
    if slow {
        // The parent waits on an empty pipe first.
        libc::usleep(200_000);
    }
    let (seg_start, seg_end) = (SEGMENT[0].load(SeqCst), SEGMENT[1].load(SeqCst));
    if GC_RUNNING.load(SeqCst) == CONCURRENT_COPYING && seg_end > seg_start {
        write_all(fd, ptr, seg_end, slow);
        write_all(fd, ptr.add(seg_start), seg_end - seg_start, slow);
        write_all(fd, ptr.add(seg_end), len - seg_end, slow);
    } else {
        write_all(fd, ptr, len, slow);
    }
    if MODE.load(SeqCst) == 5 {
        loop {
            libc::sleep(1000);
        }
    }
}

unsafe fn write_all(fd: c_int, ptr: *const u8, len: usize, slow: bool) {
    let mut at = 0usize;
    let mut seed = 0x2545_f491u32;
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

/// For the tests: suspensions in effect now (0: resumed) and, in `state`, the suspensions ever
/// taken.
///
/// # Safety
/// `state` is null or points at room for an int.
#[no_mangle]
pub unsafe extern "C" fn heaptui_double_state(state: *mut c_int) -> c_int {
    if !state.is_null() {
        *state = SUSPENSIONS.load(SeqCst);
    }
    SUSPEND_COUNT.load(SeqCst)
}

/// For the tests: the mutator lock (the GC's shared hold not counted), `thread_list_lock_`,
/// `thread_suspend_count_lock_` and the GC section held (the GC thread's own GCs not counted),
/// in that order.
///
/// # Safety
/// `out` points at room for four ints.
#[no_mangle]
pub unsafe extern "C" fn heaptui_double_locks(out: *mut c_int) {
    *out = MUTATOR.state.load(SeqCst).min(0);
    *out.add(1) = THREAD_LIST.state.load(SeqCst);
    *out.add(2) = SUSPEND_COUNT_LOCK.state.load(SeqCst);
    *out.add(3) = match GC_RUNNING.load(SeqCst) {
        CONCURRENT_COPYING => 0,
        other => other,
    };
}
