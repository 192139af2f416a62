//! Every screen rendered into ratatui's TestBackend at 80×24 and 160×48, snapshotted with insta
//! (`INSTA_UPDATE=always cargo test -p heaptui --test screens` after an intended change, then
//! review the diff). The numbers on screen are also checked against the fixtures' facts.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use heaptui::ui::model::{App, Loaded};
use heaptui::ui::msg::Msg;
use heaptui::ui::screen::Screen;
use heaptui::ui::theme::Theme;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

fn fixture(name: &str) -> PathBuf {
    let dir = std::env::var_os("HEAPTUI_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"));
    dir.join(name)
}

fn app_for(path: &Path) -> App {
    let heap = heap::Heap::open(path, heap::Options::default()).unwrap();
    let leaks = heap::leaks::find_leaks(&heap, &heap::leaks::LeakConfig::default());
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let bytes = std::fs::metadata(path).unwrap().len();
    App::with_loaded(Theme::plain(), Loaded::new(Arc::new(heap), leaks, name, bytes))
}

fn key(app: &mut App, code: KeyCode) {
    app.update(Msg::Input(Event::Key(KeyEvent::new(code, KeyModifiers::NONE))));
}

fn keys(app: &mut App, s: &str) {
    for c in s.chars() {
        key(app, KeyCode::Char(c));
    }
}

fn render(app: &mut App, w: u16, h: u16) -> String {
    app.update(Msg::Input(Event::Resize(w, h)));
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| heaptui::ui::view::draw(f, app)).unwrap();
    format!("{}", t.backend())
}

/// The true colours drawn from column `from` rightwards (as foreground or background: a half
/// block shows two pixels, a space one), and how many rows hold any. Pictures are the only thing
/// drawn in RGB colours (themes use named and indexed ones).
fn picture_colours(app: &mut App, w: u16, h: u16, from: u16) -> (std::collections::BTreeSet<(u8, u8, u8)>, usize) {
    use ratatui::style::Color;
    app.update(Msg::Input(Event::Resize(w, h)));
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| heaptui::ui::view::draw(f, app)).unwrap();
    let buffer = t.backend().buffer();
    let mut colours = std::collections::BTreeSet::new();
    let mut rows = 0;
    for y in 0..h {
        let mut any = false;
        for x in from..w {
            let cell = &buffer[(x, y)];
            for c in [cell.fg, cell.bg] {
                if let Color::Rgb(r, g, b) = c {
                    colours.insert((r, g, b));
                    any = true;
                }
            }
        }
        rows += usize::from(any);
    }
    (colours, rows)
}

const DIALER: &str = "android/adt-tools-base__dialer.android-hprof";

#[test]
fn dialer_screens() {
    let mut app = app_for(&fixture(DIALER));
    for (w, h) in [(80, 24), (160, 48)] {
        app.screen = Screen::Overview;
        let overview = render(&mut app, w, h);
        // perflib: 43687 objects; heap 'A' 38 classes + 1406 instances, heap 'Z' 3533 + 38710.
        assert!(overview.contains("43687 objects"), "{overview}");
        assert!(overview.contains("42243 objects") && overview.contains("1444 objects"), "{overview}");
        insta::assert_snapshot!(format!("dialer_overview_{w}x{h}"), overview);

        keys(&mut app, "2");
        let classes = render(&mut app, w, h);
        // perflib: 1406 byte[] of 681489 bytes (665.5 KiB).
        let row = classes.lines().find(|l| l.contains(" byte[]")).unwrap();
        assert!(row.contains("1406") && row.contains("665.5 KiB"), "{row}");
        insta::assert_snapshot!(format!("dialer_classes_{w}x{h}"), classes);

        keys(&mut app, "3");
        insta::assert_snapshot!(format!("dialer_leaks_{w}x{h}"), render(&mut app, w, h));
        key(&mut app, KeyCode::Enter);
        let trace = render(&mut app, w, h);
        assert!(trace.contains("DefaultVoicemailNotifier") && trace.contains("Leaking: YES"), "{trace}");
        insta::assert_snapshot!(format!("dialer_leak_trace_{w}x{h}"), trace);
        key(&mut app, KeyCode::Esc);

        keys(&mut app, "4");
        insta::assert_snapshot!(format!("dialer_dominators_{w}x{h}"), render(&mut app, w, h));

        keys(&mut app, "6");
        insta::assert_snapshot!(format!("dialer_monitor_{w}x{h}"), render(&mut app, w, h));
    }
}

#[test]
fn classes_filter_sort_group_and_instances() {
    let mut app = app_for(&fixture(DIALER));
    keys(&mut app, "2/int[][]");
    key(&mut app, KeyCode::Enter);
    let filtered = render(&mut app, 80, 24);
    let first = filtered.lines().nth(2).unwrap();
    // perflib: 37 int[][] instances.
    assert!(first.contains("int[][]") && first.contains("37"), "{filtered}");
    insta::assert_snapshot!("dialer_classes_filtered_80x24", filtered);
    key(&mut app, KeyCode::Enter);
    let instances = render(&mut app, 80, 24);
    assert!(instances.contains("int[][]") && instances.contains("1/37"), "{instances}");
    // Back: to the filtered list (the filter kept), then to the screen before (Overview).
    key(&mut app, KeyCode::Esc);
    assert!(app.classes.instances.is_none() && app.classes.filter.as_str() == "int[][]");
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.screen, Screen::Overview);
    // `/` then Esc drops the filter.
    keys(&mut app, "2/");
    key(&mut app, KeyCode::Esc);
    assert!(app.classes.filter.is_empty());
    keys(&mut app, "s");
    assert!(render(&mut app, 80, 24).contains("sort: shallow"));
    let classes = app.classes.rows.clone();
    keys(&mut app, "p");
    let grouped = render(&mut app, 80, 24);
    assert!(grouped.contains("package") && grouped.contains("java.lang"), "{grouped}");
    // Each package sums its classes' rows (arrays go with their element class's package).
    let package_of =
        |name: &str| name.trim_end_matches("[]").rsplit_once('.').map_or("(default package)", |(p, _)| p).to_string();
    let mut sums: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
    for r in &classes {
        let e = sums.entry(package_of(&r.name)).or_default();
        e.0 += r.instances;
        e.1 += r.shallow;
    }
    let rows: std::collections::BTreeMap<String, (u64, u64)> =
        app.classes.rows.iter().map(|r| (r.name.clone(), (r.instances, r.shallow))).collect();
    assert_eq!(rows, sums);
    assert!(rows["java.lang"].0 > 0 && rows.contains_key("(default package)"), "{rows:?}");
}

