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
}

/// Runs `restore`.
pub fn run(a: RestoreArgs) -> anyhow::Result<()> {
    run_plan(&a.input, &a.output, restore_plan(), false)
}
