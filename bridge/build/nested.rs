//! The phone builds made by a cargo of their own, in a target directory of their own: the
//! workspace's `heaptui-agent` and `heaptui-forkdump` for phones' targets, in the `phone` profile.
//! What the outer cargo told this build script about itself (its target, flags, wrappers,
//! features, profile) is kept from the inner one, all but its jobserver, through which the two
//! share the machine's cores rather than each taking all of them.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Variables the outer cargo set for this build script, or a user set for the outer build,
/// that would change what the inner cargo builds or where.
fn inherited_by_mistake(name: &str) -> bool {
    const KEEP: [&str; 4] = ["CARGO_HOME", "CARGO_MAKEFLAGS", "CARGO_NET_OFFLINE", "CARGO_HTTP_TIMEOUT"];
    if KEEP.contains(&name) || name.starts_with("CARGO_REGISTRIES_") || name.starts_with("CARGO_NET_") {
        return false;
    }
    name.starts_with("CARGO_")
        || name.starts_with("__CARGO")
        || name.starts_with("RUSTC_")
        || matches!(
            name,
            "RUSTFLAGS"
                | "RUSTDOCFLAGS"
                | "TARGET"
                | "HOST"
                | "OUT_DIR"
                | "PROFILE"
                | "OPT_LEVEL"
                | "DEBUG"
                | "NUM_JOBS"
        )
}

/// A cargo for the workspace at `root`, building into `target_dir`.
pub struct Cargo {
    cargo: PathBuf,
    rustc: PathBuf,
    root: PathBuf,
    target_dir: PathBuf,
}

/// One inner build: a package's artifact for some targets, with extra configuration.
pub struct Job<'a> {
    /// `-p`.
    pub package: &'a str,
    /// `--bin NAME` or `--lib`.
    pub artifact: &'a [&'a str],
    /// The targets.
    pub targets: Vec<&'a str>,
    /// `--config` values.
    pub config: Vec<String>,
}

impl Cargo {
    /// The cargo and rustc that run this build script.
    pub fn new(root: &Path, target_dir: &Path) -> Cargo {
        let var = |k: &str, default: &str| std::env::var_os(k).map(PathBuf::from).unwrap_or_else(|| default.into());
        Cargo {
            cargo: var("CARGO", "cargo"),
            rustc: var("RUSTC", "rustc"),
            root: root.to_path_buf(),
            target_dir: target_dir.to_path_buf(),
        }
    }

    /// The rustc's sysroot, where each installed target has `lib/rustlib/<target>`.
    pub fn sysroot(&self) -> Result<PathBuf, String> {
        let out = Command::new(&self.rustc)
            .args(["--print", "sysroot"])
            .output()
            .map_err(|e| format!("{}: {e}", self.rustc.display()))?;
        Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
    }

    /// Where `file` of `target` lands.
    pub fn artifact(&self, target: &str, file: &str) -> PathBuf {
        self.target_dir.join(target).join("phone").join(file)
    }

    /// Runs one build; its output goes to this script's standard error (shown when it fails).
    pub fn build(&self, job: &Job) -> Result<(), String> {
        if job.targets.is_empty() {
            return Ok(());
        }
        let mut cmd = Command::new(&self.cargo);
        for (k, _) in std::env::vars_os() {
            if k.to_str().is_some_and(inherited_by_mistake) {
                cmd.env_remove(&k);
            }
        }
        cmd.current_dir(&self.root)
            .env("RUSTC", &self.rustc)
            .arg("build")
            .arg("--manifest-path")
            .arg(self.root.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(&self.target_dir)
            .args(["--profile", "phone", "--locked", "-p", job.package])
            .args(job.artifact);
        for t in &job.targets {
            cmd.args(["--target", t]);
        }
        for c in &job.config {
            cmd.arg("--config").arg(c);
        }
        // Its standard output would be read as this script's instructions to cargo.
        cmd.stdout(Stdio::null());
        let status = cmd.status().map_err(|e| format!("{}: {e}", self.cargo.display()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!(
                "`cargo build -p {} --target {}` failed ({status})",
                job.package,
                job.targets.join(" --target ")
            ))
        }
    }
}
