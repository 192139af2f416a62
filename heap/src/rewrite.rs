//! A streaming HPROF rewriter: fed a dump as arbitrary chunks (as a series of `write()` calls
//! delivers it), it writes a rewritten dump with every record length fixed, in bounded memory.
//! Stripping, restoring and converting are plans for it ([`Plan`]).
//!
//! Memory is bounded by the largest class dump or instance (their bytes are gathered whole) and a
//! 1 MiB output segment buffer; array bodies stream through. Output is identical whatever the
//! chunking of the input: every decision depends only on the bytes, never on where a chunk ends.
//!
//! A dropped primitive array is written as Android's PRIMITIVE ARRAY NODATA (0xC3): its id, stack,
//! length and type stay, so sizes, counts and the graph survive, and the file is a valid dump our
//! reader opens directly. Restoring writes the values back as zeros of the right length.

use std::io::Write;

use rustc_hash::FxHashMap;

use crate::error::{Error, ErrorKind, Limit, Result};
use crate::hprof::cursor::read_id;
use crate::hprof::{parse_header, Cursor, Format};
use crate::spec::sub::{self, class_dump, heap_dump_info, instance, object_array, primitive_array};
use crate::spec::{header, record, BasicType};

/// What happens to primitive array values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrayValues {
    /// Keep every value.
    Keep,
    /// Drop every value (NODATA).
    Drop,
    /// Keep arrays of at most this many elements whole (every String up to that length stays
    /// readable), drop the values of longer ones.
    KeepUpTo(u32),
}

/// What a rewrite does.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Android heap types (HEAP DUMP INFO) whose objects are dropped, with their HEAP DUMP INFO.
    pub drop_heaps: Vec<u32>,
    /// Primitive array values.
    pub array_values: ArrayValues,
    /// Zero every primitive field of every instance (Bitmap `mWidth`/`mHeight` excepted).
    pub zero_fields: bool,
    /// Write NODATA arrays back as full arrays of zeros.
    pub restore_nodata: bool,
    /// Android → HotSpot (`hprof-conv`): drop HEAP DUMP INFO, turn Android roots into ROOT UNKNOWN.
    pub to_hotspot: bool,
    /// Rewrite the header's version.
    pub version: Option<Format>,
    /// One output record per input heap dump record, with its tag and time (what `hprof-conv`
    /// does; the record is buffered whole). Otherwise heap dumps are re-cut into segments of
    /// about 1 MiB, large sub-records streaming through.
    pub keep_segments: bool,
    /// Forget which heap objects are in at every heap dump record (`hprof-conv -z` does).
    pub heap_per_record: bool,
    /// Matrix: the primitive arrays whose values stay (all others lose theirs)...
    pub keep_arrays: Option<std::collections::HashSet<u64>>,
    /// ...and arrays removed outright (duplicates whose referrers were re-pointed).
    pub remove_arrays: std::collections::HashSet<u64>,
    /// Primitive arrays whose values stay whatever the rules above say (`Bitmap.dumpData`'s
    /// pictures in `triage` and `koom`).
    pub keep_values: std::collections::HashSet<u64>,
    /// The most bytes of zeros NODATA arrays may be written back with (restoring, converting):
    /// a NODATA record of 14 bytes can declare 4 GiB. `None`: no bound.
    pub max_restored: Option<u64>,
}

impl Plan {
    /// Copies everything (useful to normalise segments).
    pub fn identity() -> Plan {
        Plan {
            drop_heaps: Vec::new(),
            array_values: ArrayValues::Keep,
            zero_fields: false,
            restore_nodata: false,
            to_hotspot: false,
            version: None,
            keep_segments: false,
            heap_per_record: false,
            keep_arrays: None,
            remove_arrays: Default::default(),
            keep_values: Default::default(),
            max_restored: None,
        }
    }
}

/// Heap type of Android's zygote heap.
pub const HEAP_ZYGOTE: u32 = crate::spec::heap_type::ZYGOTE;
/// Heap type of Android's image heap.
pub const HEAP_IMAGE: u32 = crate::spec::heap_type::IMAGE;

