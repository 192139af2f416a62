//! `heaptui`: keyboard-first heap triage for Android and JVM apps.
//!
//! With no argument, the picker (phones' apps, dumps, local processes); with a file, the triage
//! screens; the subcommands are the headless side (analysis, stripping, devices, monitoring,
//! dumping). See the README.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

use heaptui::{cli, ui};

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use heaptui::exit::Code;

/// Large blocks kept for reuse between the engine's phases (see `heap::alloc`).
#[global_allocator]
static GLOBAL: heap::alloc::Recycler<std::alloc::System> = heap::alloc::Recycler(std::alloc::System);

/// Keyboard-first heap triage for Android and JVM apps.
#[derive(Parser)]
#[command(name = "heaptui", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A heap dump to open in the interactive UI (with none: the picker of stored dumps, phones and
    /// processes; with no terminal, the bundled demo dump's report).
    file: Option<std::path::PathBuf>,
    /// Colour theme: dark, light, high-contrast, or one of yours in $XDG_CONFIG_HOME/heaptui/themes.
    #[arg(long, default_value = "dark")]
    theme: String,
    /// The analysis flags `analyze` takes, with the same meaning.
    #[command(flatten)]
    analysis: cli::analyze::AnalysisArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Analyse a heap dump: summary, heaps, class histogram, largest retained objects.
    Analyze(cli::analyze::Args),
    /// Show objects (an id, or every instance of a class): sizes, fields, dominator, path to a GC root.
    Inspect(cli::inspect::Args),
    /// SQL over the dump: objects, classes, refs, roots, fields (`--schema` lists them).
    Query(cli::query::Args),
    /// Strip a dump as it streams: drop what triage does not need (modes triage, koom, matrix, redact).
    Strip(cli::strip::StripArgs),
    /// Turn a stripped dump back into a standard one (dropped values come back as zeros).
    Restore(cli::restore::RestoreArgs),
    /// Convert an Android dump to the HotSpot dialect, as AOSP's hprof-conv does (-z: no zygote).
    Convert(cli::convert::ConvertArgs),
    /// List phones (through the adb server) and this machine (`local`).
    Devices(cli::devices::DevicesArgs),
    /// List processes to watch: JVMs first, then by resident memory.
    Ps(cli::ps::PsArgs),
    /// Watch a process's memory (Java heap, RSS, PSS, threads, FDs) and the triggers that would dump it.
    Monitor(cli::monitor::MonitorArgs),
    /// Dump a running process's heap (a local JVM through HotSpot's attach protocol, an app on a phone), never over a file.
    Dump(cli::dump::DumpArgs),
    /// What a phone's runtime offers the dumps: ART's symbols for the fork dump, and which methods work.
    Doctor(cli::doctor::DoctorArgs),
    /// The whole loop with no phone: start a leaking JVM, watch it until the trigger fires, dump, open the leak.
    Demo(cli::demo::DemoArgs),
}

/// The interactive UI on a terminal; without one, the headless report (scripts, CI).
fn interactive(
    file: Option<std::path::PathBuf>,
    theme: &str,
    analysis: cli::analyze::AnalysisArgs,
) -> anyhow::Result<()> {
    use std::io::IsTerminal;
    let terminal = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    match (file, terminal) {
        (Some(f), true) => {
            ui::run::run(Some(ui::run::Source::File(f)), ui::theme::Theme::load(theme)?, analysis.for_ui()?)
        }
        (None, true) => ui::run::run(None, ui::theme::Theme::load(theme)?, analysis.for_ui()?),
        (Some(f), false) => cli::analyze::run(cli::analyze::Args::for_file(f, analysis)),
        (None, false) => cli::analyze::demo(),
    }
}

fn main() -> ExitCode {
    heaptui::guard_sigbus();
    let cli = Cli::parse();
    // A panic has printed its message (the default hook) by the time it arrives here.
    match std::panic::catch_unwind(move || run(cli)) {
        Ok(code) => code,
        Err(_) => ExitCode::from(Code::Internal.number()),
    }
}

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Analyze(args)) => cli::analyze::run(args),
        Some(Command::Inspect(args)) => cli::inspect::run(args),
        Some(Command::Query(args)) => cli::query::run(args),
        Some(Command::Strip(args)) => cli::strip::run(args),
        Some(Command::Restore(args)) => cli::restore::run(args),
        Some(Command::Convert(args)) => cli::convert::run(args),
        Some(Command::Devices(args)) => cli::devices::run(args),
        Some(Command::Ps(args)) => cli::ps::run(args),
        Some(Command::Monitor(args)) => cli::monitor::run(args),
        Some(Command::Dump(args)) => cli::dump::run(args),
        Some(Command::Demo(args)) => cli::demo::run(args),
        Some(Command::Doctor(args)) => cli::doctor::run(args),
        None => interactive(cli.file, &cli.theme, cli.analysis),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed pipe (`heaptui analyze x | head`) is not an error.
            if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) {
                return ExitCode::SUCCESS;
            }
            // Errors carry dump strings, file names and devices' answers: shown safe, never sent.
            let _ = writeln!(std::io::stderr(), "heaptui: {}", heap::fmt::safe(&format!("{e:#}")));
            ExitCode::from(Code::of(&e).number())
        }
    }
}
