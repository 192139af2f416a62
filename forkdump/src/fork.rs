//! The fork dump itself (SPEC.md §4): bring ART into a state a copy can dump from, `fork`,
//! give the parent its threads back at once; the child, a copy-on-write snapshot of the heap,
//! dumps into a pipe and `_exit`s; the parent reads the pipe (through the stripper, by the
//! caller's hand) and reaps the child. The app is paused only around `fork`.
//!
//! The order of ART calls around `fork` depends on the ART release ([`Sequence`]; why, with
//! ART's source lines, in `docs/design.md`). Everything the child touches is prepared before
//! `fork` (buffers, the path, the pipe). The child names itself, arms its own watchdog (a child
//! whose parent died must not dump forever) and calls nothing of ours that logs or allocates;
//! ART's dumper does both, which is why the watchdog is there.

use std::ffi::{c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::art::*;
use crate::elf::Library;
use crate::plan::{DumpWay, Plan, Sequence};

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
    Art { current: Option<Current>, gc: Option<(GcBegin, This)>, ssa: ThisCause, ssa_end: This, lock: Option<Lock> },
}

/// ART's functions the fork dump calls, resolved in a loaded library.
#[derive(Clone, Copy)]
pub struct ArtApi {
    /// The sequence around `fork`.
    pub sequence: Sequence,
    /// The dump.
    pub dumper: Dumper,
    calls: Calls,
    /// `kCollectorTypeHprof` for the GC critical section.
    collector_type: c_int,
}

// SAFETY: the raw pointers are ART's locks, process-wide objects that live as long as the runtime.
unsafe impl Send for ArtApi {}

/// Why a fork dump failed.
#[derive(Debug, thiserror::Error)]
pub enum ForkError {
    /// The library is not loaded in this process.
    #[error("{0} is not loaded in this process")]
    NotLoaded(String),
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
/// base (the start of its mapping at file offset 0), from `/proc/self/maps`.
pub fn find_loaded(name: &str) -> Option<(PathBuf, usize)> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines().find_map(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        let path = *f.get(5)?;
        let file = Path::new(path).file_name()?.to_str()?;
        if file != name || u64::from_str_radix(f.get(2)?, 16).ok()? != 0 {
            return None;
        }
        let start = usize::from_str_radix(f.first()?.split('-').next()?, 16).ok()?;
        Some((PathBuf::from(path), start))
    })
}

impl ArtApi {
    /// Resolves the functions in the loaded library named `name` (`libart.so` on a phone):
    /// symbol values from its file (see [`crate::elf`]) plus its load base. `sdk`, the
    /// platform's SDK level, picks the sequence; unknown, the library's symbols do.
    pub fn from_loaded(name: &str, sdk: Option<u32>) -> Result<ArtApi, ForkError> {
        ArtApi::loaded(name, |lib| Plan::of(lib, sdk))
    }

    /// The same with a sequence chosen by the caller (the tests' negative control).
    pub fn with_sequence(name: &str, sequence: Sequence) -> Result<ArtApi, ForkError> {
        ArtApi::loaded(name, |lib| Plan::of(lib, None).with_sequence(sequence))
    }

