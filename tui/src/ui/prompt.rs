//! The prompts typed at the bottom of the screen: `/`, the filter of the list on screen, and `:`,
//! go to an object id or a class. While one is open every key goes into it (a filter that
//! starts with `i` types an `i`, it does not inspect); `Enter` keeps what was typed, `Esc` drops
//! it.

use fuzzy_matcher::FuzzyMatcher;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::cursor::Cursor;
use super::line_edit::{Edit, LineEdit};
use super::model::{App, Prompt};
use super::screen::Screen;

impl App {
    /// The filter of the list on screen, for the screens that have one.
    pub(super) fn filter_mut(&mut self) -> Option<&mut LineEdit> {
        match self.screen {
            Screen::Classes => Some(&mut self.classes.filter),
            Screen::Leaks if self.leaks.trace.is_none() => Some(&mut self.leaks.filter),
            Screen::Dominators => Some(&mut self.dom.filter),
            Screen::Inspector => Some(&mut self.inspector.filter),
            // While a baseline is being chosen, `/` narrows the dumps on offer.
            Screen::Threads => Some(&mut self.threads.filter),
            Screen::Diff => Some(match &mut self.diff.choosing {
                Some(p) => &mut p.filter,
                None => &mut self.diff.filter,
            }),
            _ => None,
        }
    }

    /// The filter of the list on screen, as typed.
    pub fn filter_text(&self) -> Option<&LineEdit> {
        match self.screen {
            Screen::Classes => Some(&self.classes.filter),
            Screen::Leaks if self.leaks.trace.is_none() => Some(&self.leaks.filter),
            Screen::Dominators => Some(&self.dom.filter),
            Screen::Inspector => Some(&self.inspector.filter),
            Screen::Diff => Some(self.diff.choosing.as_ref().map_or(&self.diff.filter, |p| &p.filter)),
            Screen::Threads => Some(&self.threads.filter),
            _ => None,
        }
    }

    /// Narrows the list on screen to its filter, the selection back at the top.
    fn apply_filter(&mut self) {
        match self.screen {
            Screen::Classes => self.rebuild_class_rows(),
            Screen::Leaks => self.leaks.cursor = Cursor::default(),
            Screen::Dominators => self.filter_dom(),
            Screen::Inspector => self.inspector.cursor = Cursor::default(),
            Screen::Threads => self.threads.cursor = Cursor::default(),
            Screen::Diff => match &mut self.diff.choosing {
                Some(p) => {
                    p.refilter(&self.matcher);
                    p.cursor = Cursor::default();
                }
                None => self.diff.cursor = Cursor::default(),
            },
            _ => {}
        }
    }

    /// A key while a prompt is open: typed into it, or moving the selection (arrows), or `Tab`
    /// taking the completion; `Enter` and `Esc` close it.
    pub(super) fn prompt_key(&mut self, key: KeyEvent) {
        match self.prompt.take() {
            Some(Prompt::Filter) => {
                // The dominator tree's filter scans every object: it applies on Enter, the
                // other lists' as they are typed.
                let live = self.screen != Screen::Dominators;
                let Some(line) = self.filter_mut() else { return };
                match line.key(key) {
                    Some(Edit::Changed) => {
                        if live {
                            self.apply_filter();
                        }
                        self.prompt = Some(Prompt::Filter);
                    }
                    Some(Edit::Submit) => {
                        if !live {
                            self.apply_filter();
                        }
                    }
                    Some(Edit::Cancel) => {
                        line.clear();
                        self.apply_filter();
                    }
                    None => {
                        match key.code {
                            KeyCode::Up => self.step(-1),
                            KeyCode::Down => self.step(1),
                            KeyCode::PageUp => self.step(-(self.page as isize)),
                            KeyCode::PageDown => self.step(self.page as isize),
                            _ => {}
                        }
                        self.prompt = Some(Prompt::Filter);
                    }
                }
            }
            Some(Prompt::Goto(mut line, candidate)) => match (key.code, line.key(key)) {
                (_, Some(Edit::Submit)) => self.go_to(line.as_str()),
                (_, Some(Edit::Cancel)) => {}
                (_, Some(Edit::Changed)) => {
                    let candidate = self.completion(line.as_str());
                    self.prompt = Some(Prompt::Goto(line, candidate));
                }
                (KeyCode::Tab, None) => {
                    if let Some(c) = &candidate {
                        line.set(c);
                    }
                    self.prompt = Some(Prompt::Goto(line, candidate));
                }
                _ => self.prompt = Some(Prompt::Goto(line, candidate)),
            },
            None => {}
        }
    }

    /// The class name `text` completes to: the class of that exact name, else the best fuzzy
    /// match (the shortest name among equals). `None` for an id or no match.
    pub fn completion(&self, text: &str) -> Option<String> {
        let text = text.trim();
        if text.is_empty() || parse_id(text).is_some() {
            return None;
        }
        let idx = &self.loaded()?.heap.index;
        if idx.classes_named(text).next().is_some() {
            return Some(text.to_string());
        }
        idx.classes
            .iter()
            .filter_map(|c| self.matcher.fuzzy_match(&c.name, text).map(|s| (s, &c.name)))
            .max_by(|a, b| a.0.cmp(&b.0).then(b.1.len().cmp(&a.1.len())).then(b.1.cmp(a.1)))
            .map(|(_, name)| name.clone())
    }

    /// `:` submitted: an object id (`0x…` or decimal) opens the object in the Inspector; a class
    /// name (exact, else the best fuzzy match) is selected on Classes, its filter cleared.
    pub fn go_to(&mut self, text: &str) {
        let Some(heap) = self.heap() else { return };
        let text = text.trim();
        if let Some(id) = parse_id(text) {
            match heap.index.node(id) {
                Some(n) => self.inspect(n),
                None => self.status = Some(format!("no object with id {id:#x}")),
            }
            return;
        }
        let Some(name) = self.completion(text) else {
            self.status = Some(format!("no object or class matches {text:?}"));
            return;
        };
        let Some(class) = heap.index.classes_named(&name).next() else { return };
        self.goto(Screen::Classes);
        self.classes.instances = None;
        self.classes.grouped = false;
        self.classes.filter.clear();
        self.rebuild_class_rows();
        if let Some(i) = self.classes.rows.iter().position(|r| r.class == Some(class)) {
            self.classes.cursor.selected = i;
            self.classes.cursor.fit(self.page);
        }
    }
}

/// An object id as typed: `0x` and hex digits, or decimal digits.
pub fn parse_id(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => text.parse().ok(),
        None => None,
    }
}
