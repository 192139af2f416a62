//! `heaptui devices`: the phones the adb server knows, and this machine (`local`).

/// `heaptui devices`.
#[derive(clap::Args)]
pub struct DevicesArgs {
    /// JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Lists adb devices and this machine.
pub fn run(args: DevicesArgs) -> anyhow::Result<()> {
    let port = bridge::adb::server_port();
    let (adb, note) = match bridge::adb::devices(port) {
        Ok(d) => (d, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default().trim().to_string();
    if args.json {
        let v = serde_json::json!({
            "devices": adb,
            "local": {"serial": "local", "state": "device", "model": host},
            "adb": note.as_deref().unwrap_or("ok"),
        });
        return super::print_json(&format!("{v}\n"));
    }
    let mut s = format!("{:<24} {:<14} model\n", "serial", "state");
    use heap::fmt::safe;
    for d in &adb {
        let model = d.model.as_deref().unwrap_or("-");
        s.push_str(&format!("{:<24} {:<14} {}\n", safe(&d.serial), safe(&d.state.to_string()), safe(model)));
    }
    s.push_str(&format!("{:<24} {:<14} {} (this machine)\n", "local", "device", safe(&host)));
    if let Some(n) = note {
        s.push_str(&format!("\nNo phones: {}.\n", safe(&n)));
    } else if adb.is_empty() {
        s.push_str("\nNo phones attached: plug one in with USB debugging on, or `adb connect HOST:PORT`.\n");
    }
    super::print(&s)
}
