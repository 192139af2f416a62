//! A device heaptui works on: a phone through the adb server ([`AdbDevice`]) or this machine
//! ([`LocalDevice`]), behind one trait so monitoring and dumping do not care which.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::adb::{self, AdbError, DeviceInfo, DeviceState};

/// What went wrong on a device.
#[derive(Debug, thiserror::Error)]
pub enum DeviceError {
    /// The adb server said no, or could not be reached.
    #[error(transparent)]
    Adb(#[from] AdbError),
    /// No phone is attached.
    #[error("no phone attached: plug one in with USB debugging on (or `adb connect HOST:PORT`), or use --local")]
    NoDevice,
    /// Several phones are attached and none was named.
    #[error("{} phones attached ({}): pick one with -s SERIAL or ANDROID_SERIAL", .0.len(), .0.join(", "))]
    Several(Vec<String>),
    /// The named phone is not attached.
    #[error("no phone {0:?} attached (attached: {1})")]
    Unknown(String, String),
    /// The phone is attached but not usable: its serial and state (the message says what to do).
    #[error("phone {serial} is {meaning}: {remedy}", serial = .0, meaning = .1.meaning(), remedy = .1.remedy(.0))]
    NotReady(String, DeviceState),
    /// The connection ended before the command did.
    #[error("{0} went away during `{1}`")]
    Gone(String, String),
    /// A file transfer failed.
    #[error("{0}")]
    Transfer(String),
    /// A command wrote more than heaptui gathers from one (it was hung up).
    #[error("`{0}` wrote more than {max} MiB, more than heaptui gathers from a command; it was stopped", max = OUTPUT_MAX >> 20)]
    TooMuch(String),
    /// Anything else from the operating system.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The most [`Device::output`] gathers from one command: far more than any answer heaptui reads
/// that way (`getprop`, `dumpsys meminfo`, `ps`, a report file).
pub const OUTPUT_MAX: usize = 64 << 20;

/// Result of this module.
pub type Result<T> = std::result::Result<T, DeviceError>;

/// Which stream a piece of output came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// A finished command's output.
#[derive(Debug, Clone, Default)]
pub struct Output {
    /// Standard output.
    pub stdout: Vec<u8>,
    /// Standard error.
    pub stderr: Vec<u8>,
    /// Exit code.
    pub code: i32,
}

/// A finished pull.
#[derive(Debug, Clone)]
pub struct Pulled {
    /// Bytes written.
    pub bytes: u64,
    /// SHA-256 of those bytes, lowercase hex.
    pub sha256: String,
    /// Whether the sender's own hash was compared with it (a phone without `sha256sum` cannot
    /// give one).
    pub verified: bool,
}

/// Where a forward leads on the device.
#[derive(Debug, Clone)]
pub enum Remote {
    /// A TCP port.
    Tcp(u16),
    /// A socket in the abstract namespace (`localabstract:`).
    Abstract(String),
}

/// A forward from a local TCP port; removed when dropped.
pub struct Forward {
    /// The local port.
    pub local_port: u16,
    remove: Option<Box<dyn FnOnce() + Send>>,
}

impl Drop for Forward {
    fn drop(&mut self) {
        if let Some(f) = self.remove.take() {
            f();
        }
    }
}

/// A device: a phone or this machine. What runs on it (sampling, dumping) goes through the
/// agent (the `agent` module's `Agent`), which is this trait's user, not part of it.
pub trait Device: Send + Sync {
    /// `local`, or the phone's serial.
    fn serial(&self) -> &str;

    /// Whether this is the machine heaptui runs on: its processes are read and dumped by
    /// heaptui itself, and its files are heaptui's files (nothing is pushed or pulled).
    fn runs_here(&self) -> bool {
        false
    }

    /// The model, as the adb server lists it.
    fn model(&self) -> Option<&str> {
        None
    }

    /// Whether [`Device::run`] keeps stdout and stderr apart (a phone's adbd without shell
    /// protocol v2, before Android 7, merges them).
    fn separate_streams(&self) -> bool {
        true
    }

    /// A system property (`getprop NAME`); `None` when unset or the device has none.
    fn property(&self, name: &str) -> Option<String> {
        let o = self.output(&format!("getprop {}", quote(name))).ok().filter(|o| o.code == 0)?;
        Some(String::from_utf8_lossy(&o.stdout).trim().to_string()).filter(|v| !v.is_empty())
    }

    /// Runs `command` under the device's shell, handing output to `sink` as it arrives; returns
    /// the exit code. No timeout: a command may be silent for as long as it likes.
    fn run(&self, command: &str, sink: &mut dyn FnMut(Stream, &[u8])) -> Result<i32> {
        self.run_until(command, &mut |s, b| {
            sink(s, b);
            true
        })
        .map(|c| c.unwrap_or(-1))
    }

    /// As [`Device::run`], but `sink` may stop the command by returning false (it is hung up,
    /// as closing an adb shell does); then the result is `None`.
    fn run_until(&self, command: &str, sink: &mut dyn FnMut(Stream, &[u8]) -> bool) -> Result<Option<i32>>;

    /// Runs `command` and returns everything it wrote and its exit code; a command that writes
    /// more than [`OUTPUT_MAX`] is stopped and is an error (what a phone answers is untrusted,
    /// and a dump travels by [`Device::run`] or [`Device::pull`], never through here).
    fn output(&self, command: &str) -> Result<Output> {
        let mut o = Output::default();
        let code = self.run_until(command, &mut |s, b| {
            if o.stdout.len() + o.stderr.len() + b.len() > OUTPUT_MAX {
                return false;
            }
            match s {
                Stream::Stdout => o.stdout.extend_from_slice(b),
                Stream::Stderr => o.stderr.extend_from_slice(b),
            }
            true
        })?;
        o.code = code.ok_or_else(|| DeviceError::TooMuch(command.to_string()))?;
        Ok(o)
    }

    /// Writes `bytes` to `to` on the device with permission bits `mode`.
    fn push(&self, bytes: &[u8], to: &str, mode: u32) -> Result<()>;

    /// Copies `from` on the device to local file `to` (written under a temporary name and renamed
    /// when whole), reporting bytes so far and the total when known.
    fn pull(&self, from: &str, to: &Path, progress: &mut dyn FnMut(u64, Option<u64>)) -> Result<Pulled>;

    /// Forwards a free local TCP port to `remote` on the device.
    fn forward(&self, remote: &Remote) -> Result<Forward>;

    /// Runs `command` and hands its standard output to `sink` as it arrives, byte for byte (how
    /// a file only `run-as` can read is fetched); returns the bytes handed on. Standard error
    /// is dropped.
    fn read_stream(&self, command: &str, sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> Result<u64> {
        let mut total = 0u64;
        let mut failed = None;
        self.run_until(command, &mut |s, b| {
            if s != Stream::Stdout {
                return true;
            }
            total += b.len() as u64;
            match sink(b) {
                Ok(()) => true,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        })?;
        match failed {
            Some(e) => Err(DeviceError::Io(e)),
            None => Ok(total),
        }
    }
}

pub use crate::shell::quote;

/// Writes through to `inner` while hashing, counting and reporting progress.
struct Hashing<'a, W: Write> {
    inner: W,
    hash: sha2::Sha256,
    bytes: u64,
    total: Option<u64>,
    progress: &'a mut dyn FnMut(u64, Option<u64>),
}

impl<W: Write> Write for Hashing<'_, W> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        use sha2::Digest;
        let n = self.inner.write(b)?;
        self.hash.update(&b[..n]);
        self.bytes += n as u64;
        (self.progress)(self.bytes, self.total);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes `to` through a temporary file beside it, linked to its name when `fill` succeeds (an
/// existing file is never replaced; a failed pull leaves nothing behind).
fn pull_into(
    to: &Path,
    total: Option<u64>,
    progress: &mut dyn FnMut(u64, Option<u64>),
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<Pulled> {
    use sha2::Digest;
    let dir = to.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let (file, tmp_path) = tempfile::Builder::new().prefix(".heaptui-pull").tempfile_in(dir)?.into_parts();
    let mut w = Hashing {
        inner: std::io::BufWriter::with_capacity(1 << 20, file),
        hash: sha2::Sha256::new(),
        bytes: 0,
        total,
        progress,
    };
    fill(&mut w)?;
    w.flush()?;
    let Hashing { inner, hash, bytes, .. } = w;
    inner.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::hard_link(&tmp_path, to)?;
    drop(tmp_path);
    Ok(Pulled { bytes, sha256: hex(&hash.finalize()), verified: false })
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// This machine.
#[derive(Debug, Default, Clone, Copy)]
pub struct LocalDevice;

impl Device for LocalDevice {
    fn serial(&self) -> &str {
        "local"
    }

    fn runs_here(&self) -> bool {
        true
    }

    /// This machine has no Android properties.
    fn property(&self, _name: &str) -> Option<String> {
        None
    }

    fn run_until(&self, command: &str, sink: &mut dyn FnMut(Stream, &[u8]) -> bool) -> Result<Option<i32>> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let (tx, rx) = std::sync::mpsc::channel::<(Stream, Vec<u8>)>();
        let mut pumps = Vec::new();
        let out: Option<Box<dyn Read + Send>> = child.stdout.take().map(|s| Box::new(s) as _);
        let err: Option<Box<dyn Read + Send>> = child.stderr.take().map(|s| Box::new(s) as _);
        for (which, r) in [(Stream::Stdout, out), (Stream::Stderr, err)] {
            let (Some(mut r), tx) = (r, tx.clone()) else { continue };
            pumps.push(std::thread::spawn(move || {
                let mut buf = vec![0u8; 64 * 1024];
                while let Ok(n) = r.read(&mut buf) {
                    if n == 0 || tx.send((which, buf[..n].to_vec())).is_err() {
                        break;
                    }
                }
            }));
        }
        drop(tx);
        for (which, chunk) in rx {
            if !sink(which, &chunk) {
                let _ = child.kill();
                let _ = child.wait();
                return Ok(None);
            }
        }
        let status = child.wait()?;
        use std::os::unix::process::ExitStatusExt;
        Ok(Some(status.code().unwrap_or_else(|| 128 + status.signal().unwrap_or(0))))
    }

    fn push(&self, bytes: &[u8], to: &str, mode: u32) -> Result<()> {
        use std::os::unix::fs::PermissionsExt;
        let to = Path::new(to);
        let dir = to.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let mut tmp = tempfile::Builder::new().prefix(".heaptui-push").tempfile_in(dir)?;
        tmp.write_all(bytes)?;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(mode))?;
        tmp.persist(to).map_err(|e| e.error)?;
        Ok(())
    }

    fn pull(&self, from: &str, to: &Path, progress: &mut dyn FnMut(u64, Option<u64>)) -> Result<Pulled> {
        let mut f = std::fs::File::open(from)?;
        let total = f.metadata().ok().map(|m| m.len());
        pull_into(to, total, progress, |w| {
            std::io::copy(&mut f, w)?;
            Ok(())
        })
    }

    fn forward(&self, remote: &Remote) -> Result<Forward> {
        match remote {
            // The same machine: the port is already reachable.
            Remote::Tcp(p) => Ok(Forward { local_port: *p, remove: None }),
            Remote::Abstract(name) => Err(DeviceError::Transfer(format!(
                "this machine's abstract socket {name:?} is reachable directly; no forward needed"
            ))),
        }
    }
}

/// A phone, through the adb server.
#[derive(Debug, Clone)]
pub struct AdbDevice {
    /// The adb server's port.
    pub port: u16,
    /// The phone's serial.
    pub serial: String,
    /// `model:` of the listing.
    pub model: Option<String>,
}

impl AdbDevice {
    /// Picks the phone `serial` names, else `ANDROID_SERIAL`'s, else the only one attached,
    /// starting the adb server on `port` if none runs.
    pub fn select(port: u16, serial: Option<&str>) -> Result<AdbDevice> {
        adb::ensure_server(port)?;
        let list = adb::devices(port)?;
        let wanted =
            serial.map(str::to_string).or_else(|| std::env::var("ANDROID_SERIAL").ok().filter(|s| !s.is_empty()));
        let pick = |d: &DeviceInfo| -> Result<AdbDevice> {
            if d.state.is_ready() {
                Ok(AdbDevice { port, serial: d.serial.clone(), model: d.model.clone() })
            } else {
                Err(DeviceError::NotReady(d.serial.clone(), d.state.clone()))
            }
        };
        match wanted {
            Some(s) => match list.iter().find(|d| d.serial == s) {
                Some(d) => pick(d),
                None => Err(DeviceError::Unknown(
                    s,
                    if list.is_empty() {
                        "none".into()
                    } else {
                        list.iter().map(|d| d.serial.as_str()).collect::<Vec<_>>().join(", ")
                    },
                )),
            },
            None => match list.as_slice() {
                [] => Err(DeviceError::NoDevice),
                [one] => pick(one),
                many => Err(DeviceError::Several(many.iter().map(|d| d.serial.clone()).collect())),
            },
        }
    }

    fn open(&self, service: &str) -> Result<TcpStream> {
        adb::open(self.port, &self.serial, service).map_err(|e| match e {
            AdbError::Failed(m) if m.contains("not found") || m.contains("offline") => self.gone(service),
            e => DeviceError::Adb(e),
        })
    }

    /// The phone went away during `what`: its features are asked again when it is back (it may
    /// come back as another system, rebooted or reflashed).
    fn gone(&self, what: &str) -> DeviceError {
        features_cache().lock().unwrap_or_else(PoisonError::into_inner).remove(&(self.port, self.serial.clone()));
        DeviceError::Gone(self.serial.clone(), what.to_string())
    }

    /// The adb features the phone's adbd offers (`shell_v2`, `cmd`, `stat_v2`, `abb`...), as the
    /// adb server learnt them from its CNXN banner; asked once (`host-serial:SERIAL:features`)
    /// and kept for this server and serial while the phone stays. A server too old to know the
    /// request answers FAIL: that is no features.
    ///
    /// Kept beside the struct rather than in it, so `AdbDevice { port, serial, model }` still
    /// builds one.
    pub fn features(&self) -> Result<Arc<[String]>> {
        let key = (self.port, self.serial.clone());
        if let Some(f) = features_cache().lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
            return Ok(f.clone());
        }
        let features: Arc<[String]> = match adb::features(self.port, &self.serial) {
            Ok(f) => f.into(),
            Err(AdbError::Failed(m)) if m.contains("not found") || m.contains("offline") => {
                return Err(self.gone("asking its features"))
            }
            Err(AdbError::Failed(_)) => Arc::from(Vec::new()),
            Err(e) => return Err(e.into()),
        };
        features_cache().lock().unwrap_or_else(PoisonError::into_inner).insert(key, features.clone());
        Ok(features)
    }

    /// Whether the phone offers adb feature `name` (see [`AdbDevice::features`]).
    pub fn has_feature(&self, name: &str) -> Result<bool> {
        Ok(self.features()?.iter().any(|f| f == name))
    }

    /// Runs `command` over shell protocol v2 (adbd of Android 7 and later): stdout and stderr
    /// apart, the exit code.
    fn run_v2(&self, command: &str, sink: &mut dyn FnMut(Stream, &[u8]) -> bool) -> Result<Option<i32>> {
        let mut s = self.open(&format!("shell,v2,raw:{command}"))?;
        // Nothing to say on its stdin: close it at once (a command reading it sees its end).
        s.write_all(&[4, 0, 0, 0, 0])?;
        let gone = || self.gone(command);
        let mut head = [0u8; 5];
        let mut buf = Vec::new();
        loop {
            if s.read_exact(&mut head).is_err() {
                return Err(gone());
            }
            let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
            // adbd sends at most its max payload (1 MiB) a packet; more is not the protocol.
            if len > 16 << 20 {
                return Err(DeviceError::Transfer(format!("{}: a shell packet of {len} bytes", self.serial)));
            }
            buf.resize(len, 0);
            if s.read_exact(&mut buf).is_err() {
                return Err(gone());
            }
            let more = match head[0] {
                1 => sink(Stream::Stdout, &buf),
                2 => sink(Stream::Stderr, &buf),
                3 => return Ok(Some(buf.first().copied().map_or(0, i32::from))),
                _ => true,
            };
            if !more {
                // Closing the stream makes adbd hang the command up.
                return Ok(None);
            }
        }
    }

    /// Runs `command` over the plain `shell:` service, for a phone without shell protocol v2
    /// (adbd before Android 7). That service carries one stream and no exit code, so the command
    /// runs as `sh -c COMMAND </dev/null; echo MARKER$?` with a marker made for this call, and
    /// the code is read from behind the marker, which is kept out of the output. The stream is
    /// closed at the code: what follows it (a job the command left writing) is not the
    /// command's output, and an endless one would not end.
    ///
    /// Standard error is merged into standard output: everything reaches `sink` as
    /// [`Stream::Stdout`]. Before Android 7 adbd runs `shell:` commands on a pty, which turns
    /// each `\n` into `\r\n`; that is undone (a `\r\n` the command itself wrote comes back as
    /// it was, one on a phone without a pty loses its `\r`). Binary output belongs on `exec:`
    /// ([`Device::read_stream`]). Used by [`Device::run_until`] when the phone lacks
    /// `shell_v2`; public only for tests.
    #[doc(hidden)]
    pub fn run_v1(&self, command: &str, sink: &mut dyn FnMut(Stream, &[u8]) -> bool) -> Result<Option<i32>> {
        let mut out = V1Output::new(exit_marker());
        let wrapped = format!("sh -c {} </dev/null; echo {}$?", quote(command), out.marker_text());
        let mut s = self.open(&format!("shell:{wrapped}"))?;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match s.read(&mut buf) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => 0,
            };
            let (bytes, code) = if n == 0 { out.finish() } else { out.push(&buf[..n]) };
            if !bytes.is_empty() && !sink(Stream::Stdout, &bytes) {
                // Closing the stream makes adbd hang the command up.
                return Ok(None);
            }
            if let Some(code) = code {
                // The exit code is the command's last word; the stream is closed behind it.
                return Ok(Some(code));
            }
            if n == 0 {
                // The stream ends when the shell does; without the marker, the phone went away.
                return Err(self.gone(command));
            }
        }
    }

    /// Runs `command` with `exec:` (raw bytes out, no shell protocol: binary-safe, stderr mixed
    /// in, no exit code) and returns its output.
    pub fn exec(&self, command: &str) -> Result<Vec<u8>> {
        let mut s = self.open(&format!("exec:{command}"))?;
        let mut v = Vec::new();
        s.read_to_end(&mut v)?;
        Ok(v)
    }

    /// Runs `command` with `exec:` and hands its output to `sink` as it arrives.
    fn exec_stream(&self, command: &str, sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> Result<u64> {
        let mut s = self.open(&format!("exec:{command}"))?;
        let mut buf = vec![0u8; 256 * 1024];
        let mut total = 0u64;
        loop {
            let n = match s.read(&mut buf) {
                Ok(0) => return Ok(total),
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(DeviceError::Io(e)),
            };
            total += n as u64;
            sink(&buf[..n])?;
        }
    }

    /// The mozdevice view of this phone, built field by field (`mozdevice::Device::new` would
    /// run `setenforce permissive` on a rooted phone). No read timeout: a pull of a large dump
    /// may stall for longer than mozdevice's default 2 s.
    fn moz(&self) -> mozdevice::Device {
        mozdevice::Device {
            host: mozdevice::Host {
                host: Some("127.0.0.1".into()),
                port: Some(self.port),
                read_timeout: None,
                write_timeout: None,
            },
            serial: self.serial.clone(),
            adbd_root: false,
            is_rooted: false,
            su_0_root: false,
            su_c_root: false,
            run_as_package: None,
            storage: mozdevice::AndroidStorage::Sdcard,
            tempfile: mozdevice::UnixPathBuf::from("/data/local/tmp/heaptui-push.tmp"),
        }
    }

    /// The size of `path` on the phone, if it exists.
    pub fn size(&self, path: &str) -> Result<Option<u64>> {
        let o = self.output(&format!("stat -c %s {}", quote(path)))?;
        Ok(if o.code == 0 { String::from_utf8_lossy(&o.stdout).trim().parse().ok() } else { None })
    }
}

impl Device for AdbDevice {
    fn separate_streams(&self) -> bool {
        self.has_feature("shell_v2").unwrap_or(false)
    }

    fn serial(&self) -> &str {
        &self.serial
    }

    fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }

    /// Through `exec:`: raw bytes, no shell protocol framing (as `adb exec-out` fetches files).
    fn read_stream(&self, command: &str, sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> Result<u64> {
        self.exec_stream(command, sink)
    }

    /// Shell protocol v2 when the phone offers it (stdout and stderr apart, the exit code), else
    /// the plain `shell:` service with the exit code recovered from a marker (see
    /// [`AdbDevice::run_v1`]); streaming, no timeout either way.
    fn run_until(&self, command: &str, sink: &mut dyn FnMut(Stream, &[u8]) -> bool) -> Result<Option<i32>> {
        if self.has_feature("shell_v2")? {
            self.run_v2(command, sink)
        } else {
            self.run_v1(command, sink)
        }
    }

    fn push(&self, bytes: &[u8], to: &str, mode: u32) -> Result<()> {
        self.moz()
            .push(&mut &bytes[..], mozdevice::UnixPath::new(to), mode)
            .map_err(|e| DeviceError::Transfer(format!("push {} bytes to {}:{to}: {e}", bytes.len(), self.serial)))
    }

    fn pull(&self, from: &str, to: &Path, progress: &mut dyn FnMut(u64, Option<u64>)) -> Result<Pulled> {
        let total = self.size(from)?;
        let serial = self.serial.clone();
        // At most what the phone said the file holds, and never more than the disk offers.
        let dir = to.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let space = heap::expand::Space::at(dir).map_or(u64::MAX, |s| s.usable());
        let limit = total.filter(|&t| t > 0).map_or(space, |t| t.min(space));
        let pulled = pull_into(to, total, progress, |w| {
            adb::sync_pull(self.port, &self.serial, from, limit, w)
                .map(drop)
                .map_err(|e| DeviceError::Transfer(format!("pull {serial}:{from}: {e}")))
        })?;
        // The phone's own checksum of what it holds, against what arrived.
        let o = self.output(&format!("sha256sum {}", quote(from)))?;
        let theirs = String::from_utf8_lossy(&o.stdout).split_whitespace().next().unwrap_or("").to_string();
        let hashed = o.code == 0 && theirs.len() == 64;
        if hashed && theirs != pulled.sha256 {
            let _ = std::fs::remove_file(to);
            return Err(DeviceError::Transfer(format!(
                "pull {}:{from}: checksum mismatch (phone {theirs}, received {})",
                self.serial, pulled.sha256
            )));
        }
        Ok(Pulled { verified: hashed, ..pulled })
    }

    fn forward(&self, remote: &Remote) -> Result<Forward> {
        let target = match remote {
            Remote::Tcp(p) => format!("tcp:{p}"),
            Remote::Abstract(n) => format!("localabstract:{n}"),
        };
        // `tcp:0` asks the server for a free port and returns it.
        let answer = adb::forward(self.port, &self.serial, "tcp:0", &target)?;
        let local_port: u16 = answer
            .trim()
            .parse()
            .map_err(|_| DeviceError::Transfer(format!("forward to {target}: unexpected answer {answer:?}")))?;
        let (port, serial) = (self.port, self.serial.clone());
        Ok(Forward {
            local_port,
            remove: Some(Box::new(move || {
                let _ = adb::host_request(port, &format!("host-serial:{serial}:killforward:tcp:{local_port}"));
            })),
        })
    }
}

/// Where the agent lives on a phone.
pub const AGENT_DIR: &str = "/data/local/tmp";

/// Picks a device as the command line names one: `local` (`--local`, `-s local`) is this
/// machine; a serial (`-s`, else `ANDROID_SERIAL`) is that phone, the adb server started for it
/// if none runs; with neither, the one phone a running server has, else this machine (no
/// server is started just to find out).
pub fn select(local: bool, serial: Option<&str>) -> Result<Box<dyn Device>> {
    let named = serial.map(str::to_string).or_else(|| std::env::var("ANDROID_SERIAL").ok().filter(|s| !s.is_empty()));
    if local || named.as_deref() == Some("local") {
        return Ok(Box::new(LocalDevice));
    }
    let port = adb::server_port();
    if named.is_none() && adb::devices(port).unwrap_or_default().is_empty() {
        return Ok(Box::new(LocalDevice));
    }
    Ok(Box::new(AdbDevice::select(port, named.as_deref())?))
}

/// The features of each phone asked, by adb server port and serial.
type FeatureCache = Mutex<std::collections::HashMap<(u16, String), Arc<[String]>>>;

fn features_cache() -> &'static FeatureCache {
    static CACHE: OnceLock<FeatureCache> = OnceLock::new();
    CACHE.get_or_init(FeatureCache::default)
}

/// A marker no command prints by chance: this process, the time and a count.
fn exit_marker() -> String {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("heaptui-exit-{:x}-{t:x}-{n:x}:", std::process::id())
}

/// The output of a command run by [`AdbDevice::run_v1`], split as it arrives into the command's
/// own bytes and the exit code that follows the marker. `\r\n` becomes `\n` (the pty's doing
/// undone). Bytes that may be the start of the marker, or a `\r` whose `\n` may follow, are
/// held until the next chunk tells.
struct V1Output {
    marker: Vec<u8>,
    /// Bytes not handed on yet: every `\r\n` already undone but a last `\r`.
    held: Vec<u8>,
    code: Option<i32>,
}

impl V1Output {
    fn new(marker: String) -> V1Output {
        V1Output { marker: marker.into_bytes(), held: Vec::new(), code: None }
    }

