//! What heaptui puts on phones: the builds this binary carries (made and embedded by the bridge's
//! build script, one agent and one fork-dump library per Android ABI) and, for development, a
//! folder of builds named by `HEAPTUI_AGENT_DIR`, used only when no other user could have put
//! or changed anything in it ([`trusted`]). Nothing is looked up beside the binary.

use std::path::{Path, PathBuf};

use crate::device::{DeviceError, Result};

/// What a build is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `heaptui-agent`, run by adb's shell.
    Agent,
    /// `libforkdump.so`, loaded into an app by `attach-agent`.
    ForkLibrary,
}

impl Kind {
    /// Its file name on the phone (and in a `HEAPTUI_AGENT_DIR`).
    pub fn file(self) -> &'static str {
        match self {
            Kind::Agent => "heaptui-agent",
            Kind::ForkLibrary => "libforkdump.so",
        }
    }
}

/// A build carried in this binary.
#[derive(Debug)]
pub struct Build {
    /// What it is.
    pub kind: Kind,
    /// The Android ABI it is for.
    pub abi: &'static str,
    /// Its Rust target.
    pub target: &'static str,
    /// Its file name.
    pub file: &'static str,
    /// The file.
    pub bytes: &'static [u8],
    /// Its SHA-256, in hex.
    pub sha256: &'static str,
}

/// A build this binary was made without.
#[derive(Debug)]
pub struct Lacking {
    /// What it is.
    pub kind: Kind,
    /// The Android ABI it would be for.
    pub abi: &'static str,
    /// Its Rust target.
    pub target: &'static str,
    /// Its file name.
    pub file: &'static str,
    /// Why the build left it out, with what to install.
    pub why: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/builds.rs"));

/// The carried build of `kind` for `target`.
pub fn carried(kind: Kind, target: &str) -> Option<&'static Build> {
    CARRIED.iter().find(|b| b.kind == kind && b.target == target)
}

/// Why the build of `kind` for `target` is not carried.
pub fn lacking(kind: Kind, target: &str) -> Option<&'static Lacking> {
    LACKING.iter().find(|b| b.kind == kind && b.target == target)
}

/// A build ready to push.
#[derive(Debug)]
pub enum Payload {
    /// Carried in this binary.
    Carried(&'static Build),
    /// Read from `HEAPTUI_AGENT_DIR`.
    File {
        /// Where.
        path: PathBuf,
        /// What it held.
        bytes: Vec<u8>,
        /// Its SHA-256, in hex.
        sha256: String,
    },
}

impl Payload {
    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Payload::Carried(b) => b.bytes,
            Payload::File { bytes, .. } => bytes,
        }
    }

    /// Its SHA-256, in hex: what the phone's copy is compared with.
    pub fn sha256(&self) -> &str {
        match self {
            Payload::Carried(b) => b.sha256,
            Payload::File { sha256, .. } => sha256,
        }
    }
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The most bytes a build from `HEAPTUI_AGENT_DIR` may have: the carried ones are under 2 MB,
/// a debug build with its debug info near 100 MB (the tests push one); this only stops a file of
/// any size being read whole.
const MAX_BUILD: u64 = 512 << 20;

/// `path` with its links resolved, when it and every folder above it belong to this user or
/// root and no one else can change them: not writable by group or others, but for a folder with
/// the sticky bit that belongs to root (`/tmp`), where others may add entries but not rename or
/// remove ours. Links on the way are resolved first and the path they lead to is what is checked,
/// so it is the one to read (the folders the link passed through are not).
pub fn trusted(path: &Path) -> std::result::Result<std::path::PathBuf, String> {
    use std::os::unix::fs::MetadataExt;
    let path = std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // SAFETY: geteuid cannot fail.
    let me = unsafe { libc::geteuid() };
    for p in path.ancestors() {
        let m = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let (uid, mode) = (m.uid(), m.mode());
        if uid != me && uid != 0 {
            return Err(format!("{} belongs to uid {uid}, neither you nor root", p.display()));
        }
        let others_write = mode & 0o022 != 0;
        let sticky_root_dir = m.is_dir() && mode & 0o1000 != 0 && uid == 0;
        if others_write && !(sticky_root_dir && p != path) {
            return Err(format!("{} can be changed by other users (mode {:o})", p.display(), mode & 0o7777));
        }
    }
    Ok(path)
}

/// The bytes of the checked file at `path` ([`trusted`]'s answer): opened without following a
/// link or blocking on a FIFO, a regular file of at most [`MAX_BUILD`] bytes.
fn read_trusted(path: &Path) -> std::result::Result<Vec<u8>, String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let m = f.metadata().map_err(|e| format!("{}: {e}", path.display()))?;
    if !m.is_file() || m.len() > MAX_BUILD {
        return Err(format!("{} is not a regular file of at most {MAX_BUILD} bytes", path.display()));
    }
    let mut bytes = Vec::new();
    f.take(MAX_BUILD).read_to_end(&mut bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes)
}

/// The build of `kind` for `target`: from `HEAPTUI_AGENT_DIR/<target>/` when that variable is
/// set and the folder has it (refused, not skipped, when others could have written it), else the
/// one this binary carries.
pub fn payload(kind: Kind, target: &str) -> Result<Payload> {
    if let Some(dir) = std::env::var_os("HEAPTUI_AGENT_DIR") {
        let path = Path::new(&dir).join(target).join(kind.file());
        if path.exists() {
            let bytes = trusted(&path).and_then(|checked| read_trusted(&checked)).map_err(|why| {
                DeviceError::Transfer(format!(
                    "refusing {} from HEAPTUI_AGENT_DIR: {why}; only files no other user can change are pushed",
                    path.display()
                ))
            })?;
            return Ok(Payload::File { sha256: sha256(&bytes), path, bytes });
        }
    }
    if let Some(b) = carried(kind, target) {
        return Ok(Payload::Carried(b));
    }
    let why = lacking(kind, target).map(|l| l.why).unwrap_or("heaptui builds none for it");
    Err(DeviceError::Transfer(format!("this heaptui carries no {} for {target}: {why}", kind.file())))
}
