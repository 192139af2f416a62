//! One sample of a process: what the monitor charts and the triggers read.

use crate::hsperf::{Counters, JavaHeap};
use std::collections::BTreeMap;

use crate::android::App;
use crate::proc::Proc;

/// A sample.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sample {
    /// Milliseconds since the epoch.
    pub time_ms: u64,
    /// Process id.
    pub pid: u32,
    /// Command name.
    pub name: String,
    /// Resident set, KiB.
    pub rss_kb: u64,
    /// Proportional set, KiB (when the kernel has `smaps_rollup`).
    pub pss_kb: Option<u64>,
    /// Virtual size, KiB.
    pub vm_size_kb: u64,
    /// Peak virtual size, KiB.
    pub vm_peak_kb: u64,
    /// Threads.
    pub threads: u64,
    /// Open file descriptors (`None` when the process's `fd` directory is closed to the agent
    /// and no other way reads it; see `missing`).
    pub fds: Option<u64>,
    /// Their soft limit.
    pub fd_limit: Option<u64>,
    /// 32 or 64 (the executable's ELF class), when readable.
    pub bits: Option<u8>,
    /// Java heap: a HotSpot JVM's counters, or an Android app's `dumpsys meminfo`.
    pub java_heap: Option<JavaHeap>,
    /// An Android app's object counts (`dumpsys meminfo`'s `Objects`: Views, Activities...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objects: Option<BTreeMap<String, u64>>,
    /// Where each figure read another way than from the process's own `/proc` came from.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sources: BTreeMap<Field, Source>,
    /// The figures this sample lacks, and why (each one's field is `null`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<Missing>,
}

/// A figure of a sample, named as its JSON field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// [`Sample::pss_kb`].
    PssKb,
    /// [`Sample::fds`].
    Fds,
    /// [`Sample::fd_limit`].
    FdLimit,
    /// [`Sample::bits`].
    Bits,
    /// [`Sample::java_heap`]'s use.
    JavaHeap,
    /// [`Sample::java_heap`]'s maximum.
    HeapLimit,
    /// [`Sample::objects`].
    Objects,
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Field::PssKb => "PSS",
            Field::Fds => "open FDs",
            Field::FdLimit => "FD limit",
            Field::Bits => "bitness",
            Field::JavaHeap => "Java heap",
            Field::HeapLimit => "heap limit",
            Field::Objects => "objects",
        })
    }
}

/// Where a figure came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The process's own `/proc` files, read by the agent.
    Proc,
    /// The process's `/proc` files read as the app's uid through `run-as` (a debuggable app).
    RunAs,
    /// `dumpsys meminfo`: the system server asks the app.
    Dumpsys,
    /// HotSpot's `hsperfdata` counters.
    Hsperfdata,
    /// The parent is Android's zygote: `zygote64` forks 64-bit apps, `zygote` 32-bit ones.
    Zygote,
    /// `dalvik.vm.heapsize`: the limit of an app that asks for a large heap.
    #[serde(rename = "dalvik.vm.heapsize")]
    HeapSize,
    /// `dalvik.vm.heapgrowthlimit`: the limit of every other app.
    #[serde(rename = "dalvik.vm.heapgrowthlimit")]
    HeapGrowthLimit,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Source::Proc => "/proc",
            Source::RunAs => "run-as",
            Source::Dumpsys => "dumpsys meminfo",
            Source::Hsperfdata => "hsperfdata",
            Source::Zygote => "zygote",
            Source::HeapSize => "dalvik.vm.heapsize",
            Source::HeapGrowthLimit => "dalvik.vm.heapgrowthlimit",
        })
    }
}

/// A figure a sample lacks.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Missing {
    /// Which.
    pub field: Field,
    /// Why, with what to do about it where something can be done.
    pub why: String,
}

/// Samples process `pid` now, every figure read afresh.
pub fn sample(pid: u32) -> std::io::Result<Sample> {
    Sampler::new(pid).take()
}

