//! Text that reaches a terminal: a dump, a file name, a process and an error carrying terminal
//! control sequences (built by `test_support::hostile`), through every text output of the
//! headless commands, their errors, and every screen of the UI. Nothing a terminal could act on
//! comes out (no C0 byte but newline, no DEL, no C1, no bidi control); the escaped form shows
//! instead; JSON still gives back the exact strings.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use heaptui::ui::model::{App, Loaded};
use heaptui::ui::monitor::Target;
use heaptui::ui::msg::{Effect, Msg};
use heaptui::ui::screen::Screen;
use heaptui::ui::theme::Theme;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use serde_json::Value;
use test_support::hostile::{self, payload, unsafe_chars, Names, SHOWN};

/// The escaped form of the payload's end, which survives names shortened from the left.
const SHOWN_TAIL: &str = "\\u{9b}31m\\u{202e}gpj.exe\\n\\t";

/// The hostile dump in a fresh directory, under a file name carrying the payload too.
fn hostile_dump() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("dump{}.hprof", payload()));
    std::fs::write(&path, hostile::dump()).unwrap();
    (dir, path)
}

fn heaptui(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heaptui")).args(args).env("HEAPTUI_INDEX_CACHE", "/nonexistent").output().unwrap()
}

/// Runs heaptui with `args` (the dump's path where `FILE` stands) and checks that neither stdout
/// nor stderr holds a byte a terminal could act on; returns both as text.
fn run(file: &Path, args: &[&str]) -> (Output, String, String) {
    let args: Vec<&std::ffi::OsStr> =
        args.iter().map(|a| if *a == "FILE" { file.as_os_str() } else { std::ffi::OsStr::new(*a) }).collect();
    let out = heaptui(&args);
    let what = format!("heaptui {args:?}");
    let stdout = String::from_utf8(out.stdout.clone()).unwrap_or_else(|e| panic!("{what}: stdout not UTF-8: {e}"));
    let stderr = String::from_utf8(out.stderr.clone()).unwrap_or_else(|e| panic!("{what}: stderr not UTF-8: {e}"));
    for (name, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        let bad = unsafe_chars(text, false);
        assert!(bad.is_empty(), "{what}: {name} holds control characters {:?}:\n{text}", &bad[..bad.len().min(8)]);
    }
    (out, stdout, stderr)
}

#[test]
fn text_outputs_show_hostile_strings_escaped() {
    let (_dir, file) = hostile_dump();
    let names = Names::new();
    // Every text format: the file's path is printed whole, names from the left or whole.
    for args in [
        &["analyze", "FILE"][..],
        &["analyze", "FILE", "--format", "text", "--top", "50"],
        &["analyze", "FILE", "--format", "leakcanary"],
        &["analyze", "FILE", "--histogram-only"],
        &["analyze", "FILE", "--baseline", "FILE"],
        &["FILE"],
    ] {
        let (out, stdout, _) = run(&file, args);
        assert!(out.status.success(), "{args:?}");
        assert!(stdout.contains(SHOWN) || args.contains(&"--histogram-only"), "{args:?}: {stdout}");
        assert!(stdout.contains(SHOWN_TAIL), "{args:?}: {stdout}");
    }
    // The leak is found, and its trace names the hostile classes and fields, escaped.
    let (_, leakcanary, _) = run(&file, &["analyze", "FILE", "--format", "leakcanary"]);
    assert!(leakcanary.contains("1 APPLICATION LEAKS"), "{leakcanary}");
    let escaped = |s: &str| heap::fmt::safe(s).into_owned();
    for name in [&names.activity, &names.static_field] {
        assert!(leakcanary.contains(&escaped(name.rsplit('.').next().unwrap())), "{name:?}: {leakcanary}");
    }
    // inspect: the activity (its hostile field and class), its String, the class by its name.
    let id = format!("0x{:x}", hostile::ACTIVITY_ID);
    let (out, text, _) = run(&file, &["inspect", "FILE", &id]);
    assert!(out.status.success());
    assert!(text.contains(&escaped(&names.activity)) && text.contains(&escaped(&names.field)), "{text}");
    let (out, text, _) = run(&file, &["inspect", "FILE", &format!("0x{:x}", hostile::STRING_ID)]);
    assert!(out.status.success());
    assert!(text.contains("\\u{1b}]52;c;cHduZWQ=\\u{7}"), "the String's value, quoted by {{:?}}: {text}");
    let (out, text, _) = run(&file, &["inspect", "FILE", &names.activity]);
    assert!(out.status.success() && text.contains(&escaped(&names.activity)), "{text}");
}

