//! One module per headless subcommand.

pub mod analyze;
pub mod demo;
pub mod inspect;

use std::path::Path;

use anyhow::Context;

/// Opens and analyses `path`, naming the file in any error.
pub fn open(path: &Path, model: Option<heap::SizeModel>) -> anyhow::Result<heap::Heap> {
    let options = heap::Options { size_model: model, progress: None };
    heap::Heap::open(path, options).with_context(|| format!("{}", path.display()))
}

/// Writes `s` to stdout, reporting a closed pipe as an `io::Error`.
pub fn print(s: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes())?;
    out.flush()?;
    Ok(())
}
