//! KOOM's fork dump, for Android apps that must not freeze while their heap is dumped. Today:
//! [`elf`], finding the ART symbols it needs in `libart.so`. To come: the JVMTI agent that is
//! loaded into the app (`cmd activity attach-agent`), suspends the runtime, forks, resumes the
//! parent at once and dumps in the child (see SPEC.md §4).
#![deny(missing_docs)]

pub mod elf;

/// The ART symbols the fork dump calls, by the Android versions that have them.
pub mod art {
    /// `art::hprof::DumpHeap(const char*, int, bool)`: the dump, exported.
    pub const DUMP_HEAP: &str = "_ZN3art5hprof8DumpHeapEPKcib";
    /// `art::hprof::Hprof::Dump()`: what KOOM calls in the child (not always exported).
    pub const HPROF_DUMP: &str = "_ZN3art5hprof5Hprof4DumpEv";
    /// `art::hprof::Hprof::~Hprof()`.
    pub const HPROF_DTOR: &str = "_ZN3art5hprof5HprofD2Ev";
    /// `art::ScopedSuspendAll::ScopedSuspendAll(const char*, bool)` (Android 11+).
    pub const SUSPEND_ALL: &str = "_ZN3art16ScopedSuspendAllC1EPKcb";
    /// `art::ScopedSuspendAll::~ScopedSuspendAll()`.
    pub const RESUME_ALL: &str = "_ZN3art16ScopedSuspendAllD1Ev";
    /// `art::Dbg::SuspendVM()` (before Android 11).
    pub const DBG_SUSPEND: &str = "_ZN3art3Dbg9SuspendVMEv";
    /// `art::Dbg::ResumeVM()` (before Android 11).
    pub const DBG_RESUME: &str = "_ZN3art3Dbg8ResumeVMEv";
}
