//! The agent as a phone runs it: adb's `shell` user (uid 2000) sampling an app that runs under
//! its own uid. Linux applies the same rules to two ordinary uids: `status`, `cmdline`, `stat`
//! and `limits` are open to every user, the `fd` directory, `smaps_rollup` and `exe` only to the
//! owner (the kernel asks for ptrace access). So a sample must still come, with those figures
//! `null` and named in `missing`. Running processes under two uids needs root; the test says so
//! and fails otherwise, it never skips.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

mod common;

const SHELL_UID: u32 = 2000;
const APP_UID: u32 = 10123;

fn require_root() {
    assert!(
        unsafe { libc::geteuid() } == 0,
        "this test runs the agent and an app under two uids, as on a phone: run the tests as root (sudo ./run-tests)"
    );
}

/// This machine's `sleep`: the app under test.
fn sleep() -> std::path::PathBuf {
    common::on_path("sleep").expect("sleep on PATH")
}

struct Kill(std::process::Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_sample_of_another_uids_process_names_what_it_could_not_read() {
    require_root();
    let app = Kill(Command::new(sleep()).arg("60").uid(APP_UID).gid(APP_UID).spawn().unwrap());
    let pid = app.0.id();
    let out = common::agent(&["sample", "--pid", &pid.to_string(), "--count", "1"])
        .uid(SHELL_UID)
        .gid(SHELL_UID)
        .env("PATH", "/usr/bin:/bin")
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let text = String::from_utf8(out.stdout).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    assert_eq!(line["type"], "sample", "{text}");
    let sample = &line["sample"];
    // What `status` holds: read as on a phone.
    assert_eq!(sample["name"], "sleep");
    assert_eq!(sample["threads"], 1);
    assert!(sample["rss_kb"].as_u64().unwrap() > 0);
    // `limits` is open to all.
    assert!(sample["fd_limit"].as_u64().is_some(), "{text}");
    // The owner's alone: null, with the reason.
    assert!(sample["fds"].is_null(), "{text}");
    assert!(sample["pss_kb"].is_null(), "{text}");
    assert!(sample["bits"].is_null(), "{text}");
    let missing: Vec<(&str, &str)> = sample["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["field"].as_str().unwrap(), m["why"].as_str().unwrap()))
        .collect();
    let fields: Vec<&str> = missing.iter().map(|m| m.0).collect();
    assert_eq!(fields, ["pss_kb", "fds", "bits"], "{text}");
    let fd_why = missing[1].1;
    assert!(fd_why.contains(&format!("/proc/{pid}/fd")) && fd_why.contains("Permission denied"), "{fd_why}");
    assert!(missing[0].1.contains("smaps_rollup"), "{}", missing[0].1);
}

/// The same agent run as the app's own uid reads everything, from `/proc`.
#[test]
fn the_owner_reads_every_figure() {
    require_root();
    let sleep = sleep();
    let app = Kill(Command::new(&sleep).arg("60").uid(APP_UID).gid(APP_UID).spawn().unwrap());
    let out = common::agent(&["sample", "--pid", &app.0.id().to_string(), "--count", "1"])
        .uid(APP_UID)
        .gid(APP_UID)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let sample = &line["sample"];
    assert!(sample["fds"].as_u64().unwrap() >= 3, "{text}");
    assert!(sample["pss_kb"].as_u64().unwrap() > 0, "{text}");
    // The bitness of `sleep`, this machine's executable, whatever CPU the agent is built for (a
    // 32-bit ARM agent under qemu-user reads a 64-bit x86_64 `sleep` here).
    let bits = common::elf_bits(&sleep).expect("sleep is an ELF executable");
    assert_eq!(sample["bits"].as_u64(), Some(u64::from(bits)), "{text}");
    assert!(sample.get("missing").is_none(), "{text}");
}

/// Probe's breakdowns as the shell user: the threads by name (their `comm` files are open to all),
/// the descriptors unavailable and why, instead of an error line.
#[test]
fn groups_of_another_uids_process_keep_the_threads() {
    require_root();
    let app = Kill(Command::new(sleep()).arg("60").uid(APP_UID).gid(APP_UID).spawn().unwrap());
    let pid = app.0.id();
    let out = common::agent(&["groups", "--pid", &pid.to_string()]).uid(SHELL_UID).gid(SHELL_UID).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    assert_eq!(line["type"], "groups", "{text}");
    assert_eq!(line["groups"]["threads"], serde_json::json!([["sleep", 1]]), "{text}");
    assert_eq!(line["groups"]["fds"], serde_json::json!([]), "{text}");
    let why = line["groups"]["fds_missing"].as_str().unwrap();
    assert!(why.contains(&format!("/proc/{pid}/fd")) && why.contains("Permission denied"), "{why}");
}
