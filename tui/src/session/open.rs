//! Opening a dump: from the index cache when it holds this dump's analysis, else read, indexed and
//! analysed, with what to store in the cache afterwards; and the bundled demo dump.

use std::io::Read;
use std::path::Path;

use anyhow::Context;

/// The bundled demo dump (`demo/demo.hprof.gz`: OpenJDK 17, `demo/LeakyCache.java`).
const DEMO: &[u8] = include_bytes!("../../../demo/demo.hprof.gz");

/// What the bundled demo is called where a file name would be shown.
pub const DEMO_NAME: &str = "demo.hprof (bundled)";

/// How to open a dump, beyond the engine's options.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// A ProGuard/R8 mapping file's text, to restore obfuscated names.
    pub mapping: Option<String>,
    /// Neither read nor write the index cache.
    pub no_cache: bool,
}

/// How the UI opens dumps: what `heaptui FILE`'s analysis flags ask for (the same as
/// `analyze`'s), for the file given and any opened from the picker.
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    /// The shallow size model (`None`: chosen from the dump).
    pub size_model: Option<heap::SizeModel>,
    /// Whose rules the analysis follows.
    pub semantics: heap::Semantics,
    /// Which dump of a file holding several (0: the first).
    pub dump: usize,
    /// The mapping file's text and the cache choice.
    pub request: Request,
    /// The leak rules' settings.
    pub config: heap::leaks::LeakConfig,
    /// An earlier dump to compare with.
    pub baseline: Option<std::path::PathBuf>,
}

/// An opened dump.
pub struct Opened {
    /// The analysis.
    pub heap: heap::Heap,
    /// Whether it came from the index cache.
    pub from_cache: bool,
    /// Things worth telling a person (where the cache was read, why it was not used).
    pub notes: Vec<String>,
    /// Where to store the analysis in the cache, when it was not read from it.
    pub store: Option<Store>,
}

/// The index cache's place for an analysis, and what the dump was before it was read (a dump
/// that changed meanwhile is not stored under its finished self).
pub struct Store {
    cache: heap::Cache,
    ticket: heap::cache::Ticket,
}

impl Store {
    /// Writes `heap` to the cache.
    pub fn write(&self, heap: &heap::Heap) -> anyhow::Result<()> {
        self.cache.store(heap, &self.ticket)?;
        Ok(())
    }
}

/// The index cache the environment asks for (see `heap::Cache::from_env`), with the size
/// threshold from `$HEAPTUI_INDEX_CACHE_MIN` and the total size from `$HEAPTUI_INDEX_CACHE_MAX`
/// (bytes) when set.
pub fn index_cache() -> Option<heap::Cache> {
    let mut cache = heap::Cache::from_env()?;
    let var = |k: &str| std::env::var(k).ok().and_then(|v| v.parse().ok());
    if let Some(min) = var("HEAPTUI_INDEX_CACHE_MIN") {
        cache.min_bytes = min;
    }
    if let Some(max) = var("HEAPTUI_INDEX_CACHE_MAX") {
        cache.max_bytes = max;
    }
    Some(cache)
}

/// Opens and analyses `path` (from the cache when it can), naming the file in any error.
pub fn open(path: &Path, options: heap::Options<'_>, request: &Request) -> anyhow::Result<Opened> {
    // What else changes the analysis: the mapping file's content.
    let extra = request.mapping.as_deref().map(heap::cache::content_hash).unwrap_or_default();
    // A Perfetto trace is indexed from the HPROF written for it, which the cache does not keep.
    let mut cache = if request.no_cache || heap::perfetto::is_trace(path) { None } else { index_cache() };
    let mut notes = Vec::new();
    if let Some(why) = cache.as_ref().and_then(|c| c.check_dir().err()) {
        notes.push(format!("index cache not used: {why}"));
        cache = None;
    }
    if let Some(cache) = &cache {
        match cache.load(path, options, &extra) {
            Ok(heap) => {
                notes.push(format!("index read from the cache ({})", cache.dir().display()));
                return Ok(Opened { heap, from_cache: true, notes, store: None });
            }
            Err(heap::cache::Miss::Corrupt(why)) => notes.push(format!("index cache not used: {why}")),
            Err(_) => {}
        }
    }
    // What the dump is before it is read: a dump that changes meanwhile is not cached.
    let ticket = cache.as_ref().and_then(|c| c.ticket(path, options, &extra).ok());
    // The file's name once: the engine's message may name it already.
    let mut index = heap::Index::open(path, options).map_err(|e| {
        let shown = path.display().to_string();
        let named = e.to_string().contains(&shown);
        let e = anyhow::Error::new(e);
        if named {
            e
        } else {
            e.context(shown)
        }
    })?;
    if let Some(text) = &request.mapping {
        index.deobfuscate(&heap::proguard::ProguardMap::parse(text));
    }
    let heap = heap::Heap::analyse(index, options);
    let big_enough = |c: &heap::Cache| std::fs::metadata(path).is_ok_and(|m| m.len() >= c.min_bytes);
    let store = match (cache, ticket) {
        (Some(cache), Some(ticket)) if big_enough(&cache) => Some(Store { cache, ticket }),
        _ => None,
    };
    Ok(Opened { heap, from_cache: false, notes, store })
}

/// The bundled demo dump, decompressed.
pub fn demo_bytes() -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(DEMO).read_to_end(&mut bytes).context("the bundled demo dump is damaged")?;
    Ok(bytes)
}

/// The bundled demo dump, analysed, and its size.
pub fn demo(options: heap::Options<'_>) -> anyhow::Result<(heap::Heap, u64)> {
    let bytes = demo_bytes()?;
    let len = bytes.len() as u64;
    let index = heap::Index::from_bytes(bytes, options).context("bundled demo dump")?;
    Ok((heap::Heap::analyse(index, options), len))
}
