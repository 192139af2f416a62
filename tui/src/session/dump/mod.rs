//! Dumping a running process, one pipeline for every device: the agent samples the process (the
//! figures at dump time, as KOOM's runningInfo keeps them), dumps it with what it offers and
//! strips it where it runs; the stripped dump is fetched here when it was made elsewhere (pulled
//! with the phone's SHA-256 checked, streamed with the agent's, or read out of the app with
//! `run-as` for a fork dump) and restored to a standard HPROF; it takes its name only when whole,
//! never over a file, with a [`Sidecar`] beside it; what was written on the device is removed
//! once a verified copy is here.

use std::path::{Path, PathBuf};

mod names;
pub mod phones;
mod progress;
mod remote;
pub(crate) use remote::NO_PIXELS_PERFETTO;
mod sidecar;

use agent::protocol::{DumpSpec, Dumped, Method, Mode};
use agent::sample::Sample;
use agent::trigger::Kind;
use anyhow::Context;
use bridge::agent::Agent;
use bridge::device::{quote, Device, Pulled, AGENT_DIR};

pub use names::{default_path, utc_stamp};
pub use progress::{Progress, Step};
pub use sidecar::{Phone, ProcessRef, Sidecar, Transfer};

use crate::session::files::{link_fresh, private_dir, private_file};
use remote::{fork_dump, stream_dump, Remove};

/// What to dump, and how.
#[derive(Debug, Clone)]
pub struct DumpRequest {
    /// The process.
    pub pid: u32,
    /// What the user called it (the default file name's directory, the sidecar).
    pub query: String,
    /// How; `None` picks what the process offers (this machine: the attach protocol).
    pub method: Option<Method>,
    /// How to strip it where it is dumped.
    pub mode: Mode,
    /// Reachable objects only (after a GC), or every object.
    pub live: bool,
    /// Where to write it; `None` is the default place ([`default_path`]).
    pub output: Option<PathBuf>,
    /// Why it is dumped.
    pub trigger: Kind,
    /// On a phone: stream the stripped dump to this machine instead of storing it there.
    pub stream: bool,
    /// Bitmap pixels, where the method can carry them (`am dumpheap -b`).
    pub bitmaps: bool,
}

/// A finished dump.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Where it is.
    pub path: PathBuf,
    /// What its sidecar says.
    pub sidecar: Sidecar,
    /// What people should know of how it was made (a method that failed and the one taken
    /// instead, with what that one loses).
    pub notes: Vec<String>,
}

impl Outcome {
    /// One line for people: what was dumped, how, and where it is.
    pub fn summary(&self) -> String {
        use heap::fmt::human_bytes;
        let s = &self.sidecar;
        let name = &s.process.name;
        let pid = s.process.pid;
        match &s.transfer {
            None => format!(
                "heaptui: dumped {name} ({pid}) in {} ms: {} ({}{})",
                s.dump_ms,
                self.path.display(),
                human_bytes(s.bytes),
                if s.mode == Mode::None {
                    String::new()
                } else {
                    format!(", {} before {}", human_bytes(s.raw_bytes), s.mode)
                }
            ),
            Some(t) => format!(
                "heaptui: dumped {name} ({pid}) on {} with {} in {} ms: {} raw, {} over adb, {} {}: {}",
                s.device,
                s.method,
                s.dump_ms,
                human_bytes(s.raw_bytes),
                human_bytes(t.transferred_bytes),
                human_bytes(s.bytes),
                if s.restored { "restored" } else { "stored" },
                self.path.display()
            ),
        }
    }
}

