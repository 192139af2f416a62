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
    /// Maps the file at `path`; a gzip or zstd file (a dump someone compressed, or a stripped
    /// dump written with `--zstd`) is decompressed into memory.
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
                let mut out = Vec::new();
                zstd::stream::read::Decoder::new(&map[..])
                    .and_then(|mut d| d.read_to_end(&mut out))
                    .map_err(|e| io_error(path, "decompress (zstd)", e))?;
                return Ok(Data::Owned(out));
            }
            #[cfg(not(feature = "zstd"))]
            return Err(io_error(path, "read", std::io::Error::other("a zstd file (this build reads no zstd)")));
        }
        if map.starts_with(&[0x1f, 0x8b]) {
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(&map[..])
                .read_to_end(&mut out)
                .map_err(|e| io_error(path, "decompress (gzip)", e))?;
            return Ok(Data::Owned(out));
        }
        Ok(Data::Mapped(map))
    }
}
