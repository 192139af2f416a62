//! The on-device side of heaptui: sampling a process from `/proc`, its Java heap from the
//! `hsperfdata` counters `jstat` reads (HotSpot) or `dumpsys meminfo` (Android); the triggers
//! (KOOM's heap rule, Probe's alarms) that run on the samples; dumping (HotSpot's attach protocol,
//! `am dumpheap`) and stripping on the device. The binary speaks versioned JSON lines on its
//! stdout ([`protocol`]).
//! This code runs the same on Linux and Android (it probes files at run time, no
//! `cfg(target_os)`).
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

pub mod android;
pub mod attach;
pub mod dump;
pub mod hsperf;
pub mod proc;
pub mod protocol;
pub mod sample;
pub mod trigger;

pub use protocol::PROTOCOL;

/// The agent's version: a bridge re-pushes the agent when the phone's differs from its own.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
