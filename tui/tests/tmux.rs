//! The real binary in a real terminal: tmux runs `heaptui FILE`, keys go in with send-keys, the
//! screen comes out with capture-pane. Each test has its own tmux server (`-L`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(name: &str, args: &[&str], width: u16, height: u16) -> Tmux {
        Tmux::start_with_env(name, &[], args, width, height)
    }

    /// Runs with `env` set (through `env NAME=VALUE`: tmux's server does not pass the test's).
    fn start_with_env(name: &str, env: &[(&str, &str)], args: &[&str], width: u16, height: u16) -> Tmux {
        Tmux::start_in(name, None, env, args, width, height)
    }

    /// Runs in directory `dir` (where `e` writes its files), or the test's own.
    fn start_in(name: &str, dir: Option<&Path>, env: &[(&str, &str)], args: &[&str], width: u16, height: u16) -> Tmux {
        let socket = format!("heaptui-test-{name}-{}", std::process::id());
        let mut cmd: Vec<String> = vec!["env".into()];
        cmd.extend(env.iter().map(|(k, v)| format!("{k}={v}")));
        cmd.push(env!("CARGO_BIN_EXE_heaptui").to_string());
        cmd.extend(args.iter().map(|a| a.to_string()));
        let mut tmux = Command::new("tmux");
        tmux.args(["-L", &socket, "new-session", "-d", "-s", "t", "-x", &width.to_string(), "-y", &height.to_string()]);
        if let Some(dir) = dir {
            tmux.arg("-c").arg(dir);
        }
        let status = tmux
            .arg(cmd.join(" "))
            .env("TERM", "xterm-256color")
            .status()
            .expect("tmux must be installed (apt-get install tmux)");
        assert!(status.success());
        Tmux { socket }
    }

    fn keys(&self, keys: &[&str]) {
        let ok = Command::new("tmux").args(["-L", &self.socket, "send-keys", "-t", "t"]).args(keys).status().unwrap();
        assert!(ok.success());
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux").args(["-L", &self.socket, "capture-pane", "-p", "-t", "t"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    }

    /// Waits until the screen shows `text` (the UI draws from worker threads).
    fn wait_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Waits until the screen no longer shows `text` (a key's effect that only removes
    /// something, where waiting for what stays would pass before the key is read); the screen.
    fn wait_without(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?} to go"), |s| !s.contains(text))
    }

    /// Waits until the screen is `done` (`what` names it in the failure); the screen.
    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if done(&s) {
                return s;
            }
            // Generous: a loaded CI machine compiles, starts JVMs and analyses debug builds here.
            assert!(start.elapsed() < Duration::from_secs(120), "waited for {what}; screen:\n{s}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Runs a tmux command on this server; its stdout.
    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux").args(["-L", &self.socket]).args(args).output().unwrap();
        assert!(out.status.success(), "tmux {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).to_string()
    }

    fn alive(&self) -> bool {
        Command::new("tmux")
            .args(["-L", &self.socket, "has-session", "-t", "t"])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ =
            Command::new("tmux").args(["-L", &self.socket, "kill-server"]).stderr(std::process::Stdio::null()).status();
    }
}

fn fixture(name: &str) -> PathBuf {
    let dir = std::env::var_os("HEAPTUI_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"));
    dir.join(name)
}

