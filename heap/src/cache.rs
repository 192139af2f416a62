//! The on-disk index cache: a dump analysed once re-opens without being read again.
//!
//! What is kept is everything [`Heap`] computes from the dump (the index's arrays and class table,
//! the dominator tree with retained sizes, the class histogram, the shortest paths from GC roots);
//! the dump itself is mapped again, since objects' fields are read from it on demand.
//!
//! A cache file is valid for one dump file and one set of options. Its key names the dump's
//! canonical path, size, modification time and a fingerprint of its content (the first and last
//! MiB and 64 samples between), the options that change the analysis, and the engine that wrote
//! it (format number, crate version and a hash of the engine's source): any change, and the cache
//! is a miss and gets rewritten. The whole file carries an XXH3 checksum, and the arrays are
//! checked against each other before use (lengths, node numbers in range, offsets inside the
//! dump), so a damaged or truncated cache is a miss, never a panic or a wrong answer.
//!
//! Files are written to a temporary name and renamed, readable by their owner only (a cache
//! holds class and field names of the dump). The directory keeps the newest [`KEEP`] of them,
//! and no more than [`Cache::max_bytes`] in all (the newest is always kept).
//!
//! Layout (the machine's byte order, named in the key): magic, format, key (JSON), metadata
//! (JSON: header, class table, heaps, counts...), then each array as a `u64` element count
//! followed by its elements, both starting at a multiple of 8 bytes (zeros pad the gaps), then
//! the checksum of everything before it.
//!
//! A cache file is mapped, not read: once its checksum and checks pass, the arrays that grow
//! with the objects are used where they lie ([`Slab`]), so re-opening costs one pass over pages
//! already in the page cache rather than a copy of them into fresh memory. As with the mapped
//! dump, a disk that fails to read a page of the map, or a file cut short while mapped (nothing
//! here truncates one: files are renamed into place), stops the process with `SIGBUS` where a
//! read would have been a cache miss; the file must be this user's and no one else's to write.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

use crate::analysis::{ClassStats, Heap};
use crate::data::Data;
use crate::dominators::raw::{ROOT, UNREACHABLE};
use crate::dominators::{Dominators, Packed};
use crate::hprof::{Header, RootKind};
use crate::index::classes::Class;
use crate::index::column::{Column, Wide};
use crate::index::csr::{Csr, Starts, WEAK};
use crate::index::ids::IdMap;
use crate::index::sizes::{SizeModel, Sizer};
use crate::index::{Counts, HeapName, HeapRuns, Index, Node, Options};
use crate::paths::{GcPaths, Parents};
use crate::slab::Slab;
use memmap2::Mmap;

const MAGIC: &[u8; 8] = b"HTIDX\r\n\x1a";
/// Bumped whenever the layout changes.
const FORMAT: u32 = 11;
/// Every array starts at a multiple of this in the file, so that it can be used where it lies
/// once mapped (the map starts on a page).
const ALIGN: usize = 8;
/// Cache files kept in the directory (the newest).
pub const KEEP: usize = 8;
/// What the cache files may take in all, by default: 8 GiB.
pub const MAX_BYTES: u64 = 8 << 30;
/// Dumps smaller than this are analysed faster than a cache is written: not cached by default.
pub const MIN_BYTES: u64 = 32 << 20;

/// The engine that writes and reads caches: crate version and a hash of its source.
fn engine() -> String {
    let endian = if cfg!(target_endian = "little") { "le" } else { "be" };
    format!("{} {} {endian}", env!("CARGO_PKG_VERSION"), env!("HEAPTUI_ENGINE_HASH"))
}

/// A short hash of `text`, for [`Cache::load`]'s `extra` (a mapping file's content, say).
pub fn content_hash(text: &str) -> String {
    format!("{:016x}", xxh3_64(text.as_bytes()))
}

/// A dump as it was before it was analysed (see [`Cache::ticket`]).
#[derive(Debug, Clone)]
pub struct Ticket {
    key: Key,
    path: PathBuf,
    file: PathBuf,
    skip_references: bool,
}

/// Where caches live and which dumps get one.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
    /// Dumps smaller than this are neither stored nor looked up.
    pub min_bytes: u64,
    /// The most the cache files may take together; the oldest go first (the newest stays).
    pub max_bytes: u64,
}

/// Why a lookup found nothing usable.
#[derive(Debug, thiserror::Error)]
pub enum Miss {
    /// The dump is smaller than the cache's threshold, or compressed input was read from memory.
    #[error("not cached (small dump)")]
    NotCached,
    /// No cache file for this dump.
    #[error("no cached index")]
    Absent,
    /// A cache file for another version of the dump, other options or another engine.
    #[error("the cached index is for another version of the dump")]
    Stale,
    /// A cache file that cannot be used: what is wrong with it.
    #[error("the cached index is damaged ({0})")]
    Corrupt(Damage),
    /// The dump itself could not be read.
    #[error("{0}")]
    Dump(crate::Error),
}

/// What is wrong with a cache file that cannot be used (it is then rebuilt).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Damage {
    /// The file ends before a part it announces.
    #[error("truncated")]
    Truncated,
    /// The file could not be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// It does not start with the cache's magic bytes.
    #[error("not a heaptui index cache")]
    NotCache,
    /// A part's length runs past the end of the file.
    #[error("a length of {0} runs past the end")]
    LengthPastEnd(u64),
    /// A JSON part does not parse.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// Bytes follow the last part.
    #[error("{0} bytes too many")]
    TooLong(u64),
    /// The checksum at the end does not match the contents.
    #[error("checksum mismatch")]
    Checksum,
    /// Parts that disagree with each other or with the dump, named.
    #[error("{0} inconsistent")]
    Inconsistent(&'static str),
    /// The file is another user's, or others may write it: it is used where it lies once
    /// mapped, so no one else may be able to change it.
    #[error("owned by another user or writable by others")]
    NotPrivate,
}

/// The identity of a cache file's content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Key {
    engine: String,
    path: String,
    len: u64,
    mtime_ns: i128,
    fingerprint: u64,
    size_model: Option<SizeModel>,
    semantics: crate::Semantics,
    dump: usize,
    extra: String,
}