/// Dumps as `request` says through `agent`, with `progress` told each step.
pub fn dump(agent: &Agent<'_>, request: &DumpRequest, progress: Progress<'_>) -> anyhow::Result<Outcome> {
    let device = agent.device();
    let here = device.runs_here();
    check(device, request.method, request.stream)?;
    let before = sample_now(agent, request.pid)?;
    let mut to = Destination::new(device, request, before.time_ms)?;
    // The dump as it arrives (stripped where it was made); removed at the end, whatever happens.
    let staged = to.dir.join(format!(".{}.{}.pulled", to.name, std::process::id()));
    let _staged = tempfile::TempPath::try_from_path(&staged).with_context(|| staged.display().to_string())?;

    progress(Step::Dump, 0, 1);
    let start = std::time::Instant::now();
    let mut notes = Vec::new();
    let mut fetched = fetch(agent, request, &before, &staged, progress, &mut notes)?;
    // `auto` took Perfetto: the stored trace is named as one.
    if fetched.dumped.method == Method::Perfetto && !to.chosen {
        if let Some(stem) = to.name.strip_suffix(".hprof") {
            to.name = format!("{stem}.pftrace");
        }
    }
    progress(Step::Dump, 1, 1);
    // Stripped where it was dumped, as part of the dump.
    progress(Step::Strip, 1, 1);
    let transfer_ms = start.elapsed().as_millis() as u64;

    // A dump stripped on a phone is restored here, so the file here is a standard HPROF; one
    // stripped on this machine was stripped to spare this machine's disk, and stays so.
    let restore = fetched.pulled.is_some() && fetched.dumped.mode != Mode::None;
    let start = std::time::Instant::now();
    let out = to.place(&staged, restore, &fetched, progress)?;
    // Only now, with the dump in place here, does the phone's copy go.
    if let Some(r) = &mut fetched.on_phone {
        r.armed = true;
    }
    let Fetched { dumped, pulled, .. } = fetched;
    let transfer = pulled.map(|p| Transfer {
        transfer_ms,
        restore_ms: start.elapsed().as_millis() as u64,
        transferred_bytes: p.bytes,
        transferred_sha256: p.sha256,
        transfer_verified: p.verified,
        streamed: request.stream,
    });
    let sidecar = Sidecar {
        schema: "heaptui.dump/1".into(),
        device: device.serial().to_string(),
        phone: (!here).then(|| Phone {
            model: device.model().map(str::to_string),
            manufacturer: device.property("ro.product.manufacturer").unwrap_or_default(),
            sdk: device.property("ro.build.version.sdk").and_then(|s| s.parse().ok()),
        }),
        process: ProcessRef { pid: request.pid, name: before.name.clone(), query: request.query.clone() },
        method: dumped.method,
        // The fork dump takes every object (no GC before it).
        live_only: request.live && !matches!(dumped.method, Method::Fork | Method::Perfetto),
        mode: dumped.mode,
        trigger: request.trigger,
        time_ms: before.time_ms,
        dump_ms: dumped.dump_ms,
        strip_ms: dumped.strip_ms,
        transfer,
        raw_bytes: dumped.raw_bytes,
        bytes: std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0),
        restored: restore,
        runtime: dumped.message.clone(),
        jvm: here.then(|| dumped.message.clone()),
        no_pixels: dumped.no_pixels.clone(),
        sample: before,
    };
    let name = out.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_else(|| to.name.clone());
    sidecar::write_sidecar(&to.dir, &name, &sidecar)?;
    Ok(Outcome { path: out, sidecar, notes })
}

/// Where a dump goes here.
struct Destination {
    /// Its directory, absolute (on this machine the JVM writes the dump, from its own working
    /// directory).
    dir: PathBuf,
    /// Its file name.
    name: String,
    /// Whether the user chose it (`-o`): then it is never changed for a free one.
    chosen: bool,
}

impl Destination {
    /// The output `request` names, or the default place; never an existing file.
    fn new(device: &dyn Device, request: &DumpRequest, time_ms: u64) -> anyhow::Result<Destination> {
        let out = match &request.output {
            Some(o) => o.clone(),
            // A Perfetto trace keeps its own format (heaptui opens it as it opens a dump).
            None if request.method == Some(Method::Perfetto) => {
                default_path(device.serial(), &request.query, time_ms)?.with_extension("pftrace")
            }
            None => default_path(device.serial(), &request.query, time_ms)?,
        };
        if out.exists() {
            crate::fail!(
                Output,
                "{} exists; heaptui never overwrites a file (remove it or choose another name)",
                out.display()
            );
        }
        let dir = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        private_dir(dir)?;
        let dir = dir.canonicalize().with_context(|| dir.display().to_string())?;
        let name = out.file_name().context("-o names no file")?.to_string_lossy().to_string();
        Ok(Destination { dir, name, chosen: request.output.is_some() })
    }

