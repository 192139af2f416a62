//! Top-level records: `u1 tag, u4 time, u4 length, body`.

use crate::error::{Error, ErrorKind, Result};

use super::cursor::Cursor;
use super::tags::record;

/// A top-level record, borrowed from the file.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    /// Tag byte.
    pub tag: u8,
    /// Offset of the tag byte in the file.
    pub offset: usize,
    /// Offset of the body in the file.
    pub body_offset: usize,
    /// The body. Shorter than the declared length when the file is truncated.
    pub body: &'a [u8],
    /// Declared body length.
    pub declared_len: u32,
}

impl Record<'_> {
    /// Whether the file ended before the declared end of the body.
    pub fn is_truncated(&self) -> bool {
        (self.body.len() as u64) < u64::from(self.declared_len)
    }
}

/// Iterates the top-level records of a dump.
///
/// A record whose body runs past the end of the file is yielded once with the bytes that exist
/// (so a truncated heap dump still gives up its sound sub-records); iteration then ends.
pub struct Records<'a> {
    data: &'a [u8],
    pos: usize,
    done: bool,
}

impl<'a> Records<'a> {
    /// Records of `data` (the whole file) starting at `start` (after the header).
    pub fn new(data: &'a [u8], start: usize) -> Self {
        Records { data, pos: start, done: false }
    }

    /// The next record, `Ok(None)` at the end of the file.
    pub fn next_record(&mut self) -> Result<Option<Record<'a>>> {
        if self.done || self.pos >= self.data.len() {
            return Ok(None);
        }
        let offset = self.pos;
        let mut c = Cursor::new(self.data, offset, 4);
        let tag = c.u1()?;
        let head = (|| -> Result<u32> {
            c.u4()?;
            c.u4()
        })();
        let declared_len = match head {
            Ok(len) => len,
            Err(e) => {
                self.done = true;
                return Err(e.in_record(tag));
            }
        };
        let body_offset = c.pos();
        let end = body_offset.saturating_add(declared_len as usize);
        let body = if end <= self.data.len() {
            self.pos = end;
            &self.data[body_offset..end]
        } else {
            self.done = true;
            // Only heap dumps are worth reading in part; other records are all or nothing.
            if tag != record::HEAP_DUMP && tag != record::HEAP_DUMP_SEGMENT {
                let left = (self.data.len() - body_offset) as u64;
                return Err(Error::new(body_offset as u64, ErrorKind::Truncated { needed: declared_len.into(), left })
                    .in_record(tag));
            }
            &self.data[body_offset..]
        };
        Ok(Some(Record { tag, offset, body_offset, body, declared_len }))
    }
}
