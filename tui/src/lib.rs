//! `heaptui` as a library, so the binary, the tests and the benchmarks share one implementation:
//! the headless subcommands ([`cli`]: arguments and printing), the interactive UI ([`ui`]:
//! screens), and between them the services both use ([`session`]: opening dumps, choosing
//! devices and processes, dumping), which know neither clap nor the terminal.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

pub mod cli;
pub mod exit;
pub mod session;
pub mod ui;

/// Exit code for input that cannot be read as a dump ([`exit::Code::BadInput`]; a constant for
/// the signal handler).
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
