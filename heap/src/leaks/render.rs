//! Leak reports: the `leaks` and `metadata` JSON of `analyze`, LeakCanary-style text, and KOOM's
//! report JSON.

use std::fmt::Write as _;

use serde_json::{json, Value as Json};

use crate::analysis::Heap;
use crate::fmt::{hex, safe};
use crate::hprof::RootKind;

use super::inspect::Leaking;
use super::metadata::Metadata;
use super::{Leak, LeakKind, ReferenceType};

/// The `leaks` array of the `analyze` JSON.
pub fn leaks_json(heap: &Heap, leaks: &[Leak]) -> Json {
    let idx = &heap.index;
    Json::Array(
        leaks
            .iter()
            .map(|l| {
                let trace: Vec<Json> = l
                    .trace
                    .iter()
                    .map(|t| {
                        json!({
                            "id": hex(idx.id(t.node)),
                            "class": heap.display_class(t.node),
                            "reference": t.reference,
                            "reference_type": t.reference_type,
                            "leaking": t.leaking,
                            "why": t.why,
                            "labels": t.labels,
                            "suspect": t.suspect_reference,
                        })
                    })
                    .collect();
                let mut o = json!({
                    "signature": l.signature,
                    "kind": l.kind,
                    "rule": l.rule,
                    "reason": l.reason,
                    "class": l.class,
                    "instances": l.instances.len(),
                    "ids": l.instances.iter().take(100).map(|&n| hex(idx.id(n))).collect::<Vec<_>>(),
                    "retained_bytes": l.retained_bytes,
                    "retained_objects": l.retained_objects,
                    "gc_root": l.gc_root.map(RootKind::name),
                    "trace": trace,
                });
                if let Some(lib) = l.library {
                    o["library"] = json!({"pattern": lib.pattern(), "bug": lib.bug, "description": lib.description});
                }
                o
            })
            .collect(),
    )
}

/// The `metadata` object of the `analyze` JSON.
pub fn metadata_json(meta: &Metadata) -> Json {
    json!(meta.entries)
}

/// Sizes as LeakCanary prints them: base-1000 units, one decimal.
fn kb(n: u64) -> String {
    const UNITS: [&str; 4] = ["kB", "MB", "GB", "TB"];
    if n < 1000 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1000.0;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    format!("{v:.1} {}", UNITS[u])
}

fn what(heap: &Heap, n: crate::index::Node) -> String {
    let idx = &heap.index;
    match idx.as_class(n) {
        Some(c) => format!("{} class", safe(&idx.classes[c.index()].name)),
        None if idx.class(n).is_array() => format!("{} array", safe(&idx.class(n).name)),
        None => format!("{} instance", safe(&idx.class(n).name)),
    }
}

fn owner_simple(heap: &Heap, n: crate::index::Node) -> String {
    let idx = &heap.index;
    let name = match idx.as_class(n) {
        Some(c) => idx.classes[c.index()].name.clone(),
        None => idx.class(n).name.clone(),
    };
    let simple = name.rsplit('.').next().unwrap_or(&name).to_string();
    simple.trim_end_matches("[]").to_string()
}

/// One leak trace, drawn as LeakCanary draws it; names and reasons from the dump made [`safe`].
pub fn leak_trace_text(heap: &Heap, leak: &Leak) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "┬───");
    let root = leak.gc_root.map_or("Unknown GC root type", RootKind::label);
    let _ = writeln!(out, "│ GC Root: {root}");
    let _ = writeln!(out, "│");
    let n = leak.trace.len();
    for (i, t) in leak.trace.iter().enumerate() {
        let last = i + 1 == n;
        let (head, pad) = if last { ("╰→ ", "\u{200b}     ") } else { ("├─ ", "│    ") };
        let _ = writeln!(out, "{head}{}", what(heap, t.node));
        let verdict = match t.leaking {
            Leaking::Yes => format!("YES ({})", safe(&t.why)),
            Leaking::No => format!("NO ({})", safe(&t.why)),
            Leaking::Unknown => "UNKNOWN".to_string(),
        };
        let _ = writeln!(out, "{pad}Leaking: {verdict}");
        if last || t.leaking == Leaking::Yes {
            let _ = writeln!(
                out,
                "{pad}Retaining {} in {}",
                kb(heap.dominators.retained(t.node)),
                crate::fmt::count(u64::from(heap.dominators.retained_count(t.node)), "object")
            );
        }
        for l in &t.labels {
            let _ = writeln!(out, "{pad}{}", safe(l));
        }
        if let Some(r) = &t.reference {
            let is_static = t.reference_type == Some(ReferenceType::StaticField) && r.starts_with('.');
            let owner = owner_simple(heap, t.node);
            let owner = safe(&owner);
            let r = safe(r);
            let prefix = format!("│    ↓ {}", if is_static { "static " } else { "" });
            let (shown, name) = if let Some(f) = r.strip_prefix('.') {
                (format!("{owner}.{f}"), f.to_string())
            } else if t.reference_type == Some(ReferenceType::Local) {
                (format!("{owner}<Java Local>"), "<Java Local>".to_string())
            } else {
                (format!("{owner}{r}"), r.to_string())
            };
            let _ = writeln!(out, "{prefix}{shown}");
            if t.suspect_reference {
                let before = prefix.chars().count() + shown.chars().count() - name.chars().count();
                let _ = writeln!(out, "│{}{}", " ".repeat(before - 1), "~".repeat(name.chars().count()));
            }
        }
    }
    out
}

