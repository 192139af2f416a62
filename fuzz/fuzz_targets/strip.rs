//! The streaming stripper and restore on arbitrary bytes, fed in chunks whose size the first byte
//! picks. Invariants besides not panicking: a dump the stripper took without error restores without
//! error, and (for small inputs) the stripped output does not depend on the chunking.
#![no_main]

use heap::strip::{restore_plan, rewrite_all, strip_plan, Mode, Rewriter, StripOptions};
use libfuzzer_sys::fuzz_target;

fn strip_in_chunks(data: &[u8], chunk: usize, mode: Mode) -> Result<Vec<u8>, String> {
    let mut r = Rewriter::new(Vec::new(), strip_plan(&StripOptions { mode, ..Default::default() }));
    for c in data.chunks(chunk.max(1)) {
        r.feed(c).map_err(|e| e.to_string())?;
    }
    r.finish().map(|(v, _)| v).map_err(|e| e.to_string())
}

fuzz_target!(|input: &[u8]| {
    let Some((&knob, data)) = input.split_first() else { return };
    let mode = [Mode::Triage, Mode::Koom, Mode::Redact][usize::from(knob % 3)];
    let chunk = 1 + usize::from(knob / 3) * 97;
    let Ok(stripped) = strip_in_chunks(data, chunk, mode) else { return };
    rewrite_all(&stripped[..], Vec::new(), restore_plan()).expect("a dump the stripper wrote restores");
    if data.len() < 4096 {
        assert_eq!(strip_in_chunks(data, data.len().max(1), mode).as_ref(), Ok(&stripped), "chunking changed the output");
    }
});
