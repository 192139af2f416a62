//! Heap dump sub-records, read as borrowed views of the file.

use crate::error::{Error, ErrorKind, Result};

use super::cursor::Cursor;
use crate::spec::sub::{self, instance, object_array, primitive_array};
use crate::spec::BasicType;

/// The kind of a GC root record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RootKind {
    Unknown,
    JniGlobal,
    JniLocal,
    JavaFrame,
    NativeStack,
    StickyClass,
    ThreadBlock,
    MonitorUsed,
    ThreadObject,
    InternedString,
    Finalizing,
    Debugger,
    ReferenceCleanup,
    VmInternal,
    JniMonitor,
}

impl RootKind {
    /// The kind of root sub-record `tag` (Android's UNREACHABLE is not a root).
    pub fn from_tag(tag: u8) -> Option<RootKind> {
        Some(match tag {
            sub::ROOT_UNKNOWN => RootKind::Unknown,
            sub::ROOT_JNI_GLOBAL => RootKind::JniGlobal,
            sub::ROOT_JNI_LOCAL => RootKind::JniLocal,
            sub::ROOT_JAVA_FRAME => RootKind::JavaFrame,
            sub::ROOT_NATIVE_STACK => RootKind::NativeStack,
            sub::ROOT_STICKY_CLASS => RootKind::StickyClass,
            sub::ROOT_THREAD_BLOCK => RootKind::ThreadBlock,
            sub::ROOT_MONITOR_USED => RootKind::MonitorUsed,
            sub::ROOT_THREAD_OBJECT => RootKind::ThreadObject,
            sub::ROOT_INTERNED_STRING => RootKind::InternedString,
            sub::ROOT_FINALIZING => RootKind::Finalizing,
            sub::ROOT_DEBUGGER => RootKind::Debugger,
            sub::ROOT_REFERENCE_CLEANUP => RootKind::ReferenceCleanup,
            sub::ROOT_VM_INTERNAL => RootKind::VmInternal,
            sub::ROOT_JNI_MONITOR => RootKind::JniMonitor,
            _ => return None,
        })
    }

    /// The name people read, as LeakCanary gives it (`System class`, `Java local variable`...):
    /// the UI, the export and `--format leakcanary` all use it.
    pub fn label(self) -> &'static str {
        match self {
            RootKind::JniGlobal => "Global variable in native code",
            RootKind::JniLocal => "Local variable in native code",
            RootKind::JavaFrame => "Java local variable",
            RootKind::NativeStack => "Input or output parameters in native code",
            RootKind::StickyClass => "System class",
            RootKind::ThreadBlock => "Thread block",
            RootKind::MonitorUsed => {
                "Monitor (anything that called the wait() or notify() methods, or that is synchronized.)"
            }
            RootKind::ThreadObject => "Thread object",
            RootKind::JniMonitor => "Root JNI monitor",
            RootKind::InternedString => "Interned string",
            RootKind::Finalizing => "Object awaiting finalization",
            RootKind::Debugger => "Debugger reference",
            RootKind::ReferenceCleanup => "Reference cleanup",
            RootKind::VmInternal => "VM internal reference",
            RootKind::Unknown => "Unknown GC root type",
        }
    }

    /// The name used in reports (`jni_global`, `thread_object`...).
    pub fn name(self) -> &'static str {
        match self {
            RootKind::Unknown => "unknown",
            RootKind::JniGlobal => "jni_global",
            RootKind::JniLocal => "jni_local",
            RootKind::JavaFrame => "java_frame",
            RootKind::NativeStack => "native_stack",
            RootKind::StickyClass => "sticky_class",
            RootKind::ThreadBlock => "thread_block",
            RootKind::MonitorUsed => "monitor_used",
            RootKind::ThreadObject => "thread_object",
            RootKind::InternedString => "interned_string",
            RootKind::Finalizing => "finalizing",
            RootKind::Debugger => "debugger",
            RootKind::ReferenceCleanup => "reference_cleanup",
            RootKind::VmInternal => "vm_internal",
            RootKind::JniMonitor => "jni_monitor",
        }
    }
}

/// A static field of a class dump, with its value bytes.
#[derive(Debug, Clone, Copy)]
pub struct StaticField<'a> {
    /// String id of the name.
    pub name_id: u64,
    /// Type.
    pub ty: BasicType,
    /// The value as stored (big-endian, `ty.size(id_size)` bytes).
    pub value: &'a [u8],
}

/// An instance field declaration of a class dump.
#[derive(Debug, Clone, Copy)]
pub struct FieldDecl {
    /// String id of the name.
    pub name_id: u64,
    /// Type.
    pub ty: BasicType,
}