/// A long instance list is put in another order on a thread: the key only starts it, the list
/// stays as it was (and says so) until the sorted one arrives, and a result for an order no
/// longer wanted is dropped.
#[test]
fn long_instance_lists_sort_off_the_input_loop() {
    let path = fixture(DIALER);
    let heap = heap::Heap::open(&path, heap::Options::default()).unwrap();
    let mut loaded = Loaded::new(Arc::new(heap), Vec::new(), "dialer".into(), 0);
    loaded.sort_on_thread = 10;
    let mut app = App::with_loaded(Theme::plain(), loaded);
    keys(&mut app, "2/int[][]");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Enter);
    let sort =
        |app: &mut App| app.update(Msg::Input(Event::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::NONE))));
    let job = |effects: Vec<heaptui::ui::msg::Effect>| match effects.into_iter().next() {
        Some(heaptui::ui::msg::Effect::Sort(job)) => job,
        other => panic!("no sort started: {other:?}"),
    };
    let by_retained: Vec<heap::Node> = app.classes.instances.as_ref().unwrap().1.to_vec();
    // perflib: 37 int[][] instances.
    assert_eq!(by_retained.len(), 37);
    let shallow = job(sort(&mut app));
    let waiting = render(&mut app, 160, 48);
    assert!(waiting.contains("sort: retained") && waiting.contains("sorting 37 instances by shallow"), "{waiting}");
    // `s` again before it arrives: id order is wanted now, and the shallow result is dropped.
    let id = job(sort(&mut app));
    app.update(shallow.run());
    assert_eq!(app.classes.instances.as_ref().unwrap().1.to_vec(), by_retained);
    app.update(id.run());
    let (_, list, _) = app.classes.instances.as_ref().unwrap();
    let heap = app.loaded().unwrap().heap.clone();
    let ids: Vec<u64> = list.iter().map(|&n| heap.index.id(n)).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "in id order: {ids:?}");
    let mut same = list.to_vec();
    same.sort();
    let mut before = by_retained.clone();
    before.sort();
    assert_eq!(same, before, "the same instances");
    assert!(render(&mut app, 160, 48).contains("sort: id"));
    // Back to the engine's order: at once.
    assert!(sort(&mut app).is_empty());
    assert_eq!(app.classes.instances.as_ref().unwrap().1.to_vec(), by_retained);
    // A list left while it is sorted (an instance opened in the Inspector) is sorted when `Back`
    // returns to it.
    let shallow = job(sort(&mut app));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Inspector);
    app.update(shallow.run());
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.screen, Screen::Classes);
    let (_, list, _) = app.classes.instances.as_ref().unwrap();
    let sizes: Vec<u64> = list.iter().map(|&n| heap.index.shallow_size(n)).collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "largest shallow first: {sizes:?}");
    assert!(render(&mut app, 160, 48).contains("sort: shallow"));
}

#[test]
fn inspector_follows_references_and_goes_back() {
    let mut app = app_for(&fixture(DIALER));
    // The leak trace's first object, then follow its first link.
    keys(&mut app, "3");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "i");
    assert_eq!(app.screen, Screen::Inspector);
    let page = render(&mut app, 160, 48);
    assert!(page.contains("class com.android.dialer.calllog.DefaultVoicemailNotifier"), "{page}");
    insta::assert_snapshot!("dialer_inspector_160x48", page);
    let before = app.inspector.history.len();
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.inspector.history.len(), before + 1);
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.inspector.history.len(), before);
    insta::assert_snapshot!("dialer_inspector_80x24", render(&mut app, 80, 24));
}

#[test]
fn help_is_generated_from_the_keymap() {
    let mut app = app_for(&fixture(DIALER));
    keys(&mut app, "2?");
    let help = render(&mut app, 80, 24);
    for b in heaptui::ui::keymap::help_for(Screen::Classes).iter().take(10) {
        assert!(help.contains(b.description), "{}", b.description);
    }
    insta::assert_snapshot!("dialer_help_classes_80x24", help);
    keys(&mut app, "x");
    assert!(!app.help);
}

#[test]
fn loading_and_error_screens() {
    let mut app = App::new(Theme::plain());
    app.update(Msg::Progress { phase: "read", done: 50, total: 100 });
    let loading = render(&mut app, 80, 24);
    assert!(loading.contains("read") && loading.contains("50%"), "{loading}");
    app.update(Msg::Loaded(Err("truncated HEAP DUMP SEGMENT (0x1c) at 0x3f2a10: needs 12 bytes, 4 left".into())));
    let error = render(&mut app, 80, 24);
    assert!(error.contains("could not be opened") && error.contains("at 0x3f2a10"), "{error}");
    insta::assert_snapshot!("error_80x24", error);
    keys(&mut app, "q");
    assert!(app.quit);
}

#[test]
fn picker_lists_the_demo_and_dumps_here() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("app.hprof"), b"x").unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"x").unwrap();
    let items = heaptui::ui::picker::pick_items(dir.path());
    assert!(matches!(items[0].source, heaptui::ui::source::Source::Demo));
    assert!(items.iter().any(|i| i.label.contains("app.hprof")));
    assert!(!items.iter().any(|i| i.label.contains("notes.txt")));
    let mut app = App::picker(Theme::plain(), items);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("Open a heap dump") && screen.contains("bundled demo"), "{screen}");
    let effects = app.update(Msg::Input(Event::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE))));
    assert_eq!(effects, [heaptui::ui::msg::Effect::Open(heaptui::ui::source::Source::Demo)]);
    assert!(render(&mut app, 80, 24).contains("Loading"));
}

#[test]
fn export_gives_text_and_json_of_the_view() {
    let mut app = app_for(&fixture(DIALER));
    keys(&mut app, "2");
    let effects = app.update(Msg::Input(Event::Key(KeyEvent::new(KeyCode::Char('e'), KeyModifiers::NONE))));
    let [heaptui::ui::msg::Effect::Export { stem, contents, json: Some(json), .. }] = &effects[..] else {
        panic!("{effects:?}")
    };
    assert_eq!(stem, "heaptui-classes");
    assert!(contents.lines().any(|l| l.starts_with("1406\t681489\t")), "byte[]: 1406 instances, 681489 bytes");
    let rows: serde_json::Value = serde_json::from_str(json).unwrap();
    let byte_array = rows.as_array().unwrap().iter().find(|r| r["class"] == "byte[]").unwrap();
    assert_eq!((byte_array["instances"].as_u64(), byte_array["shallow_bytes"].as_u64()), (Some(1406), Some(681489)));
}

