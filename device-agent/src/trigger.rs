//! When to dump: KOOM's Java heap rule and Probe's thread, FD and address-space alarms, fed one
//! sample at a time. Every decision is an [`Event`] carrying the numbers it was taken on.
//!
//! Each alarm fires once when its value crosses the threshold and re-arms when the value drops
//! back under it, so a process that sits over a line yields one event, not one per sample (KOOM
//! stops monitoring after its dump; a monitor that keeps watching must not repeat itself).

use crate::sample::Sample;

/// Address space of a 32-bit process, KiB.
const ADDRESS_SPACE_32_KB: u64 = 4 << 20;

/// Thresholds. `None` turns an alarm off.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Java heap threshold in percent of max; `None` picks KOOM's by the heap's max
    /// ([`koom_threshold`]).
    pub heap_percent: Option<f64>,
    /// Whether the heap alarm is on at all.
    pub heap: bool,
    /// Samples in a row over the heap threshold, with used never falling, before it fires (KOOM: 3).
    pub heap_polls: u32,
    /// Thread count.
    pub threads: Option<u64>,
    /// Open file descriptors.
    pub fds: Option<u64>,
    /// Open file descriptors in percent of the soft limit (Probe: 95).
    pub fd_percent: Option<f64>,
    /// Virtual size, KiB. `None` with `vm_size_auto`: 90 % of 4 GiB, for 32-bit processes only.
    pub vm_size_kb: Option<u64>,
    /// Whether the default virtual size alarm (32-bit processes) is on.
    pub vm_size_auto: bool,
    /// Growth of Java heap used (RSS when the heap is unknown) between two samples, bytes.
    pub jump_bytes: Option<u64>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            heap_percent: None,
            heap: true,
            heap_polls: 3,
            threads: Some(750),
            fds: Some(1000),
            fd_percent: Some(95.0),
            vm_size_kb: None,
            vm_size_auto: true,
            jump_bytes: Some(350 << 20),
        }
    }
}

/// KOOM's heap threshold, percent, by the heap's maximum: the bigger the heap, the earlier.
pub fn koom_threshold(max_bytes: u64) -> f64 {
    const MB: u64 = 1 << 20;
    match max_bytes {
        m if m >= 510 * MB => 80.0,
        m if m >= 250 * MB => 85.0,
        m if m >= 128 * MB => 90.0,
        _ => 80.0,
    }
}

/// Which alarm fired (or why a dump was asked for).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// KOOM's Java heap rule.
    Heap,
    /// Probe's thread count.
    Threads,
    /// Probe's open file descriptors.
    Fds,
    /// Probe's virtual size (32-bit processes' address space).
    Vmsize,
    /// Growth between two samples.
    Jump,
    /// Asked for by hand, not by a threshold.
    Manual,
}

impl Kind {
    /// Its name on the wire, in sidecars and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Heap => "heap",
            Kind::Threads => "threads",
            Kind::Fds => "fds",
            Kind::Vmsize => "vmsize",
            Kind::Jump => "jump",
            Kind::Manual => "manual",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What an event's value and threshold count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Unit {
    /// Bytes.
    #[serde(rename = "bytes")]
    Bytes,
    /// A count (threads, descriptors).
    #[serde(rename = "count")]
    Count,
    /// KiB (`/proc`'s unit for sizes).
    #[serde(rename = "KiB")]
    KiB,
}

/// A trigger's firing, with its numbers.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Event {
    /// Which alarm.
    pub kind: Kind,
    /// The value that crossed the line (bytes, a count or KiB, as `unit` says).
    pub value: u64,
    /// The line.
    pub threshold: u64,
    /// What `value` and `threshold` count.
    pub unit: Unit,
    /// The same in words.
    pub message: String,
}

/// The triggers' state across samples.
#[derive(Debug, Clone)]
pub struct Triggers {
    /// Their thresholds.
    pub config: Config,
    over_heap: u32,
    heap_fired: bool,
    last_used: Option<u64>,
    last_jump_value: Option<u64>,
    armed: [bool; 4],
}

fn mib(b: u64) -> String {
    format!("{:.1} MiB", b as f64 / (1 << 20) as f64)
}

impl Triggers {
    /// Triggers with thresholds `config`.
    pub fn new(config: Config) -> Triggers {
        Triggers { config, over_heap: 0, heap_fired: false, last_used: None, last_jump_value: None, armed: [true; 4] }
    }

