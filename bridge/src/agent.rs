//! The agent on a phone: finding the right build for its CPU, pushing it when the phone's copy is
//! missing or differs, and reading its lines (`agent::protocol`).

use agent::proc::{Groups, ProcessInfo};
use agent::protocol::{DumpSpec, Dumped, Envelope, Line, Method, Request, PROTOCOL};

use crate::device::{quote, Device, DeviceError, Result, Stream, AGENT_DIR};

/// The Rust target of the agent's build for an Android ABI (`ro.product.cpu.abi`).
pub fn triple_for_abi(abi: &str) -> Option<&'static str> {
    crate::abis::abi(abi).map(|a| a.agent)
}

/// The agent build for a phone: the first ABI of its list (`ro.product.cpu.abilist`, most
/// preferred first; Android 5 and later) that heaptui builds for, else its primary ABI
/// (`ro.product.cpu.abi`, all that older releases say). A 64-bit phone lists its 32-bit ABIs
/// after the 64-bit ones; a phone with a 32-bit userspace lists only those.
pub fn triple_for_abis(abi_list: &str, abi: &str) -> Option<&'static str> {
    abi_list.split(',').chain([abi]).find_map(triple_for_abi)
}

/// The Rust target of Android's own runtime for an ABI: what a library loaded into an app (the
/// fork dump's) is built for.
pub fn android_triple_for_abi(abi: &str) -> Option<&'static str> {
    crate::abis::abi(abi).map(|a| a.android)
}

/// The ABI of a library to load into a process of `bits` bits (from its zygote: `zygote64` or
/// `zygote`): the first of the phone's 64-bit ABIs (`ro.product.cpu.abilist64`) or 32-bit ones
/// (`abilist32`) that has a target, else its primary ABI when the bitness is unknown. A 32-bit
/// app on a 64-bit phone loads 32-bit libraries only.
pub fn process_abi<'a>(bits: Option<u8>, abilist32: &'a str, abilist64: &'a str, abi: &'a str) -> Option<&'a str> {
    let list = match bits {
        Some(32) => abilist32,
        Some(64) => abilist64,
        _ => abi,
    };
    list.split(',').map(str::trim).find(|a| android_triple_for_abi(a).is_some())
}

/// The agent on a device, ready to run: on a phone the pushed build, spoken to in its lines; on
/// this machine its library, called in this process (the same code, no process in between).
pub struct Agent<'a> {
    device: &'a dyn Device,
    /// Its path on the device; `None` on this machine.
    pub path: Option<String>,
    /// Its version (`agent` of its hello line).
    pub version: String,
    /// Whether this call pushed it.
    pub pushed: bool,
}

/// The lines the agent wrote, in order: those this build reads.
fn lines(text: &[u8]) -> impl Iterator<Item = Line> + '_ {
    text.split(|&b| b == b'\n').filter_map(Envelope::parse).map(|e| e.line)
}

/// The shell's command line that runs the agent at `path` with `request`, every word quoted.
pub fn command(path: &str, request: &Request) -> String {
    std::iter::once(path.to_string()).chain(request.args()).map(|a| quote(&a)).collect::<Vec<_>>().join(" ")
}

/// The agent's hello line (its protocol and version), or `None` when it does not run.
fn hello(device: &dyn Device, path: &str) -> Result<Option<(u32, String)>> {
    let o = device.output(&command(path, &Request::Version))?;
    if o.code != 0 {
        return Ok(None);
    }
    let first = lines(&o.stdout).next();
    Ok(first.and_then(|l| match l {
        Line::Hello { protocol, agent } => Some((protocol, agent)),
        _ => None,
    }))
}

