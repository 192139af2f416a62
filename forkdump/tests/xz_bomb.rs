//! A MiniDebugInfo that is an xz bomb: 256 MiB of zeros in 39 KB of `.gnu_debugdata` (xz packs
//! zeros some 6,700 times). The decoder stops one byte past its 64 MiB bound as it inflates,
//! the library's other tables still read, and the process's peak stays far below what the
//! whole output would take. One test in this binary, since the peak is the process's.

use std::process::Command;

use forkdump::elf::{Library, MINI_DEBUG_INFO_MAX};

#[test]
fn an_xz_bomb_stops_at_its_bound_as_it_inflates() {
    let dir = tempfile::tempdir().unwrap();
    let xz = dir.path().join("zeros.xz");
    let made = Command::new("sh")
        .arg("-c")
        .arg(format!("head -c {} /dev/zero | xz -0 -T1 > {}", 256u64 << 20, xz.display()))
        .status()
        .unwrap();
    assert!(made.success());
    assert!(std::fs::metadata(&xz).unwrap().len() < 64 << 10);
    // Any ELF will carry it: this machine's `true`.
    let lib = dir.path().join("libbomb.so");
    let out = Command::new("objcopy")
        .arg(format!("--add-section=.gnu_debugdata={}", xz.display()))
        .arg("/bin/true")
        .arg(&lib)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&lib).unwrap();
    let before = test_support::peak::own();
    let parsed = Library::parse(&bytes).unwrap();
    let e = parsed.mini_debug_info_error().expect("the bomb refused").to_string();
    assert!(e.contains(&format!("decompresses past {} MiB", MINI_DEBUG_INFO_MAX >> 20)), "{e}");
    // The dynamic symbols still read (`true` imports from libc: its table is there).
    assert!(parsed.is_64());
    // At most the bound and the decoder's dictionary above what the process held before.
    let grew = test_support::peak::own().saturating_sub(before);
    assert!(grew < (MINI_DEBUG_INFO_MAX as u64) * 2 + (16 << 20), "grew {} MB", grew >> 20);
}