    /// Gives the fetched dump `staged` its name (restored first when `restore`); a dump that
    /// came from a phone and cannot be placed is kept beside it, stripped, rather than lost.
    fn place(
        &self,
        staged: &Path,
        restore: bool,
        fetched: &Fetched<'_>,
        progress: Progress<'_>,
    ) -> anyhow::Result<PathBuf> {
        let out = self.dir.join(&self.name);
        let placed = if restore {
            restore_into(staged, &out, self.chosen, progress)
        } else {
            link_fresh(staged, &out, self.chosen)
        };
        match placed {
            Err(e) if fetched.pulled.is_some() => {
                let kept = link_fresh(staged, &out.with_file_name(format!("{}.stripped", self.name)), false);
                // Only a pulled dump has a copy left on the phone (a streamed one was never
                // stored there; the fork dump's is removed with the app's files).
                let on_phone = fetched.on_phone.as_ref().map(|r| r.path.as_str());
                Err(match (kept, on_phone) {
                    (Ok(k), Some(p)) => {
                        e.context(format!("the stripped dump is kept at {} (and on the phone at {p})", k.display()))
                    }
                    (Ok(k), None) => e.context(format!("the stripped dump is kept at {}", k.display())),
                    (Err(_), Some(p)) => e.context(format!("the stripped dump stays on the phone at {p}")),
                    (Err(_), None) => e.context("the stripped dump could not be kept"),
                })
            }
            placed => placed,
        }
    }
}

/// A dump made on its device and, when that is a phone, brought here.
struct Fetched<'a> {
    /// What the dumper said it did.
    dumped: Dumped,
    /// How it crossed, when it came from a phone.
    pulled: Option<Pulled>,
    /// Its copy on the phone, removed once armed.
    on_phone: Option<Remove<'a>>,
}

