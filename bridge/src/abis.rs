//! The Android ABIs heaptui builds for, with the Rust targets of each build: read by the build
//! script (which makes and embeds them) and by the bridge (which picks one for a phone), so the
//! two cannot disagree.

/// One Android ABI and its builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Abi {
    /// Android's name (`ro.product.cpu.abi`).
    pub name: &'static str,
    /// The agent's Rust target: a static executable that needs no loader or libc on the phone,
    /// only Linux's system calls. musl, but for 32-bit ARM static glibc (rustup has no armv7
    /// musl standard library; `.cargo/config.toml` says why that runs on a phone all the same).
    pub agent: &'static str,
    /// The Rust target of Android's own runtime: what a library loaded into an app (the fork
    /// dump's) is built for.
    pub android: &'static str,
    /// The architecture as bionic's symbol lists tag it.
    pub bionic: &'static str,
    /// clang's target for C built against bionic (without the API level).
    pub clang: &'static str,
}

/// Every ABI built for, the most common first.
pub const ABIS: [Abi; 4] = [
    Abi {
        name: "arm64-v8a",
        agent: "aarch64-unknown-linux-musl",
        android: "aarch64-linux-android",
        bionic: "arm64",
        clang: "aarch64-linux-android",
    },
    Abi {
        name: "armeabi-v7a",
        agent: "armv7-unknown-linux-gnueabihf",
        android: "armv7-linux-androideabi",
        bionic: "arm",
        clang: "armv7a-linux-androideabi",
    },
    Abi {
        name: "x86_64",
        agent: "x86_64-unknown-linux-musl",
        android: "x86_64-linux-android",
        bionic: "x86_64",
        clang: "x86_64-linux-android",
    },
    Abi {
        name: "x86",
        agent: "i686-unknown-linux-musl",
        android: "i686-linux-android",
        bionic: "x86",
        clang: "i686-linux-android",
    },
];

/// The ABI of that name.
pub fn abi(name: &str) -> Option<&'static Abi> {
    ABIS.iter().find(|a| a.name == name.trim())
}
