//! **A test double of an Android phone**: the device end of the adb protocol, for tests that need
//! the real adb server (Debian `adb`) to talk to "a phone" on a machine that has none.
//!
//! The real server connects to it after `adb connect 127.0.0.1:PORT`, as it does to a phone over
//! Wi-Fi. It answers CNXN without authentication and serves `shell:` (v1), `shell,v2,…:` (shell
//! protocol v2: stdout, stderr, exit code, stdin), `exec:`, `sync:` (STAT, LIST, SEND, RECV) and
//! the forwarding services `tcp:PORT` and `localabstract:NAME`. Commands run under `sh -c` on
//! this machine, in a sandbox: the phone's `/data/local/tmp` is a temporary directory (the path is
//! mapped in commands and file transfers), and its `PATH` starts with test doubles of Android's
//! `getprop` and `dumpsys` that print fixed values, of `am dumpheap` (which dumps a local JVM
//! with `jcmd`), of `run-as` (no user switch) and of `cmd activity attach-agent` (a JVM loads the
//! JVMTI agent through `jcmd JVMTI.agent_load`). Processes are this machine's: a local JVM is
//! "an app on the phone".
//!
//! **A strict phone** (`PhoneSpec::shell_uid`) runs every command as adb's `shell` user does on a
//! real phone, under a uid that is not root and not the app's: an app (a JVM started under its
//! own uid, named after its package) then keeps its `/proc/<pid>/fd`, `smaps_rollup` and `exe` to
//! itself, exactly as on Android. Its `am`, `cmd` and `run-as` are served by the phone's system
//! side ([`system`]), `run-as` only for an app its spec marks debuggable, and `dumpsys package`
//! prints each app's flags. Making processes of two uids needs root: a strict phone refuses to
//! start without it.
//!
//! What it does not do: TLS, authentication, `root:`/`remount:`, `abb`, pty shells.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::panic))]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

mod system;
pub use system::App;

const A_CNXN: u32 = 0x4e58_4e43;
const A_OPEN: u32 = 0x4e45_504f;
const A_OKAY: u32 = 0x5941_4b4f;
const A_CLSE: u32 = 0x4553_4c43;
const A_WRTE: u32 = 0x4554_5257;
const A_VERSION: u32 = 0x0100_0001;
const MAX_DATA: u32 = 256 * 1024;

/// The device path that the sandbox stands for.
pub const DEVICE_TMP: &str = "/data/local/tmp";

/// How the phone presents itself.
#[derive(Debug, Clone)]
pub struct PhoneSpec {
    /// `ro.product.model`.
    pub model: String,
    /// `ro.product.cpu.abi` (`x86_64`: this machine runs what is pushed to it).
    pub abi: String,
    /// `ro.product.cpu.abilist` (Android 5 and later), most preferred first; empty: not set
    /// (older releases).
    pub abi_list: String,
    /// `ro.build.version.sdk`.
    pub sdk: u32,
    /// `dalvik.vm.heapgrowthlimit`.
    pub heap_growth_limit: String,
    /// `dalvik.vm.heapsize` (a `largeHeap` app's limit).
    pub heap_size: String,
    /// The uid its shell runs as: `None` runs commands as this test's own user (root on CI),
    /// `Some(2000)` as adb's `shell` user on a phone (a strict phone; needs root to set up).
    pub shell_uid: Option<u32>,
    /// The apps its package manager knows (`dumpsys package`, `run-as`).
    pub apps: Vec<App>,
    /// What its adbd offers (the CNXN banner's `features=`): without `shell_v2` (adbd before
    /// Android 7) it refuses `shell,v2,…:` services and runs `shell:` on a pty (LF → CRLF).
    pub features: Vec<String>,
    /// Android 6's toolbox: `mv` takes no options, and there is no `sha256sum`.
    pub toolbox: bool,
    /// Whether its `am dumpheap` takes `-g` (some releases answer `Unknown option: -g`).
    pub am_gc: bool,
    /// Whether its `am dumpheap` takes `-b FORMAT` (Android 15 added it): an ART app then runs
    /// `Bitmap.dumpAll(FORMAT)` before it dumps, as ActivityThread.handleDumpHeap does.
    pub am_bitmaps: bool,
    /// A CPU this machine does not have: ARM executables pushed to it run under this qemu-user
    /// emulator (`qemu-aarch64-static` for an arm64 phone, `qemu-arm-static` for a 32-bit ARM
    /// one, which then refuses an arm64 executable as such a phone does).
    pub emulator: Option<String>,
    /// A pause after each 64 KiB a pull sends (a slow cable, to cut mid-transfer).
    pub recv_delay_ms: u64,
    /// A trace the `perfetto` double writes in place of the app's heap graph: a hostile phone's
    /// (read when perfetto runs, so a test can write it once it knows the app's pid).
    pub perfetto_trace: Option<PathBuf>,
    /// Shell lines `getprop` runs before it answers: a hostile phone's (`yes &` floods the stream
    /// after the command ends, as a job left behind would).
    pub getprop_prefix: String,
    /// The bytes a pull's sync `DATA` frames carry: 64 KiB as adbd sends them; more is a hostile
    /// phone's (AOSP's adb client refuses a frame over 64 KiB).
    pub recv_frame: usize,
    /// The phone's own files outside `/data/local/tmp`, each a device path and the local file
    /// standing for it (its `libart.so`, say), mapped in commands and file transfers alike.
    pub files: Vec<(String, PathBuf)>,
    /// Its `perfetto`, by the test's stand-in for ART's heap graphs (the `perfetto-double`
    /// program); `None`: a phone without perfetto.
    pub perfetto: Option<PathBuf>,
    /// The version code of its ART module (`com.android.art`), as `pm list packages --apex-only
    /// --show-versioncode` says it (Android 10 and later).
    pub art_module: u64,
}

impl PhoneSpec {
    /// `text` with each of [`PhoneSpec::files`]' device paths replaced by its local file.
    fn map_paths(&self, text: &str) -> String {
        self.files
            .iter()
            .fold(text.to_string(), |t, (device, local)| t.replace(device.as_str(), &local.to_string_lossy()))
    }
}

