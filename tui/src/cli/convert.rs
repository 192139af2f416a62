//! `heaptui convert`: an Android dump to the HotSpot dialect, as AOSP's hprof-conv does.

use std::io::{Read, Write};

use anyhow::{bail, Context};
use heap::strip::convert_plan;

use super::stream::{open_input, Output};

/// Arguments of `convert`.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// An Android (1.0.3) dump, or `-`; or a Perfetto trace (`.pftrace`), whose Java heap graph
    /// becomes a standard HPROF 1.0.3 (values zero: the graph records none).
    pub input: String,
    /// The HotSpot (1.0.2) dump to write, or `-`.
    pub output: String,
    /// Leave out the zygote and image heaps' objects (hprof-conv's -z).
    #[arg(short = 'z')]
    pub drop_zygote: bool,
    /// The most bytes of zeros to write back in place of dropped array values (default: 10,000
    /// times the input, at least 1 GiB, and no more than the output's disk offers less a
    /// twentieth of it kept free).
    #[arg(long, value_name = "BYTES")]
    pub max_output: Option<u64>,
    /// Which heap graph of a Perfetto trace (1: the first).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub dump: usize,
}

/// Runs `convert`.
pub fn run(a: ConvertArgs) -> anyhow::Result<()> {
    if a.input != "-" && heap::perfetto::is_trace(std::path::Path::new(&a.input)) {
        return from_trace(&a);
    }
    // hprof-conv's rule: only Android dumps convert.
    let mut r = open_input(&a.input)?;
    let mut head = [0u8; 19];
    r.read_exact(&mut head).with_context(|| format!("{} is too short to be a dump", a.input))?;
    match &head[..] {
        b"JAVA PROFILE 1.0.3\0" => {}
        b"JAVA PROFILE 1.0.2\0" | b"JAVA PROFILE 1.0.1\0" => bail!("{} is already a HotSpot dump (not 1.0.3)", a.input),
        _ => bail!("{} is not an HPROF dump", a.input),
    }
    let chained = std::io::Cursor::new(head.to_vec()).chain(r);
    let (out, writer) = Output::create(&a.output)?;
    let plan = heap::strip::Plan {
        max_restored: Some(crate::session::files::restore_bound(&a.input, &a.output, a.max_output)),
        ..convert_plan(a.drop_zygote)
    };
    let (mut w, _) =
        heap::strip::rewrite_all(chained, writer, plan).map_err(|e| super::stream::explain(e, &a.input))?;
    w.flush()?;
    drop(w);
    out.commit()
}

/// A Perfetto trace's heap graph as a standard HPROF: written by the engine
/// (`heap::perfetto::hprof`), then restored as `restore` does (NODATA arrays as zeros).
fn from_trace(a: &ConvertArgs) -> anyhow::Result<()> {
    let data = heap::data::Data::map_raw(std::path::Path::new(&a.input))?;
    let trace = heap::perfetto::Trace::scan(&data).with_context(|| a.input.clone())?;
    let Some(n) = a.dump.checked_sub(1).filter(|&n| n < trace.graphs.len()) else {
        let held = trace.graphs.len();
        crate::fail!(Usage, "{} holds {held} Java heap graph(s) (--dump 1 to {held})", a.input);
    };
    let graph = trace.graph(n).with_context(|| a.input.clone())?;
    let layout = heap::perfetto::hprof::Layout::of(&graph);
    let dir = std::path::Path::new(&a.output).parent().filter(|d| !d.as_os_str().is_empty());
    let hprof = heap::perfetto::hprof::to_file(&graph, &layout, if a.output == "-" { None } else { dir })
        .with_context(|| format!("{}: the heap graph's HPROF", a.input))?;
    drop((graph, layout));
    let plan = heap::strip::Plan {
        max_restored: Some(crate::session::files::restore_bound(&a.input, &a.output, a.max_output)),
        ..heap::strip::restore_plan()
    };
    let (out, writer) = Output::create(&a.output)?;
    let (mut w, _) = heap::strip::rewrite_all(std::io::BufReader::with_capacity(1 << 20, hprof), writer, plan)
        .map_err(|e| super::stream::explain(e, &a.input))?;
    w.flush()?;
    drop(w);
    out.commit()
}