    /// The heap line in bytes for a heap of `max` bytes, if the heap alarm is on.
    pub fn heap_line(&self, max: u64) -> Option<u64> {
        let percent = self.config.heap_percent.unwrap_or_else(|| koom_threshold(max));
        self.config.heap.then_some((max as f64 * percent / 100.0) as u64)
    }

    /// The FD line for a soft limit of `limit`: the lower of the count and the percentage.
    pub fn fd_line(&self, limit: Option<u64>) -> Option<u64> {
        let pct = limit.zip(self.config.fd_percent).map(|(l, p)| (l as f64 * p / 100.0) as u64);
        match (self.config.fds, pct) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The virtual size line, KiB, for a process of `bits` bits.
    pub fn vm_size_line(&self, bits: Option<u8>) -> Option<u64> {
        self.config
            .vm_size_kb
            .or_else(|| (self.config.vm_size_auto && bits == Some(32)).then_some(ADDRESS_SPACE_32_KB * 9 / 10))
    }

    /// Feeds one sample; returns what fired.
    pub fn feed(&mut self, s: &Sample) -> Vec<Event> {
        let mut events = Vec::new();
        if let Some(heap) = s.java_heap.filter(|h| h.max > 0) {
            if let Some(line) = self.heap_line(heap.max) {
                let rising = self.last_used.is_none_or(|last| heap.used >= last);
                if heap.used < line {
                    self.heap_fired = false;
                }
                if heap.used >= line && rising {
                    self.over_heap += 1;
                } else {
                    self.over_heap = u32::from(heap.used >= line);
                }
                if self.over_heap >= self.config.heap_polls.max(1) && !self.heap_fired {
                    self.over_heap = 0;
                    self.heap_fired = true;
                    events.push(Event {
                        kind: Kind::Heap,
                        value: heap.used,
                        threshold: line,
                        unit: Unit::Bytes,
                        message: format!(
                            "Java heap {} of {} ({:.1} %) over {} for {} samples without falling",
                            mib(heap.used),
                            mib(heap.max),
                            heap.used as f64 * 100.0 / heap.max as f64,
                            mib(line),
                            self.config.heap_polls.max(1)
                        ),
                    });
                }
            }
            self.last_used = Some(heap.used);
        }
        let fd_line = self.fd_line(s.fd_limit);
        let vm_line = self.vm_size_line(s.bits);
        let checks = [
            (Kind::Threads, Some(s.threads), self.config.threads, Unit::Count),
            (Kind::Fds, s.fds, fd_line, Unit::Count),
            (Kind::Vmsize, Some(s.vm_size_kb), vm_line, Unit::KiB),
        ];
        for (i, (kind, value, line, unit)) in checks.into_iter().enumerate() {
            // A figure the sample lacks (an app's FDs read as `shell`) neither fires nor re-arms.
            let (Some(value), Some(line)) = (value, line) else { continue };
            if value < line {
                self.armed[i] = true;
            } else if std::mem::replace(&mut self.armed[i], false) {
                let what = match kind {
                    Kind::Threads => format!("{value} threads, the line is {line}"),
                    Kind::Fds => match s.fd_limit {
                        Some(l) => format!("{value} open file descriptors of {l} allowed, the line is {line}"),
                        None => format!("{value} open file descriptors, the line is {line}"),
                    },
                    _ => format!("virtual size {} KiB, the line is {line} KiB", value),
                };
                events.push(Event { kind, value, threshold: line, unit, message: what });
            }
        }
        let (jump_value, what) = match s.java_heap {
            Some(h) => (h.used, "Java heap used"),
            None => (s.rss_kb.saturating_mul(1024), "RSS"),
        };
        if let (Some(line), Some(last)) = (self.config.jump_bytes, self.last_jump_value) {
            let grew = jump_value.saturating_sub(last);
            if grew >= line {
                events.push(Event {
                    kind: Kind::Jump,
                    value: grew,
                    threshold: line,
                    unit: Unit::Bytes,
                    message: format!(
                        "{what} grew by {} in one sample ({} to {})",
                        mib(grew),
                        mib(last),
                        mib(jump_value)
                    ),
                });
            }
        }
        self.last_jump_value = Some(jump_value);
        events
    }

    /// A dump asked for by hand.
    pub fn manual() -> Event {
        Event { kind: Kind::Manual, value: 0, threshold: 0, unit: Unit::Count, message: "dump requested".into() }
    }
}

/// Why a trigger spec does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A part is not `NAME=VALUE`.
    #[error("{0:?}: expected NAME=VALUE")]
    NotNameValue(String),
    /// A known name with a value it does not take.
    #[error("{0:?}: bad value")]
    BadValue(String),
    /// A name that is not a trigger.
    #[error("unknown trigger {0:?} (heap, polls, threads, fds, vmsize, jump)")]
    Unknown(String),
}

