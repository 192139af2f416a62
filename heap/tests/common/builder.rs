//! Writes small HPROF files byte by byte (4-byte ids), for hand-built graphs and malformed input.

/// Basic type code of references.
pub const OBJ: u8 = 2;
/// Basic type code of `int`.
pub const INT: u8 = 10;
/// Basic type code of `boolean`.
pub const BOOL: u8 = 4;
/// Basic type code of `long`.
pub const LONG: u8 = 11;

/// Writes HPROF byte by byte (4-byte ids).
pub struct Builder {
    out: Vec<u8>,
    heap: Vec<u8>,
}

impl Builder {
    pub fn new(version: &str) -> Builder {
        let mut out = format!("JAVA PROFILE {version}\0").into_bytes();
        out.extend_from_slice(&4u32.to_be_bytes());
        out.extend_from_slice(&0x0000_0190_0000_0000u64.to_be_bytes());
        Builder { out, heap: Vec::new() }
    }

    pub fn record(&mut self, tag: u8, body: &[u8]) -> &mut Self {
        self.out.push(tag);
        self.out.extend_from_slice(&0u32.to_be_bytes());
        self.out.extend_from_slice(&(body.len() as u32).to_be_bytes());
        self.out.extend_from_slice(body);
        self
    }

    pub fn string(&mut self, id: u32, s: &str) -> &mut Self {
        let mut b = id.to_be_bytes().to_vec();
        b.extend_from_slice(s.as_bytes());
        self.record(0x01, &b)
    }

    /// LOAD CLASS plus CLASS DUMP; the name string gets id `class_id + 1`.
    pub fn class(&mut self, id: u32, name: &str, super_id: u32, fields: &[(u32, u8)]) -> &mut Self {
        self.class_loaded_by(id, name, super_id, 0, fields)
    }

    /// As [`Builder::class`], defined by class loader object `loader` (an app's class).
    pub fn class_loaded_by(
        &mut self,
        id: u32,
        name: &str,
        super_id: u32,
        loader: u32,
        fields: &[(u32, u8)],
    ) -> &mut Self {
        self.string(id + 1, name);
        let mut b = 1u32.to_be_bytes().to_vec();
        b.extend_from_slice(&id.to_be_bytes());
        b.extend_from_slice(&0u32.to_be_bytes());
        b.extend_from_slice(&(id + 1).to_be_bytes());
        self.record(0x02, &b);
        let h = &mut self.heap;
        h.push(0x20);
        h.extend_from_slice(&id.to_be_bytes());
        h.extend_from_slice(&0u32.to_be_bytes());
        h.extend_from_slice(&super_id.to_be_bytes());
        h.extend_from_slice(&loader.to_be_bytes());
        h.extend_from_slice(&[0; 16]); // signers, domain, 2 reserved
        let size: u32 = fields
            .iter()
            .map(|&(_, ty)| match ty {
                BOOL => 1,
                LONG => 8,
                _ => 4,
            })
            .sum();
        h.extend_from_slice(&size.to_be_bytes());
        h.extend_from_slice(&0u16.to_be_bytes());
        h.extend_from_slice(&0u16.to_be_bytes());
        h.extend_from_slice(&(fields.len() as u16).to_be_bytes());
        for &(name, ty) in fields {
            h.extend_from_slice(&name.to_be_bytes());
            h.push(ty);
        }
        self
    }

    /// An instance whose fields are all 4 bytes wide (references, ints).
    pub fn instance(&mut self, id: u32, class: u32, values: &[u32]) -> &mut Self {
        let data: Vec<u8> = values.iter().flat_map(|v| v.to_be_bytes()).collect();
        self.instance_raw(id, class, &data)
    }

    /// An instance whose field data is given as raw bytes.
    pub fn instance_raw(&mut self, id: u32, class: u32, data: &[u8]) -> &mut Self {
        let h = &mut self.heap;
        h.push(0x21);
        h.extend_from_slice(&id.to_be_bytes());
        h.extend_from_slice(&0u32.to_be_bytes());
        h.extend_from_slice(&class.to_be_bytes());
        h.extend_from_slice(&(data.len() as u32).to_be_bytes());
        h.extend_from_slice(data);
        self
    }

    /// A class with one static reference field `name_id` = `value` (LOAD CLASS and CLASS DUMP).
    pub fn class_with_static(
        &mut self,
        id: u32,
        name: &str,
        super_id: u32,
        fields: &[(u32, u8)],
        static_name: u32,
        value: u32,
    ) -> &mut Self {
        self.class_with_static_raw(id, name, super_id, fields, static_name, OBJ, &value.to_be_bytes())
    }

    /// A class with one static field of type `ty` holding `value` (big-endian bytes).
    #[allow(clippy::too_many_arguments)]
    pub fn class_with_static_raw(
        &mut self,
        id: u32,
        name: &str,
        super_id: u32,
        fields: &[(u32, u8)],
        static_name: u32,
        ty: u8,
        value: &[u8],
    ) -> &mut Self {
        self.class(id, name, super_id, fields);
        // Rewrite the CLASS DUMP just written: its statics count is the u16 before the fields count.
        let fields_len = 2 + fields.len() * 5;
        let at = self.heap.len() - fields_len - 2;
        let mut statics = 1u16.to_be_bytes().to_vec();
        statics.extend_from_slice(&static_name.to_be_bytes());
        statics.push(ty);
        statics.extend_from_slice(value);
        self.heap.splice(at..at + 2, statics);
        self
    }

    /// A primitive array of basic type `elem` (8 `byte`, 5 `char`...) holding `data` (big-endian
    /// values, `length` of them).
    pub fn primitive_array(&mut self, id: u32, elem: u8, length: u32, data: &[u8]) -> &mut Self {
        let h = &mut self.heap;
        h.push(0x23);
        h.extend_from_slice(&id.to_be_bytes());
        h.extend_from_slice(&0u32.to_be_bytes());
        h.extend_from_slice(&length.to_be_bytes());
        h.push(elem);
        h.extend_from_slice(data);
        self
    }

    /// An object array of class `class` holding `elements` (0 for null).
    pub fn object_array(&mut self, id: u32, class: u32, elements: &[u32]) -> &mut Self {
        let h = &mut self.heap;
        h.push(0x22);
        h.extend_from_slice(&id.to_be_bytes());
        h.extend_from_slice(&0u32.to_be_bytes());
        h.extend_from_slice(&(elements.len() as u32).to_be_bytes());
        h.extend_from_slice(&class.to_be_bytes());
        for e in elements {
            h.extend_from_slice(&e.to_be_bytes());
        }
        self
    }

    pub fn root(&mut self, id: u32) -> &mut Self {
        self.heap.push(0xFF);
        self.heap.extend_from_slice(&id.to_be_bytes());
        self
    }

    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        self.heap.extend_from_slice(bytes);
        self
    }

    pub fn finish(&mut self) -> Vec<u8> {
        let heap = std::mem::take(&mut self.heap);
        self.record(0x1C, &heap);
        self.record(0x2C, &[]);
        self.out.clone()
    }
}