#[derive(Serialize, Deserialize)]
struct Meta {
    header: Header,
    classes: Vec<Class>,
    heaps: Vec<HeapName>,
    sizer: Sizer,
    counts: Counts,
    warnings: Vec<String>,
    java_lang_class: u32,
    root_kinds: Vec<RootKind>,
    /// Each thread-owned root's node and its thread's node.
    root_threads: Vec<(u32, u32)>,
    /// The threads' stacks and locals.
    stacks: crate::index::stacks::Stacks,
    reachable_objects: u64,
    reachable_bytes: u64,
    strong_objects: u64,
    paths: bool,
    /// Whose rules the tree, sizes and paths follow.
    semantics: crate::Semantics,
    /// The lowest object id and the shift the ids are packed by ([`IdMap::parts`]).
    ids_min: u64,
    ids_pack: u32,
}

impl Cache {
    /// A cache in `dir` (created when first written).
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into(), min_bytes: MIN_BYTES, max_bytes: MAX_BYTES }
    }

    /// The cache the environment asks for: `$HEAPTUI_INDEX_CACHE` (a directory, or `off`), else
    /// `$XDG_CACHE_HOME/heaptui/index`, else `~/.cache/heaptui/index`; `None` when off or when
    /// there is no home.
    pub fn from_env() -> Option<Cache> {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        if let Some(v) = var("HEAPTUI_INDEX_CACHE") {
            if v == "off" || v == "0" {
                return None;
            }
            return Some(Cache::new(PathBuf::from(v)));
        }
        let base =
            var("XDG_CACHE_HOME").map(PathBuf::from).or_else(|| var("HOME").map(|h| Path::new(&h).join(".cache")))?;
        Some(Cache::new(base.join("heaptui").join("index")))
    }

    /// Whether the directory may hold the cache: when it exists, it must be a directory owned by
    /// this user that no one else can write. A cache file is trusted to describe a dump; one that
    /// another user planted (a shared `HEAPTUI_INDEX_CACHE`) could describe it falsely. Says why
    /// not.
    pub fn check_dir(&self) -> std::result::Result<(), String> {
        use std::os::unix::fs::MetadataExt;
        let meta = match std::fs::metadata(&self.dir) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(format!("{}: {e}", self.dir.display())),
        };
        // SAFETY: geteuid cannot fail.
        let me = unsafe { libc::geteuid() };
        if !meta.is_dir() {
            Err(format!("{} is not a directory", self.dir.display()))
        } else if meta.uid() != me {
            Err(format!("{} belongs to uid {}, not to this user (uid {me})", self.dir.display(), meta.uid()))
        } else if meta.mode() & 0o022 != 0 {
            Err(format!(
                "others can write {} (mode {:o}): a cache there could be planted; `chmod go-w` it or choose another",
                self.dir.display(),
                meta.mode() & 0o7777
            ))
        } else {
            Ok(())
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The cache file for the dump at `path` under `options` and `extra` (anything else the
    /// caller changes the analysis with, such as a mapping file's hash).
    pub fn file_for(&self, path: &Path, options: &Options<'_>, extra: &str) -> PathBuf {
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        // heaptui's own rules keep the names files had before rule sets existed.
        let rules = match options.semantics {
            crate::Semantics::Heaptui => String::new(),
            s => format!("\0{}", s.name()),
        };
        let name = format!("{}\0{:?}\0{}\0{}{rules}", canonical.display(), options.size_model, options.dump, extra);
        self.dir.join(format!("{:016x}.idx", xxh3_64(name.as_bytes())))
    }

    /// The analysed dump at `path`, from its cache file, when there is a valid one.
    pub fn load(&self, path: &Path, options: Options<'_>, extra: &str) -> std::result::Result<Heap, Miss> {
        if options.skip_references {
            return Err(Miss::NotCached);
        }
        let key = key_for(path, &options, extra).map_err(Miss::Dump)?;
        if key.len < self.min_bytes {
            return Err(Miss::NotCached);
        }
        let file = self.file_for(path, &options, extra);
        let f = match File::open(&file) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Miss::Absent),
            Err(e) => return Err(Miss::Corrupt(Damage::Io(e))),
        };
        let span = crate::trace::span("cache: read");
        let parts = read(f, &key);
        drop(span);
        let heap = parts.and_then(|parts| {
            let data = Data::open(path).map_err(Miss::Dump)?;
            parts.assemble(data).map_err(Miss::Corrupt)
        });
        if let Err(Miss::Corrupt(_)) = &heap {
            // Of no use to anyone: the next analysis writes a good one.
            let _ = std::fs::remove_file(&file);
        }
        // The dump must not have changed while it was mapped.
        if heap.is_ok() && key_for(path, &options, extra).ok().as_ref() != Some(&key) {
            return Err(Miss::Stale);
        }
        heap
    }

    /// What the dump at `path` is now, to be taken *before* analysing it and handed to
    /// [`Cache::store`] after: a dump still being written (a pull in progress) is then not
    /// cached under the key of its finished self.
    pub fn ticket(&self, path: &Path, options: Options<'_>, extra: &str) -> crate::Result<Ticket> {
        Ok(Ticket {
            key: key_for(path, &options, extra)?,
            path: path.to_path_buf(),
            file: self.file_for(path, &options, extra),
            skip_references: options.skip_references,
        })
    }

    /// Writes the cache file of `heap`, the dump of `ticket` (taken before the analysis);
    /// returns its path. Computes the shortest paths first if nothing has yet. Refuses when the
    /// dump changed since the ticket was taken, or the heap has no references.
    pub fn store(&self, heap: &Heap, ticket: &Ticket) -> std::io::Result<PathBuf> {
        if ticket.skip_references {
            return Err(std::io::Error::other("an index without references is not cached"));
        }
        let now = key_for(
            &ticket.path,
            &Options {
                size_model: ticket.key.size_model,
                semantics: ticket.key.semantics,
                dump: ticket.key.dump,
                ..Default::default()
            },
            &ticket.key.extra,
        )
        .map_err(|e| std::io::Error::other(e.to_string()))?;
        if now != ticket.key {
            return Err(std::io::Error::other(format!("{} changed while it was read", ticket.path.display())));
        }
        let file = &ticket.file;
        create_private_dir(&self.dir)?;
        let tmp = file.with_extension(format!("idx.{}.tmp", std::process::id()));
        let written = write(&tmp, heap, &ticket.key).and_then(|()| std::fs::rename(&tmp, file));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        self.prune();
        Ok(file.clone())
    }

    /// Removes all but the newest [`KEEP`] cache files, then the oldest of those until they fit
    /// in [`Cache::max_bytes`] (the newest always stays), and temporary files of writers that are
    /// gone (older than an hour).
    fn prune(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        let mut files: Vec<(std::time::SystemTime, PathBuf, u64)> = Vec::new();
        for e in entries.flatten() {
            let p = e.path();
            let Ok(m) = e.metadata() else { continue };
            let modified = m.modified().unwrap_or(std::time::UNIX_EPOCH);
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            // Only names this module writes: the directory may be one the user named.
            let Some(stem) = name.get(..16).filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit())) else { continue };
            let rest = &name[stem.len()..];
            let tmp = rest
                .strip_prefix(".idx.")
                .and_then(|r| r.strip_suffix(".tmp"))
                .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
            if tmp {
                if modified.elapsed().is_ok_and(|age| age.as_secs() > 3600) {
                    let _ = std::fs::remove_file(&p);
                }
            } else if rest == ".idx" {
                files.push((modified, p, m.len()));
            }
        }
        files.sort_by_key(|f| std::cmp::Reverse(f.0));
        let mut total = 0u64;
        for (i, (_, p, len)) in files.into_iter().enumerate() {
            total = total.saturating_add(len);
            if i >= KEEP || (i > 0 && total > self.max_bytes) {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

fn key_for(path: &Path, options: &Options<'_>, extra: &str) -> crate::Result<Key> {
    use std::os::unix::fs::{FileExt, MetadataExt};
    let io =
        |e: std::io::Error| crate::Error::new(0, crate::ErrorKind::Io(format!("cannot read {}: {e}", path.display())));
    let f = File::open(path).map_err(io)?;
    let m = f.metadata().map_err(io)?;
    let len = m.len();
    // The first and last MiB and 64 samples of 4 KiB between.
    let mut h = Xxh3::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut sample = |at: u64, n: usize, h: &mut Xxh3| -> std::io::Result<()> {
        let n = n.min(len.saturating_sub(at) as usize);
        f.read_exact_at(&mut buf[..n], at)?;
        h.update(&buf[..n]);
        Ok(())
    };
    sample(0, 1 << 20, &mut h).map_err(io)?;
    for i in 1..=64u64 {
        sample(len / 65 * i, 4096, &mut h).map_err(io)?;
    }
    sample(len.saturating_sub(1 << 20), 1 << 20, &mut h).map_err(io)?;
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    Ok(Key {
        engine: engine(),
        path: canonical.display().to_string(),
        len,
        mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
        fingerprint: h.digest(),
        size_model: options.size_model,
        semantics: options.semantics,
        dump: options.dump,
        extra: extra.to_string(),
    })
}

/// A writer that hashes what it writes and knows where it is.
struct Hashing<W: Write> {
    out: W,
    hash: Xxh3,
    pos: usize,
}

impl<W: Write> Hashing<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.pos += bytes.len();
        self.out.write_all(bytes)
    }

    /// An array: zeros up to the next multiple of [`ALIGN`], its element count, its elements.
    fn array<T: bytemuck::Pod>(&mut self, v: &[T]) -> std::io::Result<()> {
        let pad = self.pos.next_multiple_of(ALIGN) - self.pos;
        self.put(&[0; ALIGN][..pad])?;
        self.put(&(v.len() as u64).to_le_bytes())?;
        self.put(bytemuck::cast_slice(v))
    }
}

