//! The HPROF format's definitions, and nothing that reads them: record tags, heap dump
//! sub-record tags, Android heap types, basic types and their sizes, and where each field of a
//! record's head lies for a given identifier size (SPEC.md §5).
//!
//! Readers ([`crate::hprof`], [`crate::index`], [`crate::quick`]) and the rewriter
//! ([`crate::rewrite`]) frame records through these, so a layout is written down once.
//!
//! Sources: OpenJDK `src/hotspot/share/services/heapDumper.cpp` (HotSpot), ART
//! `runtime/hprof/hprof.cc` (Android additions), and the old agent's `hprof_b_spec.h`.

/// The file header: `JAVA PROFILE 1.0.x\0`, `u4` identifier size, `u8` milliseconds.
pub mod header {
    /// What every version string starts with; the version digit and a NUL follow.
    pub const PREFIX: &[u8] = b"JAVA PROFILE 1.0.";
    /// Length of the version string with its NUL (`JAVA PROFILE 1.0.3\0`).
    pub const VERSION_LEN: usize = PREFIX.len() + 2;
    /// Offset of the identifier size (`u4`).
    pub const ID_SIZE: usize = VERSION_LEN;
    /// Offset of the timestamp (`u8`, milliseconds since the epoch).
    pub const TIMESTAMP: usize = ID_SIZE + 4;
    /// Length of the whole header.
    pub const LEN: usize = TIMESTAMP + 8;
}

/// Top-level records: `u1 tag, u4 time, u4 length, body`.
#[allow(missing_docs)]
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

    /// Offset of the time (`u4`, microseconds since the header's timestamp).
    pub const TIME: usize = 1;
    /// Offset of the body length (`u4`).
    pub const LENGTH: usize = TIME + 4;
    /// Length of a record's head: tag, time, body length.
    pub const HEAD_LEN: usize = LENGTH + 4;

    /// STRING body: `id, modified UTF-8 text` (offsets from the body's start).
    pub mod string {
        /// Offset of the text, after the string's id.
        pub const fn text(id: usize) -> usize {
            id
        }
    }

    /// ALLOC SITES body (the old hprof agent), after its `u4` site count: each site is `u1`
    /// array type, `u4` class serial, `u4` stack serial, then four `u4` counts.
    pub mod alloc_sites {
        /// Length of one site.
        pub const SITE_LEN: usize = 1 + 6 * 4;
    }

    /// CPU SAMPLES body, after its `u4` trace count: each trace is `u4` samples, `u4` stack
    /// serial.
    pub mod cpu_samples {
        /// Length of one trace.
        pub const TRACE_LEN: usize = 4 + 4;
    }

    /// LOAD CLASS body: `u4 class serial, id class object, u4 stack serial, id name`
    /// (offsets from the body's start).
    pub mod load_class {
        /// Offset of the class object id.
        pub const CLASS_ID: usize = 4;
        /// Offset of the class name's string id.
        pub const fn name_id(id: usize) -> usize {
            CLASS_ID + id + 4
        }
        /// Length of the body.
        pub const fn len(id: usize) -> usize {
            name_id(id) + id
        }
    }
}