/// CLASS DUMP (0x20).
#[derive(Debug, Clone)]
pub struct ClassDump<'a> {
    pub id: u64,
    pub stack_serial: u32,
    pub super_id: u64,
    pub loader_id: u64,
    pub signers_id: u64,
    pub protection_domain_id: u64,
    /// Instance size as the dumping VM declares it.
    pub instance_size: u32,
    /// Number of constant pool entries (their values are skipped).
    pub constant_pool_len: u16,
    pub statics: Vec<StaticField<'a>>,
    /// Declared fields of this class only (not its superclasses), in file order.
    pub fields: Vec<FieldDecl>,
}

/// A heap sub-record, borrowed from the file.
#[derive(Debug, Clone)]
pub enum SubRecord<'a> {
    /// A GC root of `kind` naming object `id`; `thread`: the serial of the thread whose root it
    /// is (a local, a frame, a native stack, a blocked thread, a JNI monitor), or, for a thread
    /// object, its own serial.
    /// `detail`: the second number of the tail where there is one: a frame's depth in its
    /// thread's stack (JAVA FRAME, JNI LOCAL, JNI MONITOR; `u32::MAX`, -1, when unknown) or a
    /// thread object's stack trace serial.
    Root { kind: RootKind, id: u64, thread: Option<u32>, detail: Option<u32> },
    /// CLASS DUMP.
    Class(ClassDump<'a>),
    /// INSTANCE DUMP: `data` holds the field values, own class first, then superclasses.
    Instance { id: u64, stack_serial: u32, class_id: u64, data: &'a [u8] },
    /// OBJECT ARRAY DUMP: `elements` holds `length` identifiers.
    ObjectArray { id: u64, stack_serial: u32, length: u32, class_id: u64, elements: &'a [u8] },
    /// PRIMITIVE ARRAY DUMP, or NODATA (Android) when `data` is `None`.
    PrimitiveArray { id: u64, stack_serial: u32, length: u32, elem: BasicType, data: Option<&'a [u8]> },
    /// HEAP DUMP INFO (Android): the objects that follow are in heap `heap_type`.
    HeapDumpInfo { heap_type: u32, name_id: u64 },
    /// UNREACHABLE (Android 0x90): the runtime marks `id` as unreachable.
    Unreachable { id: u64 },
}

fn basic_type(c: &mut Cursor<'_>) -> Result<BasicType> {
    let at = c.pos();
    let code = c.u1()?;
    BasicType::from_code(code).ok_or_else(|| Error::new(at as u64, ErrorKind::BadBasicType(code)))
}

fn len_of(count: u32, elem: u32) -> usize {
    (count as usize).saturating_mul(elem as usize)
}

/// Reads the sub-record at the cursor. Errors carry the sub-record's tag.
pub fn read_sub_record<'a>(c: &mut Cursor<'a>) -> Result<SubRecord<'a>> {
    let start = c.pos();
    let tag = c.u1()?;
    read_body(c, tag, start).map_err(|e| e.in_sub_record(tag))
}

fn read_body<'a>(c: &mut Cursor<'a>, tag: u8, start: usize) -> Result<SubRecord<'a>> {
    let id_size = c.id_size();
    match tag {
        sub::UNREACHABLE => Ok(SubRecord::Unreachable { id: c.id()? }),
        sub::HEAP_DUMP_INFO => {
            let heap_type = c.u4()?;
            let name_id = c.id()?;
            Ok(SubRecord::HeapDumpInfo { heap_type, name_id })
        }
        sub::CLASS_DUMP => read_class_dump(c).map(SubRecord::Class),
        sub::INSTANCE_DUMP => {
            let id = c.id()?;
            let stack_serial = c.u4()?;
            let class_id = c.id()?;
            let n = c.u4()?;
            let data = c.bytes(n as usize)?;
            Ok(SubRecord::Instance { id, stack_serial, class_id, data })
        }
        sub::OBJECT_ARRAY_DUMP => {
            let id = c.id()?;
            let stack_serial = c.u4()?;
            let length = c.u4()?;
            let class_id = c.id()?;
            let elements = c.bytes(len_of(length, id_size))?;
            Ok(SubRecord::ObjectArray { id, stack_serial, length, class_id, elements })
        }
        sub::PRIMITIVE_ARRAY_DUMP | sub::PRIMITIVE_ARRAY_NODATA => {
            let id = c.id()?;
            let stack_serial = c.u4()?;
            let length = c.u4()?;
            let elem = basic_type(c)?;
            let data = if tag == sub::PRIMITIVE_ARRAY_DUMP {
                Some(c.bytes(len_of(length, elem.size(id_size)))?)
            } else {
                None
            };
            Ok(SubRecord::PrimitiveArray { id, stack_serial, length, elem, data })
        }
        other => match RootKind::from_tag(other) {
            Some(kind) => read_root(c, kind, other),
            None => Err(Error::new(start as u64, ErrorKind::UnknownSubRecord(other))),
        },
    }
}

