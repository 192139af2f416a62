//! What heaptui has learned of each phone's dump methods: a method that failed on a phone is
//! remembered, keyed by the phone's build fingerprint and its ART module's version, so that
//! `--method auto` does not try it first there again; a new build or a new ART module (a
//! Mainline update) is a new key, and the old entries no longer apply.
//!
//! The record is `$XDG_DATA_HOME/heaptui/phones.json` (0600 in a 0700 folder), written whole
//! under a new name and renamed into place. What is read back is bounded and checked
//! ([`MAX_BYTES`], [`MAX_ENTRIES`], each text at most [`MAX_TEXT`] characters, methods heaptui
//! knows): a record that does not read is ignored, never trusted.

use std::path::PathBuf;

use agent::protocol::Method;
use bridge::device::Device;
use serde::{Deserialize, Serialize};

/// The most of the record read back.
pub const MAX_BYTES: u64 = 256 << 10;
/// The most entries kept (the oldest go first).
pub const MAX_ENTRIES: usize = 256;
/// The most characters of each text kept.
pub const MAX_TEXT: usize = 512;

/// Which phone, as far as its dump methods go: its build and its ART module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhoneKey {
    /// `ro.build.fingerprint`.
    pub fingerprint: String,
    /// The ART module's name and version code (`com.android.art 341311000`); empty before
    /// Android 10 (no modules), where the build alone says which ART it is.
    pub art_module: String,
}

impl PhoneKey {
    /// The key of `device`, when it says its build fingerprint.
    pub fn of(device: &dyn Device) -> Option<PhoneKey> {
        let fingerprint = device.property("ro.build.fingerprint")?.trim().to_string();
        if fingerprint.is_empty() {
            return None;
        }
        let module = device
            .output("pm list packages --apex-only --show-versioncode")
            .ok()
            .and_then(|o| art_module_in(&String::from_utf8_lossy(&o.stdout)))
            .unwrap_or_default();
        Some(PhoneKey { fingerprint: clip(&fingerprint), art_module: module })
    }
}

/// The ART module's name and version in `pm list packages --apex-only --show-versioncode`'s
/// output (`package:com.android.art versionCode:341311000`), the phone's words: only a module
/// heaptui knows, with a version of at most 20 digits.
pub fn art_module_in(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("package:")?;
        let (name, code) = rest.split_once(" versionCode:")?;
        let code = code.trim();
        (matches!(name, "com.android.art" | "com.google.android.art")
            && !code.is_empty()
            && code.len() <= 20
            && code.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{name} {code}"))
    })
}

/// A method that failed on a phone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// The phone.
    #[serde(flatten)]
    pub phone: PhoneKey,
    /// The method (`fork`, `perfetto`, `am`).
    pub method: String,
    /// When (UTC, `YYYYMMDDTHHMMSSZ`).
    pub when: String,
    /// Why, as heaptui said it then.
    pub why: String,
}

/// Every method that failed on a phone heaptui has met.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Record {
    /// Oldest first.
    pub failures: Vec<Failure>,
}

fn clip(s: &str) -> String {
    s.chars().take(MAX_TEXT).collect()
}

