//! `/proc/<pid>`: memory, threads and file descriptors of a process, read the way `ps` and Probe
//! read them. Every parser takes the file's text, so odd inputs are testable without a process.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// What `/proc/<pid>/status` says.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Status {
    /// The command name (`Name:`), which may hold spaces and parentheses.
    pub name: String,
    /// Resident set size, KiB.
    pub vm_rss_kb: u64,
    /// Virtual size, KiB.
    pub vm_size_kb: u64,
    /// Peak virtual size, KiB.
    pub vm_peak_kb: u64,
    /// Threads.
    pub threads: u64,
}

/// Parses `/proc/<pid>/status`. Fields it lacks stay 0.
pub fn parse_status(text: &str) -> Status {
    let mut s = Status::default();
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        let kb = || value.split_whitespace().next().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        match key {
            "Name" => s.name = value.to_string(),
            "VmRSS" => s.vm_rss_kb = kb(),
            "VmSize" => s.vm_size_kb = kb(),
            "VmPeak" => s.vm_peak_kb = kb(),
            "Threads" => s.threads = kb(),
            _ => {}
        }
    }
    s
}

/// `Pss:` of `/proc/<pid>/smaps_rollup`, KiB.
pub fn parse_pss(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix("Pss:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// The soft `Max open files` of `/proc/<pid>/limits` (`None` when unlimited or absent).
pub fn parse_fd_limit(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..].split_whitespace().next()?.parse().ok()
}

/// What an fd points to, grouped as Probe groups them: `anon_inode:[eventfd]`, `pipe`, `socket`,
/// `/dev/...`, or the file's directory for regular files.
pub fn fd_kind(target: &str) -> String {
    if let Some(rest) = target.strip_prefix("anon_inode:") {
        return format!("anon_inode:{rest}");
    }
    for k in ["pipe", "socket"] {
        if target.starts_with(&format!("{k}:")) {
            return k.to_string();
        }
    }
    if target.starts_with("/dev/") {
        return target.to_string();
    }
    match target.rsplit_once('/') {
        Some((dir, _)) if !dir.is_empty() => format!("{dir}/"),
        _ => target.to_string(),
    }
}

/// A process's `/proc` directory.
pub struct Proc {
    dir: PathBuf,
}

impl Proc {
    /// The process `pid` (under `/proc`).
    pub fn new(pid: u32) -> Proc {
        Proc { dir: PathBuf::from(format!("/proc/{pid}")) }
    }

    fn read(&self, name: &str) -> std::io::Result<String> {
        std::fs::read_to_string(self.dir.join(name))
    }

    /// `status`.
    pub fn status(&self) -> std::io::Result<Status> {
        self.read("status").map(|t| parse_status(&t))
    }

    /// The `/proc` directory, for messages.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// PSS from `smaps_rollup` (Linux 4.14+), KiB.
    pub fn pss_kb(&self) -> Option<u64> {
        self.smaps_rollup().ok().flatten()
    }

    /// PSS from `smaps_rollup`: `Ok(None)` when the kernel lacks the file (before 4.14), an error
    /// when it cannot be read (another uid's process: the kernel asks for ptrace access).
    pub fn smaps_rollup(&self) -> std::io::Result<Option<u64>> {
        match self.read("smaps_rollup") {
            Ok(t) => Ok(parse_pss(&t)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && self.dir.is_dir() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The parent's pid, from `stat` (readable for every process).
    pub fn ppid(&self) -> Option<u32> {
        let stat = self.read("stat").ok()?;
        // The command name in parentheses may hold anything, spaces and ')' included: the
        // fields resume after the last ')'. State comes first, then the parent.
        stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()
    }

    /// Open file descriptors.
    pub fn fd_count(&self) -> std::io::Result<u64> {
        Ok(std::fs::read_dir(self.dir.join("fd"))?.count() as u64)
    }

    /// `Max open files`.
    pub fn fd_limit(&self) -> Option<u64> {
        self.read("limits").ok().and_then(|t| parse_fd_limit(&t))
    }

    /// The command line, arguments joined by spaces (empty for kernel threads).
    pub fn cmdline(&self) -> String {
        let raw = std::fs::read(self.dir.join("cmdline")).unwrap_or_default();
        raw.split(|&b| b == 0).filter(|a| !a.is_empty()).map(String::from_utf8_lossy).collect::<Vec<_>>().join(" ")
    }

    /// 32 or 64, from the ELF class of the executable (`None` when it cannot be read: another
    /// user's process, a kernel thread).
    pub fn bits(&self) -> Option<u8> {
        use std::io::Read;
        let mut head = [0u8; 5];
        std::fs::File::open(self.dir.join("exe")).ok()?.read_exact(&mut head).ok()?;
        match head {
            [0x7f, b'E', b'L', b'F', 1] => Some(32),
            [0x7f, b'E', b'L', b'F', 2] => Some(64),
            _ => None,
        }
    }

    /// Open fds grouped by what they point to, largest groups first.
    pub fn fd_groups(&self) -> std::io::Result<Vec<(String, u64)>> {
        let mut groups: BTreeMap<String, u64> = BTreeMap::new();
        for e in std::fs::read_dir(self.dir.join("fd"))?.flatten() {
            if let Ok(t) = std::fs::read_link(e.path()) {
                *groups.entry(fd_kind(&t.to_string_lossy())).or_default() += 1;
            }
        }
        let mut v: Vec<(String, u64)> = groups.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(v)
    }

    /// Threads grouped by name (`task/*/comm`), largest groups first.
    pub fn thread_groups(&self) -> std::io::Result<Vec<(String, u64)>> {
        let mut groups: BTreeMap<String, u64> = BTreeMap::new();
        for e in std::fs::read_dir(self.dir.join("task"))?.flatten() {
            if let Ok(name) = std::fs::read_to_string(e.path().join("comm")) {
                *groups.entry(name.trim_end_matches('\n').to_string()).or_default() += 1;
            }
        }
        let mut v: Vec<(String, u64)> = groups.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(v)
    }
}

/// Probe's breakdowns of a process: open FDs by what they point to, threads by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Groups {
    /// `[kind, count]`, largest first (`socket`, `pipe`, `anon_inode:[eventfd]`, a file's dir...).
    pub fds: Vec<(String, u64)>,
    /// `[name, count]`, largest first.
    pub threads: Vec<(String, u64)>,
    /// Why `fds` is empty when the descriptors could not be read (an app's, read as adb's
    /// `shell` user).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fds_missing: Option<String>,
}

/// The breakdowns of process `pid`: an error only when its threads cannot be listed (it is
/// gone); descriptors closed to this user leave `fds` empty and say why.
pub fn groups(pid: u32) -> std::io::Result<Groups> {
    let p = Proc::new(pid);
    let threads = p.thread_groups()?;
    let (fds, fds_missing) = match p.fd_groups() {
        Ok(fds) => (fds, None),
        Err(e) => (Vec::new(), Some(format!("{}/fd: {e}", p.dir().display()))),
    };
    Ok(Groups { fds, threads, fds_missing })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(pid: u32, name: &str, cmdline: &str, jvm: bool) -> ProcessInfo {
        ProcessInfo { pid, name: name.into(), cmdline: cmdline.into(), rss_kb: 1, jvm }
    }

    /// A pid, a command name with spaces and parentheses, a JVM's main class (full or simple) or
    /// jar, an Android package (ART names the process after it).
    #[test]
    fn finds_processes_by_pid_and_names() {
        let list = vec![
            info(10, "java", "/usr/bin/java -Xmx64m -cp /tmp/x com.example.LeakyCache 2000", true),
            info(11, "java", "java -jar /opt/app/server.jar --port 80", true),
            info(12, "my (odd) tool", "./my (odd) tool", false),
            info(13, "com.example.app", "com.example.app", false),
            info(14, "bash", "/bin/bash -c -cp", false),
        ];
        let pids = |q: &str| find(&list, q).iter().map(|p| p.pid).collect::<Vec<_>>();
        assert_eq!(pids("12"), [12]);
        assert_eq!(pids("99"), Vec::<u32>::new());
        assert_eq!(pids("LeakyCache"), [10]);
        assert_eq!(pids("com.example.LeakyCache"), [10]);
        assert_eq!(pids("server"), [11]);
        assert_eq!(pids("server.jar"), [11]);
        assert_eq!(pids("my (odd) tool"), [12]);
        assert_eq!(pids("com.example.app"), [13]);
        assert_eq!(pids("java"), [10, 11]);
        assert_eq!(pids("bash"), [14]);
        // Option values are not main classes.
        assert_eq!(pids("/tmp/x"), Vec::<u32>::new());
        assert_eq!(pids("2000"), Vec::<u32>::new());
        let names: Vec<String> = list.iter().map(display_name).collect();
        assert_eq!(names, ["LeakyCache", "server.jar", "my (odd) tool", "com.example.app", "bash"]);
    }

    /// Our own process: readable, 64-bit on this machine's targets, named in the list.
    #[test]
    fn lists_this_process() {
        let me = std::process::id();
        let p = Proc::new(me);
        assert_eq!(p.bits(), Some(if cfg!(target_pointer_width = "64") { 64 } else { 32 }));
        assert!(list().iter().any(|p| p.pid == me));
        assert_eq!(Proc::new(u32::MAX).bits(), None);
    }

    #[test]
    fn status_with_an_odd_name() {
        let text = "Name:\tmy (weird) app: x\nUmask:\t0022\nState:\tS (sleeping)\nVmPeak:\t 3270512 kB\nVmSize:\t 3204976 kB\nVmRSS:\t   45056 kB\nThreads:\t19\n";
        let s = parse_status(text);
        assert_eq!(s.name, "my (weird) app: x");
        assert_eq!((s.vm_peak_kb, s.vm_size_kb, s.vm_rss_kb, s.threads), (3270512, 3204976, 45056, 19));
        assert_eq!(parse_status("garbage\n"), Status::default());
    }

    #[test]
    fn limits_pss_and_fd_kinds() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 524288               files\n";
        assert_eq!(parse_fd_limit(limits), Some(1024));
        assert_eq!(parse_fd_limit("Max open files            unlimited            unlimited            files\n"), None);
        assert_eq!(parse_pss("Rss:  100 kB\nPss:                5432 kB\n"), Some(5432));
        assert_eq!(fd_kind("anon_inode:[eventfd]"), "anon_inode:[eventfd]");
        assert_eq!(fd_kind("socket:[12345]"), "socket");
        assert_eq!(fd_kind("pipe:[99]"), "pipe");
        assert_eq!(fd_kind("/dev/null"), "/dev/null");
        assert_eq!(fd_kind("/data/app/base.apk"), "/data/app/");
    }

    #[test]
    fn this_process() {
        let p = Proc::new(std::process::id());
        let s = p.status().unwrap();
        assert!(s.vm_rss_kb > 0 && s.threads >= 1);
        assert!(p.fd_count().unwrap() >= 3);
        assert!(p.thread_groups().unwrap().iter().map(|g| g.1).sum::<u64>() >= 1);
    }
}

/// A process as the picker lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProcessInfo {
    /// Process id.
    pub pid: u32,
    /// Command name (`Name:` of `status`).
    pub name: String,
    /// Command line.
    pub cmdline: String,
    /// Resident set, KiB.
    pub rss_kb: u64,
    /// Whether it is a HotSpot JVM publishing its counters (`hsperfdata`).
    pub jvm: bool,
}

/// Every process this user can see, JVMs first, then by resident set, largest first. Processes
/// that vanish while being read are skipped.
pub fn list() -> Vec<ProcessInfo> {
    let jvms = crate::hsperf::pids();
    let mut v: Vec<ProcessInfo> = std::fs::read_dir("/proc")
        .map(|d| d.flatten().filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|pid| {
            let p = Proc::new(pid);
            let status = p.status().ok()?;
            Some(ProcessInfo {
                pid,
                name: status.name,
                cmdline: p.cmdline(),
                rss_kb: status.vm_rss_kb,
                jvm: jvms.contains(&pid),
            })
        })
        .collect();
    v.sort_by(|a, b| b.jvm.cmp(&a.jvm).then(b.rss_kb.cmp(&a.rss_kb)).then(a.pid.cmp(&b.pid)));
    v
}

/// The processes `query` names: a pid, or a name matching the command name, a JVM's main class
/// or jar, or an Android package (the command line's first word), exactly.
pub fn find(list: &[ProcessInfo], query: &str) -> Vec<ProcessInfo> {
    if let Ok(pid) = query.parse::<u32>() {
        return list.iter().filter(|p| p.pid == pid).cloned().collect();
    }
    let names = |p: &ProcessInfo| -> Vec<String> {
        let mut v = vec![p.name.clone()];
        let words: Vec<&str> = p.cmdline.split(' ').collect();
        if let Some(first) = words.first() {
            v.push(first.to_string());
            v.push(first.rsplit('/').next().unwrap_or(first).to_string());
        }
        if let Some(w) = main_word(p) {
            v.push(w.to_string());
            v.push(w.rsplit('/').next().unwrap_or(w).to_string());
            v.push(w.rsplit(['.', '/']).next().unwrap_or(w).to_string());
            if let Some(jar) = w.strip_suffix(".jar") {
                v.push(jar.rsplit('/').next().unwrap_or(jar).to_string());
            }
        }
        v
    };
    list.iter().filter(|p| names(p).iter().any(|n| n == query)).cloned().collect()
}

/// A JVM's main class or jar as its command line names it: the first word after the options
/// that is not an option's value.
fn main_word(p: &ProcessInfo) -> Option<&str> {
    if !p.jvm {
        return None;
    }
    let mut skip = false;
    for w in p.cmdline.split(' ').skip(1) {
        if skip {
            skip = false;
        } else if matches!(w, "-cp" | "-classpath" | "--class-path" | "-p" | "--module-path") {
            skip = true;
        } else if w != "-jar" && !w.starts_with('-') && !w.is_empty() {
            return Some(w);
        }
    }
    None
}

/// What to call a process in a list: a JVM by its main class (`com.example.Main` -> `Main`) or
/// jar (`app.jar`), anything else by its command name.
pub fn display_name(p: &ProcessInfo) -> String {
    match main_word(p) {
        Some(w) if w.ends_with(".jar") => w.rsplit('/').next().unwrap_or(w).to_string(),
        Some(w) => w.rsplit(['.', '/']).next().unwrap_or(w).to_string(),
        None => p.name.clone(),
    }
}
