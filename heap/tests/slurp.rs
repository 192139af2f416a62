//! hprof-slurp's gold outputs (`src/slurp.rs` tests) on hprof-32.bin and hprof-64.bin: record counts
//! of the heap dump, and the instance counts (and largest-array sizes, in hprof-slurp's arithmetic)
//! of its "top 20 raw shallow heap classes" table.

mod common;

use common::*;
use heap::hprof::RootKind;
use heap::{Heap, ObjectKind};

struct Gold {
    counts: Vec<(String, u64)>,
    rows: Vec<(String, u64, String)>,
}

fn gold(name: &str) -> Gold {
    let text = std::fs::read_to_string(fixtures().join(format!("{name}.expected"))).unwrap();
    let counts = text
        .lines()
        .filter_map(|l| l.strip_prefix(".."))
        .filter_map(|l| l.rsplit_once(": ").map(|(k, v)| (k.to_string(), v.trim().parse().unwrap())))
        .collect();
    let table = text.split("Top 20 raw shallow heap classes").nth(1).unwrap();
    let rows = table
        .lines()
        .filter(|l| l.starts_with('|') && !l.contains("Class name"))
        .take(20)
        .map(|l| {
            let cols: Vec<&str> = l.split('|').map(str::trim).collect();
            (cols[4].to_string(), cols[2].parse().unwrap(), cols[3].to_string())
        })
        .collect();
    Gold { counts, rows }
}

/// Root records of `kind`, counted as hprof-slurp counts them: records, whether or not the object
/// they name is in the dump.
fn root_count(h: &Heap, kind: RootKind) -> u64 {
    h.index.counts.root_records_by_kind.get(&kind).copied().unwrap_or(0)
}

/// hprof-slurp prints sizes as `8.02KiB`, `32.00bytes`.
fn slurp_units(n: u64) -> String {
    let f = n as f64;
    if n < 1024 {
        format!("{f:.2}bytes")
    } else if n < 1024 * 1024 {
        format!("{:.2}KiB", f / 1024.0)
    } else {
        format!("{:.2}MiB", f / 1048576.0)
    }
}

fn check(name: &str) {
    let h = heap(name, None);
    let g = gold(name);
    let kinds = [
        ("GC root unknown", RootKind::Unknown),
        ("GC root thread objects", RootKind::ThreadObject),
        ("GC root JNI global", RootKind::JniGlobal),
        ("GC root JNI local", RootKind::JniLocal),
        ("GC root Java frame", RootKind::JavaFrame),
        ("GC root native stack", RootKind::NativeStack),
        ("GC root sticky class", RootKind::StickyClass),
        ("GC root thread block", RootKind::ThreadBlock),
        ("GC root monitor used", RootKind::MonitorUsed),
    ];
    let mut checked = 0;
    for (label, value) in &g.counts {
        let ours = match label.as_str() {
            "GC primitive array dump" => h.index.counts.primitive_arrays,
            "GC object array dump" => h.index.counts.object_arrays,
            "GC class dump" => h.index.counts.classes,
            "GC instance dump" => h.index.counts.instances,
            l => match kinds.iter().find(|(k, _)| *k == l) {
                Some((_, kind)) => root_count(&h, *kind),
                None => continue,
            },
        };
        assert_eq!(ours, *value, "{label}");
        checked += 1;
    }
    assert_eq!(checked, 13);
    // The file content summary: top-level records.
    let record = |name: &str| h.index.counts.records.get(name).copied().unwrap_or(0);
    let text = std::fs::read_to_string(fixtures().join(format!("{name}.expected"))).unwrap();
    let summary = |label: &str| -> u64 {
        text.lines().find_map(|l| l.strip_prefix(label)).and_then(|v| v.trim().parse().ok()).unwrap()
    };
    assert_eq!(record("STRING"), summary("UTF-8 Strings:"));
    // hprof-slurp counts classes by id; hprof-64.bin has 531 LOAD CLASS records for 474 classes.
    assert_eq!(h.index.counts.loaded_classes, summary("Classes loaded:"));
    assert_eq!(record("UNLOAD CLASS"), summary("Classes unloaded:"));
    assert_eq!(record("STACK TRACE"), summary("Stack traces:"));
    assert_eq!(record("STACK FRAME"), summary("Stack frames:"));
    assert_eq!(record("START THREAD"), summary("Start threads:"));
    assert_eq!(record("END THREAD"), summary("End threads:"));
    assert_eq!(record("ALLOC SITES"), summary("Allocation sites:"));
    assert_eq!(record("CONTROL SETTINGS"), summary("Control settings:"));
    assert_eq!(record("CPU SAMPLES"), summary("CPU samples:"));
    assert_eq!(record("HEAP SUMMARY"), summary("Heap summaries:"));
    let id = u64::from(h.index.header.id_size);
    for (class_name, instances, largest) in &g.rows {
        let c = h.index.classes_named(class_name).next().unwrap_or_else(|| panic!("{class_name}"));
        assert_eq!(h.histogram[c.index()].instances, *instances, "{class_name}");
        // hprof-slurp's primitive array size: 8-byte aligned, header 12 (4-byte ids) or 16 bytes.
        if let heap::index::classes::ClassKind::PrimitiveArray(t) = h.index.classes[c.index()].kind {
            let max_len = h
                .instances_of(c)
                .into_iter()
                .filter(|&n| h.index.kind(n) == ObjectKind::PrimitiveArray)
                .filter_map(|n| h.index.array_length(n))
                .max()
                .unwrap();
            let header = if id == 4 { 12 } else { 16 };
            let size = (header + u64::from(t.size(id as u32)) * u64::from(max_len)).div_ceil(8) * 8;
            assert_eq!(&slurp_units(size), largest, "{class_name}");
        }
    }
}

#[test]
fn slurp_gold_hprof_32() {
    check("jvm/hprof-slurp__hprof-32.bin");
}

#[test]
fn slurp_gold_hprof_64() {
    check("jvm/hprof-slurp__hprof-64.bin");
}
