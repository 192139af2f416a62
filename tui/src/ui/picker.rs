//! The picker (`heaptui` with no argument): the dumps and processes on offer, filtered as typed,
//! and the walk of the filesystem that finds the dumps.

use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;

use super::cursor::Cursor;
use super::line_edit::LineEdit;
use super::source::Source;

/// One entry of the picker.
#[derive(Debug, Clone)]
pub struct PickItem {
    pub label: String,
    pub source: Source,
    /// Where it sorts: phones' apps, then dumps, then local JVMs, then other local processes,
    /// then the phones' other processes.
    pub rank: u8,
}

/// The picker: what is on offer, its filter, the cursor over the rows the filter keeps.
#[derive(Default)]
pub struct Picker {
    pub items: Vec<PickItem>,
    pub filter: LineEdit,
    pub editing: bool,
    pub cursor: Cursor,
    /// Indices into `items` of the rows shown.
    pub shown: Vec<usize>,
}

impl PickItem {
    /// What the filter matches: the label, but for the demo only its name (its description
    /// would match `leak` ahead of `./leak.hprof`).
    fn key(&self) -> &str {
        match self.source {
            Source::Demo => "bundled demo",
            _ => &self.label,
        }
    }
}

impl Picker {
    pub(super) fn refilter(&mut self, matcher: &SkimMatcherV2) {
        let filter = self.filter.as_str();
        self.shown = if filter.is_empty() {
            (0..self.items.len()).collect()
        } else {
            let mut scored: Vec<(i64, usize)> = self
                .items
                .iter()
                .enumerate()
                .filter_map(|(i, it)| matcher.fuzzy_match(it.key(), filter).map(|s| (s, i)))
                .collect();
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            scored.into_iter().map(|x| x.1).collect()
        };
        if self.cursor.selected >= self.shown.len() {
            self.cursor = Cursor::default();
        }
    }

    /// Adds items in rank order, keeping the selected one selected.
    pub(super) fn add(&mut self, more: Vec<PickItem>, matcher: &SkimMatcherV2) {
        let selected = self.shown.get(self.cursor.selected).map(|&i| self.items[i].label.clone());
        self.items.extend(more);
        self.items.sort_by_key(|it| it.rank);
        self.refilter(matcher);
        if let Some(label) = selected {
            if let Some(pos) = self.shown.iter().position(|&i| self.items[i].label == label) {
                self.cursor.selected = pos;
            }
        }
    }

    /// The selected item.
    pub fn selected(&self) -> Option<&PickItem> {
        self.shown.get(self.cursor.selected).map(|&i| &self.items[i])
    }
}

/// Whether the picker offers process `p`: not a kernel thread (no command line and no memory of
/// its own: nothing to watch).
pub fn offered(p: &agent::proc::ProcessInfo) -> bool {
    !(p.cmdline.is_empty() && p.rss_kb == 0)
}

/// The picker's row for process `p` (on phone `serial`, or this machine): its name, pid, RSS
/// and command line, as `ps` gives them; the view escapes what the process says of itself.
pub fn process_item(p: &agent::proc::ProcessInfo, serial: Option<&str>, rank: u8, place: &str) -> PickItem {
    PickItem {
        label: format!(
            "{:<24} {:>7} {:>10}  [{place}]  {}",
            heap::fmt::shorten(&agent::proc::display_name(p), 24),
            p.pid,
            heap::fmt::human_bytes(p.rss_kb.saturating_mul(1024)),
            heap::fmt::shorten(&p.cmdline, 60)
        ),
        source: Source::Process(super::monitor::Target {
            serial: serial.map(str::to_string),
            pid: p.pid,
            name: agent::proc::display_name(p),
        }),
        rank,
    }
}

/// What the picker offers: the bundled demo, heap dumps in `dir`, and dumps heaptui stored before
/// (`$XDG_DATA_HOME/heaptui/dumps`), newest first.
pub fn pick_items(dir: &std::path::Path) -> Vec<PickItem> {
    let mut items =
        vec![PickItem { label: "bundled demo (a JVM app with a leaking cache)".into(), source: Source::Demo, rank: 1 }];
    let is_dump = |p: &std::path::Path| {
        let name = p.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        [".hprof", ".hprof.gz", ".hprof.zst", ".android-hprof", ".pftrace", ".pftrace.gz", ".perfetto-trace"]
            .iter()
            .any(|e| name.ends_with(e))
    };
    let mut found: Vec<(std::time::SystemTime, std::path::PathBuf)> = Vec::new();
    let mut scan = |d: &std::path::Path, depth: usize| {
        let mut stack = vec![(d.to_path_buf(), 0)];
        while let Some((d, level)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() && level < depth {
                    stack.push((p, level + 1));
                } else if is_dump(&p) {
                    let t = e.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
                    found.push((t, p));
                }
            }
        }
    };
    scan(dir, 0);
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/share")));
    if let Some(d) = data {
        scan(&d.join("heaptui").join("dumps"), 3);
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    for (_, p) in found {
        let size = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
        items.push(PickItem {
            label: format!("{}  ({})", p.display(), heap::fmt::human_bytes(size)),
            source: Source::File(p),
            rank: 1,
        });
    }
    items
}