/// The whole LeakCanary-style report, for people: every name, reason and value from the dump or
/// the file system made [`safe`] (KOOM's and the `leaks` JSON stay exact).
pub fn leakcanary_text(heap: &Heap, leaks: &[Leak], meta: &Metadata, file: &str, duration_ms: u128) -> String {
    let bar = "====================================";
    let mut out = String::new();
    let _ = writeln!(out, "{bar}\nHEAP ANALYSIS RESULT\n{bar}");
    for (kind, title) in [(LeakKind::Application, "APPLICATION LEAKS"), (LeakKind::Library, "LIBRARY LEAKS")] {
        let group: Vec<&Leak> = leaks.iter().filter(|l| l.kind == kind).collect();
        let _ = writeln!(out, "{} {title}\n", group.len());
        if kind == LeakKind::Application {
            let _ = writeln!(out, "References underlined with \"~~~\" are likely causes.\n");
        }
        for l in group {
            let _ = writeln!(out, "{} retained by leaking objects", kb(l.retained_bytes));
            if l.instances.len() > 1 {
                let _ =
                    writeln!(out, "Displaying only 1 leak trace out of {} with the same signature", l.instances.len());
            }
            if let Some(lib) = l.library {
                let _ = writeln!(out, "Leak pattern: {}", lib.pattern());
                let bug = if lib.bug.is_empty() { String::new() } else { format!(" ({})", lib.bug) };
                let _ = writeln!(out, "Description: {}{bug}", lib.description);
            }
            let _ = writeln!(out, "Signature: {}", l.signature);
            let _ = writeln!(out, "Rule: {} ({})", l.rule, safe(&l.reason));
            out.push_str(&leak_trace_text(heap, l));
            out.push('\n');
        }
        let _ = writeln!(out, "{bar}");
    }
    let unreachable: Vec<&Leak> = leaks.iter().filter(|l| l.kind == LeakKind::Unreachable).collect();
    let count: usize = unreachable.iter().map(|l| l.instances.len()).sum();
    let _ = writeln!(out, "{count} UNREACHABLE OBJECTS\n");
    for l in unreachable {
        let _ = writeln!(out, "{} x {} ({})", l.instances.len(), safe(&l.class), kb(l.retained_bytes));
    }
    let _ = writeln!(out, "{bar}\nMETADATA\n");
    for (k, v) in &meta.entries {
        let _ = writeln!(out, "{}: {}", safe(k), safe(v));
    }
    let _ = writeln!(out, "Analysis duration: {duration_ms} ms");
    let _ = writeln!(out, "Heap dump file path: {}", safe(file));
    let _ = writeln!(out, "Heap dump timestamp: {}", heap.index.header.timestamp_ms);
    let _ = writeln!(out, "{bar}");
    out
}

/// KOOM's report: `classInfos`, `gcPaths`, `runningInfo`.
pub fn koom_json(heap: &Heap, leaks: &[Leak], meta: &Metadata) -> Json {
    let idx = &heap.index;
    let mut class_infos: Vec<Json> = Vec::new();
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for l in leaks.iter().filter(|l| l.kind != LeakKind::Unreachable) {
        *seen.entry(l.class.clone()).or_default() += l.instances.len();
    }
    for (class, leaked) in seen {
        let total: u64 = idx.classes_named(&class).map(|c| heap.histogram[c.index()].instances).sum();
        class_infos.push(
            json!({"className": class, "instanceCount": total.to_string(), "leakInstanceCount": leaked.to_string()}),
        );
    }
    let gc_paths: Vec<Json> = leaks
        .iter()
        .filter(|l| l.kind != LeakKind::Unreachable)
        .map(|l| {
            let path: Vec<Json> = l
                .trace
                .iter()
                .map(|t| {
                    json!({
                        "declaredClass": heap.display_class(t.node).trim_start_matches("class ").to_string(),
                        "reference": t.reference.as_deref().map(|r| r.trim_start_matches('.').to_string()).unwrap_or_default(),
                        "referenceType": t.reference_type,
                    })
                })
                .collect();
            json!({
                "gcRoot": l.gc_root.map_or("Unknown GC root type", RootKind::label),
                "instanceCount": l.instances.len(),
                "leakReason": l.reason,
                "path": path,
                "signature": l.signature,
            })
        })
        .collect();
    let get = |k: &str| meta.entries.get(k).cloned().unwrap_or_default();
    json!({
        "classInfos": class_infos,
        "gcPaths": gc_paths,
        "runningInfo": {
            "analysisReason": "heaptui",
            "appVersion": "",
            "buildModel": get("Build.MODEL"),
            "currentPage": "",
            "dumpReason": "",
            "jvmMax": "",
            "jvmUsed": "",
            "manufacture": get("Build.MANUFACTURER"),
            "nowTime": heap.index.header.timestamp_ms.to_string(),
            "pss": "",
            "rss": "",
            "sdkInt": get("Build.VERSION.SDK_INT"),
            "threadCount": get("Thread count"),
            "usageSeconds": "",
            "vss": "",
        },
    })
}