#[test]
fn leaks_arrive_after_the_screens() {
    let path = fixture(DIALER);
    let heap = Arc::new(heap::Heap::open(&path, heap::Options::default()).unwrap());
    let leaks = heap::leaks::find_leaks(&heap, &heap::leaks::LeakConfig::default());
    assert!(!leaks.is_empty(), "the Dialer dump has suspects to wait for");
    let mut loaded = Loaded::new(heap.clone(), Vec::new(), "dialer".into(), 0);
    loaded.leaks_pending = true;
    let mut app = App::with_loaded(Theme::plain(), loaded);
    assert!(render(&mut app, 100, 40).contains("Leak suspects (finding...)"));
    keys(&mut app, "3");
    assert!(render(&mut app, 100, 40).contains("Finding leak suspects..."));
    // Leaks of another heap (a dump opened before this one) are not this dump's.
    let other = Arc::new(heap::Heap::open(&path, heap::Options::default()).unwrap());
    app.update(Msg::Leaks(other, leaks.clone(), Vec::new()));
    assert!(app.loaded().unwrap().leaks_pending);
    app.update(Msg::Leaks(heap, leaks.clone(), Vec::new()));
    let l = app.loaded().unwrap();
    assert!(!l.leaks_pending);
    assert_eq!(l.leaks.len(), leaks.len());
    let screen = render(&mut app, 100, 40);
    assert!(!screen.contains("Finding"), "{screen}");
    assert!(screen.contains(&leaks[0].reason[..20]), "{screen}");
}

/// A Perfetto heap graph on screen (ahat's test dump taken through a graph): the Leaks screen says
/// which rules could not decide (Bitmaps' dimensions are recorded, their pixels are not), and the
/// Inspector says the values were not recorded.
#[test]
fn a_heap_graph_says_what_it_lacks_on_screen() {
    let mut index = heap::Index::open(&fixture("android/ahat-art__test-dump.hprof"), heap::Options::default()).unwrap();
    let map = std::fs::read_to_string(fixture("android/ahat-art__test-dump.map")).unwrap();
    index.deobfuscate(&heap::proguard::ProguardMap::parse(&map));
    let graph = heap::perfetto::read(&heap::perfetto::encode::encode(&index, 1, 1)).unwrap().remove(0);
    let heap = Arc::new(heap::Heap::analyse(
        heap::Index::from_perfetto(&graph, heap::Options::default()).unwrap(),
        heap::Options::default(),
    ));
    let config = heap::leaks::LeakConfig::default();
    let (leaks, undecided) = (heap::leaks::find_leaks(&heap, &config), heap::leaks::undecided(&heap, &config));
    let mut loaded = Loaded::new(heap.clone(), Vec::new(), "ahat.pftrace".into(), 0);
    loaded.leaks_pending = true;
    let mut app = App::with_loaded(Theme::plain(), loaded);
    app.update(Msg::Leaks(heap.clone(), leaks, undecided));
    keys(&mut app, "3");
    for (w, h) in [(80, 24), (160, 48)] {
        let screen = render(&mut app, w, h);
        assert!(
            screen.contains("could not decide: android.bitmap.duplicate on 2 Bitmap: no array contents"),
            "{screen}"
        );
        insta::assert_snapshot!(format!("graph_leaks_{w}x{h}"), screen);
    }
    keys(&mut app, "2");
    let classes = render(&mut app, 160, 48);
    assert!(classes.contains("DumpedStuff"), "{classes}");
    let c = heap.index.classes_named("DumpedStuff").next().unwrap();
    app.inspect(heap.instances_of(c)[0]);
    let page = render(&mut app, 160, 48);
    assert!(page.contains("values not recorded"), "{page}");
    insta::assert_snapshot!("graph_inspector_160x48", page);
}

/// The Overview's rows open what they name: a suspect its trace on Leaks, a large object the
/// Inspector; `Esc` comes back. Its largest objects are the roots of the dominator tree (MAT's
/// "biggest objects"): a chain of objects each dominating the next is one row, its head.
#[test]
fn overview_rows_open_and_the_largest_are_dominator_roots() {
    let mut app = app_for(&fixture(DIALER));
    let l = app.loaded().unwrap();
    let heap = l.heap.clone();
    assert!(l.top_retained.len() > 10);
    for &n in &l.top_retained {
        assert_eq!(heap.dominator(n), Some(None), "{} is under another object", heap.display_class(n));
    }
    // Larger first, and the largest is the largest root (perflib: Resources' class, 252,742 B).
    let sizes: Vec<u64> = l.top_retained.iter().map(|&n| heap.dominators.retained(n)).collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]));
    let first_object = l.top_retained[0];
    let suspects = l.leaks.len().min(5);
    key(&mut app, KeyCode::Enter);
    assert_eq!((app.screen, app.leaks.trace.is_some()), (Screen::Leaks, true));
    let trace = render(&mut app, 100, 30);
    assert!(trace.contains("Leaking: YES"), "{trace}");
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.screen, Screen::Overview);
    for _ in 0..suspects {
        key(&mut app, KeyCode::Down);
    }
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("dialer_overview_object_selected_{w}x{h}"), render(&mut app, w, h));
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Inspector);
    assert_eq!(app.inspector.history.last(), Some(&first_object));
    key(&mut app, KeyCode::Esc);
    assert_eq!((app.screen, app.overview.selected), (Screen::Overview, suspects));
}

