//! `heaptui restore`: a stripped dump back to a standard one (dropped values come back as zeros).

use heap::strip::restore_plan;

use super::stream::run_plan;

/// Arguments of `restore`.
#[derive(clap::Args)]
pub struct RestoreArgs {
    /// A stripped dump (any mode; zstd or not), or `-`.
    pub input: String,
    /// The standard HPROF to write, or `-`.
    pub output: String,
    /// The most bytes of zeros to write back in place of dropped array values (default: 10,000
    /// times the input, at least 1 GiB, and no more than the output's disk offers less a
    /// twentieth of it kept free).
    #[arg(long, value_name = "BYTES")]
    pub max_output: Option<u64>,
}

/// Runs `restore`.
pub fn run(a: RestoreArgs) -> anyhow::Result<()> {
    let plan = heap::strip::Plan {
        max_restored: Some(crate::session::files::restore_bound(&a.input, &a.output, a.max_output)),
        ..restore_plan()
    };
    run_plan(&a.input, &a.output, plan, false)
}
