//! The workspace's structure rules, as tests: no import cycle between the files of any crate;
//! the binary's layers import downwards only (the UI and the session nothing of the command line,
//! the session nothing of the UI).

use std::path::{Path, PathBuf};

use test_support::imports::{cycles, imports, report};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace")
}

#[test]
fn no_crate_has_an_import_cycle() {
    let found = cycles(&workspace()).expect("read the workspace");
    assert!(found.is_empty(), "import cycles (each file imports one that imports it back):\n{}", report(&found));
}

/// `tui/src`: the screens (`ui`) and the commands (`cli`) both sit on the session, and neither
/// the session nor the screens reach into the command line; the session does not reach into the
/// screens.
#[test]
fn the_binarys_layers_import_downwards() {
    let root = workspace();
    let src = root.join("tui/src");
    let edges = imports(&root).expect("read the workspace");
    let under = |p: &Path, layer: &str| p.starts_with(src.join(layer)) || p == src.join(format!("{layer}.rs"));
    let mut wrong = Vec::new();
    for (from, to) in &edges {
        for t in to {
            let bad = (under(from, "ui") && under(t, "cli"))
                || (under(from, "session") && (under(t, "cli") || under(t, "ui")));
            if bad {
                wrong.push(format!(
                    "{} -> {}",
                    from.strip_prefix(&root).unwrap().display(),
                    t.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers:\n{}", wrong.join("\n"));
    // The check sees imports at all: the command line does import the session.
    assert!(edges.iter().any(|(f, t)| under(f, "cli") && t.iter().any(|t| under(t, "session"))));
}

/// A crate of three files written here: `a` → `b` → `c` → `a` through a brace group, a
/// `super::` path and a `crate::` path in code; a `use` in a test module and in a comment that
/// would close a second loop and must not.
fn write_crate(root: &Path, closing: bool) {
    let src = root.join("k/src");
    std::fs::create_dir_all(src.join("b")).unwrap();
    std::fs::write(root.join("k/Cargo.toml"), "[package]\nname = \"k\"\n").unwrap();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(
        src.join("a.rs"),
        "use crate::{b::{self, c::C}};\n// use crate::lib_only;\n#[cfg(test)]\nmod tests {\n    use crate::b::d;\n}\n",
    )
    .unwrap();
    std::fs::write(src.join("b/mod.rs"), "pub mod c;\npub mod d;\npub fn f() { c::g() }\n").unwrap();
    let back = if closing { "pub fn g() { crate::a::h() }\n" } else { "pub fn g() {}\n" };
    std::fs::write(src.join("b/c.rs"), format!("pub struct C;\n{back}")).unwrap();
    std::fs::write(src.join("b/d.rs"), "use super::super::a::h;\n").unwrap();
}

#[test]
fn a_loop_through_braces_super_and_code_is_found_and_tests_are_not() {
    let dir = tempdir();
    write_crate(dir.path(), true);
    let found = cycles(dir.path()).unwrap();
    assert_eq!(found.len(), 1, "{}", report(&found));
    // `b/mod.rs` reaches `c` only through a bare `c::g()` (no `self::`), which is not read:
    // the loop is `a` → `b::c` → `a`.
    assert_eq!(found[0].files, ["k/src/a.rs", "k/src/b/c.rs"].map(String::from));
    assert!(found[0].edges.contains(&("k/src/b/c.rs".into(), "k/src/a.rs".into())), "{found:?}");
    // `d` imports `a` (`super::super`), but nothing in the loop imports `d`.
    assert!(!found[0].files.iter().any(|f| f.ends_with("d.rs")));

    let dir = tempdir();
    write_crate(dir.path(), false);
    assert!(cycles(dir.path()).unwrap().is_empty());
}

/// The maintainers' script, when it is beside the workspace, reads the workspace and the crates
/// above as this check does, cycle for cycle and edge for edge.
#[test]
fn agrees_with_the_maintainers_script() {
    let script = workspace().join("../shared/tools/import-cycles.py");
    if !script.is_file() || std::process::Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: no {} or no python3", script.display());
        return;
    }
    let (with, without) = (tempdir(), tempdir());
    write_crate(with.path(), true);
    write_crate(without.path(), false);
    // And the two cycles the workspace had on 2026-11-28 (`341578e`), rebuilt from the lines
    // that made them: `heap`'s analysis calling a leak rule and the semantics back, the UI's
    // model, messages, navigation and query screen.
    let old = tempdir();
    write_old_cycles(old.path());
    for root in [workspace(), with.path().to_path_buf(), without.path().to_path_buf(), old.path().to_path_buf()] {
        let out = std::process::Command::new("python3").arg(&script).arg(&root).output().unwrap();
        let theirs = String::from_utf8(out.stdout).unwrap();
        let ours = report(&cycles(&root).unwrap());
        // The script lists the cycles in the order its search met them; this check sorts them.
        assert_eq!(blocks(&ours), blocks(&theirs), "on {}:\n{ours}\n{theirs}", root.display());
    }
}

/// The import lines of the files in the two cycles of `341578e`, each file holding only those.
fn write_old_cycles(root: &Path) {
    let files: &[(&str, &str)] = &[
        ("heap/src/lib.rs", "pub mod analysis;\npub mod diff;\npub mod leaks;\npub mod semantics;\n"),
        (
            "heap/src/analysis.rs",
            "fn f() { crate::leaks::waste::find_string_copies(); crate::semantics::analyse(); }\n",
        ),
        ("heap/src/semantics.rs", "fn g() { crate::analysis::retained_by_class_for(); }\n"),
        ("heap/src/diff.rs", "use crate::analysis::Heap;\n"),
        (
            "heap/src/leaks/mod.rs",
            "pub mod inspect;\npub mod rules;\npub mod waste;\nuse crate::analysis::Heap;\nuse crate::diff::Diff;\n",
        ),
        ("heap/src/leaks/inspect.rs", "use crate::analysis::Heap;\n"),
        (
            "heap/src/leaks/rules.rs",
            "use crate::analysis::Heap;\nuse super::inspect::Leaking;\nuse super::{Leak, Rule};\n",
        ),
        ("heap/src/leaks/waste.rs", "use crate::analysis::Heap;\nuse super::rules::instances_of_subclasses;\n"),
        ("tui/src/main.rs", "mod ui;\n"),
        ("tui/src/ui/mod.rs", "pub mod model;\npub mod msg;\npub mod nav;\npub mod query;\n"),
        ("tui/src/ui/model.rs", "fn s() -> super::msg::SetOf { super::nav::INSPECTOR_PAGE }\n"),
        ("tui/src/ui/msg.rs", "use super::model::Loaded;\nfn r() { super::query::run() }\n"),
        ("tui/src/ui/nav.rs", "use super::model::{App, DiffRow, Place};\nfn o() -> Vec<super::msg::Effect> {}\n"),
        ("tui/src/ui/query.rs", "use super::model::{App, QueryResult};\nuse super::msg::Effect;\n"),
    ];
    for krate in ["heap", "tui"] {
        std::fs::create_dir_all(root.join(krate).join("src")).unwrap();
        std::fs::write(root.join(krate).join("Cargo.toml"), "[package]\n").unwrap();
    }
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let found = cycles(root).unwrap();
    assert_eq!(found.len(), 2, "{}", report(&found));
}

/// A report's count line, then each cycle's lines, the cycles sorted.
fn blocks(report: &str) -> (String, Vec<String>) {
    let mut lines = report.lines();
    let count = lines.next().unwrap_or("").to_string();
    let mut cycles: Vec<String> = Vec::new();
    for line in lines {
        match cycles.last_mut() {
            Some(c) if !line.starts_with("  SCC:") => *c += &format!("{line}\n"),
            _ => cycles.push(format!("{line}\n")),
        }
    }
    cycles.sort();
    (count, cycles)
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}
