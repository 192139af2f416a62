//! The agent on a phone: finding the right build for its CPU, pushing it when the phone's copy is
//! missing or differs, and reading its JSON lines.

use std::path::{Path, PathBuf};

use crate::device::{quote, Device, DeviceError, Result, Stream, AGENT_DIR};

/// The Rust target an Android ABI runs (`ro.product.cpu.abi`).
pub fn triple_for_abi(abi: &str) -> Option<&'static str> {
    match abi.trim() {
        "arm64-v8a" => Some("aarch64-unknown-linux-musl"),
        "x86_64" => Some("x86_64-unknown-linux-musl"),
        _ => None,
    }
}

/// The Rust target of Android's own runtime for an ABI: what a library loaded into an app (the
/// fork dump's) is built for.
pub fn android_triple_for_abi(abi: &str) -> Option<&'static str> {
    match abi.trim() {
        "arm64-v8a" => Some("aarch64-linux-android"),
        "x86_64" => Some("x86_64-linux-android"),
        _ => None,
    }
}

/// Where a build of `file` (`heaptui-agent`, `libforkdump.so`) for `triple` is looked for, in
/// order: `$HEAPTUI_AGENT_DIR/<triple>/`, then cargo's target directory around the running
/// program (`target/<triple>/release/`, then `debug/`), then `agents/<triple>/` beside it.
pub fn build_candidates(triple: &str, file: &str) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(d) = std::env::var_os("HEAPTUI_AGENT_DIR") {
        v.push(Path::new(&d).join(triple).join(file));
    }
    if let Ok(exe) = std::env::current_exe() {
        // target/<profile>/heaptui, or target/<profile>/deps/<test> under cargo test.
        for up in exe.ancestors().skip(1).take(3) {
            if up.file_name().is_some_and(|n| n == "target") {
                for profile in ["release", "debug"] {
                    v.push(up.join(triple).join(profile).join(file));
                }
            }
        }
        if let Some(dir) = exe.parent() {
            v.push(dir.join("agents").join(triple).join(file));
        }
    }
    v
}

/// Where a build of the agent for `triple` is looked for (see [`build_candidates`]).
pub fn agent_candidates(triple: &str) -> Vec<PathBuf> {
    build_candidates(triple, "heaptui-agent")
}

/// A local build of `file` for `triple`, or an error saying how to make one (`how`).
pub fn local_build(triple: &str, file: &str, how: &str) -> Result<PathBuf> {
    let candidates = build_candidates(triple, file);
    candidates.iter().find(|p| p.is_file()).cloned().ok_or_else(|| {
        DeviceError::Transfer(format!(
            "no {file} built for {triple}; {how} (looked in: {})",
            candidates.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        ))
    })
}

/// A local build of the agent for `triple`, or an error saying how to make one.
pub fn local_agent(triple: &str) -> Result<PathBuf> {
    local_build(
        triple,
        "heaptui-agent",
        &format!(
            "build it with `rustup target add {triple} && cargo build --release -p heaptui-agent --target {triple}`"
        ),
    )
}

fn sha256_file(p: &Path) -> Result<String> {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    std::io::copy(&mut std::fs::File::open(p)?, &mut h)?;
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// One line the agent wrote.
#[derive(Debug, Clone)]
pub enum Line {
    /// A sample.
    Sample(agent::sample::Sample),
    /// A trigger event, as JSON.
    Trigger(serde_json::Value),
    /// The agent could not go on.
    Error(String),
}

/// The agent on a device, ready to run.
pub struct Agent<'a> {
    device: &'a dyn Device,
    /// Its path on the device.
    pub path: String,
    /// Its version (`agent` of its hello line).
    pub version: String,
    /// Whether this call pushed it.
    pub pushed: bool,
}