/// Heap dump sub-records: tags, and where the fields of each head lie for identifier size `id`.
///
/// Every sub-record starts with its `u1` tag; offsets below count from the tag.
#[allow(missing_docs)]
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

    /// Offset of the identifier every sub-record but HEAP DUMP INFO starts with (the object a
    /// root names, or the object dumped).
    pub const ID: usize = 1;

    /// Bytes a GC root holds after its tag and object id: for JNI GLOBAL the global reference's
    /// id; thread serial and frame number (JNI LOCAL, JAVA FRAME), thread serial and stack
    /// serial (THREAD OBJECT), thread serial and stack depth (ART's JNI MONITOR); a thread
    /// serial alone (NATIVE STACK, THREAD BLOCK). `None` when `tag` is not a root.
    #[inline(always)]
    pub const fn root_tail_len(tag: u8, id: usize) -> Option<usize> {
        Some(match tag {
            ROOT_UNKNOWN
            | ROOT_STICKY_CLASS
            | ROOT_MONITOR_USED
            | ROOT_INTERNED_STRING
            | ROOT_FINALIZING
            | ROOT_DEBUGGER
            | ROOT_REFERENCE_CLEANUP
            | ROOT_VM_INTERNAL
            | UNREACHABLE => 0,
            ROOT_JNI_GLOBAL => id,
            ROOT_JNI_LOCAL | ROOT_JAVA_FRAME | ROOT_THREAD_OBJECT | ROOT_JNI_MONITOR => 8,
            ROOT_NATIVE_STACK | ROOT_THREAD_BLOCK => 4,
            _ => return None,
        })
    }

    /// Length of the head of sub-record `tag`: the whole record for roots and HEAP DUMP INFO;
    /// for objects, everything before the values (whose length the head gives); for a CLASS
    /// DUMP, the fixed part before the constant pool count. `None` for a tag HPROF does not
    /// define.
    #[inline(always)]
    pub const fn head_len(tag: u8, id: usize) -> Option<usize> {
        Some(match tag {
            CLASS_DUMP => class_dump::constant_pool_count(id),
            INSTANCE_DUMP => instance::head_len(id),
            OBJECT_ARRAY_DUMP => object_array::head_len(id),
            PRIMITIVE_ARRAY_DUMP | PRIMITIVE_ARRAY_NODATA => primitive_array::head_len(id),
            HEAP_DUMP_INFO => heap_dump_info::LEN_WITHOUT_ID + id,
            _ => match root_tail_len(tag, id) {
                Some(tail) => ID + id + tail,
                None => return None,
            },
        })
    }

    /// INSTANCE DUMP: `id, u4 stack serial, id class, u4 length, values`.
    pub mod instance {
        use super::ID;

        /// Offset of the stack trace serial (`u4`).
        pub const fn stack_serial(id: usize) -> usize {
            ID + id
        }
        /// Offset of the class object id.
        pub const fn class_id(id: usize) -> usize {
            stack_serial(id) + 4
        }
        /// Offset of the values' length in bytes (`u4`).
        pub const fn length(id: usize) -> usize {
            class_id(id) + id
        }
        /// Offset of the values: own class's fields first, then each superclass's.
        pub const fn head_len(id: usize) -> usize {
            length(id) + 4
        }
    }

    /// OBJECT ARRAY DUMP: `id, u4 stack serial, u4 length, id array class, length × id`.
    pub mod object_array {
        use super::ID;

        /// Offset of the stack trace serial (`u4`).
        pub const fn stack_serial(id: usize) -> usize {
            ID + id
        }
        /// Offset of the element count (`u4`).
        pub const fn length(id: usize) -> usize {
            stack_serial(id) + 4
        }
        /// Offset of the array class object id.
        pub const fn class_id(id: usize) -> usize {
            length(id) + 4
        }
        /// Offset of the elements.
        pub const fn head_len(id: usize) -> usize {
            class_id(id) + id
        }
    }

    /// PRIMITIVE ARRAY DUMP (and Android's NODATA, the same head without the values):
    /// `id, u4 stack serial, u4 length, u1 element type, length × element size`.
    pub mod primitive_array {
        use super::ID;

        /// Offset of the stack trace serial (`u4`).
        pub const fn stack_serial(id: usize) -> usize {
            ID + id
        }
        /// Offset of the element count (`u4`).
        pub const fn length(id: usize) -> usize {
            stack_serial(id) + 4
        }
        /// Offset of the element's basic type code (`u1`).
        pub const fn elem_type(id: usize) -> usize {
            length(id) + 4
        }
        /// Offset of the values.
        pub const fn head_len(id: usize) -> usize {
            elem_type(id) + 1
        }
    }

    /// HEAP DUMP INFO (Android): `u4 heap type, id heap name`.
    pub mod heap_dump_info {
        /// Offset of the heap type (`u4`, one of [`crate::spec::heap_type`]).
        pub const HEAP_TYPE: usize = 1;
        /// Offset of the heap name's string id.
        pub const NAME_ID: usize = HEAP_TYPE + 4;
        /// The record's length less its one identifier.
        pub const LEN_WITHOUT_ID: usize = NAME_ID;
    }

    /// CLASS DUMP: `id, u4 stack serial, id super, id loader, id signers, id protection
    /// domain, id reserved, id reserved, u4 instance size`, then three counted lists:
    /// constants (`u2 index, u1 type, value`), statics (`id name, u1 type, value`) and
    /// instance fields (`id name, u1 type`), each after its `u2` count.
    pub mod class_dump {
        use super::ID;

        /// Offset of the superclass object id.
        pub const fn super_id(id: usize) -> usize {
            ID + id + 4
        }
        /// Offset of the declared instance size (`u4`), after the loader, signers, protection
        /// domain and two reserved ids.
        pub const fn instance_size(id: usize) -> usize {
            super_id(id) + 6 * id
        }
        /// Offset of the constant pool's entry count (`u2`): the end of the fixed part.
        pub const fn constant_pool_count(id: usize) -> usize {
            instance_size(id) + 4
        }
        /// Bytes of a constant pool entry before its value: `u2` pool index, `u1` type.
        pub const CONSTANT_HEAD: usize = 3;
        /// Bytes of a static field before its value: name id, `u1` type.
        pub const fn static_head(id: usize) -> usize {
            id + 1
        }
        /// Bytes of an instance field declaration: name id, `u1` type.
        pub const fn field_len(id: usize) -> usize {
            id + 1
        }
        /// Bytes of a list's entry count.
        pub const COUNT_LEN: usize = 2;
    }
}

