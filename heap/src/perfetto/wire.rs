//! Protobuf's wire format, read a field at a time: a message's fields as they come, so a packet
//! of a million objects is walked object by object instead of decoded into a million structs
//! first (what one `HeapGraphObject` costs decoded, about 250 bytes, times the objects a 64 MiB
//! packet can hold, is gigabytes).

/// A field's value, as its wire type carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 1.
    Fixed64(u64),
    /// Wire type 2: bytes, a string, a message or packed values.
    Bytes(&'a [u8]),
    /// Wire type 5.
    Fixed32(u32),
}

impl<'a> Value<'a> {
    /// The value as an integer (varints and fixed values).
    pub fn int(self) -> Option<u64> {
        match self {
            Value::Varint(v) | Value::Fixed64(v) => Some(v),
            Value::Fixed32(v) => Some(u64::from(v)),
            Value::Bytes(_) => None,
        }
    }
}

/// A message's fields in the order they were written.
pub struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// Where a message's encoding is wrong: the byte (within the message) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    /// The offset within the message.
    pub at: usize,
    /// What is wrong.
    pub what: &'static str,
}

impl<'a> Fields<'a> {
    /// The fields of the message `bytes`.
    pub fn of(bytes: &'a [u8]) -> Fields<'a> {
        Fields { bytes, at: 0 }
    }

    fn varint(&mut self) -> Result<u64, WireError> {
        let start = self.at;
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&b) = self.bytes.get(self.at) else {
                return Err(WireError { at: start, what: "the message ends inside a varint" });
            };
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(WireError { at: start, what: "a varint longer than 10 bytes" })
    }

    fn fixed<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        let start = self.at;
        let b = self
            .bytes
            .get(self.at..self.at + N)
            .ok_or(WireError { at: start, what: "the message ends inside a fixed value" })?;
        self.at += N;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u32, Value<'a>), WireError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let start = self.at;
        let field = (|| {
            let key = self.varint()?;
            let number = key >> 3;
            if number == 0 || number > u64::from(u32::MAX >> 3) {
                return Err(WireError { at: start, what: "a field number out of range" });
            }
            let value = match key & 7 {
                0 => Value::Varint(self.varint()?),
                1 => Value::Fixed64(u64::from_le_bytes(self.fixed::<8>()?)),
                2 => {
                    let len = self.varint()?;
                    let end = usize::try_from(len)
                        .ok()
                        .and_then(|l| self.at.checked_add(l))
                        .filter(|&e| e <= self.bytes.len())
                        .ok_or(WireError { at: start, what: "a field longer than its message" })?;
                    let b = &self.bytes[self.at..end];
                    self.at = end;
                    Value::Bytes(b)
                }
                5 => Value::Fixed32(u32::from_le_bytes(self.fixed::<4>()?)),
                _ => return Err(WireError { at: start, what: "a group or an unknown wire type" }),
            };
            Ok((number as u32, value))
        })();
        if field.is_err() {
            // Nothing after an error is read.
            self.at = self.bytes.len();
        }
        Some(field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_come_in_order_and_errors_say_where() {
        // 1: varint 150; 2: "hi"; 3: fixed32 1.
        let bytes = [0x08, 0x96, 0x01, 0x12, 0x02, b'h', b'i', 0x1d, 1, 0, 0, 0];
        let got: Vec<_> = Fields::of(&bytes).collect::<Result<_, _>>().unwrap();
        assert_eq!(got, [(1, Value::Varint(150)), (2, Value::Bytes(b"hi")), (3, Value::Fixed32(1))]);
        // A length past the end.
        let bad = [0x08, 0x01, 0x12, 0x05, b'h'];
        let e = Fields::of(&bad).find_map(Result::err).unwrap();
        assert_eq!(e, WireError { at: 2, what: "a field longer than its message" });
        // A group.
        assert!(Fields::of(&[0x0b]).next().unwrap().is_err());
    }
}