    fn marker_text(&self) -> String {
        String::from_utf8_lossy(&self.marker).into_owned()
    }

    /// Takes `chunk`; returns the output it completes and, once read, the exit code.
    fn push(&mut self, chunk: &[u8]) -> (Vec<u8>, Option<i32>) {
        if self.code.is_some() {
            return (Vec::new(), self.code);
        }
        let mut chunk = chunk;
        if self.held.last() == Some(&b'\r') && chunk.first() == Some(&b'\n') {
            self.held.pop();
        }
        while let Some((&b, rest)) = chunk.split_first() {
            if !(b == b'\r' && rest.first() == Some(&b'\n')) {
                self.held.push(b);
            }
            chunk = rest;
        }
        let mut keep = 0;
        if self.code.is_none() {
            if let Some(at) = find(&self.held, &self.marker) {
                let from = at + self.marker.len();
                match self.held[from..].iter().position(|&b| b == b'\n') {
                    Some(nl) => {
                        let code = String::from_utf8_lossy(&self.held[from..from + nl]).trim().parse().unwrap_or(-1);
                        self.code = Some(code);
                        // The shell ends at its exit code: what follows (a job it left behind
                        // writing on) is not the command's output, and is not read.
                        self.held.truncate(at);
                    }
                    // The code's line is not whole yet: hold it, hand on what came before.
                    None => keep = self.held.len() - at,
                }
            } else {
                keep = (1..self.marker.len().min(self.held.len() + 1))
                    .rev()
                    .find(|&k| self.held.ends_with(&self.marker[..k]))
                    .unwrap_or(0);
            }
        }
        let keep = keep.max(usize::from(self.held.last() == Some(&b'\r')));
        (self.held.drain(..self.held.len() - keep).collect(), self.code)
    }