#[test]
fn walk_every_screen_of_a_fixture() {
    let dump = fixture("android/adt-tools-base__dialer.android-hprof");
    let t = Tmux::start("walk", &[dump.to_str().unwrap()], 100, 30);
    // The leak rules finish after the first screen is up.
    let s = t.wait_for("Leak suspects (1)");
    assert!(s.contains("43687 objects"), "{s}");
    t.keys(&["2"]);
    t.wait_for("instances    shallow");
    t.keys(&["/", "H", "t", "m", "l", "P", "a", "r", "s", "e", "r", "Enter"]);
    let s = t.wait_for("filter: HtmlParser");
    assert!(s.contains("android.text.Html$HtmlParser"), "{s}");
    t.keys(&["3", "Enter"]);
    let s = t.wait_for("Leaking: YES");
    assert!(s.contains("DefaultVoicemailNotifier") && s.contains("↓ .mContext"), "{s}");
    t.keys(&["Down", "i"]);
    t.wait_for("history 1");
    // Follow a reference (the first link: mContext, the Service) and come back.
    t.keys(&["Enter"]);
    let s = t.wait_for("history 2");
    assert!(s.contains("CallLogNotificationsService"), "{s}");
    t.keys(&["Escape"]);
    let s = t.wait_for("history 1");
    assert!(s.contains("com.android.dialer.calllog.DefaultVoicemailNotifier 0x"), "{s}");
    t.keys(&["4"]);
    t.wait_for("class android.content.res.Resources");
    t.keys(&["Right"]);
    t.wait_for("▾ class android.content.res.Resources");
    t.keys(&["6"]);
    t.wait_for("Nothing is being watched");
    t.keys(&["Tab"]);
    t.wait_for("No baseline to compare with");
    t.keys(&["Tab"]);
    t.wait_for("no stack, 26 locals");
    t.keys(&["Tab"]);
    t.wait_for("/ types a query");
    t.keys(&["Tab"]);
    t.wait_for("43687 objects");
    t.keys(&["?"]);
    t.wait_for("Keys: Overview");
    t.keys(&["Escape"]);
    t.keys(&["q"]);
    let start = Instant::now();
    while t.alive() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!t.alive(), "q did not quit");
}

