//! What a dump tells its caller as it goes.

/// A step of a dump, for progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The runtime writes the dump.
    Dump,
    /// It is stripped.
    Strip,
    /// It crosses from the device.
    Transfer,
    /// It is restored to a standard HPROF.
    Restore,
}

impl Step {
    /// Its name on a progress bar.
    pub fn name(self) -> &'static str {
        match self {
            Step::Dump => "dump",
            Step::Strip => "strip",
            Step::Transfer => "transfer",
            Step::Restore => "restore",
        }
    }
}

/// Progress: a step, bytes (or steps) done, and in all (0 when unknown).
pub type Progress<'a> = &'a mut dyn FnMut(Step, u64, u64);
