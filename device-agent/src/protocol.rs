//! The agent's wire format: one JSON object per line on its stdout (on its stderr when the dump
//! itself is streamed on stdout), each an [`Envelope`]: the protocol version `v` beside the
//! fields of one [`Line`], told apart by `type`:
//!
//! ```text
//! {"v":1,"type":"hello","protocol":1,"agent":"0.1.0"}
//! {"v":1,"type":"process","process":{"pid":…,"name":…,"cmdline":…,"rss_kb":…,"jvm":…}}
//! {"v":1,"type":"groups","pid":42,"groups":{"fds":[["socket",3]],"threads":[["main",1]]}}
//! {"v":1,"type":"sample","sample":{…}}
//! {"v":1,"type":"trigger","event":{"kind":"heap","value":…,"threshold":…,"unit":"bytes","message":…}}
//! {"v":1,"type":"dumped","dumped":{"path":…,"method":"am","mode":"triage",…}}
//! {"v":1,"type":"error","message":"process 42: No such process"}
//! ```
//!
//! The agent writes these types and the host's bridge reads them, so the two ends cannot drift
//! apart; both live here, in the agent's library, which the phone's binary links without any of
//! the host's crates. Readers ignore fields they do not know and lines whose `type` they do not
//! know ([`Envelope::parse`] answers `None`), so a newer agent can add both.
//!
//! The fork dump's JVMTI agent (`forkdump`) reports through a file rather than a pipe; its
//! [`ForkOutcome`] is defined here too, for the same reason.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::proc::{Groups, ProcessInfo};
use crate::sample::Sample;
use crate::trigger::Event;

/// Version of the lines. A host speaking another version refuses to use the agent (and pushes
/// its own build); fields a reader does not know are ignored.
pub const PROTOCOL: u32 = 1;

/// One line: the version and what it says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// [`PROTOCOL`] of the writer.
    pub v: u32,
    /// What the line says.
    #[serde(flatten)]
    pub line: Line,
}

/// What a line says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Line {
    /// First line of every run: who is speaking.
    Hello {
        /// The protocol the agent speaks.
        protocol: u32,
        /// The agent's version (`CARGO_PKG_VERSION`).
        agent: String,
    },
    /// One process of `ps`.
    Process {
        /// The process.
        process: ProcessInfo,
    },
    /// Probe's breakdowns of one process (`groups`).
    Groups {
        /// The process.
        pid: u32,
        /// FDs by what they point to, threads by name.
        groups: Groups,
    },
    /// One sample (`sample`).
    Sample {
        /// The sample.
        sample: Sample,
    },
    /// A trigger that fired on the sample before it (the agent's own thresholds).
    Trigger {
        /// What fired, with its numbers.
        event: Event,
    },
    /// A finished dump (`dump`).
    Dumped {
        /// What was dumped, how, and where.
        dumped: Dumped,
    },
    /// The agent could not go on.
    Error {
        /// Why, in words.
        message: String,
    },
}

impl Envelope {
    /// `line` under this build's protocol version.
    pub fn new(line: Line) -> Envelope {
        Envelope { v: PROTOCOL, line }
    }

    /// The hello line of this build.
    pub fn hello() -> Envelope {
        Envelope::new(Line::Hello { protocol: PROTOCOL, agent: crate::VERSION.to_string() })
    }

    /// Reads one line; `None` for anything that is not a line of a type this build knows
    /// (noise on a phone's shell, a newer agent's additions).
    pub fn parse(text: &[u8]) -> Option<Envelope> {
        serde_json::from_slice(text).ok()
    }
}

impl fmt::Display for Envelope {
    /// The line as JSON, without its newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Serialising these types cannot fail: no maps with non-string keys, no foreign impls.
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

/// How a heap is dumped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// HotSpot's dynamic attach protocol (`dumpheap`).
    Attach,
    /// Android's `am dumpheap <pid> <file>` (the app is paused while ART writes).
    Am,
    /// KOOM's fork dump inside a debuggable app (paused only around `fork`; every object, no GC).
    Fork,
    /// ART's own fork dump through Perfetto (`android.java_hprof`, Android 11+, a profileable or
    /// debuggable app): a heap graph, no values.
    Perfetto,
}