/// A dump whose names and strings carry OSC 52 (clipboard), OSC 0 (title) and CSI 2J, every
/// screen walked in a tmux that takes OSC 52 from applications (`set-clipboard on`): no paste
/// buffer appears, the pane keeps its title, and the names show escaped.
#[test]
fn a_hostile_dump_neither_writes_the_clipboard_nor_retitles() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("hostile.hprof");
    std::fs::write(&dump, test_support::hostile::dump()).unwrap();
    let t = Tmux::start("hostile", &[dump.to_str().unwrap()], 160, 40);
    t.tmux(&["set-option", "-g", "set-clipboard", "on"]);
    let title = t.tmux(&["display-message", "-p", "-t", "t", "#{pane_title}"]);
    // Waits for `text`, failing at once when a buffer or a title arrived meanwhile.
    let wait = |text: &str| -> String {
        let start = Instant::now();
        loop {
            assert_eq!(t.tmux(&["list-buffers"]), "", "a paste buffer was written through OSC 52");
            assert_eq!(t.tmux(&["display-message", "-p", "-t", "t", "#{pane_title}"]), title, "the title changed");
            let s = t.screen();
            if s.contains(text) {
                return s;
            }
            assert!(start.elapsed() < Duration::from_secs(120), "waited for {text:?}; screen:\n{s}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait("Leak suspects (1)");
    // Every screen, and back to the first, so each is drawn after set-clipboard is on.
    t.keys(&["2"]);
    wait("instances    shallow");
    t.keys(&["3", "Enter"]);
    let s = wait("Leaking: YES");
    assert!(s.contains("\\x1b]52;c;cHduZWQ=\\x07"), "{s}");
    t.keys(&["i"]);
    wait("history 1");
    t.keys(&["Down", "Enter"]);
    t.keys(&["4"]);
    wait("object");
    t.keys(&["Right", "Down", "Right", "Down", "Right"]);
    t.keys(&["6"]);
    wait("Nothing is being watched");
    t.keys(&["1"]);
    wait("Largest retained objects");
    t.keys(&["?"]);
    wait("Keys: Overview");
    t.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(500));
    wait("Largest retained objects");
    t.keys(&["q"]);
}

/// `heaptui FILE` takes `analyze`'s flags, with `analyze`'s results: ahat's obfuscated dump with
/// its ProGuard map shows the classes by their clear names (`DumpedStuff$StackSmasher` is `o` in
/// the dump) and finds the duplicate Bitmaps (`android.graphics.b` without the map), and the
/// huge-array rule disabled on the command line does not report the 1,000,000-byte array.
#[test]
fn the_ui_takes_the_analysis_flags() {
    let dump = fixture("android/ahat-art__test-dump.hprof");
    let map = fixture("android/ahat-art__test-dump.map");
    let t = Tmux::start(
        "flags",
        &["--map", map.to_str().unwrap(), "--disable-rule", "array.huge", dump.to_str().unwrap()],
        120,
        30,
    );
    let s = t.wait_for("Leak suspects (1)");
    assert!(s.contains("2x android.graphics.Bitmap") && !s.contains("byte[]  "), "{s}");
    t.keys(&["2"]);
    let s = t.wait_for("DumpedStuff$StackSmasher");
    assert!(s.contains("20000"), "{s}");
    t.keys(&["q"]);
    // Without the flags: the obfuscated name, and the huge array is the suspect.
    let t = Tmux::start("noflags", &[dump.to_str().unwrap()], 120, 30);
    let s = t.wait_for("Leak suspects (1)");
    assert!(s.contains("1x byte[]"), "{s}");
    t.keys(&["2"]);
    let s = t.wait_for("instances    shallow");
    assert!(!s.contains("DumpedStuff$StackSmasher"), "{s}");
    t.keys(&["q"]);
}

/// While a prompt is open every key types into it: `/Resources` on the Dominators screen filters
/// the tree (its `e` does not export, its `s` does not sort), and the tree keeps the matching
/// nodes under their dominators; `Esc` in the prompt drops the filter. On the Leaks screen `/`
/// narrows the suspects.
#[test]
fn filters_type_instead_of_acting() {
    let dump = fixture("android/adt-tools-base__dialer.android-hprof");
    let t = Tmux::start("filters", &[dump.to_str().unwrap()], 120, 30);
    t.wait_for("Leak suspects (1)");
    t.keys(&["4"]);
    t.wait_for("class android.content.res.Resources");
    t.keys(&["/", "R", "e", "s", "o", "u", "r", "c", "e", "s"]);
    let s = t.wait_for("filter: Resources▏");
    assert!(!s.contains("exported") && s.contains(" Dominators "), "{s}");
    t.keys(&["Enter"]);
    let s = t.wait_for("filter: Resources ");
    assert!(s.contains("android.content.res.Resources"), "{s}");
    // A match deeper in the tree stands under its dominator, indented and open.
    assert!(s.lines().any(|l| l.contains("▾ ")), "{s}");
    t.keys(&["/", "Escape"]);
    // The filtered tree shows the class too: wait for the filter to go, then look.
    let s = t.wait_without("filter:");
    assert!(s.contains("class android.content.res.Resources"), "{s}");
    // The Leaks screen: a filter that matches nothing says so by an empty list.
    t.keys(&["3", "/", "z", "q", "x", "Enter"]);
    let s = t.wait_for("filter: zqx");
    assert!(!s.contains("CallLogNotificationsService"), "{s}");
    t.keys(&["/", "Escape"]);
    t.wait_for("CallLogNotificationsService");
    t.keys(&["q"]);
}

/// `:` goes to an object by id (hex or decimal) in the Inspector, or to a class by name (fuzzy,
/// `Tab` completes) on Classes; and `Esc` walks back through every place visited, across
/// screens: Inspector, the leak trace, the suspects, the screen before.
#[test]
fn go_to_and_back_across_screens() {
    let dump = fixture("android/adt-tools-base__dialer.android-hprof");
    // The largest retained object, as `analyze` names it.
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["analyze", dump.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = v["top_retained"][0]["id"].as_str().unwrap().to_string();
    let class = v["top_retained"][0]["class"].as_str().unwrap().to_string();
    let decimal = u64::from_str_radix(id.trim_start_matches("0x"), 16).unwrap().to_string();

    let t = Tmux::start("goto", &[dump.to_str().unwrap()], 120, 30);
    t.wait_for("Leak suspects (1)");
    let mut typed = vec![":"];
    typed.extend(id.split("").filter(|c| !c.is_empty()));
    typed.push("Enter");
    t.keys(&typed);
    let s = t.wait_for("history 1");
    assert!(s.contains(&format!("{class} {id}")), "{s}");
    t.keys(&["Escape"]);
    t.wait_for("43687 objects");
    let mut typed = vec![":"];
    typed.extend(decimal.split("").filter(|c| !c.is_empty()));
    typed.push("Enter");
    t.keys(&typed);
    let s = t.wait_for("history 1");
    assert!(s.contains(&format!("{class} {id}")), "{s}");
    // A class by a part of its name: Tab completes, Enter selects it on Classes.
    t.keys(&[":", "H", "t", "m", "l", "P", "a", "r"]);
    t.wait_for("→ android.text.Html$HtmlParser (Tab)");
    t.keys(&["Tab", "Enter"]);
    let s = t.wait_for(" Classes ");
    let selected = s.lines().find(|l| l.contains("android.text.Html$HtmlParser")).unwrap_or_default().to_string();
    assert!(!selected.is_empty(), "{s}");
    // Back through every place: Classes → Inspector → Overview.
    t.keys(&["Escape"]);
    t.wait_for("history 1");
    t.keys(&["Escape"]);
    t.wait_for("43687 objects");

    // Leaks → trace → Inspector, and back the same way.
    t.keys(&["3", "Enter"]);
    t.wait_for("Leaking: YES");
    t.keys(&["Down", "i"]);
    t.wait_for("history 1");
    t.keys(&["Escape"]);
    let s = t.wait_for("Leaking: YES");
    assert!(s.contains(" Leaks "), "{s}");
    t.keys(&["Escape"]);
    let s = t.wait_for("kind          retained");
    assert!(!s.contains("Leaking: YES"), "{s}");
    t.keys(&["Escape"]);
    t.wait_for("43687 objects");
    t.keys(&["q"]);
}

/// A truncated dump says so where it is seen: in the status line of every screen, in the
/// warning colour, and on the Overview; a gzip'd dump's Overview gives the dump's size with the
/// file's beside it.
#[test]
fn a_truncated_dump_shows_its_warning_on_every_screen() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(fixture("android/adt-tools-base__dialer.android-hprof")).unwrap();
    let cut = dir.path().join("cut.hprof");
    std::fs::write(&cut, &bytes[..bytes.len() * 3 / 5]).unwrap();
    let t = Tmux::start("truncated", &[cut.to_str().unwrap()], 120, 30);
    let s = t.wait_for("Leak suspects (");
    assert!(s.contains("⚠ the dump is truncated"), "{s}");
    for screen in ["2", "3", "4", "5"] {
        t.keys(&[screen]);
        std::thread::sleep(Duration::from_millis(100));
        let s = t.screen();
        let status = s.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default();
        assert!(status.contains("⚠") && status.contains("truncated"), "screen {screen}: {status}");
    }
    t.keys(&["q"]);

    let gz = dir.path().join("dialer.hprof.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, &bytes).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let t = Tmux::start("gz", &[gz.to_str().unwrap()], 120, 30);
    let s = t.wait_for("Leak suspects (1)");
    assert!(s.contains("3.5 MiB (") && s.contains(" on disk)"), "{s}");
    t.keys(&["q"]);
}

/// Two dumps of `tests/java/LeakyApp.java`, whose static map holds 1000 sessions in the first
/// and 4000 in the second (known by construction). Built once per test binary.
fn leaky_app_dumps() -> (PathBuf, PathBuf) {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tmux-leaky-app");
        test_support::leaky_app_dumps(&dir, &[("leaky", "early", 1000), ("leaky", "late", 4000)]);
        dir
    });
    (dir.join("early.hprof"), dir.join("late.hprof"))
}

