//! KOOM's fork dump, for Android apps that must not freeze while their heap is dumped (SPEC.md
//! §4): [`elf`] finds the ART symbols in `libart.so`, [`fork`] suspends, forks, resumes and
//! reaps, and [`Agent_OnAttach`] is the JVMTI entry point `cmd activity attach-agent` calls.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

pub mod agent;
pub mod elf;
pub mod fork;
pub mod plan;

pub use agent::Agent_OnAttach;

/// The ART symbols the fork dump calls, by the Android versions that have them.
pub mod art {
    /// `art::hprof::DumpHeap(const char*, int, bool)`: the dump, exported.
    pub const DUMP_HEAP: &str = "_ZN3art5hprof8DumpHeapEPKcib";
    /// `art::hprof::Hprof::Dump()`: what KOOM calls in the child (not always exported).
    pub const HPROF_DUMP: &str = "_ZN3art5hprof5Hprof4DumpEv";
    /// `art::hprof::Hprof::Hprof(const char*, int, bool)`: the dump object (Android 11+).
    pub const HPROF_CTOR: &str = "_ZN3art5hprof5HprofC2EPKcib";
    /// `art::hprof::Hprof::~Hprof()`, the base-object destructor (never the deleting one, D0:
    /// the object is not on the heap).
    pub const HPROF_DTOR: &str = "_ZN3art5hprof5HprofD2Ev";
    /// The complete-object destructor, where D2 is not there.
    pub const HPROF_DTOR1: &str = "_ZN3art5hprof5HprofD1Ev";
    /// `art::ScopedSuspendAll::ScopedSuspendAll(const char*, bool)` (Android 11+).
    pub const SUSPEND_ALL: &str = "_ZN3art16ScopedSuspendAllC1EPKcb";
    /// `art::ScopedSuspendAll::~ScopedSuspendAll()`.
    pub const RESUME_ALL: &str = "_ZN3art16ScopedSuspendAllD1Ev";
    /// `art::Dbg::SuspendVM()` (before Android 11).
    pub const DBG_SUSPEND: &str = "_ZN3art3Dbg9SuspendVMEv";
    /// `art::Dbg::ResumeVM()` (before Android 11).
    pub const DBG_RESUME: &str = "_ZN3art3Dbg8ResumeVMEv";
}
