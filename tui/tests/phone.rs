//! `devices`, `ps -s` and `monitor -s` on "a phone": the test double of one (`tests/phone`, the
//! device end of the adb protocol) connected to the real adb server, running the real agent the
//! bridge pushes to it. Its processes are this machine's, so a real JVM stands for the app.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use test_phone::{AdbServer, PhoneSpec, TestPhone};
use test_support::Jvm;

fn heaptui(server: &AdbServer, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(args)
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env_remove("ANDROID_SERIAL")
        .output()
        .unwrap()
}

/// What a successful `heaptui dump` stored: its sidecar, and the number of `LeakyCache$Session`
/// instances `analyze` counts in the dump.
fn stored_dump(out: &std::process::Output) -> (serde_json::Value, u64) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let side: serde_json::Value = serde_json::from_slice(&std::fs::read(format!("{path}.json")).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["analyze", &path, "--format", "json", "--top", "100"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = v["histogram"].as_array().unwrap().iter().find(|r| r["class"] == "LeakyCache$Session").cloned();
    (side, row.and_then(|r| r["instances"].as_u64()).unwrap_or(0))
}

fn json_lines(out: &std::process::Output) -> Vec<serde_json::Value> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn a_phone_is_listed_its_processes_too_and_a_growing_app_fires_the_koom_trigger() {
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();

    let out = heaptui(&server, &["devices", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &v["devices"][0];
    assert_eq!((d["serial"].as_str(), d["state"].as_str()), (Some(phone.serial().as_str()), Some("device")));
    assert_eq!(d["model"], "heaptui_test_phone");

    // The app: a JVM whose heap grows to 86 % of 64 MiB and stays there.
    let dir = tempfile::tempdir().unwrap();
    let jvm = Jvm::start("tests/java/HeapGrowth.java", dir.path(), "HeapGrowth", &["grow"], 64);
    assert_eq!(jvm.first_line.trim(), "ready");

    // The one phone attached is the default target.
    let ps = json_lines(&heaptui(&server, &["ps", "--json"]));
    let app = ps.iter().find(|p| p["pid"] == jvm.pid()).expect("the JVM in the phone's list");
    assert_eq!(app["jvm"], true);
    assert!(phone.tmp_dir().join("heaptui-agent").is_file(), "the agent was pushed");

    let xdg = dir.path().join("data");
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args([
            "monitor",
            "-s",
            &phone.serial(),
            "HeapGrowth",
            "--interval",
            "0.2",
            "--duration",
            "6",
            "--json",
            "--auto-dump",
        ])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env("XDG_DATA_HOME", &xdg)
        .output()
        .unwrap();
    let lines = json_lines(&out);
    let samples: Vec<_> = lines.iter().filter(|l| l["type"] == "sample").collect();
    assert!(samples.len() >= 20, "{} samples", samples.len());
    assert_eq!(samples[0]["pid"], jvm.pid());
    let max = samples[0]["java_max"].as_u64().unwrap();
    assert!((64 << 20..65 << 20).contains(&max), "{max}");
    let first = samples[0]["java_used"].as_u64().unwrap();
    let last = samples.last().unwrap()["java_used"].as_u64().unwrap();
    assert!(last > first && last as f64 > max as f64 * 0.8, "{first} -> {last} of {max}");
    let heap: Vec<_> = lines.iter().filter(|l| l["type"] == "trigger" && l["kind"] == "heap").collect();
    assert_eq!(heap.len(), 1, "{heap:?}");
    assert_eq!(heap[0]["threshold"].as_u64().unwrap(), (max as f64 * 0.8) as u64);
    // --auto-dump: dumped on the phone once, restored here under the phone's serial.
    let dumps: Vec<_> = lines.iter().filter(|l| l["type"] == "dump").collect();
    assert_eq!(dumps.len(), 1, "{dumps:?}");
    assert_eq!(dumps[0]["trigger"], "heap");
    let path = Path::new(dumps[0]["path"].as_str().unwrap());
    assert!(path.starts_with(xdg.join("heaptui/dumps").join(phone.serial().replace(':', "_"))), "{}", path.display());
    assert!(path.is_file());
}

/// `heaptui monitor -s SERIAL <this test's pid> --json`, once its first sample has arrived; its
/// stdout comes back too, to be kept open (a closed pipe would end it for another reason).
fn watch_self(server: &AdbServer, serial: &str) -> (std::process::Child, BufReader<std::process::ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["monitor", "-s", serial, &std::process::id().to_string(), "--interval", "0.2", "--json"])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.contains("\"type\":\"sample\""), "{line}");
    (child, out)
}

/// Waits for `child` to fail and returns what it said on stderr.
fn failure(mut child: std::process::Child) -> String {
    let status = child.wait().unwrap();
    assert!(!status.success());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    err
}

#[test]
fn none_two_unknown_and_gone_phones_are_clear() {
    let server = AdbServer::start();
    // None attached: this machine is the default; a named phone is an error.
    let out = heaptui(&server, &["ps", "-s", "emulator-5554"]);
    assert_eq!(out.status.code(), Some(4), "no device");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains("no phone \"emulator-5554\" attached (attached: none)"), "{err}");
    let ps = json_lines(&heaptui(&server, &["ps", "--json"]));
    assert!(ps.iter().any(|p| p["pid"] == std::process::id()));

    let a = TestPhone::start(PhoneSpec::default()).unwrap();
    let b = TestPhone::start(PhoneSpec::default()).unwrap();
    a.connect(server.0).unwrap();
    b.connect(server.0).unwrap();
    let out = heaptui(&server, &["monitor", "1"]);
    assert_eq!(out.status.code(), Some(2), "usage: several phones, none named");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains("2 phones attached") && err.contains("-s SERIAL"), "{err}");
    // ANDROID_SERIAL picks one, as adb does.
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["ps", "--json"])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env("ANDROID_SERIAL", b.serial())
        .output()
        .unwrap();
    assert!(json_lines(&out).iter().any(|p| p["pid"] == std::process::id()));

    // The agent killed while watching (as Android's low-memory killer might): an error, not a
    // quiet end.
    let watch = |serial: &str| watch_self(&server, serial);
    let (child, _out) = watch(&b.serial());
    let me = std::process::id().to_string();
    let killed =
        Command::new("pkill").args(["-KILL", "-f", &format!("heaptui-agent sample --pid {me} ")]).status().unwrap();
    assert!(killed.success());
    let err = failure(child);
    assert!(err.contains("the agent on") && err.contains("stopped (exit 137)"), "{err}");

    // A phone that goes away while being watched: monitor stops with an error saying so.
    let (child, _out) = watch(&a.serial());
    a.go_away();
    let err = failure(child);
    assert!(err.contains("went away"), "{err}");
}

