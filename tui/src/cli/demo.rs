//! `heaptui demo`: the whole loop on a machine with no phone. It compiles and starts the bundled
//! leaking program (`demo/LeakyCache.java`, OpenJDK's `javac` and `java`), watches it as
//! `monitor --local` does until KOOM's heap trigger fires, dumps it through the attach protocol,
//! strips the dump (triage), and opens it: the interactive UI on a terminal, else the report.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use anyhow::Context;

const SOURCE: &str = include_str!("../../../demo/LeakyCache.java");

/// `heaptui demo`.
#[derive(clap::Args)]
pub struct DemoArgs {
    /// Seconds between samples.
    #[arg(long, default_value_t = 0.5)]
    interval: f64,
    /// Give up when no trigger fired after this many seconds.
    #[arg(long, default_value_t = 90.0)]
    timeout: f64,
    /// The program's heap (`-Xmx`), MiB.
    #[arg(long, default_value_t = 32)]
    heap_mb: u32,
    /// Colour theme of the UI.
    #[arg(long, default_value = "dark")]
    theme: String,
}

struct Jvm(Child);

impl Drop for Jvm {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `demo`.
pub fn run(args: DemoArgs) -> anyhow::Result<()> {
    if !(args.interval > 0.0 && args.interval.is_finite()) {
        crate::fail!(Usage, "--interval must be a positive number of seconds");
    }
    let dir = tempfile::tempdir().context("cannot create a temporary directory")?;
    let src = dir.path().join("LeakyCache.java");
    std::fs::write(&src, SOURCE).with_context(|| src.display().to_string())?;
    let javac = Command::new("javac").arg("-d").arg(dir.path()).arg(&src).status();
    match javac {
        Ok(s) if s.success() => {}
        Ok(s) => crate::fail!(Internal, "javac failed ({s})"),
        Err(e) => {
            crate::fail!(
                Usage,
                "`heaptui demo` needs a JDK (javac, java): {e}; on Debian `apt install openjdk-17-jdk-headless`"
            )
        }
    }
    let mut child = Command::new("java")
        .arg(format!("-Xmx{}m", args.heap_mb))
        .args(["-XX:+UseSerialGC", "-cp"])
        .arg(dir.path())
        .args(["LeakyCache", "grow", "1"])
        .stdout(Stdio::piped())
        .spawn()
        .context("cannot start java")?;
    let stdout = child.stdout.take();
    let jvm = Jvm(child);
    let mut line = String::new();
    if let Some(out) = stdout {
        BufReader::new(out).read_line(&mut line).context("reading the program's first line")?;
    }
    if !line.starts_with("ready") {
        crate::fail!(DeviceFailed, "the demo program did not start: {line:?}");
    }
    let pid = jvm.0.id();
    super::note(&format!(
        "heaptui demo: LeakyCache (pid {pid}, -Xmx{}m) caches every request and never evicts.",
        args.heap_mb
    ));
    super::note("heaptui demo: watching it until KOOM's heap trigger fires...");
    let device = bridge::device::LocalDevice;
    let agent = bridge::agent::Agent::deploy(&device)?;
    let mut triggers = agent::trigger::Triggers::new(agent::trigger::Config::default());
    let start = std::time::Instant::now();
    let interval_ms = ((args.interval * 1000.0).round() as u64).max(1);
    let mut fired = None;
    let mut ended = None;
    agent.sample_until(pid, interval_ms, None, &mut |line| {
        let sample = match line {
            agent::protocol::Line::Sample { sample } => sample,
            agent::protocol::Line::Error { message } => {
                ended = Some(message);
                return false;
            }
            _ => return true,
        };
        let events = triggers.feed(&sample);
        if let Some(h) = sample.java_heap {
            super::note(&format!(
                "  {:>5.1}s  Java heap {:>10} of {:>10} (trigger at {}), RSS {}",
                start.elapsed().as_secs_f64(),
                heap::fmt::human_bytes(h.used),
                heap::fmt::human_bytes(h.max),
                triggers.heap_line(h.max).map_or("-".into(), heap::fmt::human_bytes),
                heap::fmt::human_bytes(sample.rss_kb.saturating_mul(1024))
            ));
        }
        fired = events.into_iter().next();
        fired.is_none() && start.elapsed().as_secs_f64() <= args.timeout
    })?;
    let Some(event) = fired else {
        match ended {
            Some(why) => crate::fail!(DeviceFailed, "the demo program (pid {pid}) ended: {why}"),
            None => crate::fail!(DeviceFailed, "no trigger fired in {:.0} s", args.timeout),
        }
    };
    super::note(&format!("heaptui demo: TRIGGER {}: {}", event.kind, event.message));
    let request = crate::session::dump::DumpRequest {
        pid,
        query: "LeakyCache".into(),
        method: None,
        mode: agent::protocol::Mode::Triage,
        live: true,
        output: None,
        trigger: event.kind,
        stream: false,
        bitmaps: true,
    };
    let outcome = crate::session::dump::dump(&agent, &request, &mut |_, _, _| {})?;
    super::dump::tell(&outcome);
    let path = outcome.path;
    drop(jvm);
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() && std::io::stdin().is_terminal() {
        crate::ui::run::run(
            Some(crate::ui::run::Source::File(path)),
            crate::ui::theme::Theme::load(&args.theme)?,
            Default::default(),
        )
    } else {
        super::analyze::run(super::analyze::Args::for_file(path, Default::default()))
    }
}
