//! Record tags, sub-record tags and basic types of the HPROF format (SPEC.md §5).
//!
//! Sources: OpenJDK `heapDumper.cpp` (HotSpot), ART `runtime/hprof/hprof.cc` (Android additions).

/// Top-level records.
pub mod record {
    pub const STRING: u8 = 0x01;
    pub const LOAD_CLASS: u8 = 0x02;
    pub const UNLOAD_CLASS: u8 = 0x03;
    pub const STACK_FRAME: u8 = 0x04;
    pub const STACK_TRACE: u8 = 0x05;
    pub const ALLOC_SITES: u8 = 0x06;
    pub const HEAP_SUMMARY: u8 = 0x07;
    pub const START_THREAD: u8 = 0x0A;
    pub const END_THREAD: u8 = 0x0B;
    pub const HEAP_DUMP: u8 = 0x0C;
    pub const CPU_SAMPLES: u8 = 0x0D;
    pub const CONTROL_SETTINGS: u8 = 0x0E;
    pub const HEAP_DUMP_SEGMENT: u8 = 0x1C;
    pub const HEAP_DUMP_END: u8 = 0x2C;
}

/// Heap dump sub-records.
pub mod sub {
    pub const ROOT_UNKNOWN: u8 = 0xFF;
    pub const ROOT_JNI_GLOBAL: u8 = 0x01;
    pub const ROOT_JNI_LOCAL: u8 = 0x02;
    pub const ROOT_JAVA_FRAME: u8 = 0x03;
    pub const ROOT_NATIVE_STACK: u8 = 0x04;
    pub const ROOT_STICKY_CLASS: u8 = 0x05;
    pub const ROOT_THREAD_BLOCK: u8 = 0x06;
    pub const ROOT_MONITOR_USED: u8 = 0x07;
    pub const ROOT_THREAD_OBJECT: u8 = 0x08;
    pub const CLASS_DUMP: u8 = 0x20;
    pub const INSTANCE_DUMP: u8 = 0x21;
    pub const OBJECT_ARRAY_DUMP: u8 = 0x22;
    pub const PRIMITIVE_ARRAY_DUMP: u8 = 0x23;
    /// Android: every object after it belongs to the named heap.
    pub const HEAP_DUMP_INFO: u8 = 0xFE;
    pub const ROOT_INTERNED_STRING: u8 = 0x89;
    pub const ROOT_FINALIZING: u8 = 0x8A;
    pub const ROOT_DEBUGGER: u8 = 0x8B;
    pub const ROOT_REFERENCE_CLEANUP: u8 = 0x8C;
    pub const ROOT_VM_INTERNAL: u8 = 0x8D;
    pub const ROOT_JNI_MONITOR: u8 = 0x8E;
    /// Android: an object the runtime knows to be unreachable.
    pub const UNREACHABLE: u8 = 0x90;
    /// Android: a primitive array header without its values.
    pub const PRIMITIVE_ARRAY_NODATA: u8 = 0xC3;
}

/// A field, static or array element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BasicType {
    Object,
    Boolean,
    Char,
    Float,
    Double,
    Byte,
    Short,
    Int,
    Long,
}

impl BasicType {
    /// The type for an HPROF type code, if valid.
    pub fn from_code(code: u8) -> Option<BasicType> {
        Some(match code {
            2 => BasicType::Object,
            4 => BasicType::Boolean,
            5 => BasicType::Char,
            6 => BasicType::Float,
            7 => BasicType::Double,
            8 => BasicType::Byte,
            9 => BasicType::Short,
            10 => BasicType::Int,
            11 => BasicType::Long,
            _ => return None,
        })
    }

    /// The HPROF type code.
    pub fn code(self) -> u8 {
        match self {
            BasicType::Object => 2,
            BasicType::Boolean => 4,
            BasicType::Char => 5,
            BasicType::Float => 6,
            BasicType::Double => 7,
            BasicType::Byte => 8,
            BasicType::Short => 9,
            BasicType::Int => 10,
            BasicType::Long => 11,
        }
    }

    /// Bytes a value takes in the file (`id_size` for references).
    pub fn size(self, id_size: u32) -> u32 {
        match self {
            BasicType::Object => id_size,
            BasicType::Boolean | BasicType::Byte => 1,
            BasicType::Char | BasicType::Short => 2,
            BasicType::Float | BasicType::Int => 4,
            BasicType::Double | BasicType::Long => 8,
        }
    }

