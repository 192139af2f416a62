//! `heaptui-bench`: whole-engine runs on real dumps, each phase timed, peak memory measured.
//!
//! Dumps are made on demand by `bench/java/HeapGen.java` on the local OpenJDK and cached outside
//! the repository (`$HEAPTUI_BENCH_CACHE`, else `$XDG_CACHE_HOME/heaptui-bench`, else
//! `~/.cache/heaptui-bench`). Each dump is analysed in a fresh child process so its peak RSS is its
//! own. With `--peer visualvm` VisualVM's heap library computes the same (histogram, retained sizes,
//! top retained) through `bench/visualvm/VisualVmHeap.java`, its runs alternating with ours, and
//! the ratio of the medians is printed; `--peer hprof-analyzer` does the same with hprof-analyzer's
//! whole report. Without files, the suite also runs an Android-shaped dump
//! converted from the largest HeapGen dump (`android.rs`) and Eclipse MAT's 500 MB test dump.
//! With `--shapes` it runs one dump of each shape instead (`bench/java/Shapes.java`: deep chains,
//! long linked lists, wide maps of small objects, many classes and loaders, huge arrays), with
//! HeapGen's mix and the Android conversion, each at the largest `--sizes`. With `--scale` it runs
//! HeapGen's largest dump repeated to about each size in GB (`tile.rs`: 32 GB is more than this
//! machine's memory), deletes the repeated dumps after (unless `--keep`), and writes the results
//! to `scale.tsv` in the cache, which `--plot` draws.
//!
//! ```text
//! cargo run --release -p heaptui-bench -- [--sizes 100,1000] [--peer visualvm|hprof-analyzer] [--runs N]
//!                                          [--no-android] [--no-mat] [FILE...]
//! cargo run --release -p heaptui-bench -- --shapes [--sizes 1000] [--runs N]   # every shape
//! cargo run --release -p heaptui-bench -- --scale 1,4,32 [--keep]  # dumps up to 32 GB
//! cargo run --release -p heaptui-bench -- --plot [TSV] OUT.svg     # the scale run's plot
//! cargo run --release -p heaptui-bench -- --keys [FILE] [--cached]  # the TUI's keypress latency
//!                                                     # (--cached: on the heap re-opened from its
//!                                                     # index cache, its arrays in the mapped file)
//! cargo run --release -p heaptui-bench -- --first-screen [--shapes] [--runs N] [FILE...]
//!                                                     # the UI's first screen in a pseudo-terminal,
//!                                                     # without the index cache and from it
//! cargo run --release -p heaptui-bench -- --query [FILE]   # SQL queries and the Parquet export
//! cargo run --release -p heaptui-bench -- --strip [FILE...] # stripped sizes and throughput
//! cargo run --release -p heaptui-bench -- --slurp [FILE...] # histogram-only vs hprof-slurp
//! cargo run --release -p heaptui-bench -- --reopen [FILE...] # re-opening from the index cache
//! cargo run --release -p heaptui-bench -- --steps FILE      # paths and dominators alone, 3 times
//! ```
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

mod android;
mod keys;
mod plot;
mod query;
mod reopen;
mod screen;
mod slurp;
mod strip;
mod tile;

use std::alloc::{GlobalAlloc, Layout, System};

/// What the engine allocates through, as the `heaptui` binary does (large blocks kept for reuse).
static INNER: heap::alloc::Recycler<System> = heap::alloc::Recycler(System);
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{bail, Context, Result};

/// Seconds to wait after a peer's run before the next run.
const SETTLE_SECS: u64 = 30;

const JFLUID: &str = "/usr/share/visualvm/visualvm/modules/org-graalvm-visualvm-lib-jfluid-heap.jar";