/// An app without hsperfdata (any process on the test phone that is not a JVM): the agent reads
/// its Java heap from `dumpsys meminfo` (the phone's test double prints Android 10's layout with
/// 45056 KiB allocated) against `dalvik.vm.heapgrowthlimit` (256m), and KOOM's rule draws the
/// line at 85 % for a heap of 256 MB and more.
#[test]
fn an_app_without_hsperfdata_is_read_through_dumpsys() {
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let mut app = Command::new("sleep").arg("30").spawn().unwrap();
    let lines = json_lines(&heaptui(
        &server,
        &["monitor", &app.id().to_string(), "--interval", "0.2", "--duration", "0.4", "--json"],
    ));
    let _ = app.kill();
    let _ = app.wait();
    let samples: Vec<_> = lines.iter().filter(|l| l["type"] == "sample").collect();
    assert_eq!(samples.len(), 3);
    for s in samples {
        assert_eq!(s["java_used"], 45056 * 1024);
        assert_eq!(s["java_max"], 256u64 << 20);
        assert_eq!(s["java_threshold"], ((256u64 << 20) as f64 * 0.85) as u64);
    }
}

/// The whole loop through the phone: the demo's LeakyCache (2000 sessions) runs "on the phone";
/// `heaptui dump -s` has the agent dump it there (attach, as the process offers, then `am
/// dumpheap` through the phone's test double of `am`), strip it there (triage), pulls it with
/// the phone's checksum (or receives it streamed, checked by the agent's hash), restores it here,
/// stores it with a sidecar, and leaves nothing on the phone; the analysis names LeakyCache as
/// the suspect.
#[test]
fn dump_on_the_phone_pull_restore_and_find_the_leak() {
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let jvm = Jvm::start("demo/LeakyCache.java", dir.path(), "LeakyCache", &["2000", "120"], 64);
    assert!(jvm.first_line.starts_with("ready "), "{}", jvm.first_line);
    let pid = jvm.pid().to_string();
    let xdg = dir.path().join("data");

    // Stored on the phone and pulled (attach, then am), and streamed straight here (--stream).
    let serial = phone.serial();
    for (method, stream) in [("auto", false), ("am", false), ("auto", true)] {
        let mut args = vec!["dump", "-s", &serial, &pid, "--method", method];
        if stream {
            args.push("--stream");
        }
        let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .args(&args)
            .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
            .env("XDG_DATA_HOME", &xdg)
            .output()
            .unwrap();
        assert!(out.status.success(), "{method}: {}", String::from_utf8_lossy(&out.stderr));
        let path = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        let serial_dir = phone.serial().replace(':', "_");
        assert!(path.starts_with(xdg.join("heaptui/dumps").join(&serial_dir).join(&pid)), "{}", path.display());
        let side: serde_json::Value =
            serde_json::from_slice(&std::fs::read(format!("{}.json", path.display())).unwrap()).unwrap();
        assert_eq!(side["method"], if method == "am" { "am" } else { "attach" });
        assert_eq!((side["mode"].as_str(), side["restored"].as_bool()), (Some("triage"), Some(true)));
        assert_eq!(side["device"], phone.serial());
        assert_eq!(side["streamed"], stream);
        assert_eq!(side["transfer_verified"], true);
        // The phone's build, as its getprop says (the test phone's: SDK 30).
        assert_eq!(side["sdk"], 30);
        // Stripped on the phone: less crossed adb than the runtime wrote; restored to full length.
        let (raw, moved, kept) = (
            side["raw_bytes"].as_u64().unwrap(),
            side["transferred_bytes"].as_u64().unwrap(),
            side["bytes"].as_u64().unwrap(),
        );
        assert!(moved < raw && kept > moved, "{raw} raw, {moved} moved, {kept} kept");
        // The phone keeps nothing: no dump, no raw file, no part.
        let left = phone.leftovers();
        assert!(left.is_empty(), "{left:?}");

        let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .args(["analyze", path.to_str().unwrap(), "--format", "json", "--top", "100"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let sessions =
            v["histogram"].as_array().unwrap().iter().find(|r| r["class"] == "LeakyCache$Session").unwrap().clone();
        assert_eq!(sessions["instances"], 2000);
        let suspects = v["leaks"].as_array().unwrap();
        assert_eq!(suspects.len(), 1, "{suspects:?}");
        assert_eq!(
            (suspects[0]["class"].as_str(), suspects[0]["kind"].as_str()),
            (Some("class LeakyCache"), Some("application"))
        );
    }
}

/// KOOM's fork dump through the phone, with what stands in for Android: the "app" is a JVM, which
/// loads heaptui's JVMTI agent (`libforkdump.so`) when the phone's `cmd activity attach-agent`
/// double hands it to `jcmd JVMTI.agent_load`; the runtime is the test double of libart
/// (`tests/libart-double`), which writes a fixture dump. So the agent really is loaded into a
/// running process, really suspends, forks and resumes it, and the child's dump really crosses the
/// pipe, the stripper, `run-as cat` over adb, and the restore; the result must be the fixture,
/// stripped and restored.
#[test]
fn fork_dump_through_the_phone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let double = test_support::build::built(&["-p", "libart-double"], "libart_double.so");
    let fixture = std::env::var_os("HEAPTUI_FIXTURES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/fixtures"))
        .join("android/ahat-art__test-dump.hprof");
    let agents = test_phone::fork_agents();

    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let fixture_s = fixture.to_str().unwrap();
    let jvm = Jvm::start_with_env(
        "demo/LeakyCache.java",
        dir.path(),
        "LeakyCache",
        &["200", "120"],
        64,
        // A GC runs back to back in the app, as it does when its heap nears the limit.
        &[("HEAPTUI_DOUBLE_DUMP", fixture_s), ("HEAPTUI_DOUBLE_GC", "1")],
    );
    let xdg = dir.path().join("data");
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["dump", "-s", &phone.serial(), &jvm.pid().to_string(), "--method", "fork"])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env("HEAPTUI_AGENT_DIR", agents.path())
        .env("HEAPTUI_FORK_ART_LIB", &double)
        .env("XDG_DATA_HOME", &xdg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let side: serde_json::Value = serde_json::from_slice(&std::fs::read(format!("{path}.json")).unwrap()).unwrap();
    assert_eq!(side["method"], "fork");
    // The one sequence, whatever the phone's API level (30 here) says.
    assert!(
        side["runtime"]
            .as_str()
            .unwrap()
            .contains("thread_suspend_count_lock_ held); the child dumped with Hprof::Dump"),
        "{side}"
    );
    assert_eq!(side["raw_bytes"], std::fs::metadata(&fixture).unwrap().len());

    // The fixture, stripped and restored by the CLI, byte for byte.
    let s = dir.path().join("s.hprof");
    let r = dir.path().join("r.hprof");
    for args in
        [vec!["strip", fixture_s, s.to_str().unwrap()], vec!["restore", s.to_str().unwrap(), r.to_str().unwrap()]]
    {
        assert!(Command::new(env!("CARGO_BIN_EXE_heaptui")).args(&args).output().unwrap().status.success());
    }
    assert!(std::fs::read(&path).unwrap() == std::fs::read(&r).unwrap(), "the fork dump differs from the fixture");
    // Nothing left in the app's directories or /data/local/tmp.
    let app = phone.tmp_dir().parent().unwrap().join("data/LeakyCache");
    for sub in ["cache", "code_cache"] {
        assert_eq!(std::fs::read_dir(app.join(sub)).unwrap().count(), 0, "{sub}");
    }
    let left: Vec<_> = std::fs::read_dir(phone.tmp_dir()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(left, ["heaptui-agent"]);
}

/// The cable comes out during the pull: `dump` fails saying where the stripped dump still is on the
/// phone, leaves no file (final or partial) here, and the phone keeps the stripped dump. Then two
/// heaptui instances dump the same app at once: two good dumps, neither touching the other's.
#[test]
fn a_pull_cut_short_loses_nothing_and_two_instances_do_not_collide() {
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec { recv_delay_ms: 150, ..Default::default() }).unwrap();
    phone.connect(server.0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let jvm = Jvm::start("demo/LeakyCache.java", dir.path(), "LeakyCache", &["2000", "120"], 64);
    let pid = jvm.pid().to_string();
    let xdg = dir.path().join("data");
    let dump = |serial: &str| {
        Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .args(["dump", "-s", serial, &pid, "--mode", "none"])
            .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
            .env("XDG_DATA_HOME", &xdg)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let child = dump(&phone.serial());
    // The pull has begun when its temporary file appears here.
    let stored = xdg.join("heaptui/dumps").join(phone.serial().replace(':', "_")).join(&pid);
    let start = std::time::Instant::now();
    while !std::fs::read_dir(&stored)
        .map(|d| d.flatten().any(|e| e.file_name().to_string_lossy().starts_with(".heaptui-pull")))
        .unwrap_or(false)
    {
        assert!(start.elapsed() < std::time::Duration::from_secs(60), "the pull never began");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    phone.go_away();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(5), "device failed");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains("stays on the phone at /data/local/tmp/heaptui-"), "{err}");
    assert!(err.contains("shell rm /data/local/tmp/heaptui-"), "{err}");
    assert_eq!(std::fs::read_dir(&stored).unwrap().count(), 0, "no file, final or partial, is left here");
    let kept: Vec<_> = std::fs::read_dir(phone.tmp_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("heaptui-") && e.file_name() != "heaptui-agent")
        .collect();
    assert_eq!(kept.len(), 1, "the phone keeps the dump");
    assert!(kept[0].metadata().unwrap().len() > 1 << 20);

    // Two instances at once, on another phone.
    let other = TestPhone::start(PhoneSpec::default()).unwrap();
    other.connect(server.0).unwrap();
    let (a, b) = (dump(&other.serial()), dump(&other.serial()));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    for o in [&a, &b] {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let (pa, pb) =
        (String::from_utf8_lossy(&a.stdout).trim().to_string(), String::from_utf8_lossy(&b.stdout).trim().to_string());
    assert_ne!(pa, pb);
    for p in [&pa, &pb] {
        let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .args(["analyze", p, "--format", "json", "--top", "100"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = v["histogram"].as_array().unwrap();
        assert_eq!(rows.iter().find(|r| r["class"] == "LeakyCache$Session").unwrap()["instances"], 2000);
        // Only its owner reads a dump.
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(p).unwrap().permissions().mode() & 0o777, 0o600, "{p}");
    }
}

/// The app dies while it is being dumped (killed at some point after `dump` starts: before, during
/// or after the runtime writes): `dump` fails with a message, and neither the phone nor this
/// machine keeps a stray file.
#[test]
fn the_app_dies_during_the_dump() {
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut jvm = Jvm::start("demo/LeakyCache.java", dir.path(), "LeakyCache", &["200000", "120"], 512);
    let pid = jvm.pid().to_string();
    let xdg = dir.path().join("data");
    let child = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["dump", "-s", &phone.serial(), &pid])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env("XDG_DATA_HOME", &xdg)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(400));
    let _ = jvm.child.kill();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.starts_with("heaptui: ") && err.contains(&pid), "{err}");
    let strays = phone.leftovers();
    assert!(strays.is_empty(), "{strays:?}");
    let here = xdg.join("heaptui/dumps").join(phone.serial().replace(':', "_")).join(&pid);
    assert_eq!(std::fs::read_dir(&here).map(|d| d.count()).unwrap_or(0), 0);
}

