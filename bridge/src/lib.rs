//! Host ↔ device bridge: the adb server's host protocol ([`adb`]), a phone or this machine behind
//! one [`device::Device`] trait ([`device::AdbDevice`]: shell protocol v2 with exit codes, or the
//! plain `shell:` with the code read from a marker on phones without it (before Android 7), and
//! streaming, `exec:`, push through mozdevice's sync code and pull through its own bounded one, forwards to TCP ports and
//! abstract sockets; [`device::LocalDevice`]), and the agent on the phone ([`agent`]).
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

pub mod abis;
pub mod adb;
pub mod agent;
pub mod builds;
pub mod device;
pub mod shell;
