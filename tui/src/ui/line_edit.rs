//! The one text-input component. Every prompt that takes typed text (the class filter, the
//! picker's filter, the monitor's thresholds) edits it through [`LineEdit`], so they all take the
//! same keys and show the same caret.

use std::fmt;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key did to the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// The text was edited: a character typed, or Backspace (on an empty line too).
    Changed,
    /// Enter.
    Submit,
    /// Esc.
    Cancel,
}

/// A line of text and the caret in it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LineEdit {
    text: String,
    /// Byte offset of the caret, on a character boundary.
    cursor: usize,
}

impl LineEdit {
    /// An empty line.
    pub fn new() -> LineEdit {
        LineEdit::default()
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Empties the line.
    pub fn clear(&mut self) {
        self.text.clear();
        self.cursor = 0;
    }

    /// Replaces the text, the caret at its end (a completion taken).
    pub fn set(&mut self, text: &str) {
        self.text = text.to_string();
        self.cursor = self.text.len();
    }

    /// The text, giving up the line.
    pub fn into_string(self) -> String {
        self.text
    }

    /// Types `c` at the caret.
    pub fn insert(&mut self, c: char) {
        self.text.insert(self.cursor, c);
        self.cursor += c.len_utf8();
    }

    /// Deletes the character before the caret, if any.
    pub fn backspace(&mut self) {
        if let Some(c) = self.text[..self.cursor].chars().next_back() {
            self.cursor -= c.len_utf8();
            self.text.remove(self.cursor);
        }
    }

    /// Takes a key: characters (without Control) are typed, Backspace deletes, Enter submits, Esc
    /// cancels. Any other key is not the line's (`None`): the prompt may use it.
    pub fn key(&mut self, key: KeyEvent) -> Option<Edit> {
        match key.code {
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.insert(c);
                Some(Edit::Changed)
            }
            KeyCode::Backspace => {
                self.backspace();
                Some(Edit::Changed)
            }
            KeyCode::Enter => Some(Edit::Submit),
            KeyCode::Esc => Some(Edit::Cancel),
            _ => None,
        }
    }

    /// The text for display, with the caret drawn when `editing`.
    pub fn shown(&self, editing: bool) -> Shown<'_> {
        Shown { line: self, editing }
    }
}

/// [`LineEdit::shown`]: formats without allocating.
pub struct Shown<'a> {
    line: &'a LineEdit,
    editing: bool,
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (before, after) = self.line.text.split_at(self.line.cursor);
        f.write_str(before)?;
        if self.editing {
            f.write_str("▏")?;
        }
        f.write_str(after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(line: &mut LineEdit, code: KeyCode) -> Option<Edit> {
        line.key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn types_deletes_and_shows_the_caret() {
        let mut line = LineEdit::new();
        for c in "heap=9ö%".chars() {
            assert_eq!(press(&mut line, KeyCode::Char(c)), Some(Edit::Changed));
        }
        assert_eq!(press(&mut line, KeyCode::Backspace), Some(Edit::Changed));
        assert_eq!(press(&mut line, KeyCode::Backspace), Some(Edit::Changed));
        assert_eq!(line.as_str(), "heap=9");
        assert_eq!(line.shown(true).to_string(), "heap=9▏");
        assert_eq!(line.shown(false).to_string(), "heap=9");
        line.clear();
        assert!(line.is_empty());
        assert_eq!(press(&mut line, KeyCode::Backspace), Some(Edit::Changed));
        assert!(line.is_empty());
    }

    #[test]
    fn enter_esc_and_other_keys() {
        let mut line = LineEdit::new();
        assert_eq!(press(&mut line, KeyCode::Enter), Some(Edit::Submit));
        assert_eq!(press(&mut line, KeyCode::Esc), Some(Edit::Cancel));
        assert_eq!(press(&mut line, KeyCode::Up), None);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(line.key(ctrl_c), None);
        assert!(line.is_empty());
    }
}