impl Default for PhoneSpec {
    fn default() -> Self {
        PhoneSpec {
            model: "heaptui_test_phone".into(),
            abi: "x86_64".into(),
            abi_list: "x86_64,x86".into(),
            sdk: 30,
            heap_growth_limit: "256m".into(),
            heap_size: "512m".into(),
            shell_uid: None,
            apps: Vec::new(),
            features: vec!["shell_v2".into(), "cmd".into()],
            toolbox: false,
            am_gc: true,
            am_bitmaps: false,
            emulator: None,
            recv_delay_ms: 0,
            recv_frame: 64 * 1024,
            getprop_prefix: String::new(),
            perfetto_trace: None,
            files: Vec::new(),
            perfetto: None,
            art_module: 341_311_000,
        }
    }
}

impl PhoneSpec {
    /// A strict phone ([`PhoneSpec::shell_uid`] 2000) of Android 6.0 (API 23) on x86_64: adbd
    /// without shell protocol v2, toolbox's `mv`, no `sha256sum`, an `am` without `-g`.
    pub fn android6(apps: Vec<App>) -> PhoneSpec {
        PhoneSpec {
            model: "heaptui_test_phone_m".into(),
            sdk: 23,
            abi_list: "x86_64,x86".into(),
            shell_uid: Some(2000),
            apps,
            features: vec!["cmd".into()],
            toolbox: true,
            am_gc: false,
            ..PhoneSpec::default()
        }
    }

    /// A strict phone of Android 10 (API 29) with a 32-bit userspace: ABI list `x86` only (a 32-bit
    /// emulator image; this machine runs the 32-bit agent natively).
    pub fn android10_32bit(apps: Vec<App>) -> PhoneSpec {
        PhoneSpec {
            model: "heaptui_test_phone_q32".into(),
            sdk: 29,
            abi: "x86".into(),
            abi_list: "x86".into(),
            shell_uid: Some(2000),
            apps,
            ..PhoneSpec::default()
        }
    }

    /// A strict phone of Android 10 (API 29) on x86_64 whose apps may be real ART processes
    /// (`test_support::art`: Android 10's runtime, as its apps run it): the system side asks
    /// those apps themselves for their dumps, agents and meminfo.
    pub fn android10_art(apps: Vec<App>) -> PhoneSpec {
        PhoneSpec {
            model: "heaptui_test_phone_art".into(),
            sdk: 29,
            abi: "x86_64".into(),
            abi_list: "x86_64,x86".into(),
            shell_uid: Some(2000),
            apps,
            ..PhoneSpec::default()
        }
    }

    /// A strict phone of Android 14 (API 34) on arm64: the agent pushed to it is the aarch64
    /// build, which runs under `qemu-aarch64-static`.
    pub fn android14_arm64(apps: Vec<App>) -> PhoneSpec {
        PhoneSpec {
            model: "heaptui_test_phone_u".into(),
            sdk: 34,
            abi: "arm64-v8a".into(),
            abi_list: "arm64-v8a,armeabi-v7a,armeabi".into(),
            shell_uid: Some(2000),
            apps,
            emulator: Some("qemu-aarch64-static".into()),
            ..PhoneSpec::default()
        }
    }

    /// A strict phone of Android 8.1 Go edition (API 27) with a 32-bit ARM userspace, as cheap
    /// phones ship: ABI list `armeabi-v7a,armeabi`, smaller heap limits, an `am` without `-g`
    /// (AOSP's `am dumpheap` has it from Android 9, beside `-m`). The agent pushed to it is the
    /// armv7 build, which runs under `qemu-arm-static`.
    pub fn android_go_armv7(apps: Vec<App>) -> PhoneSpec {
        PhoneSpec {
            model: "heaptui_test_phone_go".into(),
            sdk: 27,
            abi: "armeabi-v7a".into(),
            abi_list: "armeabi-v7a,armeabi".into(),
            heap_growth_limit: "128m".into(),
            heap_size: "256m".into(),
            shell_uid: Some(2000),
            apps,
            am_gc: false,
            emulator: Some("qemu-arm-static".into()),
            ..PhoneSpec::default()
        }
    }
}

/// A running test phone. Dropping it disconnects it from the adb server it was connected to.
pub struct TestPhone {
    port: u16,
    sandbox: tempfile::TempDir,
    adb_port: Mutex<Option<u16>>,
    links: Arc<Mutex<Vec<TcpStream>>>,
    gone: Arc<AtomicBool>,
    /// Stops the system side of a strict phone.
    stop: Arc<AtomicBool>,
}

