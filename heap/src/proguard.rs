//! ProGuard / R8 mapping files: obfuscated class, field and method names (and the lines of
//! stack frames) back to the source names.
//!
//! The format: a class line `original.Name -> obf.Name:`, then indented member lines; a field
//! line is `    type name -> obf`, a method line `    [a:b:]type name(args)[:c[:d]] -> obf`: the
//! obfuscated lines `a..b` of method `obf` are lines `c..d` of `name` (each `c` alone when
//! `d` is missing or the ranges differ in length, as R8 writes inlined code), and a method with
//! no ranges keeps its lines. Where R8 inlined methods into one, several lines share a range,
//! the innermost first; a frame takes that one. Lines starting with `#` are comments.

use std::collections::HashMap;

use crate::index::Index;

/// Class and field names of a mapping file, keyed by their obfuscated forms.
#[derive(Debug, Default, Clone)]
pub struct ProguardMap {
    classes: HashMap<String, String>,
    fields: HashMap<(String, String), String>,
    /// (obfuscated class, obfuscated method) → its lines, in the file's order.
    methods: HashMap<(String, String), Vec<MethodLines>>,
}

/// One method line of a mapping file.
#[derive(Debug, Clone)]
struct MethodLines {
    name: String,
    /// The obfuscated lines `a..=b`, when given.
    obf: Option<(i32, i32)>,
    /// The source lines `c..=d` (`d` = `c` when missing), when given.
    orig: Option<(i32, i32)>,
}

impl ProguardMap {
    /// Parses a mapping file. Lines it does not understand are skipped.
    pub fn parse(text: &str) -> ProguardMap {
        let mut map = ProguardMap::default();
        let mut current: Option<String> = None;
        for line in text.lines() {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if !line.starts_with(char::is_whitespace) {
                current = None;
                if let Some((orig, obf)) = trimmed.strip_suffix(':').and_then(|l| l.split_once(" -> ")) {
                    map.classes.insert(obf.trim().to_string(), orig.trim().to_string());
                    current = Some(obf.trim().to_string());
                }
                continue;
            }
            let Some(class) = &current else { continue };
            let Some((decl, obf)) = trimmed.split_once(" -> ") else { continue };
            if let Some(open) = decl.find('(') {
                if let Some(m) = method_line(decl, open) {
                    map.methods.entry((class.clone(), obf.trim().to_string())).or_default().push(m);
                }
                continue;
            }
            if let Some((_, name)) = decl.rsplit_once(' ') {
                map.fields.insert((class.clone(), obf.trim().to_string()), name.to_string());
            }
        }
        map
    }

    /// The source name of an obfuscated class name (array names like `l[]` included).
    pub fn class_name(&self, obf: &str) -> Option<String> {
        let base = obf.trim_end_matches("[]");
        let dims = (obf.len() - base.len()) / 2;
        self.classes.get(base).map(|orig| format!("{orig}{}", "[]".repeat(dims)))
    }

    /// The source name and line of method `obf` of obfuscated class `class` at obfuscated line
    /// `line` (what a stack frame records; `line` ≤ 0 for none, kept as it is).
    pub fn method(&self, class: &str, obf: &str, line: i32) -> Option<(&str, i32)> {
        let lines = self.methods.get(&(class.to_string(), obf.to_string()))?;
        let m = lines.iter().find(|m| m.obf.is_some_and(|(a, b)| (a..=b).contains(&line))).or_else(|| {
            // No range holds the line (or the frame has none): the method's name if it has only one.
            let mut names = lines.iter().map(|m| &m.name);
            let first = names.next()?;
            names.all(|n| n == first).then(|| &lines[0])
        })?;
        let mapped = match (m.obf, m.orig) {
            (Some((a, b)), Some((c, d))) if line > 0 && (a..=b).contains(&line) => {
                if d - c == b - a {
                    c + (line - a)
                } else {
                    c
                }
            }
            _ => line,
        };
        Some((&m.name, mapped))
    }

    /// The source name of field `obf` declared by obfuscated class `class`.
    pub fn field_name(&self, class: &str, obf: &str) -> Option<&str> {
        self.fields.get(&(class.to_string(), obf.to_string())).map(String::as_str)
    }
}