/// Dumps on the device and brings the (stripped) dump to `staged`: written there directly on
/// this machine; on a phone pulled from the agent's file, streamed from its stdout, or read out
/// of the app for a fork dump. On a phone, `--method auto` skips a method that failed there
/// before ([`phones::Record`]), and goes on to the next one when the fork dump fails now,
/// remembering it; `notes` says so.
fn fetch<'a>(
    agent: &Agent<'a>,
    request: &DumpRequest,
    before: &Sample,
    staged: &Path,
    progress: Progress<'_>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Fetched<'a>> {
    let device = agent.device();
    let pid = request.pid;
    // This machine: `auto` is the attach protocol (SIGQUIT would end anything but a JVM, and the
    // attach code refuses those).
    let auto = match (request.method, device.runs_here()) {
        (None, false) => auto_on_phone(agent, pid, before.bits),
        _ => None,
    };
    let mut method = match (request.method, device.runs_here()) {
        (Some(m), _) => Some(m),
        (None, true) => Some(Method::Attach),
        (None, false) => auto.map(|a| a.first),
    };
    let phone =
        (!device.runs_here() && matches!(method, Some(Method::Fork))).then(|| phones::PhoneKey::of(device)).flatten();
    let mut record = phones::Record::load();
    if let (Some(a), Some(key)) = (auto, &phone) {
        if let Some(f) = record.failure(key, Method::Fork) {
            notes.push(format!(
                "heaptui: the fork dump failed on this phone before ({}: {}); --method auto takes {} instead: {}",
                f.when,
                f.why,
                a.next,
                what_it_loses(a.next)
            ));
            method = Some(a.next);
        }
    }
    if device.runs_here() {
        let spec = DumpSpec { pid, method, mode: request.mode, live: request.live, bitmaps: request.bitmaps };
        let dumped = agent.dump_here(&spec, staged)?;
        return Ok(Fetched { dumped, pulled: None, on_phone: None });
    }
    if method == Some(Method::Fork) {
        let spec = DumpSpec { pid, method, mode: request.mode, live: request.live, bitmaps: request.bitmaps };
        match fork_dump(agent, &spec, before, staged, progress) {
            Ok((dumped, pulled)) => {
                if let Some(key) = &phone {
                    if record.failure(key, Method::Fork).is_some() {
                        record.forget(key, Method::Fork);
                        let _ = record.save();
                    }
                }
                return Ok(Fetched { dumped, pulled: Some(pulled), on_phone: None });
            }
            Err(e) => {
                if let Some(key) = &phone {
                    record.failed(key, Method::Fork, &format!("{e:#}"));
                    if let Err(s) = record.save() {
                        notes.push(format!("heaptui: the phone's record could not be kept: {s:#}"));
                    }
                }
                let Some(a) = auto else { return Err(e) };
                notes.push(format!(
                    "heaptui: the fork dump failed ({e:#}); --method auto goes on with {}: {} (it will not try the fork dump first on this phone again until its build or ART module changes)",
                    a.next,
                    what_it_loses(a.next)
                ));
                method = Some(a.next);
            }
        }
    }
    let spec = DumpSpec { pid, method, mode: request.mode, live: request.live, bitmaps: request.bitmaps };
    if method == Some(Method::Perfetto) {
        let (dumped, pulled) = remote::perfetto_dump(agent, &spec, before, staged, progress)?;
        return Ok(Fetched { dumped, pulled: Some(pulled), on_phone: None });
    }
    if request.stream {
        let (dumped, pulled) = stream_dump(agent, &spec, staged, progress)?;
        return Ok(Fetched { dumped, pulled: Some(pulled), on_phone: None });
    }
    // Unique per heaptui run: two instances dumping on one phone do not meet.
    let path = format!("{AGENT_DIR}/heaptui-{pid}-{}-{}.hprof", utc_stamp(before.time_ms), std::process::id());
    let dumped = agent.dump(&spec, &path)?;
    // Once the dump exists on the phone, it is removed only after it is in place here.
    let on_phone = Remove { device, path: path.clone(), armed: false };
    progress(Step::Dump, 1, 1);
    let pulled = device
        .pull(&path, staged, &mut |done, total| progress(Step::Transfer, done, total.unwrap_or(0)))
        .map_err(|e| {
            // The phone holds the only copy: kept, and said how to fetch it or remove it.
            anyhow::Error::new(e).context(format!(
                "the stripped dump stays on the phone at {path} (`adb -s {serial} pull {path}`, then `heaptui \
                 restore`; `adb -s {serial} shell rm {path}` removes it)",
                serial = quote(device.serial()),
                path = quote(&path),
            ))
        })?;
    Ok(Fetched { dumped, pulled: Some(pulled), on_phone: Some(on_phone) })
}

/// What a method loses against the fork dump, said when `--method auto` falls back to it.
fn what_it_loses(method: Method) -> &'static str {
    match method {
        Method::Perfetto => "ART's own fork dump through Perfetto: a heap graph without field values or Bitmap pixels",
        Method::Am => "am dumpheap: every value, but the app pauses while ART writes",
        Method::Fork | Method::Attach => "",
    }
}

/// What `--method auto` takes on a phone, and what it takes when that is not to be had.
#[derive(Debug, Clone, Copy)]
struct Auto {
    first: Method,
    /// The next method when `first` is the fork dump (Perfetto or `am`), else `first`.
    next: Method,
}

