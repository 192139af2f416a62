//! The classes screen's rows: the histogram per class or per package, narrowed by the filter
//! (fuzzy, as skim and fzf match) and sorted by the chosen column.

use std::collections::HashMap;

use heap::Heap;

use super::cursor::Cursor;
use super::model::{App, ClassRow, SortKey};

impl App {
    /// Rebuilds the class rows from the filter, sort and grouping.
    pub fn rebuild_class_rows(&mut self) {
        let Some(heap) = self.heap() else { return };
        // The unfiltered rows change only with the grouping.
        if self.classes.base_grouped != Some(self.classes.grouped) {
            self.classes.base = base_rows(&heap, self.classes.grouped);
            self.classes.base_grouped = Some(self.classes.grouped);
            self.classes.matched = None;
        }
        let base = &self.classes.base;
        let filter = self.classes.filter.as_str();
        let mut picked: Vec<u32> = if filter.is_empty() {
            (0..base.len() as u32).collect()
        } else {
            // Typing one more character only narrows the matches: filter the last ones again.
            let from: Vec<u32> = match &self.classes.matched {
                Some((p, m)) if filter.starts_with(p.as_str()) => m.clone(),
                _ => (0..base.len() as u32).collect(),
            };
            let m = fuzzy_filter(base, from, filter);
            self.classes.matched = Some((filter.to_string(), m.clone()));
            m
        };
        // The chosen order holds through the filter (fuzzy scores only pick the rows).
        let key = |i: &u32| &base[*i as usize];
        match self.classes.sort {
            Some(SortKey::Retained) => {
                picked.sort_by(|a, b| key(b).retained.cmp(&key(a).retained).then(key(a).name.cmp(&key(b).name)))
            }
            Some(SortKey::Shallow) => {
                picked.sort_by(|a, b| key(b).shallow.cmp(&key(a).shallow).then(key(a).name.cmp(&key(b).name)))
            }
            Some(SortKey::Instances) => {
                picked.sort_by(|a, b| key(b).instances.cmp(&key(a).instances).then(key(a).name.cmp(&key(b).name)))
            }
            Some(SortKey::Name) => picked.sort_by(|a, b| key(a).name.cmp(&key(b).name)),
            _ => {}
        }
        self.classes.rows = picked.into_iter().map(|i| base[i as usize].clone()).collect();
        self.classes.cursor = Cursor::default();
    }
}

/// Rows (of `among`, in its order) whose name matches `pattern` as skim matches (see
/// [`is_match`]). The class list keeps its own order through the filter, so no match is scored:
/// scoring 100,000 names is a keystroke's work, matching them a tenth of it. Split across cores.
pub fn fuzzy_filter(rows: &[ClassRow], among: Vec<u32>, pattern: &str) -> Vec<u32> {
    use rayon::prelude::*;
    among.into_par_iter().filter(|&i| is_match(&rows[i as usize].name, pattern)).collect()
}

/// Whether skim's matcher (`SkimMatcherV2`, smart case) matches `pattern` in `name` at all: the
/// pattern's characters appear in order, ASCII case ignored unless the pattern has an ASCII
/// capital. (Skim scores only what passes this test, and scores every such name.)
pub fn is_match(name: &str, pattern: &str) -> bool {
    let case_sensitive = pattern.bytes().any(|b| b.is_ascii_uppercase());
    let mut want = pattern.chars().peekable();
    for c in name.chars() {
        let Some(&p) = want.peek() else { break };
        if if case_sensitive { c == p } else { c.eq_ignore_ascii_case(&p) } {
            want.next();
        }
    }
    want.peek().is_none()
}

/// The histogram's rows, one per class or (grouped) per package, largest retained first.
fn base_rows(heap: &Heap, grouped: bool) -> Vec<ClassRow> {
    let idx = &heap.index;
    let order = heap.histogram_order();
    if !grouped {
        let row = |c: heap::ClassId| {
            let h = heap.histogram[c.index()];
            ClassRow {
                name: idx.classes[c.index()].name.clone(),
                class: Some(c),
                instances: h.instances,
                shallow: h.shallow_bytes,
                retained: h.retained_bytes,
            }
        };
        return order.into_iter().map(row).collect();
    }
    // Keyed by the package's part of each class's name, made a row's own name once per package.
    // The sums need no order: the classes are read in the table's, one after another (in the
    // histogram's order, 27,000 classes and their names took 9 ms of cache misses).
    let mut packages: HashMap<&str, ClassRow> = HashMap::new();
    let mut members = order;
    members.sort_unstable();
    for c in members {
        let h = heap.histogram[c.index()];
        let base = idx.classes[c.index()].name.trim_end_matches("[]");
        let package = base.rsplit_once('.').map_or("(default package)", |(p, _)| p);
        let e = packages.entry(package).or_insert_with(|| ClassRow {
            name: package.to_string(),
            class: None,
            instances: 0,
            shallow: 0,
            retained: 0,
        });
        e.instances += h.instances;
        e.shallow += h.shallow_bytes;
        // Retained sizes of classes in a package can overlap; the sum is an upper bound.
        e.retained += h.retained_bytes;
    }
    let mut out: Vec<ClassRow> = packages.into_values().collect();
    out.sort_by(|a, b| b.retained.cmp(&a.retained).then(a.name.cmp(&b.name)));
    out
}

#[cfg(test)]
mod tests {
    use fuzzy_matcher::skim::SkimMatcherV2;
    use fuzzy_matcher::FuzzyMatcher;

    /// The same names match as with skim's own matcher, for patterns of either case.
    #[test]
    fn matches_as_skim_does() {
        let skim = SkimMatcherV2::default();
        let names = [
            "java.util.HashMap",
            "java.util.HashMap$Node[]",
            "com.android.internal.os.HttpConnectionMetricsImpl",
            "android.text.Html$HtmlParser",
            "byte[]",
            "LeakyApp$Session",
            "ÄÖÜ.Straße",
            "",
        ];
        let patterns =
            ["hm", "HashMap", "Html", "html", "[]", "node[", "Session", "sess", "str", "Straße", "ä", "x", "a.b.c"];
        for name in names {
            for pattern in patterns {
                assert_eq!(
                    super::is_match(name, pattern),
                    skim.fuzzy_match(name, pattern).is_some(),
                    "{name} / {pattern}"
                );
            }
        }
    }
}