/// `s` sorts the list in front of you: an instance list (retained, shallow, id), a filtered class
/// list (the filter keeps the order chosen), the suspects; `i` on a class row opens the class
/// object.
#[test]
fn s_sorts_the_list_in_front_of_you() {
    let mut app = app_for(&fixture(DIALER));
    let heap = app.loaded().unwrap().heap.clone();
    keys(&mut app, "2/String");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "ss");
    assert!(render(&mut app, 100, 30).contains("sort: instances"));
    let counts: Vec<u64> = app.classes.rows.iter().map(|r| r.instances).collect();
    assert!(counts.len() > 3 && counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    // `i` on the top row: its class object.
    keys(&mut app, "i");
    let top = app.classes.rows[0].class.unwrap();
    assert_eq!(app.inspector.history.last().copied(), heap.index.classes[top.index()].node);
    key(&mut app, KeyCode::Esc);
    // java.lang.String's instances: retained, then shallow, then id order, every row (G).
    key(&mut app, KeyCode::Enter);
    let nodes = |app: &mut App| {
        key(app, KeyCode::Char('G'));
        let all = app.classes.instances.as_ref().unwrap().1.to_vec();
        key(app, KeyCode::Char('g'));
        all
    };
    let retained: Vec<u64> = nodes(&mut app).iter().map(|&n| heap.dominators.retained(n)).collect();
    assert!(retained.windows(2).all(|w| w[0] >= w[1]));
    keys(&mut app, "s");
    let page = render(&mut app, 100, 30);
    assert!(page.contains("sort: shallow"), "{page}");
    let shallow: Vec<u64> = nodes(&mut app).iter().map(|&n| heap.index.shallow_size(n)).collect();
    assert!(shallow.windows(2).all(|w| w[0] >= w[1]));
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("dialer_instances_by_shallow_{w}x{h}"), render(&mut app, w, h));
    }
    keys(&mut app, "s");
    let ids: Vec<u64> = nodes(&mut app).iter().map(|&n| heap.index.id(n)).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("dialer_instances_by_id_{w}x{h}"), render(&mut app, w, h));
    }
    // The suspects, sorted and filtered.
    keys(&mut app, "3s");
    assert!(render(&mut app, 100, 30).contains("sort: retained"));
    keys(&mut app, "/stopped");
    key(&mut app, KeyCode::Enter);
    for (w, h) in [(80, 24), (160, 48)] {
        let page = render(&mut app, w, h);
        assert!(page.contains("NotificationsService") && app.leaks.filter.as_str() == "stopped", "{page}");
        insta::assert_snapshot!(format!("dialer_leaks_filtered_{w}x{h}"), page);
    }
}

/// A trace names its GC root as the export and `--format leakcanary` do (LeakCanary's words),
/// gives each node's retained size, and `Y` copies the whole trace as `--format leakcanary`
/// prints it.
#[test]
fn traces_name_roots_as_leakcanary_and_y_copies_them() {
    let mut app = app_for(&fixture(DIALER));
    keys(&mut app, "3");
    key(&mut app, KeyCode::Enter);
    let trace = render(&mut app, 100, 40);
    assert!(trace.contains("GC root: System class"), "{trace}");
    // Every node's retained size; the Service's is perflib's 836 B in 18 objects.
    assert_eq!(trace.matches("Retaining ").count(), 4, "{trace}");
    let effects = app.update(Msg::Input(Event::Key(KeyEvent::new(KeyCode::Char('Y'), KeyModifiers::NONE))));
    let copied = effects.iter().find_map(|e| match e {
        heaptui::ui::msg::Effect::Copy(text) => Some(text.clone()),
        _ => None,
    });
    let copied = copied.expect("Y copies");
    let path = fixture(DIALER);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["analyze", path.to_str().unwrap(), "--format", "leakcanary"])
        .output()
        .unwrap();
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(copied.contains("GC Root: System class") && printed.contains(&copied), "{copied}\n---\n{printed}");
}

/// At 80×24 the dominator tree keeps its structure: four levels open, each row keeps its
/// indentation and its marker, and the class name gives way in its middle.
#[test]
fn the_dominator_tree_keeps_its_structure_at_80_columns() {
    let mut app = app_for(&fixture(DIALER));
    keys(&mut app, "4");
    for _ in 0..4 {
        key(&mut app, KeyCode::Right);
        key(&mut app, KeyCode::Down);
    }
    let page = render(&mut app, 80, 24);
    // The object column starts after the share's bar (column 31 here).
    let object = |row: &str| row.chars().skip(30).collect::<String>();
    let rows: Vec<&str> = page.lines().skip(2).take(5).collect();
    for (depth, row) in rows.iter().take(4).enumerate() {
        assert!(object(row).starts_with(&format!("{}▾ ", "  ".repeat(depth))), "depth {depth}: {row}");
    }
    assert!(object(rows[4]).starts_with("        "), "depth 4: {}", rows[4]);
    insta::assert_snapshot!("dialer_dominators_open_80x24", page);
    insta::assert_snapshot!("dialer_dominators_open_160x48", render(&mut app, 160, 48));
}

/// The picker: `leak` then `Enter` opens `./leak.hprof` (the demo's description does not
/// match), a dump that fails to open shows its error and `Esc` goes back to the list, and
/// kernel threads are not offered.
#[test]
fn the_picker_opens_what_is_typed_and_returns_from_an_error() {
    use heaptui::ui::source::Source;
    let dir = tempfile::tempdir().unwrap();
    let leak = dir.path().join("leak.hprof");
    std::fs::write(&leak, b"not a dump").unwrap();
    let mut app = App::picker(Theme::plain(), heaptui::ui::picker::pick_items(dir.path()));
    keys(&mut app, "/leak");
    let effects = app.update(Msg::Input(Event::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE))));
    assert_eq!(effects, [heaptui::ui::msg::Effect::Open(Source::File(leak.clone()))]);
    app.update(Msg::Loaded(Err("not an HPROF file: it starts with \"not a dump\"".into())));
    let error = render(&mut app, 80, 24);
    assert!(error.contains("Esc goes back to the list"), "{error}");
    key(&mut app, KeyCode::Esc);
    let list = render(&mut app, 80, 24);
    assert!(list.contains("Open a heap dump") && list.contains("leak.hprof"), "{list}");
    // A kernel thread (no command line, no resident memory) is not offered; a process is.
    let thread =
        agent::proc::ProcessInfo { pid: 2, name: "kthreadd".into(), cmdline: String::new(), rss_kb: 0, jvm: false };
    assert!(!heaptui::ui::picker::offered(&thread));
    let init = agent::proc::ProcessInfo { cmdline: "/sbin/init".into(), rss_kb: 9000, ..thread };
    assert!(heaptui::ui::picker::offered(&init));
}

