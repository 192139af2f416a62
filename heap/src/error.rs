//! Errors of the engine: small values that say where in the file things went wrong.

use std::fmt;

use crate::spec::{record_name, sub_record_name};

/// A failure to read a dump, with the byte offset and the record it happened in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Byte offset in the file where the problem was found.
    pub offset: u64,
    /// Tag of the top-level record, when inside one.
    pub record: Option<u8>,
    /// Tag of the heap sub-record, when inside one.
    pub sub_record: Option<u8>,
    /// What went wrong.
    pub kind: ErrorKind,
}

/// What went wrong while reading a dump.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The data ends before a field or record that it announces.
    Truncated {
        /// Bytes the field needs.
        needed: u64,
        /// Bytes that are left.
        left: u64,
    },
    /// The file does not start with a `JAVA PROFILE 1.0.x` header.
    NotHprof,
    /// The header names an identifier size other than 4 or 8.
    BadIdSize(u32),
    /// A heap sub-record tag this reader does not know; the rest of the segment cannot be framed.
    UnknownSubRecord(u8),
    /// A field, static or array names a basic type code outside 2 and 4..=11.
    BadBasicType(u8),
    /// The file could not be read at all.
    Io(String),
    /// The dump holds more than the engine's compact columns index, or than the format's
    /// length fields hold.
    TooLarge(Limit),
}

/// A limit of the engine's compact columns, or of HPROF's 32-bit lengths, that a dump exceeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Limit {
    /// Objects lie past the first terabyte of the file (their offsets are kept in 40 bits).
    #[error("the dump is larger than this engine indexes (1 TB)")]
    FileSize,
    /// More classes than class numbers hold (24 bits).
    #[error("{0} classes: more than this engine indexes (16 M)")]
    Classes(u64),
    /// More references than the graph's 32-bit edge numbers hold.
    #[error("{0} references: more than this engine indexes (4 G)")]
    References(u64),
    /// A sub-record the rewriter would write longer than a segment's `u4` length holds.
    #[error("a sub-record larger than 4 GiB")]
    SubRecord,
    /// A heap dump record the rewriter would write longer than its `u4` length holds.
    #[error("a heap dump record over 4 GiB")]
    HeapDumpRecord,
    /// A STRING or LOAD CLASS record the rewriter gathers whole, longer than this build's
    /// memory addresses (a 32-bit build, and a length near 4 GiB).
    #[error("a name record larger than this build addresses")]
    NameRecord,
    /// NODATA arrays that would be written back with more zeros than the rewrite allows.
    #[error("its NODATA arrays declare more than {limit} bytes of values to write back as zeros")]
    Restored {
        /// The bound.
        limit: u64,
    },
    /// Class layouts that resolve, through their superclasses, to far more fields than the
    /// classes declare: many subclasses of a deep, wide class, which no VM writes and which would
    /// take memory out of all proportion to the dump.
    #[error(
        "class layouts resolve to more than {limit} inherited fields from {declared} declared ones: no VM writes classes this deep and wide"
    )]
    Layouts {
        /// Fields the classes declare.
        declared: u64,
        /// The most the layouts may resolve to.
        limit: u64,
    },
}

impl Error {
    pub(crate) fn new(offset: u64, kind: ErrorKind) -> Self {
        Error { offset, record: None, sub_record: None, kind }
    }

    /// The same error, noted as found inside the top-level record `tag`.
    pub fn in_record(mut self, tag: u8) -> Self {
        self.record.get_or_insert(tag);
        self
    }

    /// The same error, noted as found inside the heap sub-record `tag`.
    pub fn in_sub_record(mut self, tag: u8) -> Self {
        self.sub_record.get_or_insert(tag);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Truncated { needed, left } => {
                write!(f, "truncated ")?;
                self.fmt_where(f)?;
                write!(f, ": needs {needed} bytes, {left} left")
            }
            ErrorKind::NotHprof => {
                write!(f, "not an HPROF file: no \"JAVA PROFILE 1.0.x\" header at 0x{:x}", self.offset)
            }
            ErrorKind::BadIdSize(n) => {
                write!(f, "bad identifier size {n} in the header at 0x{:x} (must be 4 or 8)", self.offset)
            }
            ErrorKind::UnknownSubRecord(t) => {
                write!(f, "unknown heap sub-record tag 0x{t:02x}")?;
                if let Some(r) = self.record {
                    write!(f, " in {} (0x{r:02x})", record_name(r))?;
                }
                write!(f, " at 0x{:x}", self.offset)
            }
            ErrorKind::BadBasicType(t) => {
                write!(f, "bad basic type {t} ")?;
                self.fmt_where(f)
            }
            ErrorKind::Io(msg) => write!(f, "{msg}"),
            // Where a limit was met matters only for what one record says (a layout).
            ErrorKind::TooLarge(limit @ (Limit::Layouts { .. } | Limit::Restored { .. })) => {
                write!(f, "{limit}; met at ")?;
                self.fmt_where(f)
            }
            ErrorKind::TooLarge(limit) => write!(f, "{limit}"),
        }
    }
}

impl Error {
    fn fmt_where(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.record, self.sub_record) {
            (_, Some(s)) => write!(f, "{} (0x{s:02x})", sub_record_name(s))?,
            (Some(r), None) => write!(f, "{} (0x{r:02x})", record_name(r))?,
            (None, None) => write!(f, "data")?,
        }
        if let (Some(r), Some(_)) = (self.record, self.sub_record) {
            write!(f, " in {} (0x{r:02x})", record_name(r))?;
        }
        write!(f, " at 0x{:x}", self.offset)
    }
}

impl std::error::Error for Error {}

/// Results of the engine.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_say_what_is_too_large() {
        let text = |l: Limit| Error::new(0, ErrorKind::TooLarge(l)).in_record(0x1c).to_string();
        assert_eq!(text(Limit::FileSize), "the dump is larger than this engine indexes (1 TB)");
        assert_eq!(text(Limit::Classes(17_000_000)), "17000000 classes: more than this engine indexes (16 M)");
        assert_eq!(text(Limit::References(1 << 32)), "4294967296 references: more than this engine indexes (4 G)");
        assert_eq!(text(Limit::SubRecord), "a sub-record larger than 4 GiB");
        assert_eq!(text(Limit::NameRecord), "a name record larger than this build addresses");
    }
}
