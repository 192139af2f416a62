//! Dumping a running process, one pipeline for every device: the agent samples the process (the
//! figures at dump time, as KOOM's runningInfo keeps them), dumps it with what it offers and
//! strips it where it runs; the stripped dump is fetched here when it was made elsewhere (pulled
//! with the phone's SHA-256 checked, streamed with the agent's, or read out of the app with
//! `run-as` for a fork dump) and restored to a standard HPROF; it takes its name only when whole,
//! never over a file, with a [`Sidecar`] beside it; what was written on the device is removed
//! once a verified copy is here.

use std::path::{Path, PathBuf};

use agent::protocol::{DumpSpec, Dumped, ForkOutcome, Method, Mode};
use agent::sample::Sample;
use agent::trigger::Kind;
use anyhow::{bail, Context};
use bridge::agent::Agent;
use bridge::device::{quote, Device, Pulled, AGENT_DIR};
use serde::{Deserialize, Serialize};

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
}

/// A step of a dump, for progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The runtime writes the dump.
    Dump,
    /// It is stripped.
    Strip,
    /// It crosses from the device.
    Transfer,
    /// It is restored to a standard HPROF.
    Restore,
}

impl Step {
    /// Its name on a progress bar.
    pub fn name(self) -> &'static str {
        match self {
            Step::Dump => "dump",
            Step::Strip => "strip",
            Step::Transfer => "transfer",
            Step::Restore => "restore",
        }
    }
}

/// Progress: a step, bytes (or steps) done, and in all (0 when unknown).
pub type Progress<'a> = &'a mut dyn FnMut(Step, u64, u64);

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

/// A finished dump.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Where it is.
    pub path: PathBuf,
    /// What its sidecar says.
    pub sidecar: Sidecar,
}

impl Outcome {
    /// One line for people: what was dumped, how, and where it is.
    pub fn summary(&self) -> String {
        use heap::report::human_bytes;
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
                "heaptui: dumped {name} ({pid}) on {} with {} in {} ms: {} raw, {} over adb, {} restored: {}",
                s.device,
                s.method,
                s.dump_ms,
                human_bytes(s.raw_bytes),
                human_bytes(t.transferred_bytes),
                human_bytes(s.bytes),
                self.path.display()
            ),
        }
    }
}

/// Dumps as `request` says through `agent`, with `progress` told each step.
pub fn dump(agent: &Agent<'_>, request: &DumpRequest, progress: Progress<'_>) -> anyhow::Result<Outcome> {
    let device = agent.device();
    let here = device.runs_here();
    if here && matches!(request.method, Some(Method::Am | Method::Fork)) {
        bail!("--method {} dumps an Android app: name a phone with -s SERIAL", request.method.map_or("", Method::name));
    }
    if request.stream && request.method == Some(Method::Fork) {
        bail!("--stream does not apply to --method fork: the fork dump is stripped inside the app and read back with run-as");
    }
    let before = sample_now(agent, request.pid)?;
    let to = Destination::new(device, request, before.time_ms)?;
    // The dump as it arrives (stripped where it was made); removed at the end, whatever happens.
    let staged = to.dir.join(format!(".{}.{}.pulled", to.name, std::process::id()));
    let _staged = tempfile::TempPath::try_from_path(&staged).with_context(|| staged.display().to_string())?;

    progress(Step::Dump, 0, 1);
    let start = std::time::Instant::now();
    let mut fetched = fetch(agent, request, &before, &staged, progress)?;
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
        live_only: request.live && dumped.method != Method::Fork,
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
        sample: before,
    };
    let name = out.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_else(|| to.name.clone());
    write_sidecar(&to.dir, &name, &sidecar)?;
    Ok(Outcome { path: out, sidecar })
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
            None => default_path(device.serial(), &request.query, time_ms)?,
        };
        if out.exists() {
            bail!("{} exists; heaptui never overwrites a file (remove it or choose another name)", out.display());
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
                let on_phone = fetched.on_phone.as_ref().map_or(String::new(), |r| format!(" at {}", r.path));
                Err(match kept {
                    Ok(k) => e.context(format!("the stripped dump is kept at {} (and on the phone)", k.display())),
                    Err(_) => e.context(format!("the stripped dump stays on the phone{on_phone}")),
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
/// of the app for a fork dump.
fn fetch<'a>(
    agent: &Agent<'a>,
    request: &DumpRequest,
    before: &Sample,
    staged: &Path,
    progress: Progress<'_>,
) -> anyhow::Result<Fetched<'a>> {
    let device = agent.device();
    let pid = request.pid;
    // This machine: `auto` is the attach protocol (SIGQUIT would end anything but a JVM, and the
    // attach code refuses those).
    let method = request.method.or(device.runs_here().then_some(Method::Attach));
    let spec = DumpSpec { pid, method, mode: request.mode, live: request.live };
    if device.runs_here() {
        let dumped = agent.dump(&spec, &staged.display().to_string())?;
        return Ok(Fetched { dumped, pulled: None, on_phone: None });
    }
    if method == Some(Method::Fork) {
        let (dumped, pulled) = fork_dump(agent, &spec, before, staged, progress)?;
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
            anyhow::Error::new(e).context(format!(
                "the stripped dump stays on the phone at {path} (`adb pull` it, then `heaptui restore`)"
            ))
        })?;
    Ok(Fetched { dumped, pulled: Some(pulled), on_phone: Some(on_phone) })
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
        (None, Some(e)) if agent.device().runs_here() => bail!("{e}"),
        (None, _) => bail!("process {pid} on {}", agent.device().serial()),
    }
}