/// Screen 7 on two dumps of the leaky app: with `--baseline`, the static map that grew from 1000
/// to 4000 sessions is the first row, keyed by its path, and `Enter` opens it in the Inspector of
/// the newer dump; without one, the screen says how to give one, and `b` takes one of the dumps
/// heaptui stored.
#[test]
fn the_diff_screen_shows_what_grew() {
    let (early, late) = leaky_app_dumps();
    let t = Tmux::start("diff", &["--baseline", early.to_str().unwrap(), late.to_str().unwrap()], 140, 30);
    t.wait_for("Leak suspects (");
    t.keys(&["7"]);
    let s = t.wait_for("grew 1000 → 4000 elements: class LeakyApp.SESSIONS");
    assert!(s.contains("java.util.HashMap") && s.contains("+3000"), "{s}");
    t.keys(&["Enter"]);
    // The map of the newer dump: its 4000 sessions.
    let s = t.wait_for("int size = 4000");
    assert!(s.contains("java.util.HashMap 0x") && s.contains(".SESSIONS"), "{s}");
    t.keys(&["Escape"]);
    t.wait_for("grew 1000 → 4000 elements");
    t.keys(&["q"]);

    // No baseline: the screen says how; `b` lists the dumps heaptui stored, Enter takes one.
    let data = tempfile::tempdir().unwrap();
    let stored = data.path().join("heaptui/dumps/local/LeakyApp");
    std::fs::create_dir_all(&stored).unwrap();
    std::fs::copy(&early, stored.join("early.hprof")).unwrap();
    std::fs::copy(&early, stored.join("another.hprof")).unwrap();
    let xdg = data.path().to_str().unwrap();
    let t = Tmux::start_with_env("diff-b", &[("XDG_DATA_HOME", xdg)], &[late.to_str().unwrap()], 140, 30);
    t.wait_for("Leak suspects (");
    t.keys(&["7"]);
    t.wait_for("No baseline to compare with");
    t.keys(&["b"]);
    let s = t.wait_for("early.hprof");
    assert!(s.contains("another.hprof"), "{s}");
    // `/` narrows the dumps on offer; Enter keeps the filter, a second Enter takes the dump.
    t.keys(&["/", "e", "a", "r", "l", "y"]);
    let s = t.wait_for("filter: early");
    assert!(!s.contains("another.hprof"), "{s}");
    t.keys(&["Enter", "Enter"]);
    t.wait_for("grew 1000 → 4000 elements: class LeakyApp.SESSIONS");
    t.keys(&["q"]);
}

