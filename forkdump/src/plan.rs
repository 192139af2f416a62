//! The way the fork dump takes through one `libart.so`: the order of ART calls around `fork`
//! (the [`Sequence`], which depends on the ART release), how the child dumps, and where each
//! symbol it looked for was found. The fork dump follows it; `heaptui doctor` shows it, so a
//! person can see before a repro what a phone's runtime offers.
//!
//! The sequences follow ART's own sources and the fork dumps that run on phones; the reasons,
//! with the source lines, are in `docs/design.md` ("Fork dump: the sequence per ART release").

use crate::art::*;
use crate::elf::{Library, Source};

/// The order of ART calls around `fork`, by ART release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sequence {
    /// Android 8–10: `Dbg::SuspendVM()` (which waits out a running GC inside a GC critical
    /// section, suspends every thread and leaves the mutator lock free), `fork`, `ResumeVM()`.
    /// The child's `DumpHeap` takes its own GC section and suspension, which succeed.
    Debugger,
    /// Android 11–14: a GC critical section (no GC running, none starting), `ScopedSuspendAll`,
    /// the mutator lock released, the GC section ended, `fork`; the parent takes the mutator lock
    /// back and resumes at once. The child inherits threads that stay suspended, a free mutator
    /// lock and no GC, so `DumpHeap`'s own suspension passes.
    ReleaseMutator,
    /// Android 15 on: a GC critical section, `ScopedSuspendAll`, `thread_list_lock_` held across
    /// `fork` (no thread outside the suspension can hold it then); both sides release it, the
    /// parent resumes; the child ends the inherited suspension and GC section (15's suspension
    /// waits forever while another is counted) and then calls `DumpHeap`.
    ThreadListLock,
    /// `ScopedSuspendAll` alone across `fork`: the tests' negative control, never chosen. The
    /// child inherits the mutator lock held exclusively and, maybe, a GC half done: `DumpHeap`
    /// hangs in the child, and an `Hprof` object sees objects twice.
    SuspendOnly,
}

impl Sequence {
    /// The sequence an ART release needs, by the platform's SDK level.
    pub fn for_sdk(sdk: u32) -> Sequence {
        match sdk {
            ..=29 => Sequence::Debugger,
            30..=34 => Sequence::ReleaseMutator,
            _ => Sequence::ThreadListLock,
        }
    }

