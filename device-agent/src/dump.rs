//! Dumping on the device: the dumper the target offers (HotSpot's attach protocol, Android's
//! `am dumpheap`), then the engine's stripper, so only the stripped dump leaves the device.
//! The raw dump lives under a temporary name beside the output and is removed when done (and on
//! every failure).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use heap::strip::{rewrite_all, strip_plan, Mode, StripOptions};

/// How the heap is dumped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// HotSpot's dynamic attach protocol (`dumpheap`).
    Attach,
    /// Android's `am dumpheap <pid> <file>` (the app is paused while ART writes).
    Am,
}

impl Method {
    /// Parses `attach` or `am`.
    pub fn parse(s: &str) -> Option<Method> {
        match s {
            "attach" => Some(Method::Attach),
            "am" => Some(Method::Am),
            _ => None,
        }
    }

    /// The method a process offers: attach for a HotSpot JVM (it maps `libjvm.so`), else `am`.
    pub fn for_process(pid: u32) -> Method {
        let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
        if maps.contains("libjvm.so") {
            Method::Attach
        } else {
            Method::Am
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Attach => "attach",
            Method::Am => "am",
        }
    }
}

/// What a dump did.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Dumped {
    /// Where the (stripped) dump is.
    pub path: String,
    /// `attach` or `am`.
    pub method: String,
    /// The strip mode, `none` when the dump was kept whole.
    pub mode: String,
    /// Bytes the runtime wrote.
    pub raw_bytes: u64,
    /// Bytes of the output.
    pub bytes: u64,
    /// Milliseconds the runtime took to write the dump (the app is paused for it unless forked).
    pub dump_ms: u64,
    /// Milliseconds the stripper took.
    pub strip_ms: u64,
    /// What the runtime said.
    pub message: String,
    /// SHA-256 of the output's bytes, lowercase hex (a streamed dump's check on the host).
    #[serde(default)]
    pub sha256: String,
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
fn wait_until_whole(path: &Path, timeout: Duration) -> Result<(), String> {
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
            return Err(format!("nothing was written to {} within 60 s", path.display()));
        }
        if start.elapsed() > timeout {
            return Err(format!("{} was not written within {} s", path.display(), timeout.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Dumps process `pid` with `method` into `out`, stripped with `mode` (`None`: kept whole);
/// `live`: reachable objects only (attach; `am` always dumps after a GC with `-g`).
pub fn dump(pid: u32, method: Method, mode: Option<Mode>, live: bool, out: &Path) -> Result<Dumped, String> {
    if out.exists() {
        return Err(format!("{} exists; the agent never overwrites a file", out.display()));
    }
    let dir = out.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = out.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    // Under a temporary name until whole; linked to its name (never over a file).
    let part = dir.join(format!(".{name}.{}.part", std::process::id()));
    let _part_guard = Remove(part.clone());
    let file = std::fs::File::create(&part).map_err(|e| format!("{}: {e}", part.display()))?;
    let mut d = dump_into(pid, method, mode, live, dir, &mut std::io::BufWriter::with_capacity(1 << 20, file))?;
    std::fs::hard_link(&part, out).map_err(|e| format!("{}: {e}", out.display()))?;
    d.path = out.display().to_string();
    Ok(d)
}

/// Dumps as [`dump`] does, writing the (stripped) dump to `out` (the host's end of a pipe when
/// streaming); the runtime's raw file lives in `dir` meanwhile.
pub fn dump_into(
    pid: u32,
    method: Method,
    mode: Option<Mode>,
    live: bool,
    dir: &Path,
    out: &mut dyn Write,
) -> Result<Dumped, String> {
    let raw = dir.join(format!(".heaptui-{pid}.{}.raw.hprof", std::process::id()));
    let _raw_guard = Remove(raw.clone());
    let start = Instant::now();
    let message = match method {
        Method::Attach => crate::attach::dump_heap(pid, &raw, live).map_err(|e| format!("attach to {pid}: {e}"))?,
        Method::Am => {
            let mut cmd = std::process::Command::new("am");
            cmd.arg("dumpheap");
            if live {
                cmd.arg("-g");
            }
            let o = cmd
                .arg(pid.to_string())
                .arg(&raw)
                .output()
                .map_err(|e| format!("cannot run `am dumpheap` ({e}): not Android?"))?;
            let said = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            // am reports some failures on its output with status 0.
            if !o.status.success() || said.contains("Error") || said.contains("Exception") {
                return Err(format!("am dumpheap {pid}: {}", said.trim()));
            }
            wait_until_whole(&raw, Duration::from_secs(600))?;
            said.trim().to_string()
        }
    };
    let dump_ms = start.elapsed().as_millis() as u64;
    let raw_bytes = std::fs::metadata(&raw).map(|m| m.len()).map_err(|e| format!("{}: {e}", raw.display()))?;
    let start = Instant::now();
    let mut w = Hashing::new(out);
    let mut input = std::fs::File::open(&raw).map_err(|e| format!("{}: {e}", raw.display()))?;
    match mode {
        None => std::io::copy(&mut input, &mut w).map(|_| ()).map_err(|e| format!("writing the dump: {e}"))?,
        Some(mode) => {
            let plan = strip_plan(&StripOptions { mode, ..Default::default() });
            rewrite_all(input, &mut w, plan).map_err(|e| format!("stripping: {e}"))?;
        }
    }
    w.flush().map_err(|e| format!("writing the dump: {e}"))?;
    let (_, bytes, sha256) = w.finish();
    Ok(Dumped {
        path: "-".to_string(),
        method: method.name().to_string(),
        mode: mode.map_or("none".to_string(), |m| format!("{m:?}").to_lowercase()),
        raw_bytes,
        bytes,
        dump_ms,
        strip_ms: start.elapsed().as_millis() as u64,
        message,
        sha256,
    })
}