#[test]
fn quit_while_loading_and_errors_as_a_screen() {
    // A file that is not a dump: a readable error screen, not a panic; q quits.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("notes.hprof");
    std::fs::write(&bad, "this is not a heap dump\n").unwrap();
    let t = Tmux::start("error", &[bad.to_str().unwrap()], 80, 24);
    let s = t.wait_for("could not be opened");
    assert!(s.contains("not an HPROF file"), "{s}");
    t.keys(&["q"]);
    let start = Instant::now();
    while t.alive() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!t.alive());
}

#[test]
fn no_argument_offers_the_demo() {
    let t = Tmux::start("demo", &[], 120, 30);
    let s = t.wait_for("Open a heap dump");
    assert!(s.contains("bundled demo"), "{s}");
    t.keys(&["Enter"]);
    let s = t.wait_for("Leak suspects (1)");
    assert!(s.contains("class LeakyCache"), "{s}");
    t.keys(&["q"]);
}

/// `heaptui demo` in a terminal: the program grows, the trigger fires, the dump opens in the UI
/// with the leaking cache as the suspect.
#[test]
fn the_live_demo_opens_the_leak() {
    let dir = tempfile::tempdir().unwrap();
    let xdg = dir.path().to_str().unwrap();
    let t = Tmux::start_with_env("live-demo", &[("XDG_DATA_HOME", xdg)], &["demo", "--interval", "0.25"], 120, 30);
    let s = t.wait_for("Leak suspects (1)");
    assert!(s.contains("class LeakyCache"), "{s}");
    t.keys(&["3"]);
    let s = t.wait_for("class LeakyCache retains");
    assert!(s.contains("application"), "{s}");
    t.keys(&["q"]);
    let dumps = std::fs::read_dir(dir.path().join("heaptui/dumps/local/LeakyCache")).unwrap().count();
    assert_eq!(dumps, 2, "the dump and its sidecar");
}

