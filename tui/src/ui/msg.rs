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
    /// An analysis of a set of objects finished (for this heap, and the job of this number).
    Analysed(Arc<Heap>, u64, super::model::SetKind),
    /// A class's instances sorted on a thread (for this heap), in this order.
    Sorted(Arc<Heap>, heap::ClassId, super::model::InstanceSort, Arc<Vec<heap::Node>>),
    /// A query on screen 9 finished (the stop of the run it was, its rows or SQLite's message).
    QueryDone(crate::session::sql::Stop, Result<super::model::QueryResult, String>),
}

/// Something for the main loop to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Start loading a dump.
    Open(Source),
    /// Put text on the clipboard (OSC 52).
    Copy(String),
    /// Write `contents` to a new text file named after `stem`, and `json` beside it.
    /// `ext`: the text's extension (`csv` for query rows, `txt` for a screen's text).
    Export { stem: String, ext: &'static str, contents: String, json: Option<String> },
    /// Start sampling a process.
    Watch(Target),
    /// Dump the watched process (the trigger's kind, or `manual`).
    Dump(Target, agent::trigger::Kind),
    /// Compare the dump on screen with the dump at this path (`b` on the Diff screen).
    Baseline(std::path::PathBuf),
    /// Analyse a set of objects on a thread (`m`, `D`: millions of objects take longer than a
    /// keypress may).
    Analyse(Job),
    /// Run a query on a thread.
    Query(QueryJob),
    /// Sort a class's instances on a thread (`s` on a list of millions).
    Sort(SortJob),
}

/// A class's instances to put in another order off the input loop.
#[derive(Clone)]
pub struct SortJob {
    pub heap: Arc<Heap>,
    pub class: heap::ClassId,
    pub order: super::model::InstanceSort,
}

impl std::fmt::Debug for SortJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SortJob({:?}, {})", self.class, self.order.label())
    }
}

impl PartialEq for SortJob {
    fn eq(&self, other: &SortJob) -> bool {
        Arc::ptr_eq(&self.heap, &other.heap) && self.class == other.class && self.order == other.order
    }
}

impl Eq for SortJob {}

/// A query to run off the input loop.
#[derive(Clone)]
pub struct QueryJob {
    pub heap: Arc<Heap>,
    pub sql: String,
    /// How it is stopped (`Esc`, or another query started).
    pub stop: crate::session::sql::Stop,
}

impl std::fmt::Debug for QueryJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "QueryJob({:?})", self.sql)
    }
}

impl PartialEq for QueryJob {
    fn eq(&self, other: &QueryJob) -> bool {
        Arc::ptr_eq(&self.heap, &other.heap) && self.sql == other.sql
    }
}

impl Eq for QueryJob {}

/// An analysis of a set of objects, to run off the input loop.
#[derive(Clone)]
pub struct Job {
    pub heap: Arc<Heap>,
    /// The view's title.
    pub title: String,
    /// Its number, which the result names.
    pub number: u64,
    pub set: super::model::SetOf,
    pub what: JobKind,
}

/// Which analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    MergedPaths,
    ImmediateDominators,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Job({:?}, {:?})", self.what, self.title)
    }
}

impl PartialEq for Job {
    fn eq(&self, other: &Job) -> bool {
        Arc::ptr_eq(&self.heap, &other.heap)
            && self.title == other.title
            && self.what == other.what
            && self.set == other.set
    }
}

impl Eq for Job {}
