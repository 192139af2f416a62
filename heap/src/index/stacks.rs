//! Threads and their stacks, as the dump records them: each THREAD OBJECT root with the STACK
//! TRACE its record names (frames innermost first, each a STACK FRAME), and the thread's local
//! roots (JAVA FRAME, JNI LOCAL, NATIVE STACK, THREAD BLOCK, JNI MONITOR) with the depth of the
//! frame that holds each.
//!
//! Names stay string ids until shown: a frame that names a long string costs that string once,
//! in the file, however many frames name it (memory stays proportional to the records).

use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};

use crate::hprof::RootKind;

/// One STACK FRAME record: string ids of its method, signature and source file, the name id of
/// its class (from the LOAD CLASS its class serial names; 0 when none does), and its line (> 0
/// a line, 0 none, -1 unknown, -2 compiled, -3 native).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawFrame {
    /// The method's name.
    pub method: u64,
    /// Its signature (`(Ljava/lang/String;)V`).
    pub signature: u64,
    /// The source file's name.
    pub source: u64,
    /// The class's name, as LOAD CLASS gives it (`java/lang/Thread`).
    pub class: u64,
    /// The line, or what stands for it.
    pub line: i32,
}

/// A frame's names, read: its class (dotted), method, signature and source file (empty where the
/// dump has none), and its line as [`RawFrame`] has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// The class (`java.lang.Thread`).
    pub class: String,
    /// The method's name.
    pub method: String,
    /// Its signature.
    pub signature: String,
    /// The source file's name.
    pub source: String,
    /// The line (> 0), or what stands for it (see [`RawFrame::line`]).
    pub line: i32,
}

impl Frame {
    /// Where the frame is, as a Java stack trace says it: `File.java:12`, `Native Method`,
    /// `Unknown Source`.
    pub fn location(&self) -> String {
        match (self.line, self.source.is_empty()) {
            (-3, _) => "Native Method".to_string(),
            (1.., false) => format!("{}:{}", self.source, self.line),
            (_, false) => self.source.clone(),
            (_, true) => "Unknown Source".to_string(),
        }
    }
}

/// A thread object root and what the dump says of its stack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadStack {
    /// The thread object's node.
    pub thread: u32,
    /// The thread's serial, which its roots name.
    pub serial: u32,
    /// Its frames, innermost first (indices into [`Stacks::frames`]); `None` when the dump has
    /// no trace for it (Android's and old JDKs' dumps).
    pub frames: Option<Vec<u32>>,
    /// Whether the trace is the thread's stack at the dump (its STACK TRACE names the thread, as
    /// HotSpot writes it) rather than where the thread was started (the old hprof agent's).
    pub live: bool,
    /// Its local roots: node, root kind, and the depth of the frame holding it (0 innermost; -1
    /// when the dump does not say, as Android's do).
    pub locals: Vec<(u32, RootKind, i32)>,
    /// Frames of its trace left out (past [`MAX_FRAMES`], or the dump's [`MAX_ALL_FRAMES`]).
    #[serde(default)]
    pub cut: u32,
}

/// The most frames kept for one thread (HotSpot records at most 1024 by default).
pub const MAX_FRAMES: usize = 4096;
/// The most frames kept for all threads together: many thread objects naming one long trace
/// would otherwise cost threads × frames, out of proportion to the file.
pub const MAX_ALL_FRAMES: usize = 200_000;

/// Every thread's stack, and the frames they share.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stacks {
    /// The frames the threads' stacks name, each once.
    pub frames: Vec<RawFrame>,
    /// The threads, in the dump's order.
    pub threads: Vec<ThreadStack>,
    /// For each of `frames`, its names through a ProGuard/R8 mapping file when one renamed it
    /// (empty without a mapping).
    #[serde(default)]
    pub mapped: Vec<Option<Mapped>>,
}

/// A frame's class, method and line as a mapping file gives them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mapped {
    /// The class (dotted).
    pub class: String,
    /// The method.
    pub method: String,
    /// The source line.
    pub line: i32,
}

/// What the first pass keeps of the top-level records a thread's stack is made of.
#[derive(Default)]
pub(crate) struct StackRecords {
    /// LOAD CLASS: class serial → name id.
    pub class_names: FxHashMap<u32, u64>,
    /// STACK FRAME by id; `class` still holds the class serial.
    pub frames: FxHashMap<u64, RawFrame>,
    /// STACK TRACE by serial: the thread serial it names, and its frame ids.
    pub traces: FxHashMap<u32, (u32, Vec<u64>)>,
}

