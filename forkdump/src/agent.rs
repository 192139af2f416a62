//! The JVMTI entry point: `cmd activity attach-agent <process> <path>=<options>` loads this
//! library into a debuggable app (Android 8+) and calls [`Agent_OnAttach`] on a thread of the
//! runtime. The options (`agent::protocol::ForkOptions`, which the host writes) say where the
//! (stripped) dump goes:
//!
//! ```text
//! out=/data/local/tmp/app.hprof,mode=triage,timeout=120,lib=libart.so,sdk=34
//! ```
//!
//! The library's own symbols choose the way around `fork` (`plan::Plan::of`); `sdk`, the
//! platform's SDK level, is taken and ignored (hosts of earlier versions send it, and ART, a
//! Mainline module from Android 12, may be newer than the platform).
//!
//! The dump is streamed from the child through the stripper into `out` (under a temporary name,
//! renamed when whole), and a JSON report (`out` + `.json`) says what happened: the pause, the
//! child's time, the bytes, or the error.

use std::ffi::{c_char, c_void, CStr};
use std::io::Write;
use std::time::Duration;

use heap::strip::{strip_plan, Rewriter, StripOptions};

use agent::protocol::{ForkOptions, ForkOutcome};

use crate::fork::{fork_dump, ArtApi, ForkError};

/// Why a fork dump was not written.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The runtime library named by `lib=` could not be loaded.
    #[error("cannot load {0}")]
    Load(String),
    /// The output exists already.
    #[error("{0} exists; never overwritten")]
    Exists(String),
    /// The output could not be made or linked.
    #[error("{}: {source}", .path.display())]
    File {
        /// The file.
        path: std::path::PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Finding ART's functions, forking or the child failed.
    #[error("{0}")]
    Fork(#[from] crate::fork::ForkError),
}

/// What [`run`] wrote.
#[derive(Debug, Clone)]
pub struct Written {
    /// The fork dump's own report.
    pub report: crate::fork::Report,
    /// Bytes of the output (stripped unless `mode=none`).
    pub out_bytes: u64,
    /// Their SHA-256, lowercase hex, for the host to check what it fetches.
    pub sha256: String,
}

/// Runs a fork dump as `options` say, writing the dump.
pub fn run(options: &ForkOptions) -> Result<Written, RunError> {
    // A path names a library to load first: how the tests bring in their double of libart (on a
    // phone, libart.so is loaded already and named by its file name).
    let lib = if options.lib.contains('/') {
        let c = std::ffi::CString::new(options.lib.clone()).map_err(|_| RunError::Load(options.lib.clone()))?;
        // SAFETY: loading a library the caller named.
        if unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW) }.is_null() {
            return Err(RunError::Load(options.lib.clone()));
        }
        std::path::Path::new(&options.lib).file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()
    } else {
        options.lib.clone()
    };
    #[cfg(feature = "test-hooks")]
    let api = match crate::fork::sequence_asked() {
        Some(sequence) => ArtApi::with_sequence(&lib, sequence)?,
        None => ArtApi::from_loaded(&lib)?,
    };
    #[cfg(not(feature = "test-hooks"))]
    let api = ArtApi::from_loaded(&lib)?;
    let out = std::path::Path::new(&options.out);
    if out.exists() {
        return Err(RunError::Exists(out.display().to_string()));
    }
    let part = std::path::PathBuf::from(format!("{}.{}.part", options.out, std::process::id()));
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&part)
    }
    .map_err(|source| RunError::File { path: part.clone(), source })?;
    let writer = agent::dump::Hashing::new(std::io::BufWriter::with_capacity(1 << 20, file));
    let timeout = Duration::from_secs(options.timeout_s);
    let result = match options.mode.strip() {
        Some(mode) => {
            let mut r = Rewriter::new(writer, strip_plan(&StripOptions { mode, ..Default::default() }));
            let report = fork_dump(&api, timeout, &mut |b| r.feed(b).map_err(std::io::Error::other));
            report.and_then(|rep| {
                let (mut w, _) = r.finish().map_err(|e| ForkError::Output(std::io::Error::other(e)))?;
                w.flush().map_err(ForkError::Output)?;
                Ok((rep, w))
            })
        }
        None => {
            let mut w = writer;
            let report = fork_dump(&api, timeout, &mut |b| w.write_all(b));
            report.and_then(|rep| w.flush().map(|_| (rep, w)).map_err(ForkError::Output))
        }
    };
    match result {
        Ok((report, w)) => {
            // Linked, not renamed: a dump that took the name meanwhile is not replaced.
            let linked =
                std::fs::hard_link(&part, out).map_err(|source| RunError::File { path: out.to_path_buf(), source });
            let _ = std::fs::remove_file(&part);
            linked?;
            let (_, out_bytes, sha256) = w.finish();
            Ok(Written { report, out_bytes, sha256 })
        }
        Err(e) => {
            let _ = std::fs::remove_file(&part);
            Err(e.into())
        }
    }
}