fn starts<W: Write>(w: &mut Hashing<W>, s: &Starts) -> std::io::Result<()> {
    let (base, rel, wide) = s.parts();
    w.array(base)?;
    w.array(rel)?;
    w.array(wide)
}

/// A map of the values too large for their column (node -> value): the nodes, then the values.
fn large<W: Write>(w: &mut Hashing<W>, pairs: impl Iterator<Item = (u32, u64)>) -> std::io::Result<()> {
    let (nodes, values): (Vec<u32>, Vec<u64>) = pairs.unzip();
    w.array(&nodes)?;
    w.array(&values)
}

/// A column's values too wide for it, as [`Wide`] keeps them: a bit for each of the `n` nodes,
/// then the 32-bit values, so that they are read back where they lie, then those of 4 GiB and
/// more as a map.
fn wide<W: Write>(w: &mut Hashing<W>, e: &Wide, n: usize) -> std::io::Result<()> {
    let (bits, values, huge) = e.parts();
    // The bits end at the word of their highest node; the file has a word for every 64 nodes.
    let mut all = vec![0u64; n.div_ceil(64)];
    all[..bits.len()].copy_from_slice(bits);
    w.array(&all)?;
    w.array(values)?;
    large(w, huge.iter().copied())
}

fn write(tmp: &Path, heap: &Heap, key: &Key) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(tmp)?;
    let mut w = Hashing { out: BufWriter::with_capacity(1 << 20, f), hash: Xxh3::new(), pos: 0 };
    let idx = &heap.index;
    let dom = &heap.dominators;
    let paths = heap.paths();
    let (ids_min, ids_pack, ids_lo, ids_runs) = idx.id_map().parts();
    let meta = Meta {
        header: idx.header,
        classes: idx.classes.clone(),
        heaps: idx.heaps.clone(),
        sizer: idx.sizer,
        counts: idx.counts.clone(),
        warnings: idx.warnings.clone(),
        java_lang_class: idx.java_lang_class,
        root_kinds: idx.roots.iter().map(|r| r.1).collect(),
        root_threads: {
            let mut v: Vec<(u32, u32)> = idx.root_threads.iter().map(|(&k, &v)| (k, v)).collect();
            v.sort_unstable();
            v
        },
        stacks: idx.stacks.clone(),
        reachable_objects: dom.reachable_objects,
        reachable_bytes: dom.reachable_bytes,
        strong_objects: dom.strong_objects,
        paths: true,
        semantics: heap.semantics,
        ids_min,
        ids_pack,
    };
    w.put(MAGIC)?;
    w.put(&FORMAT.to_le_bytes())?;
    w.array(&serde_json::to_vec(key)?)?;
    w.array(&serde_json::to_vec(&meta)?)?;
    // The index.
    // The ids as the map keeps them, 4 bytes each: the low bits, and the runs of high bits.
    w.array(ids_lo)?;
    w.array(&ids_runs.iter().flat_map(|&(high, start)| [high, start]).collect::<Vec<u32>>())?;
    w.array(&idx.offsets.lo)?;
    w.array(&idx.offsets.hi)?;
    w.array(&idx.heap_runs.starts)?;
    w.array(&idx.heap_runs.heaps)?;
    w.array(&idx.class_of.lo)?;
    w.array(&idx.class_of.hi)?;
    w.array(&idx.shallow)?;
    large(&mut w, idx.big_shallow.iter().map(|(&n, &v)| (n, v)))?;
    starts(&mut w, &idx.refs.starts)?;
    w.array(&idx.refs.targets)?;
    w.array(&idx.roots.iter().map(|&(n, _)| n.0).collect::<Vec<u32>>())?;
    w.array(&idx.marked_unreachable)?;
    let mut strings: Vec<(u64, (u64, u32))> = idx.strings.iter().map(|(&k, &v)| (k, v)).collect();
    strings.sort_unstable_by_key(|s| s.0);
    w.array(&strings.iter().map(|s| s.0).collect::<Vec<u64>>())?;
    w.array(&strings.iter().map(|s| s.1 .0).collect::<Vec<u64>>())?;
    w.array(&strings.iter().map(|s| s.1 .1).collect::<Vec<u32>>())?;
    drop(strings);
    let (by_id_k, by_id_v): (Vec<u64>, Vec<u32>) = idx.class_by_id.iter().map(|(&k, &v)| (k, v)).unzip();
    w.array(&by_id_k)?;
    w.array(&by_id_v)?;
    // The dominator tree.
    w.array(&dom.idom)?;
    w.array(&dom.retained)?;
    wide(&mut w, &dom.big_retained, idx.len())?;
    w.array(&dom.retained_count)?;
    wide(&mut w, &dom.big_count, idx.len())?;
    w.array(&dom.reach)?;
    starts(&mut w, &dom.child_starts)?;
    w.array(&dom.children)?;
    // The histogram.
    let hist: Vec<u64> = heap.histogram.iter().flat_map(|c| [c.instances, c.shallow_bytes, c.retained_bytes]).collect();
    w.array(&hist)?;
    // The shortest paths.
    let (parent_bits, parent_values) = paths.differences(&dom.idom);
    w.array(&parent_bits)?;
    w.array(&parent_values)?;
    w.array(&paths.weak_via)?;
    let sum = w.hash.digest();
    w.out.write_all(&sum.to_le_bytes())?;
    // No fsync: a file torn by a crash fails its checksum and is rewritten.
    w.out.flush()
}

