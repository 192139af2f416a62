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
//!
//! The command line is `agent::protocol::Request`, which the host writes. Exit status: 0 done, 1
//! the process could not be read or dumped (an `error` line says why), 2 a command line that is
//! not a request. The host reads the lines, not the status.

use std::io::Write;
use std::process::ExitCode;

use agent::protocol::{DumpSpec, Envelope, Line, Method, Request};

const USAGE: &str = "usage: heaptui-agent version | ps | groups --pid PID | sample --pid PID [--interval-ms MS] [--count N] [--trigger SPEC] | dump --pid PID --out FILE [--method auto|attach|am] [--mode triage|koom|redact|none] [--all]";

/// Writes `lines`, each on its own line, in one write (a reader never sees half a run of them),
/// and flushes. False when the reader has gone.
fn send(out: &mut dyn Write, lines: &[Envelope]) -> bool {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_ok()
}

fn usage(why: &str) -> ExitCode {
    eprintln!("heaptui-agent: {why}\n{USAGE}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let request = match Request::parse(&args) {
        Ok(r) => r,
        Err(e) => return usage(&e.to_string()),
    };
    let mut out = std::io::stdout().lock();
    let hello = Envelope::hello();
    match request {
        Request::Version => {
            send(&mut out, &[hello]);
            ExitCode::SUCCESS
        }
        Request::Ps => {
            let mut lines = vec![hello];
            lines.extend(agent::proc::list().into_iter().map(|process| Envelope::new(Line::Process { process })));
            send(&mut out, &lines);
            ExitCode::SUCCESS
        }
        Request::Groups { pid } => {
            let line = match agent::proc::groups(pid) {
                Ok(groups) => Line::Groups { pid, groups },
                Err(e) => Line::Error { message: format!("process {pid}: {e}") },
            };
            send(&mut out, &[hello, Envelope::new(line)]);
            ExitCode::SUCCESS
        }
        Request::Dump { spec, out: path } => dump(spec, &path, hello, &mut out),
        Request::Sample { pid, interval_ms, count, trigger } => {
            sample(pid, interval_ms, count, trigger.as_deref(), hello, &mut out)
        }
    }
}

/// `sample`: a sample of the process every interval, and what fires on it, until the process
/// ends (an `error` line, exit 1), `count` samples are taken, or the reader goes.
fn sample(
    pid: u32,
    interval_ms: u64,
    count: Option<u64>,
    trigger: Option<&str>,
    hello: Envelope,
    out: &mut dyn Write,
) -> ExitCode {
    let config = match trigger.map(|s| agent::trigger::parse(s, agent::trigger::Config::default())) {
        None => agent::trigger::Config::default(),
        Some(Ok(c)) => c,
        Some(Err(e)) => return usage(&format!("--trigger: {e}")),
    };
    let mut triggers = agent::trigger::Triggers::new(config);
    let interval = std::time::Duration::from_millis(interval_ms);
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

/// `dump`: the dumper the process offers (or the one asked for), stripped on the device.
fn dump(spec: DumpSpec, path: &str, hello: Envelope, out: &mut dyn Write) -> ExitCode {
    let DumpSpec { pid, method, mode, live, bitmaps } = spec;
    let method = method.unwrap_or_else(|| Method::for_process(pid));
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
        let (line, code) = report(agent::dump::dump_into(pid, method, mode, live, bitmaps, &dir, out));
        send(&mut err, &[line]);
        return code;
    }
    let (line, code) = report(agent::dump::dump(pid, method, mode, live, bitmaps, std::path::Path::new(path)));
    send(out, &[hello, line]);
    code
}
