//! Wall time of the engine's inner steps, printed to stderr when `HEAPTUI_TRACE` is set: what
//! the benchmarks' phase lines are made of, for profiling without a profiler. Each line also
//! gives the resident set at the step's end and its peak so far (`VmRSS`, `VmHWM`), to find the
//! step where memory peaks, how much of it is the mapped dump's pages (`RssFile`) and freed
//! blocks the allocator keeps for reuse (`heap::alloc`), and the page faults the process took
//! during the step (on every core, so steps that run side by side share theirs): in a virtual
//! machine a fault that brings in a fresh page can cost more than the work that wanted it.

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
    faults: u64,
}

/// Starts timing `name` (nothing is measured when tracing is off).
pub(crate) fn span(name: &'static str) -> Span {
    let on = enabled();
    Span { name, start: on.then(Instant::now), faults: if on { faults() } else { 0 } }
}

impl Drop for Span {
    fn drop(&mut self) {
        if let Some(t) = self.start {
            let elapsed = t.elapsed().as_secs_f64();
            let (rss, peak, file) = resident();
            let faults = faults().saturating_sub(self.faults);
            let kept = crate::alloc::kept() >> 20;
            eprintln!(
                "  trace {:<24}{elapsed:>8.3} s  rss {rss:>6} MB  peak {peak:>6} MB  faults {faults:>8}  \
                 file {file:>5} MB  kept {kept:>5} MB",
                self.name
            );
        }
    }
}

/// The resident set, its peak, and the part of it that is the mapped dump's pages, in MB (0
/// where `/proc` does not say).
fn resident() -> (u64, u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    (field("VmRSS:"), field("VmHWM:"), field("RssFile:"))
}

/// The page faults the process has taken so far, minor and major (0 where the system does not
/// say).
fn faults() -> u64 {
    #[cfg(unix)]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: `usage` is a writable `rusage`; `getrusage` fills it and touches nothing else.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } == 0 {
            // SAFETY: filled by the successful call above (and zeroed before it).
            let usage = unsafe { usage.assume_init() };
            return (usage.ru_minflt + usage.ru_majflt) as u64;
        }
    }
    0
}
