//! Host ↔ device bridge. Today: the adb server's device list, read over its host protocol (the
//! same socket `adb devices -l` uses). To come (issue "Device bridge and agent"): the `Device`
//! trait, `AdbDevice` with shell v2 and `exec:`, `LocalDevice`, agent deployment and the agent's
//! JSON-lines protocol.
#![deny(missing_docs)]

pub mod adb;

/// Version of the agent wire protocol this bridge speaks.
pub const PROTOCOL_VERSION: u32 = 1;