impl TestPhone {
    /// Starts a phone listening on a free port of 127.0.0.1.
    pub fn start(spec: PhoneSpec) -> std::io::Result<TestPhone> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let sandbox = tempfile::Builder::new().prefix("heaptui-test-phone").tempdir()?;
        std::fs::create_dir_all(sandbox.path().join("tmp"))?;
        write_tools(&sandbox.path().join("bin"), &spec)?;
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(uid) = spec.shell_uid {
            strict_layout(sandbox.path(), uid)?;
            let (root, spec, stop) = (sandbox.path().to_path_buf(), spec.clone(), stop.clone());
            thread::spawn(move || system::serve(root, spec, stop));
        }
        let links: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let gone = Arc::new(AtomicBool::new(false));
        let root = sandbox.path().to_path_buf();
        let (l2, g2) = (links.clone(), gone.clone());
        thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                if g2.load(Ordering::SeqCst) {
                    let _ = conn.shutdown(Shutdown::Both);
                    continue;
                }
                if let Ok(c) = conn.try_clone() {
                    l2.lock().unwrap_or_else(PoisonError::into_inner).push(c);
                }
                let (root, spec) = (root.clone(), spec.clone());
                thread::spawn(move || {
                    let _ = Link::serve(conn, root, spec);
                });
            }
        });
        Ok(TestPhone { port, sandbox, adb_port: Mutex::new(None), links, gone, stop })
    }

    /// The serial the adb server will know it by (`127.0.0.1:PORT`).
    pub fn serial(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// The directory standing for the phone's `/data/local/tmp`.
    pub fn tmp_dir(&self) -> PathBuf {
        self.sandbox.path().join("tmp")
    }

    /// What was pushed to the phone's `/data/local/tmp/<name>`: the program itself where the phone
    /// keeps it aside for its emulator ([`PhoneSpec::emulator`]); `None` when nothing is there.
    pub fn received(&self, name: &str) -> Option<Vec<u8>> {
        let bytes = std::fs::read(self.tmp_dir().join(name)).ok()?;
        let text = String::from_utf8_lossy(&bytes);
        if !text.starts_with("#!/bin/sh\n# The test phone's CPU: ") {
            return Some(bytes);
        }
        // `exec EMULATOR 'PATH' "$@"`: the last quoted word.
        let real = text.rsplit('\'').nth(1)?;
        std::fs::read(real).ok()
    }

    /// Files in the phone's `/data/local/tmp` other than heaptui's agent: what a dump left behind.
    pub fn leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.tmp_dir())
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().to_string())
                    .filter(|n| n != "heaptui-agent")
                    .collect()
            })
            .unwrap_or_default()
    }

    /// `adb -P ADB_PORT connect 127.0.0.1:PORT`, then waits until the server lists it as `device`.
    pub fn connect(&self, adb_port: u16) -> std::io::Result<()> {
        let out = Command::new("adb").args(["-P", &adb_port.to_string(), "connect", &self.serial()]).output()?;
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        if !text.contains("connected to") {
            return Err(std::io::Error::other(format!("adb connect: {text}{}", String::from_utf8_lossy(&out.stderr))));
        }
        *self.adb_port.lock().unwrap_or_else(PoisonError::into_inner) = Some(adb_port);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            let out = Command::new("adb").args(["-P", &adb_port.to_string(), "devices"]).output()?;
            let listing = String::from_utf8_lossy(&out.stdout);
            if listing.lines().any(|l| l.starts_with(&self.serial()) && l.ends_with("device")) {
                return Ok(());
            }
            thread::sleep(Duration::from_millis(50));
        }
        Err(std::io::Error::other("the adb server did not list the test phone as a device within 10 s"))
    }

    /// The phone goes away (cable pulled): every connection to it is cut and new ones refused.
    pub fn go_away(&self) {
        self.gone.store(true, Ordering::SeqCst);
        for c in self.links.lock().unwrap_or_else(PoisonError::into_inner).drain(..) {
            let _ = c.shutdown(Shutdown::Both);
        }
    }
}

impl Drop for TestPhone {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.go_away();
        if let Some(p) = *self.adb_port.lock().unwrap_or_else(PoisonError::into_inner) {
            let _ = Command::new("adb").args(["-P", &p.to_string(), "disconnect", &self.serial()]).output();
        }
    }
}

/// A strict phone's directories, with a phone's owners and modes: `/data/local/tmp` is the shell
/// user's (`0771`), the rest the system's, and the binder spool open for calls (`1733`).
fn strict_layout(root: &Path, shell: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if unsafe { libc_geteuid() } != 0 {
        return Err(std::io::Error::other(
            "a strict test phone runs its shell and its apps under two uids, which needs root: run the tests as root",
        ));
    }
    let mode = |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
    mode(root, 0o755)?;
    mode(&root.join("bin"), 0o755)?;
    std::os::unix::fs::chown(root.join("tmp"), Some(shell), Some(shell))?;
    mode(&root.join("tmp"), 0o771)?;
    for (dir, m) in [("binder", 0o1733), ("data", 0o771), ("system", 0o711)] {
        std::fs::create_dir_all(root.join(dir))?;
        mode(&root.join(dir), m)?;
    }
    Ok(())
}

extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}

