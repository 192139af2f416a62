//! Shared helpers of the fixture tests: where the fixtures are, and one analysed copy of each
//! dump per test binary.
#![allow(dead_code)]

pub mod builder;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use heap::{ClassId, Heap, Node, Options, SizeModel};

/// `../shared/fixtures` beside the checkout (override with `HEAPTUI_FIXTURES`).
pub fn fixtures() -> PathBuf {
    let dir = std::env::var_os("HEAPTUI_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"));
    assert!(dir.is_dir(), "fixtures not found at {} (set HEAPTUI_FIXTURES)", dir.display());
    dir
}

/// The path of fixture `name` (e.g. `android/ahat-art__RI.hprof`). A `.bz2` original is
/// decompressed once into the target directory; `.gz` files are opened as they are.
pub fn fixture(name: &str) -> PathBuf {
    let p = fixtures().join(name);
    if p.exists() {
        return p;
    }
    let bz2 = fixtures().join(format!("{name}.bz2"));
    if bz2.exists() {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(Path::new(name).file_name().unwrap_or_default());
        if !out.exists() {
            let mut bytes = Vec::new();
            bzip2::read::BzDecoder::new(std::fs::File::open(&bz2).unwrap()).read_to_end(&mut bytes).unwrap();
            let tmp = out.with_extension("part");
            std::fs::write(&tmp, bytes).unwrap();
            std::fs::rename(&tmp, &out).unwrap();
        }
        return out;
    }
    let gz = fixtures().join(format!("{name}.gz"));
    assert!(gz.exists(), "fixture {name} not found");
    gz
}

type Cache = Mutex<HashMap<(String, Option<&'static str>), Arc<Heap>>>;

/// The fixture analysed under `model` (`None`: automatic), shared by the tests of one binary.
pub fn heap(name: &str, model: Option<SizeModel>) -> Arc<Heap> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (name.to_string(), model.map(|m| m.name()));
    let cache = CACHE.get_or_init(Default::default);
    if let Some(h) = cache.lock().unwrap().get(&key) {
        return h.clone();
    }
    let h = Arc::new(Heap::open(&fixture(name), Options { size_model: model, ..Default::default() }).unwrap());
    cache.lock().unwrap().entry(key).or_insert(h).clone()
}

/// Every dump among the fixtures by the name [`fixture`] takes (a `.bz2` one by its name
/// without it), but the 500 MB MAT dump, which the benchmarks read instead.
#[allow(dead_code)]
pub fn all_fixtures() -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["android", "jvm"] {
        for entry in std::fs::read_dir(fixtures().join(sub)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() || name.ends_with(".expected") || name.ends_with(".map") || name.contains("java_pid1884") {
                continue;
            }
            out.push(format!("{sub}/{}", name.trim_end_matches(".bz2")));
        }
    }
    out.sort();
    out
}

/// The only class named `name`.
pub fn class(h: &Heap, name: &str) -> ClassId {
    let found: Vec<ClassId> = h.index.classes_named(name).collect();
    assert_eq!(found.len(), 1, "expected one class named {name}, found {}", found.len());
    found[0]
}

/// The only instance of exactly class `name`.
pub fn single_instance(h: &Heap, name: &str) -> Node {
    let v = h.instances_of(class(h, name));
    assert_eq!(v.len(), 1, "expected one instance of {name}");
    v[0]
}

/// The node of object `id`.
pub fn node(h: &Heap, id: u64) -> Node {
    h.index.node(id).unwrap_or_else(|| panic!("no object 0x{id:x}"))
}

/// The node a reference field points to.
pub fn follow(h: &Heap, n: Node, field: &str) -> Node {
    h.index.field_node(n, field).unwrap_or_else(|| panic!("field {field} of 0x{:x} is null or missing", h.index.id(n)))
}

/// The class name of node `n`.
pub fn class_name(h: &Heap, n: Node) -> String {
    h.index.class(n).name.clone()
}