/// A cursor over a mapped cache file, before its checksum: arrays are handed out as [`Slab`]s
/// over the map itself, where they lie.
struct Reading<'m> {
    map: &'m Arc<Mmap>,
    pos: usize,
    /// Where the parts end (the checksum follows).
    end: usize,
}

impl Reading<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Damage> {
        if n > self.end - self.pos {
            return Err(Damage::Truncated);
        }
        self.pos += n;
        Ok(&self.map[self.pos - n..self.pos])
    }

    /// The element count before an array, past the padding that aligns it.
    fn count(&mut self, elem: usize) -> Result<usize, Damage> {
        let at = self.pos.next_multiple_of(ALIGN);
        if at > self.end {
            return Err(Damage::Truncated);
        }
        self.pos = at;
        let b = self.take(8)?;
        let n = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        if n.checked_mul(elem as u64).is_none_or(|bytes| bytes > (self.end - self.pos) as u64) {
            return Err(Damage::LengthPastEnd(n));
        }
        Ok(n as usize)
    }

    /// The next array's bytes.
    fn bytes<T>(&mut self) -> Result<&[u8], Damage> {
        let n = self.count(std::mem::size_of::<T>())?;
        self.take(n * std::mem::size_of::<T>())
    }

    /// The next array, where it lies in the file.
    fn array<T: bytemuck::Pod + Send + Sync>(&mut self) -> Result<Slab<T>, Damage> {
        let map = self.map;
        let bytes = self.bytes::<T>()?;
        Slab::mapped(map, bytes).ok_or(Damage::Inconsistent("alignment"))
    }

    /// The next array, copied (for the small tables that are rebuilt or changed); its pages
    /// are given back.
    fn vec<T: bytemuck::Pod>(&mut self) -> Result<Vec<T>, Damage> {
        let bytes = self.bytes::<T>()?;
        let mut v = vec![T::zeroed(); bytes.len() / std::mem::size_of::<T>()];
        bytemuck::cast_slice_mut(&mut v).copy_from_slice(bytes);
        let len = bytes.len();
        self.release(len);
        Ok(v)
    }

    /// The next array of bytes parsed as JSON; its pages are given back.
    fn json<T: serde::de::DeserializeOwned>(&mut self) -> Result<T, Damage> {
        let bytes = self.bytes::<u8>()?;
        let (parsed, len) = (serde_json::from_slice(bytes)?, bytes.len());
        self.release(len);
        Ok(parsed)
    }

    /// Gives back the pages of the `len` bytes just read, which were copied or parsed: the
    /// checksum brought every page of the file in, and these would stay in the process's
    /// resident set for as long as any array of the file is used (the class table's JSON is
    /// 15 MB of a 38 MB cache with 26,777 classes).
    fn release(&self, len: usize) {
        // The whole 64 KiB blocks inside the part (64 KiB is a multiple of every page size Linux
        // uses, and the map starts on a page): the arrays on either side keep their pages.
        let (start, end) = ((self.pos - len).next_multiple_of(0x10000), self.pos & !0xffff);
        if end > start {
            // SAFETY: the map is read-only and shared, and the file is not written while mapped
            // (see `Slab::mapped`): a page dropped here, even one an array shares, reads back
            // the same bytes from the page cache. Failure only leaves pages resident.
            let _ = unsafe { self.map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start) };
        }
    }

    /// A map written by [`large`]; its nodes are checked against the object count later.
    fn large(&mut self) -> Result<FxHashMap<u32, u64>, Damage> {
        Ok(self.pairs()?.into_iter().collect())
    }

    /// The pairs written by [`large`], in the order written (repeats kept).
    fn pairs(&mut self) -> Result<Vec<(u32, u64)>, Damage> {
        let (nodes, values): (Vec<u32>, Vec<u64>) = (self.vec()?, self.vec()?);
        if nodes.len() != values.len() {
            return Err(Damage::Inconsistent("large values"));
        }
        Ok(nodes.into_iter().zip(values).collect())
    }

    /// Values written by [`wide`] for `n` nodes, the 32-bit ones where they lie.
    fn wide(&mut self, n: usize) -> Result<Wide, Damage> {
        let (bits, values) = (self.array()?, self.array()?);
        // As written, in rising order: `from_parts` refuses any other order, and repeats.
        let huge = self.pairs()?;
        Wide::from_parts(n, bits, values, huge).ok_or(Damage::Inconsistent("large values"))
    }

    /// Row starts (see [`Starts`]).
    fn starts(&mut self) -> Result<Starts, Damage> {
        let (base, rel, wide) = (self.array()?, self.array()?, self.array()?);
        Starts::from_parts(base, rel, wide).ok_or(Damage::Inconsistent("row starts"))
    }
}

