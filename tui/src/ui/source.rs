//! What the UI can open: a dump, the bundled demo, or a process to watch.

use super::monitor::Target;

/// A dump to open, or a process to watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A file.
    File(std::path::PathBuf),
    /// The bundled demo dump.
    Demo,
    /// A process to watch on the monitor screen.
    Process(Target),
}
