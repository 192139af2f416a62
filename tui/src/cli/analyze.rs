//! `heaptui analyze FILE`: the whole-dump report.

use std::path::PathBuf;

/// Output format of `analyze`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AnalyzeFormat {
    /// Aligned columns for people.
    Text,
    /// JSON for scripts (the documented schema).
    Json,
    /// LeakCanary-style leak traces.
    Leakcanary,
    /// KOOM's report JSON (classInfos, gcPaths, runningInfo).
    Koom,
}

/// Arguments of `analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// The heap dump (.hprof, Android or HotSpot; gzip is fine).
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AnalyzeFormat::Text)]
    pub format: AnalyzeFormat,
    /// How many rows of the top-retained list (and, in text, of the histogram).
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    /// Only the class histogram (instances and shallow bytes): one pass, no reference graph, no
    /// dominators, no leaks. Text or JSON.
    #[arg(long, conflicts_with = "baseline")]
    pub histogram_only: bool,
}

/// What changes an analysis: how the dump is opened, the leak rules' settings, and a baseline to
/// compare with. `analyze` takes them, and so does `heaptui FILE`, with the same meaning.
#[derive(clap::Args, Clone, Default)]
pub struct AnalysisArgs {
    #[command(flatten)]
    pub open: super::OpenArgs,
    /// A reference leak traces never go through: `Class#field` or `static Class#field` (repeatable).
    #[arg(long = "exclude-ref", value_name = "REF", value_parser = parse_ref)]
    pub exclude_ref: Vec<heap::paths::RefPattern>,
    /// A reference leak traces take only when there is no other way (repeatable).
    #[arg(long = "low-priority-ref", value_name = "REF", value_parser = parse_ref)]
    pub low_priority_ref: Vec<heap::paths::RefPattern>,
    /// Skip a leak rule by name (repeatable; names in the README).
    #[arg(long = "disable-rule", value_name = "RULE")]
    pub disable_rule: Vec<String>,
    /// An earlier dump of the same app: report what grew since (collections matched by their
    /// path from a GC root, and the histogram's changes).
    #[arg(long, value_name = "OLD")]
    pub baseline: Option<PathBuf>,
}

impl AnalysisArgs {
    /// The leak rules' settings these flags ask for.
    pub fn leak_config(&self) -> heap::leaks::LeakConfig {
        heap::leaks::LeakConfig {
            excluded_references: self.exclude_ref.clone(),
            low_priority_references: self.low_priority_ref.clone(),
            disabled: self.disable_rule.clone(),
            ..Default::default()
        }
    }
}

impl AnalysisArgs {
    /// What the interactive UI needs of these flags (the mapping file read now, so a bad path
    /// is an error before the terminal is taken over).
    pub fn for_ui(&self) -> anyhow::Result<crate::session::open::Analysis> {
        use anyhow::Context;
        let mapping = match &self.open.map {
            Some(m) => Some(std::fs::read_to_string(m).with_context(|| format!("cannot read {}", m.display()))?),
            None => None,
        };
        if let Some(b) = &self.baseline {
            std::fs::metadata(b).with_context(|| format!("cannot read {}", b.display()))?;
        }
        Ok(crate::session::open::Analysis {
            size_model: self.open.size_model.model(),
            semantics: self.open.semantics.semantics(),
            dump: self.open.dump as usize - 1,
            request: crate::session::open::Request { mapping, no_cache: self.open.no_cache },
            config: self.leak_config(),
            baseline: self.baseline.clone(),
        })
    }
}

impl Args {
    /// `analyze FILE` with these analysis flags and the defaults for the rest, as `heaptui FILE`
    /// runs it without a terminal.
    pub fn for_file(file: PathBuf, analysis: AnalysisArgs) -> Args {
        Args { file, format: AnalyzeFormat::Text, top: 20, analysis, histogram_only: false }
    }
}

fn parse_ref(s: &str) -> Result<heap::paths::RefPattern, String> {
    heap::paths::RefPattern::parse(s).ok_or_else(|| format!("{s:?} is not Class#field or static Class#field"))
}

/// Runs `analyze`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.histogram_only {
        return histogram_only(&args);
    }
    let start = std::time::Instant::now();
    // Only the JSON report lists duplicate strings.
    let heap = super::open_for(&args.file, &args.analysis.open, args.format == AnalyzeFormat::Json)?;
    let bytes = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    let path = args.file.display().to_string();
    let config = args.analysis.leak_config();
    let baseline = match &args.analysis.baseline {
        Some(old) => Some(super::open(old, &args.analysis.open)?),
        None => None,
    };
    report(&heap, baseline.as_ref(), &path, bytes, args.format, args.top, start, &config)
}

/// `heaptui` with no dump and no terminal: the text report of the bundled demo dump.
pub fn demo() -> anyhow::Result<()> {
    let start = std::time::Instant::now();
    let (heap, len) = crate::session::open::demo(heap::Options::default())?;
    super::note("heaptui: no dump given; analysing the bundled demo (a JVM with a leaking cache).");
    super::note("heaptui: `heaptui analyze FILE` and `heaptui inspect FILE TARGET` work on any .hprof.");
    let config = heap::leaks::LeakConfig::default();
    report(&heap, None, crate::session::open::DEMO_NAME, len, AnalyzeFormat::Text, 15, start, &config)
}

