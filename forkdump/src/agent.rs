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

/// Runs a fork dump as `options` say, writing the dump and its report.
pub fn run(options: &Options) -> Result<crate::fork::Report, String> {
    let api = ArtApi::from_loaded(&options.lib).map_err(|e| e.to_string())?;
    let out = std::path::Path::new(&options.out);
    if out.exists() {
        return Err(format!("{} exists; never overwritten", out.display()));
    }
    let part = std::path::PathBuf::from(format!("{}.part", options.out));
    let file = std::fs::File::create(&part).map_err(|e| format!("{}: {e}", part.display()))?;
    let writer = std::io::BufWriter::with_capacity(1 << 20, file);
    let result = match options.mode {
        Some(mode) => {
            let mut r = Rewriter::new(writer, strip_plan(&StripOptions { mode, ..Default::default() }));
            let report = fork_dump(&api, options.timeout, &mut |b| r.feed(b).map_err(|e| e.to_string()));
            report.and_then(|rep| {
                let (mut w, _) = r.finish().map_err(|e| crate::fork::ForkError::Output(e.to_string()))?;
                w.flush().map_err(|e| crate::fork::ForkError::Output(e.to_string()))?;
                Ok(rep)
            })
        }
        None => {
            let mut w = writer;
            let report = fork_dump(&api, options.timeout, &mut |b| w.write_all(b).map_err(|e| e.to_string()));
            report.and_then(|rep| w.flush().map(|_| rep).map_err(|e| crate::fork::ForkError::Output(e.to_string())))
        }
    };
    match result {
        Ok(rep) => {
            std::fs::rename(&part, out).map_err(|e| format!("{}: {e}", out.display()))?;
            Ok(rep)
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
        Ok(r) => (serde_json::json!({"ok": true, "report": r}), 0),
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
