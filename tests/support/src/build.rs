//! Building the workspace's other artifacts a test needs (the agent for a phone's CPU, the fork
//! dump's library, the test double of libart) and finding them where cargo put them: cargo's
//! own report of each artifact, so `CARGO_TARGET_DIR`, `build.target-dir` and `--target` all
//! hold.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Makes sure rustup has the standard library for `triple`, adding it when missing (what a
/// fresh machine lacks for the phone's agent builds). A toolchain without rustup is left alone:
/// cargo then says what is missing. The armv7 build's linker is no Rust target's to add: without
/// it, this says which Debian packages bring it.
pub fn ensure_target(triple: &str) {
    if triple == "armv7-unknown-linux-gnueabihf" {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let gcc = std::env::split_paths(&path).any(|d| d.join("arm-linux-gnueabihf-gcc").is_file());
        assert!(
            gcc,
            "the armv7 agent is linked by arm-linux-gnueabihf-gcc against a static glibc (.cargo/config.toml): \
             apt-get install gcc-arm-linux-gnueabihf libc6-dev-armhf-cross (./run-tests does)"
        );
    }
    let Ok(out) = Command::new("rustup").args(["target", "list", "--installed"]).output() else { return };
    if String::from_utf8_lossy(&out.stdout).lines().any(|l| l.trim() == triple) {
        return;
    }
    let st = Command::new("rustup").args(["target", "add", triple]).status();
    assert!(st.is_ok_and(|s| s.success()), "`rustup target add {triple}` failed: run it, then the tests again");
}

/// Runs `cargo build ARGS` in the repository and returns the files of every artifact it built
/// or found up to date, as cargo reports them.
pub fn cargo_build(args: &[&str]) -> Vec<PathBuf> {
    let out = Command::new(env!("CARGO"))
        .arg("build")
        .args(args)
        .arg("--message-format=json-render-diagnostics")
        .current_dir(root())
        .output()
        .expect("cargo");
    assert!(out.status.success(), "cargo build {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["reason"] == "compiler-artifact")
        .flat_map(|v| {
            let mut files: Vec<PathBuf> =
                v["filenames"].as_array().into_iter().flatten().filter_map(|f| f.as_str()).map(PathBuf::from).collect();
            if let Some(exe) = v["executable"].as_str() {
                files.push(PathBuf::from(exe));
            }
            files
        })
        .collect()
}

/// Builds with `args` and returns the artifact whose file is named `file`.
pub fn built(args: &[&str], file: &str) -> PathBuf {
    let files = cargo_build(args);
    let found = files.iter().find(|f| f.file_name().is_some_and(|n| n == file)).cloned();
    assert!(found.is_some(), "cargo build {} made no {file} (it made {files:?})", args.join(" "));
    found.unwrap_or_default()
}

/// Where a program that the test phone's other uids run is placed: a copy of `program` in a
/// root-owned folder that every uid may read and run and only root may change
/// (`/var/cache/heaptui-test/bin/<its SHA-256>/`), the rule the real ART follows. A checkout or a
/// target directory may sit under a folder only its owner may enter (`/root` is 0700), where the
/// phone's `shell` and app uids could not run it. Not root (no other uids to run as): `program`
/// itself.
pub fn for_every_uid(program: &Path) -> PathBuf {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return program.to_path_buf();
    }
    use std::os::unix::fs::PermissionsExt;
    let bytes = std::fs::read(program).expect("the program to place for every uid");
    let out = Command::new("sha256sum").arg(program).output().expect("sha256sum");
    let hash: String = String::from_utf8_lossy(&out.stdout).chars().take(16).collect();
    let dir = Path::new("/var/cache/heaptui-test/bin").join(hash);
    let name = program.file_name().expect("a program's file name");
    let placed = dir.join(name);
    if std::fs::read(&placed).is_ok_and(|b| b == bytes) {
        return placed;
    }
    for d in [Path::new("/var/cache/heaptui-test"), Path::new("/var/cache/heaptui-test/bin"), dir.as_path()] {
        std::fs::create_dir_all(d).expect("/var/cache/heaptui-test/bin");
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).expect("a folder's mode");
    }
    let part = dir.join(format!(".{}.{}.part", name.to_string_lossy(), std::process::id()));
    std::fs::write(&part, &bytes).expect("the program's copy");
    std::fs::set_permissions(&part, std::fs::Permissions::from_mode(0o755)).expect("the copy's mode");
    std::fs::rename(&part, &placed).expect("the copy in place");
    placed
}

/// The fork dump's library (`libforkdump.so`) as the tests load it: this machine's build, with
/// its test hooks (`forkdump`'s `test-hooks` feature: a widened window before `fork` and an
/// earlier sequence, each only when a test's environment asks).
pub fn forkdump_library() -> PathBuf {
    built(&["-p", "heaptui-forkdump", "--features", "test-hooks"], "libforkdump.so")
}
