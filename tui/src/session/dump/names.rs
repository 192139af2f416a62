//! Where dumps go by default, and their names.

use std::path::PathBuf;

use anyhow::Context;

/// Where dumps of `process` on `device` go by default:
/// `$XDG_DATA_HOME/heaptui/dumps/DEVICE/PROCESS/YYYYMMDDTHHMMSSZ.hprof`.
pub fn default_path(device: &str, process: &str, time_ms: u64) -> anyhow::Result<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .context("neither XDG_DATA_HOME nor HOME is set; give -o FILE")?;
    let dir = base.join("heaptui/dumps").join(safe_component(device)).join(safe_component(process));
    let stamp = utc_stamp(time_ms);
    // Two dumps in one second get `-2`, `-3`... (an existing file is never the answer).
    for i in 1..1000 {
        let name = if i == 1 { format!("{stamp}.hprof") } else { format!("{stamp}-{i}.hprof") };
        let p = dir.join(&name);
        if !p.exists() && !dir.join(format!("{name}.json")).exists() {
            return Ok(p);
        }
    }
    crate::fail!(Output, "no free name for {stamp}.hprof in {}", dir.display())
}

/// A device's serial or a process's name as one path component: letters, digits, `.`, `_` and
/// `-` kept, anything else (`/`, control characters, bidi overrides) `_`; a leading `.` becomes `_`
/// too, so `.` and `..` (which would name this directory or its parent) and hidden names cannot
/// come out; at most 100 characters; never empty. Serials and process names are what a phone
/// or a process says they are.
pub fn safe_component(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(100)
        .enumerate()
        .map(|(i, c)| if (c.is_alphanumeric() || "._-".contains(c)) && !(i == 0 && c == '.') { c } else { '_' })
        .collect();
    if out.is_empty() {
        out.push('_');
    }
    out
}

/// `20261123T014126Z` for a time in ms since the epoch (UTC; civil date from days, as in Howard
/// Hinnant's `civil_from_days`).
pub fn utc_stamp(time_ms: u64) -> String {
    let secs = time_ms / 1000;
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z", rem / 3600, rem / 60 % 60, rem % 60)
}

#[cfg(test)]
mod tests {
    #[test]
    fn hostile_names_stay_one_component_below() {
        use super::safe_component as c;
        assert_eq!(c(".."), "_.");
        assert_eq!(c("."), "_");
        assert_eq!(c(""), "_");
        assert_eq!(c("../../etc"), "_._.._etc");
        assert_eq!(c("a/b"), "a_b");
        assert_eq!(c("\x1b]52;c;x\x07"), "__52_c_x_");
        assert_eq!(c("emulator-5554"), "emulator-5554");
        assert_eq!(c("com.example.app:remote"), "com.example.app_remote");
        assert_eq!(c(&"x".repeat(300)).len(), 100);
        for hostile in ["..", ".", "../x", "/", "\u{202e}gpj", "a\0b"] {
            let p = std::path::Path::new("/base").join(c(hostile));
            assert_eq!(p.parent(), Some(std::path::Path::new("/base")), "{hostile}");
            assert_eq!(p.components().count(), 3, "{hostile}");
        }
    }

    /// Against `date -u -d @SECONDS +%Y%m%dT%H%M%SZ`.
    #[test]
    fn stamps_in_utc() {
        assert_eq!(super::utc_stamp(0), "19700101T000000Z");
        assert_eq!(super::utc_stamp(951_782_400_000), "20000229T000000Z");
        assert_eq!(super::utc_stamp(1_795_398_086_308), "20261123T014126Z");
    }
}