#[test]
fn errors_and_notes_show_hostile_strings_escaped() {
    let (dir, file) = hostile_dump();
    // A missing file whose name carries the payload: the error names it, escaped.
    let missing = dir.path().join(format!("missing{}.hprof", payload()));
    let (out, stdout, stderr) = run(&missing, &["analyze", "FILE"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout.is_empty() && stderr.contains(SHOWN), "{stderr}");
    // Not a dump: the error quotes the name.
    let junk = dir.path().join(format!("junk{}.hprof", payload()));
    std::fs::write(&junk, b"not a heap dump at all, only text").unwrap();
    let (out, _, stderr) = run(&junk, &["analyze", "FILE", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains(SHOWN), "{stderr}");
    // A class the dump does not have, named with the payload.
    let (out, _, stderr) = run(&file, &["inspect", "FILE", &format!("no.such{}", payload())]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("no class named"), "{stderr}");
    // A note on stderr (strip's), and strip's error naming an output it cannot write.
    let stripped = dir.path().join(format!("out{}.hprof", payload()));
    let (out, _, stderr) = run(&file, &["strip", "FILE", stripped.to_str().unwrap()]);
    assert!(out.status.success() && stderr.contains("bytes"), "{stderr}");
    let nowhere = dir.path().join(format!("no{}/out.hprof", payload()));
    let (out, _, stderr) = run(&file, &["strip", "FILE", nowhere.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains(SHOWN), "{stderr}");
}

#[test]
fn json_outputs_keep_the_exact_strings() {
    let (_dir, file) = hostile_dump();
    let names = Names::new();
    let json = |args: &[&str]| -> Value {
        let (out, stdout, stderr) = run(&file, args);
        assert!(out.status.success(), "{args:?}: {stderr}");
        serde_json::from_str(&stdout).unwrap()
    };
    let v = json(&["analyze", "FILE", "--format", "json", "--top", "50"]);
    assert_eq!(v["file"]["path"].as_str(), file.to_str());
    let classes: Vec<&str> = v["histogram"].as_array().unwrap().iter().filter_map(|c| c["class"].as_str()).collect();
    assert!(classes.contains(&names.activity.as_str()) && classes.contains(&names.holder.as_str()), "{classes:?}");
    let leak = &v["leaks"][0];
    assert_eq!(leak["class"].as_str(), Some(names.activity.as_str()));
    let references: Vec<&str> =
        leak["trace"].as_array().unwrap().iter().filter_map(|t| t["reference"].as_str()).collect();
    assert!(references.contains(&format!(".{}", names.static_field).as_str()), "{references:?}");
    assert_eq!(v["threads"][0]["example"].as_str(), Some(names.thread.as_str()));
    let koom = json(&["analyze", "FILE", "--format", "koom"]);
    assert_eq!(koom["classInfos"][0]["className"].as_str(), Some(names.activity.as_str()));
    let quick = json(&["analyze", "FILE", "--histogram-only", "--format", "json"]);
    let quick: Vec<&str> = quick["histogram"].as_array().unwrap().iter().filter_map(|c| c["class"].as_str()).collect();
    assert!(quick.contains(&names.activity.as_str()), "{quick:?}");
    let id = format!("0x{:x}", hostile::ACTIVITY_ID);
    let o = json(&["inspect", "FILE", &id, "--format", "json"]);
    assert_eq!(o[0]["class"].as_str(), Some(names.activity.as_str()));
    let field = o[0]["fields"].as_array().unwrap().iter().find(|f| f["name"].as_str() == Some(&names.field)).unwrap();
    let string = json(&["inspect", "FILE", field["value"].as_str().unwrap(), "--format", "json"]);
    assert_eq!(string[0]["string"].as_str(), Some(names.string.as_str()));
}

#[test]
fn ps_shows_a_hostile_process_name_escaped() {
    use std::os::unix::process::CommandExt;
    let argv0 = format!("{}{}{}{}", hostile::CLIPBOARD, hostile::CLEAR, hostile::C1, hostile::BIDI);
    let mut child = Command::new("sleep").arg0(&argv0).arg("60").spawn().unwrap();
    let pid = child.id();
    // Once the exec is done (before it, /proc shows the forking process's command line).
    let start = std::time::Instant::now();
    while !std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.starts_with(hostile::CLIPBOARD.as_bytes()))
        && start.elapsed() < std::time::Duration::from_secs(10)
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (out, text, stderr) = run(Path::new(""), &["ps", "--local"]);
    let (out_json, json, _) = run(Path::new(""), &["ps", "--local", "--json"]);
    let _ = child.kill();
    let _ = child.wait();
    assert!(out.status.success() && out_json.status.success(), "{stderr}");
    let row = text.lines().find(|l| l.split_whitespace().next() == Some(&pid.to_string())).unwrap();
    assert!(row.contains(SHOWN) && row.contains("\\u{202e}gpj.exe 60"), "{row}");
    let entry: Value = json
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|p| p["pid"].as_u64() == Some(u64::from(pid)))
        .unwrap();
    assert_eq!(entry["cmdline"].as_str(), Some(format!("{argv0} 60").as_str()));
}

fn key(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.update(Msg::Input(Event::Key(KeyEvent::new(code, KeyModifiers::NONE))))
}

fn keys(app: &mut App, s: &str) {
    for c in s.chars() {
        key(app, KeyCode::Char(c));
    }
}

/// Draws `app` as heaptui does and checks every cell: none holds a control character, and none
/// needed the frame's last scrub (the screens escaped their text themselves). Returns the text.
fn render(app: &mut App, w: u16, h: u16, what: &str) -> String {
    app.update(Msg::Input(Event::Resize(w, h)));
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| heaptui::ui::view::draw(f, app)).unwrap();
    let mut text = String::new();
    for (i, cell) in t.backend().buffer().content.iter().enumerate() {
        let s = cell.symbol();
        assert!(unsafe_chars(s, false).is_empty(), "{what} {w}x{h}: cell {i} holds {s:?}");
        assert_ne!(s, heaptui::ui::view::common::SCRUBBED, "{what} {w}x{h}: cell {i} was scrubbed");
        text.push_str(s);
        if (i + 1) % w as usize == 0 {
            text.push('\n');
        }
    }
    text
}

