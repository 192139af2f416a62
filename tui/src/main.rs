//! `heaptui`: keyboard-first heap triage for Android and JVM apps.
//!
//! Today it has the headless commands over the engine (`analyze`, `inspect`); the interactive
//! screens, device monitoring and dumping arrive with their issues.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

mod cmd;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Keyboard-first heap triage for Android and JVM apps.
#[derive(Parser)]
#[command(name = "heaptui", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Analyse a heap dump: summary, heaps, class histogram, largest retained objects.
    Analyze(cmd::analyze::Args),
    /// Show objects (an id, or every instance of a class): sizes, fields, dominator, path to a GC root.
    Inspect(cmd::inspect::Args),
}

/// Output format of the headless commands.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned columns for people.
    Text,
    /// JSON for scripts (the documented schema).
    Json,
}

/// The size model flag.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SizeModelArg {
    /// `android` for 1.0.3 dumps, `hotspot` otherwise.
    Auto,
    /// ahat's arithmetic (ART's own object sizes).
    Android,
    /// VisualVM's HotSpot layout.
    Hotspot,
    /// Eclipse MAT's arithmetic.
    Mat,
}

impl SizeModelArg {
    fn model(self) -> Option<heap::SizeModel> {
        match self {
            SizeModelArg::Auto => None,
            SizeModelArg::Android => Some(heap::SizeModel::Android),
            SizeModelArg::Hotspot => Some(heap::SizeModel::Hotspot),
            SizeModelArg::Mat => Some(heap::SizeModel::Mat),
        }
    }
}

/// Exit code for input that cannot be read as a dump.
pub const EXIT_BAD_INPUT: u8 = 1;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Analyze(args)) => cmd::analyze::run(args),
        Some(Command::Inspect(args)) => cmd::inspect::run(args),
        None => cmd::demo::run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed pipe (`heaptui analyze x | head`) is not an error.
            if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) {
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(std::io::stderr(), "heaptui: {e:#}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