/// The start of JNI's invocation interface (`JNIInvokeInterface`): what a dump thread needs to
/// attach itself to the runtime (ART's suspension wants the caller to be a runtime thread).
#[repr(C)]
struct InvokeInterface {
    reserved: [*mut c_void; 3],
    destroy_java_vm: *mut c_void,
    attach_current_thread: unsafe extern "C" fn(*mut c_void, *mut *mut c_void, *mut c_void) -> i32,
    detach_current_thread: unsafe extern "C" fn(*mut c_void) -> i32,
}

/// Writes the report `OUT.json` (under a temporary name, renamed; an existing report is never
/// replaced: another dump's).
fn write_report(out: &str, outcome: &ForkOutcome) {
    let Ok(json) = serde_json::to_string(outcome) else { return };
    use std::os::unix::fs::OpenOptionsExt;
    let report = format!("{out}.json");
    let tmp = format!("{report}.{}.part", std::process::id());
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut f| f.write_all(format!("{json}\n").as_bytes()));
    if written.is_ok() {
        let _ = std::fs::hard_link(&tmp, &report);
    }
    let _ = std::fs::remove_file(&tmp);
}

/// `OUT.loaded`: the library runs in the app (its pid inside).
fn write_loaded(out: &str) {
    use std::os::unix::fs::OpenOptionsExt;
    let _ = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(format!("{out}.loaded"))
        .and_then(|mut f| f.write_all(format!("{}\n", std::process::id()).as_bytes()));
}

/// The `out=` of an option string that did not parse, so the failure can still be reported.
fn out_of(text: &str) -> Option<String> {
    text.split(',').find_map(|p| p.strip_prefix("out=")).filter(|o| !o.is_empty()).map(str::to_string)
}

/// JVMTI's `Agent_OnAttach(JavaVM*, char* options, void* reserved)`. Android calls it on the
/// app's main thread (`ActivityThread` handles `attach-agent` there), so the dump runs on a thread
/// of its own, attached to the runtime, and this returns at once: the app is paused only around
/// the fork. The outcome goes to `OUT.json` beside the dump, which the host waits for. Returns 0
/// (JNI_OK) when the dump was started, -1 when the options are unusable.
///
/// # Safety
/// `vm` is null or the runtime's `JavaVM*`; `options` is null or a NUL-terminated string, as the
/// runtime passes them.
#[no_mangle]
pub unsafe extern "C" fn Agent_OnAttach(vm: *mut c_void, options: *const c_char, _reserved: *mut c_void) -> i32 {
    let text = if options.is_null() {
        String::new()
    } else {
        unsafe { CStr::from_ptr(options) }.to_string_lossy().into_owned()
    };
    // The handshake: the host learns the library is loaded as soon as it is (`cmd activity
    // attach-agent` returns before the app loads anything, and says nothing when it fails).
    if let Some(out) = out_of(&text) {
        write_loaded(&out);
    }
    let options = match ForkOptions::parse(&text) {
        Ok(o) => o,
        Err(e) => {
            if let Some(out) = out_of(&text) {
                write_report(&out, &ForkOutcome::failed(format!("options: {e}")));
            }
            return -1;
        }
    };
    let vm = vm as usize;
    let started = std::thread::Builder::new().name("heaptui-forkdump".into()).spawn(move || {
        let vm = vm as *mut c_void;
        let mut env: *mut c_void = std::ptr::null_mut();
        // SAFETY: `vm` points at a JavaVM whose first field is its invocation interface.
        let attached = !vm.is_null()
            && unsafe {
                let table = *(vm as *const *const InvokeInterface);
                ((*table).attach_current_thread)(vm, &mut env, std::ptr::null_mut()) == 0
            };
        #[cfg(feature = "test-hooks")]
        crate::fork::HOOK_ENV
            .store(if attached { env } else { std::ptr::null_mut() }, std::sync::atomic::Ordering::SeqCst);
        // No call into ART from a thread that is not one of the runtime's: ART's suspension
        // aborts the app then (a release build's CHECK). Nothing runs when attaching failed.
        if !attached {
            write_report(
                &options.out,
                &ForkOutcome::failed("the dump thread could not attach itself to the runtime".into()),
            );
            return;
        }
        // A panic must not unwind into the runtime (it would end the app): it is reported instead.
        let outcome = match std::panic::catch_unwind(|| run(&options)) {
            Ok(Ok(w)) => ForkOutcome {
                ok: true,
                report: Some(w.report),
                out_bytes: Some(w.out_bytes),
                sha256: Some(w.sha256),
                error: None,
            },
            Ok(Err(e)) => ForkOutcome::failed(e.to_string()),
            Err(_) => ForkOutcome::failed("the dump panicked".to_string()),
        };
        write_report(&options.out, &outcome);
        if attached {
            // SAFETY: this thread was attached above.
            unsafe {
                let table = *(vm as *const *const InvokeInterface);
                ((*table).detach_current_thread)(vm);
            }
        }
    });
    if started.is_ok() {
        0
    } else {
        -1
    }
}
