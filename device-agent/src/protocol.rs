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
    /// Bitmap pixels: `am dumpheap -b png` where the phone's `am` takes `-b` (Android 15 added
    /// it); the app compresses each Bitmap into `Bitmap.dumpData` before ART dumps.
    pub bitmaps: bool,
}

/// What the host asks of the agent: its command line, typed. The host writes it with
/// [`Request::args`] and the agent reads it with [`Request::parse`], so the two ends cannot
/// drift apart; the command lines hosts wrote before this type existed read the same
/// (`tests/protocol_compat.rs`).
///
/// ```text
/// version
/// ps
/// groups --pid PID
/// sample --pid PID [--interval-ms MS] [--count N] [--trigger SPEC]
/// dump --pid PID [--method auto|attach|am] [--mode triage|koom|redact|none] [--all] [--bitmaps] --out FILE|-
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// The hello line alone.
    Version,
    /// A `process` line for each process.
    Ps,
    /// Probe's breakdowns of one process.
    Groups {
        /// The process.
        pid: u32,
    },
    /// A sample every interval, with the triggers it fires.
    Sample {
        /// The process.
        pid: u32,
        /// Milliseconds between samples (1000 when not said).
        interval_ms: u64,
        /// At most this many samples; until the process ends when not said.
        count: Option<u64>,
        /// The agent's own thresholds (`agent::trigger::parse`'s form), when any.
        trigger: Option<String>,
    },
    /// A dump, stripped on the device.
    Dump {
        /// What to dump, how.
        spec: DumpSpec,
        /// Where on the device; `-` streams it on stdout (the lines then go to stderr).
        out: String,
    },
}

/// Why a command line is not a [`Request`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// No subcommand, or one the agent does not have.
    #[error("unknown command {0:?}")]
    Command(String),
    /// A flag this command does not take, or one given twice.
    #[error("{1}: {0} is not taken here (or given twice)")]
    Flag(String, &'static str),
    /// A flag with no value after it.
    #[error("{0} needs a value")]
    NoValue(String),
    /// A value that does not parse.
    #[error("{0} {1:?}: {2}")]
    Value(&'static str, String, &'static str),
    /// A required flag is missing.
    #[error("{1} needs {0}")]
    Missing(&'static str, &'static str),
}

/// The flags a command takes, and whether each takes a value.
const FLAGS: &[(&str, &[(&str, bool)])] = &[
    ("version", &[]),
    ("ps", &[]),
    ("groups", &[("--pid", true)]),
    ("sample", &[("--pid", true), ("--interval-ms", true), ("--count", true), ("--trigger", true)]),
    (
        "dump",
        &[
            ("--pid", true),
            ("--method", true),
            ("--mode", true),
            ("--all", false),
            ("--bitmaps", false),
            ("--out", true),
        ],
    ),
];

impl Request {
    /// Its command line after the agent's path, as the agent reads it back.
    pub fn args(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        let mut flag = |name: &str, value: Option<String>| {
            v.push(name.to_string());
            v.extend(value);
        };
        match self {
            Request::Version => flag("version", None),
            Request::Ps => flag("ps", None),
            Request::Groups { pid } => {
                flag("groups", None);
                flag("--pid", Some(pid.to_string()));
            }
            Request::Sample { pid, interval_ms, count, trigger } => {
                flag("sample", None);
                flag("--pid", Some(pid.to_string()));
                flag("--interval-ms", Some(interval_ms.to_string()));
                if let Some(c) = count {
                    flag("--count", Some(c.to_string()));
                }
                if let Some(t) = trigger {
                    flag("--trigger", Some(t.clone()));
                }
            }
            Request::Dump { spec, out } => {
                flag("dump", None);
                flag("--pid", Some(spec.pid.to_string()));
                flag("--method", Some(spec.method.map_or("auto", Method::name).to_string()));
                flag("--mode", Some(spec.mode.name().to_string()));
                if !spec.live {
                    flag("--all", None);
                }
                if spec.bitmaps {
                    flag("--bitmaps", None);
                }
                flag("--out", Some(out.clone()));
            }
        }
        v
    }