/// How often the costly figures are read: PSS (the kernel walks every mapping for
/// `smaps_rollup`) and an Android app's Java heap (dumpsys asks the app itself).
pub const SLOW_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Samples one process over time: `/proc/<pid>/status` and the FD count every time; PSS, the
/// Java heap and an app's objects every [`SLOW_EVERY`] (their last readings carried between).
///
/// On a phone the agent runs as adb's `shell` user, which reads any process's `status`,
/// `cmdline`, `stat` and `limits` but not an app's `fd` directory, `smaps_rollup` or `exe`
/// (they belong to the app's uid). Those figures come another way when one exists (`run-as`
/// for a debuggable app; `dumpsys meminfo` for PSS) and are reported missing, with the reason,
/// when none does: a sample fails only when the process is gone.
pub struct Sampler {
    pid: u32,
    slow_at: Option<std::time::Instant>,
    slow: Slow,
    /// Found once and kept (a process does not change bitness).
    bits: Option<(u8, Source)>,
    /// Whether `dumpsys` is here to ask.
    android: bool,
    /// The app's package flags; asked again each slow period until the package manager answers.
    app: Result<App, String>,
    /// Where the JVM's counters were found: read each sample, looked for again (a pass over
    /// `/tmp`) only when reading there fails.
    hsperf: Option<std::path::PathBuf>,
}

/// The figures read every [`SLOW_EVERY`].
#[derive(Default)]
struct Slow {
    pss: Option<(u64, Source)>,
    java_heap: Option<(JavaHeap, Source, Source)>,
    objects: Option<BTreeMap<String, u64>>,
    missing: Vec<Missing>,
}

impl Sampler {
    /// A sampler of `pid`.
    pub fn new(pid: u32) -> Sampler {
        Sampler {
            pid,
            slow_at: None,
            slow: Slow::default(),
            bits: None,
            android: crate::android::is_android(),
            app: Err("not asked yet".into()),
            hsperf: None,
        }
    }

    /// The next sample; an error only when the process cannot be read at all (it is gone).
    pub fn take(&mut self) -> std::io::Result<Sample> {
        let p = Proc::new(self.pid);
        let status = p.status()?;
        if self.slow_at.is_none_or(|t| t.elapsed() >= SLOW_EVERY) {
            self.slow_at = Some(std::time::Instant::now());
            self.slow = self.read_slow(&p);
        } else if matches!(self.slow.java_heap, Some((_, Source::Hsperfdata, _))) {
            // A JVM's counters are a small file it keeps current (its sampler writes them every
            // 50 ms): read each time, not carried like the costly figures. Just after a JVM
            // starts they read 0 until its sampler first runs.
            let now = self.hsperf_heap(&p);
            if let (Some(now), Some((heap, ..))) = (now, &mut self.slow.java_heap) {
                *heap = now;
            }
        }
        let time_ms =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let mut s = Sample {
            time_ms,
            pid: self.pid,
            name: status.name,
            rss_kb: status.vm_rss_kb,
            pss_kb: None,
            vm_size_kb: status.vm_size_kb,
            vm_peak_kb: status.vm_peak_kb,
            threads: status.threads,
            fds: None,
            fd_limit: p.fd_limit(),
            bits: None,
            java_heap: None,
            objects: self.slow.objects.clone(),
            sources: BTreeMap::new(),
            missing: self.slow.missing.clone(),
        };
        let note = |s: &mut Sample, field: Field, got: Result<Source, String>| match got {
            Ok(Source::Proc) => {}
            Ok(source) => {
                s.sources.insert(field, source);
            }
            Err(why) => s.missing.push(Missing { field, why }),
        };
        if let Some((pss, source)) = self.slow.pss {
            s.pss_kb = Some(pss);
            note(&mut s, Field::PssKb, Ok(source));
        }
        if let Some((heap, source, limit)) = self.slow.java_heap {
            s.java_heap = Some(heap);
            note(&mut s, Field::JavaHeap, Ok(source));
            note(&mut s, Field::HeapLimit, Ok(limit));
        }
        if s.objects.is_some() {
            note(&mut s, Field::Objects, Ok(Source::Dumpsys));
        }
        let fds = self.fds(&p);
        s.fds = fds.as_ref().ok().map(|f| f.0);
        note(&mut s, Field::Fds, fds.map(|f| f.1));
        if s.fd_limit.is_none() && !p.dir().join("limits").exists() {
            note(&mut s, Field::FdLimit, Err(format!("{}/limits: not there", p.dir().display())));
        }
        let bits = self.bits(&p);
        s.bits = bits.as_ref().ok().map(|b| b.0);
        note(&mut s, Field::Bits, bits.map(|b| b.1));
        // A figure one way failed to read and another way read is not missing.
        let present = |s: &Sample, f: Field| match f {
            Field::PssKb => s.pss_kb.is_some(),
            Field::Fds => s.fds.is_some(),
            Field::FdLimit => s.fd_limit.is_some(),
            Field::Bits => s.bits.is_some(),
            Field::JavaHeap | Field::HeapLimit => s.java_heap.is_some(),
            Field::Objects => s.objects.is_some(),
        };
        let missing = std::mem::take(&mut s.missing);
        s.missing = missing.into_iter().filter(|m| !present(&s, m.field)).collect();
        s.missing.sort_by_key(|m| m.field);
        Ok(s)
    }

