//! Symbol lookup against the real Android 11 `libart.so` of Debian's `android-libart` package,
//! each path of the lookup exercised: the library as shipped (`.gnu.hash`), with `.gnu.hash`
//! removed (`.hash`), with a symbol only in `.symtab`, and with that `.symtab` moved into an
//! xz-compressed MiniDebugInfo (`.gnu_debugdata`), as Android's build makes it. The variants are
//! made with binutils' `objcopy` and `xz`; the expected values are what binutils' `readelf` says.

use std::path::{Path, PathBuf};
use std::process::Command;

use forkdump::art::*;
use forkdump::elf::{Library, Source};
use forkdump::plan::{Plan, Sequence};
use test_support::libart::{debian_14, device_shaped, readelf as readelf_of, xz_blocks, Shape, DEBIAN_11};

const LIBART: &str = DEBIAN_11;
/// The address given to the symbol only `.symtab` holds: `Hprof::Dump`'s in this build (any
/// value would do; this one is plausible).
const HIDDEN: &str = "heaptui_hidden_hprof_dump";

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// `readelf`'s value of `name` in `lib` (`--dyn-syms` or `--syms`).
fn readelf(lib: &Path, table: &str, name: &str) -> u64 {
    readelf_of(lib, table, name).unwrap_or_else(|| panic!("{name} in {table}")).0
}

/// The library as if linked with `--hash-style=sysv`: its `.gnu.hash` section typed PROGBITS and
/// its DT_GNU_HASH entry turned into DT_DEBUG, so nothing finds the GNU table (removing the
/// section with objcopy would leave DT_GNU_HASH pointing at other bytes). 64-bit little-endian.
fn sysv_only(elf: &[u8]) -> Vec<u8> {
    let mut b = elf.to_vec();
    let u16_at = |b: &[u8], at: usize| u16::from_le_bytes([b[at], b[at + 1]]) as usize;
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let u64_at = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize;
    let (shoff, shentsize, shnum) = (u64_at(&b, 0x28), u16_at(&b, 0x3a), u16_at(&b, 0x3c));
    let mut patched = (false, false);
    for i in 0..shnum {
        let h = shoff + i * shentsize;
        match u32_at(&b, h + 4) {
            0x6fff_fff6 => {
                b[h + 4..h + 8].copy_from_slice(&1u32.to_le_bytes());
                patched.0 = true;
            }
            6 => {
                let (off, size) = (u64_at(&b, h + 0x18), u64_at(&b, h + 0x20));
                for e in (off..off + size).step_by(16) {
                    if u64_at(&b, e) == 0x6fff_fef5 {
                        b[e..e + 8].copy_from_slice(&21u64.to_le_bytes());
                        patched.1 = true;
                    }
                }
            }
            _ => {}
        }
    }
    assert_eq!(patched, (true, true), "libart.so has .gnu.hash and DT_GNU_HASH");
    b
}

/// The library at `lib` with the middle of its `.gnu_debugdata` (the compressed stream) garbled.
fn garbled_mini_debug_info(lib: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(lib).unwrap();
    let elf = goblin::elf::Elf::parse(&bytes).unwrap();
    let sh = elf
        .section_headers
        .iter()
        .find(|h| elf.shdr_strtab.get_at(h.sh_name) == Some(".gnu_debugdata"))
        .unwrap()
        .clone();
    drop(elf);
    let (start, len) = (sh.sh_offset as usize, sh.sh_size as usize);
    for b in &mut bytes[start + len / 3..start + len / 2] {
        *b = 0x55;
    }
    bytes
}

fn variants(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let sysv = dir.join("sysv.so");
    std::fs::write(&sysv, sysv_only(&std::fs::read(LIBART).unwrap())).unwrap();
    let hidden = readelf(Path::new(LIBART), "--dyn-syms", forkdump::art::HPROF_DUMP);
    let symtab = dir.join("symtab.so");
    run(Command::new("objcopy")
        .arg(format!("--add-symbol={HIDDEN}={hidden:#x},function,global"))
        .arg(LIBART)
        .arg(&symtab));
    // MiniDebugInfo: the symbol table alone, xz-compressed, in .gnu_debugdata of the library as
    // shipped (which has no .symtab).
    let debug = dir.join("mini.debug");
    run(Command::new("objcopy").args(["--only-keep-debug"]).arg(&symtab).arg(&debug));
    run(Command::new("xz").arg("-k").arg(&debug));
    let mini = dir.join("mini.so");
    run(Command::new("objcopy")
        .arg(format!("--add-section=.gnu_debugdata={}.xz", debug.display()))
        .arg(LIBART)
        .arg(&mini));
    (sysv, symtab, mini)
}

