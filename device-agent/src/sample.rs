//! One sample of a process: what the monitor charts and the triggers read.

use crate::hsperf::{Counters, JavaHeap};
use crate::proc::Proc;

/// A sample.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Sample {
    /// Milliseconds since the epoch.
    pub time_ms: u64,
    /// Process id.
    pub pid: u32,
    /// Command name.
    pub name: String,
    /// Resident set, KiB.
    pub rss_kb: u64,
    /// Proportional set, KiB (when the kernel has `smaps_rollup`).
    pub pss_kb: Option<u64>,
    /// Virtual size, KiB.
    pub vm_size_kb: u64,
    /// Peak virtual size, KiB.
    pub vm_peak_kb: u64,
    /// Threads.
    pub threads: u64,
    /// Open file descriptors.
    pub fds: u64,
    /// Their soft limit.
    pub fd_limit: Option<u64>,
    /// 32 or 64 (the executable's ELF class), when readable.
    pub bits: Option<u8>,
    /// Java heap, for a HotSpot JVM that publishes its counters.
    pub java_heap: Option<JavaHeap>,
}

/// Samples process `pid` now.
pub fn sample(pid: u32) -> std::io::Result<Sample> {
    let p = Proc::new(pid);
    let status = p.status()?;
    let java_heap = crate::hsperf::find(pid)
        .and_then(|path| Counters::read(&path).ok())
        .and_then(|c| c.ok())
        .and_then(|c| c.java_heap());
    let time_ms =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    Ok(Sample {
        time_ms,
        pid,
        name: status.name,
        rss_kb: status.vm_rss_kb,
        pss_kb: p.pss_kb(),
        vm_size_kb: status.vm_size_kb,
        vm_peak_kb: status.vm_peak_kb,
        threads: status.threads,
        fds: p.fd_count()?,
        fd_limit: p.fd_limit(),
        bits: p.bits(),
        java_heap,
    })
}
