//! Builds what heaptui puts on phones and embeds it in the bridge, so that the one heaptui binary
//! carries it: the agent for each Android ABI, and the fork dump's library for each, linked
//! against bionic without the NDK (`build/sysroot.rs`). The builds are made by an inner cargo in
//! a target directory of their own (`build/nested.rs`), `phone` beside cargo's own directories
//! (or `HEAPTUI_PHONE_TARGET_DIR`, which lets several target directories share one).
//!
//! What a machine cannot build (a Rust target rustup cannot add, no clang, no ARM cross gcc) is
//! left out with one line saying what to install; the binary still builds, and `heaptui doctor`
//! says what it carries and lacks. `HEAPTUI_PHONE_BUILDS=off` leaves every build out (for work
//! on the engine alone, where each change to `heap` would otherwise rebuild eight of them).

#[path = "src/abis.rs"]
#[allow(dead_code)]
mod abis;
#[path = "build/nested.rs"]
mod nested;
#[path = "build/stubs.rs"]
#[allow(dead_code)]
mod stubs;
#[path = "build/sysroot.rs"]
mod sysroot;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use abis::ABIS;

/// What became of a build.
enum State {
    /// Not tried yet.
    Pending,
    /// Made, here.
    Made(PathBuf),
    /// Left out, and why.
    Lacking(String),
}

/// One build to embed.
struct Entry {
    kind: &'static str,
    abi: &'static str,
    target: &'static str,
    file: &'static str,
    state: State,
}

impl Entry {
    fn pending(&self, kind: &str) -> bool {
        self.kind == kind && matches!(self.state, State::Pending)
    }
}

fn env(key: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| panic!("cargo sets {key} for build scripts"))
}

/// cargo's target directory (the ancestor of `OUT_DIR` that holds its `CACHEDIR.TAG`), so that
/// every profile and `cargo clippy` share one set of phone builds; `OUT_DIR` itself otherwise.
fn target_dir(out: &Path) -> PathBuf {
    out.ancestors().find(|d| d.join("CACHEDIR.TAG").is_file()).unwrap_or(out).to_path_buf()
}

/// Takes an exclusive lock on `path` for the life of the process: two build scripts (two
/// profiles, or `cargo build` beside `cargo clippy`) make the link directories one at a time.
fn lock(path: &Path) -> std::fs::File {
    use std::os::fd::AsRawFd;
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // SAFETY: flock on a descriptor this function owns.
    if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } != 0 {
        panic!("locking {}: {}", path.display(), std::io::Error::last_os_error());
    }
    f
}

