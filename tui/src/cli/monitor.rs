//! `heaptui monitor`: watching a process's memory on this machine or a phone, sample by sample,
//! with the triggers that would dump it (and, with `--auto-dump`, dumping it once).

use agent::protocol::Line;
use anyhow::Context;
use bridge::agent::Agent;
use heap::fmt::safe;

use crate::session;

/// `heaptui monitor`.
#[derive(clap::Args)]
pub struct MonitorArgs {
    #[command(flatten)]
    device: super::DeviceArgs,
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
    #[arg(long, value_enum, default_value_t = super::ModeArg::Triage)]
    dump_mode: super::ModeArg,
    /// How an automatic dump is taken (`auto`: what the process offers; `perfetto`: ART's own
    /// fork dump, for a profileable app on Android 11+).
    #[arg(long, value_enum, default_value = "auto")]
    dump_method: super::MethodArg,
}

/// Samples a process and prints samples and trigger events until it ends, `--duration` is up,
/// or the agent stops.
pub fn run(args: MonitorArgs) -> anyhow::Result<()> {
    if !(args.interval > 0.0 && args.interval.is_finite()) {
        crate::fail!(Usage, "--interval must be a positive number of seconds");
    }
    let mut config = session::triggers::base_config()?;
    for spec in &args.trigger {
        config = agent::trigger::parse(spec, config).context("--trigger")?;
    }
    let device = args.device.device()?;
    let agent = Agent::deploy(&*device)?;
    let pid = session::target::pick(&agent, &args.process)?;
    let start = std::time::Instant::now();
    let mut watch = Watch {
        args: &args,
        triggers: agent::trigger::Triggers::new(config),
        start,
        header: false,
        dumped: false,
        told: String::new(),
    };
    // As many samples as fit in --duration, the first at once.
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
            Line::Sample { sample } => {
                sampled = true;
                let mut dump = |trigger| {
                    let request = session::dump::DumpRequest {
                        pid,
                        query: args.process.clone(),
                        method: args.dump_method.method(),
                        mode: args.dump_mode.into(),
                        live: true,
                        output: None,
                        trigger,
                        stream: false,
                        bitmaps: true,
                    };
                    let outcome = session::dump::dump(&agent, &request, &mut |_, _, _| {})?;
                    super::dump::tell(&outcome);
                    Ok(outcome.path)
                };
                let groups = match watch.on_sample(&sample, &mut dump) {
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
            Line::Error { .. } if sampled => gone = true,
            Line::Error { message } if device.runs_here() => {
                failed = Some(crate::exit::Code::DeviceFailed.error(message))
            }
            Line::Error { message } => {
                failed = Some(crate::exit::Code::DeviceFailed.error(format!("{}: {message}", device.serial())))
            }
            // The host decides with its own thresholds (the agent's are for the device side).
            _ => {}
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
        crate::fail!(
            DeviceFailed,
            "the agent on {} stopped (exit {code}) while watching process {pid}",
            device.serial()
        );
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
    /// The sources and missing figures last told in text, told again when they change.
    told: String,
}

impl Watch<'_> {
    fn ended(&self, pid: u32) -> anyhow::Result<()> {
        if self.args.json {
            let line = serde_json::json!({"type": "exit", "t": self.start.elapsed().as_secs_f64(), "pid": pid});
            super::print_json(&format!("{line}\n"))
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
                "fds_missing": g.fds_missing,
            });
            return super::print_json(&format!("{v}\n"));
        }
        let top = |v: &[(String, u64)]| {
            v.iter().take(5).map(|(k, n)| format!("{n} {}", safe(k))).collect::<Vec<_>>().join(", ")
        };
        let fds = match &g.fds_missing {
            Some(why) => format!("unavailable ({})", safe(why)),
            None => top(&g.fds),
        };
        super::print(&format!("    threads: {}\n    fds: {fds}\n", top(&g.threads)))
    }

    /// Prints a sample and the events it fires, and dumps with `dump` on the first event when
    /// asked to (`--auto-dump`). True when a thread or FD alarm fired.
    fn on_sample(
        &mut self,
        sample: &agent::sample::Sample,
        dump: &mut dyn FnMut(agent::trigger::Kind) -> anyhow::Result<std::path::PathBuf>,
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
                    safe(&sample.name),
                    sample.pid,
                    safe(&session::triggers::describe(&self.triggers, sample)),
                    "t",
                    "java used",
                    "java max",
                    "rss",
                    "pss",
                    "threads",
                    "fds"
                ));
            }
            let b = |v: &serde_json::Value| v.as_u64().map_or("-".into(), heap::fmt::human_bytes);
            out.push_str(&format!(
                "{:>6.1}s {:>10} {:>10} {:>10} {:>10} {:>8} {:>6}\n",
                t,
                b(&line["java_used"]),
                b(&line["java_max"]),
                b(&line["rss"]),
                b(&line["pss"]),
                sample.threads,
                sample.fds.map_or("-".into(), |n| n.to_string())
            ));
            let told = provenance(sample);
            if told != self.told {
                out.push_str(&told);
                self.told = told;
            }
            for e in &events {
                out.push_str(&format!("  TRIGGER {}: {}\n", e.kind, safe(&e.message)));
            }
        }
        if args.json {
            super::print_json(&out)?;
        } else {
            super::print(&out)?;
        }
        if let (true, false, Some(e)) = (args.auto_dump, self.dumped, events.first()) {
            self.dumped = true;
            let path = dump(e.kind)?;
            if args.json {
                let v = serde_json::json!({"type": "dump", "t": self.start.elapsed().as_secs_f64(), "trigger": e.kind, "path": path});
                super::print_json(&format!("{v}\n"))?;
            } else {
                super::print(&format!("  DUMPED to {}\n", safe(&path.display().to_string())))?;
            }
        }
        Ok(events.iter().any(|e| matches!(e.kind, agent::trigger::Kind::Threads | agent::trigger::Kind::Fds)))
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
        "rss": s.rss_kb.saturating_mul(1024),
        "pss": s.pss_kb.map(|k| k.saturating_mul(1024)),
        "vm_size": s.vm_size_kb.saturating_mul(1024),
        "threads": s.threads,
        "fds": s.fds,
        "fd_limit": s.fd_limit,
        "bits": s.bits,
        "objects": s.objects,
        "sources": s.sources.iter().map(|(f, src)| (key(*f).to_string(), serde_json::json!(src))).collect::<serde_json::Map<_, _>>(),
        "missing": s.missing.iter().map(|m| serde_json::json!({"field": key(m.field), "why": m.why})).collect::<Vec<_>>(),
    })
}

/// A sample's field as this line names it.
fn key(f: agent::sample::Field) -> &'static str {
    use agent::sample::Field;
    match f {
        Field::PssKb => "pss",
        Field::Fds => "fds",
        Field::FdLimit => "fd_limit",
        Field::Bits => "bits",
        Field::JavaHeap => "java_used",
        Field::HeapLimit => "java_max",
        Field::Objects => "objects",
    }
}

/// Where the figures came from, and which are unavailable and why, as text lines.
fn provenance(s: &agent::sample::Sample) -> String {
    let mut out = String::new();
    if !s.sources.is_empty() {
        let from: Vec<String> = s.sources.iter().map(|(f, src)| format!("{f} from {src}")).collect();
        out.push_str(&format!("  read: {}\n", from.join(", ")));
    }
    for m in &s.missing {
        out.push_str(&format!("  unavailable: {}: {}\n", m.field, safe(&m.why)));
    }
    out
}
