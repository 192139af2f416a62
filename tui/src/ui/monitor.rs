//! Screen 6's state, the live monitor: a process on this machine or a phone, sampled by a watcher
//! thread (see `run.rs`), its samples kept for the charts (`view/monitor.rs`), and the triggers'
//! events logged. The triggers run here, on the host, in `update` (no I/O), as `heaptui monitor`
//! runs them.

use std::collections::VecDeque;

use agent::sample::Sample;
use agent::trigger::{Config, Triggers};

use super::line_edit::LineEdit;

/// How many samples the charts keep (at 1 s, ten minutes).
pub const KEEP: usize = 600;

/// A process to watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// A phone's serial; `None` for this machine.
    pub serial: Option<String>,
    /// Process id on that device.
    pub pid: u32,
    /// What the user called it (for dump file names).
    pub name: String,
}

impl Target {
    /// `local` or the serial.
    pub fn device(&self) -> &str {
        self.serial.as_deref().unwrap_or("local")
    }
}

/// The monitor's state.
pub struct MonitorState {
    pub target: Target,
    /// Seconds since the first sample, and the sample.
    pub samples: VecDeque<(f64, Sample)>,
    first_ms: Option<u64>,
    pub triggers: Triggers,
    /// Seconds, and what happened.
    pub events: Vec<(f64, String)>,
    /// Dump when a trigger fires (once, as KOOM does).
    pub auto_dump: bool,
    /// A dump was asked for (by a trigger or `d`) and has not finished.
    pub dumping: bool,
    /// Dumps taken in this session.
    pub dumps: Vec<std::path::PathBuf>,
    /// When dumps were asked for (seconds), marked on the charts.
    pub marks: Vec<f64>,
    /// The thresholds being edited (`t`), as a trigger spec.
    pub editing: Option<LineEdit>,
    /// Why the watch ended, once it has.
    pub ended: Option<String>,
}

/// What a sample asks of the main loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Dump the watched process; the trigger's kind.
    Dump(agent::trigger::Kind),
}

impl MonitorState {
    /// Watching `target` with thresholds `config`.
    pub fn new(target: Target, config: Config) -> MonitorState {
        MonitorState {
            target,
            samples: VecDeque::new(),
            first_ms: None,
            triggers: Triggers::new(config),
            events: Vec::new(),
            auto_dump: false,
            dumping: false,
            dumps: Vec::new(),
            marks: Vec::new(),
            editing: None,
            ended: None,
        }
    }

    /// Takes a sample: charts it, feeds the triggers, logs what fires; asks for a dump when
    /// auto-dump is on and nothing was dumped yet.
    pub fn on_sample(&mut self, s: Sample) -> Option<Request> {
        let first = *self.first_ms.get_or_insert(s.time_ms);
        let t = s.time_ms.saturating_sub(first) as f64 / 1000.0;
        let events = self.triggers.feed(&s);
        // Which figures are unavailable, and where the others come from, logged as it changes
        // (the chart titles have room only for a word).
        let before = self.samples.back().map(|(_, p)| (&p.missing, &p.sources));
        if before != Some((&s.missing, &s.sources)) {
            for m in &s.missing {
                self.events.push((t, format!("unavailable: {}: {}", m.field, m.why)));
            }
            if !s.sources.is_empty() {
                let from: Vec<String> = s.sources.iter().map(|(f, src)| format!("{f} from {src}")).collect();
                self.events.push((t, format!("read: {}", from.join(", "))));
            }
        }
        if self.samples.len() == KEEP {
            self.samples.pop_front();
        }
        self.samples.push_back((t, s));
        let mut request = None;
        for e in events {
            self.events.push((t, format!("TRIGGER {}: {}", e.kind, e.message)));
            if self.auto_dump && !self.dumping && self.dumps.is_empty() && request.is_none() {
                self.dumping = true;
                self.marks.push(t);
                self.events.push((t, "auto-dump: dumping".into()));
                request = Some(Request::Dump(e.kind));
            }
        }
        request
    }

