//! The stand-ins for bionic's libraries, read from bionic's own symbol lists (`vendor/bionic`)
//! by the NDK's rules: each case below is a line of those lists and what its tags say.

#[path = "../build/stubs.rs"]
#[allow(dead_code)]
mod stubs;

fn map(name: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor/bionic").join(name)).unwrap()
}

#[test]
fn libc_by_architecture_and_api_level() {
    let libc = map("libc/libc.map.txt");
    let arm64 = stubs::stub(&libc, "arm64", 21).unwrap();
    let arm = stubs::stub(&libc, "arm", 21).unwrap();
    let has = |s: &stubs::Stub, name: &str| s.symbols.iter().any(|x| x == name);
    // `__atomic_cmpxchg; # arm`: 32-bit ARM's only.
    assert!(has(&arm, "__atomic_cmpxchg") && !has(&arm64, "__atomic_cmpxchg"));
    // `__cxa_thread_atexit_impl; # introduced=23`: not at 21, there at 23.
    assert!(!has(&arm64, "__cxa_thread_atexit_impl"));
    assert!(has(&stubs::stub(&libc, "arm64", 23).unwrap(), "__cxa_thread_atexit_impl"));
    // `__isthreaded; # arm x86 var`: data, on those two.
    assert!(arm.c.contains("int __isthreaded = 0;") && !has(&arm64, "__isthreaded"));
    // `__stack_chk_guard; # var` everywhere; plain functions are functions.
    assert!(arm64.c.contains("int __stack_chk_guard = 0;") && arm64.c.contains("void malloc(void) {}"));
    // Every symbol kept is given its version in the script, under LIBC for those of LIBC.
    assert!(arm64.script.starts_with("LIBC {\n  global:\n"));
    assert!(arm64.script.contains("    malloc;\n"));
    // `LIBC_N { # introduced-arm64=24 …` is not at 21; at 24 it is, inheriting `LIBC` (`} LIBC;`).
    assert!(!arm64.script.contains("LIBC_N"));
    let at_24 = stubs::stub(&libc, "arm64", 24).unwrap();
    assert!(at_24.script.contains("LIBC_N {\n") && at_24.script.lines().any(|l| l == "} LIBC;"), "{}", at_24.script);
    // Nothing private or the platform's.
    assert!(!arm64.script.contains("_PRIVATE") && !arm64.script.contains("LIBC_PLATFORM"));
}

#[test]
fn libdl_and_liblog() {
    let libdl = stubs::stub(&map("libdl/libdl.map.txt"), "arm", 21).unwrap();
    // `dl_unwind_find_exidx; # arm`, which ARM's unwinder imports.
    assert!(libdl.symbols.iter().any(|s| s == "dl_unwind_find_exidx"));
    // `android_get_application_target_sdk_version; # introduced=24 versioned=29`: not at 21.
    assert!(!libdl.symbols.iter().any(|s| s == "android_get_application_target_sdk_version"));
    // LIBC_OMR1 is `introduced=27` and LIBC_PLATFORM the platform's: neither at 21.
    assert!(!libdl.script.contains("LIBC_OMR1") && !libdl.script.contains("LIBC_PLATFORM"));
    let liblog = stubs::stub(&map("liblog/liblog.map.txt"), "arm64", 21).unwrap();
    // `__android_log_write;` is the NDK's; `android_name_to_log_id; # llndk` is the vendors'.
    assert!(liblog.symbols.iter().any(|s| s == "__android_log_write"));
    assert!(!liblog.symbols.iter().any(|s| s == "android_name_to_log_id"));
}

#[test]
fn a_map_that_does_not_read_is_an_error_naming_the_line() {
    assert!(stubs::parse("LIBC {\n  global:\n    a b;\n};\n").unwrap_err().contains("line 3"));
    assert!(stubs::parse("LIBC {\n  global:\n    a;\n").unwrap_err().contains("not closed"));
    assert!(stubs::stub("LIBC {\n    a; # introduced=x\n};\n", "arm64", 21).unwrap_err().contains("bad tag"));
}
