//! The view on screen as plain text and as JSON (the `e` key writes both to files). It is handed
//! what the screen shows as plain data ([`Shown`]), not the model.

use std::fmt::Write as _;

use heap::fmt::{hex, human_bytes, safe};
use heap::leaks::Leak;
use heap::{ClassId, Heap, Node};

use super::model::{ClassRow, DomRow};

/// What the screen shows, for export.
pub struct Shown<'a> {
    pub heap: &'a Heap,
    pub leaks: &'a [Leak],
    pub path: &'a str,
    pub file_bytes: u64,
    /// How long the analysis took, from opening the file to the leak suspects (ms).
    pub analysis_ms: u128,
    /// The rules that could not decide on this dump, as the loader found them.
    pub undecided: &'a [heap::leaks::Undecided],
    pub rows: Rows<'a>,
}

/// The rows of the screen on view.
pub enum Rows<'a> {
    /// The dump's summary (the overview, and the monitor).
    Summary,
    /// The class histogram as filtered and sorted.
    Classes(&'a [ClassRow]),
    /// The instances of one class.
    Instances { class: ClassId, nodes: &'a [Node] },
    /// The leak suspects.
    Leaks,
    /// The dominator tree's visible rows.
    Tree(Vec<DomRow>),
    /// One object.
    Object(Node),
    /// What changed since the baseline.
    Diff(&'a super::model::Baseline),
    /// The threads and their stacks.
    Threads(&'a [heap::threads::Thread]),
    /// A query's rows.
    Query(&'a super::model::QueryResult),
    /// The merged paths or the immediate dominators of a set (the view's title).
    Set(&'a str, &'a super::model::SetKind),
}

/// The rows as text, for people: names from the dump made [`safe`] (tabs and newlines are the
/// file's own).
pub fn text(s: &Shown<'_>) -> String {
    let heap = s.heap;
    let mut out = String::new();
    match &s.rows {
        Rows::Summary => {
            let file = heap::report::FileInfo { path: s.path, bytes: s.file_bytes, cut_names: false };
            out = heap.analyze_text(&file, 50, s.leaks, s.undecided);
        }
        Rows::Instances { class, nodes } => {
            let _ = writeln!(out, "instances of {}", safe(&heap.index.classes[class.index()].name));
            for &n in *nodes {
                let _ = writeln!(
                    out,
                    "{}\t{}\t{}",
                    hex(heap.index.id(n)),
                    heap.index.shallow_size(n),
                    heap.dominators.retained(n)
                );
            }
        }
        Rows::Classes(rows) => {
            let _ = writeln!(out, "instances\tshallow\tretained\tclass");
            for r in *rows {
                let _ = writeln!(out, "{}\t{}\t{}\t{}", r.instances, r.shallow, r.retained, safe(&r.name));
            }
        }
        Rows::Leaks => {
            let meta = heap::leaks::metadata::extract(heap);
            out = heap::leaks::render::leakcanary_text(heap, s.leaks, &meta, s.path, s.analysis_ms);
        }
        Rows::Tree(rows) => {
            for r in rows {
                let _ = writeln!(
                    out,
                    "{}{} {} {}",
                    "  ".repeat(r.depth),
                    safe(&heap.display_class(r.node)),
                    hex(heap.index.id(r.node)),
                    human_bytes(heap.dominators.retained(r.node))
                );
            }
        }
        Rows::Object(n) => out = heap.inspect_text(*n, false),
        Rows::Query(r) => out = crate::session::sql::rows::csv(&r.columns, &r.rows),
        Rows::Set(title, kind) => {
            let _ = writeln!(out, "{}", safe(title));
            match kind {
                super::model::SetKind::Merged { tree, .. } => out.push_str(&tree.to_text(heap, 32, 100)),
                super::model::SetKind::Dominators { result, .. } => out.push_str(&result.to_text(heap)),
                super::model::SetKind::Pending(..) => {}
            }
        }
        Rows::Threads(threads) => {
            for t in *threads {
                out.push_str(&t.to_text(heap));
                out.push('\n');
            }
        }
        Rows::Diff(b) => {
            let _ = writeln!(out, "since\t{}", safe(&b.path));
            let _ = writeln!(out, "grew\tpath\tclass\telements before\telements now\tretained before\tretained now");
            for g in &b.growing {
                let (e, r) = (g.elements, g.retained_bytes);
                let _ = writeln!(out, "\t{}\t{}\t{}\t{}\t{}\t{}", safe(&g.path), safe(&g.class), e.0, e.1, r.0, r.1);
            }
            let _ = writeln!(out, "class\tinstances before\tinstances now\tretained before\tretained now");
            for d in &b.classes {
                let (i, r) = (d.instances, d.retained_bytes);
                let _ = writeln!(out, "{}\t{}\t{}\t{}\t{}", safe(&d.class), i.0, i.1, r.0, r.1);
            }
        }
    }
    out
}

/// The rows as JSON: the same schema as the headless commands where one exists.
pub fn json(s: &Shown<'_>) -> serde_json::Value {
    use serde_json::json;
    let heap = s.heap;
    let file = heap::report::FileInfo { path: s.path, bytes: s.file_bytes, cut_names: false };
    match &s.rows {
        Rows::Summary => heap.analyze_json(&file, 50),
        Rows::Leaks => heap::leaks::render::leaks_json(heap, s.leaks),
        Rows::Instances { nodes, .. } => {
            json!(nodes.iter().take(10_000).map(|&n| heap.inspect_json(n)).collect::<Vec<_>>())
        }
        Rows::Classes(rows) => json!(rows
            .iter()
            .map(|r| json!({"class": r.name, "instances": r.instances, "shallow_bytes": r.shallow, "retained_bytes": r.retained}))
            .collect::<Vec<_>>()),
        Rows::Tree(rows) => json!(rows
            .iter()
            .map(|r| json!({
                "depth": r.depth,
                "id": hex(heap.index.id(r.node)),
                "class": heap.display_class(r.node),
                "retained_bytes": heap.dominators.retained(r.node),
            }))
            .collect::<Vec<_>>()),
        Rows::Object(n) => heap.inspect_json(*n),
        Rows::Diff(b) => json!({"baseline": b.path, "classes": b.classes, "growing": b.growing}),
        Rows::Threads(threads) => json!(threads.iter().map(|t| t.to_json(heap)).collect::<Vec<_>>()),
        Rows::Query(r) => crate::session::sql::rows::json(&r.columns, &r.rows),
        Rows::Set(title, kind) => {
            let mut v = match kind {
                super::model::SetKind::Merged { tree, .. } => tree.to_json(heap, 32, 100),
                super::model::SetKind::Dominators { result, .. } => result.to_json(heap, 100),
                super::model::SetKind::Pending(..) => json!({}),
            };
            v["set"] = json!(title);
            v
        }
    }
}
