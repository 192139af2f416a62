//! **A test double of ART's heap graphs through Perfetto** (no ART here): what the test phone
//! runs for `perfetto --txt -c - -o OUT`. It reads the trace config on stdin, takes the
//! `java_hprof_config`'s `pid`, has that process (a local JVM standing for the app) dump its heap
//! with `jcmd GC.heap_dump -all` (every object, as ART's fork dump takes them), and writes the
//! heap as the one Java heap graph of a Perfetto trace at OUT (`heap::perfetto::encode`). A
//! config without a pid, or a process that will not dump, ends it with perfetto's kind of error.
//! A hostile phone's test (`HEAPTUI_TEST_PHONE_TRACE`, from `PhoneSpec::perfetto_trace`) gets that
//! file's bytes as the trace instead.

use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args.windows(2).find(|w| w[0] == "-o").map(|w| w[1].clone());
    let (Some(out), true) = (out, args.windows(2).any(|w| w[0] == "-c" && w[1] == "-")) else {
        eprintln!("perfetto (double): usage: perfetto --txt -c - -o OUT");
        return ExitCode::from(1);
    };
    let mut config = String::new();
    if std::io::stdin().read_to_string(&mut config).is_err() {
        return ExitCode::from(1);
    }
    let pid = config.lines().filter_map(|l| l.trim().strip_prefix("pid:")).find_map(|v| v.trim().parse::<u32>().ok());
    let Some(pid) = pid else {
        eprintln!("perfetto (double): the config names no java_hprof pid");
        return ExitCode::from(1);
    };
    if let Some(canned) = std::env::var_os("HEAPTUI_TEST_PHONE_TRACE") {
        let copied = std::fs::read(canned).and_then(|t| std::fs::write(&out, t));
        return if copied.is_ok() { ExitCode::SUCCESS } else { ExitCode::from(1) };
    }
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(_) => return ExitCode::from(1),
    };
    let raw = dir.path().join("heap.hprof");
    let dumped = std::process::Command::new("jcmd")
        .arg(pid.to_string())
        .args(["GC.heap_dump", "-all"])
        .arg(&raw)
        .output()
        .map(|o| o.status.success() && raw.exists())
        .unwrap_or(false);
    if !dumped {
        // perfetto itself succeeds with a trace that holds no heap graph when ART declines.
        return if std::fs::write(&out, []).is_ok() { ExitCode::SUCCESS } else { ExitCode::from(1) };
    }
    let Ok(index) = heap::Index::open(&raw, heap::Options::default()) else { return ExitCode::from(1) };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let trace = heap::perfetto::encode::encode(&index, pid as i32, now);
    if std::fs::write(&out, trace).is_err() {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
