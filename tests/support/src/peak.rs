//! A command's own peak memory. `getrusage(RUSAGE_CHILDREN)` and `wait4` count, in a child's
//! peak, the pages it shared with its parent until it ran `exec` (the kernel records the old
//! address space's high-water mark there), so a child of a large test process seems as large as
//! the test. [`run`] starts the command from a small parent of its own (`python3`, a few MB) that
//! forks, execs it and reports `wait4`'s figure.

use std::process::{Command, Output};

const PARENT: &str = r#"
import os, sys
out, argv = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(out, "w") as f:
    f.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status) & 0xff)
"#;

/// Runs `cmd` (its program, arguments, environment, folder and stdin kept) and returns its
/// output and its peak resident set in bytes.
pub fn run(cmd: &Command) -> std::io::Result<(Output, u64)> {
    let report = tempfile_path()?;
    let mut parent = Command::new("python3");
    parent.arg("-c").arg(PARENT).arg(&report).arg(cmd.get_program()).args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => parent.env(k, v),
            None => parent.env_remove(k),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        parent.current_dir(dir);
    }
    let out = parent.output()?;
    let kb: u64 = std::fs::read_to_string(&report)?.trim().parse().map_err(std::io::Error::other)?;
    let _ = std::fs::remove_file(&report);
    if let Some(dir) = report.parent() {
        let _ = std::fs::remove_dir(dir);
    }
    Ok((out, kb * 1024))
}

/// This process's own peak resident set, in bytes (a test binary of one test measures that
/// test).
pub fn own() -> u64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    u.ru_maxrss as u64 * 1024
}

/// A fresh path for the parent's report.
fn tempfile_path() -> std::io::Result<std::path::PathBuf> {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("heaptui-peak-{}-{n}", std::process::id()));
    std::fs::create_dir(&dir)?;
    Ok(dir.join("peak"))
}
