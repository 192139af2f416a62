//! A big-endian reader over a byte slice whose methods never panic.

use crate::error::{Error, ErrorKind, Result};

/// Reads big-endian numbers and identifiers from `data`, tracking the absolute file offset.
#[derive(Clone, Copy)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    id_size: u8,
}

impl<'a> Cursor<'a> {
    /// A cursor at `pos` in `data` (the whole file), reading identifiers of `id_size` bytes.
    pub fn new(data: &'a [u8], pos: usize, id_size: u32) -> Self {
        Cursor { data, pos, id_size: id_size as u8 }
    }

    /// The absolute offset of the next byte.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes left to read.
    pub fn left(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// The whole buffer this cursor reads.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Moves to absolute offset `pos`.
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Identifier size in bytes.
    pub fn id_size(&self) -> u32 {
        u32::from(self.id_size)
    }

    fn truncated(&self, needed: usize) -> Error {
        Error::new(self.pos as u64, ErrorKind::Truncated { needed: needed as u64, left: self.left() as u64 })
    }

    /// The next `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len()).ok_or_else(|| self.truncated(n))?;
        let out = &self.data[self.pos..end];
        self.pos = end;
        Ok(out)
    }

    /// Skips `n` bytes.
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.bytes(n).map(|_| ())
    }

    /// Skips to offset `field` of the record that starts at `start` (a [`crate::spec`] offset):
    /// the fields in between, which the caller does not need, in one step. A record cut short
    /// among them is reported from where the skip began. Never moves back.
    #[inline]
    pub fn skip_to(&mut self, start: usize, field: usize) -> Result<()> {
        self.skip(start.saturating_add(field).saturating_sub(self.pos))
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let b = self.bytes(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    /// One byte.
    #[inline]
    pub fn u1(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    /// A big-endian u16.
    #[inline]
    pub fn u2(&mut self) -> Result<u16> {
        Ok(u16::from_be_bytes(self.array()?))
    }

    /// A big-endian u32.
    #[inline]
    pub fn u4(&mut self) -> Result<u32> {
        Ok(u32::from_be_bytes(self.array()?))
    }

    /// A big-endian u64.
    #[inline]
    pub fn u8(&mut self) -> Result<u64> {
        Ok(u64::from_be_bytes(self.array()?))
    }

    /// An identifier, widened to u64.
    #[inline]
    pub fn id(&mut self) -> Result<u64> {
        if self.id_size == 4 {
            self.u4().map(u64::from)
        } else {
            self.u8()
        }
    }
}

/// Reads an identifier of `id_size` bytes from the start of `b` (which must be long enough).
#[inline]
pub fn read_id(b: &[u8], id_size: u32) -> u64 {
    if id_size == 4 {
        b.get(..4).map_or(0, |s| u64::from(u32::from_be_bytes([s[0], s[1], s[2], s[3]])))
    } else {
        b.get(..8).map_or(0, |s| u64::from_be_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_big_endian_and_reports_truncation_offset() {
        let data = [0, 1, 2, 3, 4, 5, 6];
        let mut c = Cursor::new(&data, 1, 4);
        assert_eq!(c.u2().unwrap(), 0x0102);
        assert_eq!(c.id().unwrap(), 0x03040506);
        let err = c.u1().unwrap_err();
        assert_eq!(err.offset, 7);
        assert_eq!(err.kind, ErrorKind::Truncated { needed: 1, left: 0 });
    }
}
