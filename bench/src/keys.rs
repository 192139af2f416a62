//! The TUI's keypress latency: a key script replayed against the app state headlessly, each key's
//! update and the frame it causes drawn into a 160×48 TestBackend, timed. The target is 16 ms
//! (one frame at 60 Hz) per key on a 1 GB dump's index.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use heaptui::ui::model::{App, Loaded};
use heaptui::ui::msg::Msg;
use heaptui::ui::theme::Theme;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

/// The heap of `path` as the UI has it on a second launch: analysed and cached (in the bench's
/// own cache directory, removed after), then re-opened from the cache, its arrays used where they
/// lie in the mapped file.
fn reopened(path: &std::path::Path) -> Result<heap::Heap> {
    let dir = crate::cache_dir().join("index-cache");
    let mut cache = heap::Cache::new(&dir);
    cache.min_bytes = 0;
    let ticket = cache.ticket(path, heap::Options::default(), "")?;
    let file = cache.store(&heap::Heap::open(path, heap::Options::default())?, &ticket)?;
    let t = Instant::now();
    let heap = cache.load(path, heap::Options::default(), "").map_err(|m| anyhow::anyhow!("{m}"));
    println!("re-opened from the index cache in {:.2} s", t.elapsed().as_secs_f64());
    let _ = std::fs::remove_file(&file);
    heap
}

/// The keys replayed: every screen, then the workbench's prompts and places. `id` is an object's
/// id (the largest retained), to go to with `:`; `array` the largest `HashMap$Node[]`'s (a
/// million slots), whose contents the Inspector pages; `last` the id of the object in the last
/// filled slot of the largest object array, whose path the Inspector names by finding that slot.
fn script(id: u64, array: u64, last: u64) -> Vec<KeyCode> {
    use KeyCode::*;
    let mut k = Vec::new();
    let chars = |s: &str| s.chars().map(Char).collect::<Vec<_>>();
    k.extend(chars("1"));
    k.extend(chars("2"));
    k.extend(std::iter::repeat_n(Down, 30));
    k.extend([PageDown, PageDown, PageUp, End, Home]);
    k.extend(chars("s"));
    k.extend(chars("s"));
    k.extend(chars("s"));
    k.extend(chars("s"));
    k.extend(chars("/java.util.HashMap"));
    k.extend([Enter, Enter, Down, Down, Enter]);
    k.extend(chars("3"));
    k.extend([Enter, Down, Down, Enter, Esc]);
    k.extend(chars("4"));
    for _ in 0..15 {
        k.extend([Right, Down]);
    }
    k.extend([PageDown, Left, Left, Up, Enter]);
    k.extend([Down, Enter, Down, Enter, Esc, Esc]);
    k.extend(chars("p"));
    k.extend(chars("2"));
    k.extend(chars("p"));
    k.extend(chars("6?"));
    k.push(Esc);
    // The Overview's rows: a suspect's trace, an object, and back.
    k.extend(chars("1"));
    k.extend([Enter, Esc, Down, Down, Enter, Esc]);
    // `:` to a class and to an object by id, and back through both places.
    k.extend(chars(":java.lang.String"));
    k.extend([Tab, Enter]);
    k.extend(chars(&format!(":{id:#x}")));
    k.extend([Enter, Esc, Esc]);
    // Filters typed on every list: the dominator tree's scans every object per keystroke.
    k.extend(chars("4/HashMap"));
    k.extend([Enter, Down, Down, Enter, Esc]);
    k.extend(chars("/"));
    k.push(Esc);
    k.extend(chars("3/Hash"));
    k.push(Enter);
    k.extend(chars("ss/"));
    k.push(Esc);
    k.extend(chars("5/size"));
    k.push(Enter);
    k.extend(chars("/"));
    k.push(Esc);
    // An instance list sorted three ways, the Diff screen, and back through the places.
    k.extend(chars("2"));
    k.extend([Home, Enter]);
    k.extend(chars("sss7"));
    k.extend([Esc, Esc, Esc, Esc]);
    // Merged paths and immediate dominators of the largest class (computed off the input loop:
    // the key opens the view, the result's arrival is timed as its own event), then the tree
    // grouped by class, a group opened.
    k.extend(chars("2"));
    k.extend([Home]);
    k.extend(chars("m"));
    k.extend([Enter, Down, Enter, Esc, Esc]);
    k.extend(chars("2D"));
    k.extend([Enter, Down, Esc, Esc]);
    k.extend(chars("4c"));
    k.extend([Enter, Down, Enter, PageDown]);
    k.extend(chars("c8"));
    k.extend([Enter, Down, Down, Enter, Esc]);
    // The largest array class (its shallow sizes differ: a selection, not an id order).
    k.extend(chars(":byte[]"));
    k.extend([Enter, Enter]);
    k.extend(chars("s"));
    k.extend([PageDown, PageDown, End, Home]);
    k.extend(chars("s"));
    k.extend([End]);
    k.extend(chars("s"));
    k.extend([Esc, Esc]);
    // Bitmaps: the full-screen one previewed (its first picture is decoded and scaled then), the
    // next, then one in the Inspector beside its fields.
    k.extend(chars(":android.graphics.Bitmap"));
    k.extend([Enter, Enter]);
    k.extend(chars("v"));
    k.extend([Esc, Down]);
    k.extend(chars("v"));
    k.extend([Esc, Up, Enter, Down, Esc, Esc, Esc]);
    // A million-slot array in the Inspector: its first page, the last row, the next page.
    k.extend(chars(&format!(":{array:#x}")));
    k.extend([Enter, PageDown, End, Enter, PageDown, End, Home, Esc]);
    // An object whose path crosses the largest array at its end, and a few keys on it.
    k.extend(chars(&format!(":{last:#x}")));
    k.extend([Enter, Down, Down, Up, Esc]);
    k
}