const SEGMENT_FLUSH: usize = 1 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Body {
    Copy,
    Skip,
    /// Gather the body whole (an instance whose fields are zeroed).
    Gather,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    Header,
    RecHead,
    /// A top-level record other than a heap dump: `left` bytes to copy.
    Pass {
        left: u64,
    },
    /// A STRING or LOAD CLASS record gathered whole (names the zeroing needs).
    Names {
        tag: u8,
        left: u64,
    },
    /// Inside a heap dump record: the next sub-record's tag.
    SubTag,
    /// Gathering a sub-record's head (its size is learnt as it parses).
    SubHead {
        tag: u8,
    },
    /// A sub-record's body.
    SubBody {
        left: u64,
        act: Body,
    },
    /// After an error: everything else is ignored.
    Failed,
}

#[derive(Default)]
struct Shape {
    super_id: u64,
    /// Own instance fields: type code and name id.
    fields: Vec<(u8, u64)>,
}

/// Counts of what a rewrite did.
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct RewriteStats {
    /// Bytes read.
    pub bytes_in: u64,
    /// Bytes written.
    pub bytes_out: u64,
    /// Objects dropped with their heap.
    pub objects_dropped: u64,
    /// Primitive arrays whose values were dropped.
    pub arrays_emptied: u64,
    /// NODATA arrays written back with zeros.
    pub arrays_restored: u64,
    /// Bytes of zeros they were written back with.
    pub bytes_restored: u64,
}

/// The streaming rewriter. Feed it with [`Rewriter::feed`], end with [`Rewriter::finish`].
pub struct Rewriter<W: Write> {
    out: W,
    plan: Plan,
    st: St,
    acc: Vec<u8>,
    need: usize,
    id_size: usize,
    pos: u64,
    rec_tag: u8,
    rec_time: [u8; 4],
    heap_left: u64,
    heap_tag: u8,
    dropping: bool,
    seg: Vec<u8>,
    /// A sub-record is being streamed straight to `out` under a segment header already written.
    direct: bool,
    /// A heap dump has been opened in the output and not yet closed by HEAP DUMP END.
    open_dump: bool,
    gather_head: Vec<u8>,
    class_scan: ClassScan,
    shapes: FxHashMap<u64, Shape>,
    layouts: FxHashMap<u64, Vec<(u32, u8, bool)>>,
    keep_names: FxHashMap<u64, &'static str>,
    bitmap_classes: Vec<u64>,
    stats: RewriteStats,
}

impl<W: Write> Rewriter<W> {
    /// A rewriter writing to `out`.
    pub fn new(out: W, plan: Plan) -> Rewriter<W> {
        Rewriter {
            out,
            plan,
            st: St::Header,
            acc: Vec::new(),
            need: header::LEN,
            id_size: 4,
            pos: 0,
            rec_tag: 0,
            rec_time: [0; 4],
            heap_left: 0,
            heap_tag: 0,
            dropping: false,
            seg: Vec::new(),
            direct: false,
            open_dump: false,
            gather_head: Vec::new(),
            class_scan: ClassScan::default(),
            shapes: FxHashMap::default(),
            layouts: FxHashMap::default(),
            keep_names: FxHashMap::default(),
            bitmap_classes: Vec::new(),
            stats: RewriteStats::default(),
        }
    }

    fn err(&self, kind: ErrorKind) -> Error {
        let e = Error::new(self.pos, kind);
        match self.st {
            St::SubHead { tag } => e.in_sub_record(tag).in_record(self.heap_tag),
            St::SubTag | St::SubBody { .. } => e.in_record(self.heap_tag),
            St::Pass { .. } | St::Names { .. } => e.in_record(self.rec_tag),
            _ => e,
        }
    }

    fn io(&mut self, r: std::io::Result<()>) -> Result<()> {
        r.map_err(|e| {
            self.st = St::Failed;
            Error::new(self.pos, ErrorKind::Io(format!("cannot write the output: {e}")))
        })
    }

    fn write_out(&mut self, b: &[u8]) -> Result<()> {
        self.stats.bytes_out += b.len() as u64;
        let r = self.out.write_all(b);
        self.io(r)
    }

    /// Adds a sub-record's bytes to the output heap dump.
    fn emit(&mut self, b: &[u8]) -> Result<()> {
        if self.direct {
            return self.write_out(b);
        }
        self.seg.extend_from_slice(b);
        Ok(())
    }

    fn flush_segment(&mut self) -> Result<()> {
        if self.seg.is_empty() {
            return Ok(());
        }
        let seg = std::mem::take(&mut self.seg);
        self.segment_header(seg.len() as u64)?;
        self.write_out(&seg)?;
        self.seg = seg;
        self.seg.clear();
        Ok(())
    }

