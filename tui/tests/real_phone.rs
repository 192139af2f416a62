//! What only a real phone can show. These tests are `#[ignore]`d: no phone is attached where the
//! suite runs. To run them, attach a phone with USB debugging on (or an emulator), install a
//! debuggable app and start it, then:
//!
//! ```sh
//! ANDROID_SERIAL=<serial> HEAPTUI_REAL_APP=<package> cargo test -p heaptui --test real_phone -- --ignored
//! ```
//!
//! They check what the test double of a phone cannot: the real `dumpsys meminfo` layout, a real
//! ART dump taken with `am dumpheap`, stripped on the phone and restored here, and KOOM's fork dump
//! in a real app (with `HEAPTUI_REAL_APP` a debuggable package). The binary pushes the agent and
//! the fork dump's library it carries (`heaptui doctor` lists them); nothing is built by hand.

use std::process::Command;

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("set {name} (see this file's header)"))
}

#[test]
#[ignore = "needs a phone: ANDROID_SERIAL and HEAPTUI_REAL_APP (see the file's header)"]
fn monitor_reads_an_apps_java_heap_from_dumpsys() {
    let (serial, app) = (env("ANDROID_SERIAL"), env("HEAPTUI_REAL_APP"));
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["monitor", "-s", &serial, &app, "--interval", "1", "--duration", "6", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let s = lines.iter().find(|l| l["type"] == "sample").expect("a sample");
    let (used, max) = (s["java_used"].as_u64().expect("java_used"), s["java_max"].as_u64().expect("java_max"));
    // An app's heap: some MiB in use, under a limit of 64 MiB to 1 GiB.
    assert!(used > 1 << 20 && used < max && (64 << 20..=1 << 30).contains(&max), "{s}");
}

#[test]
#[ignore = "needs a phone: ANDROID_SERIAL and HEAPTUI_REAL_APP (see the file's header)"]
fn am_dumpheap_stripped_on_the_phone_restores_and_opens() {
    let (serial, app) = (env("ANDROID_SERIAL"), env("HEAPTUI_REAL_APP"));
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["dump", "-s", &serial, &app, "--method", "am", "--mode", "triage"])
        .env("XDG_DATA_HOME", dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let side: serde_json::Value = serde_json::from_slice(&std::fs::read(format!("{path}.json")).unwrap()).unwrap();
    assert!(side["transferred_bytes"].as_u64() < side["raw_bytes"].as_u64(), "{side}");
    let out =
        Command::new(env!("CARGO_BIN_EXE_heaptui")).args(["analyze", &path, "--format", "json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // An Android dump: the app heap is there, the zygote and image heaps were dropped on the phone.
    let heaps: Vec<String> =
        v["heaps"].as_array().into_iter().flatten().filter_map(|h| h["name"].as_str().map(str::to_string)).collect();
    assert!(heaps.iter().any(|h| h == "app"), "{heaps:?}");
}

#[test]
#[ignore = "needs a phone, a debuggable app and the fork agent built with the NDK (see the file's header)"]
fn fork_dump_of_a_real_app_pauses_it_briefly() {
    let (serial, app) = (env("ANDROID_SERIAL"), env("HEAPTUI_REAL_APP"));
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["dump", "-s", &serial, &app, "--method", "fork"])
        .env("XDG_DATA_HOME", dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let side: serde_json::Value = serde_json::from_slice(&std::fs::read(format!("{path}.json")).unwrap()).unwrap();
    assert_eq!(side["method"], "fork");
    // KOOM's claim: the app is blocked only around fork (well under a second).
    let runtime = side["runtime"].as_str().unwrap();
    let paused_us: u64 = runtime.split_whitespace().nth(2).and_then(|n| n.parse().ok()).expect(runtime);
    assert!(paused_us < 1_000_000, "{runtime}");
    let out =
        Command::new(env!("CARGO_BIN_EXE_heaptui")).args(["analyze", &path, "--format", "json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
