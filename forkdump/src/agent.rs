//! The JVMTI entry point: `cmd activity attach-agent <process> <path>=<options>` loads this
//! library into a debuggable app (Android 9+) and calls [`Agent_OnAttach`] on a thread of the
//! runtime. The options say where the (stripped) dump goes:
//!
//! ```text
//! out=/data/local/tmp/app.hprof,mode=triage,timeout=120,lib=libart.so
//! ```
//!
//! The dump is streamed from the child through the stripper into `out` (under a temporary name,
//! renamed when whole), and a JSON report (`out` + `.json`) says what happened: the pause, the
//! child's time, the bytes, or the error.

use std::ffi::{c_char, c_void, CStr};
use std::io::Write;
use std::time::Duration;

use heap::strip::{strip_plan, Mode, Rewriter, StripOptions};

use crate::fork::{fork_dump, ArtApi};

/// Parsed options.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Where the dump goes.
    pub out: String,
    /// Strip mode; `None` keeps the dump whole.
    pub mode: Option<Mode>,
    /// The child's time limit.
    pub timeout: Duration,
    /// The runtime library's file name.
    pub lib: String,
}

/// Parses `out=…,mode=…,timeout=…,lib=…` (`out` required).
pub fn parse_options(s: &str) -> Result<Options, String> {
    let mut o = Options {
        out: String::new(),
        mode: Some(Mode::Triage),
        timeout: Duration::from_secs(120),
        lib: "libart.so".into(),
    };
    for part in s.split(',').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').ok_or_else(|| format!("{part:?} is not key=value"))?;
        match k {
            "out" => o.out = v.to_string(),
            "mode" if v == "none" => o.mode = None,
            "mode" => {
                o.mode = Some(Mode::parse(v).filter(|m| *m != Mode::Matrix).ok_or_else(|| format!("mode {v:?}"))?)
            }
            "timeout" => o.timeout = Duration::from_secs(v.parse().map_err(|_| format!("timeout {v:?}"))?),
            "lib" => o.lib = v.to_string(),
            _ => return Err(format!("unknown option {k:?}")),
        }
    }
    if o.out.is_empty() {
        return Err("out=PATH is required".into());
    }
    Ok(o)
}

/// What [`run`] wrote.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Written {
    /// The fork dump's own report.
    pub report: crate::fork::Report,
    /// Bytes of the output (stripped unless `mode=none`).
    pub out_bytes: u64,
    /// Their SHA-256, lowercase hex, for the host to check what it fetches.
    pub sha256: String,
}

/// Writes through to `inner`, hashing and counting.
struct Hashing<W: Write> {
    inner: W,
    hash: sha2::Sha256,
    bytes: u64,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        use sha2::Digest;
        let n = self.inner.write(b)?;
        self.hash.update(&b[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Runs a fork dump as `options` say, writing the dump.
pub fn run(options: &Options) -> Result<Written, String> {
    // A path names a library to load first: how the tests bring in their double of libart (on a
    // phone, libart.so is loaded already and named by its file name).
    let lib = if options.lib.contains('/') {
        let c = std::ffi::CString::new(options.lib.clone()).map_err(|e| e.to_string())?;
        // SAFETY: loading a library the caller named.
        if unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW) }.is_null() {
            return Err(format!("cannot load {}", options.lib));
        }
        std::path::Path::new(&options.lib).file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()
    } else {
        options.lib.clone()
    };
    let api = ArtApi::from_loaded(&lib).map_err(|e| e.to_string())?;
    let out = std::path::Path::new(&options.out);
    if out.exists() {
        return Err(format!("{} exists; never overwritten", out.display()));
    }
    let part = std::path::PathBuf::from(format!("{}.part", options.out));
    let file = std::fs::File::create(&part).map_err(|e| format!("{}: {e}", part.display()))?;
    let writer = Hashing {
        inner: std::io::BufWriter::with_capacity(1 << 20, file),
        hash: <sha2::Sha256 as sha2::Digest>::new(),
        bytes: 0,
    };
    let result = match options.mode {
        Some(mode) => {
            let mut r = Rewriter::new(writer, strip_plan(&StripOptions { mode, ..Default::default() }));
            let report = fork_dump(&api, options.timeout, &mut |b| r.feed(b).map_err(|e| e.to_string()));
            report.and_then(|rep| {
                let (mut w, _) = r.finish().map_err(|e| crate::fork::ForkError::Output(e.to_string()))?;
                w.flush().map_err(|e| crate::fork::ForkError::Output(e.to_string()))?;
                Ok((rep, w))
            })
        }
        None => {
            let mut w = writer;
            let report = fork_dump(&api, options.timeout, &mut |b| w.write_all(b).map_err(|e| e.to_string()));
            report
                .and_then(|rep| w.flush().map(|_| (rep, w)).map_err(|e| crate::fork::ForkError::Output(e.to_string())))
        }
    };
    match result {
        Ok((report, w)) => {
            std::fs::rename(&part, out).map_err(|e| format!("{}: {e}", out.display()))?;
            let sha256 = sha2::Digest::finalize(w.hash).iter().map(|b| format!("{b:02x}")).collect();
            Ok(Written { report, out_bytes: w.bytes, sha256 })
        }
        Err(e) => {
            let _ = std::fs::remove_file(&part);
            Err(e.to_string())
        }
    }
}

/// JVMTI's `Agent_OnAttach(JavaVM*, char* options, void* reserved)`: runs the fork dump and
/// writes its report next to the dump. Returns 0 (JNI_OK) when the dump was taken.
///
/// # Safety
/// `options` is null or a NUL-terminated string, as the runtime passes it.
#[no_mangle]
pub unsafe extern "C" fn Agent_OnAttach(_vm: *mut c_void, options: *const c_char, _reserved: *mut c_void) -> i32 {
    let text = if options.is_null() {
        String::new()
    } else {
        unsafe { CStr::from_ptr(options) }.to_string_lossy().into_owned()
    };
    let options = match parse_options(&text) {
        Ok(o) => o,
        Err(_) => return -1,
    };
    let (json, code) = match run(&options) {
        Ok(w) => (serde_json::json!({"ok": true, "report": w.report, "out_bytes": w.out_bytes, "sha256": w.sha256}), 0),
        Err(e) => (serde_json::json!({"ok": false, "error": e}), -1),
    };
    let report = format!("{}.json", options.out);
    let tmp = format!("{report}.part");
    if std::fs::write(&tmp, format!("{json}\n")).is_ok() {
        let _ = std::fs::rename(&tmp, &report);
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let o = parse_options("out=/data/local/tmp/a.hprof,mode=koom,timeout=30").unwrap();
        assert_eq!(
            (o.out.as_str(), o.mode, o.timeout, o.lib.as_str()),
            ("/data/local/tmp/a.hprof", Some(Mode::Koom), Duration::from_secs(30), "libart.so")
        );
        assert_eq!(parse_options("out=x,mode=none").unwrap().mode, None);
        assert!(parse_options("mode=triage").is_err());
        assert!(parse_options("out=x,mode=matrix").is_err());
        assert!(parse_options("out=x,colour=blue").is_err());
        assert!(parse_options("out=x,timeout=soon").is_err());
    }
}
