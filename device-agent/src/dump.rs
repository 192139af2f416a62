//! Dumping on the device: the dumper the target offers (HotSpot's attach protocol, Android's
//! `am dumpheap`), then the engine's stripper, so only the stripped dump leaves the device.
//! The raw dump lives under a temporary name beside the output and is removed when done (and on
//! every failure).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use heap::strip::{rewrite_all, strip_plan_for_file, StripOptions};

use crate::protocol::{Dumped, Method, Mode};

/// Why a dump on the device failed.
#[derive(Debug, thiserror::Error)]
pub enum DumpError {
    /// The output exists already.
    #[error("{} exists; the agent never overwrites a file", .0.display())]
    Exists(PathBuf),
    /// A file could not be made, read or linked.
    #[error("{}: {source}", .path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// HotSpot's attach protocol failed.
    #[error("attach to {pid}: {source}")]
    Attach {
        /// The process.
        pid: u32,
        /// What went wrong.
        source: crate::attach::AttachError,
    },
    /// `am` could not be run.
    #[error("cannot run `am dumpheap` ({0}): not Android?")]
    NoAm(std::io::Error),
    /// `am dumpheap` refused, in words.
    #[error("am dumpheap {pid}: {said}")]
    AmRefused {
        /// The process.
        pid: u32,
        /// What `am` printed.
        said: String,
    },
    /// ART never began writing the file.
    #[error("nothing was written to {} within 60 s", .0.display())]
    NothingWritten(PathBuf),
    /// ART did not finish writing the file in time.
    #[error("{} was not written within {secs} s", .path.display())]
    Unfinished {
        /// The file.
        path: PathBuf,
        /// The time allowed.
        secs: u64,
    },
    /// The fork dump runs inside the app (heaptui's JVMTI library), not in this agent.
    #[error("--method fork and perfetto run inside the app (its JVMTI agent, ART itself), not in heaptui-agent")]
    Fork,
    /// Writing the (stripped) dump failed.
    #[error("writing the dump: {0}")]
    Write(std::io::Error),
    /// The stripper refused the runtime's dump.
    #[error("stripping: {0}")]
    Strip(heap::Error),
}

fn file_error(path: &Path) -> impl FnOnce(std::io::Error) -> DumpError + '_ {
    move |source| DumpError::File { path: path.to_path_buf(), source }
}

/// Writes through to `inner`, hashing (SHA-256) and counting: what a dump's receiver checks.
pub struct Hashing<W: Write> {
    inner: W,
    hash: sha2::Sha256,
    bytes: u64,
}