/// Runs the script on `file` (default: the 1 GB HeapGen dump) and prints the latency figures.
pub fn run(file: Option<PathBuf>, cached: bool) -> Result<()> {
    let path = match file {
        Some(f) => f,
        None => crate::make_dump(1000)?,
    };
    let t = Instant::now();
    let heap = if cached { reopened(&path)? } else { heap::Heap::open(&path, heap::Options::default())? };
    let leaks = heap::leaks::find_leaks(&heap, &heap::leaks::LeakConfig::default());
    println!("{} loaded in {:.2} s", path.display(), t.elapsed().as_secs_f64());
    let loaded = Loaded::new(Arc::new(heap), leaks, path.display().to_string(), 0);
    // The UI warms up on a thread right after loading; do the same here, then measure keys.
    let t = Instant::now();
    Loaded::warm(&loaded.heap, &loaded.presorted);
    println!("warm-up (done in the background by the UI) in {:.2} s", t.elapsed().as_secs_f64());
    let mut app = App::with_loaded(Theme::load("dark")?, loaded);
    let mut terminal = Terminal::new(TestBackend::new(160, 48))?;
    app.update(Msg::Input(Event::Resize(160, 48)));
    terminal.draw(|f| heaptui::ui::view::draw(f, &app))?;
    let mut times: Vec<(f64, String)> = Vec::new();
    let id = app.loaded().and_then(|l| l.top_retained.first().map(|&n| l.heap.index.id(n))).unwrap_or(0);
    let array = app
        .loaded()
        .and_then(|l| {
            let class = l.heap.index.classes_named("java.util.HashMap$Node[]").next()?;
            l.heap.instances_by_retained(class).first().map(|&n| l.heap.index.id(n))
        })
        .unwrap_or(0);
    let last = app
        .loaded()
        .and_then(|l| {
            let idx = &l.heap.index;
            let largest = idx
                .nodes()
                .filter(|&n| idx.kind(n) == heap::ObjectKind::ObjectArray)
                .max_by_key(|&n| idx.array_length(n))?;
            idx.references(largest).last().map(|n| idx.id(n))
        })
        .unwrap_or(0);
    for (step, code) in script(id, array, last).into_iter().enumerate() {
        let start = Instant::now();
        let effects = app.update(Msg::Input(Event::Key(KeyEvent::new(code, KeyModifiers::NONE))));
        terminal.draw(|f| heaptui::ui::view::draw(f, &app))?;
        let key_ms = start.elapsed().as_secs_f64() * 1000.0;
        let list = match &app.classes.instances {
            Some((_, nodes, _)) if app.screen == heaptui::ui::screen::Screen::Classes => {
                format!(" ({} instances by {})", nodes.len(), nodes.order.label())
            }
            _ => String::new(),
        };
        times.push((key_ms, format!("key {step}: {code:?} on {}{list}", app.screen.title())));
        // An analysis the key started runs on a thread in the UI: here, off the clock; its
        // result reaching the model (and the frame it causes) is timed as an event of its own.
        for e in effects {
            let (what, job): (String, Box<dyn FnOnce() -> Msg>) = match e {
                heaptui::ui::msg::Effect::Analyse(job) => (format!("{job:?}"), Box::new(move || job.run())),
                heaptui::ui::msg::Effect::Sort(job) => (format!("{job:?}"), Box::new(move || job.run())),
                _ => continue,
            };
            {
                let t = Instant::now();
                let msg = job();
                let computed = t.elapsed().as_secs_f64();
                let start = Instant::now();
                app.update(msg);
                terminal.draw(|f| heaptui::ui::view::draw(f, &app))?;
                times.push((start.elapsed().as_secs_f64() * 1000.0, format!("the result of {what}")));
                println!("  (off the input loop: {what} in {computed:.2} s)");
            }
        }
    }
    let mut sorted: Vec<f64> = times.iter().map(|t| t.0).collect();
    sorted.sort_by(f64::total_cmp);
    let pct = |p: f64| sorted[((sorted.len() - 1) as f64 * p) as usize];
    let worst = times.iter().max_by(|a, b| a.0.total_cmp(&b.0)).map(|t| t.1.clone()).unwrap_or_default();
    println!(
        "{} keys: median {:.2} ms, p90 {:.2} ms, max {:.2} ms ({worst}); {} over 16 ms",
        sorted.len(),
        pct(0.5),
        pct(0.9),
        pct(1.0),
        sorted.iter().filter(|&&t| t > 16.0).count()
    );
    let mut slowest: Vec<&(f64, String)> = times.iter().collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("the slowest five:");
    for (ms, what) in slowest.into_iter().take(5) {
        println!("  {ms:>8.2} ms  {what}");
    }
    // Filtering 100k class names: the fuzzy matcher over that many names, one keystroke's work.
    let rows: Vec<heaptui::ui::model::ClassRow> = (0..100_000)
        .map(|i| heaptui::ui::model::ClassRow {
            name: format!("com.example.module{}.feature{}.Widget{i}$Inner", i % 97, i % 13),
            class: None,
            instances: 0,
            shallow: 0,
            retained: 0,
        })
        .collect();
    let mut runs = Vec::new();
    let mut hits = 0;
    for _ in 0..7 {
        let start = Instant::now();
        hits = heaptui::ui::histogram::fuzzy_filter(&rows, (0..rows.len() as u32).collect(), "feat3Widg").len();
        runs.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    runs.sort_by(f64::total_cmp);
    println!("fuzzy filter over 100000 class names: median {:.1} ms of 7 ({hits} matches)", runs[3]);
    // Typing one more character filters only the previous matches.
    let first: Vec<u32> = heaptui::ui::histogram::fuzzy_filter(&rows, (0..rows.len() as u32).collect(), "feat");
    let start = Instant::now();
    let narrowed = heaptui::ui::histogram::fuzzy_filter(&rows, first, "feat3").len();
    println!(
        "  the next keystroke (\"feat\" -> \"feat3\"): {:.1} ms ({narrowed} matches)",
        start.elapsed().as_secs_f64() * 1000.0
    );
    Ok(())
}
