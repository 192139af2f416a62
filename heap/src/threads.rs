//! The dump's threads (Eclipse MAT's "Thread Overview and Stacks"): each thread object with its
//! name, retained size and stack, every frame with the local objects it holds. Most Android
//! dumps record no stacks: their threads come with their locals and no frames, and [`Thread::why_no_frames`]
//! says so.

use crate::hprof::RootKind;
use crate::index::stacks::Frame;
use crate::index::Node;
use crate::Heap;

/// A thread as the dump records it.
#[derive(Debug, Clone)]
pub struct Thread {
    /// The `java.lang.Thread` object.
    pub node: Node,
    /// Its `name` field.
    pub name: Option<String>,
    /// Its serial in the dump's records.
    pub serial: u32,
    /// The frames of its stack, innermost first, each with the locals it holds; `None` when the
    /// dump has no stack for it.
    pub frames: Option<Vec<StackFrame>>,
    /// Whether the frames are the thread's stack when the dump was taken (HotSpot's dumps) rather
    /// than where the thread was started (the old hprof agent's).
    pub live: bool,
    /// Its locals the dump places in no frame it has (Android's dumps give no depth).
    pub unplaced: Vec<Local>,
    /// Frames of its trace left out (a trace longer than heaptui keeps).
    pub cut: u32,
}

/// One frame of a thread's stack.
#[derive(Debug, Clone)]
pub struct StackFrame {
    /// Its names.
    pub frame: Frame,
    /// The objects it holds (JAVA FRAME and JNI LOCAL roots of this depth).
    pub locals: Vec<Local>,
}

/// An object a thread holds: a local variable, a JNI local, a native stack's reference...
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Local {
    /// The object.
    pub node: Node,
    /// The root record naming it.
    pub kind: RootKind,
    /// The depth of the frame holding it (0 innermost), -1 when the dump does not say.
    pub depth: i32,
}

impl Thread {
    /// Why the thread has no frames, when it has none: what the dump lacks.
    pub fn why_no_frames(&self) -> Option<&'static str> {
        match &self.frames {
            None => Some(
                "the dump records no stack for this thread, as Android's dumps and old JDKs' do not: its locals are listed without frames",
            ),
            Some(f) if f.is_empty() => Some("the dump records an empty stack for this thread"),
            Some(_) => None,
        }
    }
}

impl Heap {
    /// The dump's threads (its THREAD OBJECT roots), largest retained first, each with its
    /// stack and locals. A local whose depth lies outside the stack the dump gives is listed
    /// apart ([`Thread::unplaced`]), not put in a frame it does not belong to.
    pub fn threads(&self) -> Vec<Thread> {
        let idx = &self.index;
        let stacks = idx.stacks();
        let mut out: Vec<Thread> = stacks
            .threads
            .iter()
            .map(|t| {
                let mut frames: Option<Vec<StackFrame>> = t.frames.as_ref().map(|f| {
                    f.iter().filter_map(|&i| Some(StackFrame { frame: idx.frame_at(i)?, locals: Vec::new() })).collect()
                });
                let mut unplaced = Vec::new();
                for &(n, kind, depth) in &t.locals {
                    let local = Local { node: Node(n), kind, depth };
                    let slot = frames.as_mut().and_then(|f| usize::try_from(depth).ok().and_then(|d| f.get_mut(d)));
                    match slot {
                        Some(frame) => frame.locals.push(local),
                        None => unplaced.push(local),
                    }
                }
                let node = Node(t.thread);
                let (serial, live, cut) = (t.serial, t.live, t.cut);
                Thread { node, name: self.thread_name(node), serial, frames, live, unplaced, cut }
            })
            .collect();
        let d = &self.dominators;
        out.sort_by(|a, b| d.retained(b.node).cmp(&d.retained(a.node)).then(a.serial.cmp(&b.serial)));
        out
    }
}

impl Thread {
    /// The thread as JSON: `id`, `name`, `class`, `serial`, `shallow_bytes`, `retained_bytes`,
    /// `frames` (innermost first, each `class`, `method`, `signature`, `source`, `line`,
    /// `location` and its `locals`; `null` when the dump has no stack for the thread),
    /// `live_stack`, `locals_without_frame` and `frames_missing` (why there are none).
    pub fn to_json(&self, heap: &Heap) -> serde_json::Value {
        use crate::fmt::hex;
        let idx = &heap.index;
        let local = |l: &Local| {
            serde_json::json!({
                "id": hex(idx.id(l.node)),
                "class": heap.display_class(l.node),
                "kind": l.kind.name(),
                "depth": l.depth,
                "shallow_bytes": idx.shallow_size(l.node),
                "retained_bytes": heap.dominators.retained(l.node),
            })
        };
        let frames = self.frames.as_ref().map(|frames| {
            frames
                .iter()
                .map(|s| {
                    let f = &s.frame;
                    serde_json::json!({
                        "class": f.class,
                        "method": f.method,
                        "signature": f.signature,
                        "source": f.source,
                        "line": f.line,
                        "location": f.location(),
                        "locals": s.locals.iter().map(local).collect::<Vec<_>>(),
                    })
                })
                .collect::<Vec<_>>()
        });
        serde_json::json!({
            "id": hex(idx.id(self.node)),
            "name": self.name,
            "class": heap.display_class(self.node),
            "serial": self.serial,
            "shallow_bytes": idx.shallow_size(self.node),
            "retained_bytes": heap.dominators.retained(self.node),
            "frames": frames,
            "live_stack": self.live,
            "locals_without_frame": self.unplaced.iter().map(local).collect::<Vec<_>>(),
            "frames_missing": self.why_no_frames(),
            "frames_cut": self.cut,
        })
    }
}

impl Thread {
    /// The thread as text, as a Java stack trace reads (`at Class.method(File.java:12)`), each
    /// frame followed by the objects it holds; every name from the dump [`safe`](crate::fmt::safe)
    /// for a terminal.
    pub fn to_text(&self, heap: &Heap) -> String {
        use crate::fmt::{hex, human_bytes, safe};
        use std::fmt::Write as _;
        let idx = &heap.index;
        let mut out = String::new();
        let name = self.name.as_deref().map_or_else(|| "<unnamed>".to_string(), |n| format!("\"{}\"", safe(n)));
        let _ = writeln!(
            out,
            "{name} {} {} retains {}",
            safe(&heap.display_class(self.node)),
            hex(idx.id(self.node)),
            human_bytes(heap.dominators.retained(self.node))
        );
        let local = |out: &mut String, l: &Local| {
            let _ = writeln!(
                out,
                "        holds {} {} ({}) retains {}",
                safe(&heap.display_class(l.node)),
                hex(idx.id(l.node)),
                l.kind.label(),
                human_bytes(heap.dominators.retained(l.node))
            );
        };
        for s in self.frames.iter().flatten() {
            let f = &s.frame;
            let _ = writeln!(out, "    at {}.{}({})", safe(&f.class), safe(&f.method), safe(&f.location()));
            for l in &s.locals {
                local(&mut out, l);
            }
        }
        if let Some(why) = self.why_no_frames() {
            let _ = writeln!(out, "    ({why})");
        }
        if !self.live && self.frames.is_some() {
            let _ =
                writeln!(out, "    (this trace is where the thread was started, as the old hprof agent records it)");
        }
        if !self.unplaced.is_empty() {
            let _ = writeln!(out, "    in no frame the dump gives:");
            for l in &self.unplaced {
                local(&mut out, l);
            }
        }
        out
    }
}