/// Parses `heap=85%,polls=3,threads=750,fds=1000,fds=95%,vmsize=3.5G,jump=350M` onto `base`;
/// `off` turns an alarm off.
pub fn parse(spec: &str, mut base: Config) -> Result<Config, SpecError> {
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once('=').ok_or_else(|| SpecError::NotNameValue(part.to_string()))?;
        let off = value.eq_ignore_ascii_case("off");
        let bad = || SpecError::BadValue(part.to_string());
        let percent = |v: &str| v.strip_suffix('%').and_then(|p| p.trim().parse::<f64>().ok()).filter(|p| *p > 0.0);
        match key.trim() {
            "heap" if off => base.heap = false,
            "heap" if value.eq_ignore_ascii_case("koom") => (base.heap, base.heap_percent) = (true, None),
            "heap" => (base.heap, base.heap_percent) = (true, Some(percent(value).ok_or_else(bad)?)),
            "polls" => base.heap_polls = value.parse().ok().filter(|n| *n > 0).ok_or_else(bad)?,
            "threads" => base.threads = if off { None } else { Some(value.parse().map_err(|_| bad())?) },
            "fds" if off => (base.fds, base.fd_percent) = (None, None),
            "fds" if value.ends_with('%') => base.fd_percent = Some(percent(value).ok_or_else(bad)?),
            "fds" => base.fds = Some(value.parse().map_err(|_| bad())?),
            "vmsize" if off => (base.vm_size_kb, base.vm_size_auto) = (None, false),
            "vmsize" => base.vm_size_kb = Some(size(value).ok_or_else(bad)? / 1024),
            "jump" => base.jump_bytes = if off { None } else { Some(size(value).ok_or_else(bad)?) },
            other => return Err(SpecError::Unknown(other.to_string())),
        }
    }
    Ok(base)
}

