//! A link directory per Android ABI without the NDK: bionic's stand-in libraries (`libc.so`,
//! `libdl.so`, `libm.so`, `liblog.so`, from the symbol lists in `vendor/bionic`, compiled by
//! clang and linked by the `rust-lld` rustup ships) and LLVM's libunwind as a static, hidden
//! `libunwind.a` (from `vendor/libunwind`, against bionic's headers). Rust's Android standard
//! library links `-lunwind`; without a static unwinder its `_Unwind_*` functions would be
//! imports that bionic's libc exports only from API 30, and the fork dump's library must load on
//! Android 8.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::abis::Abi;
use super::stubs;

/// The API level everything is linked for: Rust's Android targets' own minimum.
pub const API: u32 = 21;

/// Bumped when what this file makes changes, so an old link directory is made again.
const FORMAT: &str = "sysroot 1";

/// The programs a link directory is made with.
pub struct Tools {
    clang: PathBuf,
    ar: PathBuf,
    lld: PathBuf,
    /// What identifies them, for the stamp.
    versions: String,
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{:?}: {e}", cmd.get_program()))?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let tail: Vec<&str> = err.lines().rev().take(12).collect();
    Err(format!(
        "{:?} {:?} failed ({}): {}",
        cmd.get_program(),
        cmd.get_args().collect::<Vec<_>>(),
        out.status,
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    ))
}

fn version_of(program: &Path) -> Option<String> {
    let out = Command::new(program).arg("--version").output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").to_string())
}

/// A clang that compiles C for Android's targets: `HEAPTUI_CLANG`, else `clang`, else the
/// newest versioned Debian one. Tried on a one-line file, as the stubs are compiled.
fn clang(scratch: &Path) -> Result<(PathBuf, String), String> {
    let named = std::env::var_os("HEAPTUI_CLANG").map(PathBuf::from);
    let candidates: Vec<PathBuf> = match named {
        Some(p) => vec![p],
        None => std::iter::once("clang".to_string())
            .chain((14..=22).rev().map(|v| format!("clang-{v}")))
            .map(PathBuf::from)
            .collect(),
    };
    std::fs::create_dir_all(scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let probe = scratch.join("probe.c");
    std::fs::write(&probe, "int probe(void) { return 0; }\n").map_err(|e| format!("{}: {e}", probe.display()))?;
    for c in candidates {
        let Some(version) = version_of(&c) else { continue };
        let ok = run(Command::new(&c)
            .arg(format!("--target=aarch64-linux-android{API}"))
            .args(["-ffreestanding", "-c"])
            .arg(&probe)
            .arg("-o")
            .arg(scratch.join("probe.o")));
        if ok.is_ok() {
            return Ok((c, version));
        }
    }
    Err("no clang that compiles for Android; install one (Debian: apt install clang-14) or name it with HEAPTUI_CLANG"
        .to_string())
}

impl Tools {
    /// clang, an archiver and rustup's `rust-lld` (in the toolchain's own `bin`).
    pub fn find(rustc_sysroot: &Path, host: &str, scratch: &Path) -> Result<Tools, String> {
        let (clang, clang_version) = clang(scratch)?;
        // llvm-ar beside a versioned clang, else binutils' ar (a dependency of Debian's clang):
        // both index archives of any ELF machine.
        let ar = clang
            .to_str()
            .and_then(|c| c.strip_prefix("clang"))
            .map(|suffix| PathBuf::from(format!("llvm-ar{suffix}")))
            .filter(|a| version_of(a).is_some())
            .unwrap_or_else(|| PathBuf::from("ar"));
        let lld = rustc_sysroot.join("lib/rustlib").join(host).join("bin/rust-lld");
        if !lld.is_file() {
            return Err(format!("no rust-lld at {} (rustup ships it with every toolchain)", lld.display()));
        }
        let versions = format!("{clang_version}\n{}\n{}", ar.display(), lld.display());
        Ok(Tools { clang, ar, lld, versions })
    }
}

/// Every file under `dir`, sorted, with its bytes hashed into `h`.
fn hash_tree(dir: &Path, h: &mut impl sha2::Digest) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if e.file_type()?.is_dir() {
            hash_tree(&p, h)?;
        } else {
            h.update(p.to_string_lossy().as_bytes());
            h.update(std::fs::read(&p)?);
        }
    }
    Ok(())
}

/// The libunwind sources compiled, as LLVM's own build compiles them for Android.
const UNWIND_SOURCES: [&str; 7] = [
    "libunwind.cpp",
    "Unwind-EHABI.cpp",
    "UnwindLevel1.c",
    "UnwindLevel1-gcc-ext.c",
    "Unwind-sjlj.c",
    "UnwindRegistersRestore.S",
    "UnwindRegistersSave.S",
];

