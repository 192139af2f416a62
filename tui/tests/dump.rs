//! `heaptui dump --local` on a real JVM (OpenJDK, the demo's LeakyCache holding 2000 sessions):
//! HotSpot's attach protocol spoken by heaptui, the dump stored under its name only when whole,
//! never over an existing file, optionally stripped, with a sidecar.

use std::path::Path;
use std::process::Command;

use test_support::Jvm;

/// The demo's LeakyCache holding 2000 sessions, on a 64 MiB heap.
fn leaky_jvm(classes: &Path) -> Jvm {
    let jvm = Jvm::start("demo/LeakyCache.java", classes, "LeakyCache", &["2000", "120"], 64);
    assert!(jvm.first_line.starts_with("ready "), "{}", jvm.first_line);
    jvm
}

fn heaptui(args: &[&str], xdg: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_heaptui")).args(args).env("XDG_DATA_HOME", xdg).output().unwrap()
}

/// Instances of LeakyCache$Session in the dump at `path`, by `heaptui analyze --format json`.
fn sessions(path: &Path, xdg: &Path) -> u64 {
    let out = heaptui(&["analyze", path.to_str().unwrap(), "--format", "json", "--top", "100"], xdg);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["histogram"].as_array().unwrap();
    rows.iter().find(|r| r["class"] == "LeakyCache$Session").map_or(0, |r| r["instances"].as_u64().unwrap())
}

#[test]
fn dumps_a_local_jvm_without_overwriting() {
    let dir = tempfile::tempdir().unwrap();
    let jvm = leaky_jvm(dir.path());
    let pid = jvm.pid().to_string();
    let out_path = dir.path().join("leaky.hprof");
    let out = heaptui(&["dump", "--local", &pid, "-o", out_path.to_str().unwrap()], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), out_path.to_str().unwrap());
    // The program keeps its 2000 sessions in a static map: all live, all in the dump.
    assert_eq!(sessions(&out_path, dir.path()), 2000);
    let side: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("leaky.hprof.json")).unwrap()).unwrap();
    assert_eq!(side["process"]["pid"].as_u64().unwrap().to_string(), pid);
    assert_eq!(side["method"], "attach");
    assert_eq!(side["bytes"].as_u64().unwrap(), std::fs::metadata(&out_path).unwrap().len());
    assert!(side["jvm"].as_str().unwrap().contains("Heap dump file created"), "{side}");
    // No temporary file is left beside it.
    let names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    assert!(!names.iter().any(|n| n.contains(".part")), "{names:?}");

    // Dumping again to the same name fails and leaves the first dump as it was.
    let before = std::fs::read(&out_path).unwrap();
    let again = heaptui(&["dump", "--local", &pid, "-o", out_path.to_str().unwrap()], dir.path());
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("never overwrites"));
    assert_eq!(std::fs::read(&out_path).unwrap(), before);

    // Stripped on the way: smaller (the sessions' byte buffers are gone), the same objects.
    let stripped = dir.path().join("triage.hprof");
    let out = heaptui(&["dump", "--local", &pid, "--mode", "triage", "-o", stripped.to_str().unwrap()], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::metadata(&stripped).unwrap().len() < before.len() as u64);
    assert_eq!(sessions(&stripped, dir.path()), 2000);

    // Without -o: under $XDG_DATA_HOME/heaptui/dumps/local/PROCESS/.
    let out = heaptui(&["dump", "--local", "LeakyCache"], dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let path = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    assert!(path.starts_with(dir.path().join("heaptui/dumps/local/LeakyCache")), "{}", path.display());
    assert_eq!(sessions(&path, dir.path()), 2000);
    drop(jvm);
}

#[test]
fn a_process_that_is_not_a_jvm_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    // SIGQUIT would end `sleep`: heaptui must see it is no JVM and leave it alone.
    let mut sh = Command::new("sleep").arg("30").spawn().unwrap();
    let out_path = dir.path().join("x.hprof");
    let out = heaptui(&["dump", "--local", &sh.id().to_string(), "-o", out_path.to_str().unwrap()], dir.path());
    assert!(sh.try_wait().unwrap().is_none(), "the process was killed");
    let _ = sh.kill();
    let _ = sh.wait();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a HotSpot JVM"), "{err}");
    assert!(!out_path.exists());
}
