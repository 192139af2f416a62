//! What a dump on a phone needs beyond the agent's own file: the stripped dump streamed from the
//! agent's stdout, KOOM's fork dump inside the app, the checks on what arrives, and the cleanup
//! of what was written on the phone.

use std::path::Path;

use agent::protocol::{DumpSpec, Dumped, ForkOptions, ForkOutcome, Method};
use agent::sample::Sample;
use anyhow::Context;
use bridge::agent::Agent;
use bridge::device::{quote, Device, Pulled, AGENT_DIR};

use super::names::utc_stamp;
use super::progress::{Progress, Step};
use crate::session::files::private_file;

/// Removes a file on the device when dropped, once armed.
pub(super) struct Remove<'a> {
    pub(super) device: &'a dyn Device,
    pub(super) path: String,
    pub(super) armed: bool,
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
    use std::io::Write;
    // The agent's own hashing writer: the same SHA-256 and count the sender computed.
    let mut w = agent::dump::Hashing::new(std::io::BufWriter::with_capacity(1 << 20, private_file(path)?));
    let (sent_bytes, sent_sha256) = fill(&mut |b| w.write_all(b))?;
    w.flush()?;
    let (_, bytes, sha256) = w.finish();
    if sha256 != sent_sha256 || bytes != sent_bytes {
        crate::fail!(
            DeviceFailed,
            "the {what} arrived damaged: {bytes} bytes with SHA-256 {sha256}, the sender sent {sent_bytes} bytes with {sent_sha256}"
        );
    }
    Ok(Pulled { bytes, sha256, verified: true })
}

