//! The screens, on their own so the keymap and the model can both name them.

/// The screens, numbered as their keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Screen {
    Overview,
    Classes,
    Leaks,
    Dominators,
    Inspector,
    Monitor,
    Diff,
    Threads,
    Query,
}

impl Screen {
    pub const ALL: [Screen; 9] = [
        Screen::Overview,
        Screen::Classes,
        Screen::Leaks,
        Screen::Dominators,
        Screen::Inspector,
        Screen::Monitor,
        Screen::Diff,
        Screen::Threads,
        Screen::Query,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Screen::Overview => "Overview",
            Screen::Classes => "Classes",
            Screen::Leaks => "Leaks",
            Screen::Dominators => "Dominators",
            Screen::Inspector => "Inspector",
            Screen::Monitor => "Monitor",
            Screen::Diff => "Diff",
            Screen::Threads => "Threads",
            Screen::Query => "Query",
        }
    }

    /// Its place in [`Screen::ALL`] (one less than its key).
    pub(super) fn index(self) -> usize {
        Screen::ALL.iter().position(|&s| s == self).unwrap_or(0)
    }
}
