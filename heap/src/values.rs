//! Reading objects: field values, array elements and `java.lang.String` contents.

use crate::hprof::cursor::read_id;
use crate::hprof::{BasicType, SubRecord};
use crate::index::classes::ClassId;
use crate::index::{Index, Node};

/// A field or array element value.
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(missing_docs)]
pub enum Value {
    /// A reference; 0 is null.
    Object(u64),
    Boolean(bool),
    Char(u16),
    Float(f32),
    Double(f64),
    Byte(i8),
    Short(i16),
    Int(i32),
    Long(i64),
}

impl Value {
    /// Decodes a value of type `ty` from the start of `b` (big-endian, as HPROF stores it).
    pub fn read(ty: BasicType, b: &[u8], id_size: u32) -> Option<Value> {
        let n = ty.size(id_size) as usize;
        let b = b.get(..n)?;
        let mut raw = 0u64;
        for &x in b {
            raw = (raw << 8) | u64::from(x);
        }
        Some(Value::from_raw(ty, raw))
    }

    /// A value from its raw big-endian bits.
    pub fn from_raw(ty: BasicType, raw: u64) -> Value {
        match ty {
            BasicType::Object => Value::Object(raw),
            BasicType::Boolean => Value::Boolean(raw != 0),
            BasicType::Char => Value::Char(raw as u16),
            BasicType::Float => Value::Float(f32::from_bits(raw as u32)),
            BasicType::Double => Value::Double(f64::from_bits(raw)),
            BasicType::Byte => Value::Byte(raw as u8 as i8),
            BasicType::Short => Value::Short(raw as u16 as i16),
            BasicType::Int => Value::Int(raw as u32 as i32),
            BasicType::Long => Value::Long(raw as i64),
        }
    }

    /// The referenced id, if this is a non-null reference.
    pub fn as_object(self) -> Option<u64> {
        match self {
            Value::Object(0) => None,
            Value::Object(id) => Some(id),
            _ => None,
        }
    }

    /// An integer view of numeric values.
    pub fn as_i64(self) -> Option<i64> {
        Some(match self {
            Value::Boolean(b) => i64::from(b),
            Value::Char(c) => i64::from(c),
            Value::Byte(b) => i64::from(b),
            Value::Short(s) => i64::from(s),
            Value::Int(i) => i64::from(i),
            Value::Long(l) => l,
            _ => return None,
        })
    }

    /// As JSON: numbers, booleans, a one-character string for chars, `"0x..."` or null for references.
    pub fn to_json(self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Value::Object(0) => serde_json::Value::Null,
            Value::Object(id) => json!(format!("0x{id:x}")),
            Value::Boolean(b) => json!(b),
            Value::Char(c) => json!(char::from_u32(u32::from(c)).map_or(format!("\\u{c:04x}"), |c| c.to_string())),
            Value::Float(f) => json!(f),
            Value::Double(d) => json!(d),
            Value::Byte(b) => json!(b),
            Value::Short(s) => json!(s),
            Value::Int(i) => json!(i),
            Value::Long(l) => json!(l),
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Value::Object(0) => write!(f, "null"),
            Value::Object(id) => write!(f, "0x{id:x}"),
            Value::Boolean(b) => write!(f, "{b}"),
            Value::Char(c) => match char::from_u32(u32::from(c)) {
                Some(ch) if !crate::fmt::is_unsafe(ch) => write!(f, "'{ch}'"),
                _ => write!(f, "'\\u{c:04x}'"),
            },
            Value::Float(x) => write!(f, "{x}"),
            Value::Double(x) => write!(f, "{x}"),
            Value::Byte(x) => write!(f, "{x}"),
            Value::Short(x) => write!(f, "{x}"),
            Value::Int(x) => write!(f, "{x}"),
            Value::Long(x) => write!(f, "{x}"),
        }
    }
}

/// A field of an object with its value.
#[derive(Debug, Clone)]
pub struct FieldValue {
    /// Field name.
    pub name: String,
    /// Declared type.
    pub ty: BasicType,
    /// Value.
    pub value: Value,
    /// Whether this is a static field (of a class object).
    pub is_static: bool,
}

impl Index {
    /// Instance fields of an instance (own class first, then superclasses), or the static fields of a
    /// class object. Empty for arrays.
    pub fn fields(&self, n: Node) -> Vec<FieldValue> {
        let id_size = self.header.id_size;
        if let Some(ci) = self.as_class(n) {
            return self.classes[ci.index()]
                .statics
                .iter()
                .map(|s| FieldValue {
                    name: s.name.clone(),
                    ty: s.ty,
                    value: Value::from_raw(s.ty, s.raw),
                    is_static: true,
                })
                .collect();
        }
        let Ok(SubRecord::Instance { data, .. }) = self.record(n) else { return Vec::new() };
        self.class(n)
            .fields
            .iter()
            .filter_map(|f| {
                let v = Value::read(f.ty, data.get(f.offset as usize..)?, id_size)?;
                Some(FieldValue { name: f.name.clone(), ty: f.ty, value: v, is_static: false })
            })
            .collect()
    }

