//! Top-level records: `u1 tag, u4 time, u4 length, body`.

use crate::error::{Error, ErrorKind, Result};

use super::cursor::Cursor;
use crate::spec::record::{self, alloc_sites, cpu_samples};

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

    /// Offset of the next record.
    pub fn pos(&self) -> usize {
        self.pos
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

/// A top-level record's body, decoded. Large repeated parts stay borrowed.
#[derive(Debug, Clone)]
pub enum TopRecord<'a> {
    /// STRING: an id and its modified UTF-8 bytes.
    String { id: u64, utf8: &'a [u8] },
    /// LOAD CLASS.
    LoadClass { serial: u32, class_id: u64, stack_serial: u32, name_id: u64 },
    /// UNLOAD CLASS.
    UnloadClass { serial: u32 },
    /// STACK FRAME: method, signature and source file names; `line` > 0 a line, 0 none, -1
    /// unknown, -2 compiled, -3 native.
    StackFrame { id: u64, method_name_id: u64, signature_id: u64, source_file_id: u64, class_serial: u32, line: i32 },
    /// STACK TRACE: `frames` holds the frame ids, innermost first.
    StackTrace { serial: u32, thread_serial: u32, frames: &'a [u8] },
    /// ALLOC SITES (old hprof agent): `sites` holds 25-byte entries.
    AllocSites { flags: u16, live_bytes: u32, live_instances: u32, sites: &'a [u8] },
    /// HEAP SUMMARY (old hprof agent).
    HeapSummary { live_bytes: u32, live_instances: u32, allocated_bytes: u64, allocated_instances: u64 },
    /// START THREAD.
    StartThread { serial: u32, object_id: u64, stack_serial: u32, name_id: u64, group_id: u64, parent_group_id: u64 },
    /// END THREAD.
    EndThread { serial: u32 },
    /// CPU SAMPLES: `traces` holds `(samples, stack serial)` pairs of u4.
    CpuSamples { total: u32, traces: &'a [u8] },
    /// CONTROL SETTINGS.
    ControlSettings { flags: u32, stack_depth: u16 },
    /// HEAP DUMP or HEAP DUMP SEGMENT: sub-records follow in the body.
    HeapDump,
    /// HEAP DUMP END.
    HeapDumpEnd,
    /// A tag this reader does not know; its body is skipped by its length.
    Unknown,
}

impl<'a> Record<'a> {
    /// Decodes the body. Errors name the offset and this record's tag.
    pub fn decode(&self, data: &'a [u8], id_size: u32) -> Result<TopRecord<'a>> {
        let end = self.body_offset + self.body.len();
        let mut c = Cursor::new(&data[..end], self.body_offset, id_size);
        decode_body(self.tag, &mut c).map_err(|e| e.in_record(self.tag))
    }
}

fn decode_body<'a>(tag: u8, c: &mut Cursor<'a>) -> Result<TopRecord<'a>> {
    let id = c.id_size() as usize;
    Ok(match tag {
        record::STRING => {
            let sid = c.id()?;
            TopRecord::String { id: sid, utf8: c.bytes(c.left())? }
        }
        record::LOAD_CLASS => {
            TopRecord::LoadClass { serial: c.u4()?, class_id: c.id()?, stack_serial: c.u4()?, name_id: c.id()? }
        }
        record::UNLOAD_CLASS => TopRecord::UnloadClass { serial: c.u4()? },
        record::STACK_FRAME => TopRecord::StackFrame {
            id: c.id()?,
            method_name_id: c.id()?,
            signature_id: c.id()?,
            source_file_id: c.id()?,
            class_serial: c.u4()?,
            line: c.u4()? as i32,
        },
        record::STACK_TRACE => {
            let serial = c.u4()?;
            let thread_serial = c.u4()?;
            let n = c.u4()?;
            TopRecord::StackTrace { serial, thread_serial, frames: c.bytes((n as usize).saturating_mul(id))? }
        }
        record::ALLOC_SITES => {
            let flags = c.u2()?;
            c.u4()?; // cutoff ratio
            let live_bytes = c.u4()?;
            let live_instances = c.u4()?;
            c.u8()?; // bytes allocated
            c.u8()?; // instances allocated
            let n = c.u4()?;
            TopRecord::AllocSites {
                flags,
                live_bytes,
                live_instances,
                sites: c.bytes((n as usize).saturating_mul(alloc_sites::SITE_LEN))?,
            }
        }
        record::HEAP_SUMMARY => TopRecord::HeapSummary {
            live_bytes: c.u4()?,
            live_instances: c.u4()?,
            allocated_bytes: c.u8()?,
            allocated_instances: c.u8()?,
        },
        record::START_THREAD => TopRecord::StartThread {
            serial: c.u4()?,
            object_id: c.id()?,
            stack_serial: c.u4()?,
            name_id: c.id()?,
            group_id: c.id()?,
            parent_group_id: c.id()?,
        },
        record::END_THREAD => TopRecord::EndThread { serial: c.u4()? },
        record::CPU_SAMPLES => {
            let total = c.u4()?;
            let n = c.u4()?;
            TopRecord::CpuSamples { total, traces: c.bytes((n as usize).saturating_mul(cpu_samples::TRACE_LEN))? }
        }
        record::CONTROL_SETTINGS => TopRecord::ControlSettings { flags: c.u4()?, stack_depth: c.u2()? },
        record::HEAP_DUMP | record::HEAP_DUMP_SEGMENT => TopRecord::HeapDump,
        record::HEAP_DUMP_END => TopRecord::HeapDumpEnd,
        _ => TopRecord::Unknown,
    })
}
