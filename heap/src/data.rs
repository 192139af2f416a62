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
    /// output is bounded as [`crate::expand`] says (the file system's free space less a margin,
    /// and a ratio far above real dumps').
    pub fn decompress(path: &Path, how: &str, compressed: u64, mut reader: impl Read) -> Result<Data> {
        let what = format!("decompress ({how})");
        let fail = |e: std::io::Error| io_error(path, &what, e);
        // The header and the first record's tag, checked before anything more is written: a
        // file of zeros behind a header stops here.
        use crate::spec::{header, record};
        let mut head = [0u8; header::LEN + 1];
        let mut got = 0;
        while got < head.len() {
            match reader.read(&mut head[got..]).map_err(fail)? {
                0 => break,
                n => got += n,
            }
        }
        if got < 13 || &head[..13] != b"JAVA PROFILE " {
            return Err(Error::new(0, ErrorKind::NotHprof));
        }
        if got > header::VERSION_LEN && !(head.starts_with(header::PREFIX) && head[header::VERSION_LEN - 1] == 0) {
            return Err(Error::new(0, ErrorKind::NotHprof));
        }
        if got == head.len() {
            let known = [
                record::STRING,
                record::LOAD_CLASS,
                record::UNLOAD_CLASS,
                record::STACK_FRAME,
                record::STACK_TRACE,
                record::ALLOC_SITES,
                record::HEAP_SUMMARY,
                record::START_THREAD,
                record::END_THREAD,
                record::HEAP_DUMP,
                record::CPU_SAMPLES,
                record::CONTROL_SETTINGS,
                record::HEAP_DUMP_SEGMENT,
                record::HEAP_DUMP_END,
            ];
            let tag = head[header::LEN];
            if !known.contains(&tag) {
                return Err(fail(std::io::Error::other(format!(
                    "its first record (byte {}, decompressed) has tag {tag:#04x}, which no HPROF record has",
                    header::LEN
                ))));
            }
        }
        let head = &head[..got];
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let (mut out, at) = match tempfile::tempfile_in(dir) {
            Ok(f) => (f, dir.to_path_buf()),
            Err(_) => (tempfile::tempfile().map_err(fail)?, std::env::temp_dir()),
        };
        let budget = crate::expand::Budget::for_input(compressed, crate::expand::Space::of_file(&out, &at));
        use std::io::Write;
        out.write_all(head).map_err(fail)?;
        // One byte past the bound is enough to know it is passed.
        let room = budget.limit.saturating_sub(head.len() as u64);
        let copied = std::io::copy(&mut reader.take(room.saturating_add(1)), &mut out).map_err(fail)?;
        if copied > room {
            return Err(fail(std::io::Error::other(budget.exceeded())));
        }
        // SAFETY: the file is ours alone (unnamed), and nothing writes it while mapped.
        let map = unsafe { Mmap::map(&out) }.map_err(|e| io_error(path, "map the decompressed dump", e))?;
        Ok(Data::Mapped(map))
    }

    /// Maps the file at `path` as it is (nothing decompressed): a trace, read a packet at a time.
    pub fn map_raw(path: &Path) -> Result<Data> {
        let file = File::open(path).map_err(|e| io_error(path, "open", e))?;
        let meta = file.metadata().map_err(|e| io_error(path, "stat", e))?;
        if !meta.is_file() {
            return Err(Error::new(0, ErrorKind::Io(format!("{} is not a regular file", path.display()))));
        }
        if meta.len() == 0 {
            return Ok(Data::Owned(Vec::new()));
        }
        // SAFETY: see the contract on `Data::Mapped`.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| io_error(path, "map", e))?;
        Ok(Data::Mapped(map))
    }
}