/// Test doubles of Android's `getprop` and `dumpsys meminfo` (fixed values; the real ones need
/// Android's property service and system server).
fn write_tools(bin: &Path, spec: &PhoneSpec) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(bin)?;
    let abis = |wide: bool| -> String {
        let is_64 = |a: &&str| matches!(*a, "arm64-v8a" | "x86_64");
        spec.abi_list.split(',').filter(|a| is_64(a) == wide).collect::<Vec<_>>().join(",")
    };
    let props = [
        ("ro.product.model", spec.model.clone()),
        ("ro.product.cpu.abi", spec.abi.clone()),
        ("ro.product.cpu.abilist", spec.abi_list.clone()),
        ("ro.product.cpu.abilist64", abis(true)),
        ("ro.product.cpu.abilist32", abis(false)),
        ("ro.build.version.sdk", spec.sdk.to_string()),
        ("ro.build.fingerprint", format!("heaptui/{m}/{m}:{}/TEST/1:userdebug/test-keys", spec.sdk, m = spec.model)),
        ("dalvik.vm.heapgrowthlimit", spec.heap_growth_limit.clone()),
        ("dalvik.vm.heapsize", spec.heap_size.clone()),
    ];
    let mut getprop =
        format!("#!/bin/sh\n# Test double of Android's getprop.\n{}\ncase \"$1\" in\n", spec.getprop_prefix);
    for (k, v) in &props {
        getprop.push_str(&format!("  {k}) echo '{v}' ;;\n"));
    }
    getprop.push_str("  '') ");
    for (k, v) in &props {
        getprop.push_str(&format!("echo '[{k}]: [{v}]'; "));
    }
    getprop.push_str(";;\n  *) echo ;;\nesac\n");
    // Android 10's layout; the Dalvik Heap row says 45056 KiB allocated of a 49152 KiB heap.
    // `dumpsys package PKG`: the package manager's block for each app of the spec, with the
    // flags line the agent reads (`Settings.dumpPackageLPr`'s layout).
    let mut packages = String::new();
    for app in &spec.apps {
        let mut flags = vec!["HAS_CODE", "ALLOW_CLEAR_USER_DATA"];
        if app.debuggable {
            flags.insert(0, "DEBUGGABLE");
        }
        if app.large_heap {
            flags.push("LARGE_HEAP");
        }
        let private = if app.profileable || app.debuggable { "PROFILEABLE_BY_SHELL " } else { "" };
        packages.push_str(&format!(
            "  {pkg}) printf 'Packages:\\n  Package [{pkg}] (5f1a2b3):\\n    userId={uid}\\n    flags=[ {flags} ]\\n    privateFlags=[ {private}]\\n' ;;\n",
            pkg = app.package,
            uid = app.uid,
            flags = flags.join(" ")
        ));
    }
    // `dumpsys meminfo PID`: on a strict phone the system side answers (a real ART app measures
    // itself); elsewhere the fixed table of `system::JVM_MEMINFO`.
    let meminfo = if spec.shell_uid.is_some() {
        "exec \"$(dirname \"$0\")/binder\" dumpsys \"$@\"\n".to_string()
    } else {
        format!(
            "[ -d \"/proc/$2\" ] || {{ echo \"No process found for: $2\"; exit 0; }}\n\
cat <<EOF\nApplications Memory Usage (in Kilobytes):\n{}EOF\n",
            system::JVM_MEMINFO
        )
    };
    let dumpsys = format!(
        "#!/bin/sh\n# Test double of Android's dumpsys (meminfo, package flags).\n\
if [ \"$1\" = package ]; then\n  case \"$2\" in\n{packages}  *) echo \"Unable to find package: $2\" ;;\n  esac\n  exit 0\nfi\n\
[ \"$1\" = meminfo ] || exit 1\n{meminfo}"
    );
    // `am dumpheap [-g] PID FILE`, an am of before Android 15 (no `-b`): the "app" here is a local JVM, so jcmd writes its dump (after
    // a GC with -g, as ART does; every object without it).
    let am = "#!/bin/sh\n# Test double of Android's am (dumpheap only), dumping a local JVM with jcmd.\n\
[ \"$1\" = dumpheap ] || { echo \"am: only dumpheap here\" >&2; exit 1; }\n\
shift; all=-all\n\
[ \"$1\" = -g ] && [ -n \"$HEAPTUI_TEST_PHONE_NO_AM_GC\" ] && { echo 'Error: Unknown option: -g' >&2; exit 1; }\n\
[ \"$1\" = -g ] && { all=; shift; }\n\
[ \"$1\" = -b ] && { echo 'Error: Unknown option: -b' >&2; exit 1; }\n\
exec jcmd \"$1\" GC.heap_dump $all \"$2\" >/dev/null\n"
        .to_string();
    // `run-as PKG CMD...`: runs CMD in the app's data directory (here a directory of the sandbox;
    // no user switch).
    let data = bin.parent().map(|r| r.join("data")).unwrap_or_default();
    let run_as = format!(
        "#!/bin/sh\n# Test double of Android's run-as (no user switch).\n\
pkg=$1; shift\n\
mkdir -p '{data}'/\"$pkg\" && cd '{data}'/\"$pkg\" && exec \"$@\"\n",
        data = data.display()
    );
    // `cmd activity attach-agent PROC LIB=OPTIONS`: a JVM loads a JVMTI agent through HotSpot's
    // attach protocol (`jcmd PID JVMTI.agent_load`), and calls its Agent_OnAttach as ART would.
    // (jcmd splits an argument at `=` unless it is quoted.)
    let cmd =
        "#!/bin/sh\n# Test double of Android's cmd (activity attach-agent only), loading a JVMTI agent into a JVM.\n\
[ \"$1 $2\" = \"activity attach-agent\" ] || { echo \"cmd: only activity attach-agent here\" >&2; exit 1; }\n\
spec=$4; lib=${spec%%=*}; opts=${spec#*=}\n\
# Android's answers 0 whether or not the app loads the agent (it loads it later, on its main thread).\n\
jcmd \"$3\" JVMTI.agent_load \"$lib\" \"\\\"$opts\\\"\" >/dev/null 2>&1\n\
exit 0\n"
            .to_string();
    let (am, run_as, cmd) = match spec.shell_uid {
        None => (am, run_as, cmd),
        // A strict phone's shell cannot act as the app: the system side does.
        Some(_) => {
            let via = |name: &str| format!("#!/bin/sh\nexec \"$(dirname \"$0\")/binder\" {name} \"$@\"\n");
            (via("am"), via("run-as"), via("cmd"))
        }
    };
    if spec.toolbox {
        // Android 6's toolbox: `mv` takes no options (AOSP's toolbox mv.c exits 255 on one), and
        // there is no `sha256sum`.
        let mv = "#!/bin/sh\n# Test double of Android 6's toolbox mv.\n\
case \"$1\" in -*) echo \"mv: invalid option -- '${1#-}'\" >&2; exit 255 ;; esac\n\
exec /bin/mv \"$@\"\n";
        let sha = "#!/bin/sh\necho \"/system/bin/sh: sha256sum: not found\" >&2\nexit 127\n";
        for (name, text) in [("mv", mv), ("sha256sum", sha)] {
            let p = bin.join(name);
            std::fs::write(&p, text)?;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    let binder = system::CLIENT.to_string();
    // `perfetto --txt -c - -o OUT`: the test's stand-in for ART's java_hprof data source
    // ([`PhoneSpec::perfetto`]); a phone without it answers as one without perfetto does. On a
    // strict phone the shell cannot make the app dump: the system side runs the stand-in as the
    // app, as ART runs in the app.
    let perfetto = match (&spec.perfetto, spec.shell_uid) {
        (None, _) => "#!/bin/sh\necho \"/system/bin/sh: perfetto: not found\" >&2\nexit 127\n".to_string(),
        (Some(double), None) => format!(
            "#!/bin/sh\n# Test double of Android's perfetto (java_hprof only).\nexec '{}' \"$@\"\n",
            double.display()
        ),
        (Some(_), Some(_)) => "#!/bin/sh\nexec \"$(dirname \"$0\")/binder\" --stdin perfetto \"$@\"\n".to_string(),
    };
    // `pm list packages --apex-only --show-versioncode`: the phone's modules from Android 10 on
    // (`pm` takes no --apex-only before).
    let pm = if spec.sdk >= 29 {
        format!(
            "#!/bin/sh\n# Test double of Android's pm (the APEX list only).\n\
[ \"$1 $2 $3\" = \"list packages --apex-only\" ] || {{ echo \"pm: only list packages --apex-only here\" >&2; exit 1; }}\n\
echo package:com.android.tzdata versionCode:{sdk}0000000\n\
echo package:com.android.art versionCode:{art}\n\
echo package:com.android.runtime versionCode:1\n",
            sdk = spec.sdk,
            art = spec.art_module
        )
    } else {
        "#!/bin/sh\necho \"Error: Unknown option: --apex-only\" >&2\nexit 1\n".to_string()
    };
    for (name, text) in [
        ("getprop", getprop),
        ("pm", pm),
        ("dumpsys", dumpsys),
        ("am", am),
        ("run-as", run_as),
        ("cmd", cmd),
        ("binder", binder),
        ("perfetto", perfetto),
    ] {
        let p = bin.join(name);
        std::fs::write(&p, text)?;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

struct Message {
    cmd: u32,
    arg0: u32,
    arg1: u32,
    data: Vec<u8>,
}

fn read_message(r: &mut impl Read) -> std::io::Result<Message> {
    let mut h = [0u8; 24];
    r.read_exact(&mut h)?;
    let w = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    let (cmd, arg0, arg1, len, magic) = (w(0), w(4), w(8), w(12), w(20));
    if magic != cmd ^ 0xffff_ffff {
        return Err(std::io::Error::other("bad adb message magic"));
    }
    if len > 16 << 20 {
        return Err(std::io::Error::other("adb message too long"));
    }
    let mut data = vec![0u8; len as usize];
    r.read_exact(&mut data)?;
    Ok(Message { cmd, arg0, arg1, data })
}

/// One stream's state seen from the writer's side: may another WRTE go out (the peer acknowledged
/// the last one)?
struct Window {
    ready: Mutex<Option<bool>>,
    cv: Condvar,
}

/// The device end of one transport connection.
/// A stream's inbox (bytes the host wrote) and its window.
type Streams = HashMap<u32, (Sender<Vec<u8>>, Arc<Window>)>;

struct Link {
    out: Mutex<TcpStream>,
    max_data: AtomicU32,
    next_id: AtomicU32,
    streams: Mutex<Streams>,
}

impl Link {
    fn send(&self, cmd: u32, arg0: u32, arg1: u32, data: &[u8]) -> std::io::Result<()> {
        let mut m = Vec::with_capacity(24 + data.len());
        for v in [cmd, arg0, arg1, data.len() as u32, 0, cmd ^ 0xffff_ffff] {
            m.extend_from_slice(&v.to_le_bytes());
        }
        m.extend_from_slice(data);
        self.out.lock().unwrap_or_else(PoisonError::into_inner).write_all(&m)
    }

    fn serve(conn: TcpStream, root: PathBuf, spec: PhoneSpec) -> std::io::Result<()> {
        let mut input = conn.try_clone()?;
        let link = Arc::new(Link {
            out: Mutex::new(conn),
            max_data: AtomicU32::new(MAX_DATA),
            next_id: AtomicU32::new(1),
            streams: Mutex::default(),
        });
        let result = link.clone().pump(&mut input, root, spec);
        // The connection is gone: every stream ends.
        for (_, (_, w)) in link.streams.lock().unwrap_or_else(PoisonError::into_inner).drain() {
            *w.ready.lock().unwrap_or_else(PoisonError::into_inner) = None;
            w.cv.notify_all();
        }
        result
    }

    fn pump(self: Arc<Self>, input: &mut TcpStream, root: PathBuf, spec: PhoneSpec) -> std::io::Result<()> {
        loop {
            let m = read_message(input)?;
            match m.cmd {
                A_CNXN => {
                    self.max_data.store(m.arg1.clamp(4096, MAX_DATA), Ordering::SeqCst);
                    let banner = format!(
                        "device::ro.product.name=heaptui_test;ro.product.model={};ro.product.device=heaptui_test;features={}",
                        spec.model,
                        spec.features.join(",")
                    );
                    self.send(A_CNXN, A_VERSION, MAX_DATA, banner.as_bytes())?;
                }
                A_OPEN => {
                    let service = String::from_utf8_lossy(&m.data).trim_end_matches('\0').to_string();
                    let remote = m.arg0;
                    let local = self.next_id.fetch_add(1, Ordering::SeqCst);
                    let (tx, rx) = channel();
                    let window = Arc::new(Window { ready: Mutex::new(Some(true)), cv: Condvar::new() });
                    self.streams.lock().unwrap_or_else(PoisonError::into_inner).insert(local, (tx, window.clone()));
                    let io = StreamIo { link: self.clone(), local, remote, window, rx, pending: Vec::new() };
                    let (root, spec) = (root.clone(), spec.clone());
                    match open_service(&service, &root, &spec) {
                        Some(svc) => {
                            self.send(A_OKAY, local, remote, &[])?;
                            thread::spawn(move || {
                                let mut io = io;
                                let _ = svc.run(&mut io, &root, &spec);
                                io.close();
                            });
                        }
                        None => {
                            self.streams.lock().unwrap_or_else(PoisonError::into_inner).remove(&local);
                            self.send(A_CLSE, 0, remote, &[])?;
                        }
                    }
                }
                A_WRTE => {
                    let s = self
                        .streams
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .get(&m.arg1)
                        .map(|(tx, _)| tx.clone());
                    if let Some(tx) = s {
                        let _ = tx.send(m.data);
                        self.send(A_OKAY, m.arg1, m.arg0, &[])?;
                    }
                }
                A_OKAY => {
                    if let Some((_, w)) = self.streams.lock().unwrap_or_else(PoisonError::into_inner).get(&m.arg1) {
                        *w.ready.lock().unwrap_or_else(PoisonError::into_inner) = Some(true);
                        w.cv.notify_all();
                    }
                }
                A_CLSE => {
                    if let Some((_, w)) = self.streams.lock().unwrap_or_else(PoisonError::into_inner).remove(&m.arg1) {
                        *w.ready.lock().unwrap_or_else(PoisonError::into_inner) = None;
                        w.cv.notify_all();
                    }
                }
                _ => {}
            }
        }
    }
}

/// One stream as a service sees it: bytes from the host, bytes to the host (flow-controlled).
struct StreamIo {
    link: Arc<Link>,
    local: u32,
    remote: u32,
    window: Arc<Window>,
    rx: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl StreamIo {
    /// Writes to the host; false once the stream or the link is closed.
    fn write(&mut self, mut data: &[u8]) -> bool {
        let max = self.link.max_data.load(Ordering::SeqCst) as usize;
        while !data.is_empty() {
            {
                let mut ready = self.window.ready.lock().unwrap_or_else(PoisonError::into_inner);
                while *ready == Some(false) {
                    ready = self.window.cv.wait(ready).unwrap_or_else(PoisonError::into_inner);
                }
                if ready.is_none() {
                    return false;
                }
                *ready = Some(false);
            }
            let n = data.len().min(max);
            if self.link.send(A_WRTE, self.local, self.remote, &data[..n]).is_err() {
                return false;
            }
            data = &data[n..];
        }
        true
    }

    /// The next bytes from the host; `None` once it closed the stream.
    fn read_some(&mut self) -> Option<Vec<u8>> {
        if !self.pending.is_empty() {
            return Some(std::mem::take(&mut self.pending));
        }
        loop {
            match self.rx.recv_timeout(Duration::from_millis(200)) {
                Ok(d) => return Some(d),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if self.window.ready.lock().unwrap_or_else(PoisonError::into_inner).is_none() {
                        return None;
                    }
                }
                Err(_) => return None,
            }
        }
    }

    /// Exactly `n` bytes from the host.
    fn read_exact(&mut self, n: usize) -> Option<Vec<u8>> {
        let mut buf = Vec::with_capacity(n);
        while buf.len() < n {
            let mut d = self.read_some()?;
            let take = (n - buf.len()).min(d.len());
            buf.extend_from_slice(&d[..take]);
            if take < d.len() {
                self.pending = d.split_off(take);
            }
        }
        Some(buf)
    }

    fn close(&mut self) {
        let open = self.link.streams.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.local).is_some();
        if open {
            let _ = self.link.send(A_CLSE, self.local, self.remote, &[]);
        }
    }
}

enum Service {
    ShellV1(String),
    ShellV2(String),
    Exec(String),
    Sync,
    Tcp(u16),
    Abstract(String),
}

fn open_service(service: &str, root: &Path, spec: &PhoneSpec) -> Option<Service> {
    let tmp = root.join("tmp");
    let map = |c: &str| spec.map_paths(&c.replace(DEVICE_TMP, &tmp.to_string_lossy()));
    if let Some(rest) = service.strip_prefix("shell,") {
        if !spec.features.iter().any(|f| f == "shell_v2") {
            return None;
        }
        let (opts, cmd) = rest.split_once(':')?;
        return opts.split(',').any(|o| o == "v2").then(|| Service::ShellV2(map(cmd)));
    }
    if let Some(cmd) = service.strip_prefix("shell:") {
        return Some(Service::ShellV1(map(cmd)));
    }
    if let Some(cmd) = service.strip_prefix("exec:") {
        return Some(Service::Exec(map(cmd)));
    }
    if service == "sync:" {
        return Some(Service::Sync);
    }
    if let Some(p) = service.strip_prefix("tcp:") {
        return p.parse().ok().map(Service::Tcp);
    }
    service.strip_prefix("localabstract:").map(|n| Service::Abstract(n.to_string()))
}

fn command(cmd: &str, root: &Path, spec: &PhoneSpec) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c").arg(if cmd.is_empty() { "exit 0" } else { cmd });
    c.current_dir(root.join("tmp"));
    let path = std::env::var("PATH").unwrap_or_default();
    c.env("PATH", format!("{}:{path}", root.join("bin").display()));
    c.env("TMPDIR", root.join("tmp"));
    c.env("HEAPTUI_TEST_PHONE_BINDER", root.join("binder"));
    if !spec.am_gc {
        c.env("HEAPTUI_TEST_PHONE_NO_AM_GC", "1");
    }
    if let Some(trace) = &spec.perfetto_trace {
        c.env("HEAPTUI_TEST_PHONE_TRACE", trace);
    }
    if let Some(uid) = spec.shell_uid {
        use std::os::unix::process::CommandExt;
        c.uid(uid).gid(uid);
    }
    c
}

impl Service {
    fn run(self, io: &mut StreamIo, root: &Path, spec: &PhoneSpec) -> std::io::Result<()> {
        // adbd before Android 7 runs `shell:` on a pty, which turns LF into CRLF.
        let pty = matches!(&self, Service::ShellV1(_)) && !spec.features.iter().any(|f| f == "shell_v2");
        match self {
            Service::ShellV1(cmd) | Service::Exec(cmd) => {
                // One stream, in the order written: adbd gives the command a pty (shell:) or a
                // socket (exec:) for both its outputs.
                let mut child = command(&format!("exec 2>&1; {cmd}"), root, spec)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()?;
                let (tx, rx) = channel::<Vec<u8>>();
                let out = child.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>);
                let err = child.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>);
                // No shell protocol: stderr shares the stream with stdout (one pipe, above).
                for r in [out, err].into_iter().flatten() {
                    let tx = tx.clone();
                    thread::spawn(move || pipe_to(r, &tx, 0));
                }
                drop(tx);
                feed_stdin(io, child.stdin.take(), false);
                while let Ok(chunk) = rx.recv() {
                    let data = if pty { crlf(&chunk[1..]) } else { chunk[1..].to_vec() };
                    if !io.write(&data) {
                        let _ = child.kill();
                        break;
                    }
                }
                let _ = child.wait();
                Ok(())
            }
            Service::ShellV2(cmd) => {
                let mut child = command(&cmd, root, spec)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()?;
                let (tx, rx) = channel::<Vec<u8>>();
                let out = child.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>);
                let err = child.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>);
                let mut pumps = Vec::new();
                for (id, r) in [(1u8, out), (2u8, err)] {
                    if let Some(r) = r {
                        let tx = tx.clone();
                        pumps.push(thread::spawn(move || pipe_to(r, &tx, id)));
                    }
                }
                drop(tx);
                feed_stdin(io, child.stdin.take(), true);
                let mut broken = false;
                while let Ok(chunk) = rx.recv() {
                    let mut p = vec![chunk[0]];
                    p.extend_from_slice(&((chunk.len() - 1) as u32).to_le_bytes());
                    p.extend_from_slice(&chunk[1..]);
                    if !io.write(&p) {
                        // The host went away: adbd hangs the command up.
                        let _ = child.kill();
                        broken = true;
                        break;
                    }
                }
                let status = child.wait()?;
                if !broken {
                    let code = status.code().unwrap_or_else(|| {
                        use std::os::unix::process::ExitStatusExt;
                        128 + status.signal().unwrap_or(0)
                    });
                    let mut p = vec![3u8];
                    p.extend_from_slice(&1u32.to_le_bytes());
                    p.push(code as u8);
                    io.write(&p);
                }
                Ok(())
            }
            Service::Sync => sync(io, root, spec),
            Service::Tcp(port) => {
                let s = TcpStream::connect(("127.0.0.1", port))?;
                relay(io, Box::new(s.try_clone()?), Box::new(s))
            }
            Service::Abstract(name) => {
                use std::os::linux::net::SocketAddrExt;
                let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes())?;
                let s = std::os::unix::net::UnixStream::connect_addr(&addr)?;
                relay(io, Box::new(s.try_clone()?), Box::new(s))
            }
        }
    }
}