    fn segment_header(&mut self, len: u64) -> Result<()> {
        let len = u32::try_from(len).map_err(|_| self.err(ErrorKind::TooLarge(Limit::SubRecord)))?;
        let mut h = vec![record::HEAP_DUMP_SEGMENT];
        h.extend_from_slice(&self.rec_time);
        h.extend_from_slice(&len.to_be_bytes());
        self.open_dump = true;
        self.write_out(&h)
    }

    fn close_dump(&mut self) -> Result<()> {
        self.flush_segment()?;
        if self.open_dump {
            self.open_dump = false;
            let mut h = vec![record::HEAP_DUMP_END];
            h.extend_from_slice(&self.rec_time);
            h.extend_from_slice(&0u32.to_be_bytes());
            self.write_out(&h)?;
        }
        Ok(())
    }

    /// What the rewrite did so far.
    pub fn stats(&self) -> RewriteStats {
        self.stats
    }

    /// Feeds the next bytes of the input.
    pub fn feed(&mut self, mut data: &[u8]) -> Result<()> {
        while !data.is_empty() {
            match self.st {
                St::Failed => return Ok(()),
                St::Header | St::RecHead | St::SubHead { .. } | St::Names { .. } => {
                    let take = (self.need - self.acc.len()).min(data.len());
                    self.acc.extend_from_slice(&data[..take]);
                    data = &data[take..];
                    self.pos += take as u64;
                    self.stats.bytes_in += take as u64;
                    if let St::SubHead { .. } = self.st {
                        self.heap_left -= take as u64;
                    }
                    if self.acc.len() == self.need {
                        if let Err(e) = self.step() {
                            self.st = St::Failed;
                            return Err(e);
                        }
                    }
                }
                St::SubTag => {
                    if self.heap_left == 0 {
                        self.end_heap_record()?;
                        continue;
                    }
                    // Take as much of the head as is known to belong to it at once (most heads
                    // are whole in the chunk): one step per sub-record instead of two.
                    let tag = data[0];
                    let hint = sub::head_len(tag, self.id_size).unwrap_or(1);
                    // (A head the record cannot hold is left to `want` to report, from its tag.)
                    let take = if hint as u64 <= self.heap_left { hint.min(data.len()) } else { 1 };
                    self.acc.clear();
                    self.acc.extend_from_slice(&data[..take]);
                    data = &data[take..];
                    self.pos += take as u64;
                    self.stats.bytes_in += take as u64;
                    self.heap_left -= take as u64;
                    self.need = take;
                    self.class_scan = ClassScan::default();
                    self.st = St::SubHead { tag };
                    if let Err(e) = self.step() {
                        self.st = St::Failed;
                        return Err(e);
                    }
                }
                St::Pass { left } => {
                    let take = (left.min(data.len() as u64)) as usize;
                    self.write_out(&data[..take])?;
                    data = &data[take..];
                    self.pos += take as u64;
                    self.stats.bytes_in += take as u64;
                    self.st = if left == take as u64 { St::RecHead } else { St::Pass { left: left - take as u64 } };
                    if self.st == St::RecHead {
                        self.acc.clear();
                        self.need = record::HEAD_LEN;
                    }
                }
                St::SubBody { left, act } => {
                    let take = (left.min(data.len() as u64)) as usize;
                    match act {
                        Body::Copy => self.emit(&data[..take])?,
                        Body::Gather => self.gather_head.extend_from_slice(&data[..take]),
                        Body::Skip => {}
                    }
                    data = &data[take..];
                    self.pos += take as u64;
                    self.stats.bytes_in += take as u64;
                    self.heap_left -= take as u64;
                    if left == take as u64 {
                        self.end_sub_record(act)?;
                    } else {
                        self.st = St::SubBody { left: left - take as u64, act };
                    }
                }
            }
        }
        Ok(())
    }

    fn end_sub_record(&mut self, act: Body) -> Result<()> {
        if act == Body::Gather {
            // Lent out and taken back: one buffer for every instance.
            let mut rec = std::mem::take(&mut self.gather_head);
            self.zero_instance_fields(&mut rec);
            let r = self.emit(&rec);
            rec.clear();
            self.gather_head = rec;
            r?;
        }
        if self.direct {
            self.direct = false;
        } else if self.seg.len() >= SEGMENT_FLUSH && !self.plan.keep_segments {
            self.flush_segment()?;
        }
        self.st = St::SubTag;
        Ok(())
    }

