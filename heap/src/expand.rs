//! How far an input may expand: the one policy every reader that makes more bytes than it reads
//! follows (a `.gz` or `.zst` dump decompressed to disk, NODATA arrays restored as zeros, a
//! trace decoded into memory).
//!
//! - **On disk**, what is written is bounded by the free space of the file system it goes to,
//!   less a margin kept free ([`KEPT_FREE_PART`] of the file system, at most [`KEPT_FREE_MAX`]),
//!   and, as the last resort, by [`max_expansion`] times the input. Real heap dumps are mostly
//!   zeros: one of 522 MB gzips 560 times, and gzip cannot pass about 1,030 times at all, so the
//!   ratio stops only zstd bombs and is set far above real dumps.
//! - **In memory**, a trace is read a packet at a time and only the graph asked for is kept:
//!   what it holds is what that graph needs (see [`crate::perfetto`]); the same ratio bounds the
//!   bytes decoded, which bounds the time.
//!
//! A refusal says which bound stopped it and what would let the input through.

use std::path::{Path, PathBuf};

/// How many times its size a compressed input may expand to: `HEAPTUI_MAX_EXPANSION`, else
/// [`MAX_EXPANSION`].
pub fn max_expansion() -> u64 {
    std::env::var("HEAPTUI_MAX_EXPANSION").ok().and_then(|v| v.parse().ok()).filter(|&r| r > 0).unwrap_or(MAX_EXPANSION)
}

/// The most an input may expand by default, as a multiple of its size. gzip tops out near
/// 1,030 times; zstd passes 25,000 on zeros. The largest ratio measured on a real dump is 560
/// (a 522 MB HotSpot dump, gzip).
pub const MAX_EXPANSION: u64 = 10_000;

/// The share of a file system a write leaves free (one part in this many).
pub const KEPT_FREE_PART: u64 = 20;

/// The most a write leaves free for others on a large file system.
pub const KEPT_FREE_MAX: u64 = 2 << 30;

/// The space a file system offers a write: what is free for this user, less what is kept free.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Space {
    /// Where it was measured.
    pub dir: PathBuf,
    /// Bytes free for an unprivileged user.
    pub free: u64,
    /// Bytes left free for others.
    pub kept: u64,
}

impl Space {
    /// The space where `path` (a folder, or a file's folder) lives; `None` when it cannot be
    /// measured.
    pub fn at(path: &Path) -> Option<Space> {
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).ok()?;
        // SAFETY: statvfs fills the struct it is given; the path is NUL-terminated.
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        (unsafe { libc::statvfs(c.as_ptr(), &mut st) } == 0).then(|| Space::from_statvfs(path, &st))
    }

    /// The space of the file system holding the open file `file`.
    pub fn of_file(file: &std::fs::File, shown: &Path) -> Option<Space> {
        use std::os::fd::AsRawFd;
        // SAFETY: fstatvfs fills the struct it is given; the descriptor is open.
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        (unsafe { libc::fstatvfs(file.as_raw_fd(), &mut st) } == 0).then(|| Space::from_statvfs(shown, &st))
    }

    // The fields are 32-bit on 32-bit targets (the agent is built for them): the casts widen.
    #[allow(clippy::unnecessary_cast)]
    fn from_statvfs(path: &Path, st: &libc::statvfs) -> Space {
        let unit = st.f_frsize as u64;
        let total = (st.f_blocks as u64).saturating_mul(unit);
        Space {
            dir: path.to_path_buf(),
            free: (st.f_bavail as u64).saturating_mul(unit),
            kept: (total / KEPT_FREE_PART).min(KEPT_FREE_MAX),
        }
    }

    /// What a write may take.
    pub fn usable(&self) -> u64 {
        self.free.saturating_sub(self.kept)
    }
}

/// Why a write stops where it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bound {
    /// [`max_expansion`] times the input.
    Ratio {
        /// The ratio.
        ratio: u64,
        /// The input's size.
        input: u64,
    },
    /// The file system's free space less what is kept free.
    Space(Space),
    /// The bound the user set (`--max-output`).
    Asked,
}

/// The most bytes a write may produce, and which bound sets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// Bytes.
    pub limit: u64,
    /// The bound that sets it.
    pub bound: Bound,
}

impl Budget {
    /// The budget for expanding an `input`-byte file into `space` (unmeasured: the ratio alone).
    /// The ratio allows at least 1 MiB, so tiny inputs are never refused by it.
    pub fn for_input(input: u64, space: Option<Space>) -> Budget {
        let ratio = max_expansion();
        let by_ratio = Budget { limit: input.saturating_mul(ratio).max(1 << 20), bound: Bound::Ratio { ratio, input } };
        match space {
            Some(s) if s.usable() < by_ratio.limit => Budget { limit: s.usable(), bound: Bound::Space(s) },
            _ => by_ratio,
        }
    }

    /// Why an expansion that passed the budget was stopped, for a message: the bound, and what
    /// would let the input through.
    pub fn exceeded(&self) -> String {
        match &self.bound {
            Bound::Ratio { ratio, input } => format!(
                "it expands past {ratio} times its size (more than {} bytes from {input}): a real dump does not \
                 (560 times is the most measured); set HEAPTUI_MAX_EXPANSION above {ratio} to open it anyway",
                self.limit
            ),
            Bound::Space(s) => format!(
                "it expands past the {} bytes {} can take ({} free, {} kept free): free space there, or point \
                 TMPDIR at a larger file system",
                self.limit,
                s.dir.display(),
                s.free,
                s.kept
            ),
            Bound::Asked => format!("it expands past the {} bytes asked for", self.limit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tighter_bound_wins_and_says_so() {
        let space = Space { dir: "/x".into(), free: 10 << 30, kept: 1 << 30 };
        let b = Budget::for_input(1 << 20, Some(space.clone()));
        assert_eq!(b.limit, 9 << 30);
        assert!(matches!(b.bound, Bound::Space(_)));
        assert!(b.exceeded().contains("9663676416 bytes /x can take"), "{}", b.exceeded());
        let b = Budget::for_input(1000, Some(space));
        assert_eq!(b.limit, 1000 * MAX_EXPANSION);
        assert!(b.exceeded().contains("HEAPTUI_MAX_EXPANSION above 10000"), "{}", b.exceeded());
        // A tiny input may always take a MiB.
        assert_eq!(Budget::for_input(3, None).limit, 1 << 20);
    }

    #[test]
    fn a_file_system_keeps_its_margin() {
        let s = Space::at(Path::new("/")).unwrap();
        assert!(s.kept > 0 && s.kept <= KEPT_FREE_MAX);
        assert_eq!(s.usable(), s.free.saturating_sub(s.kept));
    }
}