impl<'a> Agent<'a> {
    /// Makes sure the phone has this build of the agent: pushes it (for the phone's ABI) when
    /// missing or different, then checks its hello line.
    pub fn deploy(device: &'a dyn Device) -> Result<Agent<'a>> {
        if device.runs_here() {
            return Ok(Agent { device, path: None, version: agent::VERSION.to_string(), pushed: false });
        }
        let path = format!("{AGENT_DIR}/heaptui-agent");
        let prop = |name: &str| -> Result<String> {
            Ok(String::from_utf8_lossy(&device.output(&format!("getprop {name}"))?.stdout).trim().to_string())
        };
        let (abi_list, abi) = (prop("ro.product.cpu.abilist")?, prop("ro.product.cpu.abi")?);
        let triple = triple_for_abis(&abi_list, &abi).ok_or_else(|| {
            DeviceError::Transfer(format!(
                "{} runs {:?}; the agent is built for arm64-v8a, armeabi-v7a, x86_64 and x86",
                device.serial(),
                if abi_list.is_empty() { &abi } else { &abi_list }
            ))
        })?;
        let build = crate::builds::payload(crate::builds::Kind::Agent, triple)?;
        let o = device.output(&format!("sha256sum {} 2>/dev/null", quote(&path)))?;
        let have = String::from_utf8_lossy(&o.stdout).split_whitespace().next().unwrap_or("").to_string();
        let pushed = have != build.sha256();
        if pushed {
            // Under another name first (its own: another heaptui may be deploying too), then
            // moved into place: an agent still running keeps its file.
            static PUSHES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
            let n = PUSHES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let part = format!("{path}.{}-{n}.part", std::process::id());
            device.push(build.bytes(), &part, 0o755)?;
            // No `mv -f`: Android 6's toolbox `mv` takes no options (and renames over the old
            // file all the same); no shell here asks before overwriting.
            let o = device.output(&format!("chmod 755 {p} && mv {p} {}", quote(&path), p = quote(&part)))?;
            if o.code != 0 {
                return Err(DeviceError::Transfer(format!(
                    "installing the agent on {}: {}",
                    device.serial(),
                    String::from_utf8_lossy(&o.stderr).trim()
                )));
            }
        }
        let (protocol, version) = hello(device, &path)?.ok_or_else(|| {
            DeviceError::Transfer(format!("the agent at {}:{path} does not run (is {abi} right?)", device.serial()))
        })?;
        if protocol != PROTOCOL {
            return Err(DeviceError::Transfer(format!(
                "the agent at {}:{path} speaks protocol {protocol}, this heaptui {PROTOCOL}: remove it and run again",
                device.serial(),
            )));
        }
        Ok(Agent { device, path: Some(path), version, pushed })
    }

    /// The device it runs on.
    pub fn device(&self) -> &'a dyn Device {
        self.device
    }

    /// The device's processes, JVMs first, then by resident set.
    pub fn processes(&self) -> Result<Vec<ProcessInfo>> {
        let Some(path) = &self.path else { return Ok(agent::proc::list()) };
        let o = self.device.output(&command(path, &Request::Ps))?;
        Ok(lines(&o.stdout)
            .filter_map(|l| match l {
                Line::Process { process } => Some(process),
                _ => None,
            })
            .collect())
    }

    /// Probe's breakdowns of `pid`: FDs by what they point to, threads by name.
    pub fn groups(&self, pid: u32) -> Result<Groups> {
        let Some(path) = &self.path else { return Ok(agent::proc::groups(pid)?) };
        let o = self.device.output(&command(path, &Request::Groups { pid }))?;
        for line in lines(&o.stdout) {
            match line {
                Line::Groups { groups, .. } => return Ok(groups),
                Line::Error { message } => return Err(DeviceError::Transfer(message)),
                _ => {}
            }
        }
        Err(DeviceError::Transfer(format!("the agent said nothing about process {pid}")))
    }

    /// The agent's command line for `spec`, writing to `out` (`-`: its stdout).
    fn dump_command(path: &str, spec: &DumpSpec, out: &str) -> String {
        command(path, &Request::Dump { spec: *spec, out: out.to_string() })
    }

    /// The method `spec` asks for, or the one the process offers.
    fn method(spec: &DumpSpec) -> Method {
        spec.method.unwrap_or_else(|| Method::for_process(spec.pid))
    }

    /// Dumps on the device into `remote` as `spec` says, stripped there.
    pub fn dump(&self, spec: &DumpSpec, remote: &str) -> Result<Dumped> {
        let Some(path) = &self.path else { return self.dump_here(spec, std::path::Path::new(remote)) };
        let o = self.device.output(&Self::dump_command(path, spec, remote))?;
        self.dump_report(&o.stdout, o.code, &String::from_utf8_lossy(&o.stderr))
    }

    /// On this machine: dumps into the file `out` (any path, not only what a string can name).
    pub fn dump_here(&self, spec: &DumpSpec, out: &std::path::Path) -> Result<Dumped> {
        agent::dump::dump(spec.pid, Self::method(spec), spec.mode, spec.live, spec.bitmaps, out)
            .map_err(|e| self.dump_failed(&e.to_string()))
    }