/// Makes (or finds up to date) the link directory of `abi` in `out`: what
/// `-L native=` names when the fork dump's library is linked for it.
pub fn make(tools: &Tools, vendor: &Path, abi: &Abi, out: &Path) -> Result<PathBuf, String> {
    let dir = out.join(abi.bionic);
    let stamp = {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(FORMAT.as_bytes());
        h.update(tools.versions.as_bytes());
        h.update(abi.name.as_bytes());
        hash_tree(vendor, &mut h).map_err(|e| format!("{}: {e}", vendor.display()))?;
        h.finalize().iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    let stamp_file = dir.join("stamp");
    if std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(stamp.as_str()) {
        return Ok(dir);
    }
    let work = out.join(format!("work-{}", abi.bionic));
    for d in [&dir, &work] {
        let _ = std::fs::remove_dir_all(d);
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let target = format!("--target={}{API}", abi.clang);
    let bionic = vendor.join("bionic");
    for (lib, map) in [
        ("libc", "libc/libc.map.txt"),
        ("libdl", "libdl/libdl.map.txt"),
        ("libm", "libm/libm.map.txt"),
        ("liblog", "liblog/liblog.map.txt"),
    ] {
        let text = std::fs::read_to_string(bionic.join(map)).map_err(|e| format!("{map}: {e}"))?;
        let stub = stubs::stub(&text, abi.bionic, API).map_err(|e| format!("{map}: {e}"))?;
        let (c, script, obj) =
            (work.join(format!("{lib}.c")), work.join(format!("{lib}.map")), work.join(format!("{lib}.o")));
        std::fs::write(&c, &stub.c).map_err(|e| format!("{}: {e}", c.display()))?;
        std::fs::write(&script, &stub.script).map_err(|e| format!("{}: {e}", script.display()))?;
        run(Command::new(&tools.clang)
            .arg(&target)
            .args(["-fPIC", "-fno-builtin", "-ffreestanding", "-w", "-O0", "-c"])
            .arg(&c)
            .arg("-o")
            .arg(&obj))?;
        run(Command::new(&tools.lld)
            .args(["-flavor", "gnu", "-shared", "-nostdlib", "-soname"])
            .arg(format!("{lib}.so"))
            .arg("--version-script")
            .arg(&script)
            .args(["-z", "max-page-size=16384", "--hash-style=both"])
            .arg(&obj)
            .arg("-o")
            .arg(dir.join(format!("{lib}.so"))))?;
    }

    let unwind = vendor.join("libunwind");
    let resource = Command::new(&tools.clang)
        .arg("-print-resource-dir")
        .output()
        .map_err(|e| format!("{}: {e}", tools.clang.display()))?;
    let resource = PathBuf::from(String::from_utf8_lossy(&resource.stdout).trim());
    let asm = if abi.bionic.starts_with("x86") { "x86" } else { abi.bionic };
    let mut objects = Vec::new();
    for src in UNWIND_SOURCES {
        let obj = work.join(format!("{src}.o"));
        let mut cmd = Command::new(&tools.clang);
        cmd.arg(&target).args(["-nostdinc", "-isystem"]).arg(resource.join("include"));
        for inc in
            ["libc/include", "libc/kernel/uapi", &format!("libc/kernel/uapi/asm-{asm}"), "libc/kernel/android/uapi"]
        {
            cmd.arg("-isystem").arg(bionic.join(inc));
        }
        cmd.arg("-I").arg(unwind.join("include"));
        // As LLVM builds it for the NDK: no exceptions or RTTI in the unwinder, this CPU's
        // registers only, every symbol hidden so that nothing of it is exported.
        cmd.args([
            "-fPIC",
            "-O2",
            "-funwind-tables",
            "-fno-stack-protector",
            "-w",
            "-D_LIBUNWIND_IS_NATIVE_ONLY",
            "-D_LIBUNWIND_HIDE_SYMBOLS",
            "-fvisibility=hidden",
            "-D_LIBUNWIND_DISABLE_VISIBILITY_ANNOTATIONS",
            "-DNDEBUG",
            "-D_FORTIFY_SOURCE=0",
        ]);
        if abi.bionic == "arm" {
            cmd.args(["-march=armv7-a", "-mthumb", "-mfloat-abi=softfp", "-mfpu=vfpv3-d16"]);
        }
        if src.ends_with(".cpp") {
            cmd.args(["-std=c++11", "-fno-exceptions", "-fno-rtti", "-nostdinc++"]);
        } else if src.ends_with(".c") {
            cmd.arg("-std=c99");
        }
        run(cmd.arg("-c").arg(unwind.join("src").join(src)).arg("-o").arg(&obj))?;
        objects.push(obj);
    }
    run(Command::new(&tools.ar).arg("rcs").arg(dir.join("libunwind.a")).args(&objects))?;
    std::fs::write(&stamp_file, stamp).map_err(|e| format!("{}: {e}", stamp_file.display()))?;
    let _ = std::fs::remove_dir_all(&work);
    Ok(dir)
}
