//! The wire format does not change: `tests/data/protocol-1.jsonl` holds lines the agent wrote
//! before its lines were typed (built from the commit before `agent::protocol`, run on this
//! machine: `version`, `ps`, `groups` of a live and a missing process, `sample` of a JVM with
//! a trigger that fired, `dump` of that JVM, and a dump and a sample of a missing process).
//! Each must read as the line it is, and write back as the same JSON.

use agent::protocol::{Envelope, Line, Method, Mode, PROTOCOL};
use agent::trigger::{Kind, Unit};

fn lines() -> Vec<(serde_json::Value, Envelope)> {
    let text = include_str!("data/protocol-1.jsonl");
    text.lines()
        .map(|l| {
            let value: serde_json::Value = serde_json::from_str(l).unwrap();
            let envelope = Envelope::parse(l.as_bytes()).unwrap_or_else(|| panic!("does not read: {l}"));
            (value, envelope)
        })
        .collect()
}

#[test]
fn lines_of_the_untyped_agent_read_and_write_back_the_same() {
    let all = lines();
    assert_eq!(all.len(), 12);
    for (value, envelope) in &all {
        assert_eq!(envelope.v, PROTOCOL);
        let again: serde_json::Value = serde_json::from_str(&envelope.to_string()).unwrap();
        assert_eq!(&again, value);
    }
}

#[test]
fn each_line_is_what_its_type_says() {
    let all: Vec<Line> = lines().into_iter().map(|(_, e)| e.line).collect();
    let types: Vec<&str> = all
        .iter()
        .map(|l| match l {
            Line::Hello { .. } => "hello",
            Line::Process { .. } => "process",
            Line::Groups { .. } => "groups",
            Line::Sample { .. } => "sample",
            Line::Trigger { .. } => "trigger",
            Line::Dumped { .. } => "dumped",
            Line::Error { .. } => "error",
        })
        .collect();
    assert_eq!(
        types,
        [
            "hello", "hello", "process", "hello", "groups", "error", "sample", "sample", "dumped", "error", "error",
            "trigger"
        ]
    );
    let Line::Hello { protocol, agent } = &all[0] else { unreachable!() };
    assert_eq!((*protocol, agent.as_str()), (1, "0.1.0"));
    let Line::Sample { sample } = &all[6] else { unreachable!() };
    assert_eq!(sample.java_heap.map(|h| h.max), Some(32 << 20));
    let Line::Dumped { dumped } = &all[8] else { unreachable!() };
    assert_eq!((dumped.method, dumped.mode), (Method::Attach, Mode::Triage));
    assert!(dumped.message.contains("Heap dump file created"), "{}", dumped.message);
    assert_eq!(dumped.sha256.len(), 64);
    let Line::Trigger { event } = &all[11] else { unreachable!() };
    assert_eq!((event.kind, event.unit, event.threshold), (Kind::Heap, Unit::Bytes, 335_544));
    let Line::Error { message } = &all[9] else { unreachable!() };
    assert!(message.starts_with("attach to 999999999"), "{message}");
}

/// The command lines hosts wrote before requests were typed, as `341578e`'s `bridge::agent`
/// and `DumpSpec::args` formatted them (their format strings, kept here as they were), split
/// into words as the phone's shell splits them.
mod old_host {
    use agent::protocol::{DumpSpec, Method};

    pub fn version() -> String {
        "version".to_string()
    }

    pub fn ps() -> String {
        "ps".to_string()
    }

    pub fn groups(pid: u32) -> String {
        format!("groups --pid {pid}")
    }

    pub fn sample(pid: u32, interval_ms: u64, count: Option<u64>) -> String {
        let mut cmd = format!("sample --pid {pid} --interval-ms {interval_ms}");
        if let Some(c) = count {
            cmd.push_str(&format!(" --count {c}"));
        }
        cmd
    }

    pub fn dump(spec: &DumpSpec, out: &str) -> String {
        let mut v = vec![
            "--pid".to_string(),
            spec.pid.to_string(),
            "--method".to_string(),
            spec.method.map_or("auto", Method::name).to_string(),
            "--mode".to_string(),
            spec.mode.name().to_string(),
        ];
        if !spec.live {
            v.push("--all".to_string());
        }
        format!("dump {} --out {out}", v.join(" "))
    }

    /// The fork library's options as `tui/src/session/dump/remote.rs` wrote them.
    pub fn fork_options(out: &str, mode: &str, art: &str, sdk: Option<u32>) -> String {
        let sdk = sdk.map_or(String::new(), |s| format!(",sdk={s}"));
        format!("out={out},mode={mode},timeout=120,lib={art}{sdk}")
    }
}

/// Every command line an older host wrote reads as the request it meant, and today's host
/// writes the same words for it.
#[test]
fn command_lines_of_the_untyped_host_read_as_their_requests() {
    use agent::protocol::{DumpSpec, Request};
    let dump = |method, mode, live| DumpSpec { pid: 4242, method, mode, live, bitmaps: false };
    let out = "/data/local/tmp/heaptui-20261128T101500Z-77.hprof";
    let mut cases = vec![
        (old_host::version(), Request::Version),
        (old_host::ps(), Request::Ps),
        (old_host::groups(7), Request::Groups { pid: 7 }),
        (old_host::sample(42, 1000, None), Request::Sample { pid: 42, interval_ms: 1000, count: None, trigger: None }),
        (
            old_host::sample(42, 250, Some(3)),
            Request::Sample { pid: 42, interval_ms: 250, count: Some(3), trigger: None },
        ),
    ];
    for method in [None, Some(Method::Attach), Some(Method::Am)] {
        for mode in Mode::ALL {
            for live in [true, false] {
                let spec = dump(method, mode, live);
                cases.push((old_host::dump(&spec, out), Request::Dump { spec, out: out.into() }));
                cases.push((old_host::dump(&spec, "-"), Request::Dump { spec, out: "-".into() }));
            }
        }
    }
    for (line, request) in cases {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(Request::parse(&words), Ok(request.clone()), "{line}");
        assert_eq!(request.args().join(" "), line);
    }
}

/// The options an older host gave the fork library read as what they said, and are written
/// the same way today.
#[test]
fn fork_options_of_the_untyped_host_read_the_same() {
    use agent::protocol::ForkOptions;
    let out = "/data/user/0/com.example.app/cache/heaptui-20261128T101500Z-77.hprof";
    for (mode, sdk) in [(Mode::Triage, Some(34)), (Mode::Koom, None), (Mode::Redact, Some(26)), (Mode::None, Some(35))]
    {
        let text = old_host::fork_options(out, mode.name(), "libart.so", sdk);
        let parsed = ForkOptions::parse(&text).unwrap();
        assert_eq!(parsed, ForkOptions { out: out.into(), mode, timeout_s: 120, lib: "libart.so".into(), sdk });
        assert_eq!(parsed.to_text().unwrap(), text);
    }
}