    /// The last sample's time.
    pub fn now(&self) -> f64 {
        self.samples.back().map_or(0.0, |s| s.0)
    }

    /// Applies a trigger spec (`heap=85%,threads=500`) over the current thresholds.
    pub fn apply(&mut self, spec: &str) -> Result<(), agent::trigger::SpecError> {
        let config = agent::trigger::parse(spec, self.triggers.config.clone())?;
        // New lines, same history: the alarms re-arm against the new thresholds.
        self.triggers = Triggers::new(config);
        let t = self.now();
        self.events.push((t, format!("thresholds: {spec}")));
        Ok(())
    }

    /// The thresholds in words for the last sample.
    pub fn describe(&self) -> String {
        match self.samples.back() {
            Some((_, s)) => crate::session::triggers::describe(&self.triggers, s),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t_ms: u64, used_mib: u64) -> Sample {
        Sample {
            time_ms: 1_000_000 + t_ms,
            pid: 42,
            name: "app".into(),
            rss_kb: 200_000,
            pss_kb: Some(150_000),
            vm_size_kb: 4_000_000,
            vm_peak_kb: 4_000_000,
            threads: 30,
            fds: Some(100),
            fd_limit: Some(32768),
            bits: Some(64),
            java_heap: Some(agent::hsperf::JavaHeap { used: used_mib << 20, max: 256 << 20 }),
            objects: None,
            sources: Default::default(),
            missing: Vec::new(),
        }
    }

    fn target() -> Target {
        Target { serial: None, pid: 42, name: "app".into() }
    }

    /// KOOM's rule on a 256 MiB heap: 85 % (217.6 MiB), three samples in a row over it.
    #[test]
    fn auto_dump_asks_once_on_the_koom_trigger() {
        let mut m = MonitorState::new(target(), Config::default());
        m.auto_dump = true;
        let mut asked = Vec::new();
        for (i, used) in [100, 150, 220, 225, 230, 235, 240, 245].iter().enumerate() {
            asked.push(m.on_sample(sample(i as u64 * 1000, *used)));
        }
        // Over the line from the third sample; it fires on the fifth (third in a row).
        assert_eq!(asked.iter().position(Option::is_some), Some(4));
        assert_eq!(asked[4], Some(Request::Dump(agent::trigger::Kind::Heap)));
        assert_eq!(asked.iter().filter(|a| a.is_some()).count(), 1);
        assert!(m.dumping);
        let fired: Vec<&(f64, String)> = m.events.iter().filter(|e| e.1.starts_with("TRIGGER heap")).collect();
        assert_eq!(fired.len(), 1);
        assert_eq!(fired[0].0, 4.0);
        assert_eq!(m.samples.len(), 8);
        assert_eq!(m.now(), 7.0);
    }

    #[test]
    fn without_auto_dump_it_only_logs_and_thresholds_can_change() {
        let mut m = MonitorState::new(target(), Config::default());
        for i in 0..5 {
            assert_eq!(m.on_sample(sample(i * 1000, 230)), None);
        }
        assert_eq!(m.events.iter().filter(|e| e.1.starts_with("TRIGGER")).count(), 1);
        assert!(m.apply("heap=95%").is_ok());
        assert_eq!(m.triggers.heap_line(256 << 20), Some(((256u64 << 20) as f64 * 0.95) as u64));
        assert!(m.apply("heap=lots").is_err());
        assert!(m.describe().contains("heap 243.2 MiB"), "{}", m.describe());
    }

    #[test]
    fn the_charts_keep_the_last_ten_minutes() {
        let mut m = MonitorState::new(target(), Config::default());
        for i in 0..(KEEP as u64 + 50) {
            m.on_sample(sample(i * 1000, 10));
        }
        assert_eq!(m.samples.len(), KEEP);
        assert_eq!(m.samples.front().unwrap().0, 50.0);
    }
}
