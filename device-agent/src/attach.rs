//! HotSpot's dynamic attach protocol, spoken directly (no JDK tools on the target): the file
//! `.attach_pid<pid>` in the JVM's working directory (or `/tmp`) and a SIGQUIT ask the JVM to
//! open the UNIX socket `/tmp/.java_pid<pid>`; a request is protocol version `1`, a command and
//! three arguments, each NUL-terminated; the answer is a status line (`0` for success) and the
//! command's output. This is what `jcmd` and `jmap` do.

use std::io::{Read, Write};
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Why attaching or the command failed.
#[derive(Debug, thiserror::Error)]
pub enum AttachError {
    /// The JVM did not open its attach socket in time (not a HotSpot JVM, started with
    /// `-XX:+DisableAttachMechanism`, another user's, or busy).
    #[error(
        "JVM {0} did not open its attach socket within {secs:.0} s (not a HotSpot JVM, another user's, \
         or started with -XX:+DisableAttachMechanism)",
        secs = .1.as_secs_f64()
    )]
    NoSocket(u32, Duration),
    /// The process maps no `libjvm.so`: SIGQUIT would kill it, so it is not signalled.
    #[error("process {0} is not a HotSpot JVM (it maps no libjvm.so)")]
    NotJvm(u32),
    /// Something other than the JVM's socket sits at its name.
    #[error("{path}: {1}; not the JVM's attach socket, so not used", path = .0.display())]
    Untrusted(PathBuf, String),
    /// A socket or file operation failed.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// The JVM answered with a non-zero status and this output.
    #[error("the JVM refused (status {0}): {out}", out = .1.trim())]
    Failed(i32, String),
}

/// Where the target sees `/tmp`: through `/proc/<pid>/root`, so a JVM in a container (its own
/// mount namespace) is reached too.
fn tmp_of(pid: u32) -> PathBuf {
    let root = PathBuf::from(format!("/proc/{pid}/root/tmp"));
    if root.is_dir() {
        root
    } else {
        PathBuf::from("/tmp")
    }
}

/// The JVM's pid inside its own pid namespace (the last `NSpid:` of its status), which names
/// its socket.
fn ns_pid(pid: u32) -> u32 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("NSpid:")).map(str::to_string))
        .and_then(|v| v.split_whitespace().last().and_then(|p| p.parse().ok()))
        .unwrap_or(pid)
}

/// Connects to JVM `pid`'s attach socket, starting its attach listener first if needed. Only a
/// process that maps `libjvm.so` is spoken to (a process whose maps cannot be read is not: the
/// check fails closed), and only through a socket that is what the JVM makes ([`trusted_socket`]):
/// anyone can create `/tmp/.java_pid<pid>` before the JVM does.
pub fn connect(pid: u32, timeout: Duration) -> Result<UnixStream, AttachError> {
    // SIGQUIT's default action ends a process: only a JVM, which catches it, may be sent one.
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps"))
        .map_err(|e| AttachError::Io(format!("cannot read /proc/{pid}/maps to check for a JVM"), e))?;
    if !maps.lines().any(|l| l.ends_with("/libjvm.so")) {
        return Err(AttachError::NotJvm(pid));
    }
    let owner = std::fs::metadata(format!("/proc/{pid}"))
        .map(|m| m.uid())
        .map_err(|e| AttachError::Io(format!("process {pid}"), e))?;
    let socket = tmp_of(pid).join(format!(".java_pid{}", ns_pid(pid)));
    if trusted_socket(&socket, owner) == Ok(true) {
        if let Ok(s) = UnixStream::connect(&socket) {
            return Ok(s);
        }
    }
    // The trigger file: the JVM looks in its working directory, then in /tmp.
    let name = format!(".attach_pid{}", ns_pid(pid));
    let cwd = PathBuf::from(format!("/proc/{pid}/cwd")).join(&name);
    let trigger = match new_trigger(&cwd) {
        Ok(()) => cwd,
        Err(_) => {
            let t = tmp_of(pid).join(&name);
            new_trigger(&t).map_err(|e| AttachError::Io(format!("cannot create {}", t.display()), e))?;
            t
        }
    };
    let _cleanup = RemoveOnDrop(&trigger);
    // SAFETY: kill(2) with a pid and a signal number has no memory effects.
    if unsafe { libc::kill(pid as libc::pid_t, libc::SIGQUIT) } != 0 {
        return Err(AttachError::Io(format!("cannot signal {pid}"), std::io::Error::last_os_error()));
    }
    // The JVM makes its socket under another name and renames it into place, replacing whatever
    // was planted there: one that is not the JVM's is waited past, and named if it stays.
    let start = Instant::now();
    let mut wait = Duration::from_millis(20);
    let mut untrusted = None;
    while start.elapsed() < timeout {
        std::thread::sleep(wait);
        wait = (wait * 2).min(Duration::from_millis(200));
        match trusted_socket(&socket, owner) {
            Ok(true) => {
                if let Ok(s) = UnixStream::connect(&socket) {
                    return Ok(s);
                }
            }
            Ok(false) => {}
            Err(why) => untrusted = Some(why),
        }
    }
    match untrusted {
        Some(why) => Err(AttachError::Untrusted(socket, why)),
        None => Err(AttachError::NoSocket(pid, timeout)),
    }
}

