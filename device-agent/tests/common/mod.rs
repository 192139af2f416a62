//! Running the agent built beside these tests, whatever CPU they are built for.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The qemu-user emulator of an ARM build (`--target aarch64-unknown-linux-musl` or
/// `armv7-unknown-linux-gnueabihf`): the runner `.cargo/config.toml` gives these tests.
const EMULATOR: Option<&str> = if cfg!(target_arch = "aarch64") {
    Some("qemu-aarch64-static")
} else if cfg!(target_arch = "arm") {
    Some("qemu-arm-static")
} else {
    None
};

/// `name` on `PATH`.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// A command running the agent with `args`. An ARM build of the tests runs here under qemu-user,
/// but what they start runs on this machine's CPU, which may refuse the agent: then it goes
/// through the same emulator, as binfmt would, whenever that is installed (on an ARM machine
/// without it, it runs directly). Decided before starting it, not from a failure: glibc's
/// `execvp` runs an executable the kernel refuses as a shell script, and under qemu-user its
/// `posix_spawn` cannot report the failure (the emulator runs its vfork as a fork), so the agent
/// would seem to start and exit 127.
pub fn agent(args: &[&str]) -> Command {
    let exe = env!("CARGO_BIN_EXE_heaptui-agent");
    let mut c = match EMULATOR.and_then(on_path) {
        Some(qemu) => {
            let mut c = Command::new(qemu);
            c.arg(exe);
            c
        }
        None => Command::new(exe),
    };
    c.args(args);
    c
}

/// 32 or 64, from the ELF class of the executable at `path`.
#[allow(dead_code)]
pub fn elf_bits(path: &Path) -> Option<u8> {
    let head = std::fs::read(path).ok()?;
    match head.get(..5)? {
        [0x7f, b'E', b'L', b'F', 1] => Some(32),
        [0x7f, b'E', b'L', b'F', 2] => Some(64),
        _ => None,
    }
}
