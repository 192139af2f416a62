//! HotSpot's performance counters: the `hsperfdata_<user>/<pid>` file every HotSpot JVM maps and
//! updates (unless `-XX:-UsePerfData`), which `jstat` reads. Reading it costs the JVM nothing.
//!
//! Layout: a header (magic `CA FE C0 C0`, byte order, version, used size, entry offset, entry
//! count), then entries (length, name offset, vector length, type, flags, units, variability,
//! data offset) whose names and values live inside the entry.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Counters of one JVM, by name (`long` counters only: all the memory ones are).
#[derive(Debug, Clone, Default)]
pub struct Counters {
    /// Values.
    pub longs: HashMap<String, i64>,
}

/// Why a perf data file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PerfError {
    /// Not a perf data file.
    #[error("not an hsperfdata file (bad magic)")]
    BadMagic,
    /// Shorter than its own header says.
    #[error("the hsperfdata file is shorter than its header says")]
    Truncated,
}

fn field<const N: usize>(b: &[u8], at: usize) -> Result<[u8; N], PerfError> {
    let s = b.get(at..at.checked_add(N).ok_or(PerfError::Truncated)?).ok_or(PerfError::Truncated)?;
    let mut out = [0u8; N];
    out.copy_from_slice(s);
    Ok(out)
}

/// Parses the bytes of a perf data file.
pub fn parse(b: &[u8]) -> Result<Counters, PerfError> {
    if b.get(..4) != Some(&[0xCA, 0xFE, 0xC0, 0xC0][..]) {
        return Err(PerfError::BadMagic);
    }
    let little = *b.get(4).ok_or(PerfError::Truncated)? == 1;
    let i4 = |at: usize| -> Result<i32, PerfError> {
        let a = field::<4>(b, at)?;
        Ok(if little { i32::from_le_bytes(a) } else { i32::from_be_bytes(a) })
    };
    let i8 = |at: usize| -> Result<i64, PerfError> {
        let a = field::<8>(b, at)?;
        Ok(if little { i64::from_le_bytes(a) } else { i64::from_be_bytes(a) })
    };
    // Offsets are the file's own i32s: a negative one, or one past the end, is a file shorter
    // than its header says. Never cast to a position and added unchecked: -1 would be the
    // address space's last byte, and the next field past it an overflow (32 or 64 bits alike).
    let offset = |v: i32| usize::try_from(v).map_err(|_| PerfError::Truncated);
    let add = |a: usize, b: usize| a.checked_add(b).ok_or(PerfError::Truncated);
    let entries = i4(28)?.max(0) as usize;
    let mut counters = Counters::default();
    let mut at = offset(i4(24)?)?;
    for _ in 0..entries.min(100_000) {
        let len = i4(at)?;
        if len <= 0 {
            break;
        }
        let name_at = add(at, offset(i4(add(at, 4)?)?.max(0))?)?;
        let vector = i4(add(at, 8)?)?;
        let ty = *b.get(add(at, 12)?).ok_or(PerfError::Truncated)?;
        let data_at = add(at, offset(i4(add(at, 16)?)?.max(0))?)?;
        let name_end = b.get(name_at..).and_then(|s| s.iter().position(|&c| c == 0)).ok_or(PerfError::Truncated)?;
        let name = String::from_utf8_lossy(&b[name_at..name_at + name_end]).into_owned();
        if ty == b'J' && vector == 0 {
            counters.longs.insert(name, i8(data_at)?);
        }
        at = add(at, offset(len)?)?;
    }
    Ok(counters)
}

/// Where the JVM `pid` keeps its counters: `$TMPDIR`-independent `/tmp/hsperfdata_<user>/<pid>`,
/// whichever user's directory has it.
pub fn find(pid: u32) -> Option<PathBuf> {
    let entries = std::fs::read_dir("/tmp").ok()?;
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("hsperfdata_"))
        .map(|e| e.path().join(pid.to_string()))
        .find(|p| p.exists())
}

/// Every pid with a counters file in `/tmp/hsperfdata_*` (one pass over the directories, for
/// listing many processes; [`find`] is for one).
pub fn pids() -> std::collections::HashSet<u32> {
    let Ok(entries) = std::fs::read_dir("/tmp") else { return Default::default() };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("hsperfdata_"))
        .filter_map(|d| std::fs::read_dir(d.path()).ok())
        .flat_map(|files| files.flatten().filter_map(|f| f.file_name().to_str()?.parse().ok()))
        .collect()
}

/// The largest counters file read: HotSpot's is 32 KiB by default (`-XX:PerfDataMemorySize`),
/// rounded up to pages; this leaves room for any setting and none for a planted giant.
pub const MAX_PERF_DATA: u64 = 16 << 20;

