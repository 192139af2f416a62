//! `devices`, `ps` and `monitor`: what can be watched, and watching it, on this machine or on a
//! phone (through the adb server and the agent the bridge pushes to it).

use anyhow::{bail, Context};
use bridge::device::AdbDevice;

/// Where to look: this machine or a phone.
#[derive(clap::Args, Clone)]
pub struct Target {
    /// This machine.
    #[arg(long, conflicts_with = "serial")]
    pub local: bool,
    /// The phone with this serial (as `adb -s`); `ANDROID_SERIAL` works too. Without either, the
    /// one phone attached, or this machine when none is.
    #[arg(short = 's', long = "serial", value_name = "SERIAL")]
    pub serial: Option<String>,
}

/// A resolved target.
pub(crate) enum Where {
    Local,
    Phone(AdbDevice),
}

impl Target {
    fn named_serial(&self) -> Option<String> {
        self.serial.clone().or_else(|| std::env::var("ANDROID_SERIAL").ok().filter(|s| !s.is_empty()))
    }

    /// This machine, or the phone named (or the only one attached).
    pub(crate) fn resolve(&self) -> anyhow::Result<Where> {
        if self.local {
            return Ok(Where::Local);
        }
        let port = bridge::adb::server_port();
        match self.named_serial() {
            Some(s) if s == "local" => Ok(Where::Local),
            Some(s) => Ok(Where::Phone(AdbDevice::select(port, Some(&s))?)),
            None => {
                // No phone named: a running server's only phone, else this machine (no server is
                // started just to find out).
                let attached = bridge::adb::devices(port).unwrap_or_default();
                if attached.is_empty() {
                    Ok(Where::Local)
                } else {
                    Ok(Where::Phone(AdbDevice::select(port, None)?))
                }
            }
        }
    }
}

/// The trigger config file: `$HEAPTUI_TRIGGERS`, else `$XDG_CONFIG_HOME/heaptui/triggers`
/// (`~/.config/heaptui/triggers`).
pub(crate) fn config_path() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("HEAPTUI_TRIGGERS") {
        return Some(p.into());
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".config")))?;
    Some(base.join("heaptui").join("triggers"))
}

/// The thresholds before any `--trigger`: the defaults, then the config file's lines (trigger
/// specs, as `--trigger` takes them; `#` starts a comment).
pub(crate) fn base_config() -> anyhow::Result<agent::trigger::Config> {
    let mut config = agent::trigger::Config::default();
    let Some(path) = config_path() else { return Ok(config) };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(config),
        Err(e) => return Err(e).with_context(|| path.display().to_string()),
    };
    for (i, line) in text.lines().enumerate() {
        let spec = line.split('#').next().unwrap_or("").trim();
        if !spec.is_empty() {
            config = agent::trigger::parse(spec, config)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("{}:{}", path.display(), i + 1))?;
        }
    }
    Ok(config)
}

