//! What heaptui's tests share: a real JVM (OpenJDK's `javac` and `java`) running one of the
//! repository's Java programs, killed when the test ends however it ends; and the workspace's
//! other builds, found where cargo put them ([`build`]).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

pub mod art;
pub mod bitmaps;
pub mod build;
/// The engine tests' HPROF writer, shared with the dumps built here.
#[path = "../../../heap/tests/common/builder.rs"]
#[allow(dead_code)]
mod builder;
pub mod double;
pub mod fake_adb;
pub mod hostile;
pub mod imports;
pub mod libart;
pub mod peak;
pub mod perfetto;
pub mod traces;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running JVM.
pub struct Jvm {
    /// The `java` process.
    pub child: Child,
    /// The first line the program printed (they print `ready…` once set up).
    pub first_line: String,
}

impl Jvm {
    /// Compiles `source` (relative to the repository root, e.g. `demo/LeakyCache.java`) into
    /// `classes`, runs `class args` under `-Xmx<xmx_mb>m -XX:+UseSerialGC`, and waits for the
    /// program's first line.
    pub fn start(source: &str, classes: &Path, class: &str, args: &[&str], xmx_mb: u32) -> Jvm {
        Jvm::start_with_env(source, classes, class, args, xmx_mb, &[])
    }

    /// As [`Jvm::start`], with `env` set for the JVM.
    pub fn start_with_env(
        source: &str,
        classes: &Path,
        class: &str,
        args: &[&str],
        xmx_mb: u32,
        env: &[(&str, &str)],
    ) -> Jvm {
        let mut java = java(source, classes, class, args, xmx_mb);
        java.envs(env.iter().copied());
        Jvm::run(java)
    }

    /// As [`Jvm::start`], as an Android app runs: under the app's own `uid` (and gid), with the
    /// process named after `package` (its `argv[0]`, which ART sets to the package name).
    /// `classes` and its parent are opened to other users so the app's uid can read them. Needs
    /// root.
    pub fn start_app(
        source: &str,
        classes: &Path,
        class: &str,
        args: &[&str],
        xmx_mb: u32,
        package: &str,
        uid: u32,
    ) -> Jvm {
        use std::os::unix::fs::PermissionsExt;
        use std::os::unix::process::CommandExt;
        let mut java = java(source, classes, class, args, xmx_mb);
        for dir in [Some(classes), classes.parent()].into_iter().flatten() {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).expect("opening the classes");
        }
        java.arg0(package).current_dir("/").uid(uid).gid(uid);
        Jvm::run(java)
    }

    /// Starts `java` and waits for the program's first line.
    fn run(mut java: Command) -> Jvm {
        let mut child = java.stdout(Stdio::piped()).spawn().expect("java (OpenJDK 17)");
        // Any attach socket at this pid is a dead JVM's: this one makes its own on first attach.
        forget_attach_socket(child.id());
        let mut first_line = String::new();
        let out = child.stdout.take().expect("the JVM's stdout");
        BufReader::new(out).read_line(&mut first_line).expect("the program's first line");
        Jvm { child, first_line }
    }

    /// Its pid.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Jvm {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        forget_attach_socket(self.child.id());
    }
}

/// Removes `/tmp/.java_pid<pid>`, the attach socket of a JVM that had that pid. A JVM killed with
/// SIGKILL cannot remove its own, pids come round again (`pid_max` is 32,768 on this project's
/// machines), and `jcmd` or the agent then finds a socket nobody listens on instead of asking the
/// new JVM to open one: the attach fails (seen in a local CI run, in the Perfetto test through the
/// test phone).
pub fn forget_attach_socket(pid: u32) {
    let _ = std::fs::remove_file(format!("/tmp/.java_pid{pid}"));
}

/// Compiles `source` into `classes`; the `java` command that runs `class args` from them.
fn java(source: &str, classes: &Path, class: &str, args: &[&str], xmx_mb: u32) -> Command {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(source);
    let ok = Command::new("javac").arg("-d").arg(classes).arg(&src).status().expect("javac (OpenJDK 17)");
    assert!(ok.success(), "javac {}", src.display());
    let mut java = Command::new("java");
    java.arg(format!("-Xmx{xmx_mb}m")).args(["-XX:+UseSerialGC", "-cp"]).arg(classes).arg(class).args(args);
    java
}

/// Compiles `tests/java/Holders.java` into `dir` and runs it: `dir/holders.hprof`, a heap whose
/// 4,500 sessions are held by three known holders (3,000 / 1,000 / 500). Made once per `dir`.
pub fn holders_dump(dir: &Path) -> std::path::PathBuf {
    let out = dir.join("holders.hprof");
    if out.exists() {
        return out;
    }
    std::fs::create_dir_all(dir).expect("the dump's directory");
    let part = dir.join("holders.part.hprof");
    let _ = std::fs::remove_file(&part);
    let ok = java("tests/java/Holders.java", dir, "Holders", &[part.to_str().expect("a UTF-8 path")], 256).status();
    assert!(ok.is_ok_and(|s| s.success()), "Holders");
    std::fs::rename(&part, &out).expect("the dump renamed");
    out
}

/// Compiles `tests/java/StuckFinalizer.java` into `dir` and runs it in `mode` (`stuck`: the
/// finalizer thread blocked, `n` objects of `StuckFinalizer$Pending` waiting to be finalized;
/// `drained`: the same objects finalized and gone): `dir/MODE.hprof`. Made once per `dir`.
pub fn finalizer_dump(dir: &Path, mode: &str, n: u32) -> std::path::PathBuf {
    let out = dir.join(format!("{mode}.hprof"));
    if out.exists() {
        return out;
    }
    std::fs::create_dir_all(dir).expect("the dump's directory");
    let part = dir.join(format!("{mode}.part.hprof"));
    let _ = std::fs::remove_file(&part);
    let args = [mode, &n.to_string(), part.to_str().expect("a UTF-8 path")].map(String::from);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let ok = java("tests/java/StuckFinalizer.java", dir, "StuckFinalizer", &args, 256).status();
    assert!(ok.is_ok_and(|s| s.success()), "StuckFinalizer {mode}");
    std::fs::rename(&part, &out).expect("the dump renamed");
    out
}

/// Compiles `tests/java/LeakyApp.java` and its plugin into `dir` and runs it once per entry of
/// `runs` (mode `leaky` or `clean`, the dump's name without `.hprof`, the number of sessions),
/// each writing `dir/NAME.hprof` of itself. Panics (the test fails) when a step does.
pub fn leaky_app_dumps(dir: &Path, runs: &[(&str, &str, u32)]) {
    let _ = std::fs::remove_dir_all(dir);
    let made = std::fs::create_dir_all(dir.join("plugin"));
    assert!(made.is_ok(), "{}: {made:?}", dir.display());
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../java");
    for (file, out) in [("LeakyApp.java", "app"), ("Plugin.java", "plugin")] {
        let ok = Command::new("javac").arg("-d").arg(dir.join(out)).arg(src.join(file)).status();
        assert!(ok.is_ok_and(|s| s.success()), "javac {file}");
    }
    for &(mode, name, sessions) in runs {
        let ok = Command::new("java")
            .arg("-cp")
            .arg(dir.join("app"))
            .args(["LeakyApp", mode])
            .arg(dir.join(format!("{name}.hprof")))
            .arg(dir.join("plugin"))
            .arg(sessions.to_string())
            .status();
        assert!(ok.is_ok_and(|s| s.success()), "LeakyApp {mode} {name}");
    }
}