/// Screen 7 on ahat's two test dumps (with its map): ahat's own DiffTest facts, an object added
/// (`DumpedStuff$AddedObject`, 0 → 1), one removed (`DumpedStuff$RemovedObject`, 1 → 0), and
/// 10,000 more `DumpedStuff$StackSmasher`s; without a baseline the screen says how to give one.
#[test]
fn the_diff_screen_on_ahats_dumps() {
    let map = heap::proguard::ProguardMap::parse(
        &std::fs::read_to_string(fixture("android/ahat-art__test-dump.map")).unwrap(),
    );
    let open = |name: &str| {
        let mut index = heap::Index::open(&fixture(name), heap::Options::default()).unwrap();
        index.deobfuscate(&map);
        heap::Heap::analyse(index, heap::Options::default())
    };
    let (old, new) = (open("android/ahat-art__test-dump-base.hprof"), open("android/ahat-art__test-dump.hprof"));
    let new = Arc::new(new);
    let mut app = App::with_loaded(Theme::plain(), Loaded::new(new.clone(), Vec::new(), "ahat".into(), 0));
    keys(&mut app, "7");
    let none = render(&mut app, 80, 24);
    assert!(none.contains("No baseline") && none.contains("--baseline"), "{none}");
    let baseline = heaptui::ui::model::Baseline {
        path: "ahat-base".into(),
        classes: heap::diff::class_deltas(&old, &new),
        growing: heap::diff::growing_collections(&old, &new, 64 << 10),
    };
    app.update(Msg::Baseline(new.clone(), Box::new(baseline)));
    for (w, h) in [(80, 24), (160, 48)] {
        keys(&mut app, "g");
        let page = render(&mut app, w, h);
        assert!(page.contains("+10000") && page.contains("DumpedStuff$StackSmasher"), "{page}");
        insta::assert_snapshot!(format!("ahat_diff_{w}x{h}"), page);
    }
    // The filter finds the added and the removed objects' classes.
    keys(&mut app, "/Object");
    key(&mut app, KeyCode::Enter);
    let page = render(&mut app, 160, 48);
    assert!(page.contains("new DumpedStuff$AddedObject") && page.contains("gone DumpedStuff$RemovedObject"), "{page}");
    // Enter on a class row selects it on Classes.
    let row = app.diff_rows().iter().position(|r| {
        let heaptui::ui::model::DiffRow::Class(c) = *r else { return false };
        app.loaded().unwrap().baseline.as_ref().unwrap().classes[c].class == "DumpedStuff$AddedObject"
    });
    for _ in 0..row.unwrap() {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Classes);
    let selected = &app.classes.rows[app.classes.cursor.selected];
    assert_eq!((selected.name.as_str(), selected.instances), ("DumpedStuff$AddedObject", 1));
}

/// The prompts as they look while typed, at both sizes: the tree's filter (applied on Enter)
/// and the go-to prompt with its completion.
#[test]
fn prompts_while_typed() {
    let mut app = app_for(&fixture(DIALER));
    for (w, h) in [(80, 24), (160, 48)] {
        keys(&mut app, "4/Html");
        let typing = render(&mut app, w, h);
        assert!(typing.contains("filter: Html▏ (Enter applies)"), "{typing}");
        insta::assert_snapshot!(format!("dialer_dominators_filter_typed_{w}x{h}"), typing);
        key(&mut app, KeyCode::Enter);
        let applied = render(&mut app, w, h);
        assert!(applied.contains("Html$HtmlParser"), "{applied}");
        insta::assert_snapshot!(format!("dialer_dominators_filtered_{w}x{h}"), applied);
        keys(&mut app, "/");
        key(&mut app, KeyCode::Esc);
        keys(&mut app, ":HtmlPar");
        let goto = render(&mut app, w, h);
        assert!(goto.contains("go to (an id, or a class): HtmlPar▏"), "{goto}");
        insta::assert_snapshot!(format!("dialer_goto_typed_{w}x{h}"), goto);
        key(&mut app, KeyCode::Esc);
    }
}

/// A second dump opened in the same session (the monitor's `d` does this) starts clean: nothing
/// of the first one's lists, open nodes, trail or places carries over to name its objects.
#[test]
fn a_new_dump_forgets_the_old_ones_places() {
    let mut app = app_for(&fixture(DIALER));
    keys(&mut app, "2");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "4");
    key(&mut app, KeyCode::Right);
    keys(&mut app, "3");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "i/m");
    assert!(!app.places.is_empty() && app.classes.instances.is_some() && app.prompt.is_some());
    let heap = heap::Heap::open(&fixture("android/ahat-art__test-dump.hprof"), heap::Options::default()).unwrap();
    app.update(Msg::Loaded(Ok(Box::new(Loaded::new(Arc::new(heap), Vec::new(), "ahat".into(), 0)))));
    assert!(app.places.is_empty() && app.classes.instances.is_none() && app.prompt.is_none());
    assert!(app.inspector.history.is_empty() && app.leaks.trace.is_none());
    assert_eq!(app.dom.children.len(), 1, "only the new tree's top");
    key(&mut app, KeyCode::Esc);
    for s in ["1", "2", "3", "4", "5", "7"] {
        keys(&mut app, s);
        render(&mut app, 80, 24);
    }
}

/// Screen 8 on the demo (OpenJDK 17, stacks recorded): the main thread's stack as Java prints
/// it (VisualVM reads the same frames: `heap/tests/visualvm.rs`), a local opens in the
/// Inspector; on the Dialer dump (Android, no stacks) its 11 threads say why frames are missing.
#[test]
fn threads_show_stacks_and_locals() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo/demo.hprof.gz");
    let mut app = app_for(&demo);
    keys(&mut app, "8");
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("demo_threads_{w}x{h}"), render(&mut app, w, h));
    }
    keys(&mut app, "/main");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Enter);
    let page = render(&mut app, 160, 48);
    assert!(page.contains("at java.lang.Thread.sleep(Native Method)"), "{page}");
    assert!(page.contains("at LeakyCache.main(LeakyCache.java:"), "{page}");
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("demo_thread_main_open_{w}x{h}"), render(&mut app, w, h));
    }
    // The first object a frame holds: Enter opens it, Esc comes back.
    let rows = app.thread_rows();
    let local = rows.iter().position(|r| matches!(r, heaptui::ui::model::ThreadRow::Local(..))).unwrap();
    for _ in 0..local {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Inspector);
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.screen, Screen::Threads);
    // ← from inside the stack closes it, back on the thread's row.
    key(&mut app, KeyCode::Left);
    assert!(app.threads.open.is_empty() && app.threads.cursor.selected == 0);

    // Android: perflib's 11193 root records less its 11182 roots are the 11 thread objects.
    let mut app = app_for(&fixture(DIALER));
    assert_eq!(app.loaded().unwrap().threads.len(), 11);
    keys(&mut app, "8");
    key(&mut app, KeyCode::Enter);
    let page = render(&mut app, 160, 48);
    assert!(page.contains("records no stack for this thread"), "{page}");
    insta::assert_snapshot!("dialer_threads_open_160x48", page);
}

