//! The way the fork dump takes through one `libart.so`: the order of ART calls around `fork`
//! (the [`Sequence`]), how the child dumps, which runtime the library is ([`Generation`], by
//! its own symbols: ART is a Mainline module from Android 12, so the platform's SDK level says
//! nothing certain about it), and where each symbol looked for was found. The fork dump follows
//! it; `heaptui doctor` shows it, so a person can see before a repro what a phone's runtime
//! offers and what decided.
//!
//! The reasons, with ART's source lines, are in `docs/design.md` ("Fork dump: one sequence for
//! every runtime").

use crate::art::*;
use crate::elf::{Library, Source};

/// The order of ART calls around `fork`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sequence {
    /// Every runtime (8 to 16): a GC critical section (a running GC finished, none can start),
    /// `ScopedSuspendAll(…, true)` (the mutator lock held exclusively), then `thread_list_lock_`
    /// and `thread_suspend_count_lock_` taken in ART's lock order, all held across `fork`: no GC
    /// can start in a window before it and no thread can hold those locks at it. The parent
    /// releases the two locks in reverse, resumes and ends the section at once. The child
    /// releases them too and dumps with the `Hprof` object on the inherited suspension and
    /// section, or, where the library lacks it, ends them and calls `DumpHeap`, whose own section
    /// and suspension then pass.
    Hold,
    /// The 8–10 sequence of earlier versions: `Dbg::SuspendVM()`, `fork`, `ResumeVM()`. Its GC
    /// section ends when `SuspendVM` returns, so a GC can start before `fork` and the child's
    /// `DumpHeap` then waits for it forever. Kept as a test's control, never chosen.
    Debugger,
    /// The 11–14 sequence of earlier versions: the GC section and the mutator lock given up
    /// before `fork` (the same window). A test's control, never chosen.
    ReleaseMutator,
    /// The 15 sequence of earlier versions: as [`Sequence::Hold`] without
    /// `thread_suspend_count_lock_`. A test's control, never chosen.
    ThreadListLock,
    /// `ScopedSuspendAll` alone across `fork`: the child inherits the mutator lock held
    /// exclusively and, maybe, a GC half done. A test's control, never chosen.
    SuspendOnly,
}

impl Sequence {
    /// Its name in reports and `heaptui doctor`.
    pub fn name(self) -> &'static str {
        match self {
            Sequence::Hold => "GC section, ScopedSuspendAll, thread_list_lock_ and thread_suspend_count_lock_ held",
            Sequence::Debugger => "Dbg::SuspendVM",
            Sequence::ReleaseMutator => "GC section, ScopedSuspendAll, mutator lock released",
            Sequence::ThreadListLock => "GC section, ScopedSuspendAll, thread_list_lock_ held",
            Sequence::SuspendOnly => "ScopedSuspendAll only",
        }
    }

    /// The runtimes it is for.
    pub fn releases(self) -> &'static str {
        match self {
            Sequence::Hold => "every ART (Android 8+)",
            Sequence::Debugger => "none (the 8-10 sequence of earlier versions: a GC can start before fork)",
            Sequence::ReleaseMutator => "none (the 11-14 sequence of earlier versions: a GC can start before fork)",
            Sequence::ThreadListLock => "none (the 15 sequence of earlier versions)",
            Sequence::SuspendOnly => "none (unsafe)",
        }
    }

    /// Every symbol it calls, besides the dumper's.
    pub fn needs(self) -> &'static [&'static str] {
        match self {
            Sequence::Hold => &[
                CURRENT_THREAD,
                GC_SECTION,
                GC_SECTION_END,
                SUSPEND_ALL,
                RESUME_ALL,
                THREAD_LIST_LOCK,
                SUSPEND_COUNT_LOCK,
                MUTEX_LOCK,
                MUTEX_UNLOCK,
            ],
            Sequence::Debugger => &[DBG_SUSPEND, DBG_RESUME],
            Sequence::ReleaseMutator => {
                &[CURRENT_THREAD, GC_SECTION, GC_SECTION_END, SUSPEND_ALL, RESUME_ALL, MUTATOR_LOCK, RW_LOCK, RW_UNLOCK]
            }
            Sequence::ThreadListLock => &[
                CURRENT_THREAD,
                GC_SECTION,
                GC_SECTION_END,
                SUSPEND_ALL,
                RESUME_ALL,
                THREAD_LIST_LOCK,
                MUTEX_LOCK,
                MUTEX_UNLOCK,
            ],
            Sequence::SuspendOnly => &[SUSPEND_ALL, RESUME_ALL],
        }
    }
}

/// Which ART a library is, by its own symbols: what changed between the generations is visible
/// in them, whatever the platform's SDK level says (a 12–14 phone may carry a 2024+ module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generation {
    /// Android 8–10: `Dbg::SuspendVM` is there (the debugger's suspension, gone in 11 with
    /// JDWP's move out of the runtime).
    Art8To10,
    /// Android 11 to the 2023 modules: `ThreadList::SuspendAllInternal(Thread*, Thread*,
    /// Thread*, SuspendReason)`, and no `Dbg::SuspendVM`.
    Art11To14,
    /// The modules from "Thread suspension cleanup and deadlock fix" (2023-12-20) on, Android 15
    /// and later, and 12–14 phones updated to them: `SuspendAllInternal(Thread*,
    /// SuspendReason)`, which only the MiniDebugInfo may hold.
    Art15On,
    /// None of those found: a runtime not seen before, or a MiniDebugInfo that could not be read
    /// where the deciding symbol is. The fork dump does not run on it.
    Unknown,
}