fn hello(device: &dyn Device, path: &str) -> Result<Option<serde_json::Value>> {
    let o = device.output(&format!("{} version", quote(path)))?;
    if o.code != 0 {
        return Ok(None);
    }
    Ok(String::from_utf8_lossy(&o.stdout).lines().next().and_then(|l| serde_json::from_str(l).ok()))
}

impl<'a> Agent<'a> {
    /// Makes sure the phone has this build of the agent: pushes it (for the phone's ABI) when
    /// missing or different, then checks its hello line.
    pub fn deploy(device: &'a dyn Device) -> Result<Agent<'a>> {
        let path = format!("{AGENT_DIR}/heaptui-agent");
        let abi = String::from_utf8_lossy(&device.output("getprop ro.product.cpu.abi")?.stdout).trim().to_string();
        let triple = triple_for_abi(&abi).ok_or_else(|| {
            DeviceError::Transfer(format!(
                "{} runs {abi:?}; the agent is built for arm64-v8a and x86_64 only",
                device.serial()
            ))
        })?;
        let local = local_agent(triple)?;
        let want = sha256_file(&local)?;
        let o = device.output(&format!("sha256sum {} 2>/dev/null", quote(&path)))?;
        let have = String::from_utf8_lossy(&o.stdout).split_whitespace().next().unwrap_or("").to_string();
        let pushed = have != want;
        if pushed {
            // Under another name first (its own: another heaptui may be deploying too), then
            // moved into place: an agent still running keeps its file.
            static PUSHES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
            let n = PUSHES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let part = format!("{path}.{}-{n}.part", std::process::id());
            device.push(&local, &part, 0o755)?;
            let o = device.output(&format!("chmod 755 {p} && mv -f {p} {}", quote(&path), p = quote(&part)))?;
            if o.code != 0 {
                return Err(DeviceError::Transfer(format!(
                    "installing the agent on {}: {}",
                    device.serial(),
                    String::from_utf8_lossy(&o.stderr).trim()
                )));
            }
        }
        let h = hello(device, &path)?.ok_or_else(|| {
            DeviceError::Transfer(format!("the agent at {}:{path} does not run (is {abi} right?)", device.serial()))
        })?;
        if h["protocol"].as_u64() != Some(u64::from(agent::PROTOCOL)) {
            return Err(DeviceError::Transfer(format!(
                "the agent at {}:{path} speaks protocol {}, this heaptui {}: remove it and run again",
                device.serial(),
                h["protocol"],
                agent::PROTOCOL
            )));
        }
        let version = h["agent"].as_str().unwrap_or("").to_string();
        Ok(Agent { device, path, version, pushed })
    }

    /// The device's processes, JVMs first, then by resident set.
    pub fn processes(&self) -> Result<Vec<agent::proc::ProcessInfo>> {
        let o = self.device.output(&format!("{} ps", quote(&self.path)))?;
        Ok(String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|v| v["type"] == "process")
            .filter_map(|v| serde_json::from_value(v["process"].clone()).ok())
            .collect())
    }