/// The phone's storage fills while the runtime writes the dump: its `/data/local/tmp` is a 2 MiB
/// tmpfs here (room for the agent, not for a dump). `dump` fails with the runtime's "no space"
/// message and the phone keeps nothing but the agent. Needs the right to mount (root with
/// CAP_SYS_ADMIN, as in CI's container); without it the test fails and says how to leave it out.
#[test]
fn the_phones_storage_fills_during_the_dump() {
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    let tmp = phone.tmp_dir();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=2m", "tmpfs"])
        .arg(&tmp)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    // Never skipped quietly: a machine that cannot stage a full phone says so.
    assert!(
        mounted,
        "this test mounts a 2 MiB tmpfs as the phone's storage and needs root (CAP_SYS_ADMIN); \
         run the tests as root, or leave this one out with `-- --skip the_phones_storage_fills`"
    );
    struct Unmount(std::path::PathBuf);
    impl Drop for Unmount {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg(&self.0).status();
        }
    }
    let _unmount = Unmount(tmp.clone());
    phone.connect(server.0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let jvm = Jvm::start("demo/LeakyCache.java", dir.path(), "LeakyCache", &["2000", "120"], 64);
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["dump", "-s", &phone.serial(), &jvm.pid().to_string()])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr).to_lowercase();
    assert!(err.contains("no space left") || err.contains("space"), "{err}");
    let left: Vec<_> =
        std::fs::read_dir(&tmp).unwrap().flatten().map(|e| e.file_name().to_string_lossy().to_string()).collect();
    assert_eq!(left, ["heaptui-agent"]);
}