    /// The stream ended: what was held is output, and the code if it came.
    fn finish(&mut self) -> (Vec<u8>, Option<i32>) {
        if self.code.is_none() {
            if let Some(at) = find(&self.held, &self.marker) {
                // A code line without its newline.
                self.code = String::from_utf8_lossy(&self.held[at + self.marker.len()..]).trim().parse().ok();
                self.held.truncate(at);
            }
        }
        (std::mem::take(&mut self.held), self.code)
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `select` says of a phone it cannot use: the state in words and what to do.
    #[test]
    fn a_phone_not_ready_says_why_and_what_to_do() {
        let listing = "R58M41ABCDE            no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html] usb:1-4 transport_id:3\n\
                       HT846GZ39410           unauthorized usb:1-1 transport_id:4\n\
                       emulator-5554          offline transport_id:5\n\
                       060fb526f0eca244       recovery usb:2-1 product:hammerhead model:Nexus_5 device:hammerhead transport_id:6\n";
        let said: Vec<String> = crate::adb::parse_devices(listing)
            .into_iter()
            .map(|d| DeviceError::NotReady(d.serial, d.state).to_string())
            .collect();
        assert!(said[0].starts_with("phone R58M41ABCDE is not accessible"), "{}", said[0]);
        assert!(said[0].contains("(missing udev rules? user is in the plugdev group)"), "{}", said[0]);
        assert!(said[0].contains("plugdev group (`sudo usermod"), "{}", said[0]);
        assert!(!said[0].contains(" is no:"), "{}", said[0]);
        assert!(said[1].starts_with("phone HT846GZ39410 is unauthorized"), "{}", said[1]);
        assert!(said[1].contains("\"Allow USB debugging?\" prompt"), "{}", said[1]);
        assert!(said[2].contains("`adb reconnect offline`"), "{}", said[2]);
        assert!(said[3].contains("not booted into Android"), "{}", said[3]);
        assert!(said[3].contains("`adb -s 060fb526f0eca244 reboot`"), "{}", said[3]);
    }

    /// Feeds `chunks` through a V1Output; returns the output and the code.
    fn decode(marker: &str, chunks: &[&[u8]], eof: bool) -> (Vec<u8>, Option<i32>) {
        let mut d = V1Output::new(marker.to_string());
        let mut out = Vec::new();
        let mut code = None;
        for c in chunks {
            let (b, c) = d.push(c);
            out.extend(b);
            code = code.or(c);
        }
        if eof {
            let (b, c) = d.finish();
            out.extend(b);
            code = code.or(c);
        }
        (out, code)
    }

    #[test]
    fn the_exit_code_is_read_from_behind_the_marker() {
        let m = "heaptui-exit-1:";
        assert_eq!(decode(m, &[b"hello\nheaptui-exit-1:3\n"], false), (b"hello\n".to_vec(), Some(3)));
        // No newline before the marker: the output keeps its unfinished last line.
        assert_eq!(decode(m, &[b"no newlineheaptui-exit-1:0\n"], false), (b"no newline".to_vec(), Some(0)));
        // The marker and the code split across reads, byte by byte.
        let all = b"a\r\nb\r\r\nheaptui-exit-1:127\r\n";
        let bytes: Vec<&[u8]> = all.chunks(1).collect();
        assert_eq!(decode(m, &bytes, false), (b"a\nb\r\n".to_vec(), Some(127)));
        // A prefix of the marker that turns out not to be it is output.
        assert_eq!(
            decode(m, &[b"heaptui-ex", b"tra\n", b"heaptui-exit-1:1\n"], false),
            (b"heaptui-extra\n".to_vec(), Some(1))
        );
        // The stream ends without the marker: output so far, no code.
        assert_eq!(decode(m, &[b"partial\r"], true), (b"partial\r".to_vec(), None));
        // The code's newline never came.
        assert_eq!(decode(m, &[b"x\nheaptui-exit-1:2"], true), (b"x\n".to_vec(), Some(2)));
    }

    #[test]
    fn output_is_handed_on_as_it_comes() {
        let mut d = V1Output::new("heaptui-exit-1:".into());
        assert_eq!(d.push(b"one\n"), (b"one\n".to_vec(), None));
        assert_eq!(d.push(b"two\r"), (b"two".to_vec(), None));
        assert_eq!(d.push(b"\nheaptui"), (b"\n".to_vec(), None));
        assert_eq!(d.push(b"-exit-1:0\n"), (Vec::new(), Some(0)));
        // What comes after the marker (a job the command left writing) is not its output.
        assert_eq!(d.push(b"late\r\n"), (Vec::new(), Some(0)));
        assert_eq!(d.finish(), (Vec::new(), Some(0)));
        // Nor in the chunk that ends it.
        let mut d = V1Output::new("heaptui-exit-1:".into());
        assert_eq!(d.push(b"out\nheaptui-exit-1:0\nflood\nflood\n"), (b"out\n".to_vec(), Some(0)));
    }
}
