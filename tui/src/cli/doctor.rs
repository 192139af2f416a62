//! `heaptui doctor`: what a phone's runtime offers heaptui's dumps, asked before a repro. It reads
//! the phone's `libart.so` (or a file), finds every symbol the fork dump looks for, says in which
//! table each one is (`dynsym`, `symtab`, `gnu_debugdata`) and which way the fork dump would take
//! through it, and says which dump methods the phone supports and why not where not. It always
//! lists what this heaptui carries for phones (each build's ABI, file, size and SHA-256, and the
//! builds it was made without, with why); with no phone attached, that is all it says.

use std::path::PathBuf;

use anyhow::Context;
use forkdump::plan::Plan;

use super::{DeviceArgs, Format};

/// `heaptui doctor`.
#[derive(clap::Args)]
pub struct DoctorArgs {
    /// A `libart.so` on disk instead of a phone's.
    #[arg(long, value_name = "FILE")]
    pub libart: Option<PathBuf>,
    /// The Android SDK level the library on disk is from (a phone says its own): which dump
    /// methods the release has. The fork dump's way is the library's own symbols' choice.
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
    if args.libart.is_none() && args.device.device()?.runs_here() {
        return match args.format {
            Format::Json => super::print_json(&format!("{}\n", serde_json::json!({ "builds": builds_json() }))),
            Format::Text => super::print(&format!(
                "{}\nno phone attached: name one (-s SERIAL) or a runtime's library (--libart FILE) to read its runtime\n",
                builds_text()
            )),
        };
    }
    let Pulled { bytes, from, sdk, module, failures } = match &args.libart {
        Some(file) => Pulled {
            bytes: read_libart(file).with_context(|| format!("{}", file.display()))?,
            from: file.display().to_string(),
            sdk: args.sdk,
            module: None,
            failures: Vec::new(),
        },
        None => pull_libart(&args.device)?,
    };
    let lib =
        forkdump::elf::Library::parse(&bytes).with_context(|| format!("{from} is not a library heaptui can read"))?;
    let plan = Plan::of(&lib);
    let methods = methods(&plan, sdk);
    let found = Found { plan: &plan, from: &from, sdk, module: module.as_deref(), failures: &failures };
    match args.format {
        Format::Json => super::print_json(&format!("{}\n", json(&found, &methods))),
        Format::Text => super::print(&format!("{}\n{}", text(&found, &methods), builds_text())),
    }
}

/// What was read of a runtime.
struct Found<'a> {
    plan: &'a Plan,
    /// The library's place (a phone's serial and path, or a file).
    from: &'a str,
    /// The platform's API level.
    sdk: Option<u32>,
    /// The ART module's version, as the phone's package manager says it (Android 10+).
    module: Option<&'a str>,
    /// The methods that failed on this phone before (its build and ART module as now).
    failures: &'a [crate::session::dump::phones::Failure],
}

/// A runtime's library as read, and what its platform says of it.
struct Pulled {
    bytes: Vec<u8>,
    /// Where it was read (a phone's serial and path, or a file).
    from: String,
    sdk: Option<u32>,
    /// The ART module's version.
    module: Option<String>,
    /// What heaptui remembers of the phone's dump methods (a phone only).
    failures: Vec<crate::session::dump::phones::Failure>,
}

/// The phone's `libart.so`, pulled to a private temporary file, its API level and its ART
/// module's version.
fn pull_libart(device: &DeviceArgs) -> anyhow::Result<Pulled> {
    let device = device.device()?;
    if device.runs_here() {
        crate::fail!(Usage, "this machine has no Android runtime: name a phone (-s SERIAL) or a file (--libart FILE)");
    }
    let sdk = device.property("ro.build.version.sdk").and_then(|v| v.parse().ok());
    let module = art_module(device.as_ref());
    let dir = tempfile::tempdir()?;
    for path in LIBART {
        let o = device.output(&format!("ls {path}"))?;
        if o.code != 0 {
            continue;
        }
        let size = device.output(&format!("stat -c %s {path}"))?;
        let size: Option<u64> = String::from_utf8_lossy(&size.stdout).trim().parse().ok();
        if let Some(size) = size.filter(|&s| s > MAX_LIBART) {
            crate::fail!(
                DeviceFailed,
                "{}:{path} holds {size} bytes: more than a runtime's library ({} MiB at most)",
                device.serial(),
                MAX_LIBART >> 20
            );
        }
        let local = dir.path().join("libart.so");
        device.pull(path, &local, &mut |_, _| {})?;
        let failures = crate::session::dump::phones::PhoneKey::of(device.as_ref())
            .map(|key| crate::session::dump::phones::Record::load().of(&key).cloned().collect())
            .unwrap_or_default();
        return Ok(Pulled {
            bytes: read_libart(&local)?,
            from: format!("{}:{path}", device.serial()),
            sdk,
            module,
            failures,
        });
    }
    crate::fail!(DeviceFailed, "{} has no libart.so where Android keeps it ({})", device.serial(), LIBART.join(", "))
}

/// The most a runtime's library may hold. Android's `libart.so` is 5–30 MB (a host debug build
/// about 100 MB); a file past this is not one, and is not read into memory.
const MAX_LIBART: u64 = 256 << 20;

/// A runtime's library file: a regular file (not a FIFO or a device), at most [`MAX_LIBART`].
fn read_libart(path: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        anyhow::bail!("not a regular file");
    }
    if meta.len() > MAX_LIBART {
        anyhow::bail!("{} bytes: more than a runtime's library ({} MiB at most)", meta.len(), MAX_LIBART >> 20);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_LIBART + 1), &mut bytes)?;
    if bytes.len() as u64 > MAX_LIBART {
        anyhow::bail!("grew past {} MiB while read", MAX_LIBART >> 20);
    }
    Ok(bytes)
}