/// A strict phone: its shell runs as adb's `shell` user (uid 2000) and the apps under their own
/// uids, so the agent meets Android's rules: an app's `status` is open to it, its `fd`
/// directory, `smaps_rollup` and `exe` are not. Two apps run the demo's LeakyCache, both asking
/// for a large heap: one debuggable (its FDs and PSS come through `run-as`), one not (its FDs are
/// unavailable, with the reason; its PSS comes from `dumpsys meminfo`). Both show the Java heap
/// from dumpsys against `dalvik.vm.heapsize`, the large-heap limit (768m here), not the growth
/// limit (256m). Then `dump` works end to end on the non-debuggable one through `am dumpheap`,
/// served by the phone's system side as the app's uid.
#[test]
fn a_strict_phone_monitors_and_dumps_apps_without_root() {
    let app = |package: &str, uid, debuggable| test_phone::App {
        package: package.into(),
        uid,
        debuggable,
        large_heap: true,
        profileable: false,
    };
    let spec = PhoneSpec {
        shell_uid: Some(2000),
        heap_size: "768m".into(),
        apps: vec![app("com.example.debuggable", 10123, true), app("com.example.release", 10124, false)],
        ..Default::default()
    };
    let server = AdbServer::start();
    let phone = TestPhone::start(spec).unwrap();
    phone.connect(server.0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let start = |package: &str, uid: u32, sub: &str| {
        let classes = dir.path().join(sub);
        std::fs::create_dir_all(&classes).unwrap();
        Jvm::start_app("demo/LeakyCache.java", &classes, "LeakyCache", &["2000", "600"], 64, package, uid)
    };
    let debuggable = start("com.example.debuggable", 10123, "a");
    let release = start("com.example.release", 10124, "b");

    let sample_of = |pid: u32| -> serde_json::Value {
        let lines = json_lines(&heaptui(
            &server,
            &["monitor", &pid.to_string(), "--interval", "0.2", "--duration", "0.2", "--json"],
        ));
        lines.into_iter().find(|l| l["type"] == "sample").expect("a sample")
    };
    let missing = |s: &serde_json::Value, field: &str| -> Option<String> {
        s["missing"].as_array().unwrap().iter().find(|m| m["field"] == field).map(|m| m["why"].to_string())
    };
    for (jvm, can_run_as) in [(&debuggable, true), (&release, false)] {
        let s = sample_of(jvm.pid());
        // From `status`, open to the shell user.
        assert!(s["rss"].as_u64().unwrap() > 0, "{s}");
        assert!(s["threads"].as_u64().unwrap() > 5, "{s}");
        // The Java heap from dumpsys against the large-heap limit.
        assert_eq!(s["java_used"], 45056 * 1024, "{s}");
        assert_eq!(s["java_max"], 768u64 << 20, "{s}");
        assert_eq!(s["sources"]["java_used"], "dumpsys", "{s}");
        assert_eq!(s["sources"]["java_max"], "dalvik.vm.heapsize", "{s}");
        assert_eq!(s["objects"]["Activities"], 2, "{s}");
        if can_run_as {
            assert!(s["fds"].as_u64().unwrap() >= 3, "{s}");
            assert_eq!(s["sources"]["fds"], "run-as", "{s}");
            assert_eq!(s["sources"]["pss"], "run-as", "{s}");
            assert!(s["pss"].as_u64().unwrap() > 1 << 20, "{s}");
            assert_eq!(missing(&s, "fds"), None, "{s}");
        } else {
            assert!(s["fds"].is_null(), "{s}");
            let why = missing(&s, "fds").expect("why the FDs are missing");
            assert!(why.contains("Permission denied") && why.contains("not debuggable"), "{why}");
            assert_eq!(s["sources"]["pss"], "dumpsys", "{s}");
            assert_eq!(s["pss"], 95120 * 1024, "{s}");
        }
    }

    // The non-debuggable app dumps through `am dumpheap`, as the shell user may ask of any app.
    let xdg = dir.path().join("data");
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["dump", "-s", &phone.serial(), &release.pid().to_string()])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env("XDG_DATA_HOME", &xdg)
        .output()
        .unwrap();
    let (side, sessions) = stored_dump(&out);
    assert_eq!(side["method"], "am", "{side}");
    assert!(side["sample"]["fds"].is_null(), "{side}");
    assert_eq!(sessions, 2000);
    assert!(phone.leftovers().is_empty(), "{:?}", phone.leftovers());
}

