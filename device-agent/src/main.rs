//! `heaptui-agent`: what heaptui runs on a phone (and that works the same on any Linux). It speaks
//! the versioned JSON lines of `agent::protocol` on its stdout; every run begins with a hello
//! line naming the protocol and the agent's version, so the host can refuse an agent it does not
//! understand:
//!
//! ```text
//! heaptui-agent version                       # hello
//! heaptui-agent ps                            # hello, then a `process` line each
//! heaptui-agent groups --pid PID              # hello, then `groups` (or `error`)
//! heaptui-agent dump --pid PID --out FILE [--method auto|attach|am] [--mode triage|koom|redact|none] [--all]
//!                                             # hello, then `dumped` (or `error`)
//!                                             # (--out -: the dump on stdout, the lines on stderr)
//! heaptui-agent sample --pid PID [--interval-ms 1000] [--count N] [--trigger SPEC]
//!                                             # hello, then a `sample` line each, each followed by
//!                                             # the `trigger` lines it fired (`--trigger`'s thresholds)
//! ```

use std::io::Write;
use std::process::ExitCode;

use agent::protocol::{Envelope, Line, Method, Mode};

const USAGE: &str =
    "usage: heaptui-agent version | ps | sample --pid PID [--interval-ms MS] [--count N] [--trigger SPEC]";

/// The command line: the subcommand, then `--flag value` pairs and bare flags.
struct Args(Vec<String>);

impl Args {
    fn value(&self, flag: &str) -> Option<&str> {
        self.0.iter().position(|a| a == flag).and_then(|i| self.0.get(i + 1)).map(String::as_str)
    }

    fn number<T: std::str::FromStr>(&self, flag: &str) -> Option<T> {
        self.value(flag).and_then(|v| v.parse().ok())
    }

    fn has(&self, flag: &str) -> bool {
        self.0.iter().any(|a| a == flag)
    }
}

/// Writes `lines`, each on its own line, in one write (a reader never sees half a run of them),
/// and flushes. False when the reader has gone.
fn send(out: &mut dyn Write, lines: &[Envelope]) -> bool {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_ok()
}

fn usage(why: &str) -> ExitCode {
    eprintln!("{why}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args = Args(std::env::args().skip(1).collect());
    let mut out = std::io::stdout().lock();
    let hello = Envelope::hello();
    match args.0.first().map(String::as_str) {
        Some("version") => {
            send(&mut out, &[hello]);
            ExitCode::SUCCESS
        }
        Some("ps") => {
            let mut lines = vec![hello];
            lines.extend(agent::proc::list().into_iter().map(|process| Envelope::new(Line::Process { process })));
            send(&mut out, &lines);
            ExitCode::SUCCESS
        }
        Some("groups") => {
            let Some(pid) = args.number::<u32>("--pid") else { return usage(USAGE) };
            let line = match agent::proc::groups(pid) {
                Ok(groups) => Line::Groups { pid, groups },
                Err(e) => Line::Error { message: format!("process {pid}: {e}") },
            };
            send(&mut out, &[hello, Envelope::new(line)]);
            ExitCode::SUCCESS
        }
        Some("dump") => dump(&args, hello, &mut out),
        Some("sample") => sample(&args, hello, &mut out),
        _ => usage(USAGE),
    }
}

/// `sample`: a sample of the process every interval, and what fires on it, until the process
/// ends (an `error` line, exit 1), `--count` samples are taken, or the reader goes.
fn sample(args: &Args, hello: Envelope, out: &mut dyn Write) -> ExitCode {
    let Some(pid) = args.number::<u32>("--pid") else { return usage("heaptui-agent: --pid PID is required") };
    let config = match args.value("--trigger").map(|s| agent::trigger::parse(s, agent::trigger::Config::default())) {
        None => agent::trigger::Config::default(),
        Some(Ok(c)) => c,
        Some(Err(e)) => return usage(&format!("heaptui-agent: --trigger: {e}")),
    };
    let mut triggers = agent::trigger::Triggers::new(config);
    let interval = std::time::Duration::from_millis(args.number("--interval-ms").unwrap_or(1000));
    let count: Option<u64> = args.number("--count");
    if !send(out, &[hello]) {
        return ExitCode::SUCCESS;
    }
    let mut sampler = agent::sample::Sampler::new(pid);
    for n in 1u64.. {
        let sample = match sampler.take() {
            Ok(s) => s,
            Err(e) => {
                send(out, &[Envelope::new(Line::Error { message: format!("process {pid}: {e}") })]);
                return ExitCode::from(1);
            }
        };
        let events = triggers.feed(&sample);
        let mut lines = vec![Envelope::new(Line::Sample { sample })];
        lines.extend(events.into_iter().map(|event| Envelope::new(Line::Trigger { event })));
        if !send(out, &lines) || count.is_some_and(|c| n >= c) {
            return ExitCode::SUCCESS;
        }
        std::thread::sleep(interval);
    }
    ExitCode::SUCCESS
}

/// `dump`: the dumper the process offers (or `--method`'s), stripped on the device.
fn dump(args: &Args, hello: Envelope, out: &mut dyn Write) -> ExitCode {
    let (Some(pid), Some(path)) = (args.number::<u32>("--pid"), args.value("--out")) else { return usage(USAGE) };
    let method = match args.value("--method").unwrap_or("auto") {
        "auto" => Method::for_process(pid),
        m => match Method::parse(m).filter(|m| !matches!(m, Method::Fork | Method::Perfetto)) {
            Some(m) => m,
            None => return usage("heaptui-agent: --method is auto, attach or am"),
        },
    };
    let Some(mode) = Mode::parse(args.value("--mode").unwrap_or("triage")) else {
        return usage(
            "heaptui-agent: --mode is triage, koom, redact or none (matrix needs the whole dump: the host runs it)",
        );
    };
    let live = !args.has("--all");
    let report = |r: Result<agent::protocol::Dumped, agent::dump::DumpError>| match r {
        Ok(dumped) => (Envelope::new(Line::Dumped { dumped }), ExitCode::SUCCESS),
        Err(e) => (Envelope::new(Line::Error { message: e.to_string() }), ExitCode::from(1)),
    };
    if path == "-" {
        // Streamed: the dump on stdout, the lines on stderr (shell v2 keeps them apart).
        let dir = std::env::var_os("TMPDIR").map(std::path::PathBuf::from).unwrap_or_else(|| "/data/local/tmp".into());
        let dir = if dir.is_dir() { dir } else { std::env::temp_dir() };
        let mut err = std::io::stderr().lock();
        send(&mut err, &[hello]);
        let (line, code) = report(agent::dump::dump_into(pid, method, mode, live, &dir, out));
        send(&mut err, &[line]);
        return code;
    }
    let (line, code) = report(agent::dump::dump(pid, method, mode, live, std::path::Path::new(path)));
    send(out, &[hello, line]);
    code
}