/// Whether `children` (rows by node, the virtual root's last) is exactly the tree `idom`
/// describes, and a tree: each node listed once, in the row of its immediate dominator, and
/// every node's retained count above each of its children's (so following `idom` upwards
/// always ends: no cycle would send the tree's walkers round for ever). Linear passes, no walk,
/// the rows on every core.
///
/// Once is counted rather than marked: a row in ascending order lists no node twice, a node
/// whose `idom` names the row cannot be in another, and as many listed as reached leaves none
/// out. `idom` and `children` must name nodes or the tree's marks, and the rows lie inside
/// `children` (checked before).
fn is_tree(
    idom: &[u32],
    retained_count: &(dyn Fn(u32) -> u64 + Sync),
    child_starts: &Starts,
    children: &[u32],
) -> bool {
    use rayon::prelude::*;
    let n = idom.len();
    let row_ok = |k: usize| {
        let row = &children[child_starts.get(k) as usize..child_starts.get(k + 1) as usize];
        let ascending = row.windows(2).all(|w| w[0] < w[1]);
        if k == n {
            return ascending && row.iter().all(|&c| idom[c as usize] == ROOT);
        }
        // An unreachable node has no children: every chain up the tree ends at the root.
        if idom[k] == UNREACHABLE {
            return row.is_empty();
        }
        let above = retained_count(k as u32);
        ascending && row.iter().all(|&c| idom[c as usize] == k as u32 && above > retained_count(c))
    };
    let reached = idom.par_iter().filter(|&&d| d != UNREACHABLE).count();
    reached == children.len() && (0..=n).into_par_iter().all(row_ok)
}

/// Everything a cache file holds, checksummed, not yet checked for consistency. The arrays
/// that grow with the objects are [`Slab`]s over the mapped file; the small tables are copies.
struct Parts {
    meta: Meta,
    ids: IdMap,
    offsets: Slab<u32>,
    offsets_hi: Slab<u8>,
    run_starts: Vec<u64>,
    run_heaps: Vec<u32>,
    class_of: Slab<u16>,
    class_hi: Slab<u8>,
    shallow: Slab<u16>,
    big_shallow: FxHashMap<u32, u64>,
    starts: Starts,
    targets: Slab<u32>,
    root_nodes: Vec<u32>,
    marked_unreachable: Vec<u32>,
    string_ids: Slab<u64>,
    string_offsets: Slab<u64>,
    string_lens: Slab<u32>,
    by_id_k: Vec<u64>,
    by_id_v: Vec<u32>,
    idom: Slab<u32>,
    retained: Slab<u16>,
    big_retained: Wide,
    retained_count: Slab<u16>,
    big_count: Wide,
    reach: Slab<u8>,
    child_starts: Starts,
    children: Slab<u32>,
    hist: Vec<u64>,
    parent_bits: Slab<u64>,
    parent_values: Slab<u32>,
    weak_via: Slab<u64>,
}

