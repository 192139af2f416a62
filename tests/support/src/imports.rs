//! Import cycles between the files of each crate of a workspace: a file that imports one that
//! imports it back, directly or around a loop. CI fails on one (`tests/structure.rs`, and
//! `.ci/run` through `import-cycles`), because cycles came back within days whenever nothing
//! checked.
//!
//! It reads what the maintainers' `tools/import-cycles.py` reads, the same way, so the two agree
//! on any tree (`tests/structure.rs` compares them when the script is there): `use` paths with
//! their brace groups expanded, and `crate::`, `super::` and `self::` paths anywhere in the code;
//! line comments and a file's `#[cfg(test)] mod tests { … }` (to the file's end) are left out. A
//! path names the file of the longest module prefix it has; a file imports the files its paths
//! name. Crates are the folders with a `Cargo.toml` and a `src/` (not `target`, `fuzz` or hidden
//! folders).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A set of files that all import each other around loops, with the edges between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    /// The files, relative to the workspace, sorted.
    pub files: Vec<String>,
    /// The imports that close it: `(importer, imported)`, sorted.
    pub edges: Vec<(String, String)>,
}

/// Every import cycle of the crates under `root`.
pub fn cycles(root: &Path) -> std::io::Result<Vec<Cycle>> {
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for krate in crates(root)? {
        crate_edges(&krate.join("src"), &mut edges)?;
    }
    let rel = |p: &Path| p.strip_prefix(root).unwrap_or(p).to_string_lossy().into_owned();
    let mut out: Vec<Cycle> = strongly_connected(&edges)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|comp| {
            let set: BTreeSet<&PathBuf> = comp.iter().collect();
            let mut files: Vec<String> = comp.iter().map(|p| rel(p)).collect();
            files.sort();
            let mut closing = Vec::new();
            for a in &comp {
                for b in edges.get(a).into_iter().flatten().filter(|b| set.contains(b)) {
                    closing.push((rel(a), rel(b)));
                }
            }
            closing.sort();
            Cycle { files, edges: closing }
        })
        .collect();
    out.sort_by(|a, b| a.files.cmp(&b.files));
    Ok(out)
}

/// Every file of the crates under `root` and the files it imports (absolute paths).
pub fn imports(root: &Path) -> std::io::Result<BTreeMap<PathBuf, BTreeSet<PathBuf>>> {
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for krate in crates(root)? {
        crate_edges(&krate.join("src"), &mut edges)?;
    }
    Ok(edges)
}

/// The report `tools/import-cycles.py` prints: the count, then each cycle and its edges.
pub fn report(cycles: &[Cycle]) -> String {
    let mut s = format!("{} import cycles\n", cycles.len());
    for c in cycles {
        s += &format!("  SCC: {}\n", c.files.join(" <-> "));
        for (a, b) in &c.edges {
            s += &format!("      {a} -> {b}\n");
        }
    }
    s
}