    fn end_heap_record(&mut self) -> Result<()> {
        if self.plan.keep_segments {
            let seg = std::mem::take(&mut self.seg);
            let len = u32::try_from(seg.len()).map_err(|_| self.err(ErrorKind::TooLarge(Limit::HeapDumpRecord)))?;
            let mut h = vec![self.heap_tag];
            h.extend_from_slice(&self.rec_time);
            h.extend_from_slice(&len.to_be_bytes());
            self.write_out(&h)?;
            self.write_out(&seg)?;
            self.seg = seg;
            self.seg.clear();
        } else if self.heap_tag == record::HEAP_DUMP {
            // Each HEAP DUMP record is one dump: keep them apart.
            self.close_dump()?;
        }
        self.acc.clear();
        self.need = record::HEAD_LEN;
        self.st = St::RecHead;
        Ok(())
    }

    /// Acts on a complete header (`acc` holds `need` bytes).
    fn step(&mut self) -> Result<()> {
        match self.st {
            St::Header => {
                let mut h = parse_header(&self.acc)?;
                self.id_size = h.id_size as usize;
                if let Some(v) = self.plan.version {
                    h.format = v;
                }
                let mut out = format!("JAVA PROFILE {}\0", h.format.as_str()).into_bytes();
                out.extend_from_slice(&self.acc[header::ID_SIZE..header::LEN]);
                self.write_out(&out)?;
                self.acc.clear();
                self.need = record::HEAD_LEN;
                self.st = St::RecHead;
            }
            St::RecHead => self.record_head()?,
            St::Names { tag, .. } => {
                let mut rec = std::mem::take(&mut self.acc);
                self.note_names(tag, &rec[record::HEAD_LEN..]);
                let r = self.write_out(&rec);
                rec.clear();
                self.acc = rec;
                r?;
                self.need = record::HEAD_LEN;
                self.st = St::RecHead;
            }
            St::SubHead { tag } => self.sub_head(tag)?,
            _ => {}
        }
        Ok(())
    }

    fn record_head(&mut self) -> Result<()> {
        let tag = self.acc[0];
        let len = u64::from(u4(&self.acc, record::LENGTH));
        self.rec_tag = tag;
        self.rec_time.copy_from_slice(&self.acc[record::TIME..record::LENGTH]);
        match tag {
            record::HEAP_DUMP | record::HEAP_DUMP_SEGMENT => {
                self.heap_tag = tag;
                self.heap_left = len;
                if self.plan.heap_per_record {
                    self.dropping = false;
                }
                self.acc.clear();
                self.st = St::SubTag;
            }
            record::HEAP_DUMP_END if self.plan.keep_segments => {
                let head = std::mem::take(&mut self.acc);
                self.write_out(&head)?;
                self.acc = head;
                self.acc.clear();
                self.need = record::HEAD_LEN;
                self.st = if len == 0 { St::RecHead } else { St::Pass { left: len } };
            }
            record::HEAP_DUMP_END => {
                self.close_dump()?;
                self.acc.clear();
                self.need = record::HEAD_LEN;
            }
            record::STRING | record::LOAD_CLASS if self.plan.zero_fields => {
                // Gathered whole: on a 32-bit build a length near 4 GiB does not fit in memory,
                // and added to the head's it would wrap.
                self.need = usize::try_from(len)
                    .ok()
                    .and_then(|l| l.checked_add(record::HEAD_LEN))
                    .ok_or_else(|| self.err(ErrorKind::TooLarge(Limit::NameRecord)).in_record(tag))?;
                self.st = St::Names { tag, left: len };
                if len == 0 {
                    self.step()?;
                }
            }
            _ => {
                // Records between heap dumps (HotSpot writes none, old agents do): keep their order.
                let head = std::mem::take(&mut self.acc);
                self.flush_segment()?;
                self.write_out(&head)?;
                self.acc = head;
                self.acc.clear();
                self.need = record::HEAD_LEN;
                self.st = if len == 0 { St::RecHead } else { St::Pass { left: len } };
            }
        }
        Ok(())
    }

