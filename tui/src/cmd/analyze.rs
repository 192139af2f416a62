//! `heaptui analyze FILE`: the whole-dump report.

use std::path::PathBuf;

use crate::Format;

/// Arguments of `analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// The heap dump (.hprof, Android or HotSpot; gzip is fine).
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// How many rows of the top-retained list (and, in text, of the histogram).
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    #[command(flatten)]
    pub open: super::OpenArgs,
}

/// Runs `analyze`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let heap = super::open(&args.file, &args.open)?;
    let bytes = std::fs::metadata(&args.file).map(|m| m.len()).unwrap_or(0);
    let path = args.file.display().to_string();
    report(&heap, &path, bytes, args.format, args.top)
}

/// Prints the report of an analysed dump.
pub fn report(heap: &heap::Heap, path: &str, bytes: u64, format: Format, top: usize) -> anyhow::Result<()> {
    let file = heap::report::FileInfo { path, bytes };
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&heap.analyze_json(&file, top))?;
            s.push('\n');
            super::print(&s)
        }
        Format::Text => super::print(&heap.analyze_text(&file, top)),
    }
}