/// The crates under `root`: folders holding a `Cargo.toml` and a `src` folder.
fn crates(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        if dir.join("Cargo.toml").is_file() && dir.join("src").is_dir() {
            out.push(dir.clone());
        }
        for e in std::fs::read_dir(&dir)? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type()?.is_dir() && !matches!(name.as_str(), "target" | ".git" | "fuzz") && !name.starts_with('.')
            {
                stack.push(e.path());
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The `.rs` files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let p = e.path();
        if e.file_type()?.is_dir() {
            rust_files(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    Ok(())
}

/// Adds the imports between the files of the crate whose sources are `src`.
fn crate_edges(src: &Path, edges: &mut BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> std::io::Result<()> {
    let mut files = Vec::new();
    rust_files(src, &mut files)?;
    // Each file's module path: `a/b.rs` and `a/b/mod.rs` are `a::b`; `lib.rs`, `main.rs` the root.
    let mut modules: BTreeMap<Vec<String>, PathBuf> = BTreeMap::new();
    for f in &files {
        let rel = f.strip_prefix(src).unwrap_or(f).with_extension("");
        let mut path: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
        if matches!(path.last().map(String::as_str), Some("mod" | "lib" | "main")) {
            path.pop();
        }
        modules.insert(path, f.clone());
    }
    let resolve = |path: &[String]| (1..=path.len()).rev().find_map(|n| modules.get(&path[..n]));
    for (here, file) in &modules {
        let text = code_of(&std::fs::read(file)?);
        for path in paths_in(&text) {
            let parts: Vec<&str> = path.split("::").collect();
            let mut base: Vec<String> = match parts[0] {
                "crate" => Vec::new(),
                "self" => here.clone(),
                "super" => here[..here.len().saturating_sub(1)].to_vec(),
                _ => continue,
            };
            let mut rest = &parts[1..];
            while rest.first() == Some(&"super") {
                base.pop();
                rest = &rest[1..];
            }
            base.extend(
                rest.iter()
                    .filter(|r| !matches!(**r, "*" | "self"))
                    .map(|r| r.split(" as ").next().unwrap_or(r).to_string()),
            );
            if let Some(target) = resolve(&base) {
                if target != file {
                    edges.entry(file.clone()).or_default().insert(target.clone());
                }
            }
        }
    }
    Ok(())
}

/// A file's text without its test module (from `#[cfg(test)] mod tests {` to the end) and its
/// line comments.
fn code_of(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut text: &str = &text;
    if let Some(at) = test_module(text) {
        text = &text[..at];
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("//") {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        rest = &rest[rest.find('\n').unwrap_or(rest.len())..];
    }
    out.push_str(rest);
    out
}

/// Where `#[cfg(test)]`, blanks, `mod tests`, blanks and `{` first follow each other.
fn test_module(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find("#[cfg(test)]").map(|a| a + from) {
        let after = text[at + "#[cfg(test)]".len()..].trim_start();
        if let Some(after) = after.strip_prefix("mod tests") {
            if after.trim_start().starts_with('{') {
                return Some(at);
            }
        }
        from = at + 1;
    }
    None
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths a file's code names: each `use` item's paths (brace groups expanded, blanks
/// dropped), and every `crate::…`, `super::…` and `self::…` path.
fn paths_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let starts_word = |at: usize| text[..at].chars().next_back().is_none_or(|c| !is_word(c));
    // `use` + blanks + anything up to the next `;`.
    let mut from = 0;
    while let Some(at) = text[from..].find("use").map(|a| a + from) {
        from = at + 1;
        let after = &text[at + 3..];
        let item = after.trim_start();
        if !starts_word(at) || item.len() == after.len() {
            continue;
        }
        let Some(end) = item.find(';') else { continue };
        if end == 0 {
            continue;
        }
        let squeezed: String = item[..end].chars().filter(|c| !c.is_whitespace()).collect();
        out.extend(expand(&squeezed));
        from = text.len() - item.len() + end + 1;
    }
    // `crate`/`super`/`self` followed by one or more `::ident`, in one pass from the left.
    let mut at = 0;
    while at < text.len() {
        let head = ["crate", "super", "self"].into_iter().find(|h| text[at..].starts_with(h));
        let Some(head) = head.filter(|_| starts_word(at)) else {
            at += text[at..].chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let mut end = at + head.len();
        while let Some(seg) = text[end..].strip_prefix("::") {
            if !seg.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                break;
            }
            end += 2 + seg.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(seg.len());
        }
        if end > at + head.len() {
            out.push(text[at..end].to_string());
            at = end;
        } else {
            at += 1;
        }
    }
    out
}

/// `a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e` (blanks already dropped).
fn expand(s: &str) -> Vec<String> {
    let Some(open) = s.find('{') else { return vec![s.to_string()] };
    let mut depth = 0;
    let mut close = s.len();
    for (i, c) in s[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = open + i;
                    break;
                }
            }
            _ => {}
        }
    }
    let (pre, inner) = (&s[..open], &s[open + 1..close.min(s.len())]);
    let post = s.get(close + 1..).unwrap_or("");
    let mut parts = Vec::new();
    let (mut depth, mut cur) = (0, String::new());
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    let mut out = Vec::new();
    for p in parts {
        for q in expand(&p) {
            out.extend(expand(&format!("{pre}{q}{post}")));
        }
    }
    out
}

/// Tarjan's strongly connected components of `edges`, without recursion.
fn strongly_connected(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    let nodes: BTreeSet<&PathBuf> = edges.keys().chain(edges.values().flatten()).collect();
    let id: BTreeMap<&PathBuf, usize> = nodes.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let names: Vec<&PathBuf> = nodes.iter().copied().collect();
    let succ: Vec<Vec<usize>> =
        names.iter().map(|p| edges.get(*p).into_iter().flatten().map(|q| id[q]).collect()).collect();
    let n = names.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        // (node, next successor to look at)
        let mut work = vec![(start, 0usize)];
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k == 0 && index[v] == usize::MAX {
                (index[v], low[v]) = (next, next);
                next += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = succ[v].get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    comp.push(names[w].clone());
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brace_groups_expand_at_every_depth() {
        assert_eq!(expand("a::{b,c::{d,e}}"), ["a::b", "a::c::d", "a::c::e"]);
        assert_eq!(expand("a::b"), ["a::b"]);
    }

    #[test]
    fn paths_are_read_from_uses_and_code() {
        let text = code_of(
            b"use crate::a::{b, c};\nfn f() { super::d::e(); let myself::x = 1; } // crate::z::y\n\
              #[cfg(test)]\nmod tests { use crate::t; }",
        );
        let p = paths_in(&text);
        assert!(p.contains(&"crate::a::b".to_string()) && p.contains(&"crate::a::c".to_string()), "{p:?}");
        assert!(p.contains(&"super::d::e".to_string()), "{p:?}");
        assert!(!p.iter().any(|x| x.contains("::z") || x.contains("::t") || x.contains("myself")), "{p:?}");
    }
}
