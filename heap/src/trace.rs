//! Wall time of the engine's inner steps, printed to stderr when `HEAPTUI_TRACE` is set: what
//! the benchmarks' phase lines are made of, for profiling without a profiler.

use std::sync::OnceLock;
use std::time::Instant;

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("HEAPTUI_TRACE").is_some_and(|v| !v.is_empty()))
}

/// A step being timed: printed with its duration when dropped.
pub(crate) struct Span {
    name: &'static str,
    start: Option<Instant>,
}

/// Starts timing `name` (nothing is measured when tracing is off).
pub(crate) fn span(name: &'static str) -> Span {
    Span { name, start: enabled().then(Instant::now) }
}

impl Drop for Span {
    fn drop(&mut self) {
        if let Some(t) = self.start {
            eprintln!("  trace {:<24}{:>8.3} s", self.name, t.elapsed().as_secs_f64());
        }
    }
}
