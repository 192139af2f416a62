//! Stamps the engine with a hash of its source, so an index cache written by one build of the
//! engine is never read by another (`HEAPTUI_ENGINE_HASH`).

use std::hash::{Hash, Hasher};
use std::path::Path;

fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, files);
        } else if p.extension().is_some_and(|x| x == "rs") {
            files.push(p);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    let mut files = Vec::new();
    walk(Path::new("src"), &mut files);
    files.sort();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for f in files.iter().chain([&Path::new("Cargo.toml").to_path_buf()]) {
        f.hash(&mut h);
        std::fs::read(f).unwrap_or_default().hash(&mut h);
    }
    println!("cargo:rustc-env=HEAPTUI_ENGINE_HASH={:016x}", h.finish());
}