/// Maps the cache file `f` and checks that it is `key`'s, whole: its checksum is taken in one
/// pass over the map, which also brings its pages in.
fn read(f: File, key: &Key) -> std::result::Result<Parts, Miss> {
    use std::os::unix::fs::MetadataExt;
    let corrupt = Miss::Corrupt;
    // The directory is this user's and no one else's to write (`Cache::check_dir`); the file
    // must be too, as this process writes them (mode 0600).
    let meta = f.metadata().map_err(|e| corrupt(e.into()))?;
    // SAFETY: geteuid cannot fail.
    if meta.uid() != unsafe { libc::geteuid() } || meta.mode() & 0o022 != 0 {
        return Err(corrupt(Damage::NotPrivate));
    }
    // SAFETY: a cache file is written once under a temporary name in a directory only its owner
    // can enter, renamed, and never written in place again (see `Slab::mapped`).
    let map = Arc::new(unsafe { Mmap::map(&f) }.map_err(|e| corrupt(e.into()))?);
    let len = map.len();
    if len < ALIGN + 8 + 8 {
        return Err(corrupt(Damage::Truncated));
    }
    let mut r = Reading { map: &map, pos: 0, end: len - 8 };
    let head = r.take(12).map_err(corrupt)?;
    if &head[..8] != MAGIC {
        return Err(corrupt(Damage::NotCache));
    }
    if u32::from_le_bytes([head[8], head[9], head[10], head[11]]) != FORMAT {
        return Err(Miss::Stale);
    }
    let found: Key = serde_json::from_slice(r.bytes::<u8>().map_err(corrupt)?).map_err(|e| corrupt(e.into()))?;
    if found != *key {
        return Err(Miss::Stale);
    }
    let span = crate::trace::span("cache: checksum");
    let (body, sum) = map.split_at(len - 8);
    if xxh3_64(body).to_le_bytes() != sum {
        return Err(corrupt(Damage::Checksum));
    }
    drop(span);
    let mut go = || -> Result<Parts, Damage> {
        let meta: Meta = r.json()?;
        let (lo, runs): (Slab<u32>, Vec<u32>) = (r.array()?, r.vec()?);
        if runs.len() % 2 != 0 {
            return Err(Damage::Inconsistent("object ids"));
        }
        let runs = runs.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let ids = IdMap::from_parts(meta.ids_min, meta.ids_pack, lo, runs).ok_or(Damage::Inconsistent("object ids"))?;
        let n = ids.len();
        Ok(Parts {
            meta,
            ids,
            offsets: r.array()?,
            offsets_hi: r.array()?,
            run_starts: r.vec()?,
            run_heaps: r.vec()?,
            class_of: r.array()?,
            class_hi: r.array()?,
            shallow: r.array()?,
            big_shallow: r.large()?,
            starts: r.starts()?,
            targets: r.array()?,
            root_nodes: r.vec()?,
            marked_unreachable: r.vec()?,
            string_ids: r.array()?,
            string_offsets: r.array()?,
            string_lens: r.array()?,
            by_id_k: r.vec()?,
            by_id_v: r.vec()?,
            idom: r.array()?,
            retained: r.array()?,
            big_retained: r.wide(n)?,
            retained_count: r.array()?,
            big_count: r.wide(n)?,
            reach: r.array()?,
            child_starts: r.starts()?,
            children: r.array()?,
            hist: r.vec()?,
            parent_bits: r.array()?,
            parent_values: r.array()?,
            weak_via: r.array()?,
        })
    };
    let parts = go().map_err(corrupt)?;
    if r.pos != r.end {
        return Err(corrupt(Damage::TooLong((r.end - r.pos) as u64)));
    }
    Ok(parts)
}

impl Parts {
    /// Checks the arrays against each other and against the dump, and builds the heap. A file
    /// that passes cannot make the engine index out of bounds or walk the tree for ever,
    /// however it was damaged: every node, class, row and offset is checked once, here.
    fn assemble(mut self, data: Data) -> Result<Heap, Damage> {
        let (Some(offsets), Some(class_of)) = (
            Column::from_parts(std::mem::take(&mut self.offsets), std::mem::take(&mut self.offsets_hi)),
            Column::from_parts(std::mem::take(&mut self.class_of), std::mem::take(&mut self.class_hi)),
        ) else {
            return Err(Damage::Inconsistent("array lengths"));
        };
        let file = data.len() as u64;
        let span = crate::trace::span("cache: check objects");
        self.check_objects(&offsets, &class_of, file)?;
        drop(span);
        let span = crate::trace::span("cache: check graph, tables");
        let (graph, tables) = rayon::join(|| self.check_graph(), || self.check_tables(file));
        graph.and(tables)?;
        drop(span);
        if crate::hprof::parse_header(&data).ok() != Some(self.meta.header) {
            return Err(Damage::Inconsistent("dump header"));
        }
        let _span = crate::trace::span("cache: heap");
        self.into_heap(data, offsets, class_of)
    }

    /// The per-object arrays (the ids were found in order as their map was made): their lengths,
    /// offsets inside the file, heaps and class numbers in range.
    fn check_objects(&self, offsets: &Column<u32>, class_of: &Column<u16>, file: u64) -> Result<(), Damage> {
        let bad = |what: &'static str| Err(Damage::Inconsistent(what));
        let n = self.ids.len();
        let classes = self.meta.classes.len();
        // Node numbers stay below the tree's marks (the index makes no more nodes than that).
        if n >= ROOT as usize {
            return bad("object count");
        }
        if [offsets.len(), class_of.len(), self.shallow.len(), self.idom.len()] != [n; 4]
            || [self.retained.len(), self.retained_count.len(), self.reach.len()] != [n; 3]
        {
            return bad("array lengths");
        }
        if self.starts.len() != n + 1 || self.child_starts.len() != n + 2 {
            return bad("row starts");
        }
        if self.meta.heaps.is_empty() {
            return bad("heaps");
        }
        let heaps = self.meta.heaps.len();
        if !offsets.iter().all(|o| o < file) {
            return bad("file offsets");
        }
        if self.run_starts.len() != self.run_heaps.len()
            || !self.run_starts.windows(2).all(|w| w[0] < w[1])
            || !self.run_heaps.iter().all(|&h| (h as usize) < heaps)
        {
            return bad("heaps");
        }
        if !class_of.iter().all(|c| (c as usize) < classes)
            || !self.by_id_v.iter().all(|&c| (c as usize) < classes)
            || self.meta.java_lang_class as usize >= classes
        {
            return bad("class numbers");
        }
        Ok(())
    }

    /// The reference graph and the dominator tree: rows in order and in range, every node
    /// once in the tree under its immediate dominator, large values naming real nodes.
    /// The two halves run side by side; each reads only arrays
    /// [`check_objects`](Self::check_objects) has found of the right lengths.
    fn check_graph(&self) -> Result<(), Damage> {
        let (references, tree) = rayon::join(|| self.check_references(), || self.check_tree());
        references.and(tree)
    }

    /// The reference graph: rows in order, targets in range.
    fn check_references(&self) -> Result<(), Damage> {
        let n = self.ids.len();
        use rayon::prelude::*;
        if !rows_ok(&self.starts, self.targets.len()) || !self.targets.par_iter().all(|&t| ((t & !WEAK) as usize) < n) {
            return Err(Damage::Inconsistent("references"));
        }
        Ok(())
    }