    fn note_names(&mut self, tag: u8, body: &[u8]) {
        let id = self.id_size as u32;
        if tag == record::STRING && body.len() >= record::string::text(self.id_size) {
            let text = &body[record::string::text(self.id_size)..];
            for name in ["mWidth", "mHeight", "android.graphics.Bitmap"] {
                if text == name.as_bytes() {
                    self.keep_names.insert(read_id(body, id), name);
                }
            }
        } else if tag == record::LOAD_CLASS && body.len() >= record::load_class::len(self.id_size) {
            let class = read_id(&body[record::load_class::CLASS_ID..], id);
            let name = read_id(&body[record::load_class::name_id(self.id_size)..], id);
            if self.keep_names.get(&name) == Some(&"android.graphics.Bitmap") {
                self.bitmap_classes.push(class);
            }
        }
    }

    /// Parses the gathered head of sub-record `tag`: `Ok(None)` when more bytes are needed (and
    /// `need` has grown), else the body length that follows.
    fn sub_head(&mut self, tag: u8) -> Result<()> {
        let id = self.id_size;
        let head_len = match tag {
            sub::CLASS_DUMP => match self.class_scan.measure(&self.acc, id) {
                Ok(n) => n,
                Err(need) => return self.want(need),
            },
            other => match sub::head_len(other, id) {
                Some(n) => n,
                None => return Err(self.err_at(self.pos - self.acc.len() as u64, ErrorKind::UnknownSubRecord(other))),
            },
        };
        if self.acc.len() < head_len {
            return self.want(head_len);
        }
        // Lend the head out and take the buffer back: no allocation per sub-record.
        let mut head = std::mem::take(&mut self.acc);
        let r = self.sub_record(tag, &mut head);
        head.clear();
        self.acc = head;
        r
    }

    fn err_at(&self, offset: u64, kind: ErrorKind) -> Error {
        let mut e = self.err(kind);
        e.offset = offset;
        e
    }

    /// Asks for `n` bytes of head in all; fails if the heap record cannot hold them.
    fn want(&mut self, n: usize) -> Result<()> {
        let more = (n - self.acc.len()) as u64;
        if more > self.heap_left {
            return Err(self.err(ErrorKind::Truncated { needed: more, left: self.heap_left }));
        }
        self.need = n;
        Ok(())
    }

    /// Decides what to do with a sub-record whose head is complete.
    fn sub_record(&mut self, tag: u8, head: &mut [u8]) -> Result<()> {
        let id = self.id_size;
        self.need = 0;
        let (body_len, act) = match tag {
            sub::HEAP_DUMP_INFO => {
                let heap_type = u4(head, heap_dump_info::HEAP_TYPE);
                self.dropping = self.plan.drop_heaps.contains(&heap_type);
                if !self.dropping && !self.plan.to_hotspot {
                    self.emit(head)?;
                }
                return self.done_head();
            }
            sub::ROOT_INTERNED_STRING
            | sub::ROOT_FINALIZING
            | sub::ROOT_DEBUGGER
            | sub::ROOT_REFERENCE_CLEANUP
            | sub::ROOT_VM_INTERNAL
            | sub::ROOT_JNI_MONITOR
            | sub::UNREACHABLE
                if self.plan.to_hotspot =>
            {
                // HotSpot has no such roots: they become ROOT UNKNOWN naming the same object.
                let mut out = vec![sub::ROOT_UNKNOWN];
                out.extend_from_slice(&head[sub::ID..sub::ID + id]);
                self.emit(&out)?;
                return self.done_head();
            }
            sub::CLASS_DUMP => {
                if self.plan.zero_fields {
                    self.note_class(head);
                }
                self.emit(head)?;
                return self.done_head();
            }
            sub::INSTANCE_DUMP => (u64::from(u4(head, instance::length(id))), self.object_body(self.plan.zero_fields)),
            sub::OBJECT_ARRAY_DUMP => {
                (u64::from(u4(head, object_array::length(id))) * id as u64, self.object_body(false))
            }
            sub::PRIMITIVE_ARRAY_DUMP | sub::PRIMITIVE_ARRAY_NODATA => match self.primitive_array(tag, head)? {
                Some(body) => body,
                None => return Ok(()),
            },
            _ => {
                // Roots: copied as they are.
                self.emit(head)?;
                return self.done_head();
            }
        };
        self.start_body(tag, head, body_len, act)
    }

