//! The fork dump itself (SPEC.md §4): bring ART into a state a copy can dump from, `fork`,
//! give the parent its threads back at once; the child, a copy-on-write snapshot of the heap,
//! dumps into a pipe and `_exit`s; the parent reads the pipe (through the stripper, by the
//! caller's hand) and reaps the child. The app is paused only around `fork`.
//!
//! One order of ART calls around `fork` serves every runtime ([`Sequence::Hold`]; why, with
//! ART's source lines, in `docs/design.md`). Everything the child touches is prepared before
//! `fork` (buffers, the path, the pipe, the functions). The child names itself, arms its own
//! watchdog (a timer that sends it SIGKILL, as ART's own `perfetto_hprof` arms one: a child
//! whose parent died, or that waits on a lock nobody will release, must not live on), raises
//! the runtime's minimum log severity so the dumper's log lines take no logging lock, and calls
//! nothing of ours that allocates. A dump written whole is kept even if the child then hangs.

use std::ffi::{c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::art::*;
use crate::elf::Library;
use crate::plan::{DumpWay, Generation, Plan, Sequence};

type ThisCause = unsafe extern "C" fn(*mut c_void, *const c_char, bool);
/// A member function with no arguments but `this` (`Hprof::Dump`, destructors).
pub type This = unsafe extern "C" fn(*mut c_void);
type Plain = unsafe extern "C" fn();
type Current = unsafe extern "C" fn() -> *mut c_void;
type GcBegin = unsafe extern "C" fn(*mut c_void, *mut c_void, c_int, c_int);
type LockFn = unsafe extern "C" fn(*mut c_void, *mut c_void);
/// `Hprof::Hprof(this, path, fd, direct_to_ddms)`.
pub type HprofCtor = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, bool);
type DumpHeapFn = unsafe extern "C" fn(*const c_char, c_int, bool);

/// How the child dumps.
#[derive(Clone, Copy)]
pub enum Dumper {
    /// `art::hprof::DumpHeap(const char*, int, bool)`.
    DumpHeap(DumpHeapFn),
    /// `art::hprof::Hprof` constructed on a buffer, `Dump()`, destroyed.
    Hprof {
        /// `Hprof(this, path, fd, direct_to_ddms)`.
        ctor: HprofCtor,
        /// `Hprof::Dump(this)`.
        dump: This,
        /// `~Hprof(this)`.
        dtor: This,
    },
}

/// A lock of ART's the sequence takes or gives up around `fork`.
#[derive(Clone, Copy)]
struct Lock {
    /// The lock itself (what `Locks::mutator_lock_` or `Locks::thread_list_lock_` points at).
    mutex: *mut c_void,
    lock: LockFn,
    unlock: LockFn,
}

/// The calls of the sequence, resolved.
#[derive(Clone, Copy)]
enum Calls {
    /// [`Sequence::Debugger`].
    Debugger { suspend: Plain, resume: Plain },
    /// The `ScopedSuspendAll` sequences; no GC section and no lock in [`Sequence::SuspendOnly`].
    /// The locks in the order they are taken (the mutator lock alone is given up, not taken).
    Art {
        current: Option<Current>,
        gc: Option<(GcBegin, This)>,
        ssa: ThisCause,
        ssa_end: This,
        locks: [Option<Lock>; 2],
    },
}

/// `android::base::SetMinimumLogSeverity`.
type SetSeverity = unsafe extern "C" fn(c_int) -> c_int;

/// ART's functions the fork dump calls, resolved in a loaded library.
#[derive(Clone, Copy)]
pub struct ArtApi {
    /// The sequence around `fork`.
    pub sequence: Sequence,
    /// Which runtime the library is.
    pub generation: Generation,
    /// The dump.
    pub dumper: Dumper,
    calls: Calls,
    /// `kCollectorTypeHprof` for the GC critical section.
    collector_type: c_int,
    /// The runtime's `SetMinimumLogSeverity`, when its `libbase` is found.
    log: Option<SetSeverity>,
}