    /// The dominator tree: every node once under its immediate dominator, large values naming
    /// real nodes.
    fn check_tree(&self) -> Result<(), Damage> {
        let bad = |what: &'static str| Err(Damage::Inconsistent(what));
        let n = self.ids.len();
        let nodes_ok = |v: &[u32]| v.iter().all(|&x| (x as usize) < n);
        if !rows_ok(&self.child_starts, self.children.len()) || !nodes_ok(&self.children) {
            return bad("dominator tree");
        }
        if !self.idom.iter().all(|&d| (d as usize) < n || d == ROOT || d == UNREACHABLE) {
            return bad("dominators");
        }
        let large_ok = |m: &FxHashMap<u32, u64>| m.keys().all(|&x| (x as usize) < n);
        let escapes_ok = |e: &Wide| e.end() <= n;
        if !escapes_ok(&self.big_count) {
            return bad("large retained counts");
        }
        let counts = Packed { small: &self.retained_count[..], big: &self.big_count };
        if !is_tree(&self.idom, &|x| counts.get(x), &self.child_starts, &self.children) {
            return bad("dominator tree");
        }
        if !large_ok(&self.big_shallow) {
            return bad("large sizes");
        }
        if !escapes_ok(&self.big_retained) {
            return bad("large retained sizes");
        }
        Ok(())
    }

    /// Roots, strings, the class table and the paths: nodes and classes in range, strings
    /// inside the file.
    fn check_tables(&self, file: u64) -> Result<(), Damage> {
        let bad = |what: &'static str| Err(Damage::Inconsistent(what));
        let (meta, n) = (&self.meta, self.ids.len());
        let classes = meta.classes.len();
        let nodes_ok = |v: &[u32]| v.iter().all(|&x| (x as usize) < n);
        if self.root_nodes.len() != meta.root_kinds.len()
            || !nodes_ok(&self.root_nodes)
            || !nodes_ok(&self.marked_unreachable)
        {
            return bad("GC roots");
        }
        if self.string_ids.len() != self.string_offsets.len()
            || self.string_ids.len() != self.string_lens.len()
            || !self
                .string_offsets
                .iter()
                .zip(&self.string_lens)
                .all(|(&o, &l)| o.checked_add(u64::from(l)).is_some_and(|e| e <= file))
        {
            return bad("strings");
        }
        if self.by_id_k.len() != self.by_id_v.len() || self.hist.len() != classes * 3 {
            return bad("class table");
        }
        let class_refs_ok = meta.classes.iter().all(|c| {
            c.super_class.is_none_or(|s| s.index() < classes)
                && c.node.is_none_or(|x| x.index() < n)
                && c.fields.iter().all(|f| f.declared_by.index() < classes)
        });
        if !class_refs_ok {
            return bad("class table");
        }
        if self.meta.root_threads.iter().any(|&(r, t)| r as usize >= n || t as usize >= n) {
            return bad("GC roots' threads");
        }
        if !self.meta.stacks.check(n) {
            return bad("threads' stacks");
        }
        if meta.paths
            && (self.weak_via.len() != n.div_ceil(64)
                || !self.parent_values.iter().all(|&p| (p as usize) < n || p >= crate::paths::IS_ROOT))
        {
            return bad("paths");
        }
        Ok(())
    }

    /// The heap the checked parts make.
    fn into_heap(self, data: Data, offsets: Column<u32>, class_of: Column<u16>) -> Result<Heap, Damage> {
        let parents = if self.meta.paths {
            match Parents::except(self.idom.clone(), self.parent_bits, self.parent_values) {
                Some(p) => Some(p),
                None => return Err(Damage::Inconsistent("paths")),
            }
        } else {
            None
        };
        let meta = self.meta;
        let class_by_node =
            meta.classes.iter().enumerate().filter_map(|(i, c)| c.node.map(|node| (node.0, i as u32))).collect();
        let strings: FxHashMap<u64, (u64, u32)> = self
            .string_ids
            .iter()
            .zip(self.string_offsets.iter().zip(&self.string_lens))
            .map(|(&id, (&o, &l))| (id, (o, l)))
            .collect();
        let index = Index {
            data,
            header: meta.header,
            strings,
            classes: meta.classes,
            class_by_id: self.by_id_k.into_iter().zip(self.by_id_v).collect(),
            class_by_node,
            ids: crate::index::ids::Ids::whole(self.ids),
            offsets,
            heap_runs: HeapRuns { starts: self.run_starts, heaps: self.run_heaps },
            class_of,
            shallow: self.shallow,
            big_shallow: self.big_shallow,
            refs: Csr { starts: self.starts, targets: self.targets },
            roots: self.root_nodes.into_iter().map(Node).zip(meta.root_kinds).collect(),
            root_threads: meta.root_threads.into_iter().collect(),
            stacks: meta.stacks,
            marked_unreachable: self.marked_unreachable,
            heaps: meta.heaps,
            sizer: meta.sizer,
            counts: meta.counts,
            warnings: meta.warnings,
            heap_graph: None,
            java_lang_class: meta.java_lang_class,
            by_name: Default::default(),
            edge_kinds: Default::default(),
            string_hashes: Default::default(),
        };
        let dominators = Dominators {
            idom: self.idom,
            retained: self.retained,
            big_retained: self.big_retained,
            retained_count: self.retained_count,
            big_count: self.big_count,
            reach: self.reach,
            child_starts: self.child_starts,
            children: self.children,
            reachable_objects: meta.reachable_objects,
            reachable_bytes: meta.reachable_bytes,
            strong_objects: meta.strong_objects,
        };
        let histogram = self
            .hist
            .chunks_exact(3)
            .map(|c| ClassStats { instances: c[0], shallow_bytes: c[1], retained_bytes: c[2] })
            .collect();
        let paths = OnceLock::new();
        if let Some(parents) = parents {
            let _ = paths.set(GcPaths { parents, weak_via: self.weak_via });
        }
        let mut heap = Heap::assemble(index, dominators, histogram, paths);
        heap.semantics = meta.semantics;
        Ok(heap)
    }
}