/// `heaptui` with no argument lists local JVMs; `/` filters, Enter watches one on screen 6; the
/// growing heap crosses KOOM's line and the trigger is logged; `d` dumps it (attach protocol,
/// stripped) and the dump opens on screens 1-5.
#[test]
fn the_picker_watches_a_local_jvm_and_d_dumps_it() {
    let dir = tempfile::tempdir().unwrap();
    let jvm = test_support::Jvm::start("tests/java/HeapGrowth.java", dir.path(), "HeapGrowth", &["grow"], 64);
    assert_eq!(jvm.first_line.trim(), "ready");
    let pid = jvm.pid();
    let xdg = dir.path().to_str().unwrap();
    let t = Tmux::start_with_env(
        "picker-monitor",
        &[("XDG_DATA_HOME", xdg), ("ANDROID_ADB_SERVER_PORT", "1")],
        &[],
        140,
        40,
    );
    t.wait_for("Open a heap dump or watch a process");
    t.keys(&["/"]);
    // In two parts: the picker lists this machine's processes as it goes, and a `tmux send-keys`
    // holding the whole query in its command line would match it best.
    t.keys(&["-l", "HeapGrowth"]);
    t.keys(&["-l", &format!(" {pid}")]);
    let s = t.wait_for("[local JVM]");
    assert!(s.contains(&pid.to_string()), "{s}");
    t.keys(&["Enter"]);
    t.wait_for(&format!("HeapGrowth ({pid}) on local"));
    // 80 % of the 64 MiB heap (KOOM's line under 128 MB), crossed three samples in a row.
    let s = t.wait_for("TRIGGER heap");
    assert!(s.contains("dump at 51.2 MiB"), "{s}");
    t.keys(&["d"]);
    // The progress screen, then the analysis on the Leaks screen.
    t.wait_for("dumped to");
    t.wait_for("class — reason");
    t.keys(&["1"]);
    let s = t.wait_for("Largest retained objects");
    assert!(s.contains("heaptui/dumps/local/HeapGrowth") || s.contains("HeapGrowth"), "{s}");
    t.keys(&["q"]);
    drop(jvm);
    let dumps = std::fs::read_dir(dir.path().join("heaptui/dumps/local/HeapGrowth")).unwrap().count();
    assert_eq!(dumps, 2, "the dump and its sidecar");
}

/// The same keypress on a phone: the test double of one (`tests/phone`) behind the real adb
/// server, the demo's LeakyCache running "on" it. `d` has the agent dump and strip it there; the
/// dump is pulled, restored and opened on the Leaks screen with LeakyCache as the suspect.
#[test]
fn d_on_a_phone_ends_on_the_leak() {
    use test_phone::{AdbServer, PhoneSpec, TestPhone};
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let jvm = test_support::Jvm::start("demo/LeakyCache.java", dir.path(), "LeakyCache", &["2000", "120"], 64);
    let pid = jvm.pid();
    let port = server.0.to_string();
    let xdg = dir.path().to_str().unwrap();
    let env = [("XDG_DATA_HOME", xdg), ("ANDROID_ADB_SERVER_PORT", port.as_str())];
    let t = Tmux::start_with_env("phone-dump", &env, &[], 160, 40);
    t.wait_for("Open a heap dump or watch a process");
    t.keys(&["/"]);
    // In two parts: the picker lists this machine's processes as it goes, and a `tmux send-keys`
    // holding the whole query in its command line would match it best.
    t.keys(&["-l", &format!("LeakyCache {pid}")]);
    t.keys(&["-l", " heaptui_test_phone"]);
    let s = t.wait_for("heaptui_test_phone]");
    assert!(s.contains(&phone.serial()), "{s}");
    t.keys(&["Enter"]);
    t.wait_for(&format!("LeakyCache ({pid}) on {}", phone.serial()));
    t.wait_for("Open files");
    t.keys(&["d"]);
    let s = t.wait_for("class LeakyCache retains");
    assert!(s.contains("application") && s.contains("2000 x LeakyCache$Session"), "{s}");
    t.keys(&["q"]);
    drop(jvm);
    let stored = dir.path().join("heaptui/dumps").join(phone.serial().replace(':', "_")).join("LeakyCache");
    assert_eq!(std::fs::read_dir(stored).unwrap().count(), 2, "the restored dump and its sidecar");
}