/// Prints the report of an analysed dump, with what changed since `baseline` when there is one.
#[allow(clippy::too_many_arguments)]
pub fn report(
    heap: &heap::Heap,
    baseline: Option<&heap::Heap>,
    path: &str,
    bytes: u64,
    format: AnalyzeFormat,
    top: usize,
    start: std::time::Instant,
    config: &heap::leaks::LeakConfig,
) -> anyhow::Result<()> {
    use heap::fmt::human_bytes;
    let find_leaks = || match baseline {
        Some(old) => heap::leaks::find_leaks_since(heap, config, old),
        None => heap::leaks::find_leaks(heap, config),
    };
    let since = baseline.map(|old| {
        (heap::diff::class_deltas(old, heap), heap::diff::growing_collections(old, heap, config.growth_min_bytes))
    });
    let file = heap::report::FileInfo { path, bytes, cut_names: std::io::IsTerminal::is_terminal(&std::io::stdout()) };
    match format {
        AnalyzeFormat::Json => {
            let (mut report, _) = heap.analyze_report_finding_leaks(&file, top, config, baseline);
            let v = &mut report.json;
            if let Some((deltas, growing)) = &since {
                v["diff"] = serde_json::json!({
                    "classes": deltas.iter().take(top.max(1)).collect::<Vec<_>>(),
                    "growing": growing,
                });
            }
            print_pretty(&report)
        }
        AnalyzeFormat::Text => {
            let leaks = find_leaks();
            let mut s = heap.analyze_text(&file, top, &leaks, &heap::leaks::undecided(heap, config));
            if let Some((deltas, growing)) = &since {
                s.push_str("\nSince the baseline\n");
                for g in growing {
                    s.push_str(&format!(
                        "  {} ({}) grew from {} to {} elements, retaining {} (was {})\n",
                        heap::fmt::safe(&g.path),
                        heap::fmt::safe(&g.class),
                        g.elements.0,
                        g.elements.1,
                        human_bytes(g.retained_bytes.1),
                        human_bytes(g.retained_bytes.0)
                    ));
                }
                s.push_str(&format!("{:>12} {:>12}  class\n", "instances", "retained"));
                for d in deltas.iter().take(top) {
                    let di = d.instances.1 as i64 - d.instances.0 as i64;
                    let dr = d.retained_bytes.1 as i64 - d.retained_bytes.0 as i64;
                    let sign = if dr < 0 { "-" } else { "+" };
                    // The sign beside its number ("+143.1 MiB"), the two padded as one.
                    let bytes = format!("{sign}{}", human_bytes(dr.unsigned_abs()));
                    s.push_str(&format!("{di:>+12} {bytes:>12}  {}\n", heap::fmt::shorten(&d.class, 70)));
                }
            }
            super::print(&s)
        }
        AnalyzeFormat::Leakcanary => {
            let leaks = find_leaks();
            let meta = heap::leaks::metadata::extract(heap);
            let ms = start.elapsed().as_millis();
            super::print(&heap::leaks::render::leakcanary_text(heap, &leaks, &meta, path, ms))
        }
        AnalyzeFormat::Koom => {
            let leaks = find_leaks();
            let meta = heap::leaks::metadata::extract(heap);
            print_pretty(&heap::leaks::render::koom_json(heap, &leaks, &meta))
        }
    }
}

/// `v` as indented JSON on stdout, with a final newline.
fn print_pretty(v: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut s = serde_json::to_string_pretty(v)?;
    s.push('\n');
    super::print_json(&s)
}

/// `--histogram-only`: counts and shallow sizes per class, largest first, in one streaming pass.
fn histogram_only(args: &Args) -> anyhow::Result<()> {
    use anyhow::Context;
    use heap::fmt::{hex, human_bytes, shorten};
    let q = heap::quick::quick_histogram(
        &args.file,
        args.analysis.open.size_model.model(),
        args.analysis.open.dump as usize - 1,
    )
    .with_context(|| args.file.display().to_string())?;
    let map = match &args.analysis.open.map {
        Some(m) => Some(heap::proguard::ProguardMap::parse(
            &std::fs::read_to_string(m).with_context(|| format!("cannot read {}", m.display()))?,
        )),
        None => None,
    };
    let name = |c: &str| map.as_ref().and_then(|m| m.class_name(c)).unwrap_or_else(|| c.to_string());
    let bytes = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    match args.format {
        AnalyzeFormat::Json => {
            let v = serde_json::json!({
                "schema": heap::report::SCHEMA,
                "file": {
                    "path": args.file.display().to_string(),
                    "format": q.header.format.as_str(),
                    "id_size": q.header.id_size,
                    "bytes": bytes,
                    "timestamp_ms": q.header.timestamp_ms,
                },
                "summary": {
                    "classes": q.counts.classes,
                    "instances": q.counts.instances + q.counts.object_arrays + q.counts.primitive_arrays,
                    "object_arrays": q.counts.object_arrays,
                    "primitive_arrays": q.counts.primitive_arrays,
                    "gc_roots": q.counts.root_records,
                    "shallow_bytes": q.rows.iter().map(|r| r.shallow_bytes).sum::<u64>(),
                    "size_model": q.sizer.model.name(),
                },
                "histogram": q.rows.iter().map(|r| serde_json::json!({
                    "class": name(&r.class),
                    "class_id": if r.class_id != 0 { serde_json::Value::from(hex(r.class_id)) } else { serde_json::Value::Null },
                    "instances": r.instances,
                    "shallow_bytes": r.shallow_bytes,
                })).collect::<Vec<_>>(),
                "warnings": q.warnings,
            });
            let mut s = serde_json::to_string_pretty(&v)?;
            s.push('\n');
            super::print_json(&s)
        }
        _ => {
            let mut s = format!("{:>12} {:>12}  class\n", "instances", "shallow");
            for r in q.rows.iter().take(args.top) {
                s.push_str(&format!(
                    "{:>12} {:>12}  {}\n",
                    r.instances,
                    human_bytes(r.shallow_bytes),
                    shorten(&name(&r.class), 72)
                ));
            }
            super::print(&s)
        }
    }
}