/// Runs the analyses the keys asked for as the UI's thread would, and hands the results back.
fn carry_out(app: &mut App, effects: Vec<heaptui::ui::msg::Effect>) {
    for e in effects {
        if let heaptui::ui::msg::Effect::Analyse(job) = e {
            app.update(job.run());
        }
    }
}

fn press(app: &mut App, c: char) -> Vec<heaptui::ui::msg::Effect> {
    app.update(Msg::Input(Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))))
}

/// `m` on a class row merges its instances' shortest paths: the view opens at once (computing),
/// then shows the tree, whose roots' paths add up to the instances reached; `Enter` opens a
/// node, `Esc` closes the view. `D` groups the immediate dominators; `Enter` lists a group's.
/// `c` on the dominator tree groups it by class, and the groups' sizes add up to the tree's.
#[test]
fn merged_paths_immediate_dominators_and_groups_on_screen() {
    let mut app = app_for(&fixture(DIALER));
    let heap = app.loaded().unwrap().heap.clone();
    // int[][]: perflib's 37 instances.
    keys(&mut app, "2/int[][]");
    key(&mut app, KeyCode::Enter);
    let effects = press(&mut app, 'm');
    assert!(render(&mut app, 100, 30).contains("merging the shortest paths"));
    carry_out(&mut app, effects);
    let Some(heaptui::ui::model::SetKind::Merged { tree, .. }) = app.set_view.as_ref().map(|v| v.kind.clone()) else {
        panic!("no merged paths")
    };
    let reached: u64 = tree.roots.iter().map(|&r| tree.nodes[r].paths).sum();
    assert_eq!(reached + tree.unreachable, 37);
    key(&mut app, KeyCode::Enter);
    for (w, h) in [(80, 24), (160, 48)] {
        let page = render(&mut app, w, h);
        assert!(page.contains("merged"), "{page}");
        insta::assert_snapshot!(format!("dialer_merged_paths_{w}x{h}"), page);
    }
    key(&mut app, KeyCode::Esc);
    assert!(app.set_view_here().is_none() && app.screen == Screen::Classes);

    let effects = press(&mut app, 'D');
    carry_out(&mut app, effects);
    let Some(heaptui::ui::model::SetKind::Dominators { result, .. }) = app.set_view.as_ref().map(|v| v.kind.clone())
    else {
        panic!("no immediate dominators")
    };
    let dominated: u64 = result.groups.iter().map(|g| g.dominated).sum();
    assert_eq!(dominated + result.unreachable, 37);
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("dialer_immediate_dominators_{w}x{h}"), render(&mut app, w, h));
    }
    key(&mut app, KeyCode::Enter);
    let first = app.selected_node().expect("a dominator");
    assert_eq!(Some(first), result.groups[0].dominators.first().copied());
    key(&mut app, KeyCode::Enter);
    assert_eq!((app.screen, app.inspector.history.last().copied()), (Screen::Inspector, Some(first)));
    for _ in 0..3 {
        key(&mut app, KeyCode::Esc);
    }
    assert!(app.set_view_here().is_none());

    // The tree by class: the top groups' retained sizes add up to everything reachable.
    keys(&mut app, "4c");
    let groups = app.dom.groups.clone().unwrap();
    let total: u64 = groups.roots.iter().map(|&g| groups.nodes[g].retained).sum();
    assert_eq!(total, heap.dominators.reachable_bytes);
    key(&mut app, KeyCode::Enter);
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("dialer_dominators_by_class_{w}x{h}"), render(&mut app, w, h));
    }
    keys(&mut app, "c");
    assert!(app.dom.groups.is_none());
}