impl Record {
    /// Where it is kept.
    pub fn path() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
        Some(base.join("heaptui/phones.json"))
    }

    /// What was kept, or nothing: a record that is missing, too large, not JSON, or holds what no
    /// record of heaptui's holds is ignored.
    pub fn load() -> Record {
        Record::path().and_then(|p| Record::read(&p)).unwrap_or_default()
    }

    fn read(path: &std::path::Path) -> Option<Record> {
        use std::io::Read;
        let mut text = Vec::new();
        std::fs::File::open(path).ok()?.take(MAX_BYTES + 1).read_to_end(&mut text).ok()?;
        Record::parse(&text)
    }

    /// A record from its bytes, checked (see the module).
    pub fn parse(bytes: &[u8]) -> Option<Record> {
        if bytes.len() as u64 > MAX_BYTES {
            return None;
        }
        let r: Record = serde_json::from_slice(bytes).ok()?;
        let sane = r.failures.len() <= MAX_ENTRIES
            && r.failures.iter().all(|f| {
                Method::parse(&f.method).is_some()
                    && [&f.phone.fingerprint, &f.phone.art_module, &f.when, &f.why]
                        .iter()
                        .all(|t| t.chars().count() <= MAX_TEXT)
            });
        sane.then_some(r)
    }

    /// The failure of `method` on `phone`, when there is one.
    pub fn failure(&self, phone: &PhoneKey, method: Method) -> Option<&Failure> {
        self.failures.iter().rev().find(|f| &f.phone == phone && f.method == method.name())
    }

    /// Every failure on `phone`.
    pub fn of<'a>(&'a self, phone: &'a PhoneKey) -> impl Iterator<Item = &'a Failure> + 'a {
        self.failures.iter().filter(move |f| &f.phone == phone)
    }

    /// Remembers that `method` failed on `phone` now, for `why`.
    pub fn failed(&mut self, phone: &PhoneKey, method: Method, why: &str) {
        self.forget(phone, method);
        let when = super::names::utc_stamp(
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64),
        );
        self.failures.push(Failure { phone: phone.clone(), method: method.name().into(), when, why: clip(why) });
        let over = self.failures.len().saturating_sub(MAX_ENTRIES);
        self.failures.drain(..over);
    }

    /// Forgets a failure of `method` on `phone` (it worked there since).
    pub fn forget(&mut self, phone: &PhoneKey, method: Method) {
        self.failures.retain(|f| !(&f.phone == phone && f.method == method.name()));
    }

    /// Keeps it: written whole under a new name (0600, in a 0700 folder), then renamed into place.
    pub fn save(&self) -> anyhow::Result<()> {
        use anyhow::Context;
        let path = Record::path().context("neither XDG_DATA_HOME nor HOME is set")?;
        let dir = path.parent().context("the record's folder")?;
        crate::session::files::private_dir(dir)?;
        let text = serde_json::to_vec_pretty(self)?;
        let part = dir.join(format!(".phones.json.{}.part", std::process::id()));
        let _ = std::fs::remove_file(&part);
        {
            use std::io::Write;
            let mut f = crate::session::files::private_file(&part)?;
            f.write_all(&text)?;
        }
        std::fs::rename(&part, &path).with_context(|| path.display().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(module: &str) -> PhoneKey {
        PhoneKey { fingerprint: "google/panther/panther:14/UQ1A/1:user/release-keys".into(), art_module: module.into() }
    }

    #[test]
    fn a_failure_is_kept_for_its_build_and_module_only() {
        let mut r = Record::default();
        r.failed(&key("com.android.art 341311000"), Method::Fork, "the child hung");
        assert!(r.failure(&key("com.android.art 341311000"), Method::Fork).is_some());
        assert!(r.failure(&key("com.android.art 341311000"), Method::Am).is_none());
        // A Mainline update of ART: another runtime, tried again.
        assert!(r.failure(&key("com.android.art 350520040"), Method::Fork).is_none());
        let text = serde_json::to_vec(&r).unwrap();
        let back = Record::parse(&text).unwrap();
        assert_eq!(back.failures, r.failures);
        r.forget(&key("com.android.art 341311000"), Method::Fork);
        assert!(r.failures.is_empty());
    }

    #[test]
    fn the_record_is_bounded() {
        let mut r = Record::default();
        for i in 0..MAX_ENTRIES + 10 {
            r.failed(&key(&format!("com.android.art {i}")), Method::Fork, &"x".repeat(10_000));
        }
        assert_eq!(r.failures.len(), MAX_ENTRIES);
        assert!(r.failures.iter().all(|f| f.why.len() == MAX_TEXT));
        assert_eq!(r.failures[0].phone.art_module, "com.android.art 10", "the oldest went first");
    }

    /// A record written by someone else, or damaged (the hostile corpus's): ignored, never
    /// trusted.
    #[test]
    fn a_hostile_record_is_ignored() {
        for (why, bytes) in test_support::hostile::phone_records() {
            assert!(Record::parse(&bytes).is_none(), "{why}");
        }
    }

    #[test]
    fn the_art_module_is_read_from_pm_and_nothing_else() {
        let pm = "package:com.android.tzdata versionCode:340000000\npackage:com.android.art versionCode:341311000\n";
        assert_eq!(art_module_in(pm).as_deref(), Some("com.android.art 341311000"));
        assert_eq!(
            art_module_in("package:com.google.android.art versionCode:350520040").as_deref(),
            Some("com.google.android.art 350520040")
        );
        for hostile in [
            "package:com.android.art versionCode:34\u{1b}[2J",
            "package:com.android.art versionCode:123456789012345678901234567890",
            "package:com.android.artx versionCode:1",
            "package:com.android.art versionCode:",
            "Error: Unknown option: --apex-only",
        ] {
            assert_eq!(art_module_in(hostile), None, "{hostile:?}");
        }
    }
}