    /// What happens to the body of an instance or object array: skipped in a heap being
    /// dropped, gathered when `gather` (its fields are zeroed), else copied.
    #[inline(always)]
    fn object_body(&mut self, gather: bool) -> Body {
        if self.dropping {
            self.stats.objects_dropped += 1;
            Body::Skip
        } else if gather {
            Body::Gather
        } else {
            Body::Copy
        }
    }

    /// A primitive array's head (DUMP or NODATA): its body's length and what happens to it, or
    /// `None` when the record is done with (restored as zeros, or removed).
    #[inline(always)]
    fn primitive_array(&mut self, tag: u8, head: &mut [u8]) -> Result<Option<(u64, Body)>> {
        let id = self.id_size;
        let len = u4(head, primitive_array::length(id));
        let code = head[primitive_array::elem_type(id)];
        let elem = BasicType::from_code(code)
            .filter(|t| *t != BasicType::Object)
            .ok_or_else(|| self.err(ErrorKind::BadBasicType(code)))?;
        let bytes = u64::from(len) * u64::from(elem.size(id as u32));
        // hprof-conv -z keeps NODATA records even in the heaps it drops.
        if self.dropping && !(tag == sub::PRIMITIVE_ARRAY_NODATA && self.plan.to_hotspot) {
            self.stats.objects_dropped += 1;
            return Ok(Some((if tag == sub::PRIMITIVE_ARRAY_DUMP { bytes } else { 0 }, Body::Skip)));
        }
        if tag == sub::PRIMITIVE_ARRAY_NODATA {
            if self.plan.restore_nodata || self.plan.to_hotspot {
                // HotSpot has no NODATA: a full array of zeros (hprof-conv writes the head
                // alone, which leaves a malformed record when the count is not zero).
                self.stats.bytes_restored = self.stats.bytes_restored.saturating_add(bytes);
                if let Some(limit) = self.plan.max_restored.filter(|&l| self.stats.bytes_restored > l) {
                    return Err(self.err(ErrorKind::TooLarge(Limit::Restored { limit })));
                }
                head[0] = sub::PRIMITIVE_ARRAY_DUMP;
                self.stats.arrays_restored += 1;
                self.emit_sized(head, bytes)?;
                self.zeros(bytes, false)?;
                self.done_head()?;
                return Ok(None);
            }
            return Ok(Some((0, Body::Copy)));
        }
        let array_id = read_id(&head[sub::ID..], id as u32);
        if !self.plan.remove_arrays.is_empty() && self.plan.remove_arrays.contains(&array_id) {
            self.stats.objects_dropped += 1;
            self.st = St::SubBody { left: bytes, act: Body::Skip };
            if bytes == 0 {
                self.end_sub_record(Body::Skip)?;
            }
            return Ok(None);
        }
        let keep = match (&self.plan.keep_arrays, self.plan.array_values) {
            (Some(ids), _) => ids.contains(&array_id),
            (None, ArrayValues::Keep) => true,
            (None, ArrayValues::Drop) => false,
            (None, ArrayValues::KeepUpTo(n)) => len <= n,
        } || (!self.plan.keep_values.is_empty() && self.plan.keep_values.contains(&array_id));
        if keep {
            return Ok(Some((bytes, Body::Copy)));
        }
        head[0] = sub::PRIMITIVE_ARRAY_NODATA;
        self.stats.arrays_emptied += 1;
        Ok(Some((bytes, Body::Skip)))
    }

    /// Writes (or holds) the head of a sub-record whose body of `body_len` bytes follows, and
    /// starts on the body; fails if the heap dump record cannot hold it.
    #[inline(always)]
    fn start_body(&mut self, tag: u8, head: &[u8], body_len: u64, act: Body) -> Result<()> {
        if body_len > self.heap_left {
            let at = self.pos - head.len() as u64;
            return Err(self
                .err_at(at, ErrorKind::Truncated { needed: body_len, left: self.heap_left })
                .in_sub_record(tag));
        }
        match act {
            Body::Skip => {
                if !self.dropping {
                    self.emit(head)?;
                }
            }
            Body::Copy => self.emit_sized(head, body_len)?,
            Body::Gather => {
                self.gather_head.clear();
                self.gather_head.extend_from_slice(head);
            }
        }
        if body_len == 0 {
            return self.end_sub_record(act);
        }
        self.st = St::SubBody { left: body_len, act };
        Ok(())
    }