    /// Reads the loaded library named `name`, plans with `plan`, resolves.
    fn loaded(name: &str, plan: impl FnOnce(&Library<'_>) -> Plan) -> Result<ArtApi, ForkError> {
        let (path, base) = find_loaded(name).ok_or_else(|| ForkError::NotLoaded(name.to_string()))?;
        let bytes = std::fs::read(&path).map_err(|e| ForkError::Sys("reading the library", e))?;
        let plan = plan(&Library::parse(&bytes)?);
        // SAFETY: `base` is where the library that `plan` was read from is mapped.
        unsafe { ArtApi::resolve(&plan, base, &path.display().to_string()) }
    }

    /// Turns the plan's offsets into functions of the library mapped at `base`.
    ///
    /// # Safety
    /// `base` is the load base of the library the plan was made from.
    unsafe fn resolve(plan: &Plan, base: usize, lib: &str) -> Result<ArtApi, ForkError> {
        let missing = |names: &[&str]| ForkError::Missing {
            lib: lib.to_string(),
            sequence: plan.sequence.name(),
            releases: plan.sequence.releases(),
            names: names.join(", "),
            also: plan.mini_debug_info.as_ref().map_or(String::new(), |e| format!("; {e}")),
        };
        if !plan.missing.is_empty() {
            return Err(missing(&plan.missing));
        }
        // Every name the sequence needs was found (`missing` is empty).
        let f = |name: &str| plan.at(name).map_or(0, |v| base + v as usize);
        // SAFETY (all transmutes below): the addresses are these functions' entry points in the
        // mapped library, whose C++ signatures the types spell out, the `this` pointer first.
        let lock = |var: &str, lock: &str, unlock: &str| Lock {
            // `Locks::mutator_lock_` and `Locks::thread_list_lock_` are pointers, set when the
            // runtime starts; what they point at is the lock.
            mutex: unsafe { *(f(var) as *const *mut c_void) },
            lock: unsafe { std::mem::transmute::<usize, LockFn>(f(lock)) },
            unlock: unsafe { std::mem::transmute::<usize, LockFn>(f(unlock)) },
        };
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
                lock: match seq {
                    Sequence::ReleaseMutator => Some(lock(MUTATOR_LOCK, RW_LOCK, RW_UNLOCK)),
                    Sequence::ThreadListLock => Some(lock(THREAD_LIST_LOCK, MUTEX_LOCK, MUTEX_UNLOCK)),
                    _ => None,
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
            None => return Err(missing(&[DUMP_HEAP])),
        };
        let collector_type = match plan.chosen {
            crate::plan::Chosen::Sdk(sdk) => collector_type_hprof(sdk),
            crate::plan::Chosen::Symbols => collector_type_hprof(u32::MAX),
        };
        Ok(ArtApi { sequence: plan.sequence, dumper, calls, collector_type })
    }
}

/// Room for an `art::ScopedSuspendAll`, a `ScopedGCCriticalSection` or an `art::hprof::Hprof`
/// (all far smaller; KOOM uses a few hundred bytes), aligned for any field.
#[repr(C, align(16))]
struct Room([u8; 8192]);

/// How much longer than the child's own watchdog the parent waits before it kills the child.
fn backstop(timeout: Duration) -> Duration {
    timeout + timeout.min(Duration::from_secs(5))
}

/// What the child does first: a name of its own (`ps` tells it from the app), SIGALRM back to
/// its default action and unblocked, and a timer that ends it at `timeout` even if the parent is
/// gone. Only system calls.
///
/// # Safety
/// Called in the forked child only.
unsafe fn child_start(timeout: Duration) {
    libc::prctl(libc::PR_SET_NAME, c"heaptui-dump".as_ptr() as libc::c_ulong, 0, 0, 0);
    libc::signal(libc::SIGALRM, libc::SIG_DFL);
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut set);
    libc::sigaddset(&mut set, libc::SIGALRM);
    libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
    let timer = libc::itimerval {
        it_interval: libc::timeval { tv_sec: 0, tv_usec: 0 },
        it_value: libc::timeval { tv_sec: timeout.as_secs() as _, tv_usec: timeout.subsec_micros().max(1) as _ },
    };
    libc::setitimer(libc::ITIMER_REAL, &timer, std::ptr::null_mut());
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
    // enough for their objects; in the child only the state resets, the dumper and `_exit` run.
    let (pid, fork_error) = unsafe {
        // Before the fork.
        match api.calls {
            Calls::Debugger { suspend, .. } => suspend(),
            Calls::Art { gc, ssa, lock, .. } => {
                if let Some((begin, _)) = gc {
                    begin(gc_this, current, GC_CAUSE_HPROF, api.collector_type);
                }
                ssa(ssa_this, cause.as_ptr(), true);
                match (api.sequence, lock) {
                    (Sequence::ReleaseMutator, Some(l)) => (l.unlock)(l.mutex, current),
                    (Sequence::ThreadListLock, Some(l)) => (l.lock)(l.mutex, current),
                    _ => {}
                }
                if let (Sequence::ReleaseMutator, Some((_, end))) = (api.sequence, gc) {
                    end(gc_this);
                }
            }
        }
        let pid = libc::fork();
        // errno now, before the calls below may change it.
        let fork_error = (pid < 0).then(std::io::Error::last_os_error);
        if pid == 0 {
            child_start(timeout);
            libc::close(rd);
            match (api.sequence, api.calls, api.dumper) {
                // Android 15's suspension waits forever while another is counted: DumpHeap's
                // own needs the inherited one (and its GC section) ended first.
                (
                    Sequence::ThreadListLock,
                    Calls::Art { gc: Some((_, gc_end)), ssa_end, lock: Some(l), .. },
                    Dumper::DumpHeap(_),
                ) => {
                    (l.unlock)(l.mutex, current);
                    ssa_end(ssa_this);
                    gc_end(gc_this);
                }
                (Sequence::ThreadListLock, Calls::Art { lock: Some(l), .. }, _) => (l.unlock)(l.mutex, current),
                // The `Hprof` object dumps on the inherited suspension, which must hold the
                // mutator lock as ART's `Dump` requires; the parent gave it up before the fork.
                (Sequence::ReleaseMutator, Calls::Art { lock: Some(l), .. }, Dumper::Hprof { .. }) => {
                    (l.lock)(l.mutex, current)
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
        // The parent, at once.
        match api.calls {
            Calls::Debugger { resume, .. } => resume(),
            Calls::Art { gc, ssa_end, lock, .. } => {
                match (api.sequence, lock) {
                    (Sequence::ReleaseMutator, Some(l)) => (l.lock)(l.mutex, current),
                    (Sequence::ThreadListLock, Some(l)) => (l.unlock)(l.mutex, current),
                    _ => {}
                }
                ssa_end(ssa_this);
                if let (Sequence::ThreadListLock, Some((_, end))) = (api.sequence, gc) {
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

    // The watchdog, while the pipe is read: a child still running at the limit is killed (its end
    // of the pipe closes). It stops before the child is reaped, so it never signals a reaped (and
    // perhaps reused) pid; the reaping below keeps the same deadline.
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
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(ForkError::Sys("waitpid", e));
        }
        interrupted += 1;
    }
    if fired.load(Ordering::SeqCst) {
        return Err(ForkError::Watchdog(backstop(timeout)));
    }
    if libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGALRM {
        return Err(ForkError::ChildWatchdog(timeout));
    }
    if libc::WIFSIGNALED(status) {
        return Err(ForkError::Child(format!("died of signal {}", libc::WTERMSIG(status))));
    }
    if libc::WEXITSTATUS(status) != 0 {
        return Err(ForkError::Child(format!("exited with {}", libc::WEXITSTATUS(status))));
    }
    if let Some(e) = failed {
        return Err(e);
    }
    if bytes == 0 {
        // The child exits 0 whatever the dumper did: no bytes means no dump.
        return Err(ForkError::Child("wrote nothing".into()));
    }
    Ok(Report {
        pause_us,
        child_ms: started.elapsed().as_millis() as u64,
        bytes,
        suspend: api.sequence.name().to_string(),
        dumper: dumper_name.to_string(),
        interrupted,
    })
}
