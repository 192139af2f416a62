//! Sampling a real JVM (OpenJDK, the demo program) started with `-Xmx64m`.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

mod common;

/// Runs the agent with `args`.
fn agent(args: &[&str]) -> std::process::Output {
    common::agent(args).output().unwrap()
}

/// The demo's LeakyCache with `sessions` sessions, compiled into `dir`, run under `-Xmx64m` and
/// collector `gc` in directory `cwd` for up to 60 s; returned once it says it is ready.
fn leaky_cache(dir: &Path, gc: &str, sessions: &str, cwd: &Path) -> std::process::Child {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/LeakyCache.java");
    assert!(Command::new("javac").arg("-d").arg(dir).arg(&src).status().unwrap().success());
    let mut jvm = Command::new("java")
        .args(["-Xmx64m", gc, "-cp"])
        .arg(dir)
        .args(["LeakyCache", sessions, "60"])
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // A JVM killed earlier with this pid left its attach socket; this one makes its own.
    let _ = std::fs::remove_file(format!("/tmp/.java_pid{}", jvm.id()));
    let mut line = String::new();
    BufReader::new(jvm.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.starts_with("ready "), "{line}");
    jvm
}

fn sample_jvm(gc: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let mut jvm = leaky_cache(dir.path(), gc, "2000", dir.path());
    let pid = jvm.id();

    // A JVM that has just started publishes its eden's use only once its sampler has run (0
    // before: seen for the first 300 ms on a quick machine), so the last of 8 samples is read.
    let out = agent(&["sample", "--pid", &pid.to_string(), "--interval-ms", "100", "--count", "8"]);
    let _ = jvm.kill();
    let _ = jvm.wait();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // The hello line, then the samples.
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[0]["type"], "hello");
    assert_eq!(lines[0]["protocol"], 1);
    assert_eq!(lines[8]["v"], 1);
    let s = lines[8]["sample"].clone();
    assert_eq!(s["pid"], pid);
    s
}

/// Both heap layouts: Serial splits young and old, G1 reports the whole heap per generation.
#[test]
fn samples_a_running_jvm() {
    for gc in ["-XX:+UseSerialGC", "-XX:+UseG1GC"] {
        check(&sample_jvm(gc), gc);
    }
}

fn check(s: &serde_json::Value, gc: &str) {
    assert_eq!(s["name"], "java", "{gc}");
    // A JVM runs more than ten threads (GC, compiler, signal, finalizer, reference handler...).
    assert!(s["threads"].as_u64().unwrap() > 10, "{s}");
    assert!(s["rss_kb"].as_u64().unwrap() > 10_000, "{s}");
    assert!(s["fds"].as_u64().unwrap() >= 3, "{s}");
    // -Xmx64m: the old generation's maximum is 64 MiB; the 2000 sessions' buffers (2.5-4.5 KiB
    // each) are in the heap, so at least 5 MB are used.
    let heap = &s["java_heap"];
    let max = heap["max"].as_u64().unwrap();
    assert!((64 << 20..65 << 20).contains(&max), "{gc}: {heap}");
    let used = heap["used"].as_u64().unwrap();
    assert!(used >= 5_000_000 && used <= max, "{gc}: {heap}");
}

#[test]
fn a_missing_process_is_an_error_line() {
    let out = agent(&["sample", "--pid", "999999999", "--count", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(v["type"], "error");
}

/// Triggers decided on the device: a thread line below the JVM's thread count fires on the first
/// sample, once, with the count and the line.
#[test]
fn trigger_events_follow_their_sample() {
    let out = agent(&[
        "sample",
        "--pid",
        &std::process::id().to_string(),
        "--interval-ms",
        "10",
        "--count",
        "3",
        "--trigger",
        "threads=1,heap=off",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let kinds: Vec<&str> = lines.iter().map(|l| l["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["hello", "sample", "trigger", "sample", "sample"]);
    let e = &lines[2]["event"];
    assert_eq!((e["kind"].as_str(), e["threshold"].as_u64()), (Some("threads"), Some(1)));
    assert_eq!(e["value"], lines[1]["sample"]["threads"]);
    let bad = agent(&["sample", "--pid", "1", "--trigger", "bogus=1"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// A link planted where the attach trigger file goes (`.attach_pid<pid>` in the JVM's working
/// directory) is not followed: its target keeps its bytes, the dump still happens (the trigger
/// goes to the JVM's `/tmp` instead), and the link is left as it was.
#[test]
fn a_planted_trigger_link_is_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().join("cwd");
    std::fs::create_dir(&cwd).unwrap();
    let mut jvm = leaky_cache(dir.path(), "-XX:+UseSerialGC", "200", &cwd);
    let pid = jvm.id();
    let victim = dir.path().join("precious.txt");
    std::fs::write(&victim, b"precious").unwrap();
    let link = cwd.join(format!(".attach_pid{pid}"));
    std::os::unix::fs::symlink(&victim, &link).unwrap();

    let out_file = dir.path().join("out.hprof");
    let out = agent(&["dump", "--pid", &pid.to_string(), "--out", out_file.to_str().unwrap(), "--mode", "none"]);
    let _ = jvm.kill();
    let _ = jvm.wait();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(std::fs::read(&out_file).unwrap().starts_with(b"JAVA PROFILE 1.0.2"));
    assert!(!Path::new(&format!("/tmp/.attach_pid{pid}")).exists());
}

/// A socket planted at a process's attach name (`/tmp/.java_pid<pid>`) is never spoken to: not
/// for a process that is not a JVM (the libjvm check comes first), and not for a JVM while the
/// socket is another user's (the JVM's own replaces it, and that one is used).
#[test]
fn a_planted_attach_socket_is_not_spoken_to() {
    use std::os::unix::net::UnixListener;
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("out.hprof");
    let out_arg = out_file.to_str().unwrap();

    let mut sleep = Command::new("sleep").arg("30").spawn().unwrap();
    let path = format!("/tmp/.java_pid{}", sleep.id());
    // A JVM killed earlier (by this suite or anything else) leaves its socket behind, and pids
    // come round again.
    let _ = std::fs::remove_file(&path);
    let planted = UnixListener::bind(&path).unwrap();
    planted.set_nonblocking(true).unwrap();
    let out = agent(&["dump", "--pid", &sleep.id().to_string(), "--out", out_arg, "--method", "attach"]);
    let _ = sleep.kill();
    let _ = sleep.wait();
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(said.contains("is not a HotSpot JVM"), "{said}");
    assert!(planted.accept().is_err(), "the planted socket was connected to");
    let _ = std::fs::remove_file(&path);

    let mut jvm = leaky_cache(dir.path(), "-XX:+UseSerialGC", "200", dir.path());
    let path = format!("/tmp/.java_pid{}", jvm.id());
    let _ = std::fs::remove_file(&path);
    let planted = UnixListener::bind(&path).unwrap();
    planted.set_nonblocking(true).unwrap();
    std::os::unix::fs::chown(&path, Some(12345), Some(12345)).unwrap();
    let out = agent(&["dump", "--pid", &jvm.id().to_string(), "--out", out_arg, "--mode", "none"]);
    let _ = jvm.kill();
    let _ = jvm.wait();
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(planted.accept().is_err(), "the planted socket was connected to");
    assert!(std::fs::read(&out_file).unwrap().starts_with(b"JAVA PROFILE 1.0.2"));
}