    /// The Java source name (`int`, `boolean`...; `Object` for references).
    pub fn java_name(self) -> &'static str {
        match self {
            BasicType::Object => "Object",
            BasicType::Boolean => "boolean",
            BasicType::Char => "char",
            BasicType::Float => "float",
            BasicType::Double => "double",
            BasicType::Byte => "byte",
            BasicType::Short => "short",
            BasicType::Int => "int",
            BasicType::Long => "long",
        }
    }

    /// The JVM descriptor letter (`I`, `Z`...).
    pub fn descriptor(self) -> char {
        match self {
            BasicType::Object => 'L',
            BasicType::Boolean => 'Z',
            BasicType::Char => 'C',
            BasicType::Float => 'F',
            BasicType::Double => 'D',
            BasicType::Byte => 'B',
            BasicType::Short => 'S',
            BasicType::Int => 'I',
            BasicType::Long => 'J',
        }
    }

    /// All primitive types, in code order.
    pub const PRIMITIVES: [BasicType; 8] = [
        BasicType::Boolean,
        BasicType::Char,
        BasicType::Float,
        BasicType::Double,
        BasicType::Byte,
        BasicType::Short,
        BasicType::Int,
        BasicType::Long,
    ];
}

/// A readable name for a top-level record tag.
pub fn record_name(tag: u8) -> &'static str {
    match tag {
        record::STRING => "STRING",
        record::LOAD_CLASS => "LOAD CLASS",
        record::UNLOAD_CLASS => "UNLOAD CLASS",
        record::STACK_FRAME => "STACK FRAME",
        record::STACK_TRACE => "STACK TRACE",
        record::ALLOC_SITES => "ALLOC SITES",
        record::HEAP_SUMMARY => "HEAP SUMMARY",
        record::START_THREAD => "START THREAD",
        record::END_THREAD => "END THREAD",
        record::HEAP_DUMP => "HEAP DUMP",
        record::CPU_SAMPLES => "CPU SAMPLES",
        record::CONTROL_SETTINGS => "CONTROL SETTINGS",
        record::HEAP_DUMP_SEGMENT => "HEAP DUMP SEGMENT",
        record::HEAP_DUMP_END => "HEAP DUMP END",
        _ => "unknown record",
    }
}

/// A readable name for a heap sub-record tag.
pub fn sub_record_name(tag: u8) -> &'static str {
    match tag {
        sub::ROOT_UNKNOWN => "ROOT UNKNOWN",
        sub::ROOT_JNI_GLOBAL => "ROOT JNI GLOBAL",
        sub::ROOT_JNI_LOCAL => "ROOT JNI LOCAL",
        sub::ROOT_JAVA_FRAME => "ROOT JAVA FRAME",
        sub::ROOT_NATIVE_STACK => "ROOT NATIVE STACK",
        sub::ROOT_STICKY_CLASS => "ROOT STICKY CLASS",
        sub::ROOT_THREAD_BLOCK => "ROOT THREAD BLOCK",
        sub::ROOT_MONITOR_USED => "ROOT MONITOR USED",
        sub::ROOT_THREAD_OBJECT => "ROOT THREAD OBJECT",
        sub::CLASS_DUMP => "CLASS DUMP",
        sub::INSTANCE_DUMP => "INSTANCE DUMP",
        sub::OBJECT_ARRAY_DUMP => "OBJECT ARRAY DUMP",
        sub::PRIMITIVE_ARRAY_DUMP => "PRIMITIVE ARRAY DUMP",
        sub::HEAP_DUMP_INFO => "HEAP DUMP INFO",
        sub::ROOT_INTERNED_STRING => "ROOT INTERNED STRING",
        sub::ROOT_FINALIZING => "ROOT FINALIZING",
        sub::ROOT_DEBUGGER => "ROOT DEBUGGER",
        sub::ROOT_REFERENCE_CLEANUP => "ROOT REFERENCE CLEANUP",
        sub::ROOT_VM_INTERNAL => "ROOT VM INTERNAL",
        sub::ROOT_JNI_MONITOR => "ROOT JNI MONITOR",
        sub::UNREACHABLE => "UNREACHABLE",
        sub::PRIMITIVE_ARRAY_NODATA => "PRIMITIVE ARRAY NODATA",
        _ => "unknown sub-record",
    }
}

/// Reads back record counts keyed by [`record_name`] (names outside it count as unknown).
pub(crate) fn deserialize_record_counts<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<std::collections::BTreeMap<&'static str, u64>, D::Error> {
    let named: std::collections::BTreeMap<String, u64> = serde::Deserialize::deserialize(d)?;
    let mut out = std::collections::BTreeMap::new();
    for (name, n) in named {
        let known = (0..=u8::MAX).map(record_name).find(|k| *k == name).unwrap_or("unknown record");
        let e = out.entry(known).or_default();
        *e = u64::saturating_add(*e, n);
    }
    Ok(out)
}