    /// Probe's breakdowns of `pid`: FDs by what they point to, threads by name.
    pub fn groups(&self, pid: u32) -> Result<agent::proc::Groups> {
        let o = self.device.output(&format!("{} groups --pid {pid}", quote(&self.path)))?;
        let text = String::from_utf8_lossy(&o.stdout);
        for v in text.lines().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()) {
            match v["type"].as_str() {
                Some("groups") => {
                    return serde_json::from_value(v["groups"].clone())
                        .map_err(|e| DeviceError::Transfer(format!("the agent's groups: {e}")))
                }
                Some("error") => return Err(DeviceError::Transfer(v["message"].as_str().unwrap_or("").to_string())),
                _ => {}
            }
        }
        Err(DeviceError::Transfer(format!("the agent said nothing about process {pid}")))
    }

    /// Dumps `pid` on the device into `remote` (`method`: auto, attach or am; `mode`: triage,
    /// koom, redact or none), stripped there.
    pub fn dump(&self, pid: u32, method: &str, mode: &str, live: bool, remote: &str) -> Result<agent::dump::Dumped> {
        let mut cmd = format!(
            "{} dump --pid {pid} --method {} --mode {} --out {}",
            quote(&self.path),
            quote(method),
            quote(mode),
            quote(remote)
        );
        if !live {
            cmd.push_str(" --all");
        }
        let o = self.device.output(&cmd)?;
        self.dump_report(&String::from_utf8_lossy(&o.stdout), o.code, &String::from_utf8_lossy(&o.stderr))
    }

    /// The `dumped` (or `error`) line among the agent's `lines`.
    fn dump_report(&self, lines: &str, code: i32, also: &str) -> Result<agent::dump::Dumped> {
        for v in lines.lines().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()) {
            match v["type"].as_str() {
                Some("dumped") => {
                    return serde_json::from_value(v["dumped"].clone())
                        .map_err(|e| DeviceError::Transfer(format!("the agent's dump report: {e}")))
                }
                Some("error") => {
                    return Err(DeviceError::Transfer(format!(
                        "dumping on {}: {}",
                        self.device.serial(),
                        v["message"].as_str().unwrap_or("")
                    )))
                }
                _ => {}
            }
        }
        Err(DeviceError::Transfer(format!(
            "the agent on {} said nothing of the dump (exit {code}): {}",
            self.device.serial(),
            also.trim()
        )))
    }

    /// Dumps `pid` as [`Agent::dump`] does, but streams the dump to the host: `sink` gets its
    /// bytes as they come (nothing stripped is stored on the device). The report's `sha256` is the
    /// agent's hash of what it sent.
    pub fn dump_stream(
        &self,
        pid: u32,
        method: &str,
        mode: &str,
        live: bool,
        sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
    ) -> Result<agent::dump::Dumped> {
        let mut cmd =
            format!("{} dump --pid {pid} --method {} --mode {} --out -", quote(&self.path), quote(method), quote(mode));
        if !live {
            cmd.push_str(" --all");
        }
        let mut lines = Vec::new();
        let mut failed = None;
        let code = self.device.run(&cmd, &mut |s, b| match s {
            Stream::Stdout => {
                if failed.is_none() {
                    if let Err(e) = sink(b) {
                        failed = Some(e);
                    }
                }
            }
            Stream::Stderr => lines.extend_from_slice(b),
        })?;
        if let Some(e) = failed {
            return Err(DeviceError::Io(e));
        }
        let text = String::from_utf8_lossy(&lines);
        self.dump_report(&text, code, &text)
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
    pub fn sample_until(
        &self,
        pid: u32,
        interval_ms: u64,
        count: Option<u64>,
        on_line: &mut dyn FnMut(Line) -> bool,
    ) -> Result<Option<i32>> {
        let mut cmd = format!("{} sample --pid {pid} --interval-ms {interval_ms}", quote(&self.path));
        if let Some(c) = count {
            cmd.push_str(&format!(" --count {c}"));
        }
        let mut pending = Vec::new();
        self.device.run_until(&cmd, &mut |s, b| {
            if s != Stream::Stdout {
                return true;
            }
            pending.extend_from_slice(b);
            while let Some(nl) = pending.iter().position(|&c| c == b'\n') {
                let line: Vec<u8> = pending.drain(..=nl).collect();
                let Ok(v) = serde_json::from_slice::<serde_json::Value>(&line) else { continue };
                let more = match v["type"].as_str() {
                    Some("sample") => match serde_json::from_value(v["sample"].clone()) {
                        Ok(s) => on_line(Line::Sample(s)),
                        Err(_) => true,
                    },
                    Some("trigger") => on_line(Line::Trigger(v["event"].clone())),
                    Some("error") => on_line(Line::Error(v["message"].as_str().unwrap_or("").to_string())),
                    _ => true,
                };
                if !more {
                    return false;
                }
            }
            true
        })
    }
}