// SAFETY: the raw pointers are ART's locks, process-wide objects that live as long as the runtime.
unsafe impl Send for ArtApi {}

/// Why a fork dump failed.
#[derive(Debug, thiserror::Error)]
pub enum ForkError {
    /// The library is not loaded in this process (for this process's CPU).
    #[error("{0} is not loaded in this process")]
    NotLoaded(String),
    /// The library is no runtime the fork dump knows, or lacks what it needs.
    #[error("{lib}: {why}")]
    Refused {
        /// The library.
        lib: String,
        /// Why.
        why: String,
    },
    /// Symbols the dump needs are in none of the library's tables.
    #[error("{lib} lacks what the fork dump's sequence for {releases} ({sequence}) needs: {names}{also}")]
    Missing {
        /// The library.
        lib: String,
        /// The sequence's name.
        sequence: &'static str,
        /// The releases it is for.
        releases: &'static str,
        /// The symbols missing.
        names: String,
        /// What else is known: a MiniDebugInfo that could not be read may have held them.
        also: String,
    },
    /// The calling thread is not one of the runtime's (ART's suspension and GC section need one).
    #[error("the dump thread is not attached to the runtime (Thread::Current() is null)")]
    NotRuntimeThread,
    /// Reading the library failed.
    #[error("{0}")]
    Elf(#[from] crate::elf::ElfError),
    /// A system call failed.
    #[error("{0}: {1}")]
    Sys(&'static str, std::io::Error),
    /// The child ran past its limit and its own watchdog ended it.
    #[error(
        "the dumping child ran past {0:?} and its own watchdog ended it (a lock held at the fork, or a dump too slow)"
    )]
    ChildWatchdog(Duration),
    /// The child outlived its own watchdog and the parent killed it.
    #[error("the dumping child ran past {0:?} and was killed")]
    Watchdog(Duration),
    /// The child ended badly.
    #[error("the dumping child {0}")]
    Child(String),
    /// The consumer of the dump's bytes failed.
    #[error("{0}")]
    Output(std::io::Error),
}

/// What a fork dump did: the report the host reads (`agent::protocol`).
pub use agent::protocol::ForkReport as Report;

/// Where the library whose file name is `name` is loaded in this process: its file and load
/// base (the start of its mapping at file offset 0), from `/proc/self/maps`. On a phone with a
/// native bridge (an ARM app translated on an x86 phone) two libraries of that name are mapped:
/// the one built for this process's own CPU is the runtime's.
pub fn find_loaded(name: &str) -> Option<(PathBuf, usize)> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    loaded_in(&maps, name, elf_machine)
}

/// [`find_loaded`] over `maps` (the text of a `maps` file), `machine_of` reading a file's ELF
/// machine.
pub fn loaded_in(maps: &str, name: &str, machine_of: impl Fn(&Path) -> Option<u16>) -> Option<(PathBuf, usize)> {
    maps.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let path = *f.get(5)?;
            let file = Path::new(path).file_name()?.to_str()?;
            if file != name || u64::from_str_radix(f.get(2)?, 16).ok()? != 0 {
                return None;
            }
            let start = usize::from_str_radix(f.first()?.split('-').next()?, 16).ok()?;
            Some((PathBuf::from(path), start))
        })
        .find(|(path, _)| machine_of(path) == Some(OWN_MACHINE))
}

/// The ELF machine this library is built for (`e_machine`).
pub const OWN_MACHINE: u16 = if cfg!(target_arch = "x86_64") {
    62
} else if cfg!(target_arch = "aarch64") {
    183
} else if cfg!(target_arch = "arm") {
    40
} else if cfg!(target_arch = "x86") {
    3
} else {
    0
};

/// The `e_machine` of the ELF file at `path`.
fn elf_machine(path: &Path) -> Option<u16> {
    use std::io::Read;
    let mut head = [0u8; 20];
    std::fs::File::open(path).ok()?.read_exact(&mut head).ok()?;
    if &head[..4] != b"\x7fELF" {
        return None;
    }
    let m = [head[18], head[19]];
    Some(if head[5] == 2 { u16::from_be_bytes(m) } else { u16::from_le_bytes(m) })
}

