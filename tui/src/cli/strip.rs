//! `heaptui strip`: drop what triage does not need from a dump as it streams (modes triage,
//! koom, matrix, redact).

use std::io::{Read, Write};

use anyhow::Context;
use heap::strip::{strip_matrix, strip_plan, strip_plan_for_file, Mode, StripOptions};

use super::stream::{open_input, run_plan, Output};

/// Arguments of `strip`.
#[derive(clap::Args)]
pub struct StripArgs {
    /// Input dump, or `-` for stdin.
    pub input: String,
    /// Output file, or `-` for stdout.
    pub output: String,
    /// What to keep: `triage` (leak triage's needs), `koom`, `matrix`, or `redact` (for sharing).
    #[arg(long, default_value = "triage", value_parser = ["triage", "koom", "matrix", "redact"])]
    pub mode: String,
    /// `triage`: arrays of at most this many elements (Strings of at most this many characters)
    /// keep their values.
    #[arg(long, default_value_t = 256)]
    pub keep_strings: u32,
    /// `triage`/`redact`: keep Android's zygote and image heaps.
    #[arg(long)]
    pub keep_zygote: bool,
    /// Compress the output with zstd (streamed).
    #[arg(long)]
    pub zstd: bool,
}

/// Runs `strip`.
pub fn run(a: StripArgs) -> anyhow::Result<()> {
    let mode = Mode::parse(&a.mode).context("unknown mode")?;
    if mode == Mode::Matrix {
        // Matrix decides after reading it all: which arrays are Strings, which buffers repeat.
        let mut data = Vec::new();
        open_input(&a.input)?.read_to_end(&mut data).with_context(|| format!("cannot read {}", a.input))?;
        let (out, writer) = Output::create(&a.output)?;
        let writer: Box<dyn Write> =
            if a.zstd { Box::new(zstd::stream::write::Encoder::new(writer, 3)?.auto_finish()) } else { writer };
        let (mut w, _) = strip_matrix(data, writer).with_context(|| a.input.clone())?;
        w.flush()?;
        drop(w);
        return out.commit();
    }
    let o = StripOptions { mode, keep_strings: a.keep_strings, keep_zygote: a.keep_zygote };
    // A file on disk is read once more first, for the pictures `am dumpheap -b` put in it.
    let plan = if a.input == "-" { strip_plan(&o) } else { strip_plan_for_file(&o, std::path::Path::new(&a.input)) };
    run_plan(&a.input, &a.output, plan, a.zstd)
}
