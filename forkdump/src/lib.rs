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
    /// `art::gc::ScopedGCCriticalSection::ScopedGCCriticalSection(Thread*, GcCause,
    /// CollectorType)`: waits for a running GC to finish and keeps a new one from starting.
    pub const GC_SECTION: &str = "_ZN3art2gc23ScopedGCCriticalSectionC1EPNS_6ThreadENS0_7GcCauseENS0_13CollectorTypeE";
    /// `art::gc::ScopedGCCriticalSection::~ScopedGCCriticalSection()`.
    pub const GC_SECTION_END: &str = "_ZN3art2gc23ScopedGCCriticalSectionD1Ev";
    /// `art::Locks::mutator_lock_`: a pointer to the `ReaderWriterMutex` (an object, not a function).
    pub const MUTATOR_LOCK: &str = "_ZN3art5Locks13mutator_lock_E";
    /// `art::ReaderWriterMutex::ExclusiveLock(Thread*)`.
    pub const RW_LOCK: &str = "_ZN3art17ReaderWriterMutex13ExclusiveLockEPNS_6ThreadE";
    /// `art::ReaderWriterMutex::ExclusiveUnlock(Thread*)`.
    pub const RW_UNLOCK: &str = "_ZN3art17ReaderWriterMutex15ExclusiveUnlockEPNS_6ThreadE";
    /// `art::Locks::thread_list_lock_`: a pointer to the `Mutex` (an object).
    pub const THREAD_LIST_LOCK: &str = "_ZN3art5Locks17thread_list_lock_E";
    /// `art::Mutex::ExclusiveLock(Thread*)`.
    pub const MUTEX_LOCK: &str = "_ZN3art5Mutex13ExclusiveLockEPNS_6ThreadE";
    /// `art::Mutex::ExclusiveUnlock(Thread*)`.
    pub const MUTEX_UNLOCK: &str = "_ZN3art5Mutex15ExclusiveUnlockEPNS_6ThreadE";
    /// `art::Thread::CurrentFromGdb()`: the calling thread's `Thread*` (null when it is not a
    /// runtime thread); exported on every release for debuggers.
    pub const CURRENT_THREAD: &str = "_ZN3art6Thread14CurrentFromGdbEv";

    /// `art::Locks::thread_suspend_count_lock_`: a pointer to the `Mutex` (an object), taken
    /// after `thread_list_lock_` in ART's lock order.
    pub const SUSPEND_COUNT_LOCK: &str = "_ZN3art5Locks26thread_suspend_count_lock_E";
    /// `art::ThreadList::SuspendAllInternal(Thread*, Thread*, Thread*, SuspendReason)`: Android
    /// 8 to the 2023 modules (only read, to tell the runtime's generation).
    pub const SUSPEND_ALL_INTERNAL_11: &str =
        "_ZN3art10ThreadList18SuspendAllInternalEPNS_6ThreadES2_S2_NS_13SuspendReasonE";
    /// `art::ThreadList::SuspendAllInternal(Thread*, SuspendReason)`: the modules from the
    /// 2023-12 suspension rewrite on (Android 15+), hidden there, in the MiniDebugInfo (only
    /// read, to tell the runtime's generation).
    pub const SUSPEND_ALL_INTERNAL_15: &str = "_ZN3art10ThreadList18SuspendAllInternalEPNS_6ThreadENS_13SuspendReasonE";
    /// `android::base::SetMinimumLogSeverity(LogSeverity)` in `libbase.so`: the child raises it
    /// before it dumps, so that the dumper's own log lines take no logging lock.
    pub const SET_LOG_SEVERITY: &str = "_ZN7android4base21SetMinimumLogSeverityENS0_11LogSeverityE";
    /// `android::base::FATAL_WITHOUT_ABORT`: only fatal lines are written past it.
    pub const LOG_FATAL_WITHOUT_ABORT: i32 = 5;

    /// `art::gc::kGcCauseHprof`: 15 in every release's list from Android 8 on
    /// (`runtime/gc/gc_cause.h`).
    pub const GC_CAUSE_HPROF: i32 = 15;
}