/// A file pushed to a phone whose CPU this machine lacks: an ARM executable (arm64 or 32-bit) is
/// kept aside and replaced by a script that runs it under the phone's qemu-user emulator (so its
/// `sha256sum` differs from the pushed file's, and the bridge pushes the agent every time).
fn emulated(root: &Path, spec: &PhoneSpec, data: Vec<u8>) -> std::io::Result<Vec<u8>> {
    use std::os::unix::fs::PermissionsExt;
    const EM_ARM: u16 = 40;
    const EM_AARCH64: u16 = 183;
    let Some(emulator) = &spec.emulator else { return Ok(data) };
    let foreign = data.len() > 20
        && data[..4] == *b"\x7fELF"
        && matches!(u16::from_le_bytes([data[18], data[19]]), EM_ARM | EM_AARCH64);
    if !foreign {
        return Ok(data);
    }
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = root.join("cpu");
    std::fs::create_dir_all(&dir)?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))?;
    let real = dir.join(format!("exe-{}", N.fetch_add(1, Ordering::SeqCst)));
    std::fs::write(&real, &data)?;
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o755))?;
    Ok(format!("#!/bin/sh\n# The test phone's CPU: {emulator}.\nexec {emulator} '{}' \"$@\"\n", real.display())
        .into_bytes())
}

