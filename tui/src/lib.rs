//! `heaptui` as a library: the headless commands and the interactive UI, so the binary, the
//! tests and the benchmarks share one implementation.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

pub mod cmd;
pub mod tui;

use clap::ValueEnum;

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
