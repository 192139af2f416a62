//! `heaptui ps`: the processes of a device to watch, JVMs first, then by resident memory.

/// `heaptui ps`.
#[derive(clap::Args)]
pub struct PsArgs {
    #[command(flatten)]
    device: super::DeviceArgs,
    /// JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Lists the processes of the device.
pub fn run(args: PsArgs) -> anyhow::Result<()> {
    let device = args.device.device()?;
    let list = bridge::agent::Agent::deploy(&*device)?.processes()?;
    if args.json {
        let mut s = String::new();
        for p in &list {
            s.push_str(&serde_json::to_string(p)?);
            s.push('\n');
        }
        return super::print_json(&s);
    }
    let mut s = format!("{:>8} {:>10}  {:<4} {:<16} command\n", "pid", "rss", "jvm", "name");
    for p in &list {
        s.push_str(&format!(
            "{:>8} {:>10}  {:<4} {:<16} {}\n",
            p.pid,
            heap::fmt::human_bytes(p.rss_kb.saturating_mul(1024)),
            if p.jvm { "yes" } else { "" },
            heap::fmt::safe(&p.name),
            heap::fmt::shorten(&p.cmdline, 80)
        ));
    }
    super::print(&s)
}