impl<W: Write> Hashing<W> {
    /// A hashing writer over `inner`.
    pub fn new(inner: W) -> Hashing<W> {
        Hashing { inner, hash: <sha2::Sha256 as sha2::Digest>::new(), bytes: 0 }
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The writer back, with the bytes written and their SHA-256 in lowercase hex.
    pub fn finish(self) -> (W, u64, String) {
        let hex = sha2::Digest::finalize(self.hash).iter().map(|b| format!("{b:02x}")).collect();
        (self.inner, self.bytes, hex)
    }
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

/// Removes a file when dropped (the agent is pushed to phones: no tempfile dependency).
struct Remove(PathBuf);

impl Drop for Remove {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Waits until the file at `path` stops growing (`am dumpheap` may return before ART is done).
fn wait_until_whole(path: &Path, timeout: Duration) -> Result<(), DumpError> {
    let start = Instant::now();
    let mut last = None;
    let mut still = Instant::now();
    loop {
        let len = std::fs::metadata(path).map(|m| m.len()).ok();
        if len != last {
            last = len;
            still = Instant::now();
        } else if len.is_some_and(|l| l >= 31) && still.elapsed() >= Duration::from_millis(1500) {
            return Ok(());
        }
        // Nothing at all for a minute: ART is not writing it.
        if len.unwrap_or(0) == 0 && start.elapsed() > Duration::from_secs(60) {
            return Err(DumpError::NothingWritten(path.to_path_buf()));
        }
        if start.elapsed() > timeout {
            return Err(DumpError::Unfinished { path: path.to_path_buf(), secs: timeout.as_secs() });
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Dumps process `pid` with `method` into `out`, stripped with `mode`; `live`: reachable
/// objects only (attach; `am` always dumps after a GC with `-g`). The file is only its owner's
/// (dumps hold user data).
pub fn dump(pid: u32, method: Method, mode: Mode, live: bool, bitmaps: bool, out: &Path) -> Result<Dumped, DumpError> {
    if out.exists() {
        return Err(DumpError::Exists(out.to_path_buf()));
    }
    let dir = out.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = out.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    // Under a temporary name until whole; linked to its name (never over a file).
    let part = dir.join(format!(".{name}.{}.part", std::process::id()));
    let _part_guard = Remove(part.clone());
    let mut d = if mode == Mode::None {
        // Kept whole: the runtime writes it under the temporary name itself, with no copy.
        let ran = run_dumper(pid, method, live, bitmaps, &part)?;
        let bytes = std::fs::metadata(&part).map(|m| m.len()).map_err(file_error(&part))?;
        Dumped {
            path: String::new(),
            method,
            mode,
            raw_bytes: bytes,
            bytes,
            dump_ms: ran.ms,
            strip_ms: 0,
            message: ran.message,
            sha256: String::new(),
            no_pixels: ran.no_pixels,
        }
    } else {
        let file = {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&part)
        }
        .map_err(file_error(&part))?;
        dump_into(pid, method, mode, live, bitmaps, dir, &mut std::io::BufWriter::with_capacity(1 << 20, file))?
    };
    std::fs::hard_link(&part, out).map_err(file_error(out))?;
    d.path = out.display().to_string();
    Ok(d)
}

/// What a runtime's dumper did: what it said, the milliseconds it took, and why the app was not
/// asked for its Bitmaps' pixels (an `am` without `-b`, or not asked for).
struct Ran {
    message: String,
    ms: u64,
    no_pixels: Option<String>,
}

/// Has the runtime of `pid` write its dump to `raw`, with `method`; with `bitmaps`, `am` asks
/// the app to put its Bitmaps' pixels in it (`-b png`).
fn run_dumper(pid: u32, method: Method, live: bool, bitmaps: bool, raw: &Path) -> Result<Ran, DumpError> {
    let start = Instant::now();
    let mut no_pixels = None;
    let message = match method {
        Method::Attach => {
            crate::attach::dump_heap(pid, raw, live).map_err(|source| DumpError::Attach { pid, source })?
        }
        Method::Fork | Method::Perfetto => return Err(DumpError::Fork),
        Method::Am => {
            let am = |gc: bool, bitmaps: bool| -> Result<(bool, String), DumpError> {
                let mut cmd = std::process::Command::new("am");
                cmd.arg("dumpheap");
                if gc {
                    cmd.arg("-g");
                }
                if bitmaps {
                    cmd.args(["-b", "png"]);
                }
                let o = cmd.arg(pid.to_string()).arg(raw).output().map_err(DumpError::NoAm)?;
                let said = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
                // am reports some failures on its output with status 0.
                let ok = o.status.success() && !said.contains("Error") && !said.contains("Exception");
                Ok((ok, said.trim().to_string()))
            };
            // `-g` (a GC first, so the dump holds live objects only) and `-b` (Bitmap pixels,
            // Android 15) are not in every release's `am`: one that answers `Unknown option: -g`
            // or `-b` is asked again without it (am stops at the first it does not know).
            let (mut gc, mut b) = (live, bitmaps);
            if !bitmaps {
                no_pixels = Some("not asked for (--no-bitmaps)".to_string());
            }
            let mut notes = Vec::new();
            let (ok, said) = loop {
                let (ok, said) = am(gc, b)?;
                if !ok && gc && said.contains("Unknown option: -g") {
                    gc = false;
                    notes.push("this am has no -g: dumped without a GC first, unreachable objects included");
                } else if !ok && b && said.contains("Unknown option: -b") {
                    b = false;
                    no_pixels = Some("this phone's `am dumpheap` has no -b (Android 15 added it)".to_string());
                } else {
                    break (ok, said);
                }
            };
            if !ok {
                return Err(DumpError::AmRefused { pid, said });
            }
            wait_until_whole(raw, Duration::from_secs(600))?;
            notes.iter().fold(said, |said, note| format!("{said} ({note})").trim().to_string())
        }
    };
    Ok(Ran { message, ms: start.elapsed().as_millis() as u64, no_pixels })
}

/// Dumps as [`dump`] does, writing the (stripped) dump to `out` (the host's end of a pipe when
/// streaming); the runtime's raw file lives in `dir` meanwhile.
pub fn dump_into(
    pid: u32,
    method: Method,
    mode: Mode,
    live: bool,
    bitmaps: bool,
    dir: &Path,
    out: &mut dyn Write,
) -> Result<Dumped, DumpError> {
    // Unique within this process too: heaptui runs this code for local dumps, maybe two at once.
    static RAWS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = RAWS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let raw = dir.join(format!(".heaptui-{pid}.{}-{n}.raw.hprof", std::process::id()));
    let _raw_guard = Remove(raw.clone());
    let mut ran = run_dumper(pid, method, live, bitmaps, &raw)?;
    if mode == Mode::Redact && ran.no_pixels.is_none() {
        ran.no_pixels = Some("`--mode redact` drops them (they can be users' photos)".to_string());
    }
    let raw_bytes = std::fs::metadata(&raw).map(|m| m.len()).map_err(file_error(&raw))?;
    let start = Instant::now();
    let mut w = Hashing::new(out);
    let mut input = std::fs::File::open(&raw).map_err(file_error(&raw))?;
    match mode.strip() {
        None => std::io::copy(&mut input, &mut w).map(|_| ()).map_err(DumpError::Write)?,
        Some(mode) => {
            let plan = strip_plan_for_file(&StripOptions { mode, ..Default::default() }, &raw);
            rewrite_all(input, &mut w, plan).map_err(DumpError::Strip)?;
        }
    }
    w.flush().map_err(DumpError::Write)?;
    let (_, bytes, sha256) = w.finish();
    Ok(Dumped {
        path: "-".to_string(),
        method,
        mode,
        raw_bytes,
        bytes,
        dump_ms: ran.ms,
        strip_ms: start.elapsed().as_millis() as u64,
        message: ran.message,
        sha256,
        no_pixels: ran.no_pixels,
    })
}
