//! Real `libart.so` builds for the fork dump's symbol tests, and device-shaped variants of them.
//!
//! Debian builds ART with every symbol exported; phones do not. A device build hides most of
//! ART (`-fvisibility` and, from 2024, `HIDDEN`), keeps no `.symtab` (from 14 QPR2), and carries
//! a MiniDebugInfo made by AOSP's `create_minidebuginfo`: an xz-compressed ELF with only the
//! `.text` functions `.dynsym` lacks, all made global, sorted by address after a
//! `$android.symtab.sorted` marker, with no program headers, compressed in 32 KiB blocks.
//! [`device_shaped`] makes such a library from a real one: the names to hide are taken out of its
//! `.dynsym` (renamed in `.dynstr`, so no hash lookup finds them), and the MiniDebugInfo holds
//! what [`Shape::mini`] names, at the values the real build gives them, among thousands of
//! other functions.

// Only tests call this: a file that cannot be made is a failed test, said where it happened.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Debian 12's `android-libart`: Android 11's runtime.
pub const DEBIAN_11: &str = "/usr/lib/x86_64-linux-gnu/android/libart.so.0";

/// Debian 13's `android-libart` (Android 14's runtime), which `run-tests` fetches into the
/// user's cache (or `HEAPTUI_LIBART14` names).
pub fn debian_14() -> PathBuf {
    let path = std::env::var_os("HEAPTUI_LIBART14").map(PathBuf::from).unwrap_or_else(|| {
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache"));
        cache.join("heaptui-test/android-libart-14/libart.so.0")
    });
    assert!(path.exists(), "{} is missing: ./run-tests fetches Debian 13's android-libart", path.display());
    path
}

/// `readelf`'s value and size of `name` in `lib`'s `table` (`--dyn-syms` or `--syms`), defined
/// entries only.
pub fn readelf(lib: &Path, table: &str, name: &str) -> Option<(u64, u64)> {
    let out = Command::new("readelf").args(["-W", table]).arg(lib).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.split_whitespace().last() == Some(name) && !l.contains(" UND "))?;
    let f: Vec<&str> = line.split_whitespace().collect();
    let size = f.get(2)?;
    let size = size.strip_prefix("0x").map_or_else(|| size.parse().ok(), |h| u64::from_str_radix(h, 16).ok())?;
    Some((u64::from_str_radix(f.get(1)?, 16).ok()?, size))
}

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// What a device build does to a library.
pub struct Shape<'a> {
    /// Names taken out of `.dynsym` (hidden, as device builds hide them).
    pub hide: &'a [&'a str],
    /// Names the MiniDebugInfo holds (each must be a function of the base library).
    pub mini: &'a [&'a str],
    /// Names the MiniDebugInfo holds at another name's place: `(the base library's function,
    /// the name it is given)` (a later release's mangling of the same function).
    pub renamed: &'a [(&'a str, &'a str)],
    /// Other functions in the MiniDebugInfo, so it is the size of a real one (several blocks).
    pub filler: usize,
}

/// Makes `out` from `base` as a device build would be, with `shape`.
pub fn device_shaped(base: &Path, shape: &Shape<'_>, out: &Path) {
    let mut bytes = std::fs::read(base).unwrap();
    for name in shape.hide {
        let needle = [b"\0", name.as_bytes(), b"\0"].concat();
        let at = bytes.windows(needle.len()).position(|w| w == needle).unwrap_or_else(|| panic!("{name} in .dynstr"));
        // `_Z…` becomes `X_…`-like garbage of the same length: no lookup finds the name.
        bytes[at + 1] = b'X';
    }
    let dir = out.parent().unwrap();
    let stem = out.file_name().unwrap().to_string_lossy().to_string();
    let hidden = dir.join(format!("{stem}.hidden"));
    std::fs::write(&hidden, &bytes).unwrap();
    let (text_addr, text_size) = text_section(base);
    let mut funcs: Vec<(String, u64, u64)> = shape
        .mini
        .iter()
        .map(|n| {
            let (v, s) = readelf(base, "--dyn-syms", n).unwrap_or_else(|| panic!("{n} in {}", base.display()));
            (n.to_string(), v, s)
        })
        .chain(shape.renamed.iter().map(|(from, to)| {
            let (v, s) = readelf(base, "--dyn-syms", from).unwrap_or_else(|| panic!("{from} in {}", base.display()));
            (to.to_string(), v, s)
        }))
        .collect();
    for i in 0..shape.filler as u64 {
        let at = text_addr + (i * 64) % text_size.max(64);
        funcs.push((format!("_ZN3art8internal{i}Ev"), at, 64));
    }
    funcs.sort_by_key(|f| f.1);
    let elf = mini_debug_info(&funcs, text_addr, text_size);
    let mdi = dir.join(format!("{stem}.mdi"));
    std::fs::write(&mdi, elf).unwrap();
    // create_minidebuginfo's xz: LZMA2 at level 9, CRC32 checks, 32 KiB blocks.
    run(Command::new("xz").args(["-z", "-k", "-f", "-9", "--check=crc32", "--block-size=32KiB"]).arg(&mdi));
    run(Command::new("objcopy")
        .arg(format!("--add-section=.gnu_debugdata={}.xz", mdi.display()))
        .arg(&hidden)
        .arg(out));
}

