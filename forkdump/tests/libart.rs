//! Symbol lookup against the real Android 11 `libart.so` of Debian's `android-libart` package,
//! each path of the lookup exercised: the library as shipped (`.gnu.hash`), with `.gnu.hash`
//! removed (`.hash`), with a symbol only in `.symtab`, and with that `.symtab` moved into an
//! xz-compressed MiniDebugInfo (`.gnu_debugdata`), as Android's build makes it. The variants are
//! made with binutils' `objcopy` and `xz`; the expected values are what binutils' `readelf` says.

use std::path::{Path, PathBuf};
use std::process::Command;

use forkdump::art::*;
use forkdump::elf::{Library, Source};
use forkdump::plan::{Generation, Plan, Sequence};
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
    // Android 11 has no Dbg::SuspendVM and the 11–14 SuspendAllInternal: its generation, by
    // its own symbols; the one sequence, with the Hprof object on the inherited hold.
    let plan = forkdump::plan::Plan::of(&lib);
    assert_eq!((plan.sequence, plan.dump_name()), (Sequence::Hold, Some("Hprof")));
    assert_eq!(plan.generation, Generation::Art11To14);
    assert_eq!(plan.evidence, Some((SUSPEND_ALL_INTERNAL_11, Source::GnuHash)));
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
    let plan = forkdump::plan::Plan::of(&lib);
    assert!(plan.mini_debug_info.is_some());
    assert_eq!(lib.lookup(forkdump::art::DUMP_HEAP).unwrap().source, Source::GnuHash);
    assert_eq!(lib.lookup(HIDDEN), None);
}