#[test]
fn finds_arts_symbols_by_every_path() {
    assert!(Path::new(LIBART).exists(), "install Debian's android-libart (apt-get install android-libart)");
    let dir = tempfile::tempdir().unwrap();
    let (sysv, symtab, mini) = variants(dir.path());
    let names = [
        forkdump::art::DUMP_HEAP,
        forkdump::art::HPROF_DUMP,
        forkdump::art::HPROF_DTOR,
        forkdump::art::SUSPEND_ALL,
        forkdump::art::RESUME_ALL,
    ];

    let shipped = std::fs::read(LIBART).unwrap();
    let lib = Library::parse(&shipped).unwrap();
    assert!(lib.is_64());
    for name in names {
        let s = lib.lookup(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!((s.value, s.source), (readelf(Path::new(LIBART), "--dyn-syms", name), Source::GnuHash), "{name}");
    }
    // Android 11 has no Dbg::SuspendVM: the fork dump must take ScopedSuspendAll; its Hprof
    // constructor, Dump and D2 destructor are all exported, so the child dumps with the object.
    assert_eq!(lib.lookup(forkdump::art::DBG_SUSPEND), None);
    // Android 11 has no Dbg::SuspendVM; DumpHeap is exported, which is how the sequence is
    // inferred without an SDK level.
    let plan = forkdump::plan::Plan::of(&lib, None);
    assert_eq!((plan.sequence, plan.dump_name()), (Sequence::ReleaseMutator, Some("DumpHeap")));
    assert_eq!(lib.lookup(HIDDEN), None);

    let bytes = std::fs::read(&sysv).unwrap();
    let lib = Library::parse(&bytes).unwrap();
    for name in names {
        let s = lib.lookup(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!((s.value, s.source), (readelf(&sysv, "--dyn-syms", name), Source::SysvHash), "{name}");
    }
    assert_eq!(lib.lookup("_ZN3art3Dbg9SuspendVMEv"), None);

    let bytes = std::fs::read(&symtab).unwrap();
    let lib = Library::parse(&bytes).unwrap();
    let s = lib.lookup(HIDDEN).unwrap();
    assert_eq!((s.value, s.source), (readelf(&symtab, "--syms", HIDDEN), Source::Symtab));
    // Exported names still come from .dynsym.
    assert_eq!(lib.lookup(forkdump::art::DUMP_HEAP).unwrap().source, Source::GnuHash);

    let bytes = std::fs::read(&mini).unwrap();
    let lib = Library::parse(&bytes).unwrap();
    let s = lib.lookup(HIDDEN).unwrap();
    assert_eq!((s.value, s.source), (readelf(&symtab, "--syms", HIDDEN), Source::MiniDebugInfo));
    assert_eq!(lib.lookup("no_such_symbol_anywhere"), None);
}

/// Each table stands alone: a library whose MiniDebugInfo is corrupt (its xz bytes cut short) still
/// answers from `.dynsym`, loses only what the MiniDebugInfo alone held, and says why.
#[test]
fn a_broken_mini_debug_info_loses_only_its_own_names() {
    let dir = tempfile::tempdir().unwrap();
    let (_sysv, _symtab, mini) = variants(dir.path());
    let bytes = garbled_mini_debug_info(&mini);
    let lib = Library::parse(&bytes).unwrap();
    assert!(lib.mini_debug_info_error().is_some());
    let plan = forkdump::plan::Plan::of(&lib, None);
    assert!(plan.mini_debug_info.is_some());
    assert_eq!(lib.lookup(forkdump::art::DUMP_HEAP).unwrap().source, Source::GnuHash);
    assert_eq!(lib.lookup(HIDDEN), None);
}

/// Debian's builds of Android 11 and 14: the sequence of the release, every symbol it and
/// `DumpHeap` need, each where `readelf` puts it; asked for another release's sequence, the
/// plan names what the library lacks.
#[test]
fn android_11_and_14_take_their_releases_sequence() {
    let art14 = debian_14();
    for (lib, sdk) in [(Path::new(DEBIAN_11), 30), (art14.as_path(), 34)] {
        let bytes = std::fs::read(lib).unwrap();
        let l = Library::parse(&bytes).unwrap();
        for asked in [Some(sdk), None] {
            let plan = Plan::of(&l, asked);
            assert_eq!(plan.sequence, Sequence::ReleaseMutator, "{} {asked:?}", lib.display());
            assert!(plan.ready(), "{}: missing {:?}", lib.display(), plan.missing);
            assert_eq!(plan.dump_name(), Some("DumpHeap"));
            for &name in Sequence::ReleaseMutator.needs().iter().chain([&DUMP_HEAP]) {
                assert!(plan.uses(name));
                let (value, _) = readelf_of(lib, "--dyn-syms", name).unwrap_or_else(|| panic!("{name}"));
                assert_eq!(plan.at(name), Some(value), "{name} in {}", lib.display());
                assert_eq!(l.lookup(name).unwrap().source, Source::GnuHash, "{name}");
            }
        }
        // 15's sequence needs thread_list_lock_ and Mutex, which both builds export.
        assert!(Plan::of(&l, Some(35)).ready());
        // 8-10's needs Dbg::SuspendVM, gone since 11: the plan says which names are missing.
        let old = Plan::of(&l, Some(29));
        assert_eq!((old.sequence, old.missing.clone()), (Sequence::Debugger, vec![DBG_SUSPEND, DBG_RESUME]));
    }
}

/// A library shaped as a phone's: `DumpHeap` and the `Hprof` object hidden (as ART's 2024
/// `HIDDEN` macros hide them), the MiniDebugInfo in `create_minidebuginfo`'s layout holding
/// `DumpHeap` and `Hprof::Dump` (not the constructor, which 14 inlines) among 4000 others in
/// several xz blocks. Without an SDK level the plan infers 15's sequence (`DumpHeap` not
/// exported) and finds `DumpHeap` in `.gnu_debugdata` at the real build's address; a
/// MiniDebugInfo that does not decompress loses `DumpHeap` alone, and the plan names it.
#[test]
fn a_device_shaped_library_is_read_through_its_mini_debug_info() {
    let art14 = debian_14();
    let dir = tempfile::tempdir().unwrap();
    let shaped = dir.path().join("libart15.so");
    let hidden = [DUMP_HEAP, HPROF_CTOR, HPROF_DUMP, HPROF_DTOR];
    device_shaped(&art14, &Shape { hide: &hidden, mini: &[DUMP_HEAP, HPROF_DUMP, HPROF_DTOR], filler: 4000 }, &shaped);
    assert!(xz_blocks(&dir.path().join("libart15.so.mdi.xz")) > 1, "a MiniDebugInfo of several blocks");
    let bytes = std::fs::read(&shaped).unwrap();
    let lib = Library::parse(&bytes).unwrap();
    assert!(lib.mini_debug_info_error().is_none(), "{:?}", lib.mini_debug_info_error());
    for name in hidden {
        assert_eq!(readelf_of(&shaped, "--dyn-syms", name), None, "{name} hidden");
    }
    let plan = Plan::of(&lib, None);
    assert_eq!(plan.sequence, Sequence::ThreadListLock);
    assert!(plan.ready(), "missing {:?}", plan.missing);
    assert_eq!(plan.dump_name(), Some("DumpHeap"));
    let s = lib.lookup(DUMP_HEAP).unwrap();
    assert_eq!((s.value, s.source), (readelf_of(&art14, "--dyn-syms", DUMP_HEAP).unwrap().0, Source::MiniDebugInfo));
    assert_eq!(lib.lookup(HPROF_DUMP).unwrap().source, Source::MiniDebugInfo);
    assert_eq!(lib.lookup(HPROF_CTOR), None, "the constructor is in no table");
    for &name in Sequence::ThreadListLock.needs() {
        assert_eq!(lib.lookup(name).map(|s| s.source), Some(Source::GnuHash), "{name}");
    }
    // With the SDK level the same.
    assert_eq!(Plan::of(&lib, Some(35)).sequence, Sequence::ThreadListLock);

    // 14 QPR2's shape: the Hprof constructor gone, DumpHeap still exported.
    let qpr2 = dir.path().join("libart14.so");
    device_shaped(&art14, &Shape { hide: &[HPROF_CTOR], mini: &[HPROF_DUMP], filler: 100 }, &qpr2);
    let bytes = std::fs::read(&qpr2).unwrap();
    let lib = Library::parse(&bytes).unwrap();
    let plan = Plan::of(&lib, Some(34));
    assert_eq!((plan.sequence, plan.dump_name(), plan.ready()), (Sequence::ReleaseMutator, Some("DumpHeap"), true));
    assert_eq!(plan.at(HPROF_CTOR), None);

    // The MiniDebugInfo garbled: only what it alone held is lost, and the plan says so.
    let bytes = garbled_mini_debug_info(&shaped);
    let lib = Library::parse(&bytes).unwrap();
    let plan = Plan::of(&lib, None);
    assert!(plan.mini_debug_info.is_some());
    assert_eq!(plan.missing, [DUMP_HEAP]);
    assert_eq!(lib.lookup(SUSPEND_ALL).unwrap().source, Source::GnuHash);
}