/// Whether `starts` are the row starts of `len` entries: from 0 to `len`, never going down.
fn rows_ok(starts: &Starts, len: usize) -> bool {
    let mut prev = 0u32;
    !starts.is_empty()
        && starts.get(0) == 0
        && starts.get(starts.len() - 1) as usize == len
        && starts.iter().all(|x| std::mem::replace(&mut prev, x) <= x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` in a file of their own, mapped.
    fn mapped(bytes: &[u8]) -> Arc<Mmap> {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(bytes).unwrap();
        Arc::new(unsafe { Mmap::map(&f) }.unwrap())
    }

    /// Arrays written after parts of any length start aligned, and read back in place.
    #[test]
    fn arrays_are_aligned_and_read_where_they_lie() {
        let mut w = Hashing { out: Vec::new(), hash: Xxh3::new(), pos: 0 };
        w.put(b"odd").unwrap();
        w.array(&[1u8, 2, 3]).unwrap();
        w.array(&[4u16]).unwrap();
        w.array(&[5u64, 6]).unwrap();
        w.array(&[7u32]).unwrap();
        let map = mapped(&w.out);
        let mut r = Reading { map: &map, pos: 3, end: map.len() };
        assert_eq!(&r.array::<u8>().unwrap()[..], [1, 2, 3]);
        assert_eq!(r.vec::<u16>().unwrap(), [4]);
        let wide = r.array::<u64>().unwrap();
        assert_eq!(&wide[..], [5, 6]);
        assert!(map.as_ptr_range().contains(&(wide.as_ptr() as *const u8)), "not copied");
        assert_eq!(&r.array::<u32>().unwrap()[..], [7]);
        assert_eq!(r.pos, r.end);
        assert!(matches!(r.array::<u8>(), Err(Damage::Truncated)));
    }

    /// Wide values read back as the [`Wide`] written, and only for as many nodes as they were
    /// written for.
    #[test]
    fn wide_values_are_read_for_the_object_count() {
        let e = Wide::from_pairs(vec![(9, 70_000), (2, 1 << 40)]).unwrap();
        let mut w = Hashing { out: Vec::new(), hash: Xxh3::new(), pos: 0 };
        wide(&mut w, &e, 10).unwrap();
        let map = mapped(&w.out);
        let read = |n: usize| Reading { map: &map, pos: 0, end: map.len() }.wide(n);
        assert_eq!(read(10).unwrap().iter().collect::<Vec<_>>(), [(2, 1 << 40), (9, 70_000)]);
        assert!(matches!(read(9), Err(Damage::Inconsistent(_))), "node 9 past the end");
        assert!(matches!(read(65), Err(Damage::Inconsistent(_))), "a word short");
    }

    /// Children rows from `idom` (the virtual root's row last), as `Dominators` keeps them.
    fn rows(idom: &[u32]) -> (Vec<u32>, Vec<u32>) {
        let n = idom.len();
        let slot = |d: u32| if d == ROOT { n } else { d as usize };
        let mut starts = vec![0u32; n + 2];
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        for (v, &d) in idom.iter().enumerate() {
            if d != UNREACHABLE {
                lists[slot(d)].push(v as u32);
            }
        }
        let mut children = Vec::new();
        for (k, l) in lists.iter().enumerate() {
            starts[k] = children.len() as u32;
            children.extend(l);
        }
        starts[n + 1] = children.len() as u32;
        (starts, children)
    }

    /// Retained counts as `Dominators` computes them (1 + the children's), or `u32::MAX` when
    /// the chain does not end (a cycle: any count then fails the check).
    fn counts(idom: &[u32]) -> Vec<u32> {
        (0..idom.len())
            .map(|v| {
                if idom[v] == UNREACHABLE {
                    return 0;
                }
                (0..idom.len())
                    .filter(|&w| {
                        let mut cur = w;
                        for _ in 0..=idom.len() {
                            if cur == v {
                                return true;
                            }
                            match idom[cur] {
                                ROOT | UNREACHABLE => return false,
                                d => cur = d as usize,
                            }
                        }
                        false
                    })
                    .count() as u32
            })
            .collect()
    }

    /// `is_tree` with the counts as a list.
    fn tree(idom: &[u32], counts: &[u32], s: &[u32], c: &[u32]) -> bool {
        is_tree(idom, &|x| u64::from(counts[x as usize]), &Starts::new(s), c)
    }

    #[test]
    fn trees_pass_and_cycles_do_not() {
        // 0 and 3 under the root, 1 under 0, 2 under 1; 4 unreachable.
        let idom = [ROOT, 0, 1, ROOT, UNREACHABLE];
        let (s, c) = rows(&idom);
        assert_eq!(counts(&idom), [3, 2, 1, 1, 0]);
        assert!(tree(&idom, &counts(&idom), &s, &c));
        // 1 and 2 dominate each other: consistent rows, no way down from the root.
        let idom = [ROOT, 2, 1, ROOT, UNREACHABLE];
        let (s, c) = rows(&idom);
        assert!(!tree(&idom, &counts(&idom), &s, &c));
        // ... whatever counts the file claims.
        assert!(!tree(&idom, &[3, 2, 1, 1, 0], &s, &c));
        assert!(!tree(&idom, &[3, 1, 2, 1, 0], &s, &c));
        // A node its own dominator.
        let idom = [ROOT, 1, 1, ROOT, UNREACHABLE];
        let (s, c) = rows(&idom);
        assert!(!tree(&idom, &[3, 2, 1, 1, 0], &s, &c));
        // A node listed twice.
        let idom = [ROOT, 0, 1, ROOT, UNREACHABLE];
        let (s, mut c) = rows(&idom);
        let at = c.iter().position(|&x| x == 2).unwrap();
        c[at] = 1;
        assert!(!tree(&idom, &counts(&idom), &s, &c));
        // Twice in its own row, in place of another node of that row.
        let (s, mut c) = rows(&idom);
        let at = c.iter().position(|&x| x == 3).unwrap();
        c[at] = 0;
        assert!(!tree(&idom, &counts(&idom), &s, &c));
        // The unreachable node listed under the root, in place of one that belongs there.
        let (s, mut c) = rows(&idom);
        let at = c.iter().position(|&x| x == 3).unwrap();
        c[at] = 4;
        assert!(!tree(&idom, &counts(&idom), &s, &c));
        // A reached node under an unreachable one: the walk up would end off the tree.
        let idom = [ROOT, 0, 1, 4, UNREACHABLE];
        let (s, c) = rows(&idom);
        assert!(!tree(&idom, &[3, 2, 1, 1, 2], &s, &c));
    }
}
