//! The headless subcommands, one module each: they parse their arguments (clap), call the
//! engine or the session layer, and print. What they share: how a dump is opened, how a device is
//! named, how output reaches stdout and notes stderr.

pub mod analyze;
pub mod convert;
pub mod demo;
pub mod devices;
pub mod doctor;
pub mod dump;
pub mod inspect;
pub mod monitor;
pub mod ps;
pub mod query;
pub mod restore;
mod stream;
pub mod strip;

use std::path::Path;

use anyhow::Context;
use clap::ValueEnum;

use crate::session;

/// Output format of the headless commands.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned columns for people.
    Text,
    /// JSON for scripts (the documented schema).
    Json,
}

/// The size model flag.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SizeModelArg {
    /// `android` for 1.0.3 dumps, `hotspot` otherwise.
    Auto,
    /// ahat's arithmetic (ART's own object sizes).
    Android,
    /// VisualVM's HotSpot layout.
    Hotspot,
    /// Eclipse MAT's arithmetic.
    Mat,
}

impl SizeModelArg {
    fn model(self) -> Option<heap::SizeModel> {
        match self {
            SizeModelArg::Auto => None,
            SizeModelArg::Android => Some(heap::SizeModel::Android),
            SizeModelArg::Hotspot => Some(heap::SizeModel::Hotspot),
            SizeModelArg::Mat => Some(heap::SizeModel::Mat),
        }
    }
}

/// The `--semantics` flag: whose rules the analysis follows.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SemanticsArg {
    /// heaptui's own: referents keep nothing alive, garbage takes no part, classes live
    /// through their instances.
    Heaptui,
    /// VisualVM's heap library: referents and garbage count as referrers for dominators.
    Visualvm,
    /// Eclipse MAT's defaults: global roots only, referents strong, instances refer to classes.
    Mat,
    /// ahat's defaults: soft referents count, classes refer to their statics only.
    Ahat,
    /// Android Studio's perflib: no thread-object roots, no referents, garbage keeps its size.
    Perflib,
}

impl SemanticsArg {
    /// The engine's rule set.
    pub fn semantics(self) -> heap::Semantics {
        match self {
            SemanticsArg::Heaptui => heap::Semantics::Heaptui,
            SemanticsArg::Visualvm => heap::Semantics::Visualvm,
            SemanticsArg::Mat => heap::Semantics::Mat,
            SemanticsArg::Ahat => heap::Semantics::Ahat,
            SemanticsArg::Perflib => heap::Semantics::Perflib,
        }
    }
}

/// `--mode` and `--dump-mode`: how a dump is stripped where it is made.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Kept whole.
    None,
    /// What leak triage needs.
    Triage,
    /// KOOM's: no zygote or image heaps, no primitive array values.
    Koom,
    /// Triage with every value that could be user data zeroed.
    Redact,
}

impl From<ModeArg> for agent::protocol::Mode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::None => agent::protocol::Mode::None,
            ModeArg::Triage => agent::protocol::Mode::Triage,
            ModeArg::Koom => agent::protocol::Mode::Koom,
            ModeArg::Redact => agent::protocol::Mode::Redact,
        }
    }
}

/// `--method`: how a heap is dumped.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// What the process offers: the attach protocol for a JVM, `am dumpheap` for an app.
    Auto,
    /// HotSpot's attach protocol (spoken by heaptui or its agent).
    Attach,
    /// KOOM's fork dump: a debuggable app is paused only around `fork`.
    Fork,
    /// Android's `am dumpheap` (the app is paused while it dumps).
    Am,
    /// ART's own fork dump through Perfetto (Android 11+, a profileable or debuggable app): a
    /// heap graph without values, the app paused only around ART's fork.
    Perfetto,
}

impl MethodArg {
    /// The method asked for; `None` for `auto`.
    pub fn method(self) -> Option<agent::protocol::Method> {
        match self {
            MethodArg::Auto => None,
            MethodArg::Attach => Some(agent::protocol::Method::Attach),
            MethodArg::Fork => Some(agent::protocol::Method::Fork),
            MethodArg::Am => Some(agent::protocol::Method::Am),
            MethodArg::Perfetto => Some(agent::protocol::Method::Perfetto),
        }
    }
}

