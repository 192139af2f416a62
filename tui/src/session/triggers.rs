//! The standing thresholds: the defaults, then the user's config file, before any `--trigger`.

use anyhow::Context;

/// The trigger config file: `$HEAPTUI_TRIGGERS`, else `$XDG_CONFIG_HOME/heaptui/triggers`
/// (`~/.config/heaptui/triggers`).
pub fn config_path() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("HEAPTUI_TRIGGERS") {
        return Some(p.into());
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".config")))?;
    Some(base.join("heaptui").join("triggers"))
}

/// The thresholds before any `--trigger`: the defaults, then the config file's lines (trigger
/// specs, as `--trigger` takes them; `#` starts a comment).
pub fn base_config() -> anyhow::Result<agent::trigger::Config> {
    let mut config = agent::trigger::Config::default();
    let Some(path) = config_path() else { return Ok(config) };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(config),
        Err(e) => return Err(e).with_context(|| path.display().to_string()),
    };
    for (i, line) in text.lines().enumerate() {
        let spec = line.split('#').next().unwrap_or("").trim();
        if !spec.is_empty() {
            config = agent::trigger::parse(spec, config).with_context(|| format!("{}:{}", path.display(), i + 1))?;
        }
    }
    Ok(config)
}

/// The thresholds in words for sample `s` (`heap 217.6 MiB x3, threads 750, ...`).
pub fn describe(t: &agent::trigger::Triggers, s: &agent::sample::Sample) -> String {
    use heap::fmt::human_bytes;
    let mut v = Vec::new();
    if let Some(line) = s.java_heap.and_then(|h| t.heap_line(h.max)) {
        v.push(format!("heap {} x{}", human_bytes(line), t.config.heap_polls));
    }
    if let Some(n) = t.config.threads {
        v.push(format!("threads {n}"));
    }
    if let Some(n) = t.fd_line(s.fd_limit) {
        v.push(format!("fds {n}"));
    }
    if let Some(n) = t.vm_size_line(s.bits) {
        v.push(format!("vmsize {}", human_bytes(n.saturating_mul(1024))));
    }
    if let Some(n) = t.config.jump_bytes {
        v.push(format!("jump {}", human_bytes(n)));
    }
    v.join(", ")
}
