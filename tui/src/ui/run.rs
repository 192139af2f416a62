//! The interactive loop: terminal set-up, input and loading on threads that post messages, draw
//! after draining every pending message, carry out effects.

use std::io::Write;
use std::path::Path;

use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;

use super::model::{App, Loaded};
use super::msg::{Effect, Msg};
use super::theme::Theme;
use crate::session::files::write_new;

pub use super::source::Source;
pub use crate::session::open::Analysis;

/// Runs the UI until the user quits: on `source`, or with none, on the picker.
pub fn run(source: Option<Source>, theme: Theme, analysis: Analysis) -> anyhow::Result<()> {
    let analysis = Arc::new(analysis);
    let (tx, rx) = channel::<Msg>();
    let mut app = match source {
        Some(Source::Process(target)) => {
            let mut app = App::new(theme);
            for e in app.watch(target) {
                if let Effect::Watch(t) = e {
                    spawn_watch(t, tx.clone());
                }
            }
            app
        }
        Some(s) => {
            spawn_loader(s, tx.clone(), analysis.clone());
            App::new(theme)
        }
        None => {
            spawn_picks(tx.clone());
            App::picker(theme, super::picker::pick_items(Path::new(".")))
        }
    };
    match crate::session::triggers::base_config() {
        Ok(c) => app.trigger_config = c,
        Err(e) => app.status = Some(format!("{e:#}")),
    }
    // The terminal first, and its graphics protocol asked before the input thread reads what
    // it answers.
    let mut terminal = ratatui::init();
    app.pictures.picker = super::model::Pictures::picker_for_terminal();
    let input = tx.clone();
    std::thread::spawn(move || loop {
        match event::poll(Duration::from_millis(250)) {
            Ok(true) => match event::read() {
                Ok(e) => {
                    if input.send(Msg::Input(e)).is_err() {
                        return;
                    }
                }
                Err(_) => return,
            },
            Ok(false) => {
                if input.send(Msg::Tick).is_err() {
                    return;
                }
            }
            Err(_) => return,
        }
    });

    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let size = terminal.size().map(|s| s.height).unwrap_or(24);
    app.page = (size as usize).saturating_sub(5).max(1);
    let result = (|| -> anyhow::Result<()> {
        loop {
            terminal.draw(|f| super::view::draw(f, &app))?;
            let Ok(first) = rx.recv() else { return Ok(()) };
            let mut effects = app.update(first);
            // Drain whatever else is waiting, then draw once.
            while let Ok(m) = rx.try_recv() {
                effects.extend(app.update(m));
            }
            for e in effects {
                match e {
                    Effect::Open(source) => spawn_loader(source, tx.clone(), analysis.clone()),
                    Effect::Watch(target) => spawn_watch(target, tx.clone()),
                    Effect::Dump(target, kind) => spawn_dump(target, kind, tx.clone()),
                    Effect::Baseline(path) => {
                        if let Some(heap) = app.loaded().map(|l| l.heap.clone()) {
                            spawn_baseline(heap, path, tx.clone(), analysis.clone());
                        }
                    }
                    Effect::Query(job) => off_the_loop(&tx, move || job.run()),
                    Effect::Analyse(job) => off_the_loop(&tx, move || job.run()),
                    Effect::Sort(job) => off_the_loop(&tx, move || job.run()),
                    e => {
                        if let Some(s) = carry_out(e) {
                            app.status = Some(s);
                        }
                    }
                }
            }
            if app.quit {
                return Ok(());
            }
        }
    })();
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

/// The device `target` is on.
fn device_of(target: &super::monitor::Target) -> anyhow::Result<Box<dyn bridge::device::Device>> {
    crate::session::target::device(target.serial.is_none(), target.serial.as_deref())
}

/// Samples `target` every second on a thread of its own, posting each sample, then why it ended.
fn spawn_watch(target: super::monitor::Target, tx: Sender<Msg>) {
    std::thread::spawn(move || {
        let why = (|| -> anyhow::Result<String> {
            let device = device_of(&target)?;
            let agent = bridge::agent::Agent::deploy(&*device)?;
            let mut last = String::from("the agent stopped");
            // Stops when the UI has gone (its end of the channel is dropped).
            agent.sample_until(target.pid, 1000, None, &mut |line| match line {
                agent::protocol::Line::Sample { sample } => tx.send(Msg::Sample(Box::new(sample))).is_ok(),
                agent::protocol::Line::Error { message } => {
                    last = message;
                    true
                }
                _ => true,
            })?;
            Ok(last)
        })()
        .unwrap_or_else(|e| format!("{e:#}"));
        let _ = tx.send(Msg::WatchEnded(why));
    });
}

/// Dumps `target` on a thread, posting each step: on this machine through the attach protocol, on
/// a phone through its agent (stripped there, pulled, restored here); stripped for triage.
fn spawn_dump(target: super::monitor::Target, trigger: agent::trigger::Kind, tx: Sender<Msg>) {
    std::thread::spawn(move || {
        let r = (|| {
            let device = device_of(&target)?;
            let agent = bridge::agent::Agent::deploy(&*device)?;
            let request = crate::session::dump::DumpRequest {
                pid: target.pid,
                query: target.name.clone(),
                method: None,
                mode: agent::protocol::Mode::Triage,
                live: true,
                output: None,
                trigger,
                stream: false,
                bitmaps: true,
            };
            crate::session::dump::dump(&agent, &request, &mut |step, done, total| {
                let _ = tx.send(Msg::Progress { phase: step.name(), done, total });
            })
        })();
        let _ = tx.send(Msg::Dumped(r.map(|o| o.path).map_err(|e| format!("{e:#}"))));
    });
}

/// Finds processes to offer, after the picker is up: this machine's at once, then each phone's
/// (its agent pushed first, which takes a moment).
fn spawn_picks(tx: Sender<Msg>) {
    use super::picker::PickItem;
    std::thread::spawn(move || {
        let item = super::picker::process_item;
        let me = std::process::id();
        let local: Vec<PickItem> = agent::proc::list()
            .iter()
            .filter(|p| p.pid != me && super::picker::offered(p))
            .map(|p| if p.jvm { item(p, None, 2, "local JVM") } else { item(p, None, 3, "local") })
            .collect();
        if tx.send(Msg::Picks(local)).is_err() {
            return;
        }
        let port = bridge::adb::server_port();
        for d in bridge::adb::devices(port).unwrap_or_default() {
            if d.state != "device" {
                continue;
            }
            let dev = bridge::device::AdbDevice { port, serial: d.serial.clone(), model: d.model.clone() };
            let Ok(list) = bridge::agent::Agent::deploy(&dev).and_then(|a| a.processes()) else { continue };
            let place = format!("{} {}", d.serial, d.model.as_deref().unwrap_or(""));
            let items = list
                .iter()
                .filter(|p| super::picker::offered(p))
                .map(|p| {
                    // Apps run under their package name (zygote sets argv[0] to it).
                    let app = p.cmdline.contains('.') && !p.cmdline.contains('/') && !p.cmdline.contains(' ');
                    item(p, Some(&d.serial), if app { 0 } else { 4 }, place.trim())
                })
                .collect();
            if tx.send(Msg::Picks(items)).is_err() {
                return;
            }
        }
    });
}

/// Opens `source` on a thread of its own as `analysis` says, posting progress, the analysed dump,
/// then its leak suspects (since the baseline, when there is one).
fn spawn_loader(source: Source, tx: Sender<Msg>, analysis: Arc<Analysis>) {
    std::thread::spawn(move || {
        let progress_tx = tx.clone();
        let cb = move |phase: heap::Phase, done: u64, total: u64| {
            let _ = progress_tx.send(Msg::Progress { phase: phase.name(), done, total });
        };
        let options = heap::Options {
            progress: Some(&cb),
            size_model: analysis.size_model,
            semantics: analysis.semantics,
            dump: analysis.dump,
            ..Default::default()
        };
        let (loaded, store) = match load(&source, options, &analysis.request, &tx) {
            Ok(l) => l,
            Err(e) => {
                let _ = tx.send(Msg::Loaded(Err(format!("{e:#}"))));
                return;
            }
        };
        let heap = loaded.heap.clone();
        let presorted = loaded.presorted.clone();
        let _ = tx.send(Msg::Loaded(Ok(Box::new(loaded))));
        // The screens are up; then the leak rules, then what the first keypresses would
        // otherwise wait for, then the index cache that makes the next opening quick.
        let config = &analysis.config;
        let baseline = analysis.baseline.as_ref().and_then(|old| {
            let options =
                heap::Options { size_model: analysis.size_model, semantics: analysis.semantics, ..Default::default() };
            match crate::session::open::open(old, options, &analysis.request) {
                Ok(opened) => Some(opened.heap),
                Err(e) => {
                    let _ = tx.send(Msg::Note(format!("baseline not used: {e:#}")));
                    None
                }
            }
        });
        let leaks = match &baseline {
            Some(old) => heap::leaks::find_leaks_since(&heap, config, old),
            None => heap::leaks::find_leaks(&heap, config),
        };
        let undecided = heap::leaks::undecided(&heap, config);
        if let (Some(old), Some(path)) = (&baseline, &analysis.baseline) {
            let diff = compare(old, &heap, path, config.growth_min_bytes);
            let _ = tx.send(Msg::Baseline(heap.clone(), Box::new(diff)));
        }
        drop(baseline);
        let _ = tx.send(Msg::Leaks(heap.clone(), leaks, undecided));
        Loaded::warm(&heap, &presorted);
        if let Some(store) = store {
            let _ = store.write(&heap);
        }
    });
}

/// What changed from `old` (the dump at `path`) to `new`, as `analyze --baseline` reports it.
fn compare(old: &heap::Heap, new: &heap::Heap, path: &Path, min_bytes: u64) -> super::model::Baseline {
    super::model::Baseline {
        path: path.display().to_string(),
        classes: heap::diff::class_deltas(old, new),
        growing: heap::diff::growing_collections(old, new, min_bytes),
    }
}

/// Opens the dump at `path` as a baseline for `new` on a thread of its own (`b` on the Diff
/// screen), posting what changed, or why it could not.
fn spawn_baseline(new: Arc<heap::Heap>, path: std::path::PathBuf, tx: Sender<Msg>, analysis: Arc<Analysis>) {
    std::thread::spawn(move || {
        let _ = tx.send(Msg::Note(format!("reading the baseline {}...", path.display())));
        let options =
            heap::Options { size_model: analysis.size_model, semantics: analysis.semantics, ..Default::default() };
        match crate::session::open::open(&path, options, &analysis.request) {
            Ok(opened) => {
                let diff = compare(&opened.heap, &new, &path, analysis.config.growth_min_bytes);
                let _ = tx.send(Msg::Baseline(new, Box::new(diff)));
            }
            Err(e) => {
                let _ = tx.send(Msg::Note(format!("baseline not read: {e:#}")));
            }
        }
    });
}

/// Where to write the index cache after loading, when the dump was not read from it.
type Store = Option<crate::session::open::Store>;

fn load(
    source: &Source,
    options: heap::Options<'_>,
    request: &crate::session::open::Request,
    tx: &Sender<Msg>,
) -> anyhow::Result<(Loaded, Store)> {
    use crate::session::open;
    let started = std::time::Instant::now();
    let (heap, path, file_bytes, store) = match source {
        Source::File(p) => {
            let _ = tx.send(Msg::Progress { phase: "cache", done: 0, total: 1 });
            let opened = open::open(p, options, request)?;
            let bytes = std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
            (opened.heap, p.display().to_string(), bytes, opened.store)
        }
        Source::Process(_) => crate::fail!(Internal, "a process is watched, not loaded"),
        Source::Demo => {
            let (heap, len) = open::demo(options)?;
            (heap, open::DEMO_NAME.to_string(), len, None)
        }
    };
    let mut loaded = Loaded::new(Arc::new(heap), Vec::new(), path, file_bytes);
    loaded.leaks_pending = true;
    loaded.started = started;
    Ok((loaded, store))
}

/// Runs `job` on a thread of its own; the message it returns goes to the main loop.
fn off_the_loop(tx: &Sender<Msg>, job: impl FnOnce() -> Msg + Send + 'static) {
    let tx = tx.clone();
    std::thread::spawn(move || {
        let _ = tx.send(job());
    });
}

/// Carries out an effect; returns a status line.
fn carry_out(effect: Effect) -> Option<String> {
    match effect {
        Effect::Open(_)
        | Effect::Watch(_)
        | Effect::Dump(..)
        | Effect::Baseline(..)
        | Effect::Analyse(_)
        | Effect::Sort(_)
        | Effect::Query(_) => None,
        Effect::Copy(text) => {
            // OSC 52: the terminal puts the text on the clipboard, over ssh and tmux too.
            let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
            let mut out = std::io::stdout();
            let _ = write!(out, "\x1b]52;c;{b64}\x07");
            let _ = out.flush();
            None
        }
        Effect::Export { stem, ext, contents, json } => {
            let export = |ext: &str, text: &str| write_new(Path::new("."), &stem, ext, text.as_bytes());
            let text = export(ext, &contents);
            let json = json.map(|j| export("json", &j));
            match (text, json) {
                (Ok(t), Some(Ok(j))) => Some(format!("exported to {} and {}", t.display(), j.display())),
                (Ok(t), None) => Some(format!("exported to {}", t.display())),
                (Err(e), _) | (_, Some(Err(e))) => Some(format!("export failed: {e:#}")),
            }
        }
    }
}