/// The same keypress against a real runtime: the Android 10 test phone whose apps are real ART
/// 10 processes (`PhoneSpec::android10_art`, the shell as uid 2000), an app holding 2,000
/// sessions in a static map. The picker lists it by package, `Enter` watches it with the heap
/// figures the app reports of itself, `d` has `am dumpheap` make ART write the dump, which is
/// stripped on the phone, pulled, restored and opened on the Leaks screen with the map as the
/// suspect; the Overview says why the dump has no Bitmap pixels when it has Bitmaps.
#[test]
fn d_on_a_real_art_app_ends_on_the_leak() {
    use test_phone::{AdbServer, App, PhoneSpec, TestPhone};
    let dir = tempfile::tempdir().unwrap();
    let art = test_support::art::art();
    let jar = art.compile(
        &[
            "tests/java/art/Sessions.java",
            "tests/java/art/Pictures.java",
            "tests/java/art/android/graphics/Bitmap.java",
        ],
        dir.path(),
    );
    let package = "com.example.art.release";
    let apps =
        vec![App { package: package.into(), uid: 10132, debuggable: false, large_heap: false, profileable: false }];
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::android10_art(apps)).unwrap();
    phone.connect(server.0).unwrap();
    let mut app = test_support::art::App::new(package);
    app.uid = Some(10132);
    let run = art.start(&jar, "Sessions", &["2000"], &app);
    assert!(run.first_line.starts_with("ready "), "{}", run.first_line);
    let port = server.0.to_string();
    let xdg = dir.path().to_str().unwrap();
    let env = [("XDG_DATA_HOME", xdg), ("ANDROID_ADB_SERVER_PORT", port.as_str())];
    let t = Tmux::start_with_env("art-dump", &env, &[], 160, 40);
    t.wait_for("Open a heap dump or watch a process");
    t.keys(&["/"]);
    // The package is the row's last column, after the phone's.
    t.keys(&["-l", "heaptui_test_phone_art]"]);
    t.keys(&["-l", &format!(" {package}")]);
    let s = t.wait_for(&format!("heaptui_test_phone_art]  {package}"));
    assert!(s.contains(&phone.serial()), "{s}");
    t.keys(&["Enter"]);
    t.wait_for(&format!("({}) on {}", run.pid, phone.serial()));
    t.keys(&["d"]);
    let s = t.wait_for("java.util.HashMap of 2000 entries retains");
    assert!(s.contains("application"), "{s}");
    t.keys(&["q"]);
    drop(run);

    // An app holding three Bitmaps, dumped on this phone, whose am has no -b: the Overview says
    // so of the dump heaptui just made.
    let run = art.start(&jar, "Pictures", &[], &app);
    assert!(run.first_line.starts_with("ready "), "{}", run.first_line);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["dump", "-s", &phone.serial(), &run.pid.to_string()])
        .env("XDG_DATA_HOME", xdg)
        .env("ANDROID_ADB_SERVER_PORT", &port)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let t = Tmux::start("art-pixels", &[&path], 200, 40);
    let s = t.wait_for("Bitmaps, no pixels");
    assert!(s.contains("3 Bitmaps, no pixels in this dump: this phone's `am dumpheap` has no -b"), "{s}");
    t.keys(&["q"]);
}

