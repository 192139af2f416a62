//! Text for people: byte counts in human units, ids in hex, names shortened to fit. Every
//! report and screen formats through these, so the same number reads the same everywhere.

/// `0x`-prefixed lowercase hex.
pub fn hex(id: u64) -> String {
    format!("0x{id:x}")
}

/// Bytes in human units (`512 B`, `1.5 KiB`, `3.2 MiB`).
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Shortens a class name from the left: `…ui.MainActivity`.
pub fn shorten(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let tail: String = s.chars().skip(n - (max - 1)).collect();
    format!("…{tail}")
}

/// Splits `s` into lines of at most `width` characters at spaces (a longer word gets a line).
pub(crate) fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in s.split(' ') {
        let cur = lines.last_mut().map_or(0, |l| l.chars().count());
        if cur > 0 && cur + 1 + word.chars().count() > width {
            lines.push(String::new());
        }
        if let Some(l) = lines.last_mut() {
            if !l.is_empty() {
                l.push(' ');
            }
            l.push_str(word);
        }
    }
    lines
}

/// Shortens `s` from the right: `com.example.Ma…`.
pub(crate) fn shorten_end(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let head: String = s.chars().take(max - 1).collect();
        format!("{head}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_units_and_shortening() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 20), "3.0 MiB");
        assert_eq!(shorten("com.example.ui.MainActivity", 16), "…ui.MainActivity");
        assert_eq!(shorten("short", 16), "short");
    }
}