/// What `--help` prints.
const USAGE: &str = "\
heaptui-bench: whole-engine runs on real dumps, each phase timed, peak memory measured
(dumps are generated with the local OpenJDK and cached in $HEAPTUI_BENCH_CACHE,
$XDG_CACHE_HOME/heaptui-bench or ~/.cache/heaptui-bench)

  heaptui-bench [--sizes 100,1000] [--peer visualvm|hprof-analyzer] [--runs N]
                [--no-android] [--no-mat] [FILE...]
  heaptui-bench --shapes [--sizes 1000] [--runs N] [--peer ...]   every shape of dump
  heaptui-bench --scale 1,4,32 [--keep]      HeapGen's dump repeated up to each size in GB
  heaptui-bench --plot [TSV] OUT.svg         the scale run's plot
  heaptui-bench --keys [FILE] [--cached]     the TUI's keypress latency
  heaptui-bench --first-screen [--shapes] [--runs N] [FILE...]
                                             the UI's first screen, launched in a terminal
  heaptui-bench --query [FILE]               SQL queries and the Parquet export
  heaptui-bench --strip [FILE...]            stripped sizes and throughput
  heaptui-bench --slurp [FILE...]            histogram alone, beside hprof-slurp
  heaptui-bench --reopen [FILE...]           re-opening from the index cache
  heaptui-bench --steps FILE                 paths and dominators alone, 3 times
  heaptui-bench --one FILE                   one analysis in this process, each phase timed