/// Java heap use of a HotSpot JVM, as `jstat -gc` sums it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct JavaHeap {
    /// Eden + survivors + old generation, bytes.
    pub used: u64,
    /// The heap's maximum (`-Xmx`), bytes: young plus old for generational collectors, old's
    /// alone under G1 (which reports the whole heap for each).
    pub max: u64,
}

impl Counters {
    /// Reads the counters of the file at `path`, which must be what a JVM of user `owner` writes:
    /// a regular file (not a link: opened with `O_NOFOLLOW`; not a FIFO or a device: opened
    /// without blocking and checked before reading), owned by `owner`, at most
    /// [`MAX_PERF_DATA`] bytes. Anyone can create a directory `/tmp/hsperfdata_NAME`; a file
    /// there is trusted only when it is the target's own.
    pub fn read(path: &Path, owner: u32) -> std::io::Result<Result<Counters, PerfError>> {
        use std::io::Read;
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        let f = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path)?;
        let md = f.metadata()?;
        let refuse = |why: String| Err(std::io::Error::other(format!("{}: {why}", path.display())));
        if !md.is_file() {
            return refuse("not a regular file".into());
        }
        if md.uid() != owner {
            return refuse(format!("owned by uid {}, not the process's {owner}", md.uid()));
        }
        if md.len() > MAX_PERF_DATA {
            return refuse(format!("{} bytes, more than a JVM's counters ({MAX_PERF_DATA} at most)", md.len()));
        }
        let mut bytes = Vec::with_capacity(md.len() as usize);
        f.take(MAX_PERF_DATA).read_to_end(&mut bytes)?;
        Ok(parse(&bytes))
    }

    fn long(&self, name: &str) -> u64 {
        self.longs.get(name).copied().unwrap_or(0).max(0) as u64
    }

    /// The Java heap's use.
    pub fn java_heap(&self) -> Option<JavaHeap> {
        if !self.longs.contains_key("sun.gc.generation.1.space.0.maxCapacity") {
            return None;
        }
        let used = (0..3).map(|s| self.long(&format!("sun.gc.generation.0.space.{s}.used"))).sum::<u64>()
            + self.long("sun.gc.generation.1.space.0.used");
        // Generational collectors (Serial, Parallel) split the heap: young's maximum plus old's is
        // the heap's. G1 reports the whole heap as each generation's maximum: old's alone is it.
        let young = self.long("sun.gc.generation.0.maxCapacity");
        let old =
            self.long("sun.gc.generation.1.maxCapacity").max(self.long("sun.gc.generation.1.space.0.maxCapacity"));
        let max = if young >= old { old } else { young + old };
        Some(JavaHeap { used, max })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_other_files() {
        assert_eq!(parse(b"not perf data").err(), Some(PerfError::BadMagic));
        assert_eq!(parse(&[0xCA, 0xFE, 0xC0, 0xC0, 1]).err(), Some(PerfError::Truncated));
    }

    /// A header (little-endian) whose entries start at `entry_offset`, with one entry.
    fn header(entry_offset: i32) -> Vec<u8> {
        let mut b = vec![0xCA, 0xFE, 0xC0, 0xC0, 1];
        b.resize(24, 0);
        b.extend_from_slice(&entry_offset.to_le_bytes());
        b.extend_from_slice(&1i32.to_le_bytes());
        b
    }

    /// Offsets out of the file, negative or as far as an i32 goes, are a short file, not an
    /// overflow: a negative one cast to a position sits at the top of the address space, on a
    /// 32-bit build as on a 64-bit one.
    #[test]
    fn offsets_past_the_file_are_truncation() {
        for entry_offset in [-1, -8, i32::MIN, i32::MAX] {
            assert_eq!(parse(&header(entry_offset)).err(), Some(PerfError::Truncated), "{entry_offset}");
        }
        // One entry at 32: its name and data as far away as an i32 says.
        let mut b = header(32);
        for v in [64, i32::MAX, 0, 0x4a, i32::MAX] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.resize(96, 0);
        assert_eq!(parse(&b).err(), Some(PerfError::Truncated));
    }

    /// A FIFO (which would block a plain read forever), a link to `/dev/zero` (endless), another
    /// user's file and an oversized one are refused at once, without reading them.
    #[test]
    fn only_the_processes_own_regular_file_is_read() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let me = std::fs::metadata(dir.path()).unwrap().uid();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(Counters::read(&fifo, me).unwrap_err().to_string().contains("not a regular file"));
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(Counters::read(&zero, me).is_err());
        let big = dir.path().join("big");
        std::fs::File::create(&big).unwrap().set_len(MAX_PERF_DATA + 1).unwrap();
        assert!(Counters::read(&big, me).unwrap_err().to_string().contains("more than"));
        let small = dir.path().join("small");
        std::fs::write(&small, b"not perf data").unwrap();
        assert_eq!(Counters::read(&small, me).unwrap().err(), Some(PerfError::BadMagic));
        assert!(Counters::read(&small, me + 1).unwrap_err().to_string().contains("owned by uid"));
    }
}