/// What `--method auto` takes for app process `pid` on a phone (`None`: a JVM, which the agent
/// dumps through the attach protocol), and the next method. Reads the app's flags as the shell
/// user can (`dumpsys package`), the release, and whether heaptui has a fork dump library for
/// the app.
fn auto_on_phone(agent: &Agent<'_>, pid: u32, bits: Option<u8>) -> Option<Auto> {
    let device = agent.device();
    let process = agent.processes().ok()?.into_iter().find(|p| p.pid == pid)?;
    if process.jvm {
        return None;
    }
    let sdk = device.property("ro.build.version.sdk").and_then(|s| s.trim().parse::<u32>().ok());
    let app = agent::android::package_of(&process.cmdline).and_then(|pkg| {
        let o = device.output(&format!("dumpsys package {}", bridge::device::quote(pkg))).ok()?;
        agent::android::parse_package(&String::from_utf8_lossy(&o.stdout), pkg)
    });
    let prop = |name: &str| device.property(name).unwrap_or_default();
    let fork_library = bridge::agent::process_abi(
        bits,
        &prop("ro.product.cpu.abilist32"),
        &prop("ro.product.cpu.abilist64"),
        &prop("ro.product.cpu.abi"),
    )
    .and_then(bridge::agent::android_triple_for_abi)
    .is_some_and(|t| bridge::builds::payload(bridge::builds::Kind::ForkLibrary, t).is_ok());
    Some(Auto { first: choose_auto(app.as_ref(), sdk, fork_library), next: choose_auto(app.as_ref(), sdk, false) })
}

/// `--method auto` for an app: the fork dump for a debuggable app on Android 8+ when heaptui has
/// its library (values, and a pause only around `fork`); Perfetto for a profileable (or
/// debuggable) app on Android 11+ (ART's own fork dump, no values); `am dumpheap` otherwise.
pub fn choose_auto(app: Option<&agent::android::App>, sdk: Option<u32>, fork_library: bool) -> Method {
    let sdk = sdk.unwrap_or(0);
    match app {
        Some(a) if a.debuggable && sdk >= 26 && fork_library => Method::Fork,
        Some(a) if a.profileable && sdk >= 30 => Method::Perfetto,
        _ => Method::Am,
    }
}

/// Why `--method auto` took `method` (see [`choose_auto`]).
pub fn why_auto(method: Method) -> &'static str {
    match method {
        Method::Attach => "the process is a JVM, and HotSpot's attach protocol is its own way to dump",
        Method::Am => {
            "am dumpheap is ART's own dump, for every app; it pauses the app while it writes (--method fork \
             pauses a debuggable app only around fork, at the risks the README lists)"
        }
        Method::Fork => {
            "the app is debuggable: heaptui's fork dump pauses it only around fork and keeps every value \
             (at the risks the README lists)"
        }
        Method::Perfetto => {
            "the app is profileable on Android 11+: ART's own fork dump through Perfetto pauses it only \
             around fork; the heap graph has no values"
        }
    }
}

/// Whether `method` (`None`: what the process offers) and `stream` can dump on `device`: `am`
/// and the fork dump are an Android app's, and a fork dump cannot be streamed. Callers may ask
/// before they touch the process; [`dump`] asks again.
pub fn check(device: &dyn Device, method: Option<Method>, stream: bool) -> anyhow::Result<()> {
    if device.runs_here() && matches!(method, Some(Method::Am | Method::Fork | Method::Perfetto)) {
        crate::fail!(
            Usage,
            "--method {} dumps an Android app: name a phone with -s SERIAL",
            method.map_or("", Method::name)
        );
    }
    if stream && method == Some(Method::Perfetto) {
        crate::fail!(
            Usage,
            "--stream does not apply to --method perfetto: Perfetto writes its trace on the phone, then it is pulled"
        );
    }
    if stream && !device.runs_here() && !device.separate_streams() {
        crate::fail!(
            Usage,
            "{} has no shell protocol v2 (adbd before Android 7): a streamed dump needs stdout and stderr apart; dump without --stream",
            device.serial()
        );
    }
    if stream && method == Some(Method::Fork) {
        crate::fail!(Usage, "--stream does not apply to --method fork: the fork dump is stripped inside the app and read back with run-as");
    }
    Ok(())
}

