//! Perfetto's heap-graph test traces (`heap/tests/data/perfetto/`, see its README), encoded from
//! their textprotos with `protoc` as the tests need them.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The directory of the vendored traces, expected tables and schema subset.
pub fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../heap/tests/data/perfetto")
}

/// The trace `name.textproto` encodes to.
pub fn encode(name: &str) -> Vec<u8> {
    let text = std::fs::read(data().join(format!("{name}.textproto"))).expect("a vendored textproto");
    let mut child = Command::new("protoc")
        .current_dir(data())
        .args(["-I.", "--encode=perfetto.protos.Trace", "art_heap_graph.proto", "heap_graph_trace.proto"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("protoc (Debian protobuf-compiler; ./run-tests installs it)");
    let written = child.stdin.take().map(|mut stdin| std::io::Write::write_all(&mut stdin, &text));
    let out = child.wait_with_output().expect("protoc's output");
    assert!(
        matches!(written, Some(Ok(()))) && out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