    /// Emits a head whose body of `body_len` bytes follows: a large sub-record streams straight
    /// to the output under a segment header of its own.
    fn emit_sized(&mut self, head: &[u8], body_len: u64) -> Result<()> {
        let total = head.len() as u64 + body_len;
        if total >= SEGMENT_FLUSH as u64 && !self.plan.keep_segments {
            self.flush_segment()?;
            self.segment_header(total)?;
            self.direct = true;
            self.write_out(head)
        } else {
            self.emit(head)
        }
    }

    /// Writes `n` zero bytes into the heap dump being built (`raw`: straight to the output).
    fn zeros(&mut self, mut n: u64, raw: bool) -> Result<()> {
        const ZEROS: [u8; 8192] = [0; 8192];
        while n > 0 {
            let k = n.min(ZEROS.len() as u64) as usize;
            if raw {
                self.write_out(&ZEROS[..k])?;
            } else {
                self.emit(&ZEROS[..k])?;
            }
            n -= k as u64;
        }
        Ok(())
    }

    fn done_head(&mut self) -> Result<()> {
        self.end_sub_record(Body::Copy)
    }

    fn note_class(&mut self, head: &[u8]) {
        if let Ok(crate::hprof::SubRecord::Class(cd)) =
            crate::hprof::heap_record::read_sub_record(&mut Cursor::new(head, 0, self.id_size as u32))
        {
            let shape =
                Shape { super_id: cd.super_id, fields: cd.fields.iter().map(|f| (f.ty.code(), f.name_id)).collect() };
            self.shapes.insert(cd.id, shape);
        }
    }

    /// Field layout of instances of `class`: offset, size, and whether the value stays
    /// (references always; a Bitmap's `mWidth`/`mHeight` too: sizes, not user data).
    fn layout(&self, class: u64) -> Vec<(u32, u8, bool)> {
        let mut fields: Vec<(u32, u8, bool, bool)> = Vec::new();
        let mut offset = 0u32;
        let mut cur = class;
        let mut is_bitmap = false;
        for _ in 0..256 {
            let Some(shape) = self.shapes.get(&cur) else { break };
            is_bitmap |= self.bitmap_classes.contains(&cur);
            for &(code, name) in &shape.fields {
                let size = BasicType::from_code(code).map_or(0, |t| t.size(self.id_size as u32)) as u8;
                let dims = matches!(self.keep_names.get(&name), Some(&"mWidth") | Some(&"mHeight"));
                fields.push((offset, size, code == BasicType::Object.code(), dims));
                offset += u32::from(size);
            }
            cur = shape.super_id;
            if cur == 0 {
                break;
            }
        }
        fields.into_iter().map(|(o, s, is_ref, dims)| (o, s, is_ref || (is_bitmap && dims))).collect()
    }

    fn zero_instance_fields(&mut self, rec: &mut [u8]) {
        let id = self.id_size;
        let class = read_id(&rec[instance::class_id(id)..], id as u32);
        if !self.layouts.contains_key(&class) {
            let layout = self.layout(class);
            self.layouts.insert(class, layout);
        }
        let data = &mut rec[instance::head_len(id)..];
        for &(off, size, keep) in &self.layouts[&class] {
            if !keep {
                if let Some(v) = data.get_mut(off as usize..off as usize + size as usize) {
                    v.fill(0);
                }
            }
        }
    }

    /// Ends the input. A dump cut short still yields a valid output (what was complete, the
    /// sub-record being streamed padded with zeros, up to as many bytes as were read) and an
    /// error saying where it stopped.
    pub fn finish(mut self) -> Result<(W, RewriteStats)> {
        let cut = match self.st {
            St::RecHead if self.acc.is_empty() => None,
            St::SubTag if self.heap_left == 0 => None,
            St::Failed => None,
            _ => Some(
                self.err(ErrorKind::Truncated { needed: self.need.saturating_sub(self.acc.len()) as u64, left: 0 }),
            ),
        };
        // The record being streamed is padded with zeros to its declared length, so the output
        // parses to its end; but never by more than was read: a length field gone wrong (a
        // damaged or hostile file) must not make a few kilobytes write gigabytes. Past that the
        // output ends cut short, as the input did.
        match self.st {
            St::SubBody { left, act } if self.direct && act == Body::Copy && left <= self.stats.bytes_in => {
                self.zeros(left, false)?
            }
            St::Pass { left } if left <= self.stats.bytes_in => self.zeros(left, true)?,
            _ => {}
        }
        self.direct = false;
        self.close_dump()?;
        let r = self.out.flush();
        self.io(r)?;
        match cut {
            Some(e) => Err(e),
            None => Ok((self.out, self.stats)),
        }
    }
}

