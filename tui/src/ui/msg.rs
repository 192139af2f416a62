//! What reaches the model (`Msg`: input, ticks, workers' results) and what `update` asks of the
//! main loop in return (`Effect`).

use std::sync::Arc;

use heap::leaks::Leak;
use heap::Heap;
use ratatui::crossterm::event::Event;

use super::model::Loaded;
use super::monitor::Target;
use super::picker::PickItem;
use super::source::Source;

/// A message to the model.
pub enum Msg {
    /// Terminal input.
    Input(Event),
    /// A loading phase advanced.
    Progress { phase: &'static str, done: u64, total: u64 },
    /// Loading finished.
    Loaded(Result<Box<Loaded>, String>),
    /// The leak rules finished on this heap (after `Loaded`: the screens show before them).
    Leaks(Arc<Heap>, Vec<Leak>, Vec<heap::leaks::Undecided>),
    /// What changed since a baseline, for this heap.
    Baseline(Arc<Heap>, Box<super::model::Baseline>),
    /// Something to tell the user in the status line.
    Note(String),
    /// Time passed (redraw progress).
    Tick,
    /// A sample of the watched process.
    Sample(Box<agent::sample::Sample>),
    /// The watch ended (the process exited, the phone went away).
    WatchEnded(String),
    /// More things to pick (processes, found after the picker opened).
    Picks(Vec<PickItem>),
    /// A dump asked for on the monitor screen finished.
    Dumped(Result<std::path::PathBuf, String>),
}

/// Something for the main loop to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Start loading a dump.
    Open(Source),
    /// Put text on the clipboard (OSC 52).
    Copy(String),
    /// Write `contents` to a new text file named after `stem`, and `json` beside it.
    Export { stem: String, contents: String, json: Option<String> },
    /// Start sampling a process.
    Watch(Target),
    /// Dump the watched process (the trigger's kind, or `manual`).
    Dump(Target, agent::trigger::Kind),
    /// Compare the dump on screen with the dump at this path (`b` on the Diff screen).
    Baseline(std::path::PathBuf),
}
