//! `heaptui-agent`: what heaptui runs on a phone (and that works the same on any Linux). It speaks
//! versioned JSON lines on its stdout; every run begins with a hello line naming the protocol and
//! the agent's version, so the host can refuse an agent it does not understand:
//!
//! ```text
//! heaptui-agent version                       # {"v":1,"type":"hello","protocol":1,"agent":"0.1.0"}
//! heaptui-agent ps                            # hello, then {"v":1,"type":"process","process":{…}} lines
//! heaptui-agent groups --pid PID              # hello, then {"v":1,"type":"groups","groups":{"fds":…,"threads":…}}
//! heaptui-agent dump --pid PID --out FILE [--method auto|attach|am] [--mode triage|koom|redact|none] [--all]
//!                                             # hello, then {"v":1,"type":"dumped","dumped":{…}}
//!                                             # (--out -: the dump on stdout, the lines on stderr)
//! heaptui-agent sample --pid PID [--interval-ms 1000] [--count N] [--trigger SPEC]
//! ```
//!
//! Each sample is a `{"v":1,"type":"sample","sample":{…}}` line; each trigger that fires on it
//! follows as `{"v":1,"type":"trigger","event":{…}}` (thresholds: `--trigger`, as `heaptui monitor`
//! takes them). Readers ignore fields they do not know.

use std::io::Write;
use std::process::ExitCode;

use agent::PROTOCOL;

const USAGE: &str =
    "usage: heaptui-agent version | ps | sample --pid PID [--interval-ms MS] [--count N] [--trigger SPEC]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let hello = serde_json::json!({"v": PROTOCOL, "type": "hello", "protocol": PROTOCOL, "agent": agent::VERSION});
    let mut out = std::io::stdout().lock();
    match args.first().map(String::as_str) {
        Some("version") => {
            let _ = writeln!(out, "{hello}");
            return ExitCode::SUCCESS;
        }
        Some("ps") => {
            let mut text = format!("{hello}\n");
            for p in agent::proc::list() {
                text.push_str(&format!("{}\n", serde_json::json!({"v": PROTOCOL, "type": "process", "process": p})));
            }
            let _ = out.write_all(text.as_bytes());
            return ExitCode::SUCCESS;
        }
        Some("groups") => {
            let pid = args.iter().position(|a| a == "--pid").and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok());
            let Some(pid) = pid else {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            };
            let line = match agent::proc::groups(pid) {
                Ok(g) => serde_json::json!({"v": PROTOCOL, "type": "groups", "pid": pid, "groups": g}),
                Err(e) => serde_json::json!({"v": PROTOCOL, "type": "error", "message": format!("process {pid}: {e}")}),
            };
            let _ = write!(out, "{hello}\n{line}\n");
            return ExitCode::SUCCESS;
        }
        Some("dump") => return dump(&args, &hello, &mut out),
        Some("sample") => {}
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    }
    let get = |flag: &str| {
        args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).and_then(|v| v.parse::<u64>().ok())
    };
    let Some(pid) = get("--pid").and_then(|p| u32::try_from(p).ok()) else {
        eprintln!("heaptui-agent: --pid PID is required");
        return ExitCode::from(2);
    };
    let spec = args.iter().position(|a| a == "--trigger").and_then(|i| args.get(i + 1));
    let config = match spec.map(|s| agent::trigger::parse(s, agent::trigger::Config::default())) {
        None => agent::trigger::Config::default(),
        Some(Ok(c)) => c,
        Some(Err(e)) => {
            eprintln!("heaptui-agent: --trigger: {e}");
            return ExitCode::from(2);
        }
    };
    let mut triggers = agent::trigger::Triggers::new(config);
    let interval = std::time::Duration::from_millis(get("--interval-ms").unwrap_or(1000));
    let count = get("--count");
    if writeln!(out, "{hello}").and_then(|_| out.flush()).is_err() {
        return ExitCode::SUCCESS;
    }
    let mut n = 0u64;
    let mut sampler = agent::sample::Sampler::new(pid);
    loop {
        let (line, events) = match sampler.take() {
            Ok(s) => {
                let events = triggers.feed(&s);
                (serde_json::json!({"v": PROTOCOL, "type": "sample", "sample": s}), events)
            }
            Err(e) => {
                let line =
                    serde_json::json!({"v": PROTOCOL, "type": "error", "message": format!("process {pid}: {e}")});
                let _ = writeln!(out, "{line}");
                return ExitCode::from(1);
            }
        };
        let mut text = format!("{line}\n");
        for e in &events {
            text.push_str(&format!("{}\n", serde_json::json!({"v": PROTOCOL, "type": "trigger", "event": e})));
        }
        if out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_err() {
            return ExitCode::SUCCESS;
        }
        n += 1;
        if count.is_some_and(|c| n >= c) {
            return ExitCode::SUCCESS;
        }
        std::thread::sleep(interval);
    }
}

/// `dump`: the dumper the process offers (or `--method`'s), stripped on the device.
fn dump(args: &[String], hello: &serde_json::Value, out: &mut impl Write) -> ExitCode {
    let get = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).map(String::as_str);
    let (Some(pid), Some(path)) = (get("--pid").and_then(|p| p.parse::<u32>().ok()), get("--out")) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let method = match get("--method").unwrap_or("auto") {
        "auto" => agent::dump::Method::for_process(pid),
        m => match agent::dump::Method::parse(m) {
            Some(m) => m,
            None => {
                eprintln!("heaptui-agent: --method is auto, attach or am");
                return ExitCode::from(2);
            }
        },
    };
    let mode = match get("--mode").unwrap_or("triage") {
        "none" => None,
        m => match heap::strip::Mode::parse(m).filter(|m| *m != heap::strip::Mode::Matrix) {
            Some(m) => Some(m),
            None => {
                eprintln!("heaptui-agent: --mode is triage, koom, redact or none (matrix needs the whole dump: the host runs it)");
                return ExitCode::from(2);
            }
        },
    };
    let live = !args.iter().any(|a| a == "--all");
    if path == "-" {
        // Streamed: the dump on stdout, the JSON lines on stderr (shell v2 keeps them apart).
        let dir = std::env::var_os("TMPDIR").map(std::path::PathBuf::from).unwrap_or_else(|| "/data/local/tmp".into());
        let dir = if dir.is_dir() { dir } else { std::env::temp_dir() };
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{hello}");
        let r = agent::dump::dump_into(pid, method, mode, live, &dir, out);
        let (line, code) = match r {
            Ok(d) => (serde_json::json!({"v": PROTOCOL, "type": "dumped", "dumped": d}), ExitCode::SUCCESS),
            Err(e) => (serde_json::json!({"v": PROTOCOL, "type": "error", "message": e}), ExitCode::from(1)),
        };
        let _ = writeln!(err, "{line}");
        return code;
    }
    let (line, code) = match agent::dump::dump(pid, method, mode, live, std::path::Path::new(path)) {
        Ok(d) => (serde_json::json!({"v": PROTOCOL, "type": "dumped", "dumped": d}), ExitCode::SUCCESS),
        Err(e) => (serde_json::json!({"v": PROTOCOL, "type": "error", "message": e}), ExitCode::from(1)),
    };
    let _ = write!(out, "{hello}\n{line}\n");
    code
}
