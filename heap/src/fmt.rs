//! Text for people: byte counts in human units, ids in hex, names shortened to fit, untrusted
//! text made safe to show. Every report and screen formats through these, so the same number
//! reads the same everywhere and no string from a dump, a device or a file name reaches a
//! terminal as a control sequence.

use std::borrow::Cow;
use std::fmt::Write as _;

/// True for a character a terminal may act on instead of showing: C0 controls (`\0`–`\x1f`,
/// ESC among them), DEL, C1 controls (U+0080–U+009F, which some terminals take as CSI, OSC...)
/// and the Unicode bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder the
/// text after them.
pub fn is_unsafe(c: char) -> bool {
    matches!(c, '\0'..='\x1f' | '\x7f'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` made safe to show on a terminal: every [`is_unsafe`] character is written visibly
/// (`\n`, `\r`, `\t`, `\x1b` for the other C0 controls and DEL, `\u{9b}` for C1 and bidi
/// controls), never sent. Borrowed, without allocating, when nothing needs changing.
///
/// The form is for people, not reversible: a backslash in `s` is kept as it is. Machine output
/// (JSON) never goes through this: it escapes exactly, with [`safe_json`] for what serde leaves.
pub fn safe(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

/// As [`safe`] for multi-line text that heaptui itself laid out: newlines and tabs are kept,
/// everything else unsafe is escaped. The last word before text reaches stdout or stderr.
pub fn safe_lines(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

/// JSON text (as serde_json writes it) made safe to print, as the same JSON value: serde escapes
/// C0 controls inside strings but writes DEL, C1 and the bidi controls raw, so those are written
/// as `\u` escapes here, which a JSON reader decodes to the very same characters. (They can only
/// occur inside strings; newlines and tabs between values are left alone.)
pub fn safe_json(json: &str) -> Cow<'_, str> {
    let raw = |c: char| is_unsafe(c) && c >= '\x7f';
    let Some(first) = json.find(raw) else { return Cow::Borrowed(json) };
    let mut out = String::with_capacity(json.len() + 8);
    out.push_str(&json[..first]);
    for c in json[first..].chars() {
        if raw(c) {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn escape(s: &str, lines: bool) -> Cow<'_, str> {
    let kept = |c: char| lines && (c == '\n' || c == '\t');
    let Some(first) = s.find(|c: char| is_unsafe(c) && !kept(c)) else { return Cow::Borrowed(s) };
    let mut out = String::with_capacity(s.len() + 8);
    out.push_str(&s[..first]);
    for c in s[first..].chars() {
        match c {
            c if !is_unsafe(c) || kept(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c < '\u{80}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

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

/// Shortens a class name from the left: `…ui.MainActivity`. For display: made [`safe`] first,
/// so the result fits `max` as shown.
pub fn shorten(s: &str, max: usize) -> String {
    let s = safe(s);
    let n = s.chars().count();
    if n <= max {
        return s.into_owned();
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

/// Shortens a class name in the middle, keeping the package's head and the simple name:
/// `com.android.dialer.calllog.CallLogNotificationsService` in 40 columns is
/// `com.…calllog.CallLogNotificationsService`. What is cut is whole package segments, so the
/// name stays recognisable; a simple name too long for `max` keeps its end, as [`shorten`]
/// does. Made [`safe`] first.
pub fn shorten_middle(s: &str, max: usize) -> String {
    let s = safe(s);
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= max {
        return s.into_owned();
    }
    if max < 4 {
        return shorten(&s, max.max(1));
    }
    // Segment starts: after each '.' (a nested class's '$' stays in its segment).
    let dots: Vec<usize> = chars.iter().enumerate().filter(|(_, c)| **c == '.').map(|(i, _)| i).collect();
    let Some(&last) = dots.last() else { return shorten(&s, max) };
    let text = |r: std::ops::Range<usize>| chars[r].iter().collect::<String>();
    // The head: the first segment and its dot, when it leaves room for the simple name.
    let head_end = dots[0] + 1;
    let simple = chars.len() - last;
    let head = if head_end + 1 + simple <= max { head_end } else { 0 };
    // The tail: the longest run of whole segments that fits after the head and the ellipsis.
    let room = max - head - 1;
    let tail_start =
        dots.iter().map(|&d| d + 1).find(|&start| start > head && chars.len() - start <= room).unwrap_or(last + 1);
    if chars.len() - tail_start > room {
        return shorten(&s, max);
    }
    format!("{}…{}", text(0..head), text(tail_start..chars.len()))
}

/// A class name for a text report: shortened in the middle to `max` when `cut` (a terminal),
/// else whole (piped or written to a file, for `grep`). Made [`safe`] either way.
pub fn fit_name(s: &str, max: usize, cut: bool) -> String {
    if cut {
        shorten_middle(s, max)
    } else {
        safe(s).into_owned()
    }
}

/// Shortens `s` from the right: `com.example.Ma…`. Not made safe: callers quote the result with
/// `{:?}`, which escapes control characters itself.
pub fn shorten_end(s: &str, max: usize) -> String {
    if max == 0 {
        return String::new();
    }
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let head: String = s.chars().take(max - 1).collect();
        format!("{head}…")
    }
}

/// `n` and its noun, plural unless `n` is 1 ("1 instance", "3 instances").
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_names_shorten_in_the_middle() {
        let name = "com.android.dialer.calllog.CallLogNotificationsService";
        assert_eq!(shorten_middle(name, 80), name);
        assert_eq!(shorten_middle(name, 40), "com.…calllog.CallLogNotificationsService");
        assert_eq!(shorten_middle(name, 33), "com.…CallLogNotificationsService");
        assert_eq!(shorten_middle(name, 29), "…CallLogNotificationsService");
        assert_eq!(shorten_middle(name, 20).chars().count(), 20);
        assert_eq!(shorten_middle("a.b.C", 4).chars().count(), 4);
        for max in 1..60 {
            assert!(shorten_middle(name, max).chars().count() <= max.max(1), "{max}");
        }
    }

    #[test]
    fn human_units_and_shortening() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 20), "3.0 MiB");
        assert_eq!(shorten("com.example.ui.MainActivity", 16), "…ui.MainActivity");
        assert_eq!(shorten("short", 16), "short");
    }

    #[test]
    fn unsafe_characters_are_shown_not_sent() {
        assert_eq!(safe("\x1b]52;c;aGk=\x07"), "\\x1b]52;c;aGk=\\x07");
        assert_eq!(safe("\x1b[2J"), "\\x1b[2J");
        assert_eq!(safe("a\nb\tc\rd\0e\x7f"), "a\\nb\\tc\\rd\\x00e\\x7f");
        assert_eq!(safe("\u{9b}31m \u{85}"), "\\u{9b}31m \\u{85}");
        assert_eq!(safe("txt.\u{202e}exe\u{2066}\u{2069}"), "txt.\\u{202e}exe\\u{2066}\\u{2069}");
        assert_eq!(safe_lines("a\tb\nc\x1b[0m\r\n"), "a\tb\nc\\x1b[0m\\r\n");
        // Printable neighbours of the ranges are left alone.
        for clean in [" ~", "\u{a0}\u{a1}é", "\u{2029}\u{202f}\u{2065}\u{206a}", "…ui.Main$1", "日本語", "a\\x1b"]
        {
            assert!(matches!(safe(clean), Cow::Borrowed(_)), "{clean:?}");
            assert_eq!(safe(clean), clean);
        }
        assert_eq!(shorten("com.example.\x1b[2J", 10), "…e.\\x1b[2J");
        let json = serde_json::to_string(&"\x1b]0;t\x07 \u{7f}\u{9b}\u{202e}").unwrap();
        assert_eq!(json, "\"\\u001b]0;t\\u0007 \u{7f}\u{9b}\u{202e}\"");
        assert_eq!(safe_json(&json), "\"\\u001b]0;t\\u0007 \\u007f\\u009b\\u202e\"");
        assert!(matches!(safe_json("{\n  \"a\": \"é\\n\"\n}"), Cow::Borrowed(_)));
    }

    proptest::proptest! {
        #[test]
        fn safe_output_holds_no_unsafe_character(s in "\\PC*|[\\x00-\\x{a0}\\x{2028}-\\x{206f}]{0,40}") {
            let out = safe(&s);
            proptest::prop_assert!(!out.chars().any(is_unsafe), "{:?} -> {:?}", s, out);
            let lines = safe_lines(&s);
            proptest::prop_assert!(!lines.chars().any(|c| is_unsafe(c) && c != '\n' && c != '\t'));
            // Clean text comes back as it was, borrowed; escaping twice changes nothing.
            if !s.chars().any(is_unsafe) {
                proptest::prop_assert!(matches!(out, Cow::Borrowed(_)));
            }
            proptest::prop_assert_eq!(safe(&out), out.clone());
            // JSON keeps the exact string and loses the unsafe characters.
            let json = serde_json::to_string_pretty(&serde_json::json!({"s": s, "v": [s.as_str()]})).unwrap();
            let printed = safe_json(&json);
            proptest::prop_assert!(!printed.chars().any(|c| is_unsafe(c) && c != '\n'));
            let back: serde_json::Value = serde_json::from_str(&printed).unwrap();
            proptest::prop_assert_eq!(back["s"].as_str(), Some(s.as_str()));
            proptest::prop_assert_eq!(back["v"][0].as_str(), Some(s.as_str()));
            // Character by character: escaping a whole line is escaping each piece of it.
            let pieces: String = s.chars().map(|c| safe(c.encode_utf8(&mut [0; 4])).into_owned()).collect();
            proptest::prop_assert_eq!(out.as_ref(), pieces.as_str());
        }
    }
}
