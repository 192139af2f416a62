//! Choosing what to watch or dump: a device (this machine or a phone) and one of its processes.

use bridge::agent::Agent;
use bridge::device::Device;

/// The device the command line names: `local` is this machine, a serial a phone, neither the one
/// phone attached or else this machine (see [`bridge::device::select`]).
pub fn device(local: bool, serial: Option<&str>) -> anyhow::Result<Box<dyn Device>> {
    Ok(bridge::device::select(local, serial)?)
}

/// How the user names `device` on the command line (for hints in messages).
pub fn flag(device: &dyn Device) -> String {
    if device.runs_here() {
        "--local".to_string()
    } else {
        format!("-s {}", bridge::shell::quote(device.serial()))
    }
}

/// The one process `query` (a pid, a command name, a JVM's main class or jar, a package) names
/// among those the agent sees.
pub fn pick(agent: &Agent<'_>, query: &str) -> anyhow::Result<u32> {
    let list = agent.processes()?;
    let found = agent::proc::find(&list, query);
    match found.as_slice() {
        [one] => Ok(one.pid),
        [] => crate::fail!(NoDevice, "no process named {query:?} (see `heaptui ps {}`)", flag(agent.device())),
        many => {
            let names: Vec<String> = many.iter().take(10).map(|p| format!("{} ({})", p.pid, p.name)).collect();
            crate::fail!(Usage, "{} processes match {query:?}: {}; give a pid", many.len(), names.join(", "))
        }
    }
}