    fn dump_failed(&self, message: &str) -> DeviceError {
        DeviceError::Transfer(format!("dumping on {}: {message}", self.device.serial()))
    }

    /// The `dumped` (or `error`) line among the agent's `text`.
    fn dump_report(&self, text: &[u8], code: i32, also: &str) -> Result<Dumped> {
        for line in lines(text) {
            match line {
                Line::Dumped { dumped } => return Ok(dumped),
                Line::Error { message } => return Err(self.dump_failed(&message)),
                _ => {}
            }
        }
        Err(DeviceError::Transfer(format!(
            "the agent on {} said nothing of the dump (exit {code}): {}",
            self.device.serial(),
            also.trim()
        )))
    }

    /// Dumps as [`Agent::dump`] does, but streams the dump to the host: `sink` gets its bytes as
    /// they come (nothing stripped is stored on the device). The report's `sha256` is the
    /// agent's hash of what it sent.
    pub fn dump_stream(&self, spec: &DumpSpec, sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> Result<Dumped> {
        let Some(path) = &self.path else {
            let dir = std::env::temp_dir();
            let mut out = SinkWriter(sink);
            return agent::dump::dump_into(
                spec.pid,
                Self::method(spec),
                spec.mode,
                spec.live,
                spec.bitmaps,
                &dir,
                &mut out,
            )
            .map_err(|e| self.dump_failed(&e.to_string()));
        };
        if !self.device.separate_streams() {
            // The dump goes on stdout and the agent's lines on stderr: merged, they would mix.
            return Err(DeviceError::Transfer(format!(
                "{} has no shell protocol v2 (adbd before Android 7): a streamed dump needs stdout and stderr apart; dump without --stream",
                self.device.serial()
            )));
        }
        let mut text = Vec::new();
        let mut failed = None;
        let code = self.device.run(&Self::dump_command(path, spec, "-"), &mut |s, b| match s {
            Stream::Stdout => {
                if failed.is_none() {
                    if let Err(e) = sink(b) {
                        failed = Some(e);
                    }
                }
            }
            Stream::Stderr => text.extend_from_slice(b),
        })?;
        if let Some(e) = failed {
            return Err(DeviceError::Io(e));
        }
        self.dump_report(&text, code, &String::from_utf8_lossy(&text))
    }

    /// Samples `pid` every `interval_ms` (at most `count` times), handing each line to `on_line`
    /// as it arrives.
    pub fn sample(&self, pid: u32, interval_ms: u64, count: Option<u64>, on_line: &mut dyn FnMut(Line)) -> Result<i32> {
        self.sample_until(pid, interval_ms, count, &mut |l| {
            on_line(l);
            true
        })
        .map(|c| c.unwrap_or(-1))
    }

    /// As [`Agent::sample`], but `on_line` stops the sampling by returning false (then `None`).
    /// Only `sample`, `trigger` and `error` lines are handed on.
    pub fn sample_until(
        &self,
        pid: u32,
        interval_ms: u64,
        count: Option<u64>,
        on_line: &mut dyn FnMut(Line) -> bool,
    ) -> Result<Option<i32>> {
        let Some(path) = &self.path else { return sample_here(pid, interval_ms, count, on_line) };
        let cmd = command(path, &Request::Sample { pid, interval_ms, count, trigger: None });
        let mut pending = Vec::new();
        // A sample line is a few hundred bytes: a phone that sends a megabyte without a newline
        // is not speaking the protocol, and is hung up on rather than gathered.
        const LINE_MAX: usize = 1 << 20;
        let mut overlong = false;
        let stopped = self.device.run_until(&cmd, &mut |s, b| {
            if s != Stream::Stdout {
                return true;
            }
            if pending.len() + b.len() > LINE_MAX && !b[..].contains(&b'\n') {
                overlong = true;
                return false;
            }
            pending.extend_from_slice(b);
            while let Some(nl) = pending.iter().position(|&c| c == b'\n') {
                let text: Vec<u8> = pending.drain(..=nl).collect();
                let Some(envelope) = Envelope::parse(&text) else { continue };
                let wanted = matches!(envelope.line, Line::Sample { .. } | Line::Trigger { .. } | Line::Error { .. });
                if wanted && !on_line(envelope.line) {
                    return false;
                }
            }
            true
        })?;
        if overlong {
            return Err(DeviceError::Transfer(format!(
                "`{cmd}` sent a line longer than {} MiB; it was stopped",
                LINE_MAX >> 20
            )));
        }
        Ok(stopped)
    }
}

/// A sink as a writer: where the in-process agent streams a dump.
struct SinkWriter<'s>(&'s mut dyn FnMut(&[u8]) -> std::io::Result<()>);

