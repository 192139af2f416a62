//! What heaptui carries for phones, read by binutils' `readelf` as a phone's loader reads it:
//! every build is there (a test build carries all eight), each for its ABI's class and machine.
//! The agents are static executables (no loader, no libraries). The fork dump's libraries load
//! into an app through bionic's linker: no `PT_INTERP` or TLS segment, `DT_NEEDED` only bionic's
//! libraries, version needs only bionic's versions (no glibc), imports only symbols bionic's
//! public lists have at API 21, only `Agent_OnAttach` exported, bound at load (`BIND_NOW`),
//! no text relocations, only relocation types bionic's linker applies, and segments aligned for
//! 16 KiB pages.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use bridge::abis::ABIS;
use bridge::builds::{Build, Kind, CARRIED, LACKING};

#[path = "../build/stubs.rs"]
#[allow(dead_code)]
mod stubs;

/// `readelf -W <flags>` of `bytes`, written to a file first.
fn readelf(dir: &Path, b: &Build, flags: &[&str]) -> String {
    let path = dir.join(format!("{}-{}", b.abi, b.file));
    if !path.exists() {
        std::fs::write(&path, b.bytes).unwrap();
    }
    let out = Command::new("readelf").arg("-W").args(flags).arg(&path).output().expect("binutils' readelf");
    assert!(out.status.success(), "readelf {flags:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The class and machine `readelf -h` names for an ABI.
fn header_of(abi: &str) -> (&'static str, &'static str) {
    match abi {
        "arm64-v8a" => ("ELF64", "AArch64"),
        "armeabi-v7a" => ("ELF32", "ARM"),
        "x86_64" => ("ELF64", "Advanced Micro Devices X86-64"),
        "x86" => ("ELF32", "Intel 80386"),
        other => panic!("no ABI {other}"),
    }
}

/// The relocation types bionic's linker applies to a library without TLS or IFUNCs
/// (`linker/linker_relocs.h`, `linker_relocate.cpp`): none, jump slot, absolute, GOT entry,
/// relative. `COPY` is fatal there.
fn relocations_of(abi: &str) -> [&'static str; 5] {
    match abi {
        "arm64-v8a" => {
            ["R_AARCH64_NONE", "R_AARCH64_JUMP_SLOT", "R_AARCH64_ABS64", "R_AARCH64_GLOB_DAT", "R_AARCH64_RELATIVE"]
        }
        "armeabi-v7a" => ["R_ARM_NONE", "R_ARM_JUMP_SLOT", "R_ARM_ABS32", "R_ARM_GLOB_DAT", "R_ARM_RELATIVE"],
        "x86_64" => ["R_X86_64_NONE", "R_X86_64_JUMP_SLOT", "R_X86_64_64", "R_X86_64_GLOB_DAT", "R_X86_64_RELATIVE"],
        "x86" => ["R_386_NONE", "R_386_JUMP_SLOT", "R_386_32", "R_386_GLOB_DAT", "R_386_RELATIVE"],
        other => panic!("no ABI {other}"),
    }
}

#[test]
fn every_build_is_carried() {
    assert!(LACKING.is_empty(), "this test build lacks {LACKING:#?}: the tests need every phone build");
    let mut have: Vec<(Kind, &str)> = CARRIED.iter().map(|b| (b.kind, b.target)).collect();
    have.sort_by_key(|(k, t)| (*k as u8, t.to_string()));
    let mut want: Vec<(Kind, &str)> =
        ABIS.iter().flat_map(|a| [(Kind::Agent, a.agent), (Kind::ForkLibrary, a.android)]).collect();
    want.sort_by_key(|(k, t)| (*k as u8, t.to_string()));
    assert_eq!(have, want);
    for b in CARRIED {
        use sha2::Digest;
        let sum: String = sha2::Sha256::digest(b.bytes).iter().map(|x| format!("{x:02x}")).collect();
        assert_eq!(sum, b.sha256, "{} {}", b.abi, b.file);
    }
}

#[test]
fn the_agents_are_static_executables_of_their_abi() {
    let dir = tempfile::tempdir().unwrap();
    for b in CARRIED.iter().filter(|b| b.kind == Kind::Agent) {
        let header = readelf(dir.path(), b, &["-h"]);
        let (class, machine) = header_of(b.abi);
        assert!(header.contains(&format!("Class:                             {class}")), "{}: {header}", b.abi);
        assert!(header.contains(&format!("Machine:                           {machine}")), "{}: {header}", b.abi);
        let segments = readelf(dir.path(), b, &["-l"]);
        assert!(!segments.contains("INTERP"), "{}: no loader: {segments}", b.abi);
        let dynamic = readelf(dir.path(), b, &["-d"]);
        assert!(!dynamic.contains("(NEEDED)"), "{}: no libraries: {dynamic}", b.abi);
    }
}

#[test]
fn the_fork_libraries_load_through_bionics_linker() {
    let dir = tempfile::tempdir().unwrap();
    // What bionic exports to apps at an API level, by its own lists.
    let public = |arch: &str, api: u32| -> BTreeSet<String> {
        ["libc/libc.map.txt", "libdl/libdl.map.txt", "libm/libm.map.txt", "liblog/liblog.map.txt"]
            .iter()
            .flat_map(|m| {
                let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor/bionic").join(m));
                stubs::stub(&text.unwrap(), arch, api).unwrap().symbols
            })
            .collect()
    };
    for b in CARRIED.iter().filter(|b| b.kind == Kind::ForkLibrary) {
        let abi = b.abi;
        let arch = bridge::abis::abi(abi).unwrap().bionic;
        let (at_21, ever) = (public(arch, 21), public(arch, u32::MAX - 1));
        let header = readelf(dir.path(), b, &["-h"]);
        let (class, machine) = header_of(abi);
        assert!(header.contains(&format!("Class:                             {class}")), "{abi}: {header}");
        assert!(header.contains(&format!("Machine:                           {machine}")), "{abi}: {header}");
        assert!(header.contains("DYN (Shared object file)"), "{abi}: {header}");

        let segments = readelf(dir.path(), b, &["-l"]);
        assert!(!segments.contains("INTERP") && !segments.contains(" TLS "), "{abi}: {segments}");
        for line in segments.lines().filter(|l| l.trim_start().starts_with("LOAD")) {
            let align = line.split_whitespace().last().unwrap();
            assert_eq!(u64::from_str_radix(align.trim_start_matches("0x"), 16).unwrap(), 0x4000, "{abi}: {line}");
        }

        let dynamic = readelf(dir.path(), b, &["-d"]);
        let needed: BTreeSet<&str> = dynamic
            .lines()
            .filter(|l| l.contains("(NEEDED)"))
            .map(|l| l.rsplit('[').next().unwrap().trim_end_matches(']'))
            .collect();
        assert!(
            !needed.is_empty() && needed.iter().all(|n| ["libc.so", "libdl.so", "libm.so", "liblog.so"].contains(n)),
            "{abi}: {needed:?}"
        );
        assert!(dynamic.contains("Library soname: [libforkdump.so]"), "{abi}: {dynamic}");
        assert!(dynamic.contains("BIND_NOW") || dynamic.contains("FLAGS_1) Flags: NOW"), "{abi}: {dynamic}");
        assert!(
            !dynamic.contains("TEXTREL") && !dynamic.contains("RPATH") && !dynamic.contains("RUNPATH"),
            "{abi}: {dynamic}"
        );

        let versions = readelf(dir.path(), b, &["-V"]);
        let needs = versions.split("Version needs section").nth(1).unwrap_or("");
        for line in needs.lines().filter(|l| l.contains("Name: ")) {
            let name = line.split("Name: ").nth(1).unwrap().split_whitespace().next().unwrap();
            assert!(
                name.starts_with("LIBC") || name.starts_with("LIBLOG"),
                "{abi}: a version bionic does not have: {line}"
            );
        }
        assert!(!versions.contains("GLIBC"), "{abi}: {versions}");

        let symbols = readelf(dir.path(), b, &["--dyn-syms"]);
        let mut exported = Vec::new();
        for line in symbols.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            // Num: Value Size Type Bind Vis Ndx Name
            if f.len() < 8 || !f[0].ends_with(':') || f[0] == "Num:" {
                continue;
            }
            let name = f[7].split('@').next().unwrap();
            if f[6] == "UND" && f[4] == "WEAK" {
                // Looked up weakly (Rust's std for `getrandom`, API 28): null where bionic lacks it.
                assert!(ever.contains(name), "{abi}: imports {name} weakly, which no bionic exports");
            } else if f[6] == "UND" {
                assert!(at_21.contains(name), "{abi}: imports {name}, which bionic does not export at API 21");
            } else if f[4] != "LOCAL" {
                exported.push(name.to_string());
            }
        }
        assert_eq!(exported, ["Agent_OnAttach"], "{abi}");

        let relocations = readelf(dir.path(), b, &["-r"]);
        let allowed = relocations_of(abi);
        let mut seen = BTreeSet::new();
        for line in relocations.lines() {
            if let Some(t) = line.split_whitespace().find(|w| w.starts_with("R_")) {
                assert!(allowed.contains(&t), "{abi}: relocation {t} is not one bionic applies: {line}");
                seen.insert(t.to_string());
            }
        }
        assert!(seen.iter().any(|t| t.ends_with("_RELATIVE")), "{abi}: {seen:?}");
    }
}