    /// Its name in reports and `heaptui doctor`.
    pub fn name(self) -> &'static str {
        match self {
            Sequence::Debugger => "Dbg::SuspendVM",
            Sequence::ReleaseMutator => "GC section, ScopedSuspendAll, mutator lock released",
            Sequence::ThreadListLock => "GC section, ScopedSuspendAll, thread_list_lock_ held",
            Sequence::SuspendOnly => "ScopedSuspendAll only",
        }
    }

    /// The Android releases it is for.
    pub fn releases(self) -> &'static str {
        match self {
            Sequence::Debugger => "Android 8-10",
            Sequence::ReleaseMutator => "Android 11-14",
            Sequence::ThreadListLock => "Android 15+",
            Sequence::SuspendOnly => "none (unsafe)",
        }
    }

    /// Every symbol it calls, besides the dumper's.
    pub fn needs(self) -> &'static [&'static str] {
        match self {
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

/// How the child dumps, with the functions' offsets in the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpWay {
    /// `art::hprof::DumpHeap(path, fd, false)`: ART's own entry, which takes its GC section and
    /// suspension in the child, as ART wants them taken. Preferred.
    DumpHeap(u64),
    /// An `art::hprof::Hprof` constructed on a buffer, `Dump()`, destroyed: where `DumpHeap`
    /// cannot be found. Its out-of-line copies are local symbols, gone on some releases.
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
pub const LOOKED_FOR: [&str; 18] = [
    CURRENT_THREAD,
    GC_SECTION,
    GC_SECTION_END,
    SUSPEND_ALL,
    RESUME_ALL,
    MUTATOR_LOCK,
    RW_LOCK,
    RW_UNLOCK,
    THREAD_LIST_LOCK,
    MUTEX_LOCK,
    MUTEX_UNLOCK,
    DBG_SUSPEND,
    DBG_RESUME,
    DUMP_HEAP,
    HPROF_CTOR,
    HPROF_DUMP,
    HPROF_DTOR,
    HPROF_DTOR1,
];

/// Where the sequence came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chosen {
    /// From the platform's SDK level.
    Sdk(u32),
    /// From the library's symbols (no SDK level known): `Dbg::SuspendVM` there means 8–10,
    /// `DumpHeap` exported means 11–14 (15 hides it), else 15+.
    Symbols,
}

/// The way through one library.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The sequence around `fork`.
    pub sequence: Sequence,
    /// Why that one.
    pub chosen: Chosen,
    /// How the child dumps; `None`: no way.
    pub dump: Option<DumpWay>,
    /// Each symbol of [`LOOKED_FOR`] with its value and the table it was found in.
    pub symbols: Vec<(&'static str, Option<(u64, Source)>)>,
    /// What the sequence and a dumper need and the library lacks: the fork dump cannot run
    /// while this is not empty.
    pub missing: Vec<&'static str>,
    /// Why the library's MiniDebugInfo could not be read, when it has one that could not.
    pub mini_debug_info: Option<String>,
    /// Whether the library is 64-bit.
    pub is_64: bool,
}

impl Plan {
    /// The way through `lib` for a platform at `sdk` (unknown: inferred from the symbols). The
    /// child calls `DumpHeap` where it is found, else the `Hprof` object where its constructor,
    /// `Dump` and destructor all are.
    pub fn of(lib: &Library<'_>, sdk: Option<u32>) -> Plan {
        let symbols: Vec<(&'static str, Option<(u64, Source)>)> = LOOKED_FOR
            .iter()
            .map(|&name| (name, lib.lookup(name).filter(|s| s.value != 0).map(|s| (s.value, s.source))))
            .collect();
        let found = |name: &str| symbols.iter().find(|f| f.0 == name).and_then(|f| f.1);
        let (sequence, chosen) = match sdk {
            Some(sdk) => (Sequence::for_sdk(sdk), Chosen::Sdk(sdk)),
            None if found(DBG_SUSPEND).is_some() => (Sequence::Debugger, Chosen::Symbols),
            None if found(DUMP_HEAP).is_some_and(|f| f.1.table() == "dynsym") => {
                (Sequence::ReleaseMutator, Chosen::Symbols)
            }
            None => (Sequence::ThreadListLock, Chosen::Symbols),
        };
        let mut plan = Plan {
            sequence,
            chosen,
            dump: None,
            symbols,
            missing: Vec::new(),
            mini_debug_info: lib.mini_debug_info_error().map(|e| e.to_string()),
            is_64: lib.is_64(),
        };
        plan.settle();
        plan
    }

    /// The same library taken through `sequence` instead (the tests' negative control).
    pub fn with_sequence(mut self, sequence: Sequence) -> Plan {
        self.sequence = sequence;
        self.settle();
        self
    }

    /// The dumper and what is missing, for the sequence.
    fn settle(&mut self) {
        let at = |name: &str| self.at(name);
        let dump = match (at(DUMP_HEAP), at(HPROF_CTOR), at(HPROF_DUMP), at(HPROF_DTOR).or_else(|| at(HPROF_DTOR1))) {
            (Some(h), ..) => Some(DumpWay::DumpHeap(h)),
            (None, Some(ctor), Some(dump), Some(dtor)) => Some(DumpWay::Hprof { ctor, dump, dtor }),
            _ => None,
        };
        // `Dbg::SuspendVM` leaves the mutator lock free and the sequence has no call to take it
        // in the child, which the `Hprof` object needs: on 8–10 only `DumpHeap` will do.
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

    /// Whether the fork dump can run: the sequence's symbols and a dumper are all there.
    pub fn ready(&self) -> bool {
        self.missing.is_empty()
    }

    /// The dumper's name (`DumpHeap`, `Hprof`).
    pub fn dump_name(&self) -> Option<&'static str> {
        self.dump.map(|d| match d {
            DumpWay::DumpHeap(_) => "DumpHeap",
            DumpWay::Hprof { .. } => "Hprof",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_by_release() {
        assert_eq!(Sequence::for_sdk(26), Sequence::Debugger);
        assert_eq!(Sequence::for_sdk(29), Sequence::Debugger);
        assert_eq!(Sequence::for_sdk(30), Sequence::ReleaseMutator);
        assert_eq!(Sequence::for_sdk(34), Sequence::ReleaseMutator);
        assert_eq!(Sequence::for_sdk(35), Sequence::ThreadListLock);
        assert_eq!(Sequence::for_sdk(36), Sequence::ThreadListLock);
    }
}