/// `heaptui devices`.
#[derive(clap::Args)]
pub struct DevicesArgs {
    /// JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `heaptui ps`.
#[derive(clap::Args)]
pub struct PsArgs {
    #[command(flatten)]
    target: Target,
    /// JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// `heaptui monitor`.
#[derive(clap::Args)]
pub struct MonitorArgs {
    #[command(flatten)]
    target: Target,
    /// A pid, or a name: the command name, a JVM's main class or jar, an Android package.
    process: String,
    /// Seconds between samples.
    #[arg(long, default_value_t = 1.0)]
    interval: f64,
    /// Stop after this many seconds (default: until the process ends or Ctrl-C).
    #[arg(long)]
    duration: Option<f64>,
    /// JSON lines (samples and events) instead of a table.
    #[arg(long)]
    json: bool,
    /// Thresholds: heap=85%|koom|off, polls=3, threads=750, fds=1000|95%, vmsize=3.5G, jump=350M.
    #[arg(long, value_name = "SPEC")]
    trigger: Vec<String>,
    /// Dump the heap when the first trigger fires (once per run, as KOOM does), into the default
    /// place (see `dump`), stripped with --dump-mode.
    #[arg(long)]
    auto_dump: bool,
    /// How to strip an automatic dump: triage, koom, redact or none.
    #[arg(long, default_value = "triage", value_parser = ["none", "triage", "koom", "redact"])]
    dump_mode: String,
}

/// Lists adb devices and this machine.
pub fn devices(args: DevicesArgs) -> anyhow::Result<()> {
    let port = bridge::adb::server_port();
    let (adb, note) = match bridge::adb::devices(port) {
        Ok(d) => (d, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default().trim().to_string();
    if args.json {
        let v = serde_json::json!({
            "devices": adb,
            "local": {"serial": "local", "state": "device", "model": host},
            "adb": note.as_deref().unwrap_or("ok"),
        });
        return super::print(&format!("{v}\n"));
    }
    let mut s = format!("{:<24} {:<14} model\n", "serial", "state");
    for d in &adb {
        s.push_str(&format!("{:<24} {:<14} {}\n", d.serial, d.state, d.model.as_deref().unwrap_or("-")));
    }
    s.push_str(&format!("{:<24} {:<14} {} (this machine)\n", "local", "device", host));
    if let Some(n) = note {
        s.push_str(&format!("\nNo phones: {n}.\n"));
    } else if adb.is_empty() {
        s.push_str("\nNo phones attached: plug one in with USB debugging on, or `adb connect HOST:PORT`.\n");
    }
    super::print(&s)
}

/// Lists the processes of the target.
pub fn ps(args: PsArgs) -> anyhow::Result<()> {
    let list = match args.target.resolve()? {
        Where::Local => agent::proc::list(),
        Where::Phone(d) => bridge::device::Device::processes(&d)?,
    };
    if args.json {
        let mut s = String::new();
        for p in &list {
            s.push_str(&serde_json::to_string(p)?);
            s.push('\n');
        }
        return super::print(&s);
    }
    let mut s = format!("{:>8} {:>10}  {:<4} {:<16} command\n", "pid", "rss", "jvm", "name");
    for p in &list {
        s.push_str(&format!(
            "{:>8} {:>10}  {:<4} {:<16} {}\n",
            p.pid,
            heap::report::human_bytes(p.rss_kb * 1024),
            if p.jvm { "yes" } else { "" },
            p.name,
            heap::report::shorten(&p.cmdline, 80)
        ));
    }
    super::print(&s)
}

/// The one process `query` names in `list`.
pub(crate) fn pick_in(list: &[agent::proc::ProcessInfo], query: &str, hint: &str) -> anyhow::Result<u32> {
    let found = agent::proc::find(list, query);
    match found.as_slice() {
        [one] => Ok(one.pid),
        [] => bail!("no process named {query:?} (see `heaptui ps {hint}`)"),
        many => {
            let names: Vec<String> = many.iter().take(10).map(|p| format!("{} ({})", p.pid, p.name)).collect();
            bail!("{} processes match {query:?}: {}; give a pid", many.len(), names.join(", "))
        }
    }
}

/// The one process `query` names on this machine.
pub(crate) fn pick(query: &str) -> anyhow::Result<u32> {
    pick_in(&agent::proc::list(), query, "--local")
}

/// Samples a process and prints samples and trigger events.
pub fn monitor(args: MonitorArgs) -> anyhow::Result<()> {
    if !(args.interval > 0.0 && args.interval.is_finite()) {
        bail!("--interval must be a positive number of seconds");
    }
    let mut config = base_config()?;
    for spec in &args.trigger {
        config = agent::trigger::parse(spec, config).map_err(anyhow::Error::msg).context("--trigger")?;
    }
    let place = args.target.resolve()?;
    let start = std::time::Instant::now();
    let mut watch =
        Watch { args: &args, triggers: agent::trigger::Triggers::new(config), start, header: false, dumped: false };
    let phone = match place {
        Where::Local => None,
        Where::Phone(d) => Some(d),
    };
    let Some(phone) = phone else {
        let pid = pick(&args.process)?;
        let interval = std::time::Duration::from_secs_f64(args.interval);
        let mut sampled = false;
        let mut next = start;
        let mut sampler = agent::sample::Sampler::new(pid);
        loop {
            let sample = match sampler.take() {
                Ok(s) => s,
                Err(_) if sampled && !std::path::Path::new(&format!("/proc/{pid}")).exists() => {
                    return watch.ended(pid)
                }
                Err(e) => return Err(e).with_context(|| format!("process {pid}")),
            };
            sampled = true;
            let mut dump =
                |kind: &'static str| super::dump::dump_local(pid, &args.process, &args.dump_mode, true, None, kind);
            if watch.on_sample(&sample, &mut dump)? {
                if let Ok(g) = agent::proc::groups(pid) {
                    watch.print_groups(&g)?;
                }
            }
            if args.duration.is_some_and(|d| start.elapsed().as_secs_f64() + args.interval > d) {
                return Ok(());
            }
            next += interval;
            std::thread::sleep(next.saturating_duration_since(std::time::Instant::now()));
        }
    };
    let agent = bridge::agent::Agent::deploy(&phone)?;
    let pid = pick_in(&agent.processes()?, &args.process, &format!("-s {}", phone.serial))?;
    // As many samples as the local loop takes in the same time.
    let count = args.duration.map(|d| (d / args.interval).floor() as u64 + 1);
    let interval_ms = ((args.interval * 1000.0).round() as u64).max(1);
    let mut failed: Option<anyhow::Error> = None;
    let mut sampled = false;
    let mut gone = false;
    // The sampling stops as soon as something fails (no hanging on with nothing printed).
    let code = agent.sample_until(pid, interval_ms, count, &mut |line| {
        if failed.is_some() || gone {
            return false;
        }
        match line {
            bridge::agent::Line::Sample(s) => {
                sampled = true;
                // On the phone: dumped and stripped there, pulled and restored here.
                let mut dump = |kind: &'static str| {
                    let mode = args.dump_mode.as_str();
                    super::dump::dump_device(
                        &phone,
                        &agent,
                        pid,
                        &args.process,
                        "auto",
                        mode,
                        true,
                        None,
                        kind,
                        false,
                        &mut |_, _, _| {},
                    )
                };
                let groups = match watch.on_sample(&s, &mut dump) {
                    Ok(true) => agent.groups(pid).ok(),
                    Ok(false) => None,
                    Err(e) => {
                        failed = Some(e);
                        None
                    }
                };
                if let Some(g) = groups {
                    if let Err(e) = watch.print_groups(&g) {
                        failed = Some(e);
                    }
                }
            }
            // The process ended (the agent says so once it cannot read it any more).
            bridge::agent::Line::Error(_) if sampled => gone = true,
            bridge::agent::Line::Error(m) => failed = Some(anyhow::anyhow!("{}: {m}", phone.serial)),
            // The host decides with its own thresholds (the agent's are for the device side).
            bridge::agent::Line::Trigger(_) => {}
        }
        failed.is_none() && !gone
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    if gone {
        return watch.ended(pid);
    }
    if let Some(code) = code.filter(|&c| c != 0) {
        // Killed (by the system, or by hand) without a word: say so rather than end quietly.
        bail!("the agent on {} stopped (exit {code}) while watching process {pid}", phone.serial);
    }
    Ok(())
}

/// What `monitor` prints as samples arrive, wherever they come from.
struct Watch<'a> {
    args: &'a MonitorArgs,
    triggers: agent::trigger::Triggers,
    start: std::time::Instant,
    header: bool,
    dumped: bool,
}

impl Watch<'_> {
    fn ended(&self, pid: u32) -> anyhow::Result<()> {
        if self.args.json {
            let line = serde_json::json!({"type": "exit", "t": self.start.elapsed().as_secs_f64(), "pid": pid});
            super::print(&format!("{line}\n"))
        } else {
            super::print(&format!("process {pid} ended\n"))
        }
    }

    /// Probe's breakdowns, printed after a thread or FD alarm: what the threads are called and
    /// what the descriptors point to.
    fn print_groups(&self, g: &agent::proc::Groups) -> anyhow::Result<()> {
        if self.args.json {
            let v = serde_json::json!({
                "type": "groups",
                "t": self.start.elapsed().as_secs_f64(),
                "fds": g.fds.iter().map(|(k, n)| serde_json::json!({"kind": k, "count": n})).collect::<Vec<_>>(),
                "threads": g.threads.iter().map(|(k, n)| serde_json::json!({"name": k, "count": n})).collect::<Vec<_>>(),
            });
            return super::print(&format!("{v}\n"));
        }
        let top =
            |v: &[(String, u64)]| v.iter().take(5).map(|(k, n)| format!("{n} {k}")).collect::<Vec<_>>().join(", ");
        super::print(&format!("    threads: {}\n    fds: {}\n", top(&g.threads), top(&g.fds)))
    }

    /// Prints a sample and the events it fires, and dumps with `dump` on the first event when
    /// asked to (`--auto-dump`). True when a thread or FD alarm fired.
    fn on_sample(
        &mut self,
        sample: &agent::sample::Sample,
        dump: &mut dyn FnMut(&'static str) -> anyhow::Result<std::path::PathBuf>,
    ) -> anyhow::Result<bool> {
        let args = self.args;
        let t = self.start.elapsed().as_secs_f64();
        let events = self.triggers.feed(sample);
        let line = sample_line(sample, t, &self.triggers);
        let mut out = String::new();
        if args.json {
            out.push_str(&format!("{line}\n"));
            for e in &events {
                let mut v = serde_json::to_value(e)?;
                v["type"] = "trigger".into();
                v["t"] = t.into();
                out.push_str(&format!("{v}\n"));
            }
        } else {
            if !self.header {
                self.header = true;
                out.push_str(&format!(
                    "monitoring {} ({}); thresholds: {}\n{:>7} {:>10} {:>10} {:>10} {:>10} {:>8} {:>6}\n",
                    sample.name,
                    sample.pid,
                    describe(&self.triggers, sample),
                    "t",
                    "java used",
                    "java max",
                    "rss",
                    "pss",
                    "threads",
                    "fds"
                ));
            }
            let b = |v: &serde_json::Value| v.as_u64().map_or("-".into(), heap::report::human_bytes);
            out.push_str(&format!(
                "{:>6.1}s {:>10} {:>10} {:>10} {:>10} {:>8} {:>6}\n",
                t,
                b(&line["java_used"]),
                b(&line["java_max"]),
                b(&line["rss"]),
                b(&line["pss"]),
                sample.threads,
                sample.fds
            ));
            for e in &events {
                out.push_str(&format!("  TRIGGER {}: {}\n", e.kind, e.message));
            }
        }
        super::print(&out)?;
        if let (true, false, Some(e)) = (args.auto_dump, self.dumped, events.first()) {
            self.dumped = true;
            let path = dump(e.kind)?;
            let line = if args.json {
                format!(
                    "{}\n",
                    serde_json::json!({"type": "dump", "t": self.start.elapsed().as_secs_f64(), "trigger": e.kind, "path": path})
                )
            } else {
                format!("  DUMPED to {}\n", path.display())
            };
            super::print(&line)?;
        }
        Ok(events.iter().any(|e| matches!(e.kind, "threads" | "fds")))
    }
}

/// One `{"type":"sample",…}` line; memory in bytes, `t` in seconds since monitoring began.
fn sample_line(s: &agent::sample::Sample, t: f64, triggers: &agent::trigger::Triggers) -> serde_json::Value {
    let heap = s.java_heap;
    serde_json::json!({
        "type": "sample",
        "t": t,
        "time_ms": s.time_ms,
        "pid": s.pid,
        "java_used": heap.map(|h| h.used),
        "java_max": heap.map(|h| h.max),
        "java_threshold": heap.and_then(|h| triggers.heap_line(h.max)),
        "rss": s.rss_kb * 1024,
        "pss": s.pss_kb.map(|k| k * 1024),
        "vm_size": s.vm_size_kb * 1024,
        "threads": s.threads,
        "fds": s.fds,
        "fd_limit": s.fd_limit,
    })
}

pub(crate) fn describe(t: &agent::trigger::Triggers, s: &agent::sample::Sample) -> String {
    let mut v = Vec::new();
    if let Some(line) = s.java_heap.and_then(|h| t.heap_line(h.max)) {
        v.push(format!("heap {} x{}", heap::report::human_bytes(line), t.config.heap_polls));
    }
    if let Some(n) = t.config.threads {
        v.push(format!("threads {n}"));
    }
    if let Some(n) = t.fd_line(s.fd_limit) {
        v.push(format!("fds {n}"));
    }
    if let Some(n) = t.vm_size_line(s.bits) {
        v.push(format!("vmsize {}", heap::report::human_bytes(n * 1024)));
    }
    if let Some(n) = t.config.jump_bytes {
        v.push(format!("jump {}", heap::report::human_bytes(n)));
    }
    v.join(", ")
}
