//! The real ART 10 the tests build (`tests/art/`): its Java heap figures are the heap's, and a
//! collection the app asks for (`Runtime.gc()`, through ART's own `openjdkjvm`) is one ART counts.

use test_support::art::{art, request, App};

/// The Dalvik Heap row of the app's meminfo: heap size, allocated, free (KiB).
fn dalvik(pid: u32) -> (u64, u64, u64) {
    let text = request(pid, "meminfo", None).unwrap();
    let row = text.lines().find(|l| l.trim_start().starts_with("Dalvik Heap")).unwrap_or_else(|| panic!("{text}"));
    let f: Vec<u64> = row.split_whitespace().skip(2).map(|v| v.parse().unwrap()).collect();
    (f[4], f[5], f[6])
}

fn gc_count(pid: u32) -> u64 {
    request(pid, "stat art.gc.gc-count", None).unwrap().lines().next().unwrap().parse().unwrap()
}

#[test]
fn the_heap_figures_move_as_the_app_allocates_and_a_gc_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let jar = art().compile(&["tests/java/art/Sessions.java"], dir.path());
    // 2,000 sessions a second, 1 KiB each: nothing else allocates, nothing asks for a GC.
    let app = art().start(&jar, "Sessions", &["100", "2000"], &App::new("com.example.figures"));
    let (size, used, free) = dalvik(app.pid);
    assert_eq!(size, used + free, "ART's total is what is allocated and what is free");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let (_, later, _) = dalvik(app.pid);
    assert!(later > used + 1024, "{used} KiB, then {later} KiB");
    // Runtime.gc(): ART collects, and counts it.
    let before = gc_count(app.pid);
    assert!(request(app.pid, "gc", None).unwrap().ends_with("ok\n"));
    assert!(gc_count(app.pid) > before, "a collection asked for is run");
    let log = app.stop();
    assert!(log.contains("Explicit concurrent copying GC"), "{log}");
}

/// `-Xmx` is the heap's limit, as `Runtime.maxMemory()` says it (ART's growth limit).
#[test]
fn max_memory_is_the_heap_limit() {
    let dir = tempfile::tempdir().unwrap();
    let jar = art().compile(&["tests/java/art/Figures.java"], dir.path());
    let mut app = App::new("com.example.max");
    app.xmx_mb = 48;
    let run = art().start(&jar, "Figures", &[], &app);
    let f: Vec<u64> = run.first_line.split_whitespace().map(|v| v.parse().unwrap()).collect();
    // max, total, free
    assert_eq!(f[0], 48 << 20, "{}", run.first_line);
    assert!(f[1] > 0 && f[1] <= f[0] && f[2] <= f[1], "{}", run.first_line);
}