#[test]
fn screens_show_hostile_strings_escaped() {
    let (_dir, file) = hostile_dump();
    let heap = heap::Heap::open(&file, heap::Options::default()).unwrap();
    let leaks = heap::leaks::find_leaks(&heap, &heap::leaks::LeakConfig::default());
    assert_eq!(leaks.len(), 1, "the destroyed activity");
    let path = file.display().to_string();
    let mut app = App::with_loaded(Theme::plain(), Loaded::new(Arc::new(heap), leaks, path, 0));
    for (w, h) in [(80, 24), (200, 50)] {
        app.screen = Screen::Overview;
        let overview = render(&mut app, w, h, "overview");
        assert!(overview.contains("\\x1b"), "{overview}");
        keys(&mut app, "2");
        let classes = render(&mut app, w, h, "classes");
        // (Long names are shortened in the middle: what shows of the payload is escaped.)
        assert!(classes.contains("\\x1b") || classes.contains("\\u{") || classes.contains("\\n\\t"), "{classes}");
        // Only the hostile activity has an x, then an e, then Activity.
        keys(&mut app, "/xeActivity");
        key(&mut app, KeyCode::Enter);
        render(&mut app, w, h, "classes, filtered");
        key(&mut app, KeyCode::Enter);
        let instances = render(&mut app, w, h, "instances");
        assert!(instances.contains("\\u{202e}") || (w == 80 && instances.contains("\\n\\t")), "{instances}");
        // Back to the list, then the filter dropped (`/`, then Esc in the prompt).
        key(&mut app, KeyCode::Esc);
        keys(&mut app, "/");
        key(&mut app, KeyCode::Esc);
        keys(&mut app, "3");
        render(&mut app, w, h, "leaks");
        key(&mut app, KeyCode::Enter);
        let trace = render(&mut app, w, h, "leak trace");
        assert!(trace.contains(SHOWN), "{trace}");
        keys(&mut app, "i");
        assert_eq!(app.screen, Screen::Inspector);
        let object = render(&mut app, w, h, "inspector");
        assert!(object.contains(SHOWN), "{object}");
        key(&mut app, KeyCode::Esc);
        keys(&mut app, "4");
        render(&mut app, w, h, "dominators");
        for _ in 0..6 {
            key(&mut app, KeyCode::Right);
            key(&mut app, KeyCode::Down);
        }
        render(&mut app, w, h, "dominators, expanded");
        keys(&mut app, "?");
        render(&mut app, w, h, "help");
        keys(&mut app, "x");
        // A status line quoting a name (as export and copy errors do).
        app.status = Some(format!("export failed: {}", payload()));
        let status = render(&mut app, w, h, "status");
        assert!(status.contains("export failed: \\x1b"), "{status}");
        app.status = None;
    }
    // Export: the text file holds no control character but its tabs; the JSON is exact.
    keys(&mut app, "2");
    let effects = key(&mut app, KeyCode::Char('e'));
    let [Effect::Export { contents, json: Some(json), .. }] = &effects[..] else { panic!("{effects:?}") };
    assert!(unsafe_chars(contents, true).is_empty(), "{contents}");
    assert!(unsafe_chars(json, false).is_empty(), "{json}");
    let rows: Value = serde_json::from_str(json).unwrap();
    let names = Names::new();
    assert!(rows.as_array().unwrap().iter().any(|r| r["class"].as_str() == Some(&names.activity)));
}

