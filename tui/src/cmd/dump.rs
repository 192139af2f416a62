//! `heaptui dump`: a heap dump of a running process, stored where heaptui keeps dumps (or `-o`),
//! never over an existing file, with a JSON sidecar saying what was dumped and when.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

/// `heaptui dump`.
#[derive(clap::Args)]
pub struct DumpArgs {
    #[command(flatten)]
    target: super::monitor::Target,
    /// A pid, or a name: the command name, a JVM's main class or jar, an Android package.
    process: String,
    /// How: `auto` picks what the process offers; `attach` (HotSpot's attach protocol, spoken by
    /// heaptui or its agent), `am` (Android's `am dumpheap`; the app is paused while it dumps),
    /// `fork` (KOOM's fork dump: a debuggable app is paused only around fork).
    #[arg(long, default_value = "auto", value_parser = ["auto", "attach", "fork", "am"])]
    method: String,
    /// Strip the dump on the way (triage, koom, redact); `none` keeps it whole. Default: none on
    /// this machine; triage on a phone (stripped there, restored here).
    #[arg(long, value_parser = ["none", "triage", "koom", "redact"])]
    mode: Option<String>,
    /// Dump every object, unreachable ones too (default: live objects, after a full GC).
    #[arg(long)]
    all: bool,
    /// On a phone: stream the stripped dump straight to this machine instead of storing it on the
    /// phone and pulling it.
    #[arg(long)]
    stream: bool,
    /// Where to write it (default: $XDG_DATA_HOME/heaptui/dumps/local/PROCESS/YYYYMMDDTHHMMSSZ.hprof).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Where dumps of `process` on `device` go by default.
fn default_path(device: &str, process: &str, time_ms: u64) -> anyhow::Result<PathBuf> {
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
fn utc_stamp(time_ms: u64) -> String {
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

/// Runs `dump`.
pub fn run(args: DumpArgs) -> anyhow::Result<()> {
    if let super::monitor::Where::Phone(d) = args.target.resolve()? {
        let agent = bridge::agent::Agent::deploy(&d)?;
        let pid = super::monitor::pick_in(&agent.processes()?, &args.process, &format!("-s {}", d.serial))?;
        let mode = args.mode.as_deref().unwrap_or("triage");
        let mut shown = 0u64;
        let mut progress = |phase: &'static str, done: u64, total: u64| {
            if phase == "transfer" && (done == total || done >= shown + (8 << 20)) {
                shown = done;
                super::note(&format!(
                    "heaptui: transfer {} of {}",
                    heap::report::human_bytes(done),
                    heap::report::human_bytes(total)
                ));
            }
        };
        let out = dump_device(
            &d,
            &agent,
            pid,
            &args.process,
            &args.method,
            mode,
            !args.all,
            args.output.clone(),
            "manual",
            args.stream,
            &mut progress,
        )?;
        return super::print(&format!("{}\n", out.display()));
    }
    if args.method == "am" || args.method == "fork" {
        bail!("--method {} dumps an Android app: name a phone with -s SERIAL", args.method);
    }
    let pid = super::monitor::pick(&args.process)?;
    let mode = args.mode.as_deref().unwrap_or("none");
    let out = dump_local(pid, &args.process, mode, !args.all, args.output.clone(), "manual")?;
    super::print(&format!("{}\n", out.display()))
}

/// Dumps local JVM `pid` (named `query` by the user) to `output` or the default place, stripped
/// with `mode` unless it is `none`; writes the sidecar and returns the dump's path.
pub fn dump_local(
    pid: u32,
    query: &str,
    mode: &str,
    live: bool,
    output: Option<PathBuf>,
    trigger: &str,
) -> anyhow::Result<PathBuf> {
    let before = agent::sample::sample(pid).with_context(|| format!("process {pid}"))?;
    let out = match output {
        Some(o) => o,
        None => default_path("local", query, before.time_ms)?,
    };
    if out.exists() {
        bail!("{} exists; heaptui never overwrites a file (remove it or choose another name)", out.display());
    }
    let dir = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    private_dir(dir)?;
    let dir = dir.canonicalize().with_context(|| dir.display().to_string())?;
    let name = out.file_name().context("-o names no file")?.to_string_lossy().to_string();
    let out = dir.join(&name);
    // The JVM writes the whole dump under a temporary name; only a complete one gets the real name.
    let tmp = dir.join(format!(".{name}.{}.part.hprof", std::process::id()));
    let _cleanup = tempfile::TempPath::try_from_path(&tmp).with_context(|| tmp.display().to_string())?;
    let start = std::time::Instant::now();
    let message = agent::attach::dump_heap(pid, &tmp, live).with_context(|| format!("dumping {pid}"))?;
    let dumped = start.elapsed();
    let raw_bytes = std::fs::metadata(&tmp).map(|m| m.len()).unwrap_or(0);
    if mode == "none" {
        std::fs::hard_link(&tmp, &out).with_context(|| format!("cannot create {}", out.display()))?;
    } else {
        super::strip::strip(super::strip::StripArgs {
            input: tmp.display().to_string(),
            output: out.display().to_string(),
            mode: mode.to_string(),
            keep_strings: 256,
            keep_zygote: false,
            zstd: false,
        })?;
    }
    let bytes = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    let sidecar = serde_json::json!({
        "schema": "heaptui.dump/1",
        "device": "local",
        "process": {"pid": pid, "name": before.name, "query": query},
        "method": "attach",
        "live_only": live,
        "mode": mode,
        "trigger": trigger,
        "time_ms": before.time_ms,
        "dump_ms": dumped.as_millis() as u64,
        "raw_bytes": raw_bytes,
        "bytes": bytes,
        "jvm": message,
        "sample": before,
    });
    write_sidecar(&dir, &name, &sidecar)?;
    super::note(&format!(
        "heaptui: dumped {} ({pid}) in {} ms: {} ({}{})",
        before.name,
        dumped.as_millis(),
        out.display(),
        heap::report::human_bytes(bytes),
        if mode == "none" {
            String::new()
        } else {
            format!(", {} before {mode}", heap::report::human_bytes(raw_bytes))
        }
    ));
    super::note(&format!("heaptui: open it with `heaptui {}`", out.display()));
    Ok(out)
}

/// Dumps `pid` on a phone: the agent dumps and strips there; the stripped file is pulled (progress,
/// the phone's SHA-256 checked), restored to a standard HPROF here (dropped values come back as
/// zeros), stored with a sidecar, and removed from the phone. `progress` gets each phase
/// (`dump`, `transfer`, `restore`) with bytes done and in all.
#[allow(clippy::too_many_arguments)]
pub fn dump_device(
    d: &bridge::device::AdbDevice,
    agent: &bridge::agent::Agent<'_>,
    pid: u32,
    query: &str,
    method: &str,
    mode: &str,
    live: bool,
    output: Option<PathBuf>,
    trigger: &str,
    stream: bool,
    progress: &mut dyn FnMut(&'static str, u64, u64),
) -> anyhow::Result<PathBuf> {
    use bridge::device::Device;
    // The sample at dump time (KOOM's runningInfo), taken by the agent now.
    let mut before = None;
    agent.sample(pid, 1, Some(1), &mut |l| {
        if let bridge::agent::Line::Sample(s) = l {
            before = Some(s);
        }
    })?;
    let before = before.with_context(|| format!("process {pid} on {}", d.serial))?;
    let chosen = output.is_some();
    let mut out = match output {
        Some(o) => o,
        None => default_path(&d.serial, query, before.time_ms)?,
    };
    if out.exists() {
        bail!("{} exists; heaptui never overwrites a file (remove it or choose another name)", out.display());
    }
    let dir = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    private_dir(&dir)?;
    let mut name = out.file_name().context("-o names no file")?.to_string_lossy().to_string();

    progress("dump", 0, 1);
    // Unique per heaptui run: two instances dumping on one phone do not meet.
    let remote = format!(
        "{}/heaptui-{pid}-{}-{}.hprof",
        bridge::device::AGENT_DIR,
        utc_stamp(before.time_ms),
        std::process::id()
    );
    // The phone keeps the stripped dump until this machine holds a verified copy; then it goes.
    struct Clean<'a>(&'a bridge::device::AdbDevice, String, bool);
    impl Drop for Clean<'_> {
        fn drop(&mut self) {
            if self.2 {
                let _ = self.0.output(&format!("rm -f {}", bridge::device::quote(&self.1)));
            }
        }
    }
    let mut clean = Clean(d, remote.clone(), false);
    let pulled_path = dir.join(format!(".{name}.{}.pulled", std::process::id()));
    // Removed at the end, whatever happens (it may not exist yet).
    let _pulled = tempfile::TempPath::try_from_path(&pulled_path).with_context(|| pulled_path.display().to_string())?;
    let start = std::time::Instant::now();
    if method == "fork" && stream {
        bail!("--stream does not apply to --method fork: the fork dump is stripped inside the app and read back with run-as");
    }
    let fetched = if method == "fork" {
        fork_on_device(d, agent, pid, mode, &before, &pulled_path, progress)
    } else if stream {
        // Straight from the agent's stdout into a file here; the agent's hash checks it.
        use sha2::Digest;
        let file = private_file(&pulled_path)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
        let mut hash = sha2::Sha256::new();
        let mut bytes = 0u64;
        let dumped = agent.dump_stream(pid, method, mode, live, &mut |b| {
            use std::io::Write;
            hash.update(b);
            bytes += b.len() as u64;
            progress("transfer", bytes, 0);
            w.write_all(b)
        })?;
        std::io::Write::flush(&mut w)?;
        let sha256: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
        if sha256 != dumped.sha256 || bytes != dumped.bytes {
            bail!(
                "the streamed dump arrived damaged: {bytes} bytes with SHA-256 {sha256}, the agent sent {} bytes with {}",
                dumped.bytes,
                dumped.sha256
            );
        }
        Ok((dumped, bridge::device::Pulled { bytes, sha256, verified: true }))
    } else {
        let dumped = agent.dump(pid, method, mode, live, &remote)?;
        progress("dump", 1, 1);
        // Once the dump exists on the phone, it is removed only after a verified pull.
        d.pull(&remote, &pulled_path, &mut |done, total| progress("transfer", done, total.unwrap_or(0)))
            .map(|p| (dumped, p))
            .map_err(|e| {
                anyhow::Error::new(e).context(format!(
                    "the stripped dump stays on the phone at {remote} (`adb pull` it, then `heaptui restore`)"
                ))
            })
    };
    let (dumped, pulled) = fetched?;
    progress("dump", 1, 1);
    // Stripped on the device as part of the dump (the agent's or the fork agent's).
    progress("strip", 1, 1);
    let transfer_ms = start.elapsed().as_millis() as u64;

    let start = std::time::Instant::now();
    let placed = if mode == "none" {
        link_fresh(&pulled_path, &out, chosen)
    } else {
        progress("restore", 0, pulled.bytes);
        let tmp = dir.join(format!(".{name}.{}.restore", std::process::id()));
        let tmp_guard = tempfile::TempPath::try_from_path(&tmp).with_context(|| tmp.display().to_string())?;
        let restored = (|| -> anyhow::Result<PathBuf> {
            let input = std::fs::File::open(&pulled_path)?;
            let writer = std::io::BufWriter::with_capacity(1 << 20, private_file(&tmp)?);
            let (w, _) = heap::strip::rewrite_all(input, writer, heap::strip::restore_plan())?;
            w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            link_fresh(&tmp, &out, chosen)
        })();
        drop(tmp_guard);
        progress("restore", pulled.bytes, pulled.bytes);
        restored
    };
    out = match placed {
        Ok(p) => p,
        Err(e) => {
            // The verified stripped dump is kept here (and on the phone) rather than lost.
            let stripped = out.with_file_name(format!("{name}.stripped"));
            let kept = link_fresh(&pulled_path, &stripped, false);
            return Err(match kept {
                Ok(k) => e.context(format!("the stripped dump is kept at {} (and on the phone)", k.display())),
                Err(_) => e.context(format!("the stripped dump stays on the phone at {remote}")),
            });
        }
    };
    // Only now, with the dump in place here, does the phone's copy go.
    clean.2 = true;
    name = out.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or(name);
    let bytes = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    // KOOM's runningInfo keeps the device's build beside the process's figures.
    let prop = |name: &str| {
        d.output(&format!("getprop {name}"))
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    let sidecar = serde_json::json!({
        "schema": "heaptui.dump/1",
        "device": d.serial,
        "model": d.model,
        "manufacturer": prop("ro.product.manufacturer"),
        "sdk": prop("ro.build.version.sdk").parse::<u32>().ok(),
        "process": {"pid": pid, "name": before.name, "query": query},
        "method": dumped.method,
        // The fork dump takes every object (no GC before it).
        "live_only": live && dumped.method != "fork",
        "mode": dumped.mode,
        "trigger": trigger,
        "time_ms": before.time_ms,
        "dump_ms": dumped.dump_ms,
        "strip_ms": dumped.strip_ms,
        "transfer_ms": transfer_ms,
        "restore_ms": start.elapsed().as_millis() as u64,
        "raw_bytes": dumped.raw_bytes,
        "transferred_bytes": pulled.bytes,
        "transferred_sha256": pulled.sha256,
        // Whether the sender's hash matched (false only when the phone has no sha256sum).
        "transfer_verified": pulled.verified,
        "streamed": stream,
        "bytes": bytes,
        "restored": mode != "none",
        "runtime": dumped.message,
        "sample": before,
    });
    write_sidecar(&dir, &name, &sidecar)?;
    super::note(&format!(
        "heaptui: dumped {} ({pid}) on {} with {} in {} ms: {} raw, {} over adb, {} restored: {}",
        before.name,
        d.serial,
        dumped.method,
        dumped.dump_ms,
        heap::report::human_bytes(dumped.raw_bytes),
        heap::report::human_bytes(pulled.bytes),
        heap::report::human_bytes(bytes),
        out.display()
    ));
    Ok(out)
}

/// KOOM's fork dump on a phone, as Android Studio loads its agents: the library is pushed, copied
/// into the app's data directory with `run-as`, loaded with `cmd activity attach-agent`; it
/// suspends ART, forks, resumes the app at once and writes the child's dump, stripped, into the
/// app's cache directory with a JSON report beside it; heaptui reads both with `run-as`, checks
/// the hash, and removes what it wrote. The app must be debuggable (Android 9+).
fn fork_on_device(
    d: &bridge::device::AdbDevice,
    agent: &bridge::agent::Agent<'_>,
    pid: u32,
    mode: &str,
    before: &agent::sample::Sample,
    pulled_path: &Path,
    progress: &mut dyn FnMut(&'static str, u64, u64),
) -> anyhow::Result<(agent::dump::Dumped, bridge::device::Pulled)> {
    use bridge::device::{quote, Device};
    use sha2::Digest;
    let abi = String::from_utf8_lossy(&d.output("getprop ro.product.cpu.abi")?.stdout).trim().to_string();
    let triple = bridge::agent::android_triple_for_abi(&abi)
        .with_context(|| format!("{} runs {abi:?}; the fork dump is built for arm64-v8a and x86_64", d.serial))?;
    let lib = bridge::agent::local_build(
        triple,
        "libforkdump.so",
        &format!("build it with `cargo build --release -p heaptui-forkdump --target {triple}` (the Android NDK's linker is needed)"),
    )?;
    // The app's package: what ART names its process after.
    // An app's process is named by its command line (zygote writes the package there; `:remote`
    // and the like name a second process of the same package). `status`'s Name is cut to 15
    // characters and will not do. A JVM (the test phone's "app") is named by its main class.
    let pkg = agent
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
        .with_context(|| format!("process {pid} on {}", d.serial))?;
    let staged = format!("{}/libheaptui-forkdump.{}.so", bridge::device::AGENT_DIR, std::process::id());
    struct Unstage<'a>(&'a bridge::device::AdbDevice, String);
    impl Drop for Unstage<'_> {
        fn drop(&mut self) {
            let _ = self.0.output(&format!("rm -f {}", quote(&self.1)));
        }
    }
    let _unstage = Unstage(d, staged.clone());
    d.push(&lib, &staged, 0o644)?;
    let run_as = |cmd: &str| d.output(&format!("run-as {} sh -c {}", quote(&pkg), quote(cmd)));
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
    struct Clean<'a>(&'a bridge::device::AdbDevice, String);
    impl Drop for Clean<'_> {
        fn drop(&mut self) {
            let _ = self.0.output(&self.1);
        }
    }
    let cleanup = format!("rm -f {o} {o}.json {o}.*.part {o}.json.*.part {}", quote(&loaded), o = quote(&out));
    let _clean = Clean(d, format!("run-as {} sh -c {}", quote(&pkg), quote(&cleanup)));
    let o = run_as(&format!("cp {} {}", quote(&staged), quote(&loaded)))?;
    if o.code != 0 {
        bail!("run-as {pkg} cannot copy the agent: {}", String::from_utf8_lossy(&o.stderr).trim());
    }
    let art = std::env::var("HEAPTUI_FORK_ART_LIB").unwrap_or_else(|_| "libart.so".to_string());
    let options = format!("out={out},mode={mode},timeout=120,lib={art}");
    let o = d.output(&format!("cmd activity attach-agent {pid} {}", quote(&format!("{loaded}={options}"))))?;
    if o.code != 0 {
        bail!(
            "cmd activity attach-agent failed: {}{}",
            String::from_utf8_lossy(&o.stdout).trim(),
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    // The agent writes its report when the child is done (or was killed at its time limit).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(150);
    let report: serde_json::Value = loop {
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
    progress("dump", 1, 1);
    if report["ok"] != true {
        bail!("the fork dump in {pkg} failed: {}", report["error"].as_str().unwrap_or("?"));
    }
    let file = private_file(pulled_path)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut hash = sha2::Sha256::new();
    let total = report["out_bytes"].as_u64().unwrap_or(0);
    let mut got = 0u64;
    d.exec_stream(&format!("run-as {} cat {}", quote(&pkg), quote(&out)), &mut |b| {
        hash.update(b);
        got += b.len() as u64;
        progress("transfer", got, total);
        std::io::Write::write_all(&mut w, b)
    })?;
    std::io::Write::flush(&mut w)?;
    let sha256: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    if Some(sha256.as_str()) != report["sha256"].as_str() || got != total {
        bail!(
            "the fork dump arrived damaged: {got} of {total} bytes, SHA-256 {sha256}, the app wrote {}",
            report["sha256"]
        );
    }
    let r = &report["report"];
    let dumped = agent::dump::Dumped {
        path: out.clone(),
        method: "fork".into(),
        mode: mode.to_string(),
        raw_bytes: r["bytes"].as_u64().unwrap_or(0),
        bytes: total,
        dump_ms: r["child_ms"].as_u64().unwrap_or(0),
        strip_ms: 0,
        message: format!(
            "app paused {} µs ({} then fork); the child dumped with {}",
            r["pause_us"],
            r["suspend"].as_str().unwrap_or("?"),
            r["dumper"].as_str().unwrap_or("?")
        ),
        sha256: sha256.clone(),
    };
    Ok((dumped, bridge::device::Pulled { bytes: got, sha256, verified: true }))
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
fn write_sidecar(dir: &Path, name: &str, sidecar: &serde_json::Value) -> anyhow::Result<()> {
    let side = dir.join(format!("{name}.json"));
    if !side.exists() {
        let tmp_side = dir.join(format!(".{name}.json.{}.tmp", std::process::id()));
        std::io::Write::write_all(&mut private_file(&tmp_side)?, format!("{sidecar:#}\n").as_bytes())
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
