//! `heaptui dump`: a heap dump of a running process, on this machine or a phone, stored where
//! heaptui keeps dumps (or `-o`), never over an existing file, with a JSON sidecar saying what was
//! dumped and when (the pipeline is `session::dump`).

use std::path::PathBuf;

use agent::protocol::Mode;
use bridge::agent::Agent;

use crate::session;
use crate::session::dump::{DumpRequest, Outcome, Step};

/// `heaptui dump`.
#[derive(clap::Args)]
pub struct DumpArgs {
    #[command(flatten)]
    device: super::DeviceArgs,
    /// A pid, or a name: the command name, a JVM's main class or jar, an Android package.
    process: String,
    /// How: `auto` picks what the process offers; `attach` (HotSpot's attach protocol, spoken by
    /// heaptui or its agent), `am` (Android's `am dumpheap`; the app is paused while it dumps),
    /// `fork` (KOOM's fork dump: a debuggable app is paused only around fork).
    #[arg(long, value_enum, default_value_t = super::MethodArg::Auto)]
    method: super::MethodArg,
    /// Strip the dump on the way (triage, koom, redact); `none` keeps it whole. Default: none on
    /// this machine; triage on a phone (stripped there, restored here).
    #[arg(long, value_enum)]
    mode: Option<super::ModeArg>,
    /// Dump every object, unreachable ones too (default: live objects, after a full GC).
    #[arg(long)]
    all: bool,
    /// On a phone: stream the stripped dump straight to this machine instead of storing it on the
    /// phone and pulling it.
    #[arg(long)]
    stream: bool,
    /// Bitmap pixels in the dump (the default): `am dumpheap -b png` where the phone's `am`
    /// takes `-b` (Android 15 added it); the app compresses each Bitmap into the dump.
    #[arg(long, overrides_with = "no_bitmaps")]
    bitmaps: bool,
    /// No Bitmap pixels (they can be users' photos; the app spends time compressing them).
    #[arg(long)]
    no_bitmaps: bool,
    /// Where to write it (default: $XDG_DATA_HOME/heaptui/dumps/DEVICE/PROCESS/YYYYMMDDTHHMMSSZ.hprof).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs `dump`: prints the dump's path; progress and a summary go to stderr.
pub fn run(args: DumpArgs) -> anyhow::Result<()> {
    let device = args.device.device()?;
    let here = device.runs_here();
    // Before anything is asked of the process.
    session::dump::check(&*device, args.method.method(), args.stream)?;
    let agent = Agent::deploy(&*device)?;
    let pid = session::target::pick(&agent, &args.process)?;
    // This machine keeps its dumps whole unless asked; a phone strips them before they cross.
    let default_mode = if here { Mode::None } else { Mode::Triage };
    let request = DumpRequest {
        pid,
        query: args.process.clone(),
        method: args.method.method(),
        mode: args.mode.map_or(default_mode, Mode::from),
        live: !args.all,
        output: args.output.clone(),
        trigger: agent::trigger::Kind::Manual,
        stream: args.stream,
        bitmaps: !args.no_bitmaps,
    };
    let mut shown = 0u64;
    let mut progress = |step: Step, done: u64, total: u64| {
        if step == Step::Transfer && (done == total || done >= shown + (8 << 20)) {
            shown = done;
            super::note(&format!(
                "heaptui: transfer {} of {}",
                heap::fmt::human_bytes(done),
                heap::fmt::human_bytes(total)
            ));
        }
    };
    let outcome = session::dump::dump(&agent, &request, &mut progress)?;
    for n in &outcome.notes {
        super::note(n);
    }
    if args.method == super::MethodArg::Auto {
        super::note(&format!(
            "heaptui: --method auto took {}: {}",
            outcome.sidecar.method,
            session::dump::why_auto(outcome.sidecar.method)
        ));
    }
    tell(&outcome);
    super::print(&format!("{}\n", outcome.path.display()))
}

/// Tells people on stderr what was dumped and how to open it.
pub fn tell(outcome: &Outcome) {
    super::note(&outcome.summary());
    super::note(&format!("heaptui: open it with `heaptui {}`", outcome.path.display()));
}