";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return Ok(());
    }
    if args.first().map(String::as_str) == Some("--one") {
        return one(Path::new(args.get(1).context("--one FILE")?));
    }
    if args.first().map(String::as_str) == Some("--steps") {
        let index = heap::Index::open(Path::new(&args[1]), heap::Options::default())?;
        for _ in 0..3 {
            let t = Instant::now();
            let p = heap::paths::GcPaths::compute_with(&index, &heap::paths::path_policy_for(&index));
            println!("paths {:.3}", t.elapsed().as_secs_f64());
            drop(p);
            let t = Instant::now();
            let d = heap::dominators::Dominators::compute(&index);
            println!("dominators {:.3}", t.elapsed().as_secs_f64());
            drop(d);
        }
        return Ok(());
    }
    if args.first().map(String::as_str) == Some("--strip") {
        return strip::run(args[1..].iter().map(PathBuf::from).collect());
    }
    if args.first().map(String::as_str) == Some("--slurp") {
        return slurp::run(args[1..].iter().map(PathBuf::from).collect());
    }
    if args.first().map(String::as_str) == Some("--reopen") {
        return reopen::run(args[1..].iter().map(PathBuf::from).collect());
    }
    if args.first().map(String::as_str) == Some("--reopen-one") {
        return reopen::one(Path::new(args.get(1).context("FILE")?), Path::new(args.get(2).context("DIR")?));
    }
    if args.first().map(String::as_str) == Some("--plot") {
        return plot::run(&args[1..]);
    }
    if args.first().map(String::as_str) == Some("--query") {
        return query::run(args.get(1).map(PathBuf::from));
    }
    if args.first().map(String::as_str) == Some("--keys") {
        let cached = args[1..].iter().any(|a| a == "--cached");
        return keys::run(args[1..].iter().find(|a| *a != "--cached").map(PathBuf::from), cached);
    }
    let mut sizes: Vec<u64> = vec![100, 1000];
    let mut peer: Option<Peer> = None;
    let mut runs = 1;
    let mut no_mat = false;
    let mut no_android = false;
    let mut shapes = false;
    let mut scale: Vec<f64> = Vec::new();
    let mut keep = false;
    let mut first_screen = false;
    let mut files: Vec<PathBuf> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--sizes" => {
                sizes = it.next().context("--sizes N,N")?.split(',').map(str::parse).collect::<Result<_, _>>()?
            }
            "--peer" => {
                peer = Some(match it.next().map(String::as_str) {
                    Some("visualvm") => Peer::VisualVm,
                    Some("hprof-analyzer") => Peer::HprofAnalyzer,
                    other => bail!("--peer visualvm|hprof-analyzer, not {other:?}"),
                })
            }
            "--runs" => runs = it.next().context("--runs N")?.parse()?,
            "--no-mat" => no_mat = true,
            "--no-android" => no_android = true,
            "--shapes" => shapes = true,
            "--scale" => {
                scale = it.next().context("--scale GB,GB")?.split(',').map(str::parse).collect::<Result<_, _>>()?
            }
            "--keep" => keep = true,
            "--first-screen" => first_screen = true,
            f if f.starts_with("--") => bail!("unknown option {f}; heaptui-bench --help lists them"),
            f => files.push(PathBuf::from(f)),
        }
    }
    // Dumps this run made only for itself (the repeated ones), deleted at the end.
    let mut made: Vec<PathBuf> = Vec::new();
    // The repeated dumps, made one at a time as their turn comes (together they may not fit).
    let mut to_make: Vec<(PathBuf, u64, u32)> = Vec::new();
    if !scale.is_empty() {
        let mb = sizes.iter().copied().max().unwrap_or(1000);
        let src = make_dump(mb)?;
        let one = std::fs::metadata(&src)?.len() as f64;
        for gb in &scale {
            let copies = ((gb * 1e9 / one).round() as u32).max(1);
            let f = tile::path(&src, copies);
            if copies > 1 && !keep && !f.exists() {
                made.push(f.clone());
            }
            to_make.push((f.clone(), mb, copies));
            files.push(f);
        }
    } else if files.is_empty() && shapes {
        // Every shape at the largest size: HeapGen's mix, the five others, the Android one.
        let mb = sizes.iter().copied().max().unwrap_or(1000);
        files.push(make_dump(mb)?);
        for shape in SHAPES {
            files.push(make_shape_dump(shape, mb)?);
        }
        if !no_android {
            files.push(android::dump(mb)?);
        }
    } else if files.is_empty() {
        for &s in &sizes {
            files.push(make_dump(s)?);
        }
        // Android-shaped: the largest HeapGen dump converted (1.0.3, 4-byte ids, three heaps).
        if let Some(&largest) = sizes.iter().max().filter(|_| !no_android) {
            files.push(android::dump(largest)?);
        }
        // Someone else's dump: Eclipse MAT's 500 MB test dump (HotSpot, JDK 11, 8-byte ids).
        if !no_mat {
            files.extend(mat_dump()?);
        }
    }
    if first_screen {
        return screen::run(files, runs);
    }
    println!(
        "machine: {} cores, {}",
        num_cpus(),
        std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|c| c.lines().find(|l| l.starts_with("model name")).map(|l| l
                .split(':')
                .nth(1)
                .unwrap_or("")
                .trim()
                .to_string()))
            .unwrap_or_default()
    );
    let ram = mem_total();
    let mut results: Vec<String> = Vec::new();
    for f in files {
        if let Some(&(_, mb, copies)) = to_make.iter().find(|m| m.0 == f) {
            tile::dump(mb, copies)?;
        }
        let size = std::fs::metadata(&f)?.len();
        println!("\n{} ({:.1} MB)", f.display(), size as f64 / 1e6);
        // Ours and the peer's runs alternate, so both see the machine in the same mood.
        let mut walls = Vec::new();
        // Up to the leak suspects: the issue's "fully analysed" (the report's JSON comes after).
        let mut analysed = Vec::new();
        let mut peer_runs: Vec<(f64, u64)> = Vec::new();
        for _ in 0..runs {
            // Every run, ours and the peer's, starts with the dump in the page cache: a peer's
            // 15-20 GB pushes it out, and the run after would read it from disk. A dump larger
            // than half the memory cannot stay there, and is read from disk as it comes.
            if size < ram / 2 {
                warm(&f)?;
            } else {
                println!("  (larger than half of the {:.0} GB of memory: read from disk)", ram as f64 / 1e9);
            }
            let out = Command::new(std::env::current_exe()?).arg("--one").arg(&f).output()?;
            if !out.status.success() {
                bail!("analysis failed: {}", String::from_utf8_lossy(&out.stderr));
            }
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            print!("{text}");
            if let Some(line) = result_line(size, &text) {
                results.push(line);
                if !scale.is_empty() {
                    write_scale(&results)?;
                }
            }
            if let Some(w) = text
                .lines()
                .find_map(|l| l.strip_prefix("total "))
                .and_then(|l| l.split_whitespace().next()?.parse::<f64>().ok())
            {
                walls.push(w);
                let report = text
                    .lines()
                    .find_map(|l| l.trim_start().strip_prefix("report"))
                    .and_then(|l| l.split_whitespace().next()?.parse::<f64>().ok());
                analysed.extend(report.map(|r| w - r));
            }
            if let Some(peer) = peer {
                if size < ram / 2 {
                    warm(&f)?;
                }
                let t = Instant::now();
                let (peak, ok) = match peer {
                    Peer::VisualVm => run_visualvm(&f)?,
                    Peer::HprofAnalyzer => run_hprof_analyzer(&f)?,
                };
                let secs = t.elapsed().as_secs_f64();
                if !ok {
                    println!("{:<10} failed after {secs:.1} s", peer.name());
                    break;
                }
                println!("{:<10} {secs:>8.2} s   peak RSS {:.0} MB", peer.name(), peak as f64 / 1e6);
                peer_runs.push((secs, peak));
                // VisualVM frees 15-20 GB as it exits; on this virtual machine the kernel hands
                // freed memory back to the host for a while after, and a run started meanwhile
                // pays for it (the 1 GB dump: 5-6 s instead of 4). Untimed.
                if peer == Peer::VisualVm {
                    std::thread::sleep(std::time::Duration::from_secs(SETTLE_SECS));
                }
            }
        }
        let ours = median(&mut walls);
        let ours_analysed = median(&mut analysed);
        if let (Some(peer), false) = (peer, peer_runs.is_empty()) {
            peer_runs.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (secs, peak) = peer_runs[peer_runs.len() / 2];
            let name = peer.name();
            println!(
                "median of {}: heaptui {ours:.2} s, {name} {secs:.2} s ({:.0} MB peak RSS): {name}/heaptui {:.1}x",
                walls.len(),
                peak as f64 / 1e6,
                secs / ours
            );
            println!(
                "  fully analysed (index, dominators, retained sizes, leak suspects; no report): heaptui {ours_analysed:.2} s: {name}/heaptui {:.1}x",
                secs / ours_analysed
            );
        }
        if made.contains(&f) {
            std::fs::remove_file(&f)?;
        }
    }
    if !scale.is_empty() {
        println!("\n{}", std::fs::read_to_string(cache_dir().join("scale.tsv"))?);
    }
    Ok(())
}

