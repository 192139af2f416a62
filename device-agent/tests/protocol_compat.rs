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
