//! The fork dump itself (SPEC.md §4): suspend the runtime, `fork`, resume the parent at once;
//! the child, a copy-on-write snapshot of the suspended heap, dumps into a pipe and `_exit`s; the
//! parent reads the pipe (through the stripper, by the caller's hand) and reaps the child. The
//! app is paused only from the suspension to the resume, around `fork`.
//!
//! Everything this code hands the child is prepared before `fork` (buffers, the path, the pipe).
//! ART's dumper itself allocates and takes the runtime's locks in the child; that is safe because
//! the other threads were suspended at safe points and bionic's allocator resets its locks at
//! fork (KOOM relies on the same).

use std::ffi::{c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::elf::Library;

type ThisCause = unsafe extern "C" fn(*mut c_void, *const c_char, bool);
type This = unsafe extern "C" fn(*mut c_void);
type Plain = unsafe extern "C" fn();
type HprofCtor = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, bool);
type DumpHeapFn = unsafe extern "C" fn(*const c_char, c_int, bool);

/// How the runtime is suspended.
#[derive(Clone, Copy)]
pub enum Suspend {
    /// Android 11+: construct and destroy an `art::ScopedSuspendAll` on a buffer.
    ScopedSuspendAll {
        /// `ScopedSuspendAll(this, cause, long_suspend)`.
        ctor: ThisCause,
        /// `~ScopedSuspendAll(this)`.
        dtor: This,
    },
    /// Before Android 11: `art::Dbg::SuspendVM()` and `ResumeVM()`.
    Dbg {
        /// `Dbg::SuspendVM()`.
        suspend: unsafe extern "C" fn(),
        /// `Dbg::ResumeVM()`.
        resume: unsafe extern "C" fn(),
    },
}

/// How the child dumps.
#[derive(Clone, Copy)]
pub enum Dumper {
    /// `art::hprof::Hprof` constructed on a buffer, `Dump()`, destroyed.
    Hprof {
        /// `Hprof(this, path, fd, direct_to_ddms)`.
        ctor: unsafe extern "C" fn(*mut c_void, *const c_char, c_int, bool),
        /// `Hprof::Dump(this)`.
        dump: unsafe extern "C" fn(*mut c_void),
        /// `~Hprof(this)`.
        dtor: unsafe extern "C" fn(*mut c_void),
    },
    /// `art::hprof::DumpHeap(const char*, int, bool)`.
    DumpHeap(unsafe extern "C" fn(*const c_char, c_int, bool)),
}

/// ART's functions the fork dump calls, resolved in a loaded library.
#[derive(Clone, Copy)]
pub struct ArtApi {
    /// Suspension.
    pub suspend: Suspend,
    /// The dump.
    pub dumper: Dumper,
}