/// Removes a file on the device when dropped, once armed.
struct Remove<'a> {
    device: &'a dyn Device,
    path: String,
    armed: bool,
}

impl Drop for Remove<'_> {
    fn drop(&mut self) {
        if self.armed {
            let _ = self.device.output(&format!("rm -f {}", quote(&self.path)));
        }
    }
}

/// Runs a command on the device when dropped: cleanup of what a dump left there.
struct Cleanup<'a> {
    device: &'a dyn Device,
    command: String,
}

impl Drop for Cleanup<'_> {
    fn drop(&mut self) {
        let _ = self.device.output(&self.command);
    }
}

/// Writes what `fill` hands over to a new private file at `path`, hashing and counting it; the
/// hash and count are checked against what the sender says it sent (`what`: the dump's name in
/// the error).
fn receive(
    path: &Path,
    what: &str,
    fill: impl FnOnce(&mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> anyhow::Result<(u64, String)>,
) -> anyhow::Result<Pulled> {
    use sha2::Digest;
    use std::io::Write;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, private_file(path)?);
    let mut hash = sha2::Sha256::new();
    let mut bytes = 0u64;
    let (sent_bytes, sent_sha256) = fill(&mut |b| {
        hash.update(b);
        bytes += b.len() as u64;
        w.write_all(b)
    })?;
    w.flush()?;
    let sha256: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    if sha256 != sent_sha256 || bytes != sent_bytes {
        bail!(
            "the {what} arrived damaged: {bytes} bytes with SHA-256 {sha256}, the sender sent {sent_bytes} bytes with {sent_sha256}"
        );
    }
    Ok(Pulled { bytes, sha256, verified: true })
}

/// The agent's dump straight from its stdout into `staged`; the agent's hash checks it.
fn stream_dump(
    agent: &Agent<'_>,
    spec: &DumpSpec,
    staged: &Path,
    progress: Progress<'_>,
) -> anyhow::Result<(Dumped, Pulled)> {
    let mut dumped = None;
    let pulled = receive(staged, "streamed dump", |sink| {
        let mut bytes = 0u64;
        let d = agent.dump_stream(spec, &mut |b| {
            bytes += b.len() as u64;
            progress(Step::Transfer, bytes, 0);
            sink(b)
        })?;
        let sent = (d.bytes, d.sha256.clone());
        dumped = Some(d);
        Ok(sent)
    })?;
    Ok((dumped.context("the agent reported no dump")?, pulled))
}

