//! Host ↔ device bridge: the `Device` trait, `AdbDevice` (through the adb server) and
//! `LocalDevice`, agent deployment and the agent's JSON-lines protocol.
//!
//! Not built yet: this crate is a placeholder in the workspace so the layout matches the design
//! (ARCHITECTURE.md). The work is tracked by the issue "Device bridge and agent". Nothing here
//! claims to talk to a device.
#![deny(missing_docs)]

/// Version of the agent wire protocol this bridge will speak.
pub const PROTOCOL_VERSION: u32 = 1;
