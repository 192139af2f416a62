//! `heaptui doctor`: what a phone's runtime offers heaptui's dumps, asked before a repro. It reads
//! the phone's `libart.so` (or a file), finds every symbol the fork dump looks for, says in which
//! table each one is (`dynsym`, `symtab`, `gnu_debugdata`) and which way the fork dump would take
//! through it, and says which dump methods the phone supports and why not where not.

use std::path::PathBuf;

use anyhow::Context;
use forkdump::plan::{Chosen, Plan};

use super::{DeviceArgs, Format};

/// `heaptui doctor`.
#[derive(clap::Args)]
pub struct DoctorArgs {
    /// A `libart.so` on disk instead of a phone's.
    #[arg(long, value_name = "FILE")]
    pub libart: Option<PathBuf>,
    /// The Android SDK level the library on disk is from (a phone says its own): it picks the
    /// order of ART calls around the fork. Without it the library's symbols pick it.
    #[arg(long, value_name = "LEVEL", requires = "libart")]
    pub sdk: Option<u32>,
    #[command(flatten)]
    pub device: DeviceArgs,
    /// `text` for people, `json` for scripts.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

/// Where a phone keeps its runtime: the ART module (Android 10+), else the system image; 64-bit
/// first.
const LIBART: [&str; 4] = [
    "/apex/com.android.art/lib64/libart.so",
    "/apex/com.android.art/lib/libart.so",
    "/system/lib64/libart.so",
    "/system/lib/libart.so",
];

/// One dump method and whether it is there.
struct Method {
    name: &'static str,
    supported: bool,
    why: String,
}

/// Reads the runtime and says what it offers.
pub fn run(args: DoctorArgs) -> anyhow::Result<()> {
    let (bytes, from, sdk) = match &args.libart {
        Some(file) => {
            (std::fs::read(file).with_context(|| format!("{}", file.display()))?, file.display().to_string(), args.sdk)
        }
        None => pull_libart(&args.device)?,
    };
    let lib =
        forkdump::elf::Library::parse(&bytes).with_context(|| format!("{from} is not a library heaptui can read"))?;
    let plan = Plan::of(&lib, sdk);
    let methods = methods(&plan, sdk);
    match args.format {
        Format::Json => super::print(&format!("{}\n", json(&plan, &from, sdk, &methods))),
        Format::Text => super::print(&text(&plan, &from, sdk, &methods)),
    }
}

/// The phone's `libart.so`, pulled to a private temporary file, and its API level.
fn pull_libart(device: &DeviceArgs) -> anyhow::Result<(Vec<u8>, String, Option<u32>)> {
    let device = device.device()?;
    if device.runs_here() {
        crate::fail!(Usage, "this machine has no Android runtime: name a phone (-s SERIAL) or a file (--libart FILE)");
    }
    let sdk = device.property("ro.build.version.sdk").and_then(|v| v.parse().ok());
    let dir = tempfile::tempdir()?;
    for path in LIBART {
        let o = device.output(&format!("ls {path}"))?;
        if o.code != 0 {
            continue;
        }
        let local = dir.path().join("libart.so");
        device.pull(path, &local, &mut |_, _| {})?;
        return Ok((std::fs::read(&local)?, format!("{}:{path}", device.serial()), sdk));
    }
    crate::fail!(DeviceFailed, "{} has no libart.so where Android keeps it ({})", device.serial(), LIBART.join(", "))
}

/// The dump methods and whether this runtime supports them. App-specific conditions (debuggable,
/// profileable) are said, not checked: they are the app's, not the runtime's.
fn methods(plan: &Plan, sdk: Option<u32>) -> Vec<Method> {
    let fork = match sdk {
        Some(s) if s < 26 => (false, format!("Android API {s}: ART attaches agents from Android 8 (API 26)")),
        _ if !plan.ready() => (
            false,
            format!(
                "the sequence for {} ({}) needs {}, not in this library",
                plan.sequence.releases(),
                plan.sequence.name(),
                plan.missing.join(", ")
            ),
        ),
        _ => (
            true,
            format!(
                "{} ({}), then fork; the child dumps with {}; the app must be debuggable",
                plan.sequence.name(),
                plan.sequence.releases(),
                plan.dump_name().unwrap_or("?")
            ),
        ),
    };
    let perfetto = match sdk {
        Some(s) if s >= 30 => (true, "ART's own fork dump (Android 11+) for a profileable or debuggable app".into()),
        Some(s) => (false, format!("Android API {s}: perfetto_hprof came with Android 11 (API 30)")),
        None => (false, "unknown Android release (a library on disk): Android 11+ has it".into()),
    };
    vec![
        Method { name: "fork", supported: fork.0, why: fork.1 },
        Method { name: "perfetto", supported: perfetto.0, why: perfetto.1 },
        Method {
            name: "am",
            supported: true,
            why: "am dumpheap works for every app; the app pauses while ART writes".into(),
        },
        Method { name: "attach", supported: false, why: "HotSpot's attach protocol: JVMs, not Android apps".into() },
    ]
}

fn json(plan: &Plan, from: &str, sdk: Option<u32>, methods: &[Method]) -> serde_json::Value {
    let symbols: serde_json::Map<String, serde_json::Value> = plan
        .symbols
        .iter()
        .map(|(name, found)| (name.to_string(), found.map_or(serde_json::Value::Null, |f| f.1.table().into())))
        .collect();
    serde_json::json!({
        "libart": from,
        "sdk": sdk,
        "bits": if plan.is_64 { 64 } else { 32 },
        "methods": methods.iter().map(|m| serde_json::json!({"name": m.name, "supported": m.supported, "why": m.why})).collect::<Vec<_>>(),
        "fork": {
            "path": plan.dump_name().map(|d| format!("{}+{d}", plan.sequence.name())),
            "sequence": plan.sequence.name(),
            "releases": plan.sequence.releases(),
            "chosen_by": match plan.chosen { Chosen::Sdk(_) => "sdk", Chosen::Symbols => "symbols" },
            "suspend": plan.sequence.name(),
            "dump": plan.dump_name(),
            "needs": plan.sequence.needs(),
            "missing": plan.missing,
            "symbols": symbols,
            "gnu_debugdata_error": plan.mini_debug_info,
        },
    })
}

fn text(plan: &Plan, from: &str, sdk: Option<u32>, methods: &[Method]) -> String {
    let mut s = format!(
        "{from} ({}-bit{})\n\nmethods:\n",
        if plan.is_64 { 64 } else { 32 },
        sdk.map_or(String::new(), |v| format!(", Android API {v}"))
    );
    for m in methods {
        s.push_str(&format!("  {:<9} {:<4} {}\n", m.name, if m.supported { "yes" } else { "no" }, m.why));
    }
    s.push_str(&format!(
        "\nfork dump: {} ({}, chosen by {}), then the child dumps with {}\n",
        plan.sequence.name(),
        plan.sequence.releases(),
        match plan.chosen {
            Chosen::Sdk(level) => format!("the Android API level, {level}"),
            Chosen::Symbols => "the library's symbols".to_string(),
        },
        plan.dump_name().unwrap_or("(none)")
    ));
    for (name, found) in &plan.symbols {
        s.push_str(&format!(
            "  {:<14} {} {name}\n",
            found.map_or("missing", |f| f.1.table()),
            if plan.uses(name) { "*" } else { " " }
        ));
    }
    s.push_str("  (* the fork dump calls it)\n");
    if let Some(e) = &plan.mini_debug_info {
        s.push_str(&format!("  ({e})\n"));
    }
    s
}