/// KOOM's fork dump on a phone, as Android Studio loads its agents: the library is pushed, copied
/// into the app's data directory with `run-as`, loaded with `cmd activity attach-agent`; it
/// suspends ART, forks, resumes the app at once and writes the child's dump, stripped, into the
/// app's cache directory with a [`ForkOutcome`] beside it; heaptui reads both with `run-as`,
/// checks the hash, and removes what it wrote. The app must be debuggable (Android 9+).
fn fork_dump(
    agent: &Agent<'_>,
    spec: &DumpSpec,
    before: &Sample,
    staged: &Path,
    progress: Progress<'_>,
) -> anyhow::Result<(Dumped, Pulled)> {
    let device = agent.device();
    let pid = spec.pid;
    let abi = device.property("ro.product.cpu.abi").unwrap_or_default();
    let triple = bridge::agent::android_triple_for_abi(&abi).with_context(|| {
        format!("{} runs {abi:?}; the fork dump is built for arm64-v8a and x86_64", device.serial())
    })?;
    let lib = bridge::agent::local_build(
        triple,
        "libforkdump.so",
        &format!("build it with `cargo build --release -p heaptui-forkdump --target {triple}` (the Android NDK's linker is needed)"),
    )?;
    let pkg = package_of(agent, pid)?;
    let staged_lib = format!("{AGENT_DIR}/libheaptui-forkdump.{}.so", std::process::id());
    let _unstage = Cleanup { device, command: format!("rm -f {}", quote(&staged_lib)) };
    device.push(&lib, &staged_lib, 0o644)?;
    let run_as = |cmd: &str| device.output(&format!("run-as {} sh -c {}", quote(&pkg), quote(cmd)));
    let o = run_as("mkdir -p code_cache cache && pwd")?;
    let data = String::from_utf8_lossy(&o.stdout).trim().to_string();
    if o.code != 0 || data.is_empty() {
        bail!(
            "run-as {pkg} failed ({}): the fork dump needs a debuggable app",
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    // Unique per heaptui run: two dumps of one app do not meet.
    let out = format!("{data}/cache/heaptui-{}-{}.hprof", utc_stamp(before.time_ms), std::process::id());
    let loaded = format!("{data}/code_cache/libheaptui-forkdump.{}.so", std::process::id());
    // Whatever happens, the app's directories keep nothing of it (the staged copy goes too).
    let cleanup = format!("rm -f {o} {o}.json {o}.*.part {o}.json.*.part {}", quote(&loaded), o = quote(&out));
    let _clean = Cleanup { device, command: format!("run-as {} sh -c {}", quote(&pkg), quote(&cleanup)) };
    let o = run_as(&format!("cp {} {}", quote(&staged_lib), quote(&loaded)))?;
    if o.code != 0 {
        bail!("run-as {pkg} cannot copy the agent: {}", String::from_utf8_lossy(&o.stderr).trim());
    }
    let art = std::env::var("HEAPTUI_FORK_ART_LIB").unwrap_or_else(|_| "libart.so".to_string());
    let options = format!("out={out},mode={},timeout=120,lib={art}", spec.mode);
    let o = device.output(&format!("cmd activity attach-agent {pid} {}", quote(&format!("{loaded}={options}"))))?;
    if o.code != 0 {
        bail!(
            "cmd activity attach-agent failed: {}{}",
            String::from_utf8_lossy(&o.stdout).trim(),
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    // The agent writes its report when the child is done (or was killed at its time limit).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(150);
    let outcome: ForkOutcome = loop {
        let o = run_as(&format!("cat {}.json", quote(&out)))?;
        if o.code == 0 {
            if let Ok(v) = serde_json::from_slice(&o.stdout) {
                break v;
            }
        }
        if std::time::Instant::now() > deadline {
            bail!("the fork dump in {pkg} did not report within 150 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    progress(Step::Dump, 1, 1);
    let (Some(report), Some(total), Some(sha256), true) =
        (outcome.report, outcome.out_bytes, outcome.sha256, outcome.ok)
    else {
        bail!("the fork dump in {pkg} failed: {}", outcome.error.as_deref().unwrap_or("?"));
    };
    let pulled = receive(staged, "fork dump", |sink| {
        let mut got = 0u64;
        device.read_stream(&format!("run-as {} cat {}", quote(&pkg), quote(&out)), &mut |b| {
            got += b.len() as u64;
            progress(Step::Transfer, got, total);
            sink(b)
        })?;
        Ok((total, sha256.clone()))
    })
    .with_context(|| format!("the fork dump from {pkg}"))?;
    let dumped = Dumped {
        path: out,
        method: Method::Fork,
        mode: spec.mode,
        raw_bytes: report.bytes,
        bytes: total,
        dump_ms: report.child_ms,
        strip_ms: 0,
        message: format!(
            "app paused {} µs ({} then fork); the child dumped with {}",
            report.pause_us, report.suspend, report.dumper
        ),
        sha256,
    };
    Ok((dumped, pulled))
}

/// The package of app process `pid`: what ART names the process after. An app's process is
/// named by its command line (zygote writes the package there; `:remote` and the like name a
/// second process of the same package); `status`'s Name is cut to 15 characters and will not
/// do. A JVM (the test phone's "app") is named by its main class.
fn package_of(agent: &Agent<'_>, pid: u32) -> anyhow::Result<String> {
    agent
        .processes()?
        .into_iter()
        .find(|p| p.pid == pid)
        .map(|p| {
            if p.jvm {
                agent::proc::display_name(&p)
            } else {
                p.cmdline.split([' ', ':']).next().unwrap_or("").to_string()
            }
        })
        .filter(|p| !p.is_empty())
        .with_context(|| format!("process {pid} on {}", agent.device().serial()))
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
    let (w, _) = heap::strip::rewrite_all(input, writer, heap::strip::restore_plan())?;
    w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    let placed = link_fresh(&tmp, out, chosen);
    progress(Step::Restore, bytes, bytes);
    placed
}

/// Where dumps of `process` on `device` go by default:
/// `$XDG_DATA_HOME/heaptui/dumps/DEVICE/PROCESS/YYYYMMDDTHHMMSSZ.hprof`.
pub fn default_path(device: &str, process: &str, time_ms: u64) -> anyhow::Result<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .context("neither XDG_DATA_HOME nor HOME is set; give -o FILE")?;
    let safe =
        |s: &str| s.chars().map(|c| if c.is_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect::<String>();
    let dir = base.join("heaptui/dumps").join(safe(device)).join(safe(process));
    let stamp = utc_stamp(time_ms);
    // Two dumps in one second get `-2`, `-3`... (an existing file is never the answer).
    for i in 1..1000 {
        let name = if i == 1 { format!("{stamp}.hprof") } else { format!("{stamp}-{i}.hprof") };
        let p = dir.join(&name);
        if !p.exists() && !dir.join(format!("{name}.json")).exists() {
            return Ok(p);
        }
    }
    bail!("no free name for {stamp}.hprof in {}", dir.display())
}

/// `20261123T014126Z` for a time in ms since the epoch (UTC; civil date from days, as in Howard
/// Hinnant's `civil_from_days`).
pub fn utc_stamp(time_ms: u64) -> String {
    let secs = time_ms / 1000;
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z", rem / 3600, rem / 60 % 60, rem % 60)
}

/// Gives the finished file `tmp` its name `out` by a hard link (which never replaces a file). When
/// heaptui chose the name and another dump took it meanwhile (two instances, one second), the
/// next free one (`-2`, `-3`...) is taken; a name the user chose is never changed.
fn link_fresh(tmp: &Path, out: &Path, chosen: bool) -> anyhow::Result<PathBuf> {
    let stem = out.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
    for i in 1..1000 {
        let candidate = if i == 1 { out.to_path_buf() } else { out.with_file_name(format!("{stem}-{i}.hprof")) };
        match std::fs::hard_link(tmp, &candidate) {
            Ok(()) => return Ok(candidate),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && !chosen => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", candidate.display())),
        }
    }
    bail!("no free name beside {}", out.display())
}

/// A new file only its owner reads (dumps hold user data); never an existing one.
fn private_file(path: &Path) -> anyhow::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))
}

/// The directories down to `dir`, made only for their owner where heaptui makes them.
fn private_dir(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("cannot create {}", dir.display()))
}

/// Writes the sidecar `NAME.json` beside the dump (under a temporary name, then renamed; an
/// existing one is left alone).
fn write_sidecar(dir: &Path, name: &str, sidecar: &Sidecar) -> anyhow::Result<()> {
    let side = dir.join(format!("{name}.json"));
    if !side.exists() {
        let tmp_side = dir.join(format!(".{name}.json.{}.tmp", std::process::id()));
        let text = serde_json::to_string_pretty(sidecar)?;
        std::io::Write::write_all(&mut private_file(&tmp_side)?, format!("{text}\n").as_bytes())
            .with_context(|| tmp_side.display().to_string())?;
        std::fs::rename(&tmp_side, &side).with_context(|| side.display().to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Against `date -u -d @SECONDS +%Y%m%dT%H%M%SZ`.
    #[test]
    fn stamps_in_utc() {
        assert_eq!(super::utc_stamp(0), "19700101T000000Z");
        assert_eq!(super::utc_stamp(951_782_400_000), "20000229T000000Z");
        assert_eq!(super::utc_stamp(1_795_398_086_308), "20261123T014126Z");
    }
}