/// Debian's builds of Android 11 and 14: the one sequence, every symbol it and the `Hprof` object need,
/// each where `readelf` puts it, the generation by the 11–14 `SuspendAllInternal`; asked for the
/// 8–10 sequence of earlier versions, the plan names what the library lacks.
#[test]
fn android_11_and_14_take_the_one_sequence() {
    let art14 = debian_14();
    for lib in [Path::new(DEBIAN_11), art14.as_path()] {
        let bytes = std::fs::read(lib).unwrap();
        let l = Library::parse(&bytes).unwrap();
        let plan = Plan::of(&l);
        assert_eq!((plan.sequence, plan.generation), (Sequence::Hold, Generation::Art11To14), "{}", lib.display());
        assert!(plan.ready(), "{}: {:?}", lib.display(), plan.refusal());
        // Both export the `Hprof` object: the child dumps with it on the hold it inherited.
        assert_eq!(plan.dump_name(), Some("Hprof"));
        assert!(!plan.uses(DUMP_HEAP));
        for &name in Sequence::Hold.needs().iter().chain([&HPROF_CTOR, &HPROF_DUMP, &HPROF_DTOR]) {
            assert!(plan.uses(name), "{name}");
            let (value, _) = readelf_of(lib, "--dyn-syms", name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(plan.at(name), Some(value), "{name} in {}", lib.display());
            assert_eq!(l.lookup(name).unwrap().source, Source::GnuHash, "{name}");
        }
        // 8-10's sequence of earlier versions needs Dbg::SuspendVM, gone since 11.
        let old = Plan::of(&l).with_sequence(Sequence::Debugger);
        assert_eq!(old.missing, vec![DBG_SUSPEND, DBG_RESUME]);
    }
}

/// A library shaped as a phone's 2024+ ART module: `DumpHeap` and the `Hprof` object hidden (as
/// ART's `HIDDEN` macros hide them), the 11–14 `SuspendAllInternal` gone and the 15 one in the
/// MiniDebugInfo only, in `create_minidebuginfo`'s layout with `DumpHeap` and `Hprof::Dump` (not
/// the constructor, which 14 inlines) among 4000 others in several xz blocks. The plan reads it
/// as a 15+ runtime by the MiniDebugInfo (whatever SDK the platform has: a 13 phone may carry
/// it) and finds `DumpHeap` there at the real build's address. A MiniDebugInfo that does not
/// decompress leaves the generation unknown: no fork dump, and the plan says why.
#[test]
fn a_device_shaped_library_is_read_through_its_mini_debug_info() {
    let art14 = debian_14();
    let dir = tempfile::tempdir().unwrap();
    let shaped = dir.path().join("libart15.so");
    let hidden = [DUMP_HEAP, HPROF_CTOR, HPROF_DUMP, HPROF_DTOR, SUSPEND_ALL_INTERNAL_11];
    let shape = Shape {
        hide: &hidden,
        mini: &[DUMP_HEAP, HPROF_DUMP, HPROF_DTOR],
        renamed: &[(SUSPEND_ALL_INTERNAL_11, SUSPEND_ALL_INTERNAL_15)],
        filler: 4000,
    };
    device_shaped(&art14, &shape, &shaped);
    assert!(xz_blocks(&dir.path().join("libart15.so.mdi.xz")) > 1, "a MiniDebugInfo of several blocks");
    let bytes = std::fs::read(&shaped).unwrap();
    let lib = Library::parse(&bytes).unwrap();
    assert!(lib.mini_debug_info_error().is_none(), "{:?}", lib.mini_debug_info_error());
    for name in hidden {
        assert_eq!(readelf_of(&shaped, "--dyn-syms", name), None, "{name} hidden");
    }
    let plan = Plan::of(&lib);
    assert_eq!((plan.sequence, plan.generation), (Sequence::Hold, Generation::Art15On));
    assert_eq!(plan.evidence, Some((SUSPEND_ALL_INTERNAL_15, Source::MiniDebugInfo)));
    assert_eq!(plan.generation.collector_type_hprof(), 15);
    assert!(plan.ready(), "{:?}", plan.refusal());
    assert_eq!(plan.dump_name(), Some("DumpHeap"));
    let s = lib.lookup(DUMP_HEAP).unwrap();
    assert_eq!((s.value, s.source), (readelf_of(&art14, "--dyn-syms", DUMP_HEAP).unwrap().0, Source::MiniDebugInfo));
    assert_eq!(lib.lookup(HPROF_DUMP).unwrap().source, Source::MiniDebugInfo);
    assert_eq!(lib.lookup(HPROF_CTOR), None, "the constructor is in no table");
    for &name in Sequence::Hold.needs() {
        assert_eq!(lib.lookup(name).map(|s| s.source), Some(Source::GnuHash), "{name}");
    }

    // 14 QPR2's shape: the Hprof constructor gone, DumpHeap still exported.
    let qpr2 = dir.path().join("libart14.so");
    device_shaped(&art14, &Shape { hide: &[HPROF_CTOR], mini: &[HPROF_DUMP], renamed: &[], filler: 100 }, &qpr2);
    let bytes = std::fs::read(&qpr2).unwrap();
    let lib = Library::parse(&bytes).unwrap();
    let plan = Plan::of(&lib);
    assert_eq!((plan.generation, plan.dump_name(), plan.ready()), (Generation::Art11To14, Some("DumpHeap"), true));
    assert_eq!(plan.at(HPROF_CTOR), None);

    // The MiniDebugInfo garbled: what it alone held is lost, the generation with it; the plan
    // refuses and says why.
    let bytes = garbled_mini_debug_info(&shaped);
    let lib = Library::parse(&bytes).unwrap();
    let plan = Plan::of(&lib);
    assert!(plan.mini_debug_info.is_some());
    assert_eq!(plan.generation, Generation::Unknown);
    assert_eq!(plan.missing, [DUMP_HEAP]);
    let why = plan.refusal().unwrap();
    assert!(why.contains("no ART the fork dump knows") && why.contains("MiniDebugInfo"), "{why}");
    assert_eq!(lib.lookup(SUSPEND_ALL).unwrap().source, Source::GnuHash);
}

/// On a phone with a native bridge, two `libart.so` are mapped: the translated one for the
/// guest ABI and the runtime's own. The runtime's, built for this process's CPU, is taken.
#[test]
fn the_runtimes_own_libart_is_taken_where_two_are_mapped() {
    let maps = "\
70000000-70100000 r--p 00000000 fd:00 1 /system/lib64/arm64/libart.so
70100000-70200000 r-xp 00100000 fd:00 1 /system/lib64/arm64/libart.so
7f000000-7f100000 r--p 00000000 fd:00 2 /apex/com.android.art/lib64/libart.so
7f100000-7f200000 r-xp 00100000 fd:00 2 /apex/com.android.art/lib64/libart.so
";
    let machine = |p: &Path| -> Option<u16> {
        Some(if p.to_string_lossy().contains("/arm64/") { 183 } else { forkdump::fork::OWN_MACHINE })
    };
    let found = forkdump::fork::loaded_in(maps, "libart.so", machine);
    assert_eq!(found, Some((PathBuf::from("/apex/com.android.art/lib64/libart.so"), 0x7f00_0000)));
    // Only the guest's: none is the runtime's.
    let guest_only: String = maps.lines().take(2).map(|l| format!("{l}\n")).collect();
    assert_eq!(forkdump::fork::loaded_in(&guest_only, "libart.so", machine), None);
}