/// `350M`, `3.5G`, `512K`, `1000` (bytes).
fn size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.char_indices().last()? {
        (i, 'k' | 'K') => (&s[..i], 1u64 << 10),
        (i, 'm' | 'M') => (&s[..i], 1 << 20),
        (i, 'g' | 'G') => (&s[..i], 1 << 30),
        _ => (s, 1),
    };
    let n: f64 = num.trim().parse().ok()?;
    (n >= 0.0 && n.is_finite()).then_some((n * mult as f64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hsperf::JavaHeap;

    const MB: u64 = 1 << 20;

    fn sample(used: u64, max: u64) -> Sample {
        Sample {
            time_ms: 0,
            pid: 1,
            name: "app".into(),
            rss_kb: 100_000,
            pss_kb: None,
            vm_size_kb: 1 << 20,
            vm_peak_kb: 1 << 20,
            threads: 20,
            fds: Some(50),
            fd_limit: Some(1024),
            bits: Some(64),
            java_heap: Some(JavaHeap { used, max }),
            objects: None,
            sources: Default::default(),
            missing: Vec::new(),
        }
    }

    /// The thresholds SPEC §3 gives for KOOM, on each side of each step.
    #[test]
    fn koom_thresholds_by_max_heap() {
        assert_eq!(koom_threshold(512 * MB), 80.0);
        assert_eq!(koom_threshold(510 * MB), 80.0);
        assert_eq!(koom_threshold(509 * MB), 85.0);
        assert_eq!(koom_threshold(256 * MB), 85.0);
        assert_eq!(koom_threshold(249 * MB), 90.0);
        assert_eq!(koom_threshold(128 * MB), 90.0);
        assert_eq!(koom_threshold(127 * MB), 80.0);
        assert_eq!(koom_threshold(64 * MB), 80.0);
    }

    /// Three polls in a row over the line, used never falling: fires on the third, and again only
    /// after the heap went back under the line.
    #[test]
    fn heap_fires_after_three_rising_polls() {
        let mut t = Triggers::new(Config::default());
        let max = 256 * MB; // 85 %: the line is 217.6 MiB
        assert!(t.feed(&sample(200 * MB, max)).is_empty());
        assert!(t.feed(&sample(218 * MB, max)).is_empty());
        assert!(t.feed(&sample(219 * MB, max)).is_empty());
        let e = t.feed(&sample(219 * MB, max));
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].kind.name(), e[0].value, e[0].threshold), ("heap", 219 * MB, (256 * MB) * 85 / 100));
        for _ in 0..5 {
            assert!(t.feed(&sample(220 * MB, max)).is_empty());
        }
        assert!(t.feed(&sample(100 * MB, max)).is_empty());
        for _ in 0..2 {
            assert!(t.feed(&sample(230 * MB, max)).is_empty());
        }
        assert_eq!(t.feed(&sample(230 * MB, max))[0].kind.name(), "heap");
    }

    /// A fall between polls starts the count again (a GC freed memory: not a leak yet).
    #[test]
    fn heap_count_resets_when_used_falls() {
        let mut t = Triggers::new(Config::default());
        let max = 100 * MB; // 80 %
        for used in [90, 95, 91, 92] {
            assert!(t.feed(&sample(used * MB, max)).is_empty(), "{used}");
        }
        assert_eq!(t.feed(&sample(93 * MB, max))[0].kind.name(), "heap");
    }

    /// A phone's figures near the top of u64 (a hostile `status` or `dumpsys`): the RSS in bytes
    /// saturates rather than wrapping to a small number, so a jump line still fires on it.
    #[test]
    fn huge_figures_saturate() {
        let mut t = Triggers::new(Config { jump_bytes: Some(MB), ..Config::default() });
        let mut s = sample(MB, 100 * MB);
        s.java_heap = None;
        s.rss_kb = 1;
        assert!(t.feed(&s).is_empty());
        s.rss_kb = u64::MAX / 2;
        let e = t.feed(&s);
        assert_eq!(e.iter().map(|e| (e.kind.name(), e.value)).collect::<Vec<_>>(), [("jump", u64::MAX - 1024)]);
    }

    #[test]
    fn counts_fire_once_per_crossing() {
        let mut t = Triggers::new(Config::default());
        let mut s = sample(MB, 100 * MB);
        s.threads = 800;
        assert_eq!(t.feed(&s).iter().map(|e| e.kind.name()).collect::<Vec<_>>(), ["threads"]);
        assert!(t.feed(&s).is_empty());
        s.threads = 700;
        assert!(t.feed(&s).is_empty());
        s.threads = 750;
        assert_eq!(t.feed(&s)[0].threshold, 750);
    }

    /// The FD line is the lower of the count and 95 % of the limit: 95 % of 1024 is 972.
    #[test]
    fn fd_line_is_the_lower_of_count_and_percent() {
        let t = Triggers::new(Config::default());
        assert_eq!(t.fd_line(Some(1024)), Some(972));
        assert_eq!(t.fd_line(Some(32768)), Some(1000));
        assert_eq!(t.fd_line(None), Some(1000));
    }

    #[test]
    fn vm_size_alarm_is_for_32_bit_processes_unless_set() {
        let t = Triggers::new(Config::default());
        assert_eq!(t.vm_size_line(Some(64)), None);
        assert_eq!(t.vm_size_line(Some(32)), Some(3_774_873));
        let t = Triggers::new(parse("vmsize=3G", Config::default()).unwrap());
        assert_eq!(t.vm_size_line(Some(64)), Some(3 << 20));
    }

    #[test]
    fn jump_compares_consecutive_samples() {
        let mut t = Triggers::new(parse("heap=off", Config::default()).unwrap());
        assert!(t.feed(&sample(10 * MB, 2048 * MB)).is_empty());
        assert!(t.feed(&sample(300 * MB, 2048 * MB)).is_empty());
        let e = t.feed(&sample(700 * MB, 2048 * MB));
        assert_eq!((e[0].kind.name(), e[0].value), ("jump", 400 * MB));
    }

    #[test]
    fn parses_specs() {
        let c = parse("heap=85%,threads=500,fds=90%,jump=100M,polls=5", Config::default()).unwrap();
        assert_eq!(c.heap_percent, Some(85.0));
        assert_eq!(c.threads, Some(500));
        assert_eq!(c.fd_percent, Some(90.0));
        assert_eq!(c.fds, Some(1000));
        assert_eq!(c.jump_bytes, Some(100 * MB));
        assert_eq!(c.heap_polls, 5);
        let c = parse("threads=off,fds=off,heap=off", Config::default()).unwrap();
        assert_eq!((c.threads, c.fds, c.fd_percent, c.heap), (None, None, None, false));
        assert!(parse("heap=85", Config::default()).is_err());
        assert!(parse("heap=-5%", Config::default()).is_err());
        assert!(parse("polls=0", Config::default()).is_err());
        assert!(parse("disk=1", Config::default()).unwrap_err().to_string().contains("unknown trigger"));
        assert!(parse("threads", Config::default()).is_err());
    }
}