    /// Reads a command line (without the program's name): the command, then its flags in any
    /// order, each at most once.
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Request, RequestError> {
        let command = args.first().map_or("", AsRef::as_ref);
        let (command, takes) =
            FLAGS.iter().find(|(c, _)| *c == command).ok_or_else(|| RequestError::Command(command.to_string()))?;
        let mut given: Vec<(&str, Option<&str>)> = Vec::new();
        let mut rest = args[1..].iter().map(AsRef::as_ref);
        while let Some(a) = rest.next() {
            let Some(&(name, valued)) = takes.iter().find(|(f, _)| *f == a).filter(|_| !given.iter().any(|g| g.0 == a))
            else {
                return Err(RequestError::Flag(a.to_string(), command));
            };
            let value =
                if valued { Some(rest.next().ok_or_else(|| RequestError::NoValue(a.to_string()))?) } else { None };
            given.push((name, value));
        }
        let value = |f: &str| given.iter().find(|g| g.0 == f).and_then(|g| g.1);
        fn number<T: std::str::FromStr>(flag: &'static str, v: &str) -> Result<T, RequestError> {
            v.parse().map_err(|_| RequestError::Value(flag, v.to_string(), "not a number"))
        }
        let pid = || -> Result<u32, RequestError> {
            number("--pid", value("--pid").ok_or(RequestError::Missing("--pid PID", command))?)
        };
        Ok(match *command {
            "version" => Request::Version,
            "ps" => Request::Ps,
            "groups" => Request::Groups { pid: pid()? },
            "sample" => Request::Sample {
                pid: pid()?,
                interval_ms: value("--interval-ms").map_or(Ok(1000), |v| number("--interval-ms", v))?,
                count: value("--count").map(|v| number("--count", v)).transpose()?,
                trigger: value("--trigger").map(str::to_string),
            },
            _ => {
                let method = match value("--method").unwrap_or("auto") {
                    "auto" => None,
                    m => Some(
                        Method::parse(m)
                            .filter(|m| matches!(m, Method::Attach | Method::Am))
                            .ok_or(RequestError::Value("--method", m.to_string(), "auto, attach or am"))?,
                    ),
                };
                let mode = value("--mode").unwrap_or("triage");
                let mode = Mode::parse(mode).ok_or(RequestError::Value(
                    "--mode",
                    mode.to_string(),
                    "triage, koom, redact or none (matrix needs the whole dump: the host runs it)",
                ))?;
                let out = value("--out").ok_or(RequestError::Missing("--out FILE", command))?.to_string();
                Request::Dump {
                    spec: DumpSpec {
                        pid: pid()?,
                        method,
                        mode,
                        live: !given.iter().any(|g| g.0 == "--all"),
                        bitmaps: given.iter().any(|g| g.0 == "--bitmaps"),
                    },
                    out,
                }
            }
        })
    }
}

/// What the fork dump's library is told when it is attached to an app: the part of
/// `cmd activity attach-agent PID LIB=OPTIONS` after the `=`, as `key=value` pairs joined by
/// commas. The host writes it with its `Display` and the library reads it with
/// [`ForkOptions::parse`].
///
/// ```text
/// out=/data/data/app/cache/x.hprof,mode=triage,timeout=120,lib=libart.so,sdk=34
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForkOptions {
    /// Where the dump goes (its report beside it, `OUT.json`).
    pub out: String,
    /// How it is stripped as it is written.
    pub mode: Mode,
    /// The child's time limit, in seconds.
    pub timeout_s: u64,
    /// The runtime library: a file name to find among those loaded, or a path to load first.
    pub lib: String,
    /// The platform's SDK level (`ro.build.version.sdk`), when known.
    pub sdk: Option<u32>,
}

