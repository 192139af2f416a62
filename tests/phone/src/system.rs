//! The system side of a strict test phone: what Android's system server (and `run-as`, which is
//! setuid) does with more privilege than adb's `shell` user has. On a strict phone the shell's
//! commands run as uid 2000, so the doubles of `am`, `cmd` and `run-as` cannot do their work
//! themselves; they hand it over as binder would: a request directory in the phone's spool
//! (arguments, the caller's working directory), answered by this side, which runs as root and
//! acts as the app's uid where Android's services would (`jcmd` against the app's JVM, `run-as`'s
//! command). The caller is the owner of the request directory, as binder names the calling uid.
//!
//! An app may also be a real ART process (`test_support::art`): then the system side asks the app
//! itself, as ActivityManager asks an app's ActivityThread over binder, through the socket the
//! app serves on its main thread: `am dumpheap` passes the descriptor of the file the caller
//! named and ART writes its dump into it, `cmd activity attach-agent` makes the app load the
//! library and call its `Agent_OnAttach` with the real `JavaVM*`, and `dumpsys meminfo` prints
//! what the app measures of itself.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::PhoneSpec;

/// An app installed on the test phone: what its package manager and `run-as` know of it.
#[derive(Debug, Clone)]
pub struct App {
    /// The package name (the app's processes are named after it).
    pub package: String,
    /// The app's uid (Android's are 10000 and up).
    pub uid: u32,
    /// `android:debuggable`: `run-as` works.
    pub debuggable: bool,
    /// `android:largeHeap`.
    pub large_heap: bool,
    /// `<profileable android:shell="true"/>`: `dumpsys package` lists `PROFILEABLE_BY_SHELL`
    /// among its private flags (the package manager adds it for a debuggable app too).
    pub profileable: bool,
}

/// The client every privileged double execs: writes a request, waits for its answer, replays it.
pub(crate) const CLIENT: &str = r#"#!/bin/sh
# Test double of binder for the strict phone: the request goes to the phone's system side (root,
# as system_server), the answer comes back. One directory per call, owned by the caller.
req=$(mktemp -d "$HEAPTUI_TEST_PHONE_BINDER/call.XXXXXX") || exit 1
pwd > "$req/cwd"
# --stdin: the caller's input goes with the call (perfetto reads its config there).
if [ "$1" = --stdin ]; then shift; cat > "$req/stdin"; fi
for a in "$@"; do printf '%s\n' "$a"; done > "$req/args"
: > "$req/ready"
while [ ! -e "$req/done" ]; do sleep 0.01; done
cat "$req/out"
cat "$req/err" >&2
code=$(cat "$req/code")
rm -rf "$req"
exit "$code"
"#;

