//! The work `update` hands to other threads (`Effect::Analyse`, `Query`, `Sort`): each job runs
//! there and returns the message that brings its result back to the model.

use std::sync::Arc;

use super::model::{SetKind, SetOf};
use super::msg::{Job, JobKind, Msg, QueryJob, SortJob};

impl SortJob {
    /// Runs it: the message that brings the list to the model.
    pub fn run(self) -> Msg {
        let nodes = Arc::new(self.order.sort(&self.heap, self.class));
        Msg::Sorted(self.heap, self.class, self.order, nodes)
    }
}

impl QueryJob {
    /// Runs it: the message that brings the rows (or SQLite's message) to the model.
    pub fn run(self) -> Msg {
        let result = super::query::run(self.heap, &self.sql, &self.stop);
        Msg::QueryDone(self.stop, result)
    }
}

impl Job {
    /// Runs it: the message that brings the result to the model.
    pub fn run(self) -> Msg {
        let set: Arc<Vec<heap::Node>> = match self.set {
            SetOf::Class(c) => Arc::new(self.heap.instances_by_retained(c).to_vec()),
            SetOf::Nodes(nodes) => nodes,
        };
        let kind = match self.what {
            JobKind::MergedPaths => {
                SetKind::Merged { tree: Arc::new(self.heap.merged_paths(&set)), open: Default::default() }
            }
            JobKind::ImmediateDominators => {
                SetKind::Dominators { result: Arc::new(self.heap.immediate_dominators(&set)), group: None }
            }
        };
        Msg::Analysed(self.heap, self.number, kind)
    }
}
