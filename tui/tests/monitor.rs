//! `heaptui monitor --local` on real JVMs (OpenJDK, `tests/java/HeapGrowth.java`, `-Xmx64m`):
//! a heap that grows to 86 % and stays there fires KOOM's heap trigger (80 % for heaps under
//! 128 MB, three samples in a row without falling); one that churns garbage never does.

use std::path::Path;
use std::process::Command;

fn monitor(mode: &str, seconds: &str, dir: &Path, extra: &[&str]) -> Vec<serde_json::Value> {
    let jvm = test_support::Jvm::start("tests/java/HeapGrowth.java", dir, "HeapGrowth", &[mode], 64);
    assert_eq!(jvm.first_line.trim(), "ready");
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["monitor", "--local", &jvm.pid().to_string(), "--interval", "0.2", "--duration", seconds, "--json"])
        .args(extra)
        .env("XDG_DATA_HOME", dir)
        .output()
        .unwrap();
    drop(jvm);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn a_growing_heap_fires_the_koom_trigger_once_and_dumps() {
    let dir = tempfile::tempdir().unwrap();
    // Long enough for the trigger and the dump after it on a loaded machine.
    let lines = monitor("grow", "12", dir.path(), &["--auto-dump"]);
    let samples: Vec<_> = lines.iter().filter(|l| l["type"] == "sample").collect();
    assert!(samples.len() >= 20, "{} samples", samples.len());
    let max = samples[0]["java_max"].as_u64().unwrap();
    assert!((64 << 20..65 << 20).contains(&max), "{max}");
    // 80 % of the heap's max: KOOM's line for heaps under 128 MB.
    assert_eq!(samples[0]["java_threshold"].as_u64().unwrap(), (max as f64 * 0.8) as u64);
    let first = samples[0]["java_used"].as_u64().unwrap();
    let last = samples.last().unwrap()["java_used"].as_u64().unwrap();
    assert!(last > first && last as f64 > max as f64 * 0.8, "{first} -> {last} of {max}");
    for s in &samples {
        assert!(s["rss"].as_u64().unwrap() > 20 << 20 && s["threads"].as_u64().unwrap() > 5, "{s}");
    }
    let heap: Vec<_> = lines.iter().filter(|l| l["type"] == "trigger" && l["kind"] == "heap").collect();
    assert_eq!(heap.len(), 1, "{heap:?}");
    let fired = heap[0]["value"].as_u64().unwrap();
    assert!(fired >= heap[0]["threshold"].as_u64().unwrap());
    // It fired on the third sample over the line, the two before it also over and not falling.
    let t = heap[0]["t"].as_f64().unwrap();
    let at = samples.iter().position(|s| s["t"].as_f64().unwrap() == t).unwrap();
    assert!(at >= 2);
    let line = heap[0]["threshold"].as_u64().unwrap();
    let used: Vec<u64> = samples[at - 2..=at].iter().map(|s| s["java_used"].as_u64().unwrap()).collect();
    assert!(used.iter().all(|u| *u >= line) && used.windows(2).all(|w| w[1] >= w[0]), "{used:?}");

    // --auto-dump: one dump, right after the trigger, stored under XDG_DATA_HOME and whole.
    let dumps: Vec<_> = lines.iter().filter(|l| l["type"] == "dump").collect();
    assert_eq!(dumps.len(), 1, "{dumps:?}");
    assert_eq!(dumps[0]["trigger"], "heap");
    let path = Path::new(dumps[0]["path"].as_str().unwrap());
    assert!(path.starts_with(dir.path().join("heaptui/dumps/local")), "{}", path.display());
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["analyze", path.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kept = v["histogram"].as_array().unwrap().iter().find(|r| r["class"] == "byte[]").unwrap().clone();
    // The program holds 86 % of the heap in 256 KiB arrays: at least 40 MiB of byte[] were live.
    assert!(kept["instances"].as_u64().unwrap() >= 160, "{kept}");
}

#[test]
fn a_churning_heap_never_fires() {
    let dir = tempfile::tempdir().unwrap();
    let lines = monitor("churn", "4", dir.path(), &[]);
    assert!(lines.iter().filter(|l| l["type"] == "sample").count() >= 15);
    let triggers: Vec<_> = lines.iter().filter(|l| l["type"] == "trigger").collect();
    assert!(triggers.is_empty(), "{triggers:?}");
}

#[test]
fn names_that_match_nothing_are_clear_errors() {
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["monitor", "--local", "no-such-process-name"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no process named"));
}

/// `devices` with no phone exits 0 and lists this machine (no adb server on the port it is given).
#[test]
fn devices_without_phones_lists_local() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["devices", "--json"])
        .env("ANDROID_ADB_SERVER_PORT", port.to_string())
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["devices"].as_array().unwrap().len(), 0);
    assert_eq!(v["local"]["serial"], "local");
    assert!(v["adb"].as_str().unwrap().contains("adb start-server"));
}

/// Standing thresholds from the config file (`HEAPTUI_TRIGGERS`), under `--trigger`; a bad line
/// is an error naming the file and line.
#[test]
fn thresholds_from_the_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("triggers");
    std::fs::write(&file, "# standing thresholds\nthreads=2   # any test harness has more\nheap=off\n").unwrap();
    let me = std::process::id().to_string();
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .args(["monitor", "--local", &me, "--interval", "0.1", "--duration", "0.15", "--json"])
            .args(extra)
            .env("HEAPTUI_TRIGGERS", &file)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let t: Vec<_> = lines.iter().filter(|l| l["type"] == "trigger").collect();
    assert_eq!(t.len(), 1, "{lines:?}");
    assert_eq!((t[0]["kind"].as_str(), t[0]["threshold"].as_u64()), (Some("threads"), Some(2)));
    // Probe's breakdown follows a thread alarm: the threads by name add up to about the count.
    let g: Vec<_> = lines.iter().filter(|l| l["type"] == "groups").collect();
    assert_eq!(g.len(), 1, "{lines:?}");
    let named: u64 = g[0]["threads"].as_array().unwrap().iter().map(|x| x["count"].as_u64().unwrap()).sum();
    let counted = t[0]["value"].as_u64().unwrap();
    assert!(named.abs_diff(counted) <= 4, "{named} named, {counted} counted");
    assert!(!g[0]["fds"].as_array().unwrap().is_empty());
    // --trigger wins over the file.
    let out = run(&["--trigger", "threads=off"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"sample\"") && !text.contains("\"trigger\""), "{text}");
    std::fs::write(&file, "threads=2\nheap=lots\n").unwrap();
    let out = run(&[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{}:2", file.display())), "{err}");
}

/// SIGBUS (what touching a mapped dump that shrank raises) ends heaptui with a message and exit
/// status 1, not a silent crash. Sent by hand here: a file cannot be made to shrink at a chosen
/// instant under a running process.
#[test]
fn sigbus_is_a_message_not_a_crash() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["monitor", "--local", &std::process::id().to_string(), "--interval", "0.2", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Its first sample means it is running (the handler is installed before anything else).
    // (The pipe stays open until the end: a closed one would end it first.)
    let mut first = String::new();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    assert!(first.contains("\"sample\""), "{first}");
    assert!(Command::new("kill").args(["-BUS", &child.id().to_string()]).status().unwrap().success());
    let out = child.wait_with_output().unwrap();
    drop(stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shrank or changed while being read (SIGBUS)"));
}
