//! Real command output gathered from public sources (`tests/transcripts/`, each file's header
//! names its source and Android version): every `dumpsys meminfo` transcript's Dalvik Heap row is
//! read as its header says, and the heap properties of `getprop` parse.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// A transcript: its `# expect: KEY = VALUE` lines and the output below the header.
struct Transcript {
    name: String,
    expect: BTreeMap<String, String>,
    body: String,
}

fn transcripts(kind: &str) -> Vec<Transcript> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/transcripts").join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let header_lines = text.lines().take_while(|l| l.starts_with('#')).count();
            let mut expect = BTreeMap::new();
            for l in text.lines().take(header_lines) {
                if let Some((k, v)) = l.strip_prefix("# expect:").and_then(|kv| kv.split_once('=')) {
                    expect.insert(k.trim().to_string(), v.trim().to_string());
                }
            }
            let body = text.split_inclusive('\n').skip(header_lines).collect();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            assert!(text.starts_with("# source: "), "{name}: the header names its source first");
            Transcript { name, expect, body }
        })
        .collect()
}

#[test]
fn every_meminfo_transcript_gives_its_dalvik_heap() {
    let all = transcripts("meminfo");
    assert!(all.len() >= 6, "{} meminfo transcripts", all.len());
    for t in &all {
        let kb = |k: &str| -> u64 {
            t.expect.get(k).unwrap_or_else(|| panic!("{}: no `# expect: {k}`", t.name)).parse().unwrap()
        };
        let want = (kb("dalvik_heap_alloc_kb"), kb("dalvik_heap_size_kb"));
        assert_eq!(agent::android::parse_meminfo(&t.body), Some(want), "{}", t.name);
        // The CRLF that a pre-Android-7 `adb shell` pty adds changes nothing.
        assert_eq!(agent::android::parse_meminfo(&t.body.replace('\n', "\r\n")), Some(want), "{} (CRLF)", t.name);
        // The app's PSS (the TOTAL row) and its object counts, read by the agent's parsers.
        match t.expect.get("total_pss_kb") {
            Some(total) => {
                assert_eq!(agent::android::parse_total_pss(&t.body), Some(total.parse().unwrap()), "{}", t.name)
            }
            None => assert_eq!(agent::android::parse_total_pss(&t.body), None, "{}: a TOTAL row", t.name),
        }
        let objects = agent::android::parse_objects(&t.body);
        for key in ["Activities", "Views"] {
            let want = t.expect.get(&format!("objects.{key}")).map(|n| n.parse::<u64>().unwrap());
            assert_eq!(objects.get(key).copied(), want, "{}: objects.{key}", t.name);
        }
    }
}

#[test]
fn getprop_heap_sizes_parse() {
    let all = transcripts("getprop");
    assert!(!all.is_empty());
    for t in &all {
        for (k, v) in &t.expect {
            let line = format!("[{k}]: [{v}]");
            assert!(t.body.lines().any(|l| l == line), "{}: {line}", t.name);
            if k.starts_with("dalvik.vm.heap") {
                let bytes = agent::android::parse_size(v).unwrap_or_else(|| panic!("{}: {k} = {v}", t.name));
                assert!(bytes >= 512 << 10, "{}: {k} = {v} is {bytes} bytes", t.name);
            }
        }
    }
}
