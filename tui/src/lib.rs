//! `heaptui` as a library: the headless commands and the interactive UI, so the binary, the
//! tests and the benchmarks share one implementation.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

pub mod cmd;
pub mod ui;

/// The UI's former path, kept while callers in `cmd` still name it.
#[doc(hidden)]
pub use ui as tui;

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

/// Turns SIGBUS into a message and exit status 1. Dumps are read through memory maps; when the
/// file shrinks under heaptui (another program truncates or rewrites it), touching the lost pages
/// raises SIGBUS, which would otherwise end heaptui without a word. The handler does only what is
/// safe in a signal handler: it leaves the terminal's alternate screen, writes a fixed message
/// and exits.
pub fn guard_sigbus() {
    extern "C" fn on_sigbus(_: libc::c_int) {
        const MSG: &[u8] = b"\x1b[?1049l\r\nheaptui: the dump file shrank or changed while being read (SIGBUS); \
nothing was written. Copy the file somewhere stable and open the copy.\r\n";
        // SAFETY: write(2) and _exit(2) are async-signal-safe.
        unsafe {
            libc::write(2, MSG.as_ptr().cast(), MSG.len());
            libc::_exit(i32::from(EXIT_BAD_INPUT));
        }
    }
    // SAFETY: installing a handler that does only async-signal-safe calls.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as usize;
        libc::sigaction(libc::SIGBUS, &sa, std::ptr::null_mut());
    }
}