/// The address and size of `lib`'s `.text`.
fn text_section(lib: &Path) -> (u64, u64) {
    let out = Command::new("readelf").args(["-W", "-S"]).arg(lib).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.contains(" .text ")).expect(".text");
    let f: Vec<&str> = line.split(']').nth(1).unwrap().split_whitespace().collect();
    (u64::from_str_radix(f[2], 16).unwrap(), u64::from_str_radix(f[4], 16).unwrap())
}

/// An ELF in `create_minidebuginfo`'s layout: `ET_DYN`, no program headers; sections NULL,
/// `.text` (NOBITS, the library's address and size), `.strtab`, `.symtab` (the null entry, the
/// marker, then the functions, global, in address order), `.shstrtab`. x86-64, little-endian.
pub fn mini_debug_info(funcs: &[(String, u64, u64)], text_addr: u64, text_size: u64) -> Vec<u8> {
    let mut strtab = b"\0$android.symtab.sorted\0".to_vec();
    let mut symtab = vec![0u8; 24];
    let sym = |name: u32, info: u8, shndx: u16, value: u64, size: u64| {
        let mut e = Vec::with_capacity(24);
        e.extend_from_slice(&name.to_le_bytes());
        e.push(info);
        e.push(0);
        e.extend_from_slice(&shndx.to_le_bytes());
        e.extend_from_slice(&value.to_le_bytes());
        e.extend_from_slice(&size.to_le_bytes());
        e
    };
    // STB_GLOBAL STT_NOTYPE, undefined, 0: the marker that says the table is sorted.
    symtab.extend(sym(1, 0x10, 0, 0, 0));
    for (name, value, size) in funcs {
        let at = strtab.len() as u32;
        strtab.extend_from_slice(name.as_bytes());
        strtab.push(0);
        // STB_GLOBAL STT_FUNC in .text (section 1).
        symtab.extend(sym(at, 0x12, 1, *value, *size));
    }
    let shstrtab = b"\0.text\0.strtab\0.symtab\0.shstrtab\0".to_vec();
    let mut out = vec![0u8; 64];
    let place = |out: &mut Vec<u8>, data: &[u8]| {
        while !out.len().is_multiple_of(8) {
            out.push(0);
        }
        let at = out.len() as u64;
        out.extend_from_slice(data);
        at
    };
    let strtab_at = place(&mut out, &strtab);
    let symtab_at = place(&mut out, &symtab);
    let shstrtab_at = place(&mut out, &shstrtab);
    while !out.len().is_multiple_of(8) {
        out.push(0);
    }
    let shoff = out.len() as u64;
    #[allow(clippy::too_many_arguments)]
    fn header(
        out: &mut Vec<u8>,
        name: u32,
        kind: u32,
        flags: u64,
        addr: u64,
        offset: u64,
        size: u64,
        link: u32,
        info: u32,
        align: u64,
        entsize: u64,
    ) {
        out.extend_from_slice(&name.to_le_bytes());
        out.extend_from_slice(&kind.to_le_bytes());
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(&addr.to_le_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&link.to_le_bytes());
        out.extend_from_slice(&info.to_le_bytes());
        out.extend_from_slice(&align.to_le_bytes());
        out.extend_from_slice(&entsize.to_le_bytes());
    }
    header(&mut out, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    // .text: SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR.
    header(&mut out, 1, 8, 6, text_addr, 0, text_size, 0, 0, 16, 0);
    header(&mut out, 7, 3, 0, 0, strtab_at, strtab.len() as u64, 0, 0, 1, 0);
    // .symtab: linked to .strtab (2); the first global is entry 1 (the marker).
    header(&mut out, 15, 2, 0, 0, symtab_at, symtab.len() as u64, 2, 1, 8, 24);
    header(&mut out, 23, 3, 0, 0, shstrtab_at, shstrtab.len() as u64, 0, 0, 1, 0);
    let mut h = Vec::with_capacity(64);
    h.extend_from_slice(b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0");
    h.extend_from_slice(&3u16.to_le_bytes()); // ET_DYN
    h.extend_from_slice(&62u16.to_le_bytes()); // EM_X86_64
    h.extend_from_slice(&1u32.to_le_bytes());
    h.extend_from_slice(&0u64.to_le_bytes()); // entry
    h.extend_from_slice(&0u64.to_le_bytes()); // no program headers
    h.extend_from_slice(&shoff.to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    h.extend_from_slice(&64u16.to_le_bytes());
    h.extend_from_slice(&56u16.to_le_bytes());
    h.extend_from_slice(&0u16.to_le_bytes());
    h.extend_from_slice(&64u16.to_le_bytes());
    h.extend_from_slice(&5u16.to_le_bytes());
    h.extend_from_slice(&4u16.to_le_bytes());
    out[..64].copy_from_slice(&h);
    out
}

/// How many blocks an xz file has (`xz --list --robot`).
pub fn xz_blocks(file: &Path) -> u64 {
    let out = Command::new("xz").args(["--list", "--robot"]).arg(file).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.starts_with("totals")).expect("xz --list totals");
    line.split('\t').nth(2).unwrap().parse().unwrap()
}
