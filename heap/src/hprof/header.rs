//! The file header: `JAVA PROFILE 1.0.x\0`, identifier size, timestamp.

use crate::error::{Error, ErrorKind, Result};

use super::cursor::Cursor;
use crate::spec::header::{ID_SIZE, PREFIX, VERSION_LEN};

/// The HPROF dialect named by the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Format {
    /// `JAVA PROFILE 1.0.1`: the old hprof agent and early HotSpot.
    #[serde(rename = "1.0.1")]
    V101,
    /// `JAVA PROFILE 1.0.2`: HotSpot with heap dump segments.
    #[serde(rename = "1.0.2")]
    V102,
    /// `JAVA PROFILE 1.0.3`: Android (ART/Dalvik) with heap info and extra roots.
    #[serde(rename = "1.0.3")]
    V103,
}

impl Format {
    /// The version text, e.g. `1.0.3`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::V101 => "1.0.1",
            Format::V102 => "1.0.2",
            Format::V103 => "1.0.3",
        }
    }

    /// Whether this is the Android dialect.
    pub fn is_android(self) -> bool {
        self == Format::V103
    }
}

/// The parsed header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Header {
    /// Dialect.
    pub format: Format,
    /// Identifier size in bytes: 4 or 8.
    pub id_size: u32,
    /// Milliseconds since the epoch when the dump was taken.
    pub timestamp_ms: u64,
    /// Offset of the first record.
    pub records_start: usize,
}

/// Reads the header at the start of `data`.
pub fn parse_header(data: &[u8]) -> Result<Header> {
    if !data.starts_with(PREFIX) {
        return Err(Error::new(0, ErrorKind::NotHprof));
    }
    let format = match data.get(PREFIX.len()..VERSION_LEN) {
        Some(b"1\0") => Format::V101,
        Some(b"2\0") => Format::V102,
        Some(b"3\0") => Format::V103,
        _ => return Err(Error::new(0, ErrorKind::NotHprof)),
    };
    let mut c = Cursor::new(data, ID_SIZE, 4);
    let id_size_at = c.pos() as u64;
    let id_size = c.u4()?;
    if id_size != 4 && id_size != 8 {
        return Err(Error::new(id_size_at, ErrorKind::BadIdSize(id_size)));
    }
    let timestamp_ms = c.u8()?;
    Ok(Header { format, id_size, timestamp_ms, records_start: c.pos() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_android_header() {
        let mut d = b"JAVA PROFILE 1.0.3\0".to_vec();
        d.extend_from_slice(&4u32.to_be_bytes());
        d.extend_from_slice(&1_700_000_000_123u64.to_be_bytes());
        let h = parse_header(&d).unwrap();
        assert_eq!(h.format, Format::V103);
        assert_eq!(h.id_size, 4);
        assert_eq!(h.timestamp_ms, 1_700_000_000_123);
        assert_eq!(h.records_start, 31);
    }

    #[test]
    fn rejects_text_and_bad_id_size() {
        assert_eq!(parse_header(b"#!/bin/sh\necho hi\n").unwrap_err().kind, ErrorKind::NotHprof);
        let mut d = b"JAVA PROFILE 1.0.2\0".to_vec();
        d.extend_from_slice(&6u32.to_be_bytes());
        d.extend_from_slice(&0u64.to_be_bytes());
        let e = parse_header(&d).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadIdSize(6));
        assert_eq!(e.offset, 19);
    }
}
