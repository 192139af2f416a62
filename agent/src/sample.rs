//! One sample of a process: what the monitor charts and the triggers read.

use crate::hsperf::{Counters, JavaHeap};
use crate::proc::Proc;

/// A sample.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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

/// Samples process `pid` now, every figure read afresh.
pub fn sample(pid: u32) -> std::io::Result<Sample> {
    read(pid, true)
}

/// How often the costly figures are read: PSS (the kernel walks every mapping for
/// `smaps_rollup`) and an Android app's Java heap (dumpsys asks the app itself).
pub const SLOW_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Samples one process over time: `/proc/<pid>/status`, the FD count and hsperfdata every time,
/// PSS and dumpsys every [`SLOW_EVERY`] (their last values carried in between).
pub struct Sampler {
    pid: u32,
    slow_at: Option<std::time::Instant>,
    pss_kb: Option<u64>,
    /// `None` until tried; `Some(false)` once dumpsys answered nothing (not Android, not an app).
    android: Option<bool>,
    android_heap: Option<JavaHeap>,
}

impl Sampler {
    /// A sampler of `pid`.
    pub fn new(pid: u32) -> Sampler {
        Sampler { pid, slow_at: None, pss_kb: None, android: None, android_heap: None }
    }

    /// The next sample.
    pub fn take(&mut self) -> std::io::Result<Sample> {
        let slow = self.slow_at.is_none_or(|t| t.elapsed() >= SLOW_EVERY);
        let mut s = read(self.pid, slow)?;
        if slow {
            self.slow_at = Some(std::time::Instant::now());
            self.pss_kb = s.pss_kb;
        } else {
            s.pss_kb = self.pss_kb;
        }
        if s.java_heap.is_none() && self.android != Some(false) {
            if slow {
                let heap = crate::android::java_heap(self.pid);
                // Given up only if the first reading fails (not Android, not an app); a later
                // failure keeps the last reading.
                if self.android.is_none() {
                    self.android = Some(heap.is_some());
                }
                if heap.is_some() {
                    self.android_heap = heap;
                }
            }
            s.java_heap = self.android_heap;
        }
        Ok(s)
    }
}

fn read(pid: u32, pss: bool) -> std::io::Result<Sample> {
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
        pss_kb: if pss { p.pss_kb() } else { None },
        vm_size_kb: status.vm_size_kb,
        vm_peak_kb: status.vm_peak_kb,
        threads: status.threads,
        fds: p.fd_count()?,
        fd_limit: p.fd_limit(),
        bits: p.bits(),
        java_heap,
    })
}