impl Method {
    /// Its name on the wire and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Attach => "attach",
            Method::Am => "am",
            Method::Fork => "fork",
            Method::Perfetto => "perfetto",
        }
    }

    /// Parses [`Method::name`].
    pub fn parse(s: &str) -> Option<Method> {
        [Method::Attach, Method::Am, Method::Fork, Method::Perfetto].into_iter().find(|m| m.name() == s)
    }

    /// The method a process on this machine (or phone) offers: attach for a HotSpot JVM (it
    /// maps `libjvm.so`), else `am`.
    pub fn for_process(pid: u32) -> Method {
        let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
        if maps.contains("libjvm.so") {
            Method::Attach
        } else {
            Method::Am
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a dump is stripped on its way off the device: one of the engine's streaming modes that
/// need no second pass, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Kept whole.
    None,
    /// What leak triage needs (the engine's own).
    Triage,
    /// KOOM's: no zygote or image heaps, no primitive array values.
    Koom,
    /// Triage with every value that could be user data zeroed.
    Redact,
}

impl Mode {
    /// Every mode, in the order `--mode` lists them.
    pub const ALL: [Mode; 4] = [Mode::None, Mode::Triage, Mode::Koom, Mode::Redact];

    /// Its name on the wire and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::None => "none",
            Mode::Triage => "triage",
            Mode::Koom => "koom",
            Mode::Redact => "redact",
        }
    }

    /// Parses [`Mode::name`]. (Matrix's mode is not one: it needs the whole dump twice, so
    /// only the host runs it.)
    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == s)
    }

    /// The engine's stripping mode, `None` for a dump kept whole.
    pub fn strip(self) -> Option<heap::strip::Mode> {
        match self {
            Mode::None => None,
            Mode::Triage => Some(heap::strip::Mode::Triage),
            Mode::Koom => Some(heap::strip::Mode::Koom),
            Mode::Redact => Some(heap::strip::Mode::Redact),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the agent's `dump` is asked to do (its command line, but `--out`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DumpSpec {
    /// The process.
    pub pid: u32,
    /// How; `None` lets the agent pick what the process offers.
    pub method: Option<Method>,
    /// How to strip it on the device.
    pub mode: Mode,
    /// Reachable objects only (after a GC), or every object.
    pub live: bool,
}

impl DumpSpec {
    /// The arguments after `dump` that ask for this (`--out` is the caller's).
    pub fn args(&self) -> Vec<String> {
        let mut v = vec![
            "--pid".to_string(),
            self.pid.to_string(),
            "--method".to_string(),
            self.method.map_or("auto", Method::name).to_string(),
            "--mode".to_string(),
            self.mode.name().to_string(),
        ];
        if !self.live {
            v.push("--all".to_string());
        }
        v
    }
}

/// What a dump did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dumped {
    /// Where the (stripped) dump is on the device; `-` when it was streamed.
    pub path: String,
    /// How it was dumped.
    pub method: Method,
    /// How it was stripped.
    pub mode: Mode,
    /// Bytes the runtime wrote.
    pub raw_bytes: u64,
    /// Bytes of the output.
    pub bytes: u64,
    /// Milliseconds the runtime took to write the dump (the app is paused for it unless forked).
    pub dump_ms: u64,
    /// Milliseconds the stripper took.
    pub strip_ms: u64,
    /// What the runtime said.
    pub message: String,
    /// SHA-256 of the output's bytes, lowercase hex (a streamed dump's check on the host).
    #[serde(default)]
    pub sha256: String,
}

/// What the fork dump's JVMTI agent writes to `OUT.json` when it is done (or could not start).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForkOutcome {
    /// Whether the dump was written.
    pub ok: bool,
    /// The fork's own report, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<ForkReport>,
    /// Bytes of the output (stripped unless `mode=none`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_bytes: Option<u64>,
    /// Their SHA-256, lowercase hex, for the host to check what it fetches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Why it failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ForkOutcome {
    /// A dump that failed, and why.
    pub fn failed(error: String) -> ForkOutcome {
        ForkOutcome { ok: false, report: None, out_bytes: None, sha256: None, error: Some(error) }
    }
}