/// Writes the scale run's results so far to `scale.tsv` in the cache (after each run, so a run
/// that stops on a later size keeps the earlier ones).
fn write_scale(results: &[String]) -> Result<()> {
    let mut text = String::from("# GB\tobjects\tseconds\tpeak_allocated_GB\tpeak_rss_GB\n");
    for l in results {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(cache_dir().join("scale.tsv"), text)?;
    Ok(())
}

/// One run's figures as a line of `scale.tsv`: the dump's size (GB), objects, seconds, peak
/// allocated and peak RSS (GB), read from what `--one` printed.
fn result_line(size: u64, text: &str) -> Option<String> {
    let after = |prefix: &str| text.lines().find_map(|l| l.trim_start().strip_prefix(prefix).map(str::to_string));
    let total: f64 = after("total ")?.split_whitespace().next()?.parse().ok()?;
    let memory = after("memory: peak allocated ")?;
    let allocated: f64 = memory.split_whitespace().next()?.parse().ok()?;
    let rss: f64 = memory.split("peak RSS ").nth(1)?.split_whitespace().next()?.parse().ok()?;
    let objects: u64 = text.lines().find_map(|l| l.trim_start().split_once(" objects, "))?.0.parse().ok()?;
    Some(format!("{:.2}\t{objects}\t{total:.2}\t{:.3}\t{:.3}", size as f64 / 1e9, allocated / 1e3, rss / 1e3))
}

/// This machine's memory (bytes; 0 when /proc cannot say).
pub(crate) fn mem_total() -> u64 {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    info.lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or(0)
        * 1024
}

/// Reads `path` through once (untimed), so it is in the page cache.
fn warm(path: &Path) -> Result<()> {
    let mut f = std::fs::File::open(path)?;
    let mut buf = vec![0u8; 8 << 20];
    while std::io::Read::read(&mut f, &mut buf)? > 0 {}
    Ok(())
}

/// The middle value of `v` once sorted (the upper of the two middle ones for an even count), NaN
/// for none; sorts `v`.
pub(crate) fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn num_cpus() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

pub(crate) fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("HEAPTUI_BENCH_CACHE") {
        return PathBuf::from(d);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache"));
    base.join("heaptui-bench")
}

fn repo_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The peers' dumps: `$HEAPTUI_FIXTURES`, else `../shared/fixtures` beside the repository.
pub(crate) fn fixtures() -> PathBuf {
    std::env::var_os("HEAPTUI_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"))
}