impl Generation {
    /// Its name in reports and `heaptui doctor`.
    pub fn name(self) -> &'static str {
        match self {
            Generation::Art8To10 => "ART of Android 8-10",
            Generation::Art11To14 => "ART of Android 11-14 (before the 2023-12 suspension rewrite)",
            Generation::Art15On => "ART from the 2023-12 suspension rewrite (Android 15+, or an updated 12-14 module)",
            Generation::Unknown => "unknown",
        }
    }

    /// `art::gc::kCollectorTypeHprof` for the GC critical section (`runtime/gc/collector_type.h`:
    /// 14 on 8–10, 13 on 11–13, 14 on 14 as released, 15 from the 2024 modules, where the CMC
    /// collector's two entries came in). Any value ART does not take for a moving collector
    /// serves (only those make `StartGC` wait on moving-GC users), and 13, 14 and 15 are
    /// non-moving in every release's list.
    pub fn collector_type_hprof(self) -> i32 {
        match self {
            Generation::Art8To10 => 14,
            Generation::Art11To14 => 13,
            Generation::Art15On | Generation::Unknown => 15,
        }
    }
}

/// How the child dumps, with the functions' offsets in the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpWay {
    /// `art::hprof::DumpHeap(path, fd, false)`: ART's own entry, which takes its GC section and
    /// suspension in the child (after the child has ended the inherited ones).
    DumpHeap(u64),
    /// An `art::hprof::Hprof` constructed on a buffer, `Dump()`, destroyed, on the suspension
    /// and GC section the child inherited (what `DumpHeap` does inside them). Preferred where all
    /// three are found: its out-of-line copies are local symbols, gone on some releases.
    Hprof {
        /// The constructor.
        ctor: u64,
        /// `Dump()`.
        dump: u64,
        /// The destructor (D2, else D1).
        dtor: u64,
    },
}

/// Every symbol the fork dump looks for, in the order it looks.
pub const LOOKED_FOR: [&str; 21] = [
    CURRENT_THREAD,
    GC_SECTION,
    GC_SECTION_END,
    SUSPEND_ALL,
    RESUME_ALL,
    MUTATOR_LOCK,
    RW_LOCK,
    RW_UNLOCK,
    THREAD_LIST_LOCK,
    SUSPEND_COUNT_LOCK,
    MUTEX_LOCK,
    MUTEX_UNLOCK,
    DBG_SUSPEND,
    DBG_RESUME,
    SUSPEND_ALL_INTERNAL_11,
    SUSPEND_ALL_INTERNAL_15,
    DUMP_HEAP,
    HPROF_CTOR,
    HPROF_DUMP,
    HPROF_DTOR,
    HPROF_DTOR1,
];

/// The way through one library.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The sequence around `fork`.
    pub sequence: Sequence,
    /// Which runtime the library is.
    pub generation: Generation,
    /// The symbol that decided the generation, and where it was found.
    pub evidence: Option<(&'static str, Source)>,
    /// How the child dumps; `None`: no way.
    pub dump: Option<DumpWay>,
    /// Each symbol of [`LOOKED_FOR`] with its value and the table it was found in.
    pub symbols: Vec<(&'static str, Option<(u64, Source)>)>,
    /// What the sequence and a dumper need and the library lacks.
    pub missing: Vec<&'static str>,
    /// Why the library's MiniDebugInfo could not be read, when it has one that could not.
    pub mini_debug_info: Option<String>,
    /// Whether the library is 64-bit.
    pub is_64: bool,
    /// The Android ABI of the library's CPU (`arm64-v8a`, `armeabi-v7a`, `x86_64`, `x86`), when
    /// it is one of those: the fork dump's library must be built for the same.
    pub abi: Option<&'static str>,
}

/// The Android ABI of an ELF machine, for the four that heaptui builds for.
pub fn android_abi(machine: u16) -> Option<&'static str> {
    match machine {
        goblin::elf::header::EM_AARCH64 => Some("arm64-v8a"),
        goblin::elf::header::EM_ARM => Some("armeabi-v7a"),
        goblin::elf::header::EM_X86_64 => Some("x86_64"),
        goblin::elf::header::EM_386 => Some("x86"),
        _ => None,
    }
}

