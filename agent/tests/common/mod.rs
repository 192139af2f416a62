//! What the agent's integration tests share.

use std::process::Command;

/// The agent built with these tests, as a command. Built for another CPU (`--target
/// aarch64-unknown-linux-musl`: the tests themselves run under qemu-user) the kernel refuses it
/// where no binfmt hands it to qemu (containers): then it runs through the CPU's qemu-user
/// emulator, as binfmt would.
pub fn agent() -> Command {
    let exe = env!("CARGO_BIN_EXE_heaptui-agent");
    // The tests run on an x86_64 machine: its own CPUs run natively, the phones' under qemu.
    let emulator = match std::env::consts::ARCH {
        "aarch64" => Some("qemu-aarch64-static"),
        "arm" => Some("qemu-arm-static"),
        _ => None,
    };
    match emulator {
        Some(qemu) => {
            let mut c = Command::new(qemu);
            c.arg(exe);
            c
        }
        None => Command::new(exe),
    }
}