/// The agent's dump straight from its stdout into `staged`; the agent's hash checks it.
pub(super) fn stream_dump(
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

/// How long the app has to load the fork dump's library after `cmd activity attach-agent`.
/// Why a fork dump has no Bitmap pixels.
const NO_PIXELS_FORK: &str = "the fork dump cannot carry them: the pixels are in native memory, and only the app's own \
     code compresses them into the heap (Bitmap.dumpAll, what `am dumpheap -b` asks for), which a forked copy must not run";
/// Why a Perfetto heap graph has none (the Overview says it of any trace it opens).
pub(crate) const NO_PIXELS_PERFETTO: &str = "Perfetto's heap graph holds no values, pixels included";

const LOAD_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

/// KOOM's fork dump on a phone, as Android Studio loads its agents: the library is pushed, copied
/// into the app's data directory with `run-as`, loaded with `cmd activity attach-agent`; it
/// suspends ART, forks, resumes the app at once and writes the child's dump, stripped, into the
/// app's cache directory with a [`ForkOutcome`] beside it; heaptui reads both with `run-as`,
/// checks the hash, and removes what it wrote. The app must be debuggable (Android 8+, where ART
/// attaches agents at run time).
pub(super) fn fork_dump(
    agent: &Agent<'_>,
    spec: &DumpSpec,
    before: &Sample,
    staged: &Path,
    progress: Progress<'_>,
) -> anyhow::Result<(Dumped, Pulled)> {
    let device = agent.device();
    let pid = spec.pid;
    // The library must match the app's process, not the phone: a 32-bit app on a 64-bit phone
    // loads 32-bit libraries only.
    let prop = |name: &str| device.property(name).unwrap_or_default();
    let (abi, list32, list64) =
        (prop("ro.product.cpu.abi"), prop("ro.product.cpu.abilist32"), prop("ro.product.cpu.abilist64"));
    let triple = bridge::agent::process_abi(before.bits, &list32, &list64, &abi)
        .and_then(bridge::agent::android_triple_for_abi)
        .with_context(|| {
            format!(
                "process {pid} on {} is {}; no fork dump library for it (arm64-v8a, x86_64, armeabi-v7a and x86 are known)",
                device.serial(),
                before.bits.map_or(format!("of ABI {abi:?}"), |b| format!("{b}-bit (ABIs {:?})", if b == 32 { &list32 } else { &list64 }))
            )
        })?;
    let lib = bridge::builds::payload(bridge::builds::Kind::ForkLibrary, triple)?;
    let pkg = package_of(agent, pid)?;
    let staged_lib = format!("{AGENT_DIR}/libheaptui-forkdump.{}.so", std::process::id());
    let _unstage = Cleanup { device, command: format!("rm -f {}", quote(&staged_lib)) };
    device.push(lib.bytes(), &staged_lib, 0o644)?;
    // What the app will load is what this heaptui carries (Android 8's toybox has sha256sum).
    let o = device.output(&format!("sha256sum {}", quote(&staged_lib)))?;
    let have = String::from_utf8_lossy(&o.stdout).split_whitespace().next().unwrap_or_default().to_string();
    if o.code == 0 && have != lib.sha256() {
        crate::fail!(
            DeviceFailed,
            "the fork dump's library arrived on {} damaged (SHA-256 {have}, sent {})",
            device.serial(),
            lib.sha256()
        );
    }
    let run_as = |cmd: &str| device.output(&format!("run-as {} sh -c {}", quote(&pkg), quote(cmd)));
    let o = run_as("mkdir -p code_cache cache && pwd")?;
    let data = String::from_utf8_lossy(&o.stdout).trim().to_string();
    if o.code != 0 || data.is_empty() {
        crate::fail!(
            DeviceFailed,
            "run-as {pkg} failed ({}): the fork dump needs a debuggable app",
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    // Unique per heaptui run: two dumps of one app do not meet.
    let out = format!("{data}/cache/heaptui-{}-{}.hprof", utc_stamp(before.time_ms), std::process::id());
    let loaded = format!("{data}/code_cache/libheaptui-forkdump.{}.so", std::process::id());
    // Whatever happens, the app's directories keep nothing of it (the staged copy goes too).
    let cleanup =
        format!("rm -f {o} {o}.json {o}.loaded {o}.*.part {o}.json.*.part {}", quote(&loaded), o = quote(&out));
    let _clean = Cleanup { device, command: format!("run-as {} sh -c {}", quote(&pkg), quote(&cleanup)) };
    let o = run_as(&format!("cp {} {}", quote(&staged_lib), quote(&loaded)))?;
    if o.code != 0 {
        crate::fail!(DeviceFailed, "run-as {pkg} cannot copy the agent: {}", String::from_utf8_lossy(&o.stderr).trim());
    }
    let art = std::env::var("HEAPTUI_FORK_ART_LIB").unwrap_or_else(|_| "libart.so".to_string());
    // The library chooses its way by the runtime's own symbols; the SDK level goes along for the
    // report (and for libraries of earlier versions, which read it).
    let options = ForkOptions {
        out: out.clone(),
        mode: spec.mode,
        timeout_s: 120,
        lib: art,
        sdk: prop("ro.build.version.sdk").trim().parse().ok(),
    }
    .attach_argument(&loaded)
    .with_context(|| format!("the fork dump's options for {pkg}"))?;
    let o = device.output(&format!("cmd activity attach-agent {pid} {}", quote(&options)))?;
    if o.code != 0 {
        crate::fail!(
            DeviceFailed,
            "cmd activity attach-agent failed: {}{}",
            String::from_utf8_lossy(&o.stdout).trim(),
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    // The library says it is loaded (`OUT.loaded`) as soon as the app runs it, and writes its
    // report when the child is done (or was killed at its time limit). `attach-agent` returns
    // before the app loads anything: without the handshake a refusal would show only as the
    // report's long wait.
    let start = std::time::Instant::now();
    let mut loaded = false;
    let outcome: ForkOutcome = loop {
        let o =
            run_as(&format!("cat {o}.json 2>/dev/null || {{ test -e {o}.loaded && echo loaded; }}", o = quote(&out)))?;
        let said = String::from_utf8_lossy(&o.stdout);
        if o.code == 0 && said.trim() == "loaded" {
            loaded = true;
        } else if o.code == 0 {
            // The report appears whole (written aside, then linked): one that does not read is
            // from another build of the library, and waiting would not change it.
            match serde_json::from_slice(&o.stdout) {
                Ok(v) => break v,
                Err(e) => {
                    crate::fail!(
                        DeviceFailed,
                        "the fork dump in {pkg} wrote a report this heaptui cannot read ({e}): {}",
                        said.trim()
                    )
                }
            }
        }
        if !loaded && start.elapsed() > LOAD_WITHIN {
            crate::fail!(
                DeviceFailed,
                "{pkg} did not load heaptui's agent within {} s of `cmd activity attach-agent`: ART attaches agents \
                 only to debuggable apps, from Android 8 on (`adb logcat -s ActivityThread:* art:*` says why)",
                LOAD_WITHIN.as_secs()
            );
        }
        if start.elapsed() > std::time::Duration::from_secs(150) {
            crate::fail!(DeviceFailed, "the fork dump in {pkg} loaded but did not report within 150 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    progress(Step::Dump, 1, 1);
    let (Some(report), Some(total), Some(sha256), true) =
        (outcome.report, outcome.out_bytes, outcome.sha256, outcome.ok)
    else {
        crate::fail!(DeviceFailed, "the fork dump in {pkg} failed: {}", outcome.error.as_deref().unwrap_or("?"));
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
            "app paused {} µs around the fork ({}); the child dumped with {}",
            report.pause_us, report.suspend, report.dumper
        ),
        sha256,
        no_pixels: Some(NO_PIXELS_FORK.to_string()),
    };
    Ok((dumped, pulled))
}

/// The trace config for a one-shot Java heap graph of `pid`, as Perfetto's own
/// `tools/java_heap_dump` writes it: a short trace that stops when the data source is done
/// (Android 12+, `data_source_stop_timeout_ms`), or a 20 s one on Android 11, which cannot.
fn perfetto_config(pid: u32, sdk: Option<u32>) -> String {
    let (duration, stop) = if sdk.is_some_and(|s| s >= 31) { (1000, 100_000) } else { (20_000, 0) };
    format!(
        "buffers {{\n  size_kb: 262144\n  fill_policy: DISCARD\n}}\n\
         data_sources {{\n  config {{\n    name: \"android.java_hprof\"\n    java_hprof_config {{\n      pid: {pid}\n    }}\n  }}\n}}\n\
         data_source_stop_timeout_ms: {stop}\nduration_ms: {duration}\n"
    )
}

/// ART's own fork dump through Perfetto (the `android.java_hprof` data source, Android 11+; the
/// app must be profileable or debuggable): heaptui writes a trace config into the agent's
/// directory, pipes it to `perfetto`, which has ART fork the app and write its heap graph into
/// `/data/misc/perfetto-traces`, then pulls the trace and removes both. The app pauses only
/// around ART's fork; the graph has no values. (Perfetto's documentation: "Java heap dumps",
/// perfetto.dev/docs/data-sources/java-heap-profiler; the config is its `tools/java_heap_dump`'s.)
pub(super) fn perfetto_dump(
    agent: &Agent<'_>,
    spec: &DumpSpec,
    before: &Sample,
    staged: &Path,
    progress: Progress<'_>,
) -> anyhow::Result<(Dumped, Pulled)> {
    let device = agent.device();
    let sdk = device.property("ro.build.version.sdk").and_then(|s| s.trim().parse::<u32>().ok());
    if let Some(s) = sdk.filter(|&s| s < 30) {
        crate::fail!(
            Usage,
            "Perfetto's Java heap graphs came with Android 11 (API 30); {} is API {s}: use --method am",
            device.serial()
        );
    }
    let stamp = format!("{}-{}", utc_stamp(before.time_ms), std::process::id());
    let config = format!("{AGENT_DIR}/heaptui-perfetto-{stamp}.cfg");
    let trace = format!("/data/misc/perfetto-traces/heaptui-{stamp}.pftrace");
    let _clean = Cleanup { device, command: format!("rm -f {} {}", quote(&config), quote(&trace)) };
    device.push(perfetto_config(spec.pid, sdk).as_bytes(), &config, 0o644)?;
    let start = std::time::Instant::now();
    // Through stdin: perfetto may not read files in /data/local/tmp itself (SELinux).
    let o = device.output(&format!("cat {} | perfetto --txt -c - -o {}", quote(&config), quote(&trace)))?;
    if o.code != 0 {
        crate::fail!(
            DeviceFailed,
            "perfetto on {} failed ({}): {}",
            device.serial(),
            o.code,
            heap::fmt::safe(String::from_utf8_lossy(&o.stderr).trim())
        );
    }
    let dump_ms = start.elapsed().as_millis() as u64;
    progress(Step::Dump, 1, 1);
    let pulled = device.pull(&trace, staged, &mut |done, total| progress(Step::Transfer, done, total.unwrap_or(0)))?;
    let data = heap::data::Data::map_raw(staged)?;
    let scanned = heap::perfetto::Trace::scan(&data).context("the trace perfetto wrote")?;
    let Some(graph) = scanned.graphs.iter().find(|g| g.pid as u32 == spec.pid) else {
        crate::fail!(
            DeviceFailed,
            "the trace holds no Java heap graph of process {}: ART writes one for a profileable \
             (<profileable android:shell=\"true\"/>) or debuggable app on Android 11+",
            spec.pid
        );
    };
    let dumped = Dumped {
        path: trace,
        method: Method::Perfetto,
        mode: agent::protocol::Mode::None,
        raw_bytes: pulled.bytes,
        bytes: pulled.bytes,
        dump_ms,
        strip_ms: 0,
        message: format!(
            "ART's fork dump through Perfetto: {} objects, no values{}",
            graph.objects,
            if graph.truncated { "; incomplete (Perfetto's buffer was too small)" } else { "" }
        ),
        sha256: pulled.sha256.clone(),
        no_pixels: Some(NO_PIXELS_PERFETTO.to_string()),
    };
    Ok((dumped, pulled))
}

/// The package of app process `pid`: what ART names the process after. An app's process is
/// named by its command line (zygote writes the package there; `:remote` and the like name a
/// second process of the same package); `status`'s Name is cut to 15 characters and will not
/// do. A JVM (the test phone's "app") is named by its main class.
fn package_of(agent: &Agent<'_>, pid: u32) -> anyhow::Result<String> {
    let serial = agent.device().serial();
    let p =
        agent.processes()?.into_iter().find(|p| p.pid == pid).with_context(|| format!("process {pid} on {serial}"))?;
    run_as_package(&p)
        .with_context(|| format!("process {pid} on {serial}: {:?} names no package run-as would take", p.cmdline))
}

/// The package `run-as` is given for process `p`: an app's, from its command line as the agent
/// reads it (letters first in each part: never an option); the test phone's JVM apps go by their
/// display name, refused when it could read as an option.
fn run_as_package(p: &agent::proc::ProcessInfo) -> Option<String> {
    let name = if p.jvm { agent::proc::display_name(p) } else { agent::android::package_of(&p.cmdline)?.to_string() };
    (!name.is_empty() && !name.starts_with('-')).then_some(name)
}

#[cfg(test)]
mod run_as_tests {
    use agent::proc::ProcessInfo;

    fn process(cmdline: &str, jvm: bool) -> ProcessInfo {
        ProcessInfo { pid: 7, name: "x".into(), cmdline: cmdline.into(), rss_kb: 0, jvm }
    }

    /// A process name is the app's to choose: one that `run-as` would read as an option, or that
    /// is no package name, never reaches it (the hostile corpus's option injection).
    #[test]
    fn run_as_takes_package_names_only() {
        let pkg = |c, jvm| super::run_as_package(&process(c, jvm));
        assert_eq!(pkg("com.example.app:remote", false).as_deref(), Some("com.example.app"));
        for hostile in ["--user", "-x.y", "com.example;rm", "1com.x", "com..x", ""] {
            assert_eq!(pkg(hostile, false), None, "{hostile}");
        }
        for hostile in ["java -jar -x.jar", "java -cp . -Main", "-"] {
            assert!(pkg(hostile, true).is_none_or(|p| !p.starts_with('-')), "{hostile}");
        }
        assert_eq!(pkg("java LeakyCache 2000", true).as_deref(), Some("LeakyCache"));
    }
}
