//! The phone loop against real ART processes: a strict Android 10 test phone
//! (`PhoneSpec::android10_art`, the shell as uid 2000) whose apps run on the real ART 10 that
//! `./run-tests` builds (`test_support::art`), each under its own uid. `monitor` reads the app's
//! Java heap as `dumpsys meminfo` gets it from the app itself, `dump --method am` has ART write
//! its dump into the descriptor `am` passes, and `dump --method fork` has the app load the fork
//! dump's library (this machine's build) through `cmd activity attach-agent`, which calls its
//! `Agent_OnAttach` with the runtime's own `JavaVM*` on the app's main thread.

use std::path::Path;
use std::process::Command;

use test_phone::{AdbServer, App, PhoneSpec, TestPhone};
use test_support::art::{art, ArtApp};

const DEBUGGABLE: &str = "com.example.art";
const RELEASE: &str = "com.example.art.release";

fn apps() -> Vec<App> {
    let app = |package: &str, uid, debuggable| App {
        package: package.into(),
        uid,
        debuggable,
        large_heap: false,
        profileable: false,
    };
    vec![app(DEBUGGABLE, 10131, true), app(RELEASE, 10132, false)]
}

/// `Sessions` (tests/java/art/Sessions.java) on the real ART as `package`'s uid.
fn start(jar: &Path, package: &str, uid: u32, args: &[&str]) -> ArtApp {
    let mut app = test_support::art::App::new(package);
    app.uid = Some(uid);
    app.debuggable = package == DEBUGGABLE;
    let run = art().start(jar, "Sessions", args, &app);
    assert!(run.first_line.starts_with("ready "), "{}", run.first_line);
    assert_eq!(run.first_line.trim().trim_start_matches("ready "), run.pid.to_string());
    run
}

fn heaptui(server: &AdbServer, agents: &Path, xdg: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(args)
        .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
        .env("HEAPTUI_AGENT_DIR", agents)
        .env("XDG_DATA_HOME", xdg)
        // The runtime's library is libart.so.0 on this machine (libart.so on a phone).
        .env("HEAPTUI_FORK_ART_LIB", "libart.so.0")
        .env_remove("ANDROID_SERIAL")
        .output()
        .unwrap()
}