/// What a fork dump did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForkReport {
    /// How long the app was paused: suspension, fork, resume (microseconds).
    pub pause_us: u64,
    /// How long the child took to dump (milliseconds).
    pub child_ms: u64,
    /// Bytes the child wrote.
    pub bytes: u64,
    /// Which suspension was used (`ScopedSuspendAll`, ...).
    pub suspend: String,
    /// Which dumper was used (`Hprof::Dump`, ...).
    pub dumper: String,
    /// Reads and waits interrupted by signals (EINTR), and retried.
    pub interrupted: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hsperf::JavaHeap;
    use crate::trigger::{Kind, Unit};

    fn sample() -> Sample {
        Sample {
            time_ms: 1_795_398_086_308,
            pid: 42,
            name: "app".into(),
            rss_kb: 200_000,
            pss_kb: Some(150_000),
            vm_size_kb: 4_000_000,
            vm_peak_kb: 4_100_000,
            threads: 30,
            fds: Some(100),
            fd_limit: Some(32768),
            bits: Some(64),
            java_heap: Some(JavaHeap { used: 100 << 20, max: 256 << 20 }),
            objects: None,
            sources: Default::default(),
            missing: Vec::new(),
        }
    }

    /// A sample as adb's `shell` user takes it of a non-debuggable app: FDs closed to it, PSS
    /// and the Java heap from dumpsys.
    fn shell_sample() -> Sample {
        use crate::sample::{Field, Missing, Source};
        Sample {
            fds: None,
            bits: Some(32),
            objects: Some([("Activities".to_string(), 2), ("Views".to_string(), 41)].into()),
            sources: [
                (Field::PssKb, Source::Dumpsys),
                (Field::JavaHeap, Source::Dumpsys),
                (Field::HeapLimit, Source::HeapSize),
                (Field::Bits, Source::Zygote),
            ]
            .into(),
            missing: vec![Missing { field: Field::Fds, why: "/proc/42/fd: Permission denied (os error 13)".into() }],
            ..sample()
        }
    }

    fn every_line() -> Vec<Line> {
        vec![
            Line::Hello { protocol: PROTOCOL, agent: "0.1.0".into() },
            Line::Process {
                process: ProcessInfo {
                    pid: 7,
                    name: "java".into(),
                    cmdline: "java -cp . LeakyCache".into(),
                    rss_kb: 51_200,
                    jvm: true,
                },
            },
            Line::Groups {
                pid: 7,
                groups: Groups {
                    fds: vec![("socket".into(), 3)],
                    threads: vec![("main".into(), 1)],
                    fds_missing: None,
                },
            },
            Line::Sample { sample: sample() },
            Line::Sample { sample: shell_sample() },
            Line::Trigger {
                event: Event {
                    kind: Kind::Heap,
                    value: 220 << 20,
                    threshold: 217 << 20,
                    unit: Unit::Bytes,
                    message: "over".into(),
                },
            },
            Line::Dumped {
                dumped: Dumped {
                    path: "/data/local/tmp/x.hprof".into(),
                    method: Method::Am,
                    mode: Mode::Triage,
                    raw_bytes: 10,
                    bytes: 5,
                    dump_ms: 3,
                    strip_ms: 1,
                    message: "ok".into(),
                    sha256: "ab".into(),
                },
            },
            Line::Error { message: "process 42: gone".into() },
        ]
    }

    #[test]
    fn every_line_round_trips() {
        for line in every_line() {
            let text = Envelope::new(line.clone()).to_string();
            assert!(text.starts_with("{\"v\":1,\"type\":"), "{text}");
            assert_eq!(Envelope::parse(text.as_bytes()), Some(Envelope::new(line)), "{text}");
        }
    }

    #[test]
    fn unknown_types_and_noise_are_skipped_and_unknown_fields_ignored() {
        assert_eq!(Envelope::parse(b"{\"v\":1,\"type\":\"weather\",\"sky\":\"blue\"}"), None);
        assert_eq!(Envelope::parse(b"WARNING: linker: unused DT entry"), None);
        let e = Envelope::parse(b"{\"v\":1,\"type\":\"error\",\"message\":\"m\",\"code\":5}");
        assert_eq!(e.map(|e| e.line), Some(Line::Error { message: "m".into() }));
    }

    #[test]
    fn enums_have_their_wire_names() {
        for m in [Method::Attach, Method::Am, Method::Fork, Method::Perfetto] {
            assert_eq!(serde_json::to_value(m).ok(), Some(serde_json::Value::from(m.name())));
            assert_eq!(Method::parse(m.name()), Some(m));
        }
        for m in Mode::ALL {
            assert_eq!(serde_json::to_value(m).ok(), Some(serde_json::Value::from(m.name())));
            assert_eq!(Mode::parse(m.name()), Some(m));
        }
        assert_eq!(Mode::parse("matrix"), None);
    }

    #[test]
    fn fork_outcomes_round_trip() {
        let ok = ForkOutcome {
            ok: true,
            report: Some(ForkReport {
                pause_us: 1200,
                child_ms: 800,
                bytes: 4096,
                suspend: "ScopedSuspendAll".into(),
                dumper: "Hprof::Dump".into(),
                interrupted: 0,
            }),
            out_bytes: Some(2048),
            sha256: Some("00".into()),
            error: None,
        };
        let failed = ForkOutcome { ok: false, report: None, out_bytes: None, sha256: None, error: Some("no".into()) };
        for o in [ok, failed] {
            let text = serde_json::to_string(&o).unwrap_or_default();
            assert_eq!(serde_json::from_str::<ForkOutcome>(&text).ok(), Some(o));
        }
    }
}