/// What a pty's output processing (ONLCR) makes of `data`.
fn crlf(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 16);
    for &b in data {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// Reads `r` to its end, sending chunks tagged with `id` (their first byte).
fn pipe_to(mut r: Box<dyn Read + Send>, tx: &Sender<Vec<u8>>, id: u8) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match r.read(&mut buf[1..]) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                buf[0] = id;
                if tx.send(buf[..n + 1].to_vec()).is_err() {
                    return;
                }
            }
        }
    }
}

/// Copies what the host sends to the command's stdin on a thread of its own (shell v2: only the
/// stdin packets; a close-stdin packet or the end of the stream closes it).
fn feed_stdin(io: &mut StreamIo, stdin: Option<std::process::ChildStdin>, v2: bool) {
    let Some(mut stdin) = stdin else { return };
    // From now on the host's bytes are the command's.
    let rx = std::mem::replace(&mut io.rx, channel().1);
    let window = io.window.clone();
    thread::spawn(move || {
        let mut buf: Vec<u8> = Vec::new();
        loop {
            let data = match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(d) => d,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if window.ready.lock().unwrap_or_else(PoisonError::into_inner).is_none() {
                        return;
                    }
                    continue;
                }
                Err(_) => return,
            };
            if !v2 {
                if stdin.write_all(&data).is_err() {
                    return;
                }
                continue;
            }
            buf.extend_from_slice(&data);
            while buf.len() >= 5 {
                let len = u32::from_le_bytes([buf[1], buf[2], buf[3], buf[4]]) as usize;
                if buf.len() < 5 + len {
                    break;
                }
                let id = buf[0];
                let body: Vec<u8> = buf[5..5 + len].to_vec();
                buf.drain(..5 + len);
                match id {
                    0 if stdin.write_all(&body).is_err() => return,
                    4 => return,
                    _ => {}
                }
            }
        }
    });
}