impl ArtApi {
    /// Resolves the functions in the loaded library named `name` (`libart.so` on a phone):
    /// symbol values from its file (see [`crate::elf`]) plus its load base, the way the
    /// library's own symbols say ([`Plan::of`]).
    pub fn from_loaded(name: &str) -> Result<ArtApi, ForkError> {
        ArtApi::loaded(name, Plan::of)
    }

    /// The same with a sequence chosen by the caller (the tests' controls).
    pub fn with_sequence(name: &str, sequence: Sequence) -> Result<ArtApi, ForkError> {
        ArtApi::loaded(name, |lib| Plan::of(lib).with_sequence(sequence))
    }

    /// Reads the loaded library named `name`, plans with `plan`, resolves.
    fn loaded(name: &str, plan: impl FnOnce(&Library<'_>) -> Plan) -> Result<ArtApi, ForkError> {
        let (path, base) = find_loaded(name).ok_or_else(|| ForkError::NotLoaded(name.to_string()))?;
        let bytes = std::fs::read(&path).map_err(|e| ForkError::Sys("reading the library", e))?;
        let plan = plan(&Library::parse(&bytes)?);
        // SAFETY: `base` is where the library that `plan` was read from is mapped.
        let mut api = unsafe { ArtApi::resolve(&plan, base, &path.display().to_string()) }?;
        api.log = log_severity();
        Ok(api)
    }

    /// Turns the plan's offsets into functions of the library mapped at `base`.
    ///
    /// # Safety
    /// `base` is the load base of the library the plan was made from.
    unsafe fn resolve(plan: &Plan, base: usize, lib: &str) -> Result<ArtApi, ForkError> {
        if let Some(why) = plan.refusal() {
            return Err(ForkError::Refused { lib: lib.to_string(), why });
        }
        // Every name the sequence needs was found (no refusal).
        let f = |name: &str| plan.at(name).map_or(0, |v| base + v as usize);
        // SAFETY (all transmutes below): the addresses are these functions' entry points in the
        // mapped library, whose C++ signatures the types spell out, the `this` pointer first.
        let lock = |var: &str, lock: &str, unlock: &str| Lock {
            // `Locks::mutator_lock_` and the others are pointers, set when the runtime starts;
            // what they point at is the lock.
            mutex: unsafe { *(f(var) as *const *mut c_void) },
            lock: unsafe { std::mem::transmute::<usize, LockFn>(f(lock)) },
            unlock: unsafe { std::mem::transmute::<usize, LockFn>(f(unlock)) },
        };
        let mutex = |var: &str| Some(lock(var, MUTEX_LOCK, MUTEX_UNLOCK));
        let calls = match plan.sequence {
            Sequence::Debugger => Calls::Debugger {
                suspend: unsafe { std::mem::transmute::<usize, Plain>(f(DBG_SUSPEND)) },
                resume: unsafe { std::mem::transmute::<usize, Plain>(f(DBG_RESUME)) },
            },
            seq => Calls::Art {
                current: (seq != Sequence::SuspendOnly)
                    .then(|| unsafe { std::mem::transmute::<usize, Current>(f(CURRENT_THREAD)) }),
                gc: (seq != Sequence::SuspendOnly).then(|| unsafe {
                    (
                        std::mem::transmute::<usize, GcBegin>(f(GC_SECTION)),
                        std::mem::transmute::<usize, This>(f(GC_SECTION_END)),
                    )
                }),
                ssa: unsafe { std::mem::transmute::<usize, ThisCause>(f(SUSPEND_ALL)) },
                ssa_end: unsafe { std::mem::transmute::<usize, This>(f(RESUME_ALL)) },
                locks: match seq {
                    Sequence::Hold => [mutex(THREAD_LIST_LOCK), mutex(SUSPEND_COUNT_LOCK)],
                    Sequence::ThreadListLock => [mutex(THREAD_LIST_LOCK), None],
                    Sequence::ReleaseMutator => [Some(lock(MUTATOR_LOCK, RW_LOCK, RW_UNLOCK)), None],
                    _ => [None, None],
                },
            },
        };
        let dumper = match plan.dump {
            Some(DumpWay::DumpHeap(h)) => Dumper::DumpHeap(std::mem::transmute::<usize, DumpHeapFn>(base + h as usize)),
            Some(DumpWay::Hprof { ctor, dump, dtor }) => Dumper::Hprof {
                ctor: std::mem::transmute::<usize, HprofCtor>(base + ctor as usize),
                dump: std::mem::transmute::<usize, This>(base + dump as usize),
                dtor: std::mem::transmute::<usize, This>(base + dtor as usize),
            },
            None => return Err(ForkError::Refused { lib: lib.to_string(), why: format!("no dumper ({DUMP_HEAP})") }),
        };
        Ok(ArtApi {
            sequence: plan.sequence,
            generation: plan.generation,
            dumper,
            calls,
            collector_type: plan.generation.collector_type_hprof(),
            log: None,
        })
    }
}

/// The runtime's `android::base::SetMinimumLogSeverity`, read from its loaded `libbase` as the
/// runtime's own symbols are (a phone's linker namespaces may hide it from `dlsym`).
fn log_severity() -> Option<SetSeverity> {
    let (path, base) = ["libbase.so", "libbase.so.0"].iter().find_map(|n| find_loaded(n))?;
    let bytes = std::fs::read(&path).ok()?;
    let at = Library::parse(&bytes).ok()?.lookup(SET_LOG_SEVERITY)?.value;
    // SAFETY: that function's entry point in the mapped library.
    Some(unsafe { std::mem::transmute::<usize, SetSeverity>(base + at as usize) })
}

/// Room for an `art::ScopedSuspendAll`, a `ScopedGCCriticalSection` or an `art::hprof::Hprof`
/// (all far smaller; KOOM uses a few hundred bytes), aligned for any field.
#[repr(C, align(16))]
struct Room([u8; 8192]);

/// How much longer than the child's own watchdog the parent waits before it kills the child.
fn backstop(timeout: Duration) -> Duration {
    timeout + timeout.min(Duration::from_secs(5))
}

/// What the child does first: a name of its own (`ps` tells it from the app), and a timer that
/// sends it SIGKILL at `timeout` even if the parent is gone (no handler can keep it, and a
/// blocked or ignored signal cannot either: ART's own `perfetto_hprof` arms the same). Then the
/// runtime's minimum log severity raised, so that the dumper's log lines (`hprof: heap dump
/// starting…`) take no logging lock a thread may have held at the fork; a fatal line still
/// would, and the timer bounds that. Only system calls and that one store.
///
/// # Safety
/// Called in the forked child only.
unsafe fn child_start(timeout: Duration, log: Option<SetSeverity>) {
    libc::prctl(libc::PR_SET_NAME, c"heaptui-dump".as_ptr() as libc::c_ulong, 0, 0, 0);
    let mut event: libc::sigevent = std::mem::zeroed();
    event.sigev_notify = libc::SIGEV_SIGNAL;
    event.sigev_signo = libc::SIGKILL;
    let mut timer: libc::timer_t = std::mem::zeroed();
    let armed = libc::timer_create(libc::CLOCK_MONOTONIC, &mut event, &mut timer) == 0 && {
        let at = libc::itimerspec {
            it_interval: libc::timespec { tv_sec: 0, tv_nsec: 0 },
            it_value: libc::timespec { tv_sec: timeout.as_secs() as _, tv_nsec: timeout.subsec_nanos().max(1) as _ },
        };
        libc::timer_settime(timer, 0, &at, std::ptr::null_mut()) == 0
    };
    if !armed {
        // No watchdog, no dump: the parent's backstop would still end it, but a child whose
        // parent died would dump forever.
        libc::_exit(WATCHDOG_UNARMED);
    }
    if let Some(set) = log {
        set(LOG_FATAL_WITHOUT_ABORT);
    }
}

/// The child's exit status when its watchdog could not be armed.
const WATCHDOG_UNARMED: c_int = 70;

/// Follows the top-level records of an HPROF stream as it comes: whether what came so far is
/// whole and ends with HEAP DUMP END (a dump a child wrote completely, even if it then hung).
#[derive(Default)]
pub struct Whole {
    /// Bytes of the header read (its text up to the NUL, then 12 bytes).
    header: Vec<u8>,
    header_done: bool,
    /// The record header being read.
    head: Vec<u8>,
    /// Body bytes still to skip.
    body_left: u64,
    last_tag: Option<u8>,
}

impl Whole {
    /// The HEAP DUMP END record's tag.
    const HEAP_DUMP_END: u8 = 0x2C;

