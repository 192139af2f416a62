//! The real ART 10 that `./run-tests` builds (`tests/art/build.sh`): the tests' Java programs
//! compiled and dexed for it, and started as app processes (`art-app`, the launcher beside the
//! runtime), each serving what Android's system asks of an app on its main thread (a heap dump
//! into a descriptor, an agent to attach, its meminfo) over a socket of its own ([`request`]).
//!
//! What this runtime is: Debian's host build of Android 10's ART (x86_64, the switch
//! interpreter only, no boot image, no zygote), its boot class path built from libcore 10's
//! sources, and ART's own `libopenjdkjvm` (so `Runtime.gc()` collects through ART's heap and
//! `Runtime`'s memory figures are the heap's). Its dumps hold one heap, `app`.

// Only tests call this: what cannot be done is a failed test, said where it happened.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Where `run-tests` builds the runtime unless `HEAPTUI_ART10` names another place.
pub const DEFAULT_ROOT: &str = "/var/cache/heaptui-test/art10";

/// The runtime's parts, by absolute path (its `env` file).
#[derive(Debug, Clone)]
pub struct Art {
    /// The runtime's folder.
    pub root: PathBuf,
    /// `bin/art-app`.
    pub launcher: PathBuf,
    /// The boot class path as classes, for javac.
    pub boot_classes: PathBuf,
    /// Android 10's dexer.
    pub dx: PathBuf,
    /// Every library of the runtime (`libart.so.0` among them).
    pub lib: PathBuf,
}

/// The runtime `run-tests` built; a panic saying how to build it when there is none.
pub fn art() -> &'static Art {
    static ART: std::sync::OnceLock<Art> = std::sync::OnceLock::new();
    ART.get_or_init(|| {
        let root = std::env::var_os("HEAPTUI_ART10").map(PathBuf::from).unwrap_or_else(|| DEFAULT_ROOT.into());
        let env = std::fs::read_to_string(root.join("env")).unwrap_or_else(|e| {
            panic!(
                "no real ART at {} ({e}): ./run-tests builds it (or, as root, tests/art/build.sh {0})",
                root.display()
            )
        });
        let get = |key: &str| -> PathBuf {
            env.lines()
                .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
                .map(PathBuf::from)
                .unwrap_or_else(|| panic!("{}/env has no {key}", root.display()))
        };
        Art {
            launcher: get("ART_LAUNCHER"),
            boot_classes: get("ART_BOOT_CLASSES"),
            dx: get("ART_DX"),
            lib: get("ART_LIB"),
            root,
        }
    })
}

impl Art {
    /// `libart.so.0`, the runtime's library.
    pub fn libart(&self) -> PathBuf {
        self.lib.join("libart.so.0")
    }

    /// Compiles `sources` (paths relative to the repository's root) against libcore 10 and
    /// dexes them into `dir/app.jar`, readable by every uid (apps run under their own). Java 8
    /// source: no lambdas (nothing here desugars them).
    pub fn compile(&self, sources: &[&str], dir: &Path) -> PathBuf {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let classes = dir.join("classes");
        std::fs::create_dir_all(&classes).unwrap();
        let out = Command::new("javac")
            .args(["-source", "8", "-target", "8", "-nowarn", "-Xlint:-options", "-encoding", "UTF-8"])
            .arg("-bootclasspath")
            .arg(&self.boot_classes)
            .arg("-d")
            .arg(&classes)
            .args(sources.iter().map(|s| repo.join(s)))
            .output()
            .expect("javac (openjdk-17-jdk-headless)");
        assert!(out.status.success(), "javac: {}", String::from_utf8_lossy(&out.stderr));
        let jar = dir.join("app.jar");
        let out = Command::new("java")
            .arg("-jar")
            .arg(&self.dx)
            .arg("--dex")
            .arg(format!("--output={}", jar.display()))
            .arg(&classes)
            .output()
            .unwrap();
        assert!(out.status.success(), "dx: {}", String::from_utf8_lossy(&out.stderr));
        for p in [dir, jar.as_path()] {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        jar
    }

    /// Starts `main` of `jar` as an app process, and waits for the first line it prints.
    pub fn start(&self, jar: &Path, main: &str, args: &[&str], app: &App) -> ArtApp {
        let mut cmd = Command::new(&self.launcher);
        cmd.arg0(&app.package).arg("--name").arg(&app.package);
        if app.debuggable {
            cmd.arg("--debuggable");
        }
        if let Some(data) = &app.data {
            cmd.arg("--data").arg(data);
        }
        cmd.arg(format!("-Xmx{}m", app.xmx_mb)).arg(jar).arg(main).args(args);
        cmd.current_dir("/").stdout(Stdio::piped()).stderr(Stdio::piped()).envs(app.env.iter().cloned());
        if let Some(uid) = app.uid {
            cmd.uid(uid).gid(uid);
        }
        let mut child = cmd.spawn().expect("the ART launcher");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first_line = String::new();
        stdout.read_line(&mut first_line).unwrap();
        let log = child.stderr.take().unwrap();
        // ART's log goes to stderr: kept, and shown if the app did not start.
        let log = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = BufReader::new(log).read_to_string(&mut text);
            text
        });
        if first_line.is_empty() {
            let _ = child.wait();
            panic!("the ART app {main} printed nothing: {}", log.join().unwrap_or_default());
        }
        ArtApp { pid: child.id(), child, first_line, stdout, log: Some(log) }
    }
}