/// Why fork options do not parse, or cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ForkOptionsError {
    /// A part is not `key=value`.
    #[error("{0:?} is not key=value")]
    NotKeyValue(String),
    /// A key with a value it does not take.
    #[error("{0} {1:?}")]
    BadValue(&'static str, String),
    /// A key that is not an option, or one given twice.
    #[error("unknown or repeated option {0:?}")]
    Unknown(String),
    /// `out=` is missing.
    #[error("out=PATH is required")]
    NoOut,
    /// A value holds a comma (which would start another option), a NUL (which would end the
    /// string the runtime passes) or, in the library's path, an `=`: it cannot be written.
    #[error("{0} {1:?} holds a character that would change the options (comma, NUL, or = in the library)")]
    Unwritable(&'static str, String),
}

impl Default for ForkOptions {
    fn default() -> ForkOptions {
        ForkOptions { out: String::new(), mode: Mode::Triage, timeout_s: 120, lib: "libart.so".into(), sdk: None }
    }
}

impl ForkOptions {
    /// The options as the library reads them; an error when a value cannot be written so that
    /// it reads back the same (a phone's path with a comma would otherwise add an option).
    pub fn to_text(&self) -> Result<String, ForkOptionsError> {
        for (key, v) in [("out", &self.out), ("lib", &self.lib)] {
            if v.contains([',', '\0']) {
                return Err(ForkOptionsError::Unwritable(key, v.clone()));
            }
        }
        let mut s = format!("out={},mode={},timeout={},lib={}", self.out, self.mode, self.timeout_s, self.lib);
        if let Some(sdk) = self.sdk {
            s += &format!(",sdk={sdk}");
        }
        Ok(s)
    }

    /// The whole argument of `cmd activity attach-agent PID ARG` that loads `library` with these
    /// options: `LIBRARY=OPTIONS`. The runtime cuts it at its first `=` (ART's `AgentSpec`), so
    /// a library path holding one cannot be written.
    pub fn attach_argument(&self, library: &str) -> Result<String, ForkOptionsError> {
        if library.contains(['=', '\0']) {
            return Err(ForkOptionsError::Unwritable("library", library.to_string()));
        }
        Ok(format!("{library}={}", self.to_text()?))
    }

    /// Reads `out=…,mode=…,timeout=…,lib=…,sdk=…` (`out` required, each key at most once; the
    /// others default to `mode=triage,timeout=120,lib=libart.so`).
    pub fn parse(s: &str) -> Result<ForkOptions, ForkOptionsError> {
        let mut o = ForkOptions::default();
        let mut seen: Vec<&str> = Vec::new();
        for part in s.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| ForkOptionsError::NotKeyValue(part.to_string()))?;
            if seen.contains(&k) {
                return Err(ForkOptionsError::Unknown(k.to_string()));
            }
            seen.push(k);
            let bad = |key| ForkOptionsError::BadValue(key, v.to_string());
            match k {
                "out" => o.out = v.to_string(),
                "mode" => o.mode = Mode::parse(v).ok_or_else(|| bad("mode"))?,
                "timeout" => o.timeout_s = v.parse().map_err(|_| bad("timeout"))?,
                "lib" => o.lib = v.to_string(),
                "sdk" => o.sdk = Some(v.parse().map_err(|_| bad("sdk"))?),
                _ => return Err(ForkOptionsError::Unknown(k.to_string())),
            }
        }
        if o.out.is_empty() {
            return Err(ForkOptionsError::NoOut);
        }
        Ok(o)
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
    /// Why the dump holds no Bitmap pixels, when they were asked for and could not be had (or
    /// were not asked for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_pixels: Option<String>,
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
    /// How the child ended when that was not well, though its dump is whole (a child that hung
    /// after writing every byte, and was killed; one the app reaped).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
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
                    no_pixels: Some("this phone's `am dumpheap` has no -b".into()),
                },
            },
            Line::Error { message: "process 42: gone".into() },
        ]
    }

    fn request() -> impl proptest::strategy::Strategy<Value = Request> {
        use proptest::prelude::*;
        let method = prop_oneof![Just(None), Just(Some(Method::Attach)), Just(Some(Method::Am))];
        let mode = proptest::sample::select(Mode::ALL.to_vec());
        prop_oneof![
            Just(Request::Version),
            Just(Request::Ps),
            any::<u32>().prop_map(|pid| Request::Groups { pid }),
            (any::<u32>(), any::<u64>(), any::<Option<u64>>(), any::<Option<String>>())
                .prop_map(|(pid, interval_ms, count, trigger)| Request::Sample { pid, interval_ms, count, trigger }),
            (any::<u32>(), method, mode, any::<bool>(), any::<bool>(), any::<String>()).prop_map(
                |(pid, method, mode, live, bitmaps, out)| {
                    Request::Dump { spec: DumpSpec { pid, method, mode, live, bitmaps }, out }
                }
            ),
        ]
    }

    proptest::proptest! {
        /// Whatever the host asks, the agent reads back, whatever the words hold (a path or a
        /// trigger that looks like a flag too).
        #[test]
        fn requests_round_trip(r in request()) {
            proptest::prop_assert_eq!(Request::parse(&r.args()), Ok(r));
        }

        /// Fork options round-trip when their values can be written, and are refused when not.
        #[test]
        fn fork_options_round_trip(
            out in ".+", lib in ".*", timeout_s: u64, sdk: Option<u32>,
            mode in proptest::sample::select(Mode::ALL.to_vec()),
        ) {
            let o = ForkOptions { out, mode, timeout_s, lib, sdk };
            match o.to_text() {
                Ok(text) => proptest::prop_assert_eq!(ForkOptions::parse(&text), Ok(o)),
                Err(_) => proptest::prop_assert!(o.out.contains([',', '\0']) || o.lib.contains([',', '\0'])),
            }
        }
    }

    #[test]
    fn command_lines_that_are_not_requests() {
        let bad: &[&[&str]] = &[
            &[],
            &["shell"],
            &["ps", "--pid", "1"],
            &["groups"],
            &["groups", "--pid"],
            &["groups", "--pid", "x"],
            &["groups", "--pid", "1", "--pid", "2"],
            &["dump", "--pid", "1"],
            &["dump", "--pid", "1", "--out", "f", "--method", "fork"],
            &["dump", "--pid", "1", "--out", "f", "--mode", "matrix"],
            &["sample", "--pid", "1", "--count", "-1"],
            &["sample", "--pid", "1", "--colour", "blue"],
        ];
        for args in bad {
            assert!(Request::parse(args).is_err(), "{args:?}");
        }
    }

    #[test]
    fn fork_options_that_do_not_parse_or_write() {
        for text in [
            "mode=triage",
            "out=x,sdk=fifteen",
            "out=x,mode=matrix",
            "out=x,colour=blue",
            "out=x,timeout=soon",
            "out=x,out=y",
            "out",
        ] {
            assert!(ForkOptions::parse(text).is_err(), "{text}");
        }
        let o = ForkOptions::parse("out=/data/local/tmp/a.hprof,mode=koom,timeout=30").unwrap();
        assert_eq!((o.mode, o.timeout_s, o.lib.as_str(), o.sdk), (Mode::Koom, 30, "libart.so", None));
        assert_eq!(ForkOptions::parse("out=x,mode=none").unwrap().mode, Mode::None);
        // A phone's data directory with a comma would otherwise add `lib=` of its choosing.
        let planted = ForkOptions { out: "/data/x,lib=/data/local/tmp/evil.so/a.hprof".into(), ..Default::default() };
        assert!(planted.to_text().is_err());
        let o = ForkOptions { out: "/data/a.hprof".into(), ..Default::default() };
        assert!(o.attach_argument("/data/a=b/lib.so").is_err());
        assert_eq!(
            o.attach_argument("/data/code_cache/lib.so").unwrap(),
            "/data/code_cache/lib.so=out=/data/a.hprof,mode=triage,timeout=120,lib=libart.so"
        );
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
                ended: None,
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