/// A strict phone of Android 14 with a release app that is profileable from the shell
/// (`<profileable android:shell="true"/>`): `dump` with `--method auto` (the default) takes its
/// heap through Perfetto, says why, and stores the trace. The phone's `perfetto` runs the test's
/// stand-in for ART on its system side as the app's uid, as ART writes the graph in the app's
/// own process; the shell user only pipes the config and pulls the trace.
#[test]
fn a_strict_phone_dumps_a_profileable_app_through_perfetto() {
    let (server, phone, dir, jvm, traces) = profileable_phone(None);
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["dump", "-s", &phone.serial(), &jvm.pid().to_string()])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    let (side, sessions) = stored_dump(&out);
    assert!(said.contains("--method auto took perfetto"), "{said}");
    assert_eq!(side["method"], "perfetto", "{side}");
    assert!(String::from_utf8_lossy(&out.stdout).trim().ends_with(".pftrace"));
    assert_eq!(sessions, 2000);
    assert_eq!(std::fs::read_dir(traces.path()).unwrap().count(), 0, "the trace is removed from the phone");
    assert!(phone.leftovers().is_empty(), "{:?}", phone.leftovers());
}

/// A phone whose perfetto hands back a hostile heap graph for the app (one object with 100,000
/// runtime references among 20,000 of its type: 16 GiB of padding for a writer that pads each to
/// its type's largest): `dump --method perfetto` stores it, and `analyze` opens it with its peak
/// far below that, the Holders counted as built.
#[test]
fn a_hostile_trace_from_a_phone_opens_bounded() {
    use std::os::unix::fs::PermissionsExt;
    let canned = tempfile::tempdir().unwrap();
    std::fs::set_permissions(canned.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let trace = canned.path().join("hostile.pftrace");
    let (server, phone, dir, jvm, _traces) = profileable_phone(Some(trace.clone()));
    std::fs::write(&trace, test_support::traces::padded_type_of(u64::from(jvm.pid()), 100_000, 20_000)).unwrap();
    std::fs::set_permissions(&trace, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["dump", "-s", &phone.serial(), &jvm.pid().to_string(), "--method", "perfetto"])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stored = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(stored.ends_with(".pftrace"), "{stored}");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_heaptui"));
    cmd.args(["query", &stored, "SELECT count(*) FROM objects WHERE class = 'com.example.Holder'", "--format", "csv"])
        .env("HEAPTUI_INDEX_CACHE", "off");
    let (out, peak) = test_support::peak::run(&cmd).unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(text, "count(*)\n20001\n");
    assert!(peak < 300 << 20, "it peaked at {} MB", peak >> 20);
}

/// A strict phone of Android 14 with perfetto (the test's stand-in for ART's heap graphs, or
/// `canned`'s bytes when given) and a release app profileable from the shell: the server, the
/// phone, the test's folder, the app's JVM, and the phone's `/data/misc/perfetto-traces`.
fn profileable_phone(canned: Option<PathBuf>) -> (AdbServer, TestPhone, tempfile::TempDir, Jvm, tempfile::TempDir) {
    use std::os::unix::fs::PermissionsExt;
    let double = test_support::build::built(&["-p", "test-phone", "--bin", "perfetto-double"], "perfetto-double");
    let package = "com.example.profileable";
    let app = test_phone::App {
        package: package.into(),
        uid: 10125,
        debuggable: false,
        large_heap: false,
        profileable: true,
    };
    let traces = tempfile::tempdir().unwrap();
    std::os::unix::fs::chown(traces.path(), Some(2000), Some(2000)).unwrap();
    std::fs::set_permissions(traces.path(), std::fs::Permissions::from_mode(0o770)).unwrap();
    let spec = PhoneSpec {
        sdk: 34,
        shell_uid: Some(2000),
        apps: vec![app],
        files: vec![("/data/misc/perfetto-traces".to_string(), traces.path().to_path_buf())],
        perfetto: Some(double),
        perfetto_trace: canned,
        ..Default::default()
    };
    let (server, phone, dir, jvm) = phone_with_app(spec, package, 10125);
    (server, phone, dir, jvm, traces)
}

/// A test phone of `spec` on a new adb server, and on it app `package` (uid `uid`): a JVM running
/// the demo's LeakyCache (2000 sessions, then alive for 600 s), with a directory for the test's
/// files.
fn phone_with_app(spec: PhoneSpec, package: &str, uid: u32) -> (AdbServer, TestPhone, tempfile::TempDir, Jvm) {
    let server = AdbServer::start();
    let phone = TestPhone::start(spec).unwrap();
    phone.connect(server.0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let classes = dir.path().join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    let jvm = Jvm::start_app("demo/LeakyCache.java", &classes, "LeakyCache", &["2000", "600"], 64, package, uid);
    (server, phone, dir, jvm)
}

/// A phone whose ABI list is only `x86` (a 32-bit emulator image) gets the 32-bit agent: the
/// bridge picks the build from `ro.product.cpu.abilist`, and the agent it pushed is an ELF32
/// executable that lists the phone's processes.
#[test]
fn a_32_bit_phone_gets_the_32_bit_agent() {
    let server = AdbServer::start();
    let phone =
        TestPhone::start(PhoneSpec { abi: "x86".into(), abi_list: "x86".into(), ..Default::default() }).unwrap();
    phone.connect(server.0).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["ps", "--json", "-s", &phone.serial()])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .output()
        .unwrap();
    let ps = json_lines(&out);
    assert!(ps.iter().any(|p| p["pid"] == std::process::id()), "this test among the phone's processes");
    let pushed = std::fs::read(phone.tmp_dir().join("heaptui-agent")).unwrap();
    assert_eq!(&pushed[..5], b"\x7fELF\x01", "an ELF32 agent");
    assert_eq!(u16::from_le_bytes([pushed[18], pushed[19]]), 3, "for EM_386");
}

/// One strict phone of a profile, with one release app running the demo's LeakyCache, and the
/// heaptui binary copied alone into an empty folder, run there with no `HEAPTUI_*` variable: it
/// pushes the agent it carries for the profile's ABI. `monitor` reads the app's Java heap
/// (dumpsys, against the large-heap limit), RSS and threads without root and says why its FDs
/// are unavailable; `dump` works end to end through `am dumpheap`, and through Perfetto where the
/// profile is Android 11+ (the app profileable there, and `--method auto` taking it). Returns the
/// `am` dump's sidecar.
fn profile_monitors_and_dumps(spec: fn(Vec<test_phone::App>) -> PhoneSpec) -> serde_json::Value {
    use std::os::unix::fs::PermissionsExt;
    let package = "com.example.release";
    let perfetto = spec(Vec::new()).sdk >= 30;
    let app = test_phone::App {
        package: package.into(),
        uid: 10124,
        debuggable: false,
        large_heap: true,
        profileable: perfetto,
    };
    let mut spec = spec(vec![app]);
    let traces = tempfile::tempdir().unwrap();
    if perfetto {
        std::os::unix::fs::chown(traces.path(), Some(2000), Some(2000)).unwrap();
        std::fs::set_permissions(traces.path(), std::fs::Permissions::from_mode(0o770)).unwrap();
        spec.files.push(("/data/misc/perfetto-traces".to_string(), traces.path().to_path_buf()));
        spec.perfetto =
            Some(test_support::build::built(&["-p", "test-phone", "--bin", "perfetto-double"], "perfetto-double"));
    }
    let sdk = spec.sdk;
    let abi = spec.abi_list.split(',').next().unwrap().to_string();
    let shell_v2 = spec.features.iter().any(|f| f == "shell_v2");
    // A large-heap app's limit: the profile's `dalvik.vm.heapsize` (megabytes).
    let heap_size = spec.heap_size.strip_suffix('m').and_then(|m| m.parse::<u64>().ok()).expect("NNNm") << 20;
    let alone = tempfile::tempdir().unwrap();
    let binary = alone.path().join("heaptui");
    std::fs::copy(env!("CARGO_BIN_EXE_heaptui"), &binary).unwrap();
    let (server, phone, dir, jvm) = phone_with_app(spec, package, 10124);
    let run = |args: &[&str]| {
        let mut cmd = Command::new(&binary);
        for (k, _) in std::env::vars_os() {
            if k.to_string_lossy().starts_with("HEAPTUI_") {
                cmd.env_remove(k);
            }
        }
        cmd.args(args)
            .current_dir(alone.path())
            .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
            .env("XDG_DATA_HOME", dir.path().join("data"))
            .output()
            .unwrap()
    };
    let pid = jvm.pid().to_string();
    let lines =
        json_lines(&run(&["monitor", "-s", &phone.serial(), &pid, "--interval", "0.5", "--duration", "0.5", "--json"]));
    let s = lines.iter().find(|l| l["type"] == "sample").expect("a sample");
    assert_eq!((s["java_used"].as_u64(), s["java_max"].as_u64()), (Some(45056 * 1024), Some(heap_size)), "{s}");
    assert_eq!(s["sources"]["java_max"], "dalvik.vm.heapsize", "{s}");
    assert!(s["rss"].as_u64().unwrap() > 0 && s["threads"].as_u64().unwrap() > 5, "{s}");
    assert!(s["fds"].is_null(), "{s}");
    let why = s["missing"].as_array().unwrap().iter().find(|m| m["field"] == "fds").expect("why no FDs");
    assert!(why["why"].as_str().unwrap().contains("not debuggable"), "{why}");
    // The agent on the phone is the one the binary carries for the phone's first ABI.
    let carried = bridge::builds::carried(bridge::builds::Kind::Agent, bridge::agent::triple_for_abi(&abi).unwrap())
        .expect("this test's heaptui carries the agent");
    let received = phone.received("heaptui-agent");
    assert!(
        received.as_deref() == Some(carried.bytes),
        "{abi}: not the carried agent ({:?} bytes, carried {})",
        received.as_ref().map(Vec::len),
        carried.bytes.len()
    );

    if perfetto {
        let out = run(&["dump", "-s", &phone.serial(), &pid]);
        let said = String::from_utf8_lossy(&out.stderr).to_string();
        let (side, sessions) = stored_dump(&out);
        assert!(said.contains("--method auto took perfetto"), "{said}");
        assert_eq!((side["method"].as_str(), sessions), (Some("perfetto"), 2000), "{side}");
        assert_eq!(std::fs::read_dir(traces.path()).unwrap().count(), 0, "the trace is removed from the phone");
    }
    let out = run(&["dump", "-s", &phone.serial(), &pid, "--method", if perfetto { "am" } else { "auto" }]);
    let (side, sessions) = stored_dump(&out);
    assert_eq!((side["method"].as_str(), side["sdk"].as_u64()), (Some("am"), Some(u64::from(sdk))), "{side}");
    assert_eq!(sessions, 2000);
    if !perfetto {
        // `auto` took ART's own dump, and said why.
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("--method auto took am: am dumpheap is ART's own dump"), "{said}");
    }
    if !shell_v2 {
        // A streamed dump needs stdout and stderr apart: refused, with the way out.
        let out = run(&["dump", "-s", &phone.serial(), &pid, "--stream"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.code() == Some(2) && err.contains("dump without --stream"), "{err}");
    }
    assert!(phone.leftovers().is_empty(), "{:?}", phone.leftovers());
    assert_eq!(std::fs::read_dir(alone.path()).unwrap().count(), 1, "nothing written beside the binary");
    side
}

/// Android 6: no shell protocol v2 (plain `shell:` on a pty, the exit code behind a marker),
/// toolbox's `mv` without options, no `sha256sum`, an `am` without `-g`.
#[test]
fn an_android_6_phone_monitors_and_dumps() {
    let side = profile_monitors_and_dumps(PhoneSpec::android6);
    assert!(
        side["message"].as_str().unwrap_or_default().contains("no -g") || side.to_string().contains("no -g"),
        "{side}"
    );
}

/// Android 10 with a 32-bit userspace: the 32-bit agent does the same work.
#[test]
fn an_android_10_32_bit_phone_monitors_and_dumps() {
    profile_monitors_and_dumps(PhoneSpec::android10_32bit);
}

/// Android 14 on arm64: the aarch64 agent, run under qemu-user.
#[test]
fn an_android_14_arm64_phone_monitors_and_dumps() {
    profile_monitors_and_dumps(PhoneSpec::android14_arm64);
}

/// Android 8.1 Go edition on a 32-bit ARM userspace: the armv7 agent (static glibc), run under
/// qemu-user; its `am` has no `-g`.
#[test]
fn an_android_go_armv7_phone_monitors_and_dumps() {
    let side = profile_monitors_and_dumps(PhoneSpec::android_go_armv7);
    assert!(side.to_string().contains("no -g"), "{side}");
}

/// `cmd activity attach-agent` returns 0 before the app loads anything, and says nothing when it
/// never does (ART refuses agents in a non-debuggable app). The library's handshake file tells the
/// host within seconds: here the "app" is not a JVM, so nothing loads it, and `dump --method fork`
/// fails in about 10 s, naming why, instead of waiting 150 s for a report.
#[test]
fn a_fork_dump_the_app_never_loads_fails_within_seconds() {
    use std::os::unix::process::CommandExt;
    let agents = test_phone::fork_agents();
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let mut app = Command::new("sleep").arg0("com.example.sleepy").arg("120").spawn().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["dump", "-s", &phone.serial(), &app.id().to_string(), "--method", "fork"])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env("HEAPTUI_AGENT_DIR", agents.path())
        .env("XDG_DATA_HOME", dir.path())
        .output()
        .unwrap();
    let _ = app.kill();
    let _ = app.wait();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "device failed: {err}");
    assert!(err.contains("did not load heaptui's agent within 10 s"), "{err}");
    assert!(start.elapsed() < std::time::Duration::from_secs(60), "{:?}", start.elapsed());
    assert!(phone.leftovers().is_empty(), "{:?}", phone.leftovers());
}