/// The views of a set, threads, the tree by class and pictures, walked with the real binary:
/// on the Holders program's dump (4,500 sessions held by a HashMap, a TreeMap and an ArrayList),
/// `m` on the class shows the three holders once the tree is opened, `D` their entries, `8` the
/// main thread's stack at the dump, `c` the tree by class; on a dump of known Bitmaps, `v` shows
/// one and any key closes it.
#[test]
fn set_views_threads_and_pictures() {
    static DUMP: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let dump = DUMP
        .get_or_init(|| test_support::holders_dump(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("tmux-holders")))
        .clone();
    let t = Tmux::start("sets", &[dump.to_str().unwrap()], 150, 40);
    t.wait_for("Leak suspects (");
    t.keys(&[":"]);
    t.keys(&["-l", "Holders$Session"]);
    t.keys(&["Enter"]);
    t.wait_for("Holders$Session");
    t.keys(&["m"]);
    t.wait_for("merged");
    // Opened down to the class whose statics hold the three.
    for _ in 0..2 {
        t.keys(&["Right", "Down"]);
    }
    let s = t.wait_for(".ACTIVE");
    assert!(s.contains(".BY_NAME") && s.contains(".QUEUE") && s.contains("3000"), "{s}");
    t.keys(&["Escape"]);
    t.keys(&["D"]);
    let s = t.wait_for("java.util.HashMap$Node");
    assert!(s.contains("java.util.TreeMap$Entry") && s.contains("java.lang.Object[]"), "{s}");
    t.keys(&["Escape", "8"]);
    t.wait_for("\"main\"");
    t.keys(&["/"]);
    t.keys(&["-l", "main"]);
    t.keys(&["Enter", "Home", "Enter"]);
    t.wait_for("at Holders.main(Holders.java:");
    t.keys(&["4", "c"]);
    t.wait_for("grouped, c for objects");
    t.keys(&["q"]);

    let dir = tempfile::tempdir().unwrap();
    let bitmaps = dir.path().join("bitmaps.hprof");
    std::fs::write(&bitmaps, test_support::bitmaps::dump()).unwrap();
    let t = Tmux::start("pictures", &[bitmaps.to_str().unwrap()], 120, 30);
    t.wait_for("Leak suspects (");
    t.keys(&[":"]);
    t.keys(&["-l", &format!("{:#x}", test_support::bitmaps::id(0))]);
    t.keys(&["Enter"]);
    t.wait_for("4x2 ARGB_8888");
    t.keys(&["v"]);
    t.wait_for("any key closes");
    // The pixels reach the terminal as true colours: red, then (18, 52, 86) from the second row.
    let painted = t.tmux(&["capture-pane", "-p", "-e", "-t", "t"]);
    assert!(painted.contains("2;255;0;0m") && painted.contains("2;18;52;86m"), "{painted}");
    t.keys(&["x"]);
    t.wait_for("v shows it whole");
    t.keys(&["q"]);
}

/// Screen 9 with the real binary: `/` opens the prompt, a query's rows (perflib's 1406 byte[]),
/// `Enter` on a row opens its object, and `Esc` interrupts a query that would run for minutes.
#[test]
fn the_query_screen_runs_and_interrupts() {
    let dump = fixture("android/adt-tools-base__dialer.android-hprof");
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start_in("query", Some(dir.path()), &[], &[dump.to_str().unwrap()], 120, 30);
    t.wait_for("Leak suspects (");
    t.keys(&["9"]);
    t.wait_for("/ types a query");
    t.keys(&["/"]);
    t.wait_for("SQL>");
    t.keys(&["-l", "SELECT id, class FROM objects WHERE class = 'byte[]' ORDER BY shallow DESC LIMIT 3"]);
    t.keys(&["Enter"]);
    t.wait_for("3 rows in");
    t.keys(&["Enter"]);
    t.wait_for("history 1");
    t.keys(&["Escape"]);
    t.wait_for("3 rows in");
    // `e`: the rows as CSV and JSON, in the directory heaptui runs in.
    t.keys(&["e"]);
    t.wait_for("exported to");
    let csv = std::fs::read_to_string(dir.path().join("heaptui-query.csv")).unwrap();
    assert!(csv.starts_with("id,class\n") && csv.lines().count() == 4, "{csv}");
    let rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("heaptui-query.json")).unwrap()).unwrap();
    assert_eq!(rows.as_array().map(Vec::len), Some(3));
    // 43687² rows: interrupted by Esc, SQLite says so.
    t.keys(&["/"]);
    t.keys(&["BSpace"; 100]);
    t.keys(&["-l", "SELECT count(*) FROM objects a, objects b, objects c"]);
    t.keys(&["Enter"]);
    // Its progress: the rows the tables have read, growing while it runs.
    let read = |screen: &str| -> u64 {
        let line = screen.lines().find(|l| l.contains("rows read:")).unwrap_or_else(|| panic!("{screen}"));
        let before = &line[..line.find(" rows read:").unwrap()];
        before.rsplit(' ').next().unwrap().parse().unwrap_or_else(|_| panic!("{line}"))
    };
    let first = read(&t.wait_for("rows read:"));
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let later = read(&t.wait_for("rows read:"));
    assert!(later > first && later > 43687, "{first} then {later}");
    t.keys(&["Escape"]);
    t.wait_for("interrupted");
    t.keys(&["q"]);
}