    /// Takes the next bytes of the stream.
    pub fn feed(&mut self, mut b: &[u8]) {
        while !b.is_empty() {
            if !self.header_done {
                let nul = self.header.iter().position(|&c| c == 0);
                let need = match nul {
                    Some(at) => at + 1 + 12 - self.header.len(),
                    None => b.iter().position(|&c| c == 0).map_or(b.len(), |p| p + 1),
                };
                let take = need.min(b.len());
                self.header.extend_from_slice(&b[..take]);
                b = &b[take..];
                if let Some(at) = self.header.iter().position(|&c| c == 0) {
                    self.header_done = self.header.len() == at + 1 + 12;
                }
                continue;
            }
            if self.body_left > 0 {
                let take = (self.body_left.min(b.len() as u64)) as usize;
                self.body_left -= take as u64;
                b = &b[take..];
                continue;
            }
            let take = (9 - self.head.len()).min(b.len());
            self.head.extend_from_slice(&b[..take]);
            b = &b[take..];
            if self.head.len() == 9 {
                self.last_tag = Some(self.head[0]);
                self.body_left =
                    u64::from(u32::from_be_bytes([self.head[5], self.head[6], self.head[7], self.head[8]]));
                self.head.clear();
            }
        }
    }

    /// Whether the stream so far is whole: its last record complete, and HEAP DUMP END.
    pub fn complete(&self) -> bool {
        self.header_done && self.head.is_empty() && self.body_left == 0 && self.last_tag == Some(Self::HEAP_DUMP_END)
    }
}

/// A test build's hook: the sequence `HEAPTUI_FORK_SEQUENCE` names (`debugger`,
/// `release-mutator`, `thread-list-lock`) instead of the one the library's symbols give, so a
/// test can show an earlier version's sequence failing on a real runtime.
#[cfg(feature = "test-hooks")]
pub fn sequence_asked() -> Option<Sequence> {
    match std::env::var("HEAPTUI_FORK_SEQUENCE").ok()?.as_str() {
        "debugger" => Some(Sequence::Debugger),
        "release-mutator" => Some(Sequence::ReleaseMutator),
        "thread-list-lock" => Some(Sequence::ThreadListLock),
        _ => None,
    }
}

/// A test build's hook: a pause of `HEAPTUI_FORK_WIDEN_MS` milliseconds just before `fork`,
/// after every call the sequence makes. A sequence that gives up the GC section and leaves the
/// mutator lock free before `fork` (the 8–10 and 11–14 ones of earlier versions) has a window
/// there a GC can start in; the hook first asks ART for one from this thread (through
/// `VMRuntime.requestConcurrentGC`, as the app's own threads do, theirs being suspended), so the
/// window is used every time rather than once in thirty. The one sequence holds the section and
/// the lock: nothing is asked, and nothing can start. No other build has it.
#[cfg(feature = "test-hooks")]
fn widen_the_window(sequence: Sequence) {
    let Some(ms) = std::env::var("HEAPTUI_FORK_WIDEN_MS").ok().and_then(|v| v.parse().ok()) else { return };
    if matches!(sequence, Sequence::Debugger | Sequence::ReleaseMutator) {
        let env = HOOK_ENV.load(Ordering::SeqCst);
        if !env.is_null() {
            // SAFETY: this thread's JNIEnv, set by `Agent_OnAttach`'s thread; JNI's function
            // table entries by their index in `JNINativeInterface`.
            unsafe { request_concurrent_gc(env) };
        }
    }
    std::thread::sleep(Duration::from_millis(ms));
}

/// The dump thread's `JNIEnv*` in a test build (null elsewhere, and when none).
#[cfg(feature = "test-hooks")]
pub static HOOK_ENV: std::sync::atomic::AtomicPtr<c_void> = std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

/// `dalvik.system.VMRuntime.getRuntime().requestConcurrentGC()` through JNI.
///
/// # Safety
/// `env` is the calling thread's `JNIEnv*`.
#[cfg(feature = "test-hooks")]
unsafe fn request_concurrent_gc(env: *mut c_void) {
    type FindClass = unsafe extern "C" fn(*mut c_void, *const c_char) -> *mut c_void;
    type MethodId = unsafe extern "C" fn(*mut c_void, *mut c_void, *const c_char, *const c_char) -> *mut c_void;
    type CallA = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_void, *const u64) -> *mut c_void;
    type Clear = unsafe extern "C" fn(*mut c_void);
    let table = *(env as *const *const *mut c_void);
    let entry = |i: usize| *table.add(i);
    let find: FindClass = std::mem::transmute(entry(6));
    let static_id: MethodId = std::mem::transmute(entry(113));
    let method_id: MethodId = std::mem::transmute(entry(33));
    let call_static_object: CallA = std::mem::transmute(entry(116));
    let call_void: CallA = std::mem::transmute(entry(63));
    let clear: Clear = std::mem::transmute(entry(17));
    let class = find(env, c"dalvik/system/VMRuntime".as_ptr());
    if !class.is_null() {
        let get = static_id(env, class, c"getRuntime".as_ptr(), c"()Ldalvik/system/VMRuntime;".as_ptr());
        let request = method_id(env, class, c"requestConcurrentGC".as_ptr(), c"()V".as_ptr());
        if !get.is_null() && !request.is_null() {
            let runtime = call_static_object(env, class, get, std::ptr::null());
            if !runtime.is_null() {
                call_void(env, runtime, request, std::ptr::null());
            }
        }
    }
    clear(env);
}