/// Android heap types, named by HEAP DUMP INFO (ART `hprof.cc`, `HprofHeapId`).
pub mod heap_type {
    /// Objects not in any heap HEAP DUMP INFO names (HotSpot's one heap).
    pub const DEFAULT: u32 = 0;
    /// `'A'`: the app's own heap.
    pub const APP: u32 = 0x41;
    /// `'I'`: the boot image, mapped from the file.
    pub const IMAGE: u32 = 0x49;
    /// `'Z'`: inherited from the zygote.
    pub const ZYGOTE: u32 = 0x5A;

    /// The name ART gives heap `t` (`default` for a type it does not know).
    pub fn name(t: u32) -> &'static str {
        match t {
            APP => "app",
            IMAGE => "image",
            ZYGOTE => "zygote",
            _ => "default",
        }
    }
}

/// A field, static or array element type.
#[allow(missing_docs)]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_lengths_match_the_fields_they_hold() {
        // 4-byte ids: tag 1 + id 4 + stack 4 + class 4 + length 4.
        assert_eq!(sub::head_len(sub::INSTANCE_DUMP, 4), Some(17));
        assert_eq!(sub::head_len(sub::OBJECT_ARRAY_DUMP, 8), Some(1 + 8 + 4 + 4 + 8));
        assert_eq!(sub::head_len(sub::PRIMITIVE_ARRAY_NODATA, 4), Some(1 + 4 + 4 + 4 + 1));
        assert_eq!(sub::head_len(sub::HEAP_DUMP_INFO, 8), Some(1 + 4 + 8));
        assert_eq!(sub::head_len(sub::ROOT_JNI_GLOBAL, 8), Some(1 + 8 + 8));
        assert_eq!(sub::head_len(sub::ROOT_THREAD_OBJECT, 4), Some(1 + 4 + 4 + 4));
        // Tag, id, stack serial, six more ids, instance size.
        assert_eq!(sub::head_len(sub::CLASS_DUMP, 4), Some(1 + 4 + 4 + 6 * 4 + 4));
        assert_eq!(sub::head_len(0x42, 4), None);
        assert_eq!(header::LEN, 31);
        assert_eq!(record::HEAD_LEN, 9);
    }
}
