//! The on-device side of heaptui. Today: sampling a process from `/proc` and, for HotSpot JVMs,
//! from the `hsperfdata` counters `jstat` reads, and the triggers (KOOM's heap rule, Probe's
//! alarms) that run on the samples. Dumpers and the agent protocol come with the device issues.
//! This code runs the same on Linux and Android (it probes files at run time, no
//! `cfg(target_os)`).
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

pub mod attach;
pub mod hsperf;
pub mod proc;
pub mod sample;
pub mod trigger;