/// Runs a fork dump with `api`, handing the dump's bytes to `on_bytes` as they come; a child that
/// runs past `timeout` ends itself, and is killed if it has not a little later.
pub fn fork_dump(
    api: &ArtApi,
    timeout: Duration,
    on_bytes: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
) -> Result<Report, ForkError> {
    let sys = |what| ForkError::Sys(what, std::io::Error::last_os_error());
    // SAFETY: ART's `Thread::CurrentFromGdb`, which reads a thread-local.
    let current = match api.calls {
        Calls::Art { current: Some(current), .. } => {
            let me = unsafe { current() };
            if me.is_null() {
                return Err(ForkError::NotRuntimeThread);
            }
            me
        }
        _ => std::ptr::null_mut(),
    };
    let mut fds = [0 as c_int; 2];
    // SAFETY: plain system calls on owned values.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(sys("pipe"));
    }
    let (rd, wr) = (fds[0], fds[1]);
    // Everything the child touches, made before the fork.
    let (path, cause) = (c"heaptui-fork-dump.hprof", c"heaptui fork dump");
    let mut suspend_room = Box::new(Room([0; 8192]));
    let mut gc_room = Box::new(Room([0; 8192]));
    let mut hprof_room = Box::new(Room([0; 8192]));
    let (ssa_this, gc_this) = (suspend_room.0.as_mut_ptr().cast::<c_void>(), gc_room.0.as_mut_ptr().cast::<c_void>());
    let dumper_name = match api.dumper {
        Dumper::DumpHeap(_) => "hprof::DumpHeap",
        Dumper::Hprof { .. } => "Hprof::Dump",
    };

    let paused = Instant::now();
    // SAFETY: ART's own functions, in the order `plan::Sequence` documents, on buffers large
    // enough for their objects; in the child only the resets, the dumper and `_exit` run.
    let (pid, fork_error) = unsafe {
        // Before the fork.
        match api.calls {
            Calls::Debugger { suspend, .. } => suspend(),
            Calls::Art { gc, ssa, locks, .. } => {
                if let Some((begin, _)) = gc {
                    begin(gc_this, current, GC_CAUSE_HPROF, api.collector_type);
                }
                ssa(ssa_this, cause.as_ptr(), true);
                match api.sequence {
                    Sequence::ReleaseMutator => {
                        if let Some(l) = locks[0] {
                            (l.unlock)(l.mutex, current);
                        }
                        if let Some((_, end)) = gc {
                            end(gc_this);
                        }
                    }
                    // In ART's lock order: thread_list_lock_, then thread_suspend_count_lock_.
                    Sequence::Hold | Sequence::ThreadListLock => {
                        for l in locks.iter().flatten() {
                            (l.lock)(l.mutex, current);
                        }
                    }
                    _ => {}
                }
            }
        }
        #[cfg(feature = "test-hooks")]
        widen_the_window(api.sequence);
        let pid = libc::fork();
        // errno now, before the calls below may change it.
        let fork_error = (pid < 0).then(std::io::Error::last_os_error);
        if pid == 0 {
            child_start(timeout, api.log);
            libc::close(rd);
            match (api.sequence, api.calls) {
                (
                    Sequence::Hold | Sequence::ThreadListLock,
                    Calls::Art { gc: Some((_, gc_end)), ssa_end, locks, .. },
                ) => {
                    for l in locks.iter().rev().flatten() {
                        (l.unlock)(l.mutex, current);
                    }
                    // `DumpHeap` takes a GC section and a suspension of its own, which wait
                    // forever while the inherited ones are counted (15's suspension does): they
                    // end first. The `Hprof` object dumps on the inherited ones, as ART's
                    // perfetto_hprof walks the heap on the inherited exclusive hold.
                    if matches!(api.dumper, Dumper::DumpHeap(_)) {
                        ssa_end(ssa_this);
                        gc_end(gc_this);
                    }
                }
                // The `Hprof` object dumps on the inherited suspension, which must hold the
                // mutator lock as ART's `Dump` requires; the parent gave it up before the fork.
                (Sequence::ReleaseMutator, Calls::Art { locks: [Some(l), _], .. }) => {
                    if matches!(api.dumper, Dumper::Hprof { .. }) {
                        (l.lock)(l.mutex, current)
                    }
                }
                _ => {}
            }
            match api.dumper {
                Dumper::DumpHeap(f) => f(path.as_ptr(), wr, false),
                Dumper::Hprof { ctor, dump, dtor } => {
                    let this = hprof_room.0.as_mut_ptr().cast();
                    ctor(this, path.as_ptr(), wr, false);
                    dump(this);
                    dtor(this);
                }
            }
            libc::_exit(0);
        }
        // The parent, at once: the locks in reverse, the suspension, the GC section.
        match api.calls {
            Calls::Debugger { resume, .. } => resume(),
            Calls::Art { gc, ssa_end, locks, .. } => {
                match api.sequence {
                    Sequence::ReleaseMutator => {
                        if let Some(l) = locks[0] {
                            (l.lock)(l.mutex, current);
                        }
                    }
                    Sequence::Hold | Sequence::ThreadListLock => {
                        for l in locks.iter().rev().flatten() {
                            (l.unlock)(l.mutex, current);
                        }
                    }
                    _ => {}
                }
                ssa_end(ssa_this);
                if let (Sequence::Hold | Sequence::ThreadListLock, Some((_, end))) = (api.sequence, gc) {
                    end(gc_this);
                }
            }
        }
        (pid, fork_error)
    };
    let pause_us = paused.elapsed().as_micros() as u64;
    // SAFETY: our end of the pipe; the child has its own copy.
    unsafe { libc::close(wr) };
    if let Some(e) = fork_error {
        unsafe { libc::close(rd) };
        return Err(ForkError::Sys("fork", e));
    }
    let started = Instant::now();

    // The backstop, while the pipe is read: a child still running at the limit is killed (its
    // end of the pipe closes). It stops before the child is reaped, so it never signals a reaped
    // (and perhaps reused) pid; the reaping below keeps the same deadline.
    let deadline = started + backstop(timeout);
    let done = Arc::new(AtomicBool::new(false));
    let fired = Arc::new(AtomicBool::new(false));
    let (d2, f2) = (done.clone(), fired.clone());
    let dog = std::thread::spawn(move || {
        while !d2.load(Ordering::SeqCst) {
            if Instant::now() >= deadline {
                f2.store(true, Ordering::SeqCst);
                // SAFETY: our child, not reaped before this thread is joined.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });

    let mut whole = Whole::default();
    let mut bytes = 0u64;
    let mut interrupted = 0u32;
    let mut failed = None;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        // SAFETY: reading into an owned buffer.
        let n = unsafe { libc::read(rd, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                interrupted += 1;
                continue;
            }
            failed = Some(ForkError::Sys("reading the dump", e));
            break;
        }
        if n == 0 {
            break;
        }
        bytes += n as u64;
        whole.feed(&buf[..n as usize]);
        if failed.is_none() {
            if let Err(e) = on_bytes(&buf[..n as usize]) {
                // Keep draining so the child can finish, but remember why.
                failed = Some(ForkError::Output(e));
            }
        }
    }
    unsafe { libc::close(rd) };
    done.store(true, Ordering::SeqCst);
    let _ = dog.join();
    let mut status = 0;
    let mut reaped_elsewhere = false;
    loop {
        // SAFETY: reaping our own child; killing it only while it is not reaped.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r == pid {
            break;
        }
        if r == 0 {
            // Its end of the pipe is closed but it runs on: the same deadline applies.
            if Instant::now() >= deadline && !fired.swap(true, Ordering::SeqCst) {
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            std::thread::sleep(Duration::from_millis(10));
            continue;
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => interrupted += 1,
            // The app reaps its children itself, or ignores SIGCHLD (then the kernel reaps
            // them): the child's status is lost, and what it wrote says how it went.
            Some(libc::ECHILD) => {
                reaped_elsewhere = true;
                break;
            }
            _ => return Err(ForkError::Sys("waitpid", e)),
        }
    }
    if let Some(e) = failed {
        return Err(e);
    }
    let report = |ended: Option<String>| Report {
        pause_us,
        child_ms: started.elapsed().as_millis() as u64,
        bytes,
        suspend: api.sequence.name().to_string(),
        dumper: dumper_name.to_string(),
        interrupted,
        ended,
    };
    let killed = !reaped_elsewhere && libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGKILL;
    let outcome = if reaped_elsewhere {
        Err(ForkError::Child(
            "was reaped by the app before heaptui could (it reaps its children, or ignores SIGCHLD)".into(),
        ))
    } else if fired.load(Ordering::SeqCst) {
        Err(ForkError::Watchdog(backstop(timeout)))
    } else if killed && paused.elapsed() >= timeout {
        // Its own timer, armed after the fork: the fork was at least `timeout` ago.
        Err(ForkError::ChildWatchdog(timeout))
    } else if libc::WIFSIGNALED(status) {
        Err(ForkError::Child(format!("died of signal {}", libc::WTERMSIG(status))))
    } else if libc::WEXITSTATUS(status) == WATCHDOG_UNARMED {
        Err(ForkError::Child("could not arm its watchdog, and did not dump".into()))
    } else if libc::WEXITSTATUS(status) != 0 {
        Err(ForkError::Child(format!("exited with {}", libc::WEXITSTATUS(status))))
    } else if bytes == 0 {
        // The child exits 0 whatever the dumper did: no bytes means no dump.
        Err(ForkError::Child("wrote nothing".into()))
    } else {
        Ok(report(None))
    };
    match outcome {
        // A dump written whole is kept whatever became of the child afterwards.
        Err(e) if whole.complete() => Ok(report(Some(format!("the dump is whole; then {e}")))),
        other => other,
    }
}