    /// The value of field `name` of instance `n` (the first match, own class first).
    pub fn field(&self, n: Node, name: &str) -> Option<Value> {
        // Hot in the leak rules and reports: read the one value, allocate nothing.
        if let Some(ci) = self.as_class(n) {
            let s = self.classes[ci.index()].statics.iter().find(|s| s.name == name)?;
            return Some(Value::from_raw(s.ty, s.raw));
        }
        let f = self.class(n).fields.iter().find(|f| f.name == name)?;
        let Ok(SubRecord::Instance { data, .. }) = self.record(n) else { return None };
        Value::read(f.ty, data.get(f.offset as usize..)?, self.header.id_size)
    }

    /// The node a reference field `name` of `n` points to.
    pub fn field_node(&self, n: Node, name: &str) -> Option<Node> {
        self.field(n, name)?.as_object().and_then(|id| self.node(id))
    }

    /// The value of static field `name` of class `class`.
    pub fn static_value(&self, class: ClassId, name: &str) -> Option<Value> {
        let s = self.classes.get(class.index())?.statics.iter().find(|s| s.name == name)?;
        Some(Value::from_raw(s.ty, s.raw))
    }

    /// The String that static `field` of the first class named `class` refers to.
    pub(crate) fn static_string(&self, class: &str, field: &str) -> Option<String> {
        let c = self.classes_named(class).next()?;
        let id = self.static_value(c, field)?.as_object()?;
        self.string_value(self.node(id)?)
    }

    /// Integer static `field` of the first class named `class`.
    pub(crate) fn static_int(&self, class: &str, field: &str) -> Option<i64> {
        let c = self.classes_named(class).next()?;
        self.static_value(c, field)?.as_i64()
    }

    /// Elements of an array: references or primitive values. `None` if `n` is not an array or its
    /// values were stripped.
    pub fn array_values(&self, n: Node) -> Option<Vec<Value>> {
        let id_size = self.header.id_size;
        match self.record(n).ok()? {
            SubRecord::ObjectArray { elements, .. } => {
                Some(elements.chunks_exact(id_size as usize).map(|b| Value::Object(read_id(b, id_size))).collect())
            }
            SubRecord::PrimitiveArray { elem, data: Some(data), .. } => {
                let sz = elem.size(id_size) as usize;
                Some(data.chunks_exact(sz).filter_map(|b| Value::read(elem, b, id_size)).collect())
            }
            _ => None,
        }
    }

    /// The raw bytes of a primitive array (big-endian values), if present.
    pub fn primitive_array_bytes(&self, n: Node) -> Option<(BasicType, &[u8])> {
        match self.record(n).ok()? {
            SubRecord::PrimitiveArray { elem, data: Some(data), .. } => Some((elem, data)),
            _ => None,
        }
    }

    /// The text of a `java.lang.String` instance, or of a `char[]`.
    ///
    /// Handles every layout in the field: `char[]` values (with JDK 6 `offset`/`count`), JDK 9+
    /// `byte[]` values with `coder` (0 Latin-1, 1 UTF-16 in the VM's byte order, little-endian on
    /// the machines that dump), and Android's separate `byte[]` for compressed strings. `None` when
    /// the String has no value array (ahat's RI.hprof has one) or the values were stripped.
    pub fn string_value(&self, n: Node) -> Option<String> {
        if let Some((BasicType::Char, bytes)) = self.primitive_array_bytes(n) {
            return Some(decode_utf16_be(bytes));
        }
        if self.class(n).name != "java.lang.String" {
            return None;
        }
        let get = |name: &str| self.field(n, name);
        let value = get("value")?.as_object().and_then(|id| self.node(id))?;
        let (elem, bytes) = self.primitive_array_bytes(value)?;
        match elem {
            BasicType::Char => {
                let chars = bytes.len() / 2;
                let (start, len) = match (get("offset").and_then(Value::as_i64), get("count").and_then(Value::as_i64)) {
                    (Some(o), Some(c)) if o >= 0 && c >= 0 && (o + c) as usize <= chars => (o as usize, c as usize),
                    _ => (0, chars),
                };
                Some(decode_utf16_be(&bytes[start * 2..(start + len) * 2]))
            }
            BasicType::Byte => {
                if get("coder").and_then(Value::as_i64) == Some(1) {
                    let units: Vec<u16> = bytes.chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]])).collect();
                    Some(String::from_utf16_lossy(&units))
                } else {
                    Some(bytes.iter().map(|&b| char::from(b)).collect())
                }
            }
            _ => None,
        }
    }
}

fn decode_utf16_be(bytes: &[u8]) -> String {
    let units: Vec<u16> = bytes.chunks_exact(2).map(|p| u16::from_be_bytes([p[0], p[1]])).collect();
    String::from_utf16_lossy(&units)
}