/// How an app is started.
#[derive(Debug, Clone)]
pub struct App {
    /// Its process name (its package on a phone): its command line and comm.
    pub package: String,
    /// The uid it runs as (the test's own when `None`).
    pub uid: Option<u32>,
    /// Whether agents may be attached to it (Android's `android:debuggable`).
    pub debuggable: bool,
    /// ART's `-Xmx`.
    pub xmx_mb: u32,
    /// ART's data folder (`/tmp/art-app-PID` when `None`).
    pub data: Option<PathBuf>,
    /// More environment for the process.
    pub env: Vec<(String, String)>,
}

impl App {
    /// An app named `package`, as the test's user, debuggable, with a 64 MiB heap.
    pub fn new(package: &str) -> App {
        App { package: package.into(), uid: None, debuggable: true, xmx_mb: 64, data: None, env: Vec::new() }
    }
}

/// A running app on the real ART, killed when dropped.
pub struct ArtApp {
    /// The process.
    pub child: Child,
    /// Its pid.
    pub pid: u32,
    /// The first line its program printed.
    pub first_line: String,
    /// The rest of what it prints.
    pub stdout: BufReader<std::process::ChildStdout>,
    log: Option<std::thread::JoinHandle<String>>,
}

impl ArtApp {
    /// The next line the program prints.
    pub fn line(&mut self) -> String {
        let mut s = String::new();
        self.stdout.read_line(&mut s).unwrap();
        s
    }

    /// Kills it and returns ART's log (its stderr).
    pub fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.log.take().and_then(|l| l.join().ok()).unwrap_or_default()
    }
}

impl Drop for ArtApp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Asks the app `pid` (an `art-app`) for `text` (`meminfo`, `gc`, `dumpheap 1 - PATH` or `dumpheap 1 png PATH` with the
/// output's descriptor, `attach-agent LIB=OPTIONS`) and returns its answer, which ends with a
/// line `ok` or `error: …`; `None` when no ART app serves that pid.
pub fn request(pid: u32, text: &str, fd: Option<&std::fs::File>) -> Option<String> {
    use std::os::linux::net::SocketAddrExt;
    let addr = std::os::unix::net::SocketAddr::from_abstract_name(format!("heaptui-art-app-{pid}")).ok()?;
    let mut s = std::os::unix::net::UnixStream::connect_addr(&addr).ok()?;
    let line = format!("{text}\n");
    match fd {
        None => s.write_all(line.as_bytes()).ok()?,
        Some(f) => send_with_fd(&s, line.as_bytes(), f.as_raw_fd()).ok()?,
    }
    let mut answer = String::new();
    s.read_to_string(&mut answer).ok()?;
    Some(answer)
}

/// One `sendmsg` of `bytes` with `fd` passed along (SCM_RIGHTS).
fn send_with_fd(s: &std::os::unix::net::UnixStream, bytes: &[u8], fd: i32) -> std::io::Result<()> {
    let mut control = [0u8; 64];
    let iov = libc::iovec { iov_base: bytes.as_ptr() as *mut libc::c_void, iov_len: bytes.len() };
    // SAFETY: msghdr and cmsghdr built as sendmsg(2) documents, over buffers that outlive the call.
    unsafe {
        let space = libc::CMSG_SPACE(std::mem::size_of::<i32>() as u32) as usize;
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &iov as *const libc::iovec as *mut libc::iovec;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = space as _;
        let c = libc::CMSG_FIRSTHDR(&msg);
        (*c).cmsg_level = libc::SOL_SOCKET;
        (*c).cmsg_type = libc::SCM_RIGHTS;
        (*c).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<i32>() as u32) as _;
        std::ptr::copy_nonoverlapping(&fd as *const i32 as *const u8, libc::CMSG_DATA(c), 4);
        if libc::sendmsg(s.as_raw_fd(), &msg, 0) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}
