//! Wall time of the engine's inner steps, printed to stderr when `HEAPTUI_TRACE` is set: what
//! the benchmarks' phase lines are made of, for profiling without a profiler. Each line also
//! gives the resident set at the step's end and its peak so far (`VmRSS`, `VmHWM`), to find the
//! step where memory peaks.

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
            let elapsed = t.elapsed().as_secs_f64();
            let (rss, peak) = resident();
            eprintln!("  trace {:<24}{elapsed:>8.3} s  rss {rss:>6} MB  peak {peak:>6} MB", self.name);
        }
    }
}

/// The resident set and its peak, in MB (0 where `/proc` does not say).
fn resident() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}