/// The Inspector shows contents: a byte[]'s bytes in hex and ASCII, a char[]'s text, an object
/// array's elements with ids and retained sizes, a page at a time (Enter on the last row shows
/// more), and a class object's loader and superclass.
#[test]
fn the_inspector_shows_contents() {
    let mut app = app_for(&fixture(DIALER));
    let heap = app.loaded().unwrap().heap.clone();
    let idx = &heap.index;
    // The largest byte[]: its first bytes, in hex, as the dump holds them.
    let byte_array = idx.classes_named("byte[]").next().unwrap();
    let b = heap.instances_by_retained(byte_array)[0];
    let (_, bytes) = idx.primitive_array_bytes(b).unwrap();
    app.inspect(b);
    let page = render(&mut app, 160, 48);
    let first: Vec<String> = bytes.iter().take(16).map(|x| format!("{x:02x}")).collect();
    assert!(page.contains(&format!("       0  {}", first.join(" "))), "{page}");
    assert!(page.contains(&format!("Values ({} bytes)", bytes.len())), "{page}");
    insta::assert_snapshot!("dialer_inspector_byte_array_160x48", page);
    insta::assert_snapshot!("dialer_inspector_byte_array_80x24", render(&mut app, 80, 24));
    // A String's char[] as text (perflib's Dialer: a value array per String).
    let s = heap.instances_by_retained(idx.classes_named("java.lang.String").next().unwrap())[0];
    let text = idx.string_value(s).unwrap();
    let chars = idx.fields(s).into_iter().find(|f| f.name == "value").and_then(|f| f.value.as_object()).unwrap();
    app.inspect(idx.node(chars).unwrap());
    let page = render(&mut app, 160, 48);
    // As Rust quotes it: control characters escaped.
    let head: String = format!("{text:?}").chars().take(30).collect();
    assert!(page.contains(&head), "{head:?} in\n{page}");
    // An object array longer than a page: 1000 elements, then a row that shows the rest.
    let arrays = idx.classes.iter().enumerate().filter(|(_, c)| c.kind == heap::index::classes::ClassKind::ObjectArray);
    let long = arrays
        .flat_map(|(c, _)| heap.instances_by_retained(heap::ClassId(c as u32)).to_vec())
        .find(|&n| idx.array_values(n).is_some_and(|v| v.len() > 1000));
    let long = long.expect("the Dialer dump has an object array of over 1000 elements");
    app.inspect(long);
    let len = idx.array_values(long).unwrap().len();
    let elements = |app: &App| {
        let rows = app.inspector_rows();
        rows.iter().filter(|r| matches!(r.section, heaptui::ui::nav::Section::Elements(_))).count()
    };
    assert_eq!(elements(&app), 1001, "a page and the row that shows more");
    assert!(app.inspector_rows().iter().any(|r| r.text.contains(&format!("{} more", len - 1000))));
    // Enter on that row: the next page.
    let more = app.inspector_rows().iter().position(|r| r.link == Some(heaptui::ui::nav::Link::More)).unwrap();
    for _ in 0..more {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(elements(&app), len.min(2000) + usize::from(len > 2000));
    // A class object: its loader and superclass link.
    let class = idx.classes_named("com.android.dialer.calllog.DefaultVoicemailNotifier").next().unwrap();
    app.inspect(idx.classes[class.index()].node.unwrap());
    let rows = app.inspector_rows();
    assert!(rows.iter().any(|r| r.text.starts_with("<superclass> → class java.lang.Object")), "{rows:?}");
    assert!(rows.iter().any(|r| r.text.starts_with("<loader> → dalvik.system.PathClassLoader")), "{rows:?}");
}

/// The Dialer dump's Bitmaps (44×64, KitKat: pixels in `mBuffer`) drawn in half blocks beside
/// the Inspector's text and over the whole screen with `v`; any key closes the preview. On an
/// object that is no Bitmap, `v` says what it shows.
#[test]
fn bitmaps_are_drawn_in_half_blocks() {
    let mut app = app_for(&fixture(DIALER));
    let heap = app.loaded().unwrap().heap.clone();
    let class = heap.index.classes_named("android.graphics.Bitmap").next().unwrap();
    let b = heap.instances_by_retained(class)[0];
    app.inspect(b);
    let page = render(&mut app, 160, 48);
    assert!(page.contains("44x64 ARGB_8888"), "{page}");
    // The picture's pane: the right 40 %, its rows drawn in the picture's colours.
    let (colours, rows) = picture_colours(&mut app, 160, 48, 100);
    assert!(rows >= 10 && colours.len() >= 2, "{rows} rows, {colours:?}\n{page}");
    insta::assert_snapshot!("dialer_bitmap_inspector_160x48", page);
    insta::assert_snapshot!("dialer_bitmap_inspector_80x24", render(&mut app, 80, 24));
    keys(&mut app, "v");
    for (w, h) in [(80, 24), (160, 48)] {
        let page = render(&mut app, w, h);
        assert!(page.contains("any key closes"), "{page}");
        let (colours, rows) = picture_colours(&mut app, w, h, 0);
        assert!(rows >= usize::from(h) / 2 && colours.len() >= 2, "{rows} rows, {colours:?}\n{page}");
        insta::assert_snapshot!(format!("dialer_bitmap_preview_{w}x{h}"), page);
    }
    keys(&mut app, "x");
    assert!(app.preview.is_none() && app.screen == Screen::Inspector);
    // Not a Bitmap.
    keys(&mut app, "2v");
    assert!(app.preview.is_none() && app.status.as_deref().unwrap_or("").contains("Bitmap"));
}

/// A Bitmap whose encoded picture does not decode (`test_support::bitmaps::undecodable_dump`):
/// `v` says why where the picture would be (not a blank screen), the Inspector's pane too, and
/// the failure is kept, so redraws do not decode again.
#[test]
fn a_picture_that_does_not_decode_says_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("undecodable.hprof");
    std::fs::write(&dump, test_support::bitmaps::undecodable_dump()).unwrap();
    let mut app = app_for(&dump);
    let heap = app.loaded().unwrap().heap.clone();
    let b = heap.index.node(u64::from(test_support::bitmaps::UNDECODABLE)).unwrap();
    app.inspect(b);
    let page = render(&mut app, 160, 48);
    assert!(page.contains("no picture: it does not decode"), "{page}");
    keys(&mut app, "v");
    let page = render(&mut app, 80, 24);
    assert!(page.contains("4x2, encoded by ART"), "{page}");
    assert!(page.contains("no picture: it does not decode"), "{page}");
    // Kept as why: one entry, an error, across redraws.
    render(&mut app, 80, 24);
    let cache = app.pictures.cache.borrow();
    assert_eq!(cache.len(), 1);
    assert!(cache[0].2.is_err());
}

/// A group of duplicate Bitmaps on the Leaks screen shows their pictures side by side, to the
/// right of the suspects.
#[test]
fn duplicate_bitmaps_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("bitmaps.hprof");
    std::fs::write(&dump, test_support::bitmaps::dump()).unwrap();
    let mut app = app_for(&dump);
    keys(&mut app, "3");
    let leak = app.selected_leak().expect("the duplicate Bitmaps are a suspect");
    assert_eq!((leak.rule, leak.instances.len()), ("android.bitmap.duplicate", 2));
    let page = render(&mut app, 160, 48);
    // Every opaque pixel of the pictures (test_support's first Bitmap), in its own colour.
    let (colours, _) = picture_colours(&mut app, 160, 48, 97);
    for pixel in &test_support::bitmaps::known()[0].rgba {
        if pixel[3] == 255 {
            assert!(colours.contains(&(pixel[0], pixel[1], pixel[2])), "{pixel:?} not in {colours:?}\n{page}");
        }
    }
    insta::assert_snapshot!("duplicate_bitmaps_160x48", page);
}

/// Runs the queries the keys started as the UI's thread would.
fn run_queries(app: &mut App, effects: Vec<heaptui::ui::msg::Effect>) {
    for e in effects {
        if let heaptui::ui::msg::Effect::Query(job) = e {
            app.update(job.run());
        }
    }
}

/// `/`, the prompt emptied, `sql` typed and run (its result brought back as the UI would).
fn ask(app: &mut App, sql: &str) {
    keys(app, "/");
    assert!(app.query.input.is_some());
    for _ in 0..200 {
        key(app, KeyCode::Backspace);
    }
    keys(app, sql);
    let effects = app.update(Msg::Input(Event::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE))));
    run_queries(app, effects);
}