/// A thread-owned root record: object id, thread serial, kind, and the number after the serial
/// (a depth or, for a thread object, its stack trace serial).
pub(crate) type ThreadRoot = (u64, u32, RootKind, Option<u32>);

impl Stacks {
    /// Each thread object root (the first record of a thread wins) with its trace and locals.
    /// Traces that no thread names (allocation sites) are dropped.
    pub(crate) fn resolve(roots: &[ThreadRoot], records: &StackRecords, node: impl Fn(u64) -> Option<u32>) -> Stacks {
        let mut out = Stacks::default();
        let mut frame_index: FxHashMap<u64, u32> = FxHashMap::default();
        let mut by_serial: FxHashMap<u32, usize> = FxHashMap::default();
        let mut seen: FxHashSet<u32> = FxHashSet::default();
        let mut budget = MAX_ALL_FRAMES;
        for &(id, serial, kind, trace) in roots {
            if kind != RootKind::ThreadObject || by_serial.contains_key(&serial) {
                continue;
            }
            let Some(n) = node(id) else { continue };
            if !seen.insert(n) {
                continue;
            }
            let trace = trace.and_then(|t| records.traces.get(&t));
            let kept = trace.map_or(0, |(_, ids)| ids.len().min(MAX_FRAMES).min(budget));
            budget -= kept;
            let cut = trace.map_or(0, |(_, ids)| ids.len() - kept) as u32;
            let frames = trace.map(|(_, ids)| {
                ids.iter()
                    .take(kept)
                    .map(|fid| {
                        *frame_index.entry(*fid).or_insert_with(|| {
                            let mut f = records.frames.get(fid).copied().unwrap_or_default();
                            f.class = records.class_names.get(&(f.class as u32)).copied().unwrap_or(0);
                            out.frames.push(f);
                            (out.frames.len() - 1) as u32
                        })
                    })
                    .collect::<Vec<u32>>()
            });
            let live = trace.is_some_and(|(thread, _)| *thread == serial);
            by_serial.insert(serial, out.threads.len());
            out.threads.push(ThreadStack { thread: n, serial, frames, live, locals: Vec::new(), cut });
        }
        let mut held: FxHashSet<(usize, u32, RootKind, i32)> = FxHashSet::default();
        for &(id, serial, kind, detail) in roots {
            if kind == RootKind::ThreadObject {
                continue;
            }
            let (Some(&t), Some(n)) = (by_serial.get(&serial), node(id)) else { continue };
            let depth = match kind {
                RootKind::JavaFrame | RootKind::JniLocal | RootKind::JniMonitor => detail.map_or(-1, |d| d as i32),
                _ => -1,
            };
            // (A record repeated is one local; the same object in two frames is two.)
            if held.insert((t, n, kind, depth)) {
                out.threads[t].locals.push((n, kind, depth));
            }
        }
        out
    }

    /// Node ranges are within `n` objects, frame indices within the frame table.
    pub(crate) fn check(&self, n: usize) -> bool {
        self.threads.iter().all(|t| {
            (t.thread as usize) < n
                && t.locals.iter().all(|l| (l.0 as usize) < n)
                && t.frames.iter().flatten().all(|&f| (f as usize) < self.frames.len())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hundred thread objects naming one trace of 10,000 frames keep at most 4096 frames each
    /// and 200,000 in all, the rest counted as cut: memory follows the records, not threads ×
    /// frames.
    #[test]
    fn many_threads_on_one_long_trace_are_bounded() {
        let mut records = StackRecords::default();
        records.traces.insert(7, (0, (0..10_000u64).map(|i| i % 3 + 1).collect()));
        for f in 1..=3u64 {
            records.frames.insert(f, RawFrame { method: f, ..Default::default() });
        }
        let roots: Vec<ThreadRoot> = (0..100u32).map(|t| (u64::from(t), t, RootKind::ThreadObject, Some(7))).collect();
        let stacks = Stacks::resolve(&roots, &records, |id| Some(id as u32));
        let kept: usize = stacks.threads.iter().map(|t| t.frames.as_ref().map_or(0, Vec::len)).sum();
        assert_eq!(kept, MAX_ALL_FRAMES);
        assert!(stacks.threads.iter().all(|t| t.frames.as_ref().map_or(0, Vec::len) <= MAX_FRAMES));
        let cut: u64 = stacks.threads.iter().map(|t| u64::from(t.cut)).sum();
        assert_eq!(kept as u64 + cut, 100 * 10_000);
        // The three frame records are kept once each, however many times the traces name them.
        assert_eq!(stacks.frames.len(), 3);
    }
}
