//! The ELF reader of a runtime's library (`forkdump::elf`) on arbitrary bytes: the headers, the
//! symbol tables and the xz MiniDebugInfo in `.gnu_debugdata` (inflated under its bounds), then
//! the fork dump's plan from it. Errors are fine; panics, hangs and memory past the bounds are
//! not.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(lib) = forkdump::elf::Library::parse(data) else { return };
    let _ = lib.mini_debug_info_error();
    let _ = forkdump::plan::Plan::of(&lib);
});