/// `doctor -s`: the phone's `libart.so` pulled from the ART module's directory (Debian's Android
/// 14 build stands for it), its SDK level and ART module read from the phone, the way the
/// library's symbols choose reported ready with what decided it, and a phone without one told
/// so.
#[test]
fn doctor_reads_the_phones_libart() {
    let art14 = test_support::libart::debian_14();
    let server = AdbServer::start();
    let files = vec![("/apex/com.android.art/lib64/libart.so".to_string(), art14.clone())];
    let phone = TestPhone::start(PhoneSpec { sdk: 34, files, ..Default::default() }).unwrap();
    phone.connect(server.0).unwrap();
    let out = heaptui(&server, &["doctor", "-s", &phone.serial(), "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["libart"], format!("{}:/apex/com.android.art/lib64/libart.so", phone.serial()));
    assert_eq!((v["sdk"].as_u64(), v["bits"].as_u64()), (Some(34), Some(64)));
    // The way is the library's own symbols' (Android 14 as Debian builds it: the 11-14
    // generation), and the phone's ART module is named.
    assert_eq!(v["fork"]["sequence"], forkdump::plan::Sequence::Hold.name());
    assert_eq!(v["fork"]["chosen_by"], "symbols");
    assert_eq!(v["fork"]["runtime"], forkdump::plan::Generation::Art11To14.name());
    assert_eq!(v["fork"]["evidence"]["table"], "dynsym");
    assert_eq!(v["art_module"], "com.android.art 341311000");
    assert_eq!(v["fork"]["missing"], serde_json::json!([]));
    let supported: Vec<bool> =
        v["methods"].as_array().unwrap().iter().map(|m| m["supported"].as_bool().unwrap()).collect();
    assert_eq!(supported, [true, true, true, false], "{v}");

    let bare = TestPhone::start(PhoneSpec::default()).unwrap();
    bare.connect(server.0).unwrap();
    let out = heaptui(&server, &["doctor", "-s", &bare.serial()]);
    assert_eq!(out.status.code(), Some(5), "device failed");
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no libart.so where Android keeps it"));
}

/// A phone whose pulls send sync `DATA` frames of 1 MiB (adbd sends 64 KiB, and AOSP's client
/// refuses more; mozdevice's reader panicked): `doctor` ends with an error naming the frame,
/// exit 5, and leaves no partial file beside the pull.
#[test]
fn oversized_sync_frames_are_refused() {
    let art14 = test_support::libart::debian_14();
    let server = AdbServer::start();
    let files = vec![("/apex/com.android.art/lib64/libart.so".to_string(), art14)];
    let phone = TestPhone::start(PhoneSpec { sdk: 34, files, recv_frame: 1 << 20, ..Default::default() }).unwrap();
    phone.connect(server.0).unwrap();
    let out = heaptui(&server, &["doctor", "-s", &phone.serial()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(err.contains("a sync DATA frame of 1048576 bytes after 0 (at most 65536)"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A phone without shell protocol v2 whose `getprop` leaves a job writing after it ends (`yes`,
/// for up to 10 s): heaptui reads each command up to its exit code and closes the stream, so
/// `ps` (which asks `getprop` for the phone's ABI) answers, its peak memory far below the flood.
#[test]
fn a_v1_flood_after_the_exit_code_is_not_read() {
    let server = AdbServer::start();
    let spec = PhoneSpec {
        features: vec!["cmd".into()],
        getprop_prefix: "timeout 10 yes flood &".into(),
        model: "flooded".into(),
        ..Default::default()
    };
    let phone = TestPhone::start(spec).unwrap();
    phone.connect(server.0).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_heaptui"));
    cmd.args(["ps", "--json", "-s", &phone.serial()])
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env_remove("ANDROID_SERIAL");
    let (out, peak) = test_support::peak::run(&cmd).unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("\"pid\""), "{text}");
    assert!(peak < 100 << 20, "it peaked at {} MB", peak >> 20);
}

/// A phone whose model (in its banner and `getprop`) carries terminal controls: `devices` and
/// `ps` print no control character (the adb server itself reduces a banner's model to letters,
/// digits and `_`; heaptui escapes what it is given either way).
#[test]
fn a_phone_with_a_hostile_model_is_shown_escaped() {
    use test_support::hostile::{unsafe_chars, CLEAR, TITLE};
    let server = AdbServer::start();
    let model = format!("Pixel{CLEAR}{TITLE}\u{202e}9");
    let phone = TestPhone::start(PhoneSpec { model: model.clone(), ..Default::default() }).unwrap();
    phone.connect(server.0).unwrap();
    for args in [vec!["devices"], vec!["ps", "-s", &phone.serial()]] {
        let out = heaptui(&server, &args);
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert_eq!(unsafe_chars(&stdout, false), [], "{args:?}: {stdout}");
        assert_eq!(unsafe_chars(&stderr, false), [], "{args:?}: {stderr}");
        if args[0] == "devices" {
            assert!(stdout.contains("Pixel"), "{stdout}");
        }
    }
}

/// `dump --method perfetto`: heaptui pipes a java_hprof trace config to the phone's `perfetto`
/// (here a double that has the JVM standing for the app dump itself and writes its heap as a
/// Perfetto heap graph, `tests/phone/src/bin/perfetto_double.rs`), pulls the trace from
/// `/data/misc/perfetto-traces`, stores it as a `.pftrace` that `analyze` opens with the app's
/// 2000 `LeakyCache$Session`s, says what it took, and leaves nothing on the phone. A phone whose
/// shell has no `perfetto` is an error naming it.
#[test]
fn perfetto_dump_through_the_phone() {
    let double = test_support::build::built(&["-p", "test-phone", "--bin", "perfetto-double"], "perfetto-double");
    let server = AdbServer::start();
    let traces = tempfile::tempdir().unwrap();
    let files = vec![("/data/misc/perfetto-traces".to_string(), traces.path().to_path_buf())];
    let phone =
        TestPhone::start(PhoneSpec { files: files.clone(), perfetto: Some(double), ..Default::default() }).unwrap();
    phone.connect(server.0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let jvm = Jvm::start("demo/LeakyCache.java", dir.path(), "LeakyCache", &["2000", "600"], 64);
    let run = |phone: &TestPhone| {
        Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .args(["dump", "-s", &phone.serial(), &jvm.pid().to_string(), "--method", "perfetto"])
            .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
            .env("XDG_DATA_HOME", dir.path().join("data"))
            .output()
            .unwrap()
    };
    let out = run(&phone);
    let (side, sessions) = stored_dump(&out);
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(path.ends_with(".pftrace"), "{path}");
    assert_eq!(side["method"], "perfetto", "{side}");
    assert_eq!(side["live_only"], false, "{side}");
    assert!(side["runtime"].as_str().unwrap().contains("ART's fork dump through Perfetto"), "{side}");
    assert_eq!(sessions, 2000);
    assert_eq!(std::fs::read_dir(traces.path()).unwrap().count(), 0, "the trace is removed from the phone");
    let left: Vec<_> = std::fs::read_dir(phone.tmp_dir()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(left, ["heaptui-agent"]);

    // A phone without perfetto.
    let bare = TestPhone::start(PhoneSpec { files, ..Default::default() }).unwrap();
    bare.connect(server.0).unwrap();
    let out = run(&bare);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(5) && err.contains("perfetto") && err.contains("not found"), "{err}");
}

/// The hostile corpus's planted agents: builds where earlier versions looked around the binary
/// (in a folder anyone can write) are never read, the binary pushes the agent it carries; a
/// `HEAPTUI_AGENT_DIR` that another user could have written (an open folder, another user's, a
/// file anyone can write, a link into an open folder) is refused, naming why, and nothing is
/// pushed.
#[test]
fn planted_agents_are_never_pushed() {
    use bridge::builds::{carried, Kind};
    use test_support::hostile::{planted_agents, PLANTED_AGENT};
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let root = tempfile::tempdir().unwrap();
    let triple = bridge::agent::triple_for_abi("x86_64").unwrap();
    let build = carried(Kind::Agent, triple).expect("this test's heaptui carries the x86_64 agent");
    for case in planted_agents(root.path(), triple).unwrap() {
        std::fs::copy(env!("CARGO_BIN_EXE_heaptui"), &case.binary).unwrap();
        let _ = std::fs::remove_file(phone.tmp_dir().join("heaptui-agent"));
        let mut cmd = Command::new(&case.binary);
        cmd.args(["ps", "--json", "-s", &phone.serial()])
            .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
            .env_remove("HEAPTUI_AGENT_DIR");
        if let Some(dir) = &case.agent_dir {
            cmd.env("HEAPTUI_AGENT_DIR", dir);
        }
        // A copy just written can meet a fork of another test's thread still holding it open
        // for writing (ETXTBSY): try again.
        let out = (0..50)
            .find_map(|_| match cmd.output() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                    None
                }
                other => Some(other.unwrap()),
            })
            .expect("the copy ran");
        let err = String::from_utf8_lossy(&out.stderr);
        let pushed = phone.received("heaptui-agent");
        assert!(pushed.as_deref() != Some(PLANTED_AGENT), "{}: the planted agent was pushed", case.name);
        match case.refused {
            None => {
                assert!(out.status.success(), "{}: {err}", case.name);
                assert!(pushed.as_deref() == Some(build.bytes), "{}: not the carried agent", case.name);
            }
            Some(why) => {
                assert_eq!(out.status.code(), Some(5), "{}: {err}", case.name);
                assert!(err.contains("refusing") && err.contains(why), "{}: {err}", case.name);
                assert!(pushed.is_none(), "{}: nothing pushed", case.name);
            }
        }
    }
}