/// Serves calls in `root/binder` until `stop` is set.
pub(crate) fn serve(root: PathBuf, spec: PhoneSpec, stop: Arc<AtomicBool>) {
    let spool = root.join("binder");
    while !stop.load(Ordering::SeqCst) {
        for e in std::fs::read_dir(&spool).into_iter().flatten().flatten() {
            let call = e.path();
            if call.join("ready").exists() && !call.join("taken").exists() {
                let _ = std::fs::write(call.join("taken"), b"");
                let (root, spec) = (root.clone(), spec.clone());
                std::thread::spawn(move || answer(&call, &root, &spec));
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

type Reply = (Vec<u8>, String, i32);

fn answer(call: &Path, root: &Path, spec: &PhoneSpec) {
    let args: Vec<String> =
        std::fs::read_to_string(call.join("args")).unwrap_or_default().lines().map(str::to_string).collect();
    let caller = std::fs::metadata(call).map(|m| m.uid()).unwrap_or(u32::MAX);
    let (out, err, code) = match args.split_first() {
        Some((name, rest)) if name == "run-as" => run_as(rest, root, spec),
        Some((name, rest)) if name == "am" => am(rest, root, caller, spec),
        Some((name, rest)) if name == "cmd" => cmd(rest, spec),
        Some((name, rest)) if name == "dumpsys" => dumpsys(rest),
        Some((name, rest)) if name == "perfetto" => perfetto(rest, call, root, caller, spec),
        _ => (Vec::new(), "binder: no such service\n".into(), 1),
    };
    let _ = std::fs::write(call.join("out"), out);
    let _ = std::fs::write(call.join("err"), err);
    let _ = std::fs::write(call.join("code"), code.to_string());
    let _ = std::fs::write(call.join("done"), b"");
}

fn output(c: &mut Command) -> Reply {
    match c.output() {
        Ok(o) => (o.stdout, String::from_utf8_lossy(&o.stderr).into_owned(), o.status.code().unwrap_or(1)),
        Err(e) => (Vec::new(), format!("{e}\n"), 1),
    }
}

/// Whether process `pid` is a real ART app (`test_support::art`): it serves its socket,
/// `@heaptui-art-app-PID`, which `/proc/net/unix` lists.
pub(crate) fn is_art_app(pid: &str) -> bool {
    let name = format!("@heaptui-art-app-{pid}");
    std::fs::read_to_string("/proc/net/unix")
        .is_ok_and(|t| t.lines().any(|l| l.split_whitespace().last() == Some(name.as_str())))
}

/// An ART app's answer: what it said before its last line, and that line's error, if any.
fn art_answer(answer: Option<String>) -> (String, Option<String>) {
    let Some(text) = answer else { return (String::new(), Some("the app did not answer".into())) };
    let body = text.trim_end_matches('\n');
    let (before, last) = body.rsplit_once('\n').unwrap_or(("", body));
    let before = if before.is_empty() { String::new() } else { format!("{before}\n") };
    match last.strip_prefix("error: ") {
        Some(why) => (before, Some(why.to_string())),
        None if last == "ok" => (before, None),
        None => (before, Some(format!("the app said {last:?}"))),
    }
}

/// The uid that owns process `pid`.
fn owner(pid: &str) -> Option<u32> {
    pid.parse::<u32>().ok()?;
    std::fs::metadata(format!("/proc/{pid}")).ok().map(|m| m.uid())
}

/// `run-as PKG CMD...`: CMD as the app's uid in its data directory, for a debuggable app only
/// (the messages are `run-as`'s own).
fn run_as(args: &[String], root: &Path, spec: &PhoneSpec) -> Reply {
    let Some((package, command)) = args.split_first() else {
        return (Vec::new(), "usage: run-as <package-name> [--user <uid>] <command> [<args>]\n".into(), 1);
    };
    let Some(app) = spec.apps.iter().find(|a| &a.package == package) else {
        return (Vec::new(), format!("run-as: unknown package: {package}\n"), 1);
    };
    if !app.debuggable {
        return (Vec::new(), format!("run-as: package not debuggable: {package}\n"), 1);
    }
    let data = root.join("data").join(package);
    if std::fs::create_dir_all(&data).is_err()
        || std::os::unix::fs::chown(&data, Some(app.uid), Some(app.uid)).is_err()
        || std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).is_err()
    {
        return (Vec::new(), "run-as: cannot set up the app's data directory\n".into(), 1);
    }
    let Some((program, rest)) = command.split_first() else {
        return (Vec::new(), "run-as: no command (the double runs no interactive shell)\n".into(), 1);
    };
    let path = format!("{}:/usr/bin:/bin", root.join("bin").display());
    output(Command::new(program).args(rest).current_dir(&data).uid(app.uid).gid(app.uid).env("PATH", path))
}

/// `am dumpheap [-g] [-b FORMAT] PID FILE`: the app dumps its heap into FILE, which the caller opened (as
/// `am` opens it in the shell's process and passes the descriptor). A JVM app writes the dump as
/// its own uid with `jcmd`, and the bytes go into FILE, owned by the caller; an ART app is handed
/// the descriptor and ART writes into it, while `am` waits for the app to say it is done and
/// says so first, as Android 10's does ("File: …", "Waiting for dump to finish...").
fn am(args: &[String], root: &Path, caller: u32, spec: &PhoneSpec) -> Reply {
    let Some(("dumpheap", rest)) = args.split_first().map(|(a, r)| (a.as_str(), r)) else {
        return (Vec::new(), "am: only dumpheap here\n".into(), 1);
    };
    // Options first, as ActivityManagerShellCommand reads them: it stops at the first it does
    // not know.
    let (mut gc, mut bitmaps, mut rest) = (false, None, rest);
    while let Some((opt, r)) = rest.split_first().filter(|(o, _)| o.starts_with('-')) {
        match opt.as_str() {
            "-g" if spec.am_gc => gc = true,
            "-b" if spec.am_bitmaps => {
                let Some((format, r)) = r.split_first() else {
                    return (Vec::new(), "Error: -b needs a format\n".into(), 1);
                };
                if !["png", "jpg", "jpeg", "webp"].contains(&format.as_str()) {
                    return (Vec::new(), format!("Error: wrong format {format}\n"), 1);
                }
                bitmaps = Some(format.clone());
                rest = r;
                continue;
            }
            _ => return (Vec::new(), format!("Error: Unknown option: {opt}\n"), 1),
        }
        rest = r;
    }
    let [pid, file] = rest else { return (Vec::new(), "Error: expected PROCESS and FILE\n".into(), 1) };
    let Some(uid) = owner(pid) else { return (Vec::new(), format!("Error: Unknown process: {pid}\n"), 1) };
    // The caller's file: made (or emptied) here and given to the caller, as the shell makes it.
    let open = || -> std::io::Result<std::fs::File> {
        let existed = Path::new(file).exists();
        let to = std::fs::OpenOptions::new().write(true).create(true).truncate(true).open(file)?;
        if !existed {
            std::os::unix::fs::chown(file, Some(caller), Some(caller))?;
        }
        Ok(to)
    };
    if is_art_app(pid) {
        let to = match open() {
            Ok(f) => f,
            Err(e) => return (Vec::new(), format!("Error: {file}: {e}\n"), 1),
        };
        let said = format!("File: {file}\nWaiting for dump to finish...\n").into_bytes();
        let answer = test_support::art::request(
            pid.parse().unwrap_or(0),
            &format!("dumpheap {} {} {file}", u8::from(gc), bitmaps.as_deref().unwrap_or("-")),
            Some(&to),
        );
        return match art_answer(answer) {
            (_, None) => (said, String::new(), 0),
            (_, Some(why)) => (Vec::new(), format!("HEAP DUMP FAILED on process {pid}: {why}\n"), 255),
        };
    }
    if bitmaps.is_some() {
        // A HotSpot JVM has no framework to compress Bitmaps with: a test that asks this of a
        // JVM app is told so rather than given a dump without them.
        return (
            Vec::new(),
            "Error: -b needs an ART app on the test phone (a JVM app has no Bitmap.dumpAll)\n".into(),
            1,
        );
    }
    let work = root.join("system").join(format!("dump-{pid}-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&work);
    let _ = std::os::unix::fs::chown(&work, Some(uid), Some(uid));
    let raw = work.join("heap.hprof");
    let mut jcmd = Command::new("jcmd");
    jcmd.arg(pid).arg("GC.heap_dump");
    if !gc {
        jcmd.arg("-all");
    }
    let reply = output(jcmd.arg(&raw).current_dir("/tmp").uid(uid).gid(uid));
    let copied = open().and_then(|mut to| std::io::copy(&mut std::fs::File::open(&raw)?, &mut to).map(|_| ()));
    let _ = std::fs::remove_dir_all(&work);
    match (reply.2, copied) {
        (0, Ok(())) => (Vec::new(), String::new(), 0),
        (0, Err(e)) => (Vec::new(), format!("Error: {file}: {e}\n"), 1),
        _ => (Vec::new(), format!("Error: dumping {pid}: {}", String::from_utf8_lossy(&reply.0)), 1),
    }
}

/// `cmd activity attach-agent PROCESS LIB=OPTIONS`: the app loads a JVMTI agent. ActivityManager
/// refuses a process of an app that is not debuggable (`SecurityException: Process not
/// debuggable`); otherwise the app's main thread loads it later, and the command answers 0
/// whatever happens there (what went wrong is only in the app's log). A JVM app loads it
/// through HotSpot's attach protocol, as the app's uid; an ART app calls its `Agent_OnAttach`
/// with the runtime's `JavaVM*`.
fn cmd(args: &[String], spec: &PhoneSpec) -> Reply {
    let [activity, attach, process, agent] = args else {
        return (Vec::new(), "cmd: only activity attach-agent here\n".into(), 1);
    };
    if (activity.as_str(), attach.as_str()) != ("activity", "attach-agent") {
        return (Vec::new(), "cmd: only activity attach-agent here\n".into(), 1);
    }
    let Some(uid) = owner(process) else { return (Vec::new(), format!("Unknown process: {process}\n"), 1) };
    if is_art_app(process) {
        let app = spec.apps.iter().find(|a| a.uid == uid);
        if !app.is_some_and(|a| a.debuggable) {
            let name = app.map_or(process.as_str(), |a| a.package.as_str());
            return (
                Vec::new(),
                format!("Exception occurred while executing:\njava.lang.SecurityException: Process not debuggable: {name}\n"),
                255,
            );
        }
        let (pid, agent) = (process.parse().unwrap_or(0), agent.clone());
        // Asked, not awaited: the app loads the agent on its main thread after the call returns.
        std::thread::spawn(move || test_support::art::request(pid, &format!("attach-agent {agent}"), None));
        return (Vec::new(), String::new(), 0);
    }
    let (lib, opts) = agent.split_once('=').unwrap_or((agent, ""));
    // jcmd quotes nothing itself and splits an argument at `=` unless it is quoted.
    let _ = output(
        Command::new("jcmd")
            .args([process, "JVMTI.agent_load", lib, &format!("\"{opts}\"")])
            .current_dir("/tmp")
            .uid(uid)
            .gid(uid),
    );
    (Vec::new(), String::new(), 0)
}

/// `dumpsys meminfo PID` on a strict phone: the app's own figures for a real ART app (what
/// ActivityThread measures for system_server), the fixed Android 10 table of [`JVM_MEMINFO`]
/// for any other process.
fn dumpsys(args: &[String]) -> Reply {
    let [what, pid] = args else { return (Vec::new(), String::new(), 1) };
    if what != "meminfo" {
        return (Vec::new(), String::new(), 1);
    }
    if !Path::new("/proc").join(pid).exists() {
        return (format!("No process found for: {pid}\n").into_bytes(), String::new(), 0);
    }
    let uptime = std::fs::read_to_string("/proc/uptime")
        .ok()
        .and_then(|t| t.split_whitespace().next().and_then(|s| s.parse::<f64>().ok()))
        .map_or(0, |s| (s * 1000.0) as u64);
    let head = format!("Applications Memory Usage (in Kilobytes):\nUptime: {uptime} Realtime: {uptime}\n\n");
    if !is_art_app(pid) {
        return ((head + &JVM_MEMINFO.replace("$2", pid)).into_bytes(), String::new(), 0);
    }
    match art_answer(test_support::art::request(pid.parse().unwrap_or(0), "meminfo", None)) {
        (text, None) => ((head + &text).into_bytes(), String::new(), 0),
        (_, Some(why)) => (Vec::new(), format!("dumpsys: {why}\n"), 1),
    }
}

/// What the phone's `dumpsys meminfo PID` says of a process that is not a real ART app: Android
/// 10's layout, `$2` standing for the pid; the Dalvik Heap row says 45056 KiB allocated of a
/// 49152 KiB heap, the TOTAL row 95120 KiB of PSS, the Objects section 2 activities.
pub(crate) const JVM_MEMINFO: &str = "\
** MEMINFO in pid $2 [com.example.app] **
                   Pss  Private  Private  SwapPss     Heap     Heap     Heap
                 Total    Dirty    Clean    Dirty     Size    Alloc     Free
                ------   ------   ------   ------   ------   ------   ------
  Native Heap    10436    10380        0       28    22528    17145     5382
  Dalvik Heap    41203    41148        0       20    49152    45056     4096
        TOTAL    95120    71236    13732       48    71680    62201     9478

 Objects
               Views:       41         ViewRootImpl:        1
         AppContexts:        5           Activities:        2

";

/// `perfetto --txt -c - -o OUT`: on a phone the shell's `perfetto` asks `traced`, and ART in the
/// app's process forks and writes the heap graph; the client writes the trace to OUT as the
/// shell user. Here the test's stand-in for ART ([`PhoneSpec::perfetto`], which dumps the JVM
/// with jcmd) runs as the uid of the process the config names, and the trace goes into OUT, owned
/// by the caller.
fn perfetto(args: &[String], call: &Path, root: &Path, caller: u32, spec: &PhoneSpec) -> Reply {
    let Some(double) = &spec.perfetto else {
        return (Vec::new(), "/system/bin/sh: perfetto: not found\n".into(), 127);
    };
    let config = std::fs::read(call.join("stdin")).unwrap_or_default();
    let pid = String::from_utf8_lossy(&config)
        .lines()
        .find_map(|l| l.trim().strip_prefix("pid:").map(|p| p.trim().to_string()))
        .unwrap_or_default();
    let Some(out) = args.windows(2).find(|w| w[0] == "-o").map(|w| w[1].clone()) else {
        return (Vec::new(), "perfetto: no -o\n".into(), 1);
    };
    // A process that is gone: ART never answers, and perfetto writes a trace without a graph.
    let uid = owner(&pid).unwrap_or(caller);
    let work = root.join("system").join(format!("perfetto-{pid}-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&work);
    let _ = std::os::unix::fs::chown(&work, Some(uid), Some(uid));
    let trace = work.join("trace");
    // Run as the app's uid: from where every uid may run it, wherever the build is.
    let mut child = Command::new(test_support::build::for_every_uid(double));
    child.args(["--txt", "-c", "-", "-o"]).arg(&trace).current_dir("/tmp").uid(uid).gid(uid);
    if let Some(canned) = &spec.perfetto_trace {
        child.env("HEAPTUI_TEST_PHONE_TRACE", canned);
    }
    let reply = (|| -> std::io::Result<Reply> {
        use std::io::Write;
        let mut c = child
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()?;
        c.stdin.take().map(|mut i| i.write_all(&config)).transpose()?;
        let o = c.wait_with_output()?;
        Ok((o.stdout, String::from_utf8_lossy(&o.stderr).into_owned(), o.status.code().unwrap_or(1)))
    })()
    .unwrap_or_else(|e| (Vec::new(), format!("perfetto: {e}\n"), 1));
    let copied = (|| -> std::io::Result<()> {
        let mut to = std::fs::OpenOptions::new().write(true).create_new(true).open(&out)?;
        std::os::unix::fs::chown(&out, Some(caller), Some(caller))?;
        std::io::copy(&mut std::fs::File::open(&trace)?, &mut to)?;
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&work);
    match (reply.2, copied) {
        (0, Err(e)) => (reply.0, format!("perfetto: {out}: {e}\n"), 1),
        _ => reply,
    }
}
