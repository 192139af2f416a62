//! Screen 7: what changed since a baseline (an earlier dump of the same app), as `analyze
//! --baseline` computes it: the collections that grew, keyed by their path from a GC root, then
//! the class table's changes. `b` takes a baseline from the dumps the picker knows.

use fuzzy_matcher::FuzzyMatcher;

use super::model::{App, DiffRow};
use super::msg::Effect;
use super::screen::Screen;
use super::source::Source;

impl App {
    /// The Diff screen's rows through its filter: growing collections first (largest growth
    /// first), then the classes (largest retained growth first).
    pub fn diff_rows(&self) -> Vec<DiffRow> {
        let Some(b) = self.loaded().and_then(|l| l.baseline.as_ref()) else { return Vec::new() };
        let filter = self.diff.filter.as_str();
        let keep = |text: &str| filter.is_empty() || self.matcher.fuzzy_match(text, filter).is_some();
        let growing = (0..b.growing.len()).filter(|&i| keep(&format!("{} {}", b.growing[i].path, b.growing[i].class)));
        let classes = (0..b.classes.len()).filter(|&i| keep(&b.classes[i].class));
        growing.map(DiffRow::Growing).chain(classes.map(DiffRow::Class)).collect()
    }

    /// `Enter` on the Diff screen: a grown collection opens in the Inspector (the newer dump's
    /// object); a class is selected on Classes; in the list of dumps, the one chosen becomes the
    /// baseline.
    pub(super) fn open_diff(&mut self) -> Vec<Effect> {
        if let Some(p) = self.diff.choosing.take() {
            return match p.selected().map(|i| i.source.clone()) {
                Some(Source::File(path)) => vec![Effect::Baseline(path)],
                _ => Vec::new(),
            };
        }
        let Some(row) = self.diff_rows().get(self.diff.cursor.selected).copied() else { return Vec::new() };
        match row {
            DiffRow::Growing(_) => {
                if let Some(n) = self.selected_node() {
                    self.inspect(n);
                }
            }
            DiffRow::Class(i) => {
                let Some(name) = self.loaded().and_then(|l| l.baseline.as_ref()).map(|b| b.classes[i].class.clone())
                else {
                    return Vec::new();
                };
                let here = self.heap().is_some_and(|h| h.index.classes_named(&name).next().is_some());
                if here {
                    self.go_to(&name);
                } else {
                    self.status = Some(format!("{name} is gone from this dump"));
                }
            }
        }
        Vec::new()
    }

    /// `b`: the dumps the picker knows (this directory's and those heaptui stored), to take one
    /// as the baseline.
    pub(super) fn choose_baseline(&mut self) {
        if self.screen != Screen::Diff {
            return;
        }
        let here = self.loaded().map(|l| l.path.clone()).unwrap_or_default();
        let items: Vec<_> = super::picker::pick_items(std::path::Path::new("."))
            .into_iter()
            .filter(|i| matches!(&i.source, Source::File(p) if p.display().to_string() != here))
            .collect();
        if items.is_empty() {
            self.status = Some("no other dump here or among those heaptui stored".into());
            return;
        }
        let mut picker = super::picker::Picker::default();
        picker.add(items, &self.matcher);
        self.diff.choosing = Some(picker);
    }
}
