//! One module per headless subcommand.

pub mod analyze;
pub mod demo;
pub mod dump;
pub mod inspect;
pub mod live_demo;
pub mod monitor;
pub mod strip;

use std::path::Path;

use anyhow::Context;

/// How to open a dump: the flags `analyze` and `inspect` share.
#[derive(clap::Args)]
pub struct OpenArgs {
    /// Shallow size model.
    #[arg(long, value_enum, default_value_t = crate::SizeModelArg::Auto)]
    pub size_model: crate::SizeModelArg,
    /// Which heap dump to read when the file holds several (1 = the first).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub dump: u32,
    /// A ProGuard/R8 mapping file to restore obfuscated class and field names.
    #[arg(long, value_name = "MAPPING")]
    pub map: Option<std::path::PathBuf>,
    /// Neither read nor write the on-disk index cache (`$HEAPTUI_INDEX_CACHE`, default
    /// `~/.cache/heaptui/index`): analyse the dump from scratch.
    #[arg(long)]
    pub no_cache: bool,
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

/// Opens and analyses `path`, naming the file in any error.
pub fn open(path: &Path, args: &OpenArgs) -> anyhow::Result<heap::Heap> {
    use std::io::IsTerminal;
    // People at a terminal see which phase a big dump is in; scripts see nothing.
    let show = |phase: heap::Phase, done: u64, total: u64| {
        let pct = (done * 100).checked_div(total).unwrap_or(0);
        eprint!("\r\x1b[K{} {pct:>3}%", phase.name());
    };
    let progress: Option<heap::index::Progress<'_>> = if std::io::stderr().is_terminal() { Some(&show) } else { None };
    let options = heap::Options {
        size_model: args.size_model.model(),
        progress,
        dump: args.dump as usize - 1,
        ..Default::default()
    };
    let mapping = match &args.map {
        Some(map) => Some(std::fs::read_to_string(map).with_context(|| format!("cannot read {}", map.display()))?),
        None => None,
    };
    // What else changes the analysis: the mapping file's content.
    let extra = mapping.as_deref().map(heap::cache::content_hash).unwrap_or_default();
    let cache = if args.no_cache { None } else { index_cache() };
    if let Some(cache) = &cache {
        match cache.load(path, options, &extra) {
            Ok(heap) => {
                note(&format!("index read from the cache ({})", cache.dir().display()));
                return Ok(heap);
            }
            Err(heap::cache::Miss::Corrupt(why)) => note(&format!("index cache not used: {why}")),
            Err(_) => {}
        }
    }
    // What the dump is before it is read: a dump that changes meanwhile is not cached.
    let ticket = cache.as_ref().and_then(|c| c.ticket(path, options, &extra).ok());
    let mut index = heap::Index::open(path, options).with_context(|| format!("{}", path.display()))?;
    if let Some(text) = &mapping {
        index.deobfuscate(&heap::proguard::ProguardMap::parse(text));
    }
    let heap = heap::Heap::analyse(index, options);
    if progress.is_some() {
        eprint!("\r\x1b[K");
    }
    if let (Some(cache), Some(ticket)) = (&cache, &ticket) {
        if std::fs::metadata(path).is_ok_and(|m| m.len() >= cache.min_bytes) {
            if let Err(e) = cache.store(&heap, ticket) {
                note(&format!("index cache not written: {e}"));
            }
        }
    }
    Ok(heap)
}

/// Writes `s` to stdout, reporting a closed pipe as an `io::Error`.
pub fn print(s: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Whether notes to stderr are off (the interactive UI owns the terminal).
pub static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A note for people on stderr (what was written where), unless the UI owns the terminal.
pub fn note(s: &str) {
    if !QUIET.load(std::sync::atomic::Ordering::Relaxed) {
        eprintln!("{s}");
    }
}