/// Whether `path` is a socket a JVM of user `owner` made: a socket (not a link to one), owned by
/// `owner` (or by this agent's user: root reaches any JVM, as the JDK allows), with no access for
/// group or others (the JDK's own check on the file). `Ok(false)`: nothing there yet.
fn trusted_socket(path: &Path, owner: u32) -> Result<bool, String> {
    use std::os::unix::fs::FileTypeExt;
    let md = match std::fs::symlink_metadata(path) {
        Ok(md) => md,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e.to_string()),
    };
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if !md.file_type().is_socket() {
        Err("not a socket".into())
    } else if md.uid() != owner && md.uid() != me {
        Err(format!("owned by uid {}, not the JVM's {owner}", md.uid()))
    } else if md.mode() & 0o066 != 0 {
        Err(format!("mode {:03o} lets others in", md.mode() & 0o777))
    } else {
        Ok(true)
    }
}

/// Creates the attach trigger file, new: never through a link someone planted at its name (that
/// would truncate the link's target), never one that is there already (another user's: it is not
/// ours to remove afterwards). The JVM only asks whether it exists.
fn new_trigger(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW)
        .mode(0o600)
        .open(path)
        .map(drop)
}

/// Removes the trigger file however `connect` ends. (Not `tempfile::TempPath`: the agent is pushed
/// to phones and keeps its dependencies to serde and libc.)
struct RemoveOnDrop<'a>(&'a Path);

impl Drop for RemoveOnDrop<'_> {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.0);
    }
}

/// The longest answer read: `dumpheap` says a line or two; anything near this is not a JVM talking.
const MAX_ANSWER: u64 = 4 << 20;

/// Sends `command` with up to three arguments and returns the JVM's output when it succeeded.
pub fn execute(pid: u32, command: &str, args: &[&str], timeout: Duration) -> Result<String, AttachError> {
    let mut s = connect(pid, timeout)?;
    let io = |what: &str| {
        let what = what.to_string();
        move |e| AttachError::Io(what, e)
    };
    let mut request = Vec::new();
    for part in ["1", command].iter().chain(args.iter().chain(std::iter::repeat(&"")).take(3)) {
        request.extend_from_slice(part.as_bytes());
        request.push(0);
    }
    s.write_all(&request).map_err(io("cannot send the request"))?;
    let mut answer = Vec::new();
    (&mut s).take(MAX_ANSWER + 1).read_to_end(&mut answer).map_err(io("cannot read the answer"))?;
    if answer.len() as u64 > MAX_ANSWER {
        return Err(AttachError::Failed(-1, format!("an answer longer than {} MiB: not a JVM's", MAX_ANSWER >> 20)));
    }
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (status, output) = text.split_once('\n').unwrap_or((text.as_str(), ""));
    match status.trim().parse::<i32>() {
        Ok(0) => Ok(output.to_string()),
        Ok(code) => Err(AttachError::Failed(code, output.to_string())),
        Err(_) => Err(AttachError::Failed(-1, text)),
    }
}

/// Dumps JVM `pid`'s heap to `path` (absolute; the JVM refuses to overwrite a file): only live
/// objects (after a full GC) when `live`, else everything. Returns the JVM's message.
pub fn dump_heap(pid: u32, path: &Path, live: bool) -> Result<String, AttachError> {
    let path = path.to_string_lossy();
    let out = execute(pid, "dumpheap", &[&path, if live { "-live" } else { "-all" }], Duration::from_secs(10))?;
    // JDK 17 answers status 0 and puts a failure in the text (`Dump file is incomplete.`,
    // `Unable to create ...`); success says "Heap dump file created".
    if out.contains("Heap dump file created") {
        Ok(out.trim().to_string())
    } else {
        Err(AttachError::Failed(0, out))
    }
}
