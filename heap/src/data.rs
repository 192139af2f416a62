//! The bytes of a dump: a memory map of the file, or a buffer for compressed input.

use std::fs::File;
use std::io::Read;
use std::ops::Deref;
use std::path::Path;

use memmap2::Mmap;

use crate::error::{Error, ErrorKind, Result};

/// The dump's bytes.
pub enum Data {
    /// A read-only memory map.
    ///
    /// # Safety contract
    /// The file must not change while it is mapped: if another process truncates it, reading the
    /// lost pages raises SIGBUS. Dumps are written once and then only read, and heaptui writes its
    /// own outputs to a temporary name and renames them, so it never changes a mapped file itself.
    Mapped(Mmap),
    /// Bytes held in memory (decompressed input, tests).
    Owned(Vec<u8>),
}

impl Deref for Data {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Data::Mapped(m) => m,
            Data::Owned(v) => v,
        }
    }
}

fn io_error(path: &Path, what: &str, e: std::io::Error) -> Error {
    Error::new(0, ErrorKind::Io(format!("cannot {what} {}: {e}", path.display())))
}

impl Data {
    /// Gives the pages of `range` back: they leave this process's resident set, and the next read
    /// maps them again from the page cache (a minor fault, no I/O while the kernel keeps them).
    /// The passes over a dump call this behind them, so the process holds the index and a window
    /// of the file rather than every page it has read.
    pub fn release(&self, range: std::ops::Range<usize>) {
        let Data::Mapped(m) = self else { return };
        // 64 KiB is a multiple of every page size Linux uses (4, 16, 64 KiB), and the map starts
        // on a page: an offset rounded down to it is page-aligned.
        let start = range.start & !0xffff;
        let end = range.end.min(m.len());
        if end > start {
            // SAFETY: the map is read-only and shared, and the file does not change while mapped
            // (the contract on `Data::Mapped`): dropped pages read back the same bytes, so slices
            // borrowed from the map stay valid and unchanged. Failure only leaves pages resident.
            let _ = unsafe { m.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start) };
        }
    }

    /// [`release`](Data::release) of the pages of `part`, a stretch of this dump's bytes (a
    /// stretch borrowed from elsewhere is left alone).
    pub fn release_part(&self, part: &[u8]) {
        let start = (part.as_ptr() as usize).wrapping_sub(self.as_ptr() as usize);
        if start <= self.len() && part.len() <= self.len() - start {
            self.release(start..start + part.len());
        }
    }

    /// [`release`](Data::release) of the whole dump, and the allocator's free memory back to
    /// the kernel too: glibc keeps what a phase freed in its arenas (its mmap threshold grows
    /// with the large arrays freed before), which a long-lived process would carry to its end.
    pub fn release_all(&self) {
        self.release(0..self.len());
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: malloc_trim only returns free memory of the allocator to the kernel.
        unsafe {
            libc::malloc_trim(0);
        }
        crate::alloc::release();
    }

    /// Maps the file at `path`; a gzip or zstd file (a dump someone compressed, or a stripped
    /// dump written with `--zstd`) is decompressed into an unnamed temporary file, which is mapped
    /// (see [`Data::decompress`]).
    pub fn open(path: &Path) -> Result<Data> {
        let file = File::open(path).map_err(|e| io_error(path, "open", e))?;
        let meta = file.metadata().map_err(|e| io_error(path, "stat", e))?;
        if meta.is_dir() {
            return Err(Error::new(0, ErrorKind::Io(format!("{} is a directory, not a heap dump", path.display()))));
        }
        if meta.len() == 0 {
            return Ok(Data::Owned(Vec::new()));
        }
        // SAFETY: see the contract on `Data::Mapped`.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| io_error(path, "map", e))?;
        if map.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            #[cfg(feature = "zstd")]
            {
                let d =
                    zstd::stream::read::Decoder::new(&map[..]).map_err(|e| io_error(path, "decompress (zstd)", e))?;
                return Data::decompress(path, "zstd", map.len() as u64, d);
            }
            #[cfg(not(feature = "zstd"))]
            return Err(io_error(path, "read", std::io::Error::other("a zstd file (this build reads no zstd)")));
        }
        if map.starts_with(&[0x1f, 0x8b]) {
            let d = flate2::read::MultiGzDecoder::new(&map[..]);
            return Data::decompress(path, "gzip", map.len() as u64, d);
        }
        Ok(Data::Mapped(map))
    }

    /// Decompresses `reader` (the `compressed`-byte file at `path`, in format `how`) into an
    /// unnamed temporary file beside it (else in `TMPDIR`), created exclusively and gone when
    /// closed, and maps it: the dump costs disk and page cache, not the process's memory. The
    /// first bytes must be an HPROF header, checked before anything more is decompressed, and the
    /// output may be at most [`max_expansion`] times the input.
    pub fn decompress(path: &Path, how: &str, compressed: u64, mut reader: impl Read) -> Result<Data> {
        let what = format!("decompress ({how})");
        let fail = |e: std::io::Error| io_error(path, &what, e);
        let ratio = max_expansion();
        let limit = compressed.saturating_mul(ratio).max(1 << 20);
        let mut head = [0u8; 13];
        let mut got = 0;
        while got < head.len() {
            match reader.read(&mut head[got..]).map_err(fail)? {
                0 => break,
                n => got += n,
            }
        }
        if &head[..got] != b"JAVA PROFILE ".as_slice() {
            return Err(Error::new(0, ErrorKind::NotHprof));
        }
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let mut out = tempfile::tempfile_in(dir).or_else(|_| tempfile::tempfile()).map_err(fail)?;
        use std::io::Write;
        out.write_all(&head).map_err(fail)?;
        // One byte past the bound is enough to know it is passed.
        let room = limit.saturating_sub(head.len() as u64);
        let copied = std::io::copy(&mut reader.take(room.saturating_add(1)), &mut out).map_err(fail)?;
        if copied > room {
            return Err(fail(std::io::Error::other(format!(
                "it expands past {ratio} times its size ({limit} bytes): set HEAPTUI_MAX_EXPANSION to a larger ratio to open it"
            ))));
        }
        // SAFETY: the file is ours alone (unnamed), and nothing writes it while mapped.
        let map = unsafe { Mmap::map(&out) }.map_err(|e| io_error(path, "map the decompressed dump", e))?;
        Ok(Data::Mapped(map))
    }
}

/// How many times its size a compressed dump may expand to: `HEAPTUI_MAX_EXPANSION`, else
/// [`MAX_EXPANSION`].
pub fn max_expansion() -> u64 {
    std::env::var("HEAPTUI_MAX_EXPANSION").ok().and_then(|v| v.parse().ok()).filter(|&r| r > 0).unwrap_or(MAX_EXPANSION)
}

/// The most a compressed dump may expand by default, as a multiple of its size. HPROF dumps
/// compress 3 to 20 times with gzip or zstd (ids and zeroed arrays); a file that expands 200
/// times is a bomb or a dump of zeros.
pub const MAX_EXPANSION: u64 = 200;