/// The ART module's version code (`com.android.art`, or Google's `com.google.android.art`), as
/// `pm list packages --apex-only --show-versioncode` says it to the shell user; `None` where
/// the phone has no APEX packages (before Android 10) or says nothing readable.
fn art_module(device: &dyn bridge::device::Device) -> Option<String> {
    let o = device.output("pm list packages --apex-only --show-versioncode").ok()?;
    crate::session::dump::phones::art_module_in(&String::from_utf8_lossy(&o.stdout))
}

/// The dump methods and whether this runtime supports them. App-specific conditions (debuggable,
/// profileable) are said, not checked: they are the app's, not the runtime's.
fn methods(plan: &Plan, sdk: Option<u32>) -> Vec<Method> {
    // The library loaded into the app is built for the runtime's CPU.
    let library = plan
        .abi
        .and_then(bridge::agent::android_triple_for_abi)
        .map(|t| bridge::builds::payload(bridge::builds::Kind::ForkLibrary, t));
    let fork = match (sdk, library) {
        (Some(s), _) if s < 26 => (false, format!("Android API {s}: ART attaches agents from Android 8 (API 26)")),
        (_, None) => (false, "the runtime is for a CPU heaptui builds no fork dump library for".to_string()),
        (_, Some(Err(e))) => (false, e.to_string()),
        _ => match plan.refusal() {
            Some(why) => (false, why),
            None => (
                true,
                format!(
                    "{} on {}, then fork; the child dumps with {}; the app must be debuggable",
                    plan.sequence.name(),
                    plan.generation.name(),
                    plan.dump_name().unwrap_or("?")
                ),
            ),
        },
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

fn json(found: &Found<'_>, methods: &[Method]) -> serde_json::Value {
    let plan = found.plan;
    let symbols: serde_json::Map<String, serde_json::Value> = plan
        .symbols
        .iter()
        .map(|(name, found)| (name.to_string(), found.map_or(serde_json::Value::Null, |f| f.1.table().into())))
        .collect();
    serde_json::json!({
        "libart": found.from,
        "sdk": found.sdk,
        "art_module": found.module,
        "failed_here": found.failures.iter().map(|f| serde_json::json!({"method": f.method, "when": f.when, "why": f.why})).collect::<Vec<_>>(),
        "bits": if plan.is_64 { 64 } else { 32 },
        "abi": plan.abi,
        "builds": builds_json(),
        "methods": methods.iter().map(|m| serde_json::json!({"name": m.name, "supported": m.supported, "why": m.why})).collect::<Vec<_>>(),
        "fork": {
            "path": plan.dump_name().map(|d| format!("{}+{d}", plan.sequence.name())),
            "sequence": plan.sequence.name(),
            "releases": plan.sequence.releases(),
            "chosen_by": "symbols",
            "runtime": plan.generation.name(),
            "evidence": plan.evidence.map(|(name, source)| serde_json::json!({"symbol": name, "table": source.table()})),
            "suspend": plan.sequence.name(),
            "dump": plan.dump_name(),
            "needs": plan.sequence.needs(),
            "missing": plan.missing,
            "refused": plan.refusal(),
            "symbols": symbols,
            "gnu_debugdata_error": plan.mini_debug_info,
        },
    })
}

fn text(found: &Found<'_>, methods: &[Method]) -> String {
    let plan = found.plan;
    let mut s = format!(
        "{} ({}-bit{}{})\n\nmethods:\n",
        found.from,
        if plan.is_64 { 64 } else { 32 },
        found.sdk.map_or(String::new(), |v| format!(", Android API {v}")),
        found.module.map_or(String::new(), |m| format!(", ART module {m}"))
    );
    for m in methods {
        s.push_str(&format!("  {:<9} {:<4} {}\n", m.name, if m.supported { "yes" } else { "no" }, m.why));
    }
    for f in found.failures {
        s.push_str(&format!(
            "  {} failed on this phone ({}): {}; --method auto goes on to the next method\n",
            f.method, f.when, f.why
        ));
    }
    let evidence = match plan.evidence {
        Some((name, source)) => format!("{name} in {}", source.table()),
        None => "no symbol that tells the generations apart".to_string(),
    };
    s.push_str(&format!(
        "\nruntime: {} (by its symbols: {evidence})\nfork dump: {}, then the child dumps with {}\n",
        plan.generation.name(),
        plan.sequence.name(),
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

/// What this heaptui carries for phones, and what it was made without.
fn builds_json() -> serde_json::Value {
    use bridge::builds::{CARRIED, LACKING};
    serde_json::json!({
        "carried": CARRIED.iter().map(|b| serde_json::json!({
            "abi": b.abi, "file": b.file, "target": b.target, "bytes": b.bytes.len(), "sha256": b.sha256,
        })).collect::<Vec<_>>(),
        "lacking": LACKING.iter().map(|b| serde_json::json!({
            "abi": b.abi, "file": b.file, "target": b.target, "why": b.why,
        })).collect::<Vec<_>>(),
    })
}

fn builds_text() -> String {
    use bridge::builds::{CARRIED, LACKING};
    let mut s = String::from("this heaptui carries, for phones:\n");
    for b in CARRIED {
        s.push_str(&format!("  {:<12} {:<15} {:>9} bytes  sha256 {}\n", b.abi, b.file, b.bytes.len(), b.sha256));
    }
    if CARRIED.is_empty() {
        s.push_str("  nothing\n");
    }
    for b in LACKING {
        s.push_str(&format!("  {:<12} {:<15} not carried: {}\n", b.abi, b.file, b.why));
    }
    s
}