/// Pumps bytes both ways between the stream and a local socket.
fn relay(io: &mut StreamIo, r: Box<dyn Read + Send>, mut w: Box<dyn Write + Send>) -> std::io::Result<()> {
    let (tx, rx) = channel::<Vec<u8>>();
    thread::spawn(move || pipe_to(r, &tx, 0));
    let rx_host = std::mem::replace(&mut io.rx, channel().1);
    let window = io.window.clone();
    thread::spawn(move || loop {
        match rx_host.recv_timeout(Duration::from_millis(200)) {
            Ok(d) => {
                if w.write_all(&d).is_err() {
                    return;
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if window.ready.lock().unwrap_or_else(PoisonError::into_inner).is_none() {
                    return;
                }
            }
            Err(_) => return,
        }
    });
    while let Ok(chunk) = rx.recv() {
        if !io.write(&chunk[1..]) {
            break;
        }
    }
    Ok(())
}

fn sync_status(io: &mut StreamIo, id: &[u8; 4], msg: &[u8]) -> bool {
    let mut p = id.to_vec();
    p.extend_from_slice(&(msg.len() as u32).to_le_bytes());
    p.extend_from_slice(msg);
    io.write(&p)
}

/// The sync service: STAT, LIST, SEND, RECV, QUIT (v1 requests).
fn sync(io: &mut StreamIo, root: &Path, spec: &PhoneSpec) -> std::io::Result<()> {
    let (recv_delay_ms, owner, recv_frame) = (spec.recv_delay_ms, spec.shell_uid, spec.recv_frame.max(1));
    let tmp = root.join("tmp");
    let map = |p: &[u8]| -> PathBuf {
        let p = String::from_utf8_lossy(p).to_string();
        PathBuf::from(spec.map_paths(&p.replace(DEVICE_TMP, &tmp.to_string_lossy())))
    };
    loop {
        let Some(head) = io.read_exact(8) else { return Ok(()) };
        let id: [u8; 4] = [head[0], head[1], head[2], head[3]];
        let len = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
        if len > 4096 {
            sync_status(io, b"FAIL", b"path too long");
            return Ok(());
        }
        let Some(arg) = io.read_exact(len) else { return Ok(()) };
        match &id {
            b"STAT" => {
                let md = std::fs::metadata(map(&arg)).ok();
                let mut p = b"STAT".to_vec();
                use std::os::unix::fs::MetadataExt;
                let (mode, size, mtime) = md.map_or((0, 0, 0), |m| (m.mode(), m.size() as u32, m.mtime() as u32));
                for v in [mode, size, mtime] {
                    p.extend_from_slice(&v.to_le_bytes());
                }
                io.write(&p);
            }
            b"LIST" => {
                use std::os::unix::fs::MetadataExt;
                for e in std::fs::read_dir(map(&arg)).into_iter().flatten().flatten() {
                    let Ok(m) = e.metadata() else { continue };
                    let name = e.file_name().to_string_lossy().to_string();
                    let mut p = b"DENT".to_vec();
                    for v in [m.mode(), m.size() as u32, m.mtime() as u32, name.len() as u32] {
                        p.extend_from_slice(&v.to_le_bytes());
                    }
                    p.extend_from_slice(name.as_bytes());
                    io.write(&p);
                }
                let mut p = b"DONE".to_vec();
                p.extend_from_slice(&[0u8; 16]);
                io.write(&p);
            }
            b"SEND" => {
                let arg = String::from_utf8_lossy(&arg).to_string();
                let (path, mode) = arg.rsplit_once(',').unwrap_or((&arg, "420"));
                let path = map(path.as_bytes());
                let mode: u32 = mode.parse().unwrap_or(0o644);
                let mut data = Vec::new();
                let ok = loop {
                    let Some(h) = io.read_exact(8) else { return Ok(()) };
                    let n = u32::from_le_bytes([h[4], h[5], h[6], h[7]]) as usize;
                    match &h[..4] {
                        b"DATA" => {
                            if n > 1 << 20 {
                                break false;
                            }
                            let Some(d) = io.read_exact(n) else { return Ok(()) };
                            data.extend_from_slice(&d);
                        }
                        b"DONE" => break true,
                        _ => break false,
                    }
                };
                if !ok {
                    sync_status(io, b"FAIL", b"bad SEND data");
                    return Ok(());
                }
                let written = (|| -> std::io::Result<()> {
                    use std::os::unix::fs::PermissionsExt;
                    if let Some(d) = path.parent() {
                        std::fs::create_dir_all(d)?;
                    }
                    let part = path.with_extension("heaptui-test-phone-part");
                    let data = emulated(root, spec, data)?;
                    std::fs::write(&part, &data)?;
                    std::fs::set_permissions(&part, std::fs::Permissions::from_mode(mode & 0o7777))?;
                    // adbd runs as `shell` on a phone: what it writes is the shell user's.
                    if let Some(uid) = owner {
                        std::os::unix::fs::chown(&part, Some(uid), Some(uid))?;
                    }
                    std::fs::rename(&part, &path)
                })();
                match written {
                    Ok(()) => {
                        let mut p = b"OKAY".to_vec();
                        p.extend_from_slice(&[0u8; 4]);
                        io.write(&p);
                    }
                    Err(e) => {
                        sync_status(io, b"FAIL", e.to_string().as_bytes());
                    }
                }
            }
            b"RECV" => match std::fs::File::open(map(&arg)) {
                Ok(mut f) => {
                    let mut buf = vec![0u8; recv_frame];
                    loop {
                        // A whole frame each time but the last.
                        let mut n = 0;
                        while n < buf.len() {
                            match f.read(&mut buf[n..])? {
                                0 => break,
                                k => n += k,
                            }
                        }
                        if n == 0 {
                            break;
                        }
                        let mut p = b"DATA".to_vec();
                        p.extend_from_slice(&(n as u32).to_le_bytes());
                        p.extend_from_slice(&buf[..n]);
                        if !io.write(&p) {
                            return Ok(());
                        }
                        if recv_delay_ms > 0 {
                            thread::sleep(Duration::from_millis(recv_delay_ms));
                        }
                    }
                    let mut p = b"DONE".to_vec();
                    p.extend_from_slice(&[0u8; 4]);
                    io.write(&p);
                }
                Err(e) => {
                    sync_status(io, b"FAIL", e.to_string().as_bytes());
                }
            },
            b"QUIT" => return Ok(()),
            _ => {
                sync_status(io, b"FAIL", b"unknown sync request");
                return Ok(());
            }
        }
    }
}

/// This machine's build of the fork dump's library (with its test hooks), laid out as
/// `HEAPTUI_AGENT_DIR` wants it: what a test phone's x86_64 apps (HotSpot JVMs, or the real ART
/// of `test_support::art`) load for `--method fork`, in place of the Android build heaptui
/// carries, which this machine cannot load. The agent comes from heaptui itself. The folder is
/// private to this user, as heaptui requires of it.
pub fn fork_agents() -> tempfile::TempDir {
    let agents = tempfile::tempdir().expect("a temporary directory");
    let dir = agents.path().join("x86_64-linux-android");
    std::fs::create_dir_all(&dir).expect("the agents' folder");
    std::fs::copy(test_support::build::forkdump_library(), dir.join("libforkdump.so")).expect("the library copied");
    agents
}

/// The real adb server on a free port, run in the foreground as this process's child (`adb
/// nodaemon server`) and killed when dropped. A daemon asked to stop by `adb kill-server` can
/// hang in its own shutdown (Debian's adb 29, seen once: it logged that it was killed, then
/// waited on one of its threads, and the test waited on it), so the server is not a daemon.
pub struct AdbServer(pub u16, std::process::Child);

impl AdbServer {
    /// Starts one, and waits until it accepts connections.
    pub fn start() -> AdbServer {
        let port =
            TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port");
        let child = Command::new("adb")
            .args(["-P", &port.to_string(), "nodaemon", "server"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("adb (Debian `adb`)");
        let mut server = AdbServer(port, child);
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            let ended = server.1.try_wait().ok().flatten();
            assert!(ended.is_none(), "the adb server on port {port} ended: {ended:?}");
            assert!(Instant::now() < deadline, "the adb server on port {port} did not come up");
            thread::sleep(Duration::from_millis(20));
        }
        server
    }
}

impl Drop for AdbServer {
    fn drop(&mut self) {
        let _ = self.1.kill();
        let _ = self.1.wait();
    }
}
