//! The on-device side of heaptui. Today: sampling a process from `/proc` and, for HotSpot JVMs,
//! from the `hsperfdata` counters `jstat` reads. Triggers, dumpers and the agent protocol come with
//! the device issues; this code already runs the same on Linux and Android (it probes files at run
//! time, no `cfg(target_os)`).
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

pub mod hsperf;
pub mod proc;
pub mod sample;