/// Screen 9: `/` opens the prompt; a query typed and run shows its rows (perflib's 1406
/// byte[]); `Enter` opens the row's object; `s` sorts; `/` brings the query back to edit, ↑ the
/// history; `e` exports the rows as CSV and JSON; a bad query shows SQLite's message.
#[test]
fn the_query_screen() {
    let mut app = app_for(&fixture(DIALER));
    keys(&mut app, "9");
    let first = render(&mut app, 100, 30);
    assert!(first.contains("/ types a query") && first.contains("Strings over 10,000 chars"), "{first}");
    // Before any query: the examples, on the screen and under `?` where the rows allow.
    insta::assert_snapshot!("dialer_query_examples_160x48", render(&mut app, 160, 48));
    keys(&mut app, "?");
    let help = render(&mut app, 160, 48);
    assert!(help.contains("Examples:") && help.contains("mDestroyed"), "{help}");
    insta::assert_snapshot!("dialer_query_help_160x48", help);
    keys(&mut app, "?");
    assert!(!app.help);
    ask(&mut app, "SELECT count(*) AS n FROM objects WHERE class = 'byte[]'");
    let page = render(&mut app, 100, 30);
    assert!(page.contains("1406") && page.contains("1 rows"), "{page}");
    // The five largest byte[]: their ids open in the Inspector.
    ask(&mut app, "SELECT id, shallow, class FROM objects WHERE class = 'byte[]' ORDER BY shallow DESC LIMIT 5");
    // (The time a query took is the machine's: fixed for the snapshots.)
    app.query.result.as_mut().unwrap().ms = 3;
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("dialer_query_{w}x{h}"), render(&mut app, w, h));
    }
    let heap = app.loaded().unwrap().heap.clone();
    let largest = heap
        .instances_by_retained(heap.index.classes_named("byte[]").next().unwrap())
        .iter()
        .copied()
        .max_by_key(|&n| (heap.index.shallow_size(n), std::cmp::Reverse(n)))
        .unwrap();
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Inspector);
    assert_eq!(heap.index.shallow_size(*app.inspector.history.last().unwrap()), heap.index.shallow_size(largest));
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.screen, Screen::Query);
    // s: by the first column, descending.
    keys(&mut app, "s");
    assert!(render(&mut app, 100, 30).contains("sorted by id ↓"));
    // Export: the rows as CSV and JSON.
    let effects = press(&mut app, 'e');
    let [heaptui::ui::msg::Effect::Export { ext: "csv", contents, json: Some(json), .. }] = &effects[..] else {
        panic!("{effects:?}")
    };
    assert!(contents.starts_with("id,shallow,class\n") && contents.lines().count() == 6, "{contents}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(json).unwrap().as_array().unwrap().len(), 5);
    // History: ↑ in the prompt gives the previous query back.
    keys(&mut app, "/");
    key(&mut app, KeyCode::Up);
    assert!(app.query.input.as_ref().unwrap().as_str().contains("count(*)"));
    key(&mut app, KeyCode::Esc);
    assert!(app.query.input.is_none());
    // A bad query: SQLite's message.
    ask(&mut app, "SELECT nope FROM objects");
    assert!(render(&mut app, 100, 30).contains("no such column: nope"));
}

/// With a terminal's graphics protocol (what the picker finds outside tmux), the picture reaches
/// the frame as that protocol's escape sequence, after the scrub that would otherwise have
/// removed it: kitty's graphics command, iTerm2's inline file, a sixel image. (No such terminal is
/// here to show it; this holds what heaptui hands the terminal.)
#[test]
fn pictures_go_out_in_the_terminals_protocol() {
    use ratatui_image::picker::{Picker, ProtocolType};
    for (protocol, introducer) in
        [(ProtocolType::Kitty, "\x1b_G"), (ProtocolType::Iterm2, "\x1b]1337;File="), (ProtocolType::Sixel, "\x1bP")]
    {
        let mut app = app_for(&fixture(DIALER));
        let mut picker = Picker::from_fontsize((8, 16));
        picker.set_protocol_type(protocol);
        app.pictures.picker = picker;
        let heap = app.loaded().unwrap().heap.clone();
        let class = heap.index.classes_named("android.graphics.Bitmap").next().unwrap();
        app.inspect(heap.instances_by_retained(class)[0]);
        app.update(Msg::Input(Event::Resize(160, 48)));
        let mut t = Terminal::new(TestBackend::new(160, 48)).unwrap();
        t.draw(|f| heaptui::ui::view::draw(f, &app)).unwrap();
        let buffer = t.backend().buffer();
        let cells: Vec<&str> = buffer.content().iter().map(|c| c.symbol()).collect();
        assert!(cells.iter().any(|s| s.contains(introducer)), "{protocol:?}: no {introducer:?} in the frame");
        // Only the picture's cells carry escapes: the text beside it is as before.
        let text: String = cells.iter().filter(|s| !s.contains('\x1b')).copied().collect();
        assert!(text.contains("44x64 ARGB_8888"), "{protocol:?}");
    }
}

/// The worked examples screen 9 shows run as written on a real dump (the Dialer's; it holds no
/// Activity and no map that large, so only the first must give rows).
#[test]
fn the_query_examples_run() {
    let app = app_for(&fixture(DIALER));
    let heap = app.loaded().unwrap().heap.clone();
    for (what, sql) in heaptui::ui::query::EXAMPLES {
        let conn = heaptui::session::sql::connect(heap.clone()).unwrap();
        let mut stmt = conn.prepare(sql).unwrap_or_else(|e| panic!("{what}: {e}"));
        let mut rows = stmt.query([]).unwrap();
        let mut n = 0;
        while rows.next().unwrap_or_else(|e| panic!("{what}: {e}")).is_some() {
            n += 1;
        }
        if what.starts_with("classes") {
            assert!(n > 0, "{what}: no rows");
        }
    }
}

/// Under `--semantics visualvm` the status line names the rule set, and the dominator tree is
/// VisualVM's: on NetBeans' own dump its library puts `URLClassPath$JarLoader` (39,488 bytes,
/// 38.6 KiB) at the top, where heaptui's rules put the application class loader.
#[test]
fn the_dominator_tree_under_visualvms_rules() {
    let path = fixture("jvm/hprof-slurp__hprof-64.bin");
    let options = heap::Options { semantics: heap::Semantics::Visualvm, ..Default::default() };
    let heap = heap::Heap::open(&path, options).unwrap();
    let leaks = heap::leaks::find_leaks(&heap, &heap::leaks::LeakConfig::default());
    let bytes = std::fs::metadata(&path).unwrap().len();
    let mut app = App::with_loaded(Theme::plain(), Loaded::new(Arc::new(heap), leaks, "heap_dump.bin".into(), bytes));
    keys(&mut app, "4");
    let screen = render(&mut app, 160, 48);
    assert!(screen.contains("model hotspot, visualvm rules"), "{screen}");
    let first = screen.lines().find(|l| l.contains("URLClassPath$JarLoader") || l.contains("AppClassLoader")).unwrap();
    assert!(first.contains("URLClassPath$JarLoader") && first.contains("38.6 KiB"), "{screen}");
    let mut app = app_for(&path);
    keys(&mut app, "4");
    let screen = render(&mut app, 160, 48);
    assert!(!screen.contains("rules"), "{screen}");
    let first = screen.lines().find(|l| l.contains("URLClassPath$JarLoader") || l.contains("AppClassLoader")).unwrap();
    assert!(first.contains("AppClassLoader"), "{screen}");
}
