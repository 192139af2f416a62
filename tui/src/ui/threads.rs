//! Screen 8: the dump's threads (MAT's "Thread Overview and Stacks"). Each thread is a row; open,
//! it shows its stack, each frame followed by the objects it holds, or why the dump has no
//! frames and the thread's locals without them.

use fuzzy_matcher::FuzzyMatcher;
use heap::Node;

use super::model::{App, ThreadRow};

impl App {
    /// The Threads screen's rows through its filter and order, open threads with their stacks.
    pub fn thread_rows(&self) -> Vec<ThreadRow> {
        let Some(l) = self.loaded() else { return Vec::new() };
        let filter = self.threads.filter.as_str();
        let mut order: Vec<usize> = (0..l.threads.len())
            .filter(|&i| {
                filter.is_empty() || l.thread_text.get(i).is_some_and(|t| self.matcher.fuzzy_match(t, filter).is_some())
            })
            .collect();
        if self.threads.by_name {
            order.sort_by(|&a, &b| l.threads[a].name.cmp(&l.threads[b].name).then(a.cmp(&b)));
        }
        let mut rows = Vec::new();
        for i in order {
            rows.push(ThreadRow::Thread(i));
            let t = &l.threads[i];
            if !self.threads.open.contains(&t.node) {
                continue;
            }
            if let Some(why) = t.why_no_frames() {
                rows.push(ThreadRow::Note(i, why));
            } else if !t.live {
                rows.push(ThreadRow::Note(i, "where the thread was started, as the old hprof agent records it"));
            }
            for (f, frame) in t.frames.iter().flatten().enumerate() {
                rows.push(ThreadRow::Frame(i, f));
                rows.extend((0..frame.locals.len()).map(|k| ThreadRow::Local(i, Some(f), k)));
            }
            rows.extend((0..t.unplaced.len()).map(|k| ThreadRow::Local(i, None, k)));
        }
        rows
    }

    /// The object a Threads row names: the thread, or the local.
    pub(super) fn thread_row_node(&self, row: ThreadRow) -> Option<Node> {
        let threads = &self.loaded()?.threads;
        match row {
            ThreadRow::Thread(i) => threads.get(i).map(|t| t.node),
            ThreadRow::Local(i, f, k) => {
                let t = threads.get(i)?;
                let locals = match f {
                    Some(f) => &t.frames.as_ref()?.get(f)?.locals,
                    None => &t.unplaced,
                };
                locals.get(k).map(|l| l.node)
            }
            ThreadRow::Frame(..) | ThreadRow::Note(..) => None,
        }
    }

    /// Opens (`open`) or closes the selected thread's stack; on a frame or a local, closing
    /// goes to its thread.
    pub(super) fn toggle_thread(&mut self, open: bool) {
        let rows = self.thread_rows();
        let Some(&row) = rows.get(self.threads.cursor.selected) else { return };
        let i = match row {
            ThreadRow::Thread(i) | ThreadRow::Frame(i, _) | ThreadRow::Local(i, ..) | ThreadRow::Note(i, _) => i,
        };
        let Some(node) = self.loaded().and_then(|l| l.threads.get(i)).map(|t| t.node) else { return };
        if open {
            self.threads.open.insert(node);
        } else if !self.threads.open.remove(&node) || !matches!(row, ThreadRow::Thread(_)) {
            // Closed from inside its stack: the cursor goes to the thread's row.
            self.threads.open.remove(&node);
            if let Some(pos) = self.thread_rows().iter().position(|r| *r == ThreadRow::Thread(i)) {
                self.threads.cursor.selected = pos;
                self.threads.cursor.fit(self.page);
            }
        }
    }
}