/// A GC root: the object it names, the thread serial that opens the tail of the roots that have
/// one, and the number after it (a frame depth, a stack trace serial) where there is one.
fn read_root<'a>(c: &mut Cursor<'a>, kind: RootKind, tag: u8) -> Result<SubRecord<'a>> {
    let id = c.id()?;
    let tail = sub::root_tail_len(tag, c.id_size() as usize).unwrap_or(0);
    let threaded = matches!(
        tag,
        sub::ROOT_JNI_LOCAL
            | sub::ROOT_JAVA_FRAME
            | sub::ROOT_NATIVE_STACK
            | sub::ROOT_THREAD_BLOCK
            | sub::ROOT_THREAD_OBJECT
            | sub::ROOT_JNI_MONITOR
    );
    let (thread, detail) = if threaded && tail >= 8 {
        let serial = c.u4()?;
        let detail = c.u4()?;
        c.skip(tail - 8)?;
        (Some(serial), Some(detail))
    } else if threaded && tail >= 4 {
        let serial = c.u4()?;
        c.skip(tail - 4)?;
        (Some(serial), None)
    } else {
        c.skip(tail)?;
        (None, None)
    };
    Ok(SubRecord::Root { kind, id, thread, detail })
}

fn read_class_dump<'a>(c: &mut Cursor<'a>) -> Result<ClassDump<'a>> {
    let id_size = c.id_size();
    let id = c.id()?;
    let stack_serial = c.u4()?;
    let super_id = c.id()?;
    let loader_id = c.id()?;
    let signers_id = c.id()?;
    let protection_domain_id = c.id()?;
    c.id()?; // reserved
    c.id()?; // reserved
    let instance_size = c.u4()?;
    let constant_pool_len = c.u2()?;
    for _ in 0..constant_pool_len {
        c.u2()?;
        let ty = basic_type(c)?;
        c.skip(ty.size(id_size) as usize)?;
    }
    let n_statics = c.u2()?;
    let mut statics = Vec::with_capacity(usize::from(n_statics).min(c.left()));
    for _ in 0..n_statics {
        let name_id = c.id()?;
        let ty = basic_type(c)?;
        let value = c.bytes(ty.size(id_size) as usize)?;
        statics.push(StaticField { name_id, ty, value });
    }
    let n_fields = c.u2()?;
    let mut fields = Vec::with_capacity(usize::from(n_fields).min(c.left()));
    for _ in 0..n_fields {
        let name_id = c.id()?;
        let ty = basic_type(c)?;
        fields.push(FieldDecl { name_id, ty });
    }
    Ok(ClassDump {
        id,
        stack_serial,
        super_id,
        loader_id,
        signers_id,
        protection_domain_id,
        instance_size,
        constant_pool_len,
        statics,
        fields,
    })
}

/// Skips the sub-record at the cursor without building a view; returns its tag.
///
/// The hot path of the first pass: instance and array bodies are skipped by their lengths.
#[inline]
pub fn skip_sub_record(c: &mut Cursor<'_>) -> Result<u8> {
    let start = c.pos();
    let tag = c.u1()?;
    let id = c.id_size() as usize;
    let r = match tag {
        sub::INSTANCE_DUMP => (|| {
            c.skip_to(start, instance::length(id))?;
            let n = c.u4()?;
            c.skip(n as usize)
        })(),
        sub::OBJECT_ARRAY_DUMP => (|| {
            c.skip_to(start, object_array::length(id))?;
            let n = c.u4()?;
            c.skip_to(start, object_array::head_len(id))?;
            c.skip(len_of(n, id as u32))
        })(),
        sub::PRIMITIVE_ARRAY_DUMP => (|| {
            c.skip_to(start, primitive_array::length(id))?;
            let n = c.u4()?;
            let elem = basic_type(c)?;
            c.skip(len_of(n, elem.size(id as u32)))
        })(),
        _ => {
            c.seek(start);
            return read_sub_record(c).map(|_| tag);
        }
    };
    r.map_err(|e| e.in_sub_record(tag))?;
    Ok(tag)
}