    /// The open FDs: the agent's own count when the process's `fd` directory is open to it, else
    /// `ls` as the app's uid through `run-as` for a debuggable app.
    fn fds(&self, p: &Proc) -> Result<(u64, Source), String> {
        let direct = match p.fd_count() {
            Ok(n) => return Ok((n, Source::Proc)),
            Err(e) => format!("{}/fd: {e}", p.dir().display()),
        };
        let app = match &self.app {
            Ok(app) if app.debuggable => app,
            Ok(app) => {
                return Err(format!(
                    "{direct}: the directory belongs to the app's uid, and {} is not debuggable (run-as reads it for a debuggable build)",
                    app.package
                ))
            }
            Err(_) if !self.android => return Err(direct),
            Err(why) => return Err(format!("{direct}; run-as needs the app's package flags: {why}")),
        };
        let fd_dir = format!("{}/fd", p.dir().display());
        let out = crate::android::run("run-as", &[&app.package, "ls", &fd_dir])
            .map_err(|e| format!("{direct}; through run-as: {e}"))?;
        Ok((out.lines().filter(|l| !l.trim().is_empty()).count() as u64, Source::RunAs))
    }

    /// The process's bitness: the ELF class of its executable, else (an app's `exe` is closed to
    /// the `shell` user) the zygote that forked it.
    fn bits(&mut self, p: &Proc) -> Result<(u8, Source), String> {
        if let Some(b) = self.bits {
            return Ok(b);
        }
        let found = match p.bits() {
            Some(b) => Some((b, Source::Proc)),
            None => p.ppid().and_then(|pp| match Proc::new(pp).cmdline().as_str() {
                "zygote64" | "usap64" => Some((64, Source::Zygote)),
                "zygote" | "usap32" => Some((32, Source::Zygote)),
                _ => None,
            }),
        };
        self.bits = found;
        found.ok_or_else(|| format!("{}/exe: not readable, and the parent is not a zygote", p.dir().display()))
    }

    /// The Java heap from HotSpot's counters, when the process is a JVM that keeps them. The
    /// counters are trusted only when the process's own uid wrote them.
    fn hsperf_heap(&mut self, p: &Proc) -> Option<JavaHeap> {
        let owner = std::fs::metadata(p.dir()).map(|m| std::os::unix::fs::MetadataExt::uid(&m)).ok()?;
        let read = |path: &std::path::Path| Counters::read(path, owner).ok().and_then(|c| c.ok());
        // The file found before, while it is still the process's own; else look again.
        let counters = match self.hsperf.as_deref().and_then(read) {
            Some(c) => c,
            None => {
                let path = crate::hsperf::find(self.pid)?;
                let c = read(&path);
                self.hsperf = c.is_some().then_some(path);
                c?
            }
        };
        counters.java_heap()
    }