/// A MAT fixture (HotSpot, 8-byte ids) and what `make(src, dst)` writes from it, both analysed:
/// the conversions' tests.
#[cfg(test)]
pub(crate) fn fixture_and(tag: &str, make: impl FnOnce(&Path, &Path) -> Result<()>) -> (heap::Heap, heap::Heap) {
    let src = fixtures().join("jvm/eclipse-mat__sun_jdk6_30_x64_compressedOops.hprof");
    let dir = std::env::temp_dir().join(format!("heaptui-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let dst = dir.join(format!("{tag}.hprof"));
    make(&src, &dst).expect("the conversion");
    let a = heap::Heap::open(&src, heap::Options::default()).expect("the fixture");
    let b = heap::Heap::open(&dst, heap::Options::default()).expect("what was made of it");
    let _ = std::fs::remove_dir_all(&dir);
    (a, b)
}

/// The Eclipse MAT 500 MB test dump from `../shared/fixtures` (or `$HEAPTUI_FIXTURES`),
/// decompressed once into the cache; `None` when the fixtures are not there.
pub(crate) fn mat_dump() -> Result<Option<PathBuf>> {
    const NAME: &str = "eclipse-mat__java_pid1884.0001.hprof";
    let gz = fixtures().join("jvm").join(format!("{NAME}.gz"));
    if !gz.exists() {
        return Ok(None);
    }
    let dir = cache_dir();
    std::fs::create_dir_all(&dir)?;
    let out = dir.join(NAME);
    if !out.exists() {
        eprintln!("decompressing {} ...", gz.display());
        let tmp = dir.join(format!("{NAME}.part"));
        let mut w = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        std::io::copy(&mut flate2::read::MultiGzDecoder::new(std::fs::File::open(&gz)?), &mut w)?;
        std::io::Write::flush(&mut w)?;
        drop(w);
        std::fs::rename(&tmp, &out)?;
    }
    Ok(Some(out))
}

/// The generator's sources; the dumps' names carry a hash of them, so a change to what the
/// generator makes never reads a dump made by an older one from the cache.
const HEAPGEN_SOURCES: [&str; 2] = ["java/HeapGen.java", "java/android/graphics/Bitmap.java"];

/// Makes (once) a dump of a `mb` MB heap with OpenJDK.
pub(crate) fn make_dump(mb: u64) -> Result<PathBuf> {
    generate(&format!("heapgen-{mb}mb"), &HEAPGEN_SOURCES, "HeapGen", &[mb.to_string()], mb)
}

/// The shapes `bench/java/Shapes.java` makes, besides HeapGen's mix and the Android conversion.
const SHAPES: [&str; 5] = ["chains", "lists", "maps", "classes", "arrays"];

/// Makes (once) a dump of a `mb` MB heap of `shape` (see `bench/java/Shapes.java`).
pub(crate) fn make_shape_dump(shape: &str, mb: u64) -> Result<PathBuf> {
    generate(
        &format!("shape-{shape}-{mb}mb"),
        &["java/Shapes.java"],
        "Shapes",
        &[shape.to_string(), mb.to_string()],
        mb,
    )
}

/// Runs `main` (compiled from `sources`) with `args` and the dump's path, once: the dump is kept
/// in the cache under `stem` and a hash of the sources.
fn generate(stem: &str, sources: &[&str], main: &str, args: &[String], mb: u64) -> Result<PathBuf> {
    let dir = cache_dir();
    std::fs::create_dir_all(&dir)?;
    let mut hash: u32 = 0x811c_9dc5;
    for src in sources {
        for b in std::fs::read(repo_file(src)).with_context(|| src.to_string())? {
            hash = (hash ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
    }
    let stem = format!("{stem}-{hash:08x}");
    let out = dir.join(format!("{stem}.hprof"));
    if out.exists() {
        return Ok(out);
    }
    let classes = dir.join(format!("classes-{hash:08x}"));
    let ok = Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .arg("-sourcepath")
        .arg(repo_file("java"))
        .arg(repo_file(sources[0]))
        .status()
        .context("javac")?;
    if !ok.success() {
        bail!("javac failed");
    }
    // The JDK insists on the .hprof extension, so the temporary name keeps it.
    let tmp = dir.join(format!("{stem}.part.hprof"));
    let _ = std::fs::remove_file(&tmp);
    eprintln!("making a {mb} MB heap dump in {} ...", out.display());
    let xmx = format!("-Xmx{}m", mb * 3 + 512);
    let ok = Command::new("java")
        .args([xmx.as_str(), "-XX:+UseParallelGC", "-cp"])
        .arg(&classes)
        .arg(main)
        .args(args)
        .arg(&tmp)
        .status()
        .context("java")?;
    if !ok.success() {
        bail!("{main} failed");
    }
    std::fs::rename(&tmp, &out)?;
    Ok(out)
}

/// Counts heap allocations, so the peak the engine itself allocates is known apart from the pages
/// of the memory-mapped dump (which RSS also counts, and the kernel can drop at will).
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the allocator `heaptui` uses; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { INNER.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    /// The system's own, not the default (`alloc`, then zeroes written): `calloc` gives large
    /// blocks as fresh mapped pages, untouched until written, as `heaptui` gets them. Writing
    /// the zeroes made every page of such a block resident at once (a list with a slot per
    /// object that is written in a few places, say).
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { INNER.alloc_zeroed(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { INNER.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { INNER.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now = CURRENT.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Resident set size now (bytes), from /proc/self/statm.
fn rss_now() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    statm.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()).unwrap_or(0) * 4096
}

/// Peak RSS since the last call (bytes): VmHWM, then reset through /proc/self/clear_refs, so each
/// phase's own peak shows (the run's peak is kept in `PHASE_PEAK`).
fn phase_peak_rss() -> u64 {
    let peak = vm_hwm();
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    PHASE_PEAK.fetch_max(peak, Ordering::Relaxed);
    peak
}

/// The kernel's high-water mark of this process's resident set since exec or the last reset
/// (bytes; 0 when /proc cannot say).
fn vm_hwm() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or(0);
    kb * 1024
}

/// The highest phase peak seen (each reset of VmHWM forgets the peaks before it).
static PHASE_PEAK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// This process's peak RSS (bytes): VmHWM, and the phase peaks seen before any reset.
///
/// Not `getrusage`: its `ru_maxrss` survives `execve`, and a child forked from the suite starts
/// with the suite's own resident size, so after the suite had converted a 1 GB dump in process
/// (1.3 GB resident), every later child reported at least that.
pub(crate) fn peak_rss() -> u64 {
    vm_hwm().max(PHASE_PEAK.load(Ordering::Relaxed))
}

/// Child: analyse one dump, print phase times and peak RSS.
fn one(path: &Path) -> Result<()> {
    use std::sync::Mutex;
    let marks: Mutex<Vec<(String, Instant)>> = Mutex::new(Vec::new());
    let start = Instant::now();
    let cb = |phase: heap::Phase, _done: u64, _total: u64| {
        let mut m = marks.lock().unwrap_or_else(|e| e.into_inner());
        if m.last().map(|(n, _)| n.as_str()) != Some(phase.name()) {
            if std::env::var_os("HEAPTUI_BENCH_MEM").is_some() {
                eprintln!(
                    "  before {:<11} allocated {:>6.0} MB, peak so far {:>6.0} MB, RSS {:>6.0} MB, peak RSS since the last line {:>6.0} MB",
                    phase.name(),
                    CURRENT.load(Ordering::Relaxed) as f64 / 1e6,
                    PEAK.load(Ordering::Relaxed) as f64 / 1e6,
                    rss_now() as f64 / 1e6,
                    phase_peak_rss() as f64 / 1e6
                );
            }
            m.push((phase.name().to_string(), Instant::now()));
        }
    };
    let options = heap::Options { progress: Some(&cb), hash_strings: true, ..Default::default() };
    let index = heap::Index::open(path, options)?;
    let heap = heap::Heap::analyse(index, options);
    let mem = |at: &str| {
        if std::env::var_os("HEAPTUI_BENCH_MEM").is_some() {
            eprintln!(
                "  before {at:<11} allocated {:>6.0} MB, peak so far {:>6.0} MB, RSS {:>6.0} MB, peak RSS since the last line {:>6.0} MB",
                CURRENT.load(Ordering::Relaxed) as f64 / 1e6,
                PEAK.load(Ordering::Relaxed) as f64 / 1e6,
                rss_now() as f64 / 1e6,
                phase_peak_rss() as f64 / 1e6
            );
        }
    };
    mem("leaks");
    let t_analysed = Instant::now();
    // As `analyze` makes it: the suspects found while the other sections are made, so the
    // phase called "leaks" holds the report's sections too, and "report" is the writing.
    let file = heap::report::FileInfo { path: &path.display().to_string(), bytes: 0, cut_names: false };
    let (report, leaks) = heap.analyze_report_finding_leaks(&file, 20, &heap::leaks::LeakConfig::default(), None);
    let t_leaks = Instant::now();
    mem("report");
    // Written out as `analyze --format json` writes it.
    let written = serde_json::to_vec_pretty(&report)?.len();
    let t_report = Instant::now();
    mem("end");
    let mut marks = marks.into_inner().unwrap_or_default();
    marks.push(("leaks".into(), t_analysed));
    marks.push(("report".into(), t_leaks));
    marks.push(("end".into(), t_report));
    let mut prev = start;
    let mut prev_name = "read".to_string();
    for (name, t) in marks.iter().skip(1) {
        println!("  {prev_name:<11}{:>8.2} s", t.duration_since(prev).as_secs_f64());
        prev = *t;
        prev_name = name.clone();
    }
    let total = t_report.duration_since(start).as_secs_f64();
    let n = heap.index.len() as f64;
    let size = std::fs::metadata(path)?.len() as f64;
    let peak_heap = PEAK.load(Ordering::Relaxed) as f64;
    println!("total {total:.2} s   {:.1} M objects/s   {:.0} MB/s", n / total / 1e6, size / total / 1e6);
    println!(
        "  memory: peak allocated {:.0} MB ({:.2}x the file), peak RSS {:.0} MB (with the mapped file's pages)",
        peak_heap / 1e6,
        peak_heap / size,
        peak_rss() as f64 / 1e6
    );
    println!(
        "  {} objects, {} edges, {} classes in the histogram, {} leak groups, a report of {written} bytes",
        heap.index.len(),
        heap.index.graph().len(),
        report.histogram_rows(),
        leaks.len()
    );
    for l in &leaks {
        println!("  leak: {} {} ({} instances, {} retained)", l.rule, l.class, l.instances.len(), l.retained_bytes);
    }
    Ok(())
}

/// The peers the suite runs side by side with heaptui, alternating.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Peer {
    /// VisualVM's heap library (Debian's `visualvm`), through `bench/visualvm/VisualVmHeap.java`.
    VisualVm,
    /// hprof-analyzer (crates.io), its default report as JSON: `$HPROF_ANALYZER`, else on `PATH`.
    HprofAnalyzer,
}

impl Peer {
    fn name(self) -> &'static str {
        match self {
            Peer::VisualVm => "visualvm",
            Peer::HprofAnalyzer => "hprof-analyzer",
        }
    }
}

/// Runs hprof-analyzer's whole report on `dump` into a temporary JSON file: its peak RSS (from
/// `/usr/bin/time`) and whether it succeeded.
fn run_hprof_analyzer(dump: &Path) -> Result<(u64, bool)> {
    let exe = std::env::var_os("HPROF_ANALYZER").map_or_else(|| PathBuf::from("hprof-analyzer"), PathBuf::from);
    let out_dir = std::env::temp_dir().join(format!("heaptui-bench-hpa-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir)?;
    let out = Command::new("/usr/bin/time")
        .args(["-f", "maxrss %M"])
        .arg(&exe)
        .arg(dump)
        .arg(out_dir.join("report.json"))
        .output()
        .with_context(|| format!("{}: cargo install --locked hprof-analyzer, or set HPROF_ANALYZER", exe.display()))?;
    let _ = std::fs::remove_dir_all(&out_dir);
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        eprintln!("{}", err.lines().rev().take(3).collect::<Vec<_>>().join(" / "));
    }
    Ok((maxrss(&err), out.status.success()))
}

/// `/usr/bin/time -f "maxrss %M"`'s figure in bytes (0 when absent).
fn maxrss(stderr: &str) -> u64 {
    stderr.lines().find_map(|l| l.strip_prefix("maxrss ")).and_then(|k| k.trim().parse::<u64>().ok()).unwrap_or(0)
        * 1024
}

/// Runs VisualVM's library on a copy-free path (it writes `<dump>.hwcache` beside the dump).
fn run_visualvm(dump: &Path) -> Result<(u64, bool)> {
    if !Path::new(JFLUID).exists() {
        bail!("VisualVM's heap library is missing: apt-get install visualvm");
    }
    let dir = cache_dir().join("visualvm-classes");
    let ok = Command::new("javac")
        .args(["-cp", JFLUID, "-d"])
        .arg(&dir)
        .arg(repo_file("visualvm/VisualVmHeap.java"))
        .status()?;
    if !ok.success() {
        bail!("javac failed");
    }
    let out = Command::new("/usr/bin/time")
        .args(["-f", "maxrss %M"])
        .args(["java", "-Xmx16g", "-cp"])
        .arg(format!("{JFLUID}:{}", dir.display()))
        .arg("VisualVmHeap")
        .arg(dump)
        .output()?;
    let peak = maxrss(&String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(dump.with_extension("hprof.hwcache"));
    Ok((peak, out.status.success()))
}