/// One sample of `pid`, taken by the agent now.
fn sample_now(agent: &Agent<'_>, pid: u32) -> anyhow::Result<Sample> {
    let mut sample = None;
    let mut error = None;
    agent.sample(pid, 1, Some(1), &mut |line| match line {
        agent::protocol::Line::Sample { sample: s } => sample = Some(s),
        agent::protocol::Line::Error { message } => error = Some(message),
        _ => {}
    })?;
    match (sample, error) {
        (Some(s), _) => Ok(s),
        (None, Some(e)) if agent.device().runs_here() => crate::fail!(NoDevice, "{e}"),
        (None, _) => crate::fail!(NoDevice, "process {pid} on {}", agent.device().serial()),
    }
}

/// Restores the stripped dump `staged` to a standard HPROF named `out` (dropped values come back
/// as zeros).
fn restore_into(staged: &Path, out: &Path, chosen: bool, progress: Progress<'_>) -> anyhow::Result<PathBuf> {
    let bytes = std::fs::metadata(staged).map(|m| m.len()).unwrap_or(0);
    progress(Step::Restore, 0, bytes);
    let name = out.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let tmp = out.with_file_name(format!(".{name}.{}.restore", std::process::id()));
    let _tmp = tempfile::TempPath::try_from_path(&tmp).with_context(|| tmp.display().to_string())?;
    let input = std::fs::File::open(staged)?;
    let writer = std::io::BufWriter::with_capacity(1 << 20, private_file(&tmp)?);
    // What the phone sent is restored under the bound `restore` has: a few hundred bytes can
    // declare gigabytes of NODATA.
    let bound = crate::session::files::restore_bound(&staged.to_string_lossy(), &out.to_string_lossy(), None);
    let plan = heap::strip::Plan { max_restored: Some(bound), ..heap::strip::restore_plan() };
    let (w, _) = heap::strip::rewrite_all(input, writer, plan)?;
    w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    let placed = link_fresh(&tmp, out, chosen);
    progress(Step::Restore, bytes, bytes);
    placed
}

#[cfg(test)]
mod restore_tests {
    /// A phone's dump is restored under `restore`'s bound: a few hundred bytes declaring 80 GiB
    /// of NODATA are refused before anything is written, and nothing is left behind.
    #[test]
    fn a_phones_nodata_bomb_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let staged = dir.path().join("staged.hprof");
        std::fs::write(&staged, test_support::hostile::nodata_bomb(20, u32::MAX)).unwrap();
        let out = dir.path().join("dump.hprof");
        let mut progress = |_: super::Step, _: u64, _: u64| {};
        let e = super::restore_into(&staged, &out, false, &mut progress).unwrap_err();
        assert!(format!("{e:#}").contains("write back as zeros"), "{e:#}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left, ["staged.hprof"], "nothing written beside it");
    }
}

#[cfg(test)]
mod auto_tests {
    use super::*;

    fn app(debuggable: bool, profileable: bool) -> agent::android::App {
        agent::android::App { package: "com.example".into(), debuggable, large_heap: false, profileable }
    }

    #[test]
    fn auto_takes_the_way_the_app_allows() {
        // Debuggable, Android 8+, with the library: the fork dump; without it, Perfetto on 11+.
        assert_eq!(choose_auto(Some(&app(true, true)), Some(34), true), Method::Fork);
        assert_eq!(choose_auto(Some(&app(true, true)), Some(34), false), Method::Perfetto);
        assert_eq!(choose_auto(Some(&app(true, true)), Some(29), false), Method::Am);
        assert_eq!(choose_auto(Some(&app(true, true)), Some(25), true), Method::Am);
        // Profileable: Perfetto from Android 11 on.
        assert_eq!(choose_auto(Some(&app(false, true)), Some(30), true), Method::Perfetto);
        assert_eq!(choose_auto(Some(&app(false, true)), Some(29), true), Method::Am);
        // Neither, or unknown: am dumpheap.
        assert_eq!(choose_auto(Some(&app(false, false)), Some(35), true), Method::Am);
        assert_eq!(choose_auto(None, Some(35), true), Method::Am);
    }
}