/// A stored dump's sidecar and the `Sessions$Session` instances `analyze` counts in it.
fn stored(out: &std::process::Output) -> (serde_json::Value, u64) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let side: serde_json::Value = serde_json::from_slice(&std::fs::read(format!("{path}.json")).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_heaptui"))
        .args(["analyze", &path, "--format", "json", "--top", "200"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let heaps: Vec<&str> = v["heaps"].as_array().unwrap().iter().map(|h| h["name"].as_str().unwrap()).collect();
    assert_eq!(heaps, ["app"], "a dump of this ART has its app heap only");
    let row = v["histogram"].as_array().unwrap().iter().find(|r| r["class"] == "Sessions$Session").cloned();
    (side, row.and_then(|r| r["instances"].as_u64()).unwrap_or(0))
}

#[test]
fn an_android_10_phone_monitors_and_dumps_real_art_apps() {
    let agents = test_phone::fork_agents();
    let dir = tempfile::tempdir().unwrap();
    let jar = art().compile(&["tests/java/art/Sessions.java"], dir.path());
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::android10_art(apps())).unwrap();
    phone.connect(server.0).unwrap();
    let serial = phone.serial();
    let xdg = dir.path().join("data");

    // An app whose heap grows by 2,000 sessions (about 2.2 MB) a second: the monitor's Java heap
    // is what the app measures of itself (Runtime's figures, through `dumpsys meminfo`, which the
    // agent asks every 5 s).
    let grower = start(&jar, RELEASE, 10132, &["2000", "2000"]);
    let out = heaptui(
        &server,
        agents.path(),
        &xdg,
        &["monitor", "-s", &serial, &grower.pid.to_string(), "--interval", "1", "--duration", "6", "--json"],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let samples: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|l| l["type"] == "sample")
        .collect();
    assert!(samples.len() >= 3, "{samples:?}");
    let used: Vec<u64> = samples.iter().map(|s| s["java_used"].as_u64().unwrap()).collect();
    for s in &samples {
        assert_eq!(s["sources"]["java_used"], "dumpsys", "{s}");
        assert!(s["rss"].as_u64().unwrap() > 10 << 20, "{s}");
    }
    // Not the fixed table the JVM apps get (45056 KiB), and growing as the app allocates.
    assert!(used.iter().all(|&u| u != 45056 * 1024), "{used:?}");
    assert!(used.last().unwrap() > &(used[0] + (1 << 20)), "{used:?}");
    drop(grower);

    // An app of 2,000 sessions that keeps ART collecting (a concurrent GC asked for every 20 ms,
    // garbage made without pause), dumped three ways while it runs.
    let debuggable = start(&jar, DEBUGGABLE, 10131, &["2000", "0", "20"]);
    let release = start(&jar, RELEASE, 10132, &["2000", "0", "20"]);
    let gcs = |pid: u32| {
        let text = test_support::art::request(pid, "stat art.gc.gc-count", None).unwrap();
        text.lines().next().unwrap().parse::<u64>().unwrap()
    };
    let before = gcs(debuggable.pid);

    // `am dumpheap`: ART writes into the descriptor `am` passed (any app: the shell may ask).
    let out =
        heaptui(&server, agents.path(), &xdg, &["dump", "-s", &serial, &release.pid.to_string(), "--method", "am"]);
    let (side, sessions) = stored(&out);
    assert_eq!((side["method"].as_str(), sessions), (Some("am"), 2000), "{side}");
    // Android 10's am has no -b: asked again without it, and the sidecar says so.
    assert!(side["no_pixels"].as_str().is_some_and(|w| w.contains("has no -b")), "{side}");

    // The fork dump, in the debuggable app, while ART collects.
    let out = heaptui(
        &server,
        agents.path(),
        &xdg,
        &["dump", "-s", &serial, &debuggable.pid.to_string(), "--method", "fork"],
    );
    let (side, sessions) = stored(&out);
    assert_eq!((side["method"].as_str(), sessions), (Some("fork"), 2000), "{side}");
    assert!(side["no_pixels"].as_str().is_some_and(|w| w.contains("fork dump cannot")), "{side}");
    assert!(gcs(debuggable.pid) > before + 10, "ART kept collecting");
    assert!(test_support::art::request(debuggable.pid, "gc", None).unwrap().ends_with("ok\n"), "the app still runs");

    // A release app: no run-as, so no fork dump, said plainly.
    let out =
        heaptui(&server, agents.path(), &xdg, &["dump", "-s", &serial, &release.pid.to_string(), "--method", "fork"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("debuggable"), "{err}");
    assert!(phone.leftovers().is_empty(), "{:?}", phone.leftovers());
}

/// `cmd activity attach-agent` on an ART app that is not debuggable: ActivityManager refuses it
/// (its exception, exit 255); on a debuggable one the app calls the library's `Agent_OnAttach`
/// with its runtime's `JavaVM*` (the fork dump's library writes its `.loaded` handshake).
#[test]
fn attach_agent_reaches_a_debuggable_art_app_only() {
    let dir = tempfile::tempdir().unwrap();
    let jar = art().compile(&["tests/java/art/Sessions.java"], dir.path());
    let server = AdbServer::start();
    let phone = TestPhone::start(PhoneSpec::android10_art(apps())).unwrap();
    phone.connect(server.0).unwrap();
    let release = start(&jar, RELEASE, 10132, &["10"]);
    let o = bridge_shell(&server, &phone, &format!("cmd activity attach-agent {} /nonexistent.so=x", release.pid));
    assert_eq!(o.0, 255, "{o:?}");
    assert!(o.1.contains("SecurityException: Process not debuggable: com.example.art.release"), "{o:?}");
}

/// `adb shell CMD` on the phone: exit code and output.
fn bridge_shell(server: &AdbServer, phone: &TestPhone, cmd: &str) -> (i32, String) {
    let out =
        Command::new("adb").args(["-P", &server.0.to_string(), "-s", &phone.serial(), "shell", cmd]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// `--method auto` on a debuggable app takes the fork dump first; when it fails (here the
/// library is told to look for a runtime library this process has not loaded) heaptui says why,
/// goes on with `am dumpheap` at once, and remembers the failure for this phone's build and ART
/// module: the next `auto` goes straight to `am`, saying why, and `doctor` shows the record.
#[test]
fn auto_goes_on_from_a_failed_fork_dump_and_remembers_the_phone() {
    let agents = test_phone::fork_agents();
    let dir = tempfile::tempdir().unwrap();
    let jar = art().compile(&["tests/java/art/Sessions.java"], dir.path());
    let server = AdbServer::start();
    let files = vec![("/apex/com.android.art/lib64/libart.so".to_string(), art().libart())];
    let phone = TestPhone::start(PhoneSpec { files, ..PhoneSpec::android10_art(apps()) }).unwrap();
    phone.connect(server.0).unwrap();
    let serial = phone.serial();
    let app = start(&jar, DEBUGGABLE, 10131, &["2000"]);
    let xdg = dir.path().join("data");
    let dump = || {
        Command::new(env!("CARGO_BIN_EXE_heaptui"))
            .args(["dump", "-s", &serial, &app.pid.to_string()])
            .env("ANDROID_ADB_SERVER_PORT", server.0.to_string())
            .env("HEAPTUI_AGENT_DIR", agents.path())
            .env("XDG_DATA_HOME", &xdg)
            .env("HEAPTUI_FORK_ART_LIB", "libart.so")
            .env_remove("ANDROID_SERIAL")
            .output()
            .unwrap()
    };
    let started = std::time::Instant::now();
    let out = dump();
    let (side, sessions) = stored(&out);
    assert_eq!((side["method"].as_str(), sessions), (Some("am"), 2000), "{side}");
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(said.contains("the fork dump failed") && said.contains("libart.so is not loaded"), "{said}");
    assert!(said.contains("--method auto goes on with am") && said.contains("the app pauses"), "{said}");
    assert!(started.elapsed() < std::time::Duration::from_secs(60), "{:?}", started.elapsed());
    let record = xdg.join("heaptui/phones.json");
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&record).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    let f = &kept["failures"][0];
    assert_eq!(
        (f["method"].as_str(), f["art_module"].as_str()),
        (Some("fork"), Some("com.android.art 341311000")),
        "{kept}"
    );
    assert!(f["fingerprint"].as_str().unwrap().contains("heaptui_test_phone_art"), "{kept}");

    // Again: straight to am, saying why.
    let out = dump();
    let (side, _) = stored(&out);
    assert_eq!(side["method"], "am");
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(said.contains("failed on this phone before"), "{said}");
    assert!(!said.contains("goes on with"), "the fork dump was not tried again: {said}");

    // doctor shows what decided: the runtime's symbols, its module, and this phone's record.
    let out = heaptui(&server, agents.path(), &xdg, &["doctor", "-s", &serial, "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["fork"]["runtime"], forkdump::plan::Generation::Art8To10.name(), "{v}");
    assert_eq!(v["fork"]["evidence"]["symbol"], forkdump::art::DBG_SUSPEND);
    assert_eq!(v["art_module"], "com.android.art 341311000");
    assert_eq!(v["failed_here"][0]["method"], "fork", "{v}");
}

/// Pixel (x, y) of the Bitmap at native pointer `ptr` in `Pictures`, as `Bitmap.pixel`
/// (tests/java/art/android/graphics/Bitmap.java) makes it: RGBA.
fn known_pixel(ptr: i64, x: u32, y: u32) -> [u8; 4] {
    let h = (x as i32).wrapping_mul(73856093) ^ (y as i32).wrapping_mul(19349663) ^ (ptr as i32).wrapping_mul(83492791);
    let p = (h as u32 & 0xFFFF_FF00) | 0xFF;
    p.to_be_bytes()
}

/// A Bitmap's native pointer and its picture's RGBA pixels, or why it has none.
type Found = (i64, Result<Vec<u8>, String>);

/// `am dumpheap -b png` on a phone whose `am` takes it (Android 15's `am`, in front of ART 10:
/// `-b` is the framework's work in the app, not the runtime's): the app compresses each of its
/// Bitmaps into `Bitmap.dumpData` before ART dumps, and the default strip (`triage`) keeps those
/// PNGs though each is longer than the 256 elements it keeps of other arrays. `redact` drops
/// them; `--no-bitmaps` does not ask; the Android 10 phone's `am` has no `-b`, said so.
#[test]
fn bitmap_pixels_come_through_the_default_strip() {
    use heap::bitmap::Picture;
    let agents = test_phone::fork_agents();
    let dir = tempfile::tempdir().unwrap();
    let jar =
        art().compile(&["tests/java/art/Pictures.java", "tests/java/art/android/graphics/Bitmap.java"], dir.path());
    let server = AdbServer::start();
    let spec = PhoneSpec { sdk: 35, am_bitmaps: true, ..PhoneSpec::android10_art(apps()) };
    let phone = TestPhone::start(spec).unwrap();
    phone.connect(server.0).unwrap();
    let serial = phone.serial();
    let xdg = dir.path().join("data");
    let mut app = test_support::art::App::new(RELEASE);
    app.uid = Some(10132);
    let run = art().start(&jar, "Pictures", &[], &app);
    assert!(run.first_line.starts_with("ready "), "{}", run.first_line);
    let pid = run.pid.to_string();

    // Each Bitmap's picture in the stored dump, by native pointer: the PNG's pixels, or why none.
    let pictures = |out: &std::process::Output| -> (serde_json::Value, Vec<Found>) {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let side: serde_json::Value = serde_json::from_slice(&std::fs::read(format!("{path}.json")).unwrap()).unwrap();
        let heap = heap::Heap::open(Path::new(&path), heap::Options::default()).unwrap();
        let class = heap.index.classes_named("android.graphics.Bitmap").next().expect("the app's Bitmap class");
        let mut found: Vec<Found> = heap
            .index
            .nodes()
            .filter(|&n| heap.index.class_of(n) == class)
            .map(|n| {
                let ptr = heap.index.field(n, "mNativePtr").and_then(|v| v.as_i64()).unwrap();
                let picture = match heap.bitmap(n).unwrap() {
                    Ok(Picture::Encoded { bytes, .. }) => image::load_from_memory(&bytes)
                        .map(|i| i.to_rgba8().into_raw())
                        .map_err(|e| format!("{} bytes that do not decode: {e}", bytes.len())),
                    Ok(other) => Err(format!("not ART's encoded picture: {other:?}")),
                    Err(why) => Err(why),
                };
                (ptr, picture)
            })
            .collect();
        found.sort_by_key(|f| f.0);
        (side, found)
    };
    let sizes = [(0x7f0001000, 64, 48), (0x7f0002000, 32, 32), (0x7f0003000, 20, 10)];

    // The default: triage, with pixels. Every pixel is the one the app's function made.
    let out = heaptui(&server, agents.path(), &xdg, &["dump", "-s", &serial, &pid, "--method", "am"]);
    let (side, found) = pictures(&out);
    assert_eq!((side["mode"].as_str(), side.get("no_pixels")), (Some("triage"), None), "{side}");
    assert_eq!(found.len(), 3, "{found:?}");
    for ((ptr, picture), (want_ptr, w, h)) in found.iter().zip(sizes) {
        assert_eq!(*ptr, want_ptr);
        let rgba = picture.as_ref().unwrap_or_else(|why| panic!("Bitmap {ptr:#x}: {why}"));
        let want: Vec<u8> = (0..h).flat_map(|y| (0..w).flat_map(move |x| known_pixel(want_ptr, x, y))).collect();
        assert!(*rgba == want, "Bitmap {ptr:#x}: its pixels are not the app's");
    }

    // redact: the pictures may be a user's photos, so their bytes go (restored as zeros).
    let out =
        heaptui(&server, agents.path(), &xdg, &["dump", "-s", &serial, &pid, "--method", "am", "--mode", "redact"]);
    let (_, found) = pictures(&out);
    assert!(found.len() == 3 && found.iter().all(|f| f.1.is_err()), "{found:?}");

    // --no-bitmaps: the app is not asked; the dump has no dumpData, and the sidecar says why.
    let out = heaptui(&server, agents.path(), &xdg, &["dump", "-s", &serial, &pid, "--method", "am", "--no-bitmaps"]);
    let (side, found) = pictures(&out);
    assert!(side["no_pixels"].as_str().unwrap().contains("not asked"), "{side}");
    assert!(found.iter().all(|f| f.1.as_ref().is_err_and(|w| w.contains("am dumpheap -b"))), "{found:?}");
    drop(run);
    assert!(phone.leftovers().is_empty(), "{:?}", phone.leftovers());
}
