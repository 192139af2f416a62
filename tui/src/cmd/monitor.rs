//! `devices`, `ps` and `monitor`: what can be watched, and watching it. Local processes today;
//! adb devices are listed, and their processes come with the device bridge.

use anyhow::{bail, Context};

/// Where to look: this machine or a phone.
#[derive(clap::Args, Clone)]
pub struct Target {
    /// This machine (the default while the phone side is being built).
    #[arg(long, conflicts_with = "serial")]
    pub local: bool,
    /// The phone with this serial (as `adb -s`); `ANDROID_SERIAL` works too.
    #[arg(short = 's', long = "serial", value_name = "SERIAL")]
    pub serial: Option<String>,
}

impl Target {
    pub(crate) fn require_local(&self) -> anyhow::Result<()> {
        let serial = self.serial.clone().or_else(|| std::env::var("ANDROID_SERIAL").ok().filter(|s| !s.is_empty()));
        match serial {
            Some(s) if !self.local => bail!(
                "processes on phones ({s}) need the device bridge, which is not built yet; \
                 use --local for this machine's processes"
            ),
            _ => Ok(()),
        }
    }
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
    args.target.require_local()?;
    let list = agent::proc::list();
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

/// The one process `query` names on this machine.
pub(crate) fn pick(query: &str) -> anyhow::Result<u32> {
    let list = agent::proc::list();
    let found = agent::proc::find(&list, query);
    match found.as_slice() {
        [one] => Ok(one.pid),
        [] => bail!("no process named {query:?} (see `heaptui ps --local`)"),
        many => {
            let names: Vec<String> = many.iter().take(10).map(|p| format!("{} ({})", p.pid, p.name)).collect();
            bail!("{} processes match {query:?}: {}; give a pid", many.len(), names.join(", "))
        }
    }
}

/// Samples a process and prints samples and trigger events.
pub fn monitor(args: MonitorArgs) -> anyhow::Result<()> {
    args.target.require_local()?;
    if !(args.interval > 0.0 && args.interval.is_finite()) {
        bail!("--interval must be a positive number of seconds");
    }
    let mut config = agent::trigger::Config::default();
    for spec in &args.trigger {
        config = agent::trigger::parse(spec, config).map_err(anyhow::Error::msg).context("--trigger")?;
    }
    let pid = pick(&args.process)?;
    let mut triggers = agent::trigger::Triggers::new(config);
    let start = std::time::Instant::now();
    let interval = std::time::Duration::from_secs_f64(args.interval);
    let mut header = false;
    let mut sampled = false;
    let mut dumped = false;
    let mut next = start;
    loop {
        let sample = match agent::sample::sample(pid) {
            Ok(s) => s,
            Err(_) if sampled && !std::path::Path::new(&format!("/proc/{pid}")).exists() => {
                let line = serde_json::json!({"type": "exit", "t": start.elapsed().as_secs_f64(), "pid": pid});
                if args.json {
                    super::print(&format!("{line}\n"))?;
                } else {
                    super::print(&format!("process {pid} ended\n"))?;
                }
                return Ok(());
            }
            Err(e) => return Err(e).with_context(|| format!("process {pid}")),
        };
        sampled = true;
        let t = start.elapsed().as_secs_f64();
        let events = triggers.feed(&sample);
        let line = sample_line(&sample, t, &triggers);
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
            if !header {
                header = true;
                out.push_str(&format!(
                    "monitoring {} ({}); thresholds: {}\n{:>7} {:>10} {:>10} {:>10} {:>10} {:>8} {:>6}\n",
                    sample.name,
                    pid,
                    describe(&triggers, &sample),
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
        if args.auto_dump && !dumped {
            if let Some(e) = events.first() {
                dumped = true;
                let path = super::dump::dump_local(pid, &args.process, &args.dump_mode, true, None, e.kind)?;
                let line = if args.json {
                    format!(
                        "{}\n",
                        serde_json::json!({"type": "dump", "t": start.elapsed().as_secs_f64(), "trigger": e.kind, "path": path})
                    )
                } else {
                    format!("  DUMPED to {}\n", path.display())
                };
                super::print(&line)?;
            }
        }
        if args.duration.is_some_and(|d| start.elapsed().as_secs_f64() + args.interval > d) {
            return Ok(());
        }
        next += interval;
        std::thread::sleep(next.saturating_duration_since(std::time::Instant::now()));
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

fn describe(t: &agent::trigger::Triggers, s: &agent::sample::Sample) -> String {
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
