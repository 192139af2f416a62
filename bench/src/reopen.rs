//! `--reopen [FILE...]`: re-opening a dump already analysed, from the on-disk index cache.
//!
//! For each dump (default: the 1 GB HeapGen dump): analyse it and write its cache (timed), then
//! in a fresh process read the cache back (timed: to a heap that answers everything but leaks)
//! and find the leaks (timed apart: they are computed, not cached).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

pub fn run(files: Vec<PathBuf>) -> Result<()> {
    let files = if files.is_empty() { vec![crate::make_dump(1000)?] } else { files };
    let dir = crate::cache_dir().join("index-cache");
    for f in files {
        let size = std::fs::metadata(&f)?.len();
        println!("\n{} ({:.1} MB)", f.display(), size as f64 / 1e6);
        let mut cache = heap::Cache::new(&dir);
        cache.min_bytes = 0;
        let ticket = cache.ticket(&f, heap::Options::default(), "")?;
        let t = Instant::now();
        let heap = heap::Heap::open(&f, heap::Options::default())?;
        let analysed = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let file = cache.store(&heap, &ticket)?;
        let stored = t.elapsed().as_secs_f64();
        drop(heap);
        // On disk before the re-opens: one long after the analysis does not share the disk with
        // the writeback of the file it reads (seconds for a cache of 1.7 GB here).
        std::fs::File::open(&file)?.sync_all()?;
        let cache_bytes = std::fs::metadata(&file)?.len();
        println!(
            "  analysed {analysed:.2} s, cache written {stored:.2} s ({:.0} MB, {:.2}x the dump)",
            cache_bytes as f64 / 1e6,
            cache_bytes as f64 / size as f64
        );
        for _ in 0..3 {
            let out = Command::new(std::env::current_exe()?).arg("--reopen-one").arg(&f).arg(&dir).output()?;
            if !out.status.success() {
                bail!("re-opening failed: {}", String::from_utf8_lossy(&out.stderr));
            }
            print!("{}", String::from_utf8_lossy(&out.stdout));
        }
        // Each dump's cache file is as large as half the dump or more: none is kept.
        let _ = std::fs::remove_file(&file);
    }
    Ok(())
}

/// Child: read the cache back, then find the leaks.
pub fn one(dump: &Path, dir: &Path) -> Result<()> {
    let mut cache = heap::Cache::new(dir);
    cache.min_bytes = 0;
    let t = Instant::now();
    let heap = cache.load(dump, heap::Options::default(), "").map_err(|m| anyhow::anyhow!("{m}")).context("cache")?;
    let loaded = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let leaks = heap::leaks::find_leaks(&heap, &heap::leaks::LeakConfig::default());
    let leak_time = t.elapsed().as_secs_f64();
    println!(
        "  re-opened {loaded:.2} s ({} objects), leaks {leak_time:.2} s ({} groups), peak RSS {:.0} MB",
        heap.index.len(),
        leaks.len(),
        crate::peak_rss() as f64 / 1e6
    );
    Ok(())
}