/// Rewrites all of `input` to `out` under `plan`, reading 1 MiB at a time.
pub fn rewrite_all<R: std::io::Read, W: Write>(mut input: R, out: W, plan: Plan) -> Result<(W, RewriteStats)> {
    let mut r = Rewriter::new(out, plan);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::new(r.pos, ErrorKind::Io(format!("cannot read the input: {e}")))),
        };
        r.feed(&buf[..n])?;
    }
    r.finish()
}

/// Where a scan of a CLASS DUMP being gathered stands, so each new byte is looked at once (a
/// class with thousands of statics would otherwise be rescanned from its start for each field).
#[derive(Debug, Clone, Copy, Default)]
struct ClassScan {
    /// Bytes of the head known to be measured.
    at: usize,
    /// The part of the record `at` is in.
    part: ClassPart,
    /// Entries left in the current list.
    left: usize,
}

/// The parts of a CLASS DUMP, in file order (see [`class_dump`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum ClassPart {
    /// The fixed fields, up to the constant pool count.
    #[default]
    Fixed,
    /// The constant pool's entries.
    Constants,
    /// The statics' count.
    StaticsCount,
    /// The statics.
    Statics,
    /// The instance fields' count (the fields, all of one length, follow).
    FieldsCount,
    /// The whole record is measured.
    Measured,
}

/// Bytes of a value of type `code`; 0 for a code that is no type (the reader reports it).
fn value_size(code: u8, id: usize) -> usize {
    BasicType::from_code(code).map_or(0, |t| t.size(id as u32) as usize)
}

/// The big-endian `u4` at `at` in `b`, which the caller has made long enough.
fn u4(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl ClassScan {
    /// Measures the CLASS DUMP whose first bytes (tag included) are `b`: its whole length, or
    /// how many bytes in all are needed to learn more.
    fn measure(&mut self, b: &[u8], id: usize) -> std::result::Result<usize, usize> {
        let count = |at: usize| -> std::result::Result<usize, usize> {
            let end = at + class_dump::COUNT_LEN;
            b.get(at..end).map(|s| usize::from(u16::from_be_bytes([s[0], s[1]]))).ok_or(end)
        };
        loop {
            match self.part {
                ClassPart::Fixed => {
                    let at = class_dump::constant_pool_count(id);
                    self.left = count(at)?;
                    self.at = at + class_dump::COUNT_LEN;
                    self.part = ClassPart::Constants;
                }
                ClassPart::Constants => {
                    // The two counts after the constants are asked for with them.
                    self.entries(b, class_dump::CONSTANT_HEAD, 2 * class_dump::COUNT_LEN, id)?;
                    self.part = ClassPart::StaticsCount;
                }
                ClassPart::StaticsCount => {
                    self.left = count(self.at)?;
                    self.at += class_dump::COUNT_LEN;
                    self.part = ClassPart::Statics;
                }
                ClassPart::Statics => {
                    self.entries(b, class_dump::static_head(id), class_dump::COUNT_LEN, id)?;
                    self.part = ClassPart::FieldsCount;
                }
                ClassPart::FieldsCount => {
                    let n = count(self.at)?;
                    self.at += class_dump::COUNT_LEN + n * class_dump::field_len(id);
                    self.part = ClassPart::Measured;
                }
                ClassPart::Measured => return if b.len() >= self.at { Ok(self.at) } else { Err(self.at) },
            }
        }
    }

    /// Walks the entries left of a list whose entries are `head` bytes ending in a type code,
    /// then a value of that type. What it cannot see yet it asks for at once: every entry left
    /// at its smallest, and the `rest` bytes after the list.
    fn entries(&mut self, b: &[u8], head: usize, rest: usize, id: usize) -> std::result::Result<(), usize> {
        let floor = self.at + self.left * head + rest;
        while self.left > 0 {
            let code = b.get(self.at + head - 1).copied().ok_or((self.at + head).max(floor))?;
            self.at += head + value_size(code, id);
            self.left -= 1;
        }
        Ok(())
    }
}
