//! The class table: names in Java source form, field layouts resolved through superclasses.

use crate::hprof::BasicType;
use crate::index::Node;

/// A class: its index in the class table ([`crate::Index::classes`]), as opposed to the id of
/// its class object in the file or the node of that object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
#[repr(transparent)]
pub struct ClassId(pub u32);

impl ClassId {
    /// The position in the class table, for indexing it (and lists kept like it).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

// SAFETY: a `repr(transparent)` wrapper of a `u32`: same layout, every bit pattern valid.
unsafe impl bytemuck::Zeroable for ClassId {}
// SAFETY: as above; no padding, no pointers.
unsafe impl bytemuck::Pod for ClassId {}

/// What a class's objects are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ClassKind {
    /// A plain class: its objects are INSTANCE DUMPs.
    Instance,
    /// An array of references (`java.lang.Object[]`).
    ObjectArray,
    /// An array of a primitive type (`int[]`).
    PrimitiveArray(BasicType),
}

/// How strongly a `java.lang.ref.Reference` subclass holds its `referent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    /// A normal reference.
    Strong,
    /// `SoftReference`.
    Soft,
    /// `FinalReference` / `Finalizer`.
    Finalizer,
    /// `WeakReference`.
    Weak,
    /// `PhantomReference` (and `Cleaner`).
    Phantom,
}

/// An instance field of a class, placed within the instance's field data.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Field {
    /// Name as written in the dump.
    pub name: String,
    /// Type.
    pub ty: BasicType,
    /// Byte offset of the value inside the INSTANCE DUMP's data.
    pub offset: u32,
    /// The class that declares it.
    pub declared_by: ClassId,
}

/// A static field with its value.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Static {
    /// Name.
    pub name: String,
    /// Type.
    pub ty: BasicType,
    /// The raw value (an id for references).
    pub raw: u64,
}

/// One class of the dump.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Class {
    /// Class object id; 0 for classes we made up (primitive arrays a dump does not describe).
    pub id: u64,
    /// Node of the class object, when the dump has one.
    pub node: Option<Node>,
    /// Name in Java source form (`java.lang.String`, `int[]`).
    pub name: String,
    /// Superclass.
    pub super_class: Option<ClassId>,
    /// Class loader object id (0 for the boot loader).
    pub loader: u64,
    /// Instance size the dumping VM declared.
    pub declared_instance_size: u32,
    /// What its objects are.
    pub kind: ClassKind,
    /// Instance fields, own first, then each superclass's (the order of INSTANCE DUMP data).
    pub fields: Vec<Field>,
    /// Number of fields the class itself declares (the first entries of `fields`).
    pub own_fields: usize,
    /// Static fields.
    pub statics: Vec<Static>,
    /// Bytes of field data an instance carries in the dump.
    pub data_size: u32,
    /// Offsets of reference fields in the data.
    pub ref_offsets: Vec<u32>,
    /// For `java.lang.ref.Reference` subclasses: offset of `referent` and how weakly it holds.
    pub referent: Option<(u32, Strength)>,
}

impl Class {
    /// Whether `self` is an array class.
    pub fn is_array(&self) -> bool {
        !matches!(self.kind, ClassKind::Instance)
    }
}

/// Turns a class name as dumped into Java source form.
///
/// HotSpot writes `java/lang/String`, `[I`, `[[Ljava/lang/Object;`; Android writes
/// `java.lang.String`, `int[]`. Both become `java.lang.String`, `int[]`, `java.lang.Object[][]`.
pub fn java_name(raw: &str) -> String {
    let dims = raw.bytes().take_while(|&b| b == b'[').count();
    if dims == 0 {
        return raw.replace('/', ".");
    }
    let rest = &raw[dims..];
    let base = match rest {
        "Z" => "boolean".to_string(),
        "C" => "char".to_string(),
        "F" => "float".to_string(),
        "D" => "double".to_string(),
        "B" => "byte".to_string(),
        "S" => "short".to_string(),
        "I" => "int".to_string(),
        "J" => "long".to_string(),
        _ if rest.starts_with('L') && rest.ends_with(';') && rest.len() >= 2 => {
            rest[1..rest.len() - 1].replace('/', ".")
        }
        _ => rest.replace('/', "."),
    };
    let mut out = base;
    for _ in 0..dims {
        out.push_str("[]");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::java_name;

    #[test]
    fn names_in_java_source_form() {
        assert_eq!(java_name("java/lang/String"), "java.lang.String");
        assert_eq!(java_name("[I"), "int[]");
        assert_eq!(java_name("[[Ljava/lang/Object;"), "java.lang.Object[][]");
        assert_eq!(java_name("[Ljava.lang.String;"), "java.lang.String[]");
        assert_eq!(java_name("java.lang.String[]"), "java.lang.String[]");
        assert_eq!(java_name("byte[][]"), "byte[][]");
    }
}
