//! The sidecar `DUMP.json` beside every dump: what was dumped, where, how and when.

use std::path::Path;

use agent::protocol::{Method, Mode};
use agent::sample::Sample;
use agent::trigger::Kind;
use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::session::files::private_file;

/// The sidecar `DUMP.json`: what was dumped, where, how and when. Fields are only ever added.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sidecar {
    /// `heaptui.dump/1`.
    pub schema: String,
    /// `local`, or the phone's serial.
    pub device: String,
    /// The phone, when the dump was made on one.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<Phone>,
    /// The process.
    pub process: ProcessRef,
    /// How it was dumped.
    pub method: Method,
    /// Whether only reachable objects are in it (a fork dump has every object: no GC before it).
    pub live_only: bool,
    /// How it was stripped.
    pub mode: Mode,
    /// Why it was dumped.
    pub trigger: Kind,
    /// When, in ms since the epoch (the sample's time).
    pub time_ms: u64,
    /// How long the runtime took to write it, ms.
    pub dump_ms: u64,
    /// How long the stripper took, ms.
    pub strip_ms: u64,
    /// How it came from the phone, when it did.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub transfer: Option<Transfer>,
    /// Bytes the runtime wrote.
    pub raw_bytes: u64,
    /// Bytes of the file here.
    pub bytes: u64,
    /// Whether the file here was restored from a stripped one.
    pub restored: bool,
    /// What the runtime said.
    pub runtime: String,
    /// The same words, under the name sidecars of this machine's dumps first gave them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jvm: Option<String>,
    /// The sample at dump time.
    pub sample: Sample,
    /// Why the dump holds no Bitmap pixels where an app's Bitmaps keep them natively (Android
    /// 8 and later): the method cannot carry them, or the phone's `am` cannot ask for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_pixels: Option<String>,
}

/// Where a phone's dump was made (KOOM's runningInfo keeps the build beside the figures).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Phone {
    /// The model, as adb lists it.
    pub model: Option<String>,
    /// `ro.product.manufacturer`.
    pub manufacturer: String,
    /// `ro.build.version.sdk`.
    pub sdk: Option<u32>,
}

/// The process a dump is of.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProcessRef {
    /// Its pid.
    pub pid: u32,
    /// Its command name.
    pub name: String,
    /// What the user called it.
    pub query: String,
}

/// How a dump came from a phone.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Transfer {
    /// From asking for the dump to holding it here, ms.
    pub transfer_ms: u64,
    /// Restoring it here, ms.
    pub restore_ms: u64,
    /// Bytes that crossed.
    pub transferred_bytes: u64,
    /// Their SHA-256.
    pub transferred_sha256: String,
    /// Whether the sender's hash matched (false only when the phone has no `sha256sum`).
    pub transfer_verified: bool,
    /// Whether it was streamed (never stored on the phone).
    pub streamed: bool,
}

/// Writes the sidecar `NAME.json` beside the dump: under a temporary name only its owner reads,
/// then hard-linked to its name, which never replaces a file (an existing one is left alone,
/// whoever put it there and whenever).
pub(super) fn write_sidecar(dir: &Path, name: &str, sidecar: &Sidecar) -> anyhow::Result<()> {
    let side = dir.join(format!("{name}.json"));
    let tmp_side = dir.join(format!(".{name}.json.{}.tmp", std::process::id()));
    let text = serde_json::to_string_pretty(sidecar)?;
    let written = private_file(&tmp_side).and_then(|mut f| {
        std::io::Write::write_all(&mut f, format!("{text}\n").as_bytes())
            .with_context(|| tmp_side.display().to_string())
    });
    let linked = written.and_then(|()| match std::fs::hard_link(&tmp_side, &side) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(e).with_context(|| side.display().to_string()),
        _ => Ok(()),
    });
    let _ = std::fs::remove_file(&tmp_side);
    linked
}
