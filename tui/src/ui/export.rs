//! The current view as plain text and as JSON (the `e` key writes both to files).

use std::fmt::Write as _;

use heap::report::{hex, human_bytes};

use super::model::App;
use super::screen::Screen;

/// The rows of the current view as text, or `None` when nothing is loaded.
pub fn view_text(app: &App) -> Option<String> {
    let loaded = app.loaded()?;
    let heap = &loaded.heap;
    let mut out = String::new();
    match app.screen {
        Screen::Overview | Screen::Monitor => {
            let file = heap::report::FileInfo { path: &loaded.path, bytes: loaded.file_bytes };
            out = heap.analyze_text(&file, 50, &loaded.leaks);
        }
        Screen::Classes => match &app.classes.instances {
            Some((c, nodes, _)) => {
                let _ = writeln!(out, "instances of {}", heap.index.classes[*c as usize].name);
                for &n in nodes {
                    let _ = writeln!(
                        out,
                        "{}\t{}\t{}",
                        hex(heap.index.id(n)),
                        heap.index.shallow_size(n),
                        heap.dominators.retained(n)
                    );
                }
            }
            None => {
                let _ = writeln!(out, "instances\tshallow\tretained\tclass");
                for r in &app.classes.rows {
                    let _ = writeln!(out, "{}\t{}\t{}\t{}", r.instances, r.shallow, r.retained, r.name);
                }
            }
        },
        Screen::Leaks => {
            let meta = heap::leaks::metadata::extract(heap);
            out = heap::leaks::render::leakcanary_text(heap, &loaded.leaks, &meta, &loaded.path, 0);
        }
        Screen::Dominators => {
            for r in app.dom_rows(10_000) {
                let _ = writeln!(
                    out,
                    "{}{} {} {}",
                    "  ".repeat(r.depth),
                    heap.display_class(r.node),
                    hex(heap.index.id(r.node)),
                    human_bytes(heap.dominators.retained(r.node))
                );
            }
        }
        Screen::Inspector => {
            let n = *app.inspector.history.last()?;
            out = heap.inspect_text(n);
        }
    }
    Some(out)
}

/// The current view as JSON: the same schema as the headless commands where one exists.
pub fn view_json(app: &App) -> Option<serde_json::Value> {
    use serde_json::json;
    let loaded = app.loaded()?;
    let heap = &loaded.heap;
    let file = heap::report::FileInfo { path: &loaded.path, bytes: loaded.file_bytes };
    Some(match app.screen {
        Screen::Overview | Screen::Monitor => heap.analyze_json(&file, 50),
        Screen::Leaks => heap::leaks::render::leaks_json(heap, &loaded.leaks),
        Screen::Classes => match &app.classes.instances {
            Some((_, nodes, _)) => json!(nodes.iter().take(10_000).map(|&n| heap.inspect_json(n)).collect::<Vec<_>>()),
            None => json!(app
                .classes
                .rows
                .iter()
                .map(|r| json!({"class": r.name, "instances": r.instances, "shallow_bytes": r.shallow, "retained_bytes": r.retained}))
                .collect::<Vec<_>>()),
        },
        Screen::Dominators => json!(app
            .dom_rows(10_000)
            .iter()
            .map(|r| json!({
                "depth": r.depth,
                "id": hex(heap.index.id(r.node)),
                "class": heap.display_class(r.node),
                "retained_bytes": heap.dominators.retained(r.node),
            }))
            .collect::<Vec<_>>()),
        Screen::Inspector => heap.inspect_json(*app.inspector.history.last()?),
    })
}