    /// PSS, the Java heap and the app's objects, with what could not be read.
    fn read_slow(&mut self, p: &Proc) -> Slow {
        let mut slow = Slow::default();
        if let Some(heap) = self.hsperf_heap(p) {
            slow.java_heap = Some((heap, Source::Hsperfdata, Source::Hsperfdata));
        }
        let direct_pss = match p.smaps_rollup() {
            Ok(Some(pss)) => {
                slow.pss = Some((pss, Source::Proc));
                None
            }
            Ok(None) => Some(format!("{}/smaps_rollup: not in this kernel (4.14 added it)", p.dir().display())),
            Err(e) => Some(format!("{}/smaps_rollup: {e}", p.dir().display())),
        };
        if !self.android {
            if let Some(why) = direct_pss {
                slow.missing.push(Missing { field: Field::PssKb, why });
            }
            return slow;
        }
        // Android: the package manager's flags (asked until it answers), then dumpsys.
        if self.app.is_err() {
            let cmdline = p.cmdline();
            self.app = match crate::android::package_of(&cmdline) {
                Some(pkg) => crate::android::app(pkg),
                None => Err(format!("{cmdline:?} is not an app's package name")),
            };
        }
        if let (Some(why), Ok(app)) = (&direct_pss, &self.app) {
            if app.debuggable {
                let path = format!("{}/smaps_rollup", p.dir().display());
                match crate::android::run("run-as", &[&app.package, "cat", &path]) {
                    Ok(text) => slow.pss = crate::proc::parse_pss(&text).map(|k| (k, Source::RunAs)),
                    Err(e) => slow.missing.push(Missing { field: Field::PssKb, why: format!("{why}; {e}") }),
                }
            }
        }
        let text = match crate::android::run("dumpsys", &["meminfo", &self.pid.to_string()]) {
            Ok(text) if text.contains("MEMINFO in pid") => text,
            answer => {
                let said = answer.map(|t| t.lines().find(|l| !l.trim().is_empty()).unwrap_or("no answer").to_string());
                let why = said.map_or_else(|e| e, |said| format!("dumpsys meminfo {}: {said}", self.pid));
                slow.missing.push(Missing { field: Field::JavaHeap, why });
                String::new()
            }
        };
        if slow.pss.is_none() {
            match crate::android::parse_total_pss(&text) {
                Some(pss) => slow.pss = Some((pss, Source::Dumpsys)),
                None if !slow.missing.iter().any(|m| m.field == Field::PssKb) => slow.missing.push(Missing {
                    field: Field::PssKb,
                    why: direct_pss.unwrap_or_default() + "; and dumpsys meminfo gave no TOTAL row",
                }),
                None => {}
            }
        }
        let objects = crate::android::parse_objects(&text);
        slow.objects = (!objects.is_empty()).then_some(objects);
        if slow.java_heap.is_none() && !text.is_empty() {
            let large = self.app.as_ref().is_ok_and(|a| a.large_heap);
            let limit = crate::android::heap_limit(large);
            match (crate::android::parse_meminfo(&text), limit) {
                (Some((alloc_kb, _)), Ok((max, prop))) => {
                    let limit = if prop == "dalvik.vm.heapsize" { Source::HeapSize } else { Source::HeapGrowthLimit };
                    slow.java_heap =
                        Some((JavaHeap { used: alloc_kb.saturating_mul(1024), max }, Source::Dumpsys, limit));
                }
                (None, _) => slow.missing.push(Missing {
                    field: Field::JavaHeap,
                    why: format!("dumpsys meminfo {}: no Dalvik Heap row", self.pid),
                }),
                (_, Err(why)) => slow.missing.push(Missing { field: Field::HeapLimit, why }),
            }
        }
        slow
    }
}
