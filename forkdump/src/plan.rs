//! The way the fork dump takes through one `libart.so`: how it suspends the runtime, how it
//! dumps, and where each symbol it looked for was found. The fork dump follows it; `heaptui
//! doctor` shows it, so a person can see before a repro what a phone's runtime offers.

use crate::art::*;
use crate::elf::{Library, Source};

/// How the runtime is suspended, with the functions' offsets in the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuspendWay {
    /// An `art::ScopedSuspendAll` constructed and destroyed (Android 11+).
    ScopedSuspendAll {
        /// The constructor.
        ctor: u64,
        /// The destructor.
        dtor: u64,
    },
    /// `art::Dbg::SuspendVM()` and `ResumeVM()` (before Android 11).
    Dbg {
        /// `SuspendVM`.
        suspend: u64,
        /// `ResumeVM`.
        resume: u64,
    },
}

/// How the child dumps, with the functions' offsets in the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpWay {
    /// An `art::hprof::Hprof` constructed on a buffer, `Dump()`, destroyed: no suspension of its
    /// own in the child.
    Hprof {
        /// The constructor.
        ctor: u64,
        /// `Dump()`.
        dump: u64,
        /// The destructor (D2, else D1).
        dtor: u64,
    },
    /// `art::hprof::DumpHeap`, which suspends the runtime again in the child.
    DumpHeap(u64),
}

/// Every symbol the fork dump looks for, in the order it looks.
pub const LOOKED_FOR: [&str; 9] =
    [SUSPEND_ALL, RESUME_ALL, DBG_SUSPEND, DBG_RESUME, HPROF_CTOR, HPROF_DUMP, HPROF_DTOR, HPROF_DTOR1, DUMP_HEAP];

/// The way through one library.
#[derive(Debug, Clone)]
pub struct Plan {
    /// How it suspends; `None`: no way (the symbols of neither are there).
    pub suspend: Option<SuspendWay>,
    /// How it dumps; `None`: no way.
    pub dump: Option<DumpWay>,
    /// Each symbol of [`LOOKED_FOR`] and the table it was found in.
    pub symbols: Vec<(&'static str, Option<Source>)>,
    /// Why the library's MiniDebugInfo could not be read, when it has one that could not.
    pub mini_debug_info: Option<String>,
    /// Whether the library is 64-bit.
    pub is_64: bool,
}

impl Plan {
    /// The way through `lib`: `ScopedSuspendAll` where it is, else `Dbg::SuspendVM`; the `Hprof`
    /// object where its constructor, `Dump` and destructor all are, else `DumpHeap`.
    pub fn of(lib: &Library<'_>) -> Plan {
        let found: Vec<(&'static str, Option<(u64, Source)>)> = LOOKED_FOR
            .iter()
            .map(|&name| (name, lib.lookup(name).filter(|s| s.value != 0).map(|s| (s.value, s.source))))
            .collect();
        let at = |name: &str| found.iter().find(|f| f.0 == name).and_then(|f| f.1).map(|f| f.0);
        let suspend = match (at(SUSPEND_ALL), at(RESUME_ALL), at(DBG_SUSPEND), at(DBG_RESUME)) {
            (Some(ctor), Some(dtor), _, _) => Some(SuspendWay::ScopedSuspendAll { ctor, dtor }),
            (_, _, Some(suspend), Some(resume)) => Some(SuspendWay::Dbg { suspend, resume }),
            _ => None,
        };
        let dump = match (at(HPROF_CTOR), at(HPROF_DUMP), at(HPROF_DTOR).or_else(|| at(HPROF_DTOR1)), at(DUMP_HEAP)) {
            (Some(ctor), Some(dump), Some(dtor), _) => Some(DumpWay::Hprof { ctor, dump, dtor }),
            (_, _, _, Some(h)) => Some(DumpWay::DumpHeap(h)),
            _ => None,
        };
        Plan {
            suspend,
            dump,
            symbols: found.iter().map(|(n, f)| (*n, f.map(|f| f.1))).collect(),
            mini_debug_info: lib.mini_debug_info_error().map(|e| e.to_string()),
            is_64: lib.is_64(),
        }
    }

    /// The suspension's name (`ScopedSuspendAll`, `Dbg::SuspendVM`).
    pub fn suspend_name(&self) -> Option<&'static str> {
        self.suspend.map(|s| match s {
            SuspendWay::ScopedSuspendAll { .. } => "ScopedSuspendAll",
            SuspendWay::Dbg { .. } => "Dbg::SuspendVM",
        })
    }

    /// The dumper's name (`Hprof`, `DumpHeap`).
    pub fn dump_name(&self) -> Option<&'static str> {
        self.dump.map(|d| match d {
            DumpWay::Hprof { .. } => "Hprof",
            DumpWay::DumpHeap(_) => "DumpHeap",
        })
    }
}
