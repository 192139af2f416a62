//! Host ↔ device bridge: the adb server's host protocol ([`adb`]), a phone or this machine behind
//! one [`device::Device`] trait ([`device::AdbDevice`]: shell protocol v2 with exit codes and
//! streaming, `exec:`, push and pull through mozdevice's sync code, forwards to TCP ports and
//! abstract sockets; [`device::LocalDevice`]), and the agent on the phone ([`agent`]).
#![deny(missing_docs)]

pub mod adb;
pub mod agent;
pub mod device;

/// Version of the agent wire protocol this bridge speaks.
pub const PROTOCOL_VERSION: u32 = ::agent::PROTOCOL;