/// Reads `[a:b:]type name(args)[:c[:d]]` (`open`: where `(` is).
fn method_line(decl: &str, open: usize) -> Option<MethodLines> {
    let close = decl[open..].find(')')? + open;
    let num = |s: &str| s.trim().parse::<i32>().ok();
    // Before the parenthesis: `a:b:type name` or `type name`.
    let head = &decl[..open];
    let mut parts = head.splitn(3, ':');
    let (obf, typed) = match (parts.next(), parts.next(), parts.next()) {
        (Some(a), Some(b), Some(rest)) => (num(a).zip(num(b)), rest),
        _ => (None, head),
    };
    let name = typed.trim().rsplit_once(' ').map_or(typed.trim(), |(_, n)| n);
    // Qualified names (`com.x.Other.m`: code inlined from another class) keep their last part.
    let name = name.rsplit_once('.').map_or(name, |(_, n)| n).to_string();
    let tail: Vec<i32> = decl[close + 1..].split(':').filter(|t| !t.is_empty()).filter_map(num).collect();
    let orig = match tail[..] {
        [c] => Some((c, c)),
        [c, d, ..] => Some((c, d)),
        [] => None,
    };
    Some(MethodLines { name, obf, orig })
}

impl Index {
    /// Renames classes, fields and statics to their source names.
    pub fn deobfuscate(&mut self, map: &ProguardMap) {
        let obf_names: Vec<String> = self.classes.iter().map(|c| c.name.clone()).collect();
        self.by_name = Default::default();
        for c in &mut self.classes {
            for f in &mut c.fields {
                if let Some(n) = obf_names.get(f.declared_by.index()).and_then(|k| map.field_name(k, &f.name)) {
                    f.name = n.to_string();
                }
            }
        }
        for (c, obf) in self.classes.iter_mut().zip(&obf_names) {
            for s in &mut c.statics {
                if let Some(n) = map.field_name(obf, &s.name) {
                    s.name = n.to_string();
                }
            }
            if let Some(n) = map.class_name(obf) {
                c.name = n;
            }
        }
        // The threads' frames: their names are the dump's strings, so the mapped names and
        // lines are kept beside them (and go to the index cache with them).
        let mapped: Vec<Option<crate::index::stacks::Mapped>> = self
            .stacks
            .frames
            .iter()
            .map(|f| {
                let frame = self.frame(f);
                let method = map.method(&frame.class, &frame.method, frame.line);
                let class = map.class_name(&frame.class);
                (method.is_some() || class.is_some()).then(|| crate::index::stacks::Mapped {
                    class: class.unwrap_or(frame.class.clone()),
                    method: method.map_or(frame.method.clone(), |(m, _)| m.to_string()),
                    line: method.map_or(frame.line, |(_, l)| l),
                })
            })
            .collect();
        self.stacks.mapped = mapped;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_classes_fields_and_arrays() {
        let m = ProguardMap::parse(
            "# comment\nDumpedStuff$ObjectTree -> l:\n    DumpedStuff$ObjectTree left -> a\n    void m(int) -> b\nMain -> Main:\n    DumpedStuff stuff -> a\n",
        );
        assert_eq!(m.class_name("l").as_deref(), Some("DumpedStuff$ObjectTree"));
        assert_eq!(m.class_name("l[][]").as_deref(), Some("DumpedStuff$ObjectTree[][]"));
        assert_eq!(m.field_name("l", "a"), Some("left"));
        assert_eq!(m.field_name("l", "b"), None);
        assert_eq!(m.field_name("Main", "a"), Some("stuff"));
        assert_eq!(m.class_name("zz"), None);
    }

    #[test]
    fn maps_methods_and_their_lines() {
        let m = ProguardMap::parse(concat!(
            "Main -> Main:\n",
            "    1:2:void main(java.lang.String[]):30:31 -> main\n",
            "    3:3:void main(java.lang.String[]):34:34 -> main\n",
            "    10:12:void helper():50 -> main\n",
            "    void plain(int) -> b\n",
            "    5:5:void inlined():80:80 -> c\n",
            "    5:5:void outer():90:90 -> c\n",
            "    7:7:void com.x.Other.moved():9 -> d\n",
        ));
        assert_eq!(m.method("Main", "main", 2), Some(("main", 31)));
        assert_eq!(m.method("Main", "main", 3), Some(("main", 34)));
        // A range mapped to one line (inlined code).
        assert_eq!(m.method("Main", "main", 11), Some(("helper", 50)));
        // No ranges: the name, the line as it was.
        assert_eq!(m.method("Main", "b", 17), Some(("plain", 17)));
        // Two lines on one range: the innermost (the first).
        assert_eq!(m.method("Main", "c", 5), Some(("inlined", 80)));
        assert_eq!(m.method("Main", "d", 7), Some(("moved", 9)));
        // A line no range holds, on a name several methods share: no guess.
        assert_eq!(m.method("Main", "main", 99), None);
        assert_eq!(m.method("Nope", "main", 1), None);
    }
}