/// Why a fork dump failed.
#[derive(Debug, thiserror::Error)]
pub enum ForkError {
    /// The library is not loaded in this process.
    #[error("{0} is not loaded in this process")]
    NotLoaded(String),
    /// A symbol the dump needs is in none of the library's tables.
    #[error("{lib} has no {what} (looked for {names}){also}")]
    Missing {
        /// The library.
        lib: String,
        /// What was needed.
        what: &'static str,
        /// The symbols looked for.
        names: String,
        /// What else is known: a MiniDebugInfo that could not be read may have held them.
        also: String,
    },
    /// Reading the library failed.
    #[error("{0}")]
    Elf(#[from] crate::elf::ElfError),
    /// A system call failed.
    #[error("{0}: {1}")]
    Sys(&'static str, std::io::Error),
    /// The child ran past the watchdog's limit and was killed.
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
    /// symbol values from its file (see [`crate::elf`]) plus its load base.
    pub fn from_loaded(name: &str) -> Result<ArtApi, ForkError> {
        let (path, base) = find_loaded(name).ok_or_else(|| ForkError::NotLoaded(name.to_string()))?;
        let bytes = std::fs::read(&path).map_err(|e| ForkError::Sys("reading the library", e))?;
        let lib = Library::parse(&bytes)?;
        let plan = crate::plan::Plan::of(&lib);
        let missing = |what, names: &[&str]| ForkError::Missing {
            lib: path.display().to_string(),
            what,
            names: names.join(", "),
            also: plan.mini_debug_info.as_ref().map_or(String::new(), |e| format!("; {e}")),
        };
        use crate::art::*;
        use crate::plan::{DumpWay, SuspendWay};
        let at = |offset: u64| base + offset as usize;
        // SAFETY: the addresses are these functions' entry points in the mapped library, whose
        // C++ signatures the types spell out (the `this` pointer first).
        let suspend = match plan.suspend {
            Some(SuspendWay::ScopedSuspendAll { ctor, dtor }) => unsafe {
                Suspend::ScopedSuspendAll {
                    ctor: std::mem::transmute::<usize, ThisCause>(at(ctor)),
                    dtor: std::mem::transmute::<usize, This>(at(dtor)),
                }
            },
            Some(SuspendWay::Dbg { suspend, resume }) => unsafe {
                Suspend::Dbg {
                    suspend: std::mem::transmute::<usize, Plain>(at(suspend)),
                    resume: std::mem::transmute::<usize, Plain>(at(resume)),
                }
            },
            None => {
                return Err(missing("way to suspend the runtime", &[SUSPEND_ALL, RESUME_ALL, DBG_SUSPEND, DBG_RESUME]))
            }
        };
        let dumper = match plan.dump {
            Some(DumpWay::Hprof { ctor, dump, dtor }) => unsafe {
                Dumper::Hprof {
                    ctor: std::mem::transmute::<usize, HprofCtor>(at(ctor)),
                    dump: std::mem::transmute::<usize, This>(at(dump)),
                    dtor: std::mem::transmute::<usize, This>(at(dtor)),
                }
            },
            Some(DumpWay::DumpHeap(h)) => unsafe { Dumper::DumpHeap(std::mem::transmute::<usize, DumpHeapFn>(at(h))) },
            None => return Err(missing("heap dumper", &[HPROF_CTOR, HPROF_DUMP, HPROF_DTOR, DUMP_HEAP])),
        };
        Ok(ArtApi { suspend, dumper })
    }
}

/// Room for an `art::ScopedSuspendAll` or an `art::hprof::Hprof` (both far smaller; KOOM uses a
/// few hundred bytes), aligned for any field.
#[repr(C, align(16))]
struct Room([u8; 8192]);

/// Runs a fork dump with `api`, handing the dump's bytes to `on_bytes` as they come; a child that
/// runs past `timeout` is killed.
pub fn fork_dump(
    api: &ArtApi,
    timeout: Duration,
    on_bytes: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
) -> Result<Report, ForkError> {
    let sys = |what| ForkError::Sys(what, std::io::Error::last_os_error());
    let mut fds = [0 as c_int; 2];
    // SAFETY: plain system calls on owned values.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(sys("pipe"));
    }
    let (rd, wr) = (fds[0], fds[1]);
    // Everything the child touches, made before the fork.
    let (path, cause) = (c"heaptui-fork-dump.hprof", c"heaptui fork dump");
    let mut suspend_room = Box::new(Room([0; 8192]));
    let mut hprof_room = Box::new(Room([0; 8192]));
    let (suspend_name, dumper_name) = (
        match api.suspend {
            Suspend::ScopedSuspendAll { .. } => "ScopedSuspendAll",
            Suspend::Dbg { .. } => "Dbg::SuspendVM",
        },
        match api.dumper {
            Dumper::Hprof { .. } => "Hprof::Dump",
            Dumper::DumpHeap(_) => "hprof::DumpHeap",
        },
    );

    let paused = Instant::now();
    // SAFETY: ART's own functions on buffers large enough for their objects; in the child only
    // the dumper and `_exit` run.
    let (pid, fork_error) = unsafe {
        match api.suspend {
            Suspend::ScopedSuspendAll { ctor, .. } => ctor(suspend_room.0.as_mut_ptr().cast(), cause.as_ptr(), true),
            Suspend::Dbg { suspend, .. } => suspend(),
        }
        let pid = libc::fork();
        // errno now, before the resume below may change it.
        let fork_error = (pid < 0).then(std::io::Error::last_os_error);
        if pid == 0 {
            libc::close(rd);
            match api.dumper {
                Dumper::Hprof { ctor, dump, dtor } => {
                    let this = hprof_room.0.as_mut_ptr().cast();
                    ctor(this, path.as_ptr(), wr, false);
                    dump(this);
                    dtor(this);
                }
                Dumper::DumpHeap(f) => f(path.as_ptr(), wr, false),
            }
            libc::_exit(0);
        }
        match api.suspend {
            Suspend::ScopedSuspendAll { dtor, .. } => dtor(suspend_room.0.as_mut_ptr().cast()),
            Suspend::Dbg { resume, .. } => resume(),
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
    let deadline = started + timeout;
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
        return Err(ForkError::Watchdog(timeout));
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
        suspend: suspend_name.to_string(),
        dumper: dumper_name.to_string(),
        interrupted,
    })
}