#[test]
fn error_and_monitor_screens_show_hostile_strings_escaped() {
    let mut app = App::new(Theme::plain());
    app.update(Msg::Loaded(Err(format!("cannot open /tmp/{}: no such file", payload()))));
    let error = render(&mut app, 80, 24, "error");
    assert!(error.contains(SHOWN), "{error}");
    // A watched process (a phone's serial and a process name carry the payload), and why it ended.
    let mut app = App::new(Theme::plain());
    app.watch(Target { serial: Some(format!("serial{}", payload())), pid: 42, name: format!("app{}", payload()) });
    app.update(Msg::WatchEnded(format!("gone: {}", payload())));
    app.screen = Screen::Monitor;
    let monitor = render(&mut app, 200, 50, "monitor");
    assert!(monitor.contains(&format!("app{SHOWN}")) && monitor.contains("watch ended: gone: \\x1b"), "{monitor}");
}

#[test]
fn picker_shows_a_hostile_file_name_escaped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(format!("dump{}.hprof", payload())), b"x").unwrap();
    let items = heaptui::ui::picker::pick_items(dir.path());
    assert!(items.iter().any(|i| i.label.contains(hostile::CLIPBOARD)), "listed by its real name");
    let mut app = App::picker(Theme::plain(), items);
    let screen = render(&mut app, 200, 24, "picker");
    assert!(screen.contains(&format!("dump{SHOWN}")), "{screen}");
    // The filter typed is shown escaped too.
    keys(&mut app, "/dump");
    key(&mut app, KeyCode::Char('\u{1b}'));
    render(&mut app, 200, 24, "picker, filtered");
}

/// The picker's row for a process whose name and command line carry the payload (a real
/// process, read from /proc as the picker reads it): drawn escaped.
#[test]
fn picker_shows_a_hostile_process_name_escaped() {
    use std::os::unix::process::CommandExt;
    let argv0 = format!("{}{}{}{}", hostile::CLIPBOARD, hostile::CLEAR, hostile::C1, hostile::BIDI);
    let mut child = Command::new("sleep").arg0(&argv0).arg("60").spawn().unwrap();
    let pid = child.id();
    // Read once the exec is done (before it, /proc shows the forking process's command line).
    let start = std::time::Instant::now();
    let found = loop {
        let p = agent::proc::list().into_iter().find(|p| p.pid == pid && p.cmdline.contains(hostile::CLIPBOARD));
        if p.is_some() || start.elapsed() > std::time::Duration::from_secs(10) {
            break p;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let _ = child.kill();
    let _ = child.wait();
    let p = found.expect("the process, from /proc");
    let item = heaptui::ui::picker::process_item(&p, None, 3, "local");
    let mut app = App::picker(Theme::plain(), vec![item]);
    let screen = render(&mut app, 200, 24, "process picker");
    assert!(screen.contains(&pid.to_string()), "{screen}");
    assert!(screen.contains("\\x1b]52;c;cHduZWQ=\\x07"), "{screen}");
}
