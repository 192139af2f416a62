//! Perfetto traces built to take memory or time out of all proportion (`test_support::traces`,
//! written byte by byte apart from the engine's reader): each opens with the values its
//! construction fixes, or ends in an error naming where, with the process's peak memory
//! (getrusage) bounded. One test in this binary, since the peak is the process's.

use heap::{Heap, Index, Options};
use test_support::traces;

fn open(name: &str, bytes: &[u8]) -> Result<Index, heap::Error> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let index = Index::open(&path, Options::default());
    // Nothing left beside the trace: the HPROF written from the graph had no name.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    index
}

#[test]
fn hostile_traces_open_or_fail_within_bounds() {
    // One Holder with 100 000 references the runtime holds, 20 000 more Holders with none
    // (28 KB gzip'd; padding each to the largest would write 8 GB). By construction: 20 001
    // Holders of 16 bytes, the first reaching every other, so it retains 20 001 × 16 bytes.
    let trace = traces::padded_type(100_000, 20_000);
    assert!(trace.len() < 300_000, "{}", trace.len());
    let h = Heap::analyse(open("padded.pftrace.gz", &trace).unwrap(), Options::default());
    let holder = h.index.classes.iter().position(|c| c.name == "com.example.Holder").unwrap();
    let holders: Vec<_> = h.index.nodes().filter(|&n| h.index.class_of(n).index() == holder).collect();
    assert_eq!(holders.len(), 20_001);
    let first = h.index.node(0x1000).unwrap();
    assert_eq!(h.dominators.retained(first), 20_001 * 16);
    // The references beyond the Holders' one `<runtime>` slot are in one array of size 0.
    let runtime = h.index.classes.iter().position(|c| c.name == "<runtime>[]").unwrap();
    let arrays: Vec<_> = h.index.nodes().filter(|&n| h.index.class_of(n).index() == runtime).collect();
    assert_eq!(arrays.len(), 1);
    assert_eq!(h.index.shallow_size(arrays[0]), 0);
    assert!(test_support::peak::own() < 200 << 20, "peak {} MB", test_support::peak::own() >> 20);

    // The same through inheritance: one Base of 50,000 runtime references, 20,000 instances of
    // its subclass holding none. Each Sub carries Base's slots, so Base's are sized by both; the
    // HPROF stays small (sizing by Base's own instances wrote 4 GB), every reference kept.
    let bytes = traces::inherited_padding(50_000, 20_000);
    let g = heap::perfetto::Trace::scan(&bytes).unwrap().graph(0).unwrap();
    let layout = heap::perfetto::hprof::Layout::of(&g);
    assert!(layout.size(&g) < 4 << 20, "{} bytes", layout.size(&g));
    let h = Heap::analyse(open("inherited.pftrace.gz", &bytes).unwrap(), Options::default());
    let base = h.index.node(0x2000).unwrap();
    assert_eq!(h.dominators.retained(base), 20_001 * 16);

    // A million objects of 3 bytes each (4 KB gzip'd): what is held is the graph, not the
    // trace decoded (some 370 bytes an object). No roots: all unreachable, 16 bytes each.
    let index = open("tiny.pftrace.gz", &traces::tiny_objects(1_000_000)).unwrap();
    let t = index.classes.iter().position(|c| c.name == "T").unwrap();
    assert_eq!(index.nodes().filter(|&n| index.class_of(n).index() == t).count(), 1_000_000);
    assert!(test_support::peak::own() < 300 << 20, "peak {} MB", test_support::peak::own() >> 20);
    drop(index);

    // Refused, each at the byte that passes its bound.
    let e = open("graphs.pftrace.gz", &traces::many_graphs(70_000)).err().unwrap();
    assert!(e.to_string().contains("(packet 65537): more than 65536 heap graphs"), "{e}");
    let e = open("packet.pftrace", &traces::huge_packet(1 << 32)).err().unwrap();
    assert!(e.to_string().contains("at byte 0 of the trace (packet 1): a packet of 4294967296 bytes"), "{e}");
    let e = open("zeros.pftrace.gz", &traces::zeros(2)).err().unwrap();
    assert!(e.to_string().contains("at byte 0 of the decompressed trace (packet 1): field number 0"), "{e}");

    // Many references each naming its own field, and a mapping of as many classes as types:
    // linear now (each took seconds squared). By construction: the Wide object's 300 000
    // references all reach itself; 40 000 types each renamed.
    let index = open("fields.pftrace.gz", &traces::many_fields(300_000)).unwrap();
    let wide = index.classes.iter().position(|c| c.name == "com.example.Wide").unwrap();
    let objects: Vec<_> = index.nodes().filter(|&n| index.class_of(n).index() == wide).collect();
    assert_eq!(objects.len(), 1);
    // A chain holds at most 60 000 fields: the references past its named ones are in the
    // object's `<runtime>[]` array.
    let wide = objects[0];
    let (direct, other): (Vec<_>, Vec<_>) = index.references(wide).partition(|&r| r == wide);
    assert_eq!(other.len(), 1);
    assert_eq!(index.class(other[0]).name, "<runtime>[]");
    assert!(index.references(other[0]).all(|r| r == wide));
    assert_eq!(direct.len() + index.references(other[0]).count(), 300_000);
    let trace = traces::many_mapped(40_000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mapped.pftrace.gz");
    std::fs::write(&path, &trace).unwrap();
    let data = std::fs::read(&path).unwrap();
    let g = heap::perfetto::Trace::scan(&data).unwrap().graph(0).unwrap();
    assert_eq!(g.types.len(), 40_000);
    assert!(g.types.iter().all(|t| t.deobfuscated.as_deref() == Some(&format!("com.example.C{}", &t.name[1..]))));
    assert!(test_support::peak::own() < 300 << 20, "peak {} MB", test_support::peak::own() >> 20);
}

/// A trace cut inside its last packet (pulled while being written) still opens: the graphs read
/// so far, the unfinished one marked truncated. Its listing equals what building each says.
#[test]
fn a_cut_trace_opens_marked() {
    let gz = traces::padded_type(10, 5);
    let mut raw = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut raw).unwrap();
    let cut = &raw[..raw.len() - 3];
    let trace = heap::perfetto::Trace::scan(cut).unwrap();
    assert_eq!(trace.graphs.len(), 0, "the only packet was cut: no graph began");
    // Two packets of one graph, the second cut: the first's objects, marked truncated.
    let mut part = traces::Part { pid: 7, continued: true, ..traces::Part::default() };
    part.types = vec![traces::graph_type(1, "T", 16)];
    part.objects = vec![traces::object(0x10, 1, &[])];
    let first = traces::packet(&part);
    part.index = 1;
    part.continued = false;
    part.objects = vec![traces::object(0x20, 1, &[])];
    let second = traces::packet(&part);
    let whole = traces::trace(&[first, second]);
    let cut = &whole[..whole.len() - 2];
    let trace = heap::perfetto::Trace::scan(cut).unwrap();
    assert_eq!(trace.graphs.len(), 1);
    assert!(trace.graphs[0].truncated);
    assert_eq!(trace.graphs[0].objects, 1);
    let g = trace.graph(0).unwrap();
    assert_eq!(g.info(), trace.graphs[0]);
    let whole = heap::perfetto::Trace::scan(&whole).unwrap();
    assert_eq!((whole.graphs[0].objects, whole.graphs[0].truncated), (2, false));
}
