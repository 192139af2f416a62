//! ProGuard / R8 mapping files: obfuscated class and field names back to the source names.
//!
//! The format: a class line `original.Name -> obf.Name:`, then indented member lines; a field
//! line is `    type name -> obf` (methods have parentheses and are not needed here). Lines
//! starting with `#` are comments.

use std::collections::HashMap;

use crate::index::Index;

/// Class and field names of a mapping file, keyed by their obfuscated forms.
#[derive(Debug, Default, Clone)]
pub struct ProguardMap {
    classes: HashMap<String, String>,
    fields: HashMap<(String, String), String>,
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
            if decl.contains('(') {
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

    /// The source name of field `obf` declared by obfuscated class `class`.
    pub fn field_name(&self, class: &str, obf: &str) -> Option<&str> {
        self.fields.get(&(class.to_string(), obf.to_string())).map(String::as_str)
    }
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
}