/// How to open a dump: the flags `analyze` and `inspect` share.
#[derive(clap::Args, Clone)]
pub struct OpenArgs {
    /// Shallow size model.
    #[arg(long, value_enum, default_value_t = SizeModelArg::Auto)]
    pub size_model: SizeModelArg,
    /// Whose rules decide the roots, which references keep objects alive, and what retained
    /// sizes count (see the README's "Whose rules"); part of the index cache's key.
    #[arg(long, value_enum, default_value_t = SemanticsArg::Heaptui)]
    pub semantics: SemanticsArg,
    /// Which heap dump to read when the file holds several (1 = the first).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub dump: u32,
    /// A ProGuard/R8 mapping file to restore obfuscated class and field names.
    #[arg(long, value_name = "MAPPING")]
    pub map: Option<std::path::PathBuf>,
    /// Neither read nor write the on-disk index cache (`$HEAPTUI_INDEX_CACHE`, default
    /// `~/.cache/heaptui/index`): analyse the dump from scratch.
    #[arg(long)]
    pub no_cache: bool,
}

impl Default for OpenArgs {
    fn default() -> OpenArgs {
        OpenArgs {
            size_model: SizeModelArg::Auto,
            semantics: SemanticsArg::Heaptui,
            dump: 1,
            map: None,
            no_cache: false,
        }
    }
}

/// Opens and analyses `path`, naming the file in any error; people at a terminal see which
/// phase a big dump is in, scripts see nothing.
pub fn open(path: &Path, args: &OpenArgs) -> anyhow::Result<heap::Heap> {
    open_for(path, args, false)
}

/// [`open`], the Strings' characters hashed while indexing when `hash_strings` (for a report
/// with duplicate strings; see [`heap::Options::hash_strings`]).
pub fn open_for(path: &Path, args: &OpenArgs, hash_strings: bool) -> anyhow::Result<heap::Heap> {
    use std::io::IsTerminal;
    let show = |phase: heap::Phase, done: u64, total: u64| {
        let pct = (done * 100).checked_div(total).unwrap_or(0);
        eprint!("\r\x1b[K{} {pct:>3}%", phase.name());
    };
    let progress: Option<heap::index::Progress<'_>> = if std::io::stderr().is_terminal() { Some(&show) } else { None };
    let options = heap::Options {
        size_model: args.size_model.model(),
        semantics: args.semantics.semantics(),
        progress,
        dump: args.dump as usize - 1,
        hash_strings,
        ..Default::default()
    };
    let mapping = match &args.map {
        Some(map) => Some(std::fs::read_to_string(map).with_context(|| format!("cannot read {}", map.display()))?),
        None => None,
    };
    let opened = session::open::open(path, options, &session::open::Request { mapping, no_cache: args.no_cache })?;
    if progress.is_some() {
        eprint!("\r\x1b[K");
    }
    for n in &opened.notes {
        note(n);
    }
    if let Some(store) = &opened.store {
        if let Err(e) = store.write(&opened.heap) {
            note(&format!("index cache not written: {e:#}"));
        }
    }
    Ok(opened.heap)
}

/// Which device: the flags `ps`, `monitor` and `dump` share.
#[derive(clap::Args, Clone)]
pub struct DeviceArgs {
    /// This machine.
    #[arg(long, conflicts_with = "serial")]
    pub local: bool,
    /// The phone with this serial (as `adb -s`); `ANDROID_SERIAL` works too. Without either, the
    /// one phone attached, or this machine when none is.
    #[arg(short = 's', long = "serial", value_name = "SERIAL")]
    pub serial: Option<String>,
}

impl DeviceArgs {
    /// The device named.
    pub fn device(&self) -> anyhow::Result<Box<dyn bridge::device::Device>> {
        session::target::device(self.local, self.serial.as_deref())
    }
}

/// Writes text for people to stdout, reporting a closed pipe as an `io::Error`. The text is made
/// safe on its way ([`heap::fmt::safe_lines`]: newlines and tabs kept, every other control
/// character shown escaped), whatever its strings came from; callers escape names where they put
/// them in too, so a newline inside a name cannot start a line of its own.
pub fn print(s: &str) -> anyhow::Result<()> {
    write_out(&heap::fmt::safe_lines(s))
}

/// Writes machine output (JSON, as serde_json wrote it) to stdout: the same JSON value, with the
/// control characters serde leaves raw written as `\u` escapes ([`heap::fmt::safe_json`]), so
/// scripts read the exact strings and a terminal gets no control character either.
pub fn print_json(s: &str) -> anyhow::Result<()> {
    write_out(&heap::fmt::safe_json(s))
}

/// Writes data for programs (CSV) to stdout: exactly as it is into a pipe or a file, made safe as
/// [`print`] makes text when stdout is a terminal.
pub fn print_data(s: &str) -> anyhow::Result<()> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        return print(s);
    }
    write_out(s)
}

fn write_out(s: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// A one-line note for people on stderr (what was written where), made safe whole
/// ([`heap::fmt::safe`]: a newline or tab from a name shows escaped too).
pub fn note(s: &str) {
    eprintln!("{}", heap::fmt::safe(s));
}