impl Plan {
    /// The way through `lib`: [`Sequence::Hold`] on the runtime its symbols say it is. The
    /// child dumps with the `Hprof` object where its constructor, `Dump` and destructor all are,
    /// else with `DumpHeap`.
    pub fn of(lib: &Library<'_>) -> Plan {
        let symbols: Vec<(&'static str, Option<(u64, Source)>)> = LOOKED_FOR
            .iter()
            .map(|&name| (name, lib.lookup(name).filter(|s| s.value != 0).map(|s| (s.value, s.source))))
            .collect();
        let found = |name: &'static str| {
            symbols.iter().find(|f| f.0 == name).and_then(|f| f.1).map(|(_, source)| (name, source))
        };
        // The newest sign first: a 15+ module keeps nothing of the older ones, but is read last.
        let (generation, evidence) = if let Some(e) = found(SUSPEND_ALL_INTERNAL_15) {
            (Generation::Art15On, Some(e))
        } else if let Some(e) = found(DBG_SUSPEND) {
            (Generation::Art8To10, Some(e))
        } else if let Some(e) = found(SUSPEND_ALL_INTERNAL_11) {
            (Generation::Art11To14, Some(e))
        } else {
            (Generation::Unknown, None)
        };
        let mut plan = Plan {
            sequence: Sequence::Hold,
            generation,
            evidence,
            dump: None,
            symbols,
            missing: Vec::new(),
            mini_debug_info: lib.mini_debug_info_error().map(|e| e.to_string()),
            is_64: lib.is_64(),
            abi: android_abi(lib.machine()),
        };
        plan.settle();
        plan
    }

    /// The same library taken through `sequence` instead (the tests' controls).
    pub fn with_sequence(mut self, sequence: Sequence) -> Plan {
        self.sequence = sequence;
        self.settle();
        self
    }

    /// The dumper and what is missing, for the sequence.
    fn settle(&mut self) {
        let at = |name: &str| self.at(name);
        let heap = at(DUMP_HEAP).map(DumpWay::DumpHeap);
        let object = match (at(HPROF_CTOR), at(HPROF_DUMP), at(HPROF_DTOR).or_else(|| at(HPROF_DTOR1))) {
            (Some(ctor), Some(dump), Some(dtor)) => Some(DumpWay::Hprof { ctor, dump, dtor }),
            _ => None,
        };
        // The one sequence's child dumps on the inherited suspension and GC section with the
        // `Hprof` object where the library has it (nothing to release or take in the child: no
        // `ResumeAll`, no `FinishGC`, none of their locks), as `perfetto_hprof` walks the heap on
        // the inherited hold; `DumpHeap` after a reset otherwise. The others take `DumpHeap`
        // first, as they always did.
        let dump = if self.sequence == Sequence::Hold { object.or(heap) } else { heap.or(object) };
        // `Dbg::SuspendVM` leaves the mutator lock free and the sequence has no call to take it
        // in the child, which the `Hprof` object needs: there only `DumpHeap` will do.
        let dump = dump.filter(|d| self.sequence != Sequence::Debugger || matches!(d, DumpWay::DumpHeap(_)));
        let mut missing: Vec<&'static str> =
            self.sequence.needs().iter().copied().filter(|n| at(n).is_none()).collect();
        if dump.is_none() {
            missing.push(DUMP_HEAP);
        }
        (self.dump, self.missing) = (dump, missing);
    }

    /// The value of a symbol looked for.
    pub fn at(&self, name: &str) -> Option<u64> {
        self.symbols.iter().find(|f| f.0 == name).and_then(|f| f.1).map(|f| f.0)
    }

    /// Whether the fork dump calls `name`: the sequence's symbols and the dumper's.
    pub fn uses(&self, name: &str) -> bool {
        self.sequence.needs().contains(&name)
            || match self.dump {
                Some(DumpWay::DumpHeap(_)) | None => name == DUMP_HEAP,
                Some(DumpWay::Hprof { .. }) => {
                    [HPROF_CTOR, HPROF_DUMP].contains(&name)
                        || name == HPROF_DTOR
                        || name == HPROF_DTOR1 && self.at(HPROF_DTOR).is_none()
                }
            }
    }

    /// Why the fork dump cannot run on this library, when it cannot: a runtime not known (the
    /// constants it passes ART are chosen by the generation), or what the sequence and a dumper
    /// need and the library lacks.
    pub fn refusal(&self) -> Option<String> {
        if self.generation == Generation::Unknown {
            let why = match &self.mini_debug_info {
                Some(e) => format!("the symbols that tell ART's generation apart are not in it ({e})"),
                None => "none of the symbols that tell ART's generation apart is in it".to_string(),
            };
            return Some(format!("this libart.so is no ART the fork dump knows: {why}"));
        }
        (!self.missing.is_empty()).then(|| {
            format!(
                "the sequence ({}) needs {}, not in this library{}",
                self.sequence.name(),
                self.missing.join(", "),
                self.mini_debug_info.as_ref().map_or(String::new(), |e| format!("; {e}"))
            )
        })
    }

    /// Whether the fork dump can run: a known runtime, and the sequence's symbols and a dumper
    /// all there.
    pub fn ready(&self) -> bool {
        self.refusal().is_none()
    }

    /// The dumper's name (`DumpHeap`, `Hprof`).
    pub fn dump_name(&self) -> Option<&'static str> {
        self.dump.map(|d| match d {
            DumpWay::DumpHeap(_) => "DumpHeap",
            DumpWay::Hprof { .. } => "Hprof",
        })
    }
}