impl std::io::Write for SinkWriter<'_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        (self.0)(b)?;
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What the agent's `sample` does, in this process: a sample every `interval_ms` (at most
/// `count`), an `error` line and exit code 1 once the process has gone; `None` when `on_line`
/// stopped it. A process that is still there but cannot be read is an error, not its end.
fn sample_here(
    pid: u32,
    interval_ms: u64,
    count: Option<u64>,
    on_line: &mut dyn FnMut(Line) -> bool,
) -> Result<Option<i32>> {
    let interval = std::time::Duration::from_millis(interval_ms);
    let mut sampler = agent::sample::Sampler::new(pid);
    let mut next = std::time::Instant::now();
    for n in 1u64.. {
        let line = match sampler.take() {
            Ok(sample) => Line::Sample { sample },
            // Gone: said as the agent says it, in a line. Still there but unreadable: an error.
            Err(e) if std::path::Path::new(&format!("/proc/{pid}")).exists() => {
                return Err(DeviceError::Transfer(format!("process {pid}: {e}")));
            }
            Err(e) => {
                let message = format!("process {pid}: {e}");
                return Ok(on_line(Line::Error { message }).then_some(1));
            }
        };
        if !on_line(line) {
            return Ok(None);
        }
        if count.is_some_and(|c| n >= c) {
            return Ok(Some(0));
        }
        // On a steady beat: the time taken by a sample does not push the next one back.
        next += interval;
        std::thread::sleep(next.saturating_duration_since(std::time::Instant::now()));
    }
    Ok(Some(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ABI lists as phones set them: a 64-bit phone, an old 32-bit emulator, a release before
    /// `abilist` (Android 4), a 32-bit ARM userspace (Android Go), and ABIs with no build
    /// (ARMv5's `armeabi`, MIPS).
    #[test]
    fn the_first_abi_of_the_list_that_has_a_build() {
        assert_eq!(triple_for_abis("arm64-v8a,armeabi-v7a,armeabi", "arm64-v8a"), Some("aarch64-unknown-linux-musl"));
        assert_eq!(triple_for_abis("x86_64,x86,arm64-v8a", "x86_64"), Some("x86_64-unknown-linux-musl"));
        assert_eq!(triple_for_abis("x86", "x86"), Some("i686-unknown-linux-musl"));
        assert_eq!(triple_for_abis("", "x86"), Some("i686-unknown-linux-musl"));
        assert_eq!(triple_for_abis("armeabi-v7a,armeabi", "armeabi-v7a"), Some("armv7-unknown-linux-gnueabihf"));
        assert_eq!(triple_for_abis("", "armeabi-v7a"), Some("armv7-unknown-linux-gnueabihf"));
        assert_eq!(triple_for_abis("armeabi", "armeabi"), None);
        assert_eq!(triple_for_abis("mips", "mips"), None);
    }

    /// A 32-bit app on a 64-bit phone gets the 32-bit library; a 32-bit-only phone has no 64-bit
    /// list; unknown bitness falls back to the phone's primary ABI.
    #[test]
    fn the_fork_library_follows_the_process() {
        let (l32, l64) = ("armeabi-v7a,armeabi", "arm64-v8a");
        assert_eq!(process_abi(Some(32), l32, l64, "arm64-v8a"), Some("armeabi-v7a"));
        assert_eq!(process_abi(Some(64), l32, l64, "arm64-v8a"), Some("arm64-v8a"));
        assert_eq!(process_abi(None, l32, l64, "arm64-v8a"), Some("arm64-v8a"));
        assert_eq!(process_abi(Some(64), "x86", "", "x86"), None);
        assert_eq!(
            process_abi(Some(32), "x86", "", "x86").and_then(android_triple_for_abi),
            Some("i686-linux-android")
        );
    }
}
