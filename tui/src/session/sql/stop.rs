//! Stopping a query that runs on another thread, and reading its progress meanwhile.

use std::sync::Arc;

/// Stops a running query: SQLite's interrupt once its connection exists, and before that a
/// flag the run reads as soon as it has one. It also carries the run's progress: the rows its
/// tables have read so far, and when it started.
#[derive(Clone)]
pub struct Stop(
    Arc<std::sync::Mutex<(Option<rusqlite::InterruptHandle>, bool)>>,
    Arc<std::sync::atomic::AtomicU64>,
    std::time::Instant,
);

impl Default for Stop {
    fn default() -> Stop {
        Stop(Default::default(), Default::default(), std::time::Instant::now())
    }
}

impl Stop {
    /// Asks the query to stop, now or as soon as it starts.
    pub fn stop(&self) {
        if let Ok(mut s) = self.0.lock() {
            match &s.0 {
                Some(h) => h.interrupt(),
                None => s.1 = true,
            }
        }
    }

    /// Hands the connection's interrupt over; false when a stop was asked before it existed.
    pub fn started(&self, handle: rusqlite::InterruptHandle) -> bool {
        match self.0.lock() {
            Ok(mut s) if !s.1 => {
                s.0 = Some(handle);
                true
            }
            _ => false,
        }
    }

    /// The counter the run's tables add each row they read to.
    pub fn rows_read(&self) -> Arc<std::sync::atomic::AtomicU64> {
        self.1.clone()
    }

    /// Rows read so far, and seconds since the run started.
    pub fn progress(&self) -> (u64, f64) {
        (self.1.load(std::sync::atomic::Ordering::Relaxed), self.2.elapsed().as_secs_f64())
    }

    /// Whether `other` stops the same run.
    pub fn same(&self, other: &Stop) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