/// The Rust targets of `wanted` this toolchain lacks, after asking rustup (when this build runs
/// under it) to add them.
fn missing_targets(sysroot: &Path, wanted: &[&'static str]) -> Vec<&'static str> {
    let lacking = |ts: &[&'static str]| -> Vec<&'static str> {
        ts.iter().copied().filter(|t| !sysroot.join("lib/rustlib").join(t).join("lib").is_dir()).collect()
    };
    let missing = lacking(wanted);
    if missing.is_empty() || std::env::var_os("RUSTUP_TOOLCHAIN").is_none() {
        return missing;
    }
    println!("cargo:warning=adding the Rust targets {} with rustup (for the phone builds)", missing.join(" "));
    let added = Command::new("rustup").args(["target", "add"]).args(&missing).output();
    if let Ok(o) = &added {
        if !o.status.success() {
            eprintln!("{}", String::from_utf8_lossy(&o.stderr));
        }
    }
    lacking(&missing)
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn main() {
    let manifest = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let root = manifest.parent().expect("the bridge is a folder of the workspace").to_path_buf();
    let out = PathBuf::from(env("OUT_DIR"));
    let vendor = manifest.join("vendor");
    for input in ["device-agent", "forkdump", "heap", "Cargo.toml", "Cargo.lock", ".cargo/config.toml"] {
        println!("cargo:rerun-if-changed={}", root.join(input).display());
    }
    for input in ["build", "vendor", "src/abis.rs"] {
        println!("cargo:rerun-if-changed={}", manifest.join(input).display());
    }
    println!("cargo:rerun-if-env-changed=HEAPTUI_PHONE_BUILDS");
    println!("cargo:rerun-if-env-changed=HEAPTUI_CLANG");
    println!("cargo:rerun-if-env-changed=HEAPTUI_PHONE_TARGET_DIR");

    let mut entries: Vec<Entry> = Vec::new();
    for a in &ABIS {
        entries.push(Entry {
            kind: "Agent",
            abi: a.name,
            target: a.agent,
            file: "heaptui-agent",
            state: State::Pending,
        });
        entries.push(Entry {
            kind: "ForkLibrary",
            abi: a.name,
            target: a.android,
            file: "libforkdump.so",
            state: State::Pending,
        });
    }
    if std::env::var("HEAPTUI_PHONE_BUILDS").as_deref() == Ok("off") {
        for e in &mut entries {
            e.state = State::Lacking("this heaptui was built with HEAPTUI_PHONE_BUILDS=off".into());
        }
    } else {
        let dir = std::env::var_os("HEAPTUI_PHONE_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| target_dir(&out).join("phone"));
        build_all(&root, &vendor, &dir, &mut entries);
    }
    let mut lacking = false;
    for e in &entries {
        if let State::Lacking(why) = &e.state {
            println!("cargo:warning=no {} for {} in this heaptui: {why}", e.file, e.abi);
            lacking = true;
        }
    }
    if lacking && std::env::var("HEAPTUI_PHONE_BUILDS").as_deref() != Ok("off") {
        // Installing what was missing changes no input cargo watches: a path that never exists
        // makes every build run this script again until nothing is missing.
        println!("cargo:rerun-if-changed={}", out.join("until-every-phone-build-is-made").display());
    }
    write_payload(&out, &entries);
}

/// Makes every build it can, recording in `entries` what became of each.
fn build_all(root: &Path, vendor: &Path, dir: &Path, entries: &mut [Entry]) {
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let _lock = lock(&dir.join("lock"));
    let cargo = nested::Cargo::new(root, dir);
    let sysroot = cargo.sysroot().unwrap_or_else(|e| panic!("{e}"));
    let wanted: Vec<&'static str> = entries.iter().map(|e| e.target).collect();
    let missing = missing_targets(&sysroot, &wanted);
    for e in entries.iter_mut() {
        if missing.contains(&e.target) {
            e.state =
                State::Lacking(format!("the Rust target {t} is not installed: rustup target add {t}", t = e.target));
        }
    }

    // The agents: static executables; rust-lld links the musl ones (`.cargo/config.toml`),
    // Debian's ARM cross gcc the 32-bit ARM one.
    let arm_gcc = Command::new("arm-linux-gnueabihf-gcc").arg("--version").output().is_ok_and(|o| o.status.success())
        && Path::new("/usr/arm-linux-gnueabihf/lib/libc.a").is_file();
    for e in entries.iter_mut() {
        if e.pending("Agent") && e.target.starts_with("armv7") && !arm_gcc {
            e.state = State::Lacking("32-bit ARM's agent is linked by Debian's ARM cross gcc: apt install gcc-arm-linux-gnueabihf libc6-dev-armhf-cross".into());
        }
    }
    let pending = |entries: &[Entry], kind: &str| -> Vec<&'static str> {
        entries.iter().filter(|e| e.pending(kind)).map(|e| e.target).collect()
    };
    let agents = pending(entries, "Agent");
    let job = nested::Job {
        package: "heaptui-agent",
        artifact: &["--bin", "heaptui-agent"],
        targets: agents,
        config: vec![],
    };
    if let Err(e) = cargo.build(&job) {
        panic!("{e}: the agent does not build for a phone (see above)");
    }
    for e in entries.iter_mut().filter(|e| e.pending("Agent")) {
        e.state = State::Made(cargo.artifact(e.target, e.file));
    }

    // The fork dump's library: linked against bionic's stand-ins and a static libunwind, for
    // Android's own targets, each with its link directory.
    let libraries = pending(entries, "ForkLibrary");
    if libraries.is_empty() {
        return;
    }
    let host = env("HOST");
    let tools = match sysroot::Tools::find(&sysroot, &host, &dir.join("probe")) {
        Ok(t) => t,
        Err(why) => {
            for e in entries.iter_mut().filter(|e| e.pending("ForkLibrary")) {
                e.state = State::Lacking(format!("the fork dump's library is linked against bionic with clang: {why}"));
            }
            return;
        }
    };
    let mut config = Vec::new();
    for a in ABIS.iter().filter(|a| libraries.contains(&a.android)) {
        let link_dir = match sysroot::make(&tools, vendor, a, &dir.join("sysroot")) {
            Ok(d) => d,
            Err(why) => {
                for e in entries.iter_mut().filter(|e| e.pending("ForkLibrary") && e.target == a.android) {
                    e.state = State::Lacking(format!("bionic's link directory could not be made: {why}"));
                }
                continue;
            }
        };
        let flags = [
            "-L".to_string(),
            format!("native={}", link_dir.display()),
            "-C".into(),
            "link-arg=-zmax-page-size=16384".into(),
            // Every reference resolved against bionic's public symbols.
            "-C".into(),
            "link-arg=-zdefs".into(),
            "-C".into(),
            "link-arg=-soname=libforkdump.so".into(),
        ];
        let list = flags.iter().map(|f| format!("{f:?}")).collect::<Vec<_>>().join(", ");
        config.push(format!("target.{}.linker=\"rust-lld\"", a.android));
        config.push(format!("target.{}.rustflags=[{list}]", a.android));
    }
    let libraries = pending(entries, "ForkLibrary");
    let job = nested::Job { package: "heaptui-forkdump", artifact: &["--lib"], targets: libraries, config };
    if let Err(e) = cargo.build(&job) {
        panic!("{e}: the fork dump's library does not build for a phone (see above)");
    }
    for e in entries.iter_mut().filter(|e| e.pending("ForkLibrary")) {
        e.state = State::Made(cargo.artifact(e.target, e.file));
    }
}

/// Writes `builds.rs`: every build made, copied into `OUT_DIR` and included, with its SHA-256;
/// every build not made, with why.
fn write_payload(out: &Path, entries: &[Entry]) {
    let mut carried = String::new();
    let mut lacking = String::new();
    for e in entries {
        match &e.state {
            State::Made(path) => {
                let bytes = std::fs::read(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
                let copy = out.join(format!("{}-{}", e.abi, e.file));
                std::fs::write(&copy, &bytes).unwrap_or_else(|err| panic!("{}: {err}", copy.display()));
                let copy = copy.to_str().expect("cargo's OUT_DIR is UTF-8 here");
                let _ = writeln!(
                    carried,
                    "    Build {{ kind: Kind::{}, abi: {:?}, target: {:?}, file: {:?}, bytes: include_bytes!({copy:?}), sha256: {:?} }},",
                    e.kind,
                    e.abi,
                    e.target,
                    e.file,
                    sha256(&bytes)
                );
            }
            State::Lacking(why) => {
                let _ = writeln!(
                    lacking,
                    "    Lacking {{ kind: Kind::{}, abi: {:?}, target: {:?}, file: {:?}, why: {why:?} }},",
                    e.kind, e.abi, e.target, e.file
                );
            }
            State::Pending => unreachable!("every build is made or left out by now"),
        }
    }
    let text = format!(
        "// Written by bridge/build.rs.\n/// The builds this heaptui carries.\npub static CARRIED: &[Build] = &[\n{carried}];\n/// The builds it was made without, and why.\npub static LACKING: &[Lacking] = &[\n{lacking}];\n"
    );
    std::fs::write(out.join("builds.rs"), text).unwrap_or_else(|e| panic!("builds.rs: {e}"));
}
