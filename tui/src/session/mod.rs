//! What the subcommands and the screens both do, knowing neither clap nor the terminal: opening
//! a dump with its index cache ([`open`]), choosing a device and a process on it ([`target`]),
//! the thresholds that trigger a dump ([`triggers`]), and dumping ([`dump`]: one pipeline for
//! this machine and phones alike). Each returns what happened; printing it is the caller's.

pub mod dump;
pub mod files;
pub mod open;
pub mod pictures;
pub mod sql;
pub mod target;
pub mod triggers;
