//! The Java heap of an Android app, read from outside the app: `dumpsys meminfo <pid>`'s
//! `Dalvik Heap` row (its `Heap Alloc` column is what the app's objects use) against the heap's
//! limit, `dalvik.vm.heapgrowthlimit` (what `Runtime.maxMemory()` answers for an app without
//! `largeHeap`; KOOM's heap rule reads `maxMemory()`). dumpsys asks the app itself and costs
//! tens of milliseconds, so the agent reads it less often than `/proc`.

use std::collections::BTreeMap;

/// `Heap Alloc` and `Heap Size` of the `Dalvik Heap` row, in KiB. The columns are found by their
/// two-line headers, which differ between Android versions (`SwapPss`, `Rss Total` came later).
pub fn parse_meminfo(text: &str) -> Option<(u64, u64)> {
    let lines: Vec<&str> = text.lines().collect();
    let head = lines.iter().position(|l| {
        let w: Vec<&str> = l.split_whitespace().collect();
        w.first() == Some(&"Pss") && w.contains(&"Heap")
    })?;
    let top: Vec<&str> = lines[head].split_whitespace().collect();
    let bottom: Vec<&str> = lines.get(head + 1)?.split_whitespace().collect();
    if top.len() != bottom.len() {
        return None;
    }
    let col = |a: &str, b: &str| top.iter().zip(&bottom).position(|(x, y)| *x == a && *y == b);
    let (alloc, size) = (col("Heap", "Alloc")?, col("Heap", "Size")?);
    let row = lines[head..].iter().find(|l| l.trim_start().starts_with("Dalvik Heap"))?;
    let nums: Vec<u64> =
        row.trim_start().trim_start_matches("Dalvik Heap").split_whitespace().map_while(|w| w.parse().ok()).collect();
    if nums.len() != top.len() {
        return None;
    }
    Some((nums[alloc], nums[size]))
}

/// Parses a heap size property (`256m`, `512M`, `1g`, `384k`, bytes).
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()?.to_ascii_lowercase() {
        'k' => (&s[..s.len() - 1], 1u64 << 10),
        'm' => (&s[..s.len() - 1], 1 << 20),
        'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u64>().ok()?.checked_mul(mult)
}

/// The `TOTAL` row's `Pss Total` of `dumpsys meminfo <pid>`'s table, KiB: the app's PSS as the
/// system server measured it (read as the app's uid, which the agent is not).
pub fn parse_total_pss(text: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let mut w = l.split_whitespace();
        (w.next()? == "TOTAL").then_some(())?;
        w.next()?.parse().ok()
    })
}

/// The `Objects` section of `dumpsys meminfo <pid>`: counts the app keeps of its views, activities,
/// contexts, binders... (`Activities` above the number of visible activities is the classic
/// sign of a leak). Pairs are laid out two to a line, `Name: count`, names may hold spaces.
pub fn parse_objects(text: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let mut lines = text.lines().skip_while(|l| l.trim() != "Objects").skip(1);
    for line in lines.by_ref() {
        if line.trim().is_empty() || !line.contains(':') {
            break;
        }
        // "   Views:       38         ViewRootImpl:        1": each part after a colon starts
        // with the previous name's count and goes on with the next name.
        let mut parts = line.split(':');
        let mut name = parts.next().unwrap_or_default().trim().to_string();
        for part in parts {
            let part = part.trim();
            let (count, rest) = part.split_once(char::is_whitespace).unwrap_or((part, ""));
            if let Ok(n) = count.parse() {
                if !name.is_empty() {
                    out.insert(std::mem::take(&mut name), n);
                }
            }
            name = rest.trim().to_string();
        }
    }
    out
}

/// What the package manager says of an app that matters to the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct App {
    /// The package name.
    pub package: String,
    /// `android:debuggable`: `run-as` works, and ART lets agents attach.
    pub debuggable: bool,
    /// `android:largeHeap`: the heap may grow to `dalvik.vm.heapsize` instead of
    /// `dalvik.vm.heapgrowthlimit`.
    pub large_heap: bool,
    /// `<profileable android:shell="true"/>` (or debuggable, which implies it): the shell may
    /// profile it, and ART writes its heap graph for Perfetto (Android 11+).
    pub profileable: bool,
}

/// Reads package `package`'s flags from `dumpsys package <package>`: the `flags=[ ... ]` line
/// of its `Package [name] (hash):` block (`pkgFlags=[ ... ]` on old releases), whose words are
/// `ApplicationInfo` flag names (`DEBUGGABLE`, `LARGE_HEAP`; see `FLAG_DUMP_SPEC` in the
/// package manager's `Settings`), and its `privateFlags=[ ... ]` line (`PROFILEABLE_BY_SHELL`).
pub fn parse_package(text: &str, package: &str) -> Option<App> {
    let head = format!("Package [{package}]");
    let mut lines = text.lines().skip_while(|l| !l.trim_start().starts_with(&head));
    let indent = |l: &str| l.len() - l.trim_start().len();
    let first = lines.next()?;
    let depth = indent(first);
    let block: Vec<&str> = lines.take_while(|l| l.trim().is_empty() || indent(l) > depth).collect();
    let list = |prefixes: &[&str]| -> Option<Vec<&str>> {
        block.iter().find_map(|l| {
            let t = l.trim_start();
            let rest = prefixes.iter().find_map(|p| t.strip_prefix(p))?;
            Some(rest.trim_end_matches(']').split_whitespace().collect())
        })
    };
    let words = list(&["flags=[", "pkgFlags=["])?;
    // `privateFlags=[ ... PROFILEABLE_BY_SHELL ... ]` (Android 10+), `PRIVATE_FLAG_…` on some.
    let private = list(&["privateFlags=["]).unwrap_or_default();
    let debuggable = words.contains(&"DEBUGGABLE");
    Some(App {
        package: package.to_string(),
        debuggable,
        large_heap: words.contains(&"LARGE_HEAP"),
        profileable: debuggable
            || private.iter().any(|w| *w == "PROFILEABLE_BY_SHELL" || *w == "PRIVATE_FLAG_PROFILEABLE_BY_SHELL"),
    })
}

/// The package of an app process from its command line: ART names the process after the
/// package, with `:name` for a process the manifest declares (`com.example:remote`).
pub fn package_of(cmdline: &str) -> Option<&str> {
    let first = cmdline.split([' ', '\0']).next()?;
    let package = first.split(':').next()?;
    let valid = package.contains('.')
        && package.split('.').all(|p| {
            p.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
    valid.then_some(package)
}

/// Runs `cmd args`; its stdout, or why not (what it printed on failure, or the spawn error).
pub fn run(cmd: &str, args: &[&str]) -> Result<String, String> {
    let out = std::process::Command::new(cmd)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("{cmd}: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        return Ok(stdout);
    }
    let said = String::from_utf8_lossy(&out.stderr);
    let said = if said.trim().is_empty() { stdout.as_str() } else { &said };
    let said = said.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    Err(format!("{cmd} {}: {} ({})", args.first().unwrap_or(&""), said, out.status))
}

/// Whether this is Android: a `dumpsys` on the `PATH` (the agent reads no build properties;
/// what answers is what counts).
pub fn is_android() -> bool {
    std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("dumpsys").is_file()))
}

/// The package manager's view of app `package`.
pub fn app(package: &str) -> Result<App, String> {
    let text = run("dumpsys", &["package", package])?;
    parse_package(&text, package).ok_or_else(|| format!("dumpsys package {package}: no flags for the package"))
}

/// The limit the app's heap grows to: `dalvik.vm.heapsize` for a `largeHeap` app,
/// `dalvik.vm.heapgrowthlimit` otherwise (what `Runtime.maxMemory()` answers in the app, which
/// KOOM's heap rule reads), with the property it came from.
pub fn heap_limit(large_heap: bool) -> Result<(u64, &'static str), String> {
    let order: &[&'static str] = if large_heap {
        &["dalvik.vm.heapsize"]
    } else {
        // A build without a growth limit lets every app grow to heapsize.
        &["dalvik.vm.heapgrowthlimit", "dalvik.vm.heapsize"]
    };
    for prop in order {
        if let Some(size) = run("getprop", &[prop]).ok().and_then(|v| parse_size(&v)) {
            return Ok((size, prop));
        }
    }
    Err(format!("getprop {}: no size", order[0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout of Android 10's `dumpsys meminfo <pid>` (numbers of an example app).
    const Q: &str = "Applications Memory Usage (in Kilobytes):
Uptime: 4210355 Realtime: 4210355

** MEMINFO in pid 5123 [com.example.leaky] **
                   Pss  Private  Private  SwapPss     Heap     Heap     Heap
                 Total    Dirty    Clean    Dirty     Size    Alloc     Free
                ------   ------   ------   ------   ------   ------   ------
  Native Heap    10436    10380        0       28    22528    17145     5382
  Dalvik Heap    41203    41148        0       20    49152    45056     4096
 Dalvik Other     1484     1484        0        0
        Stack      664      664        0        0
        TOTAL    95120    71236    13732       48    71680    62201     9478
";

    /// Android 13 added `Rss Total` before the heap columns.
    const T: &str = "** MEMINFO in pid 812 [com.example] **
                   Pss  Private  Private  SwapPss      Rss     Heap     Heap     Heap
                 Total    Dirty    Clean    Dirty    Total     Size    Alloc     Free
                ------   ------   ------   ------   ------   ------   ------   ------
  Native Heap     5012     4968        0        0     6852    10240     6010     4229
  Dalvik Heap     3207     3140        0        0     9548    12288     3072     9216
";

    #[test]
    fn reads_the_dalvik_heap_row_whatever_the_columns() {
        assert_eq!(parse_meminfo(Q), Some((45056, 49152)));
        assert_eq!(parse_meminfo(T), Some((3072, 12288)));
        assert_eq!(parse_meminfo("No process found for: 5123\n"), None);
        assert_eq!(parse_meminfo(&Q.replace("Dalvik Heap    41203", "Dalvik Heap    x")), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("256m"), Some(256 << 20));
        assert_eq!(parse_size("1G"), Some(1 << 30));
        assert_eq!(parse_size("384k\n"), Some(384 << 10));
        assert_eq!(parse_size("12345"), Some(12345));
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("m"), None);
        assert_eq!(parse_size("99999999999999g"), None);
    }

    /// Android 10's `Objects` section, two pairs to a line, names with spaces.
    const OBJECTS: &str = " Objects
               Views:       41         ViewRootImpl:        1
         AppContexts:        5           Activities:        2
              Assets:       14        AssetManagers:        0
       Local Binders:       22        Proxy Binders:       38
       Parcel memory:       12         Parcel count:       53
    Death Recipients:        1      OpenSSL Sockets:        0
            WebViews:        0

 SQL
         MEMORY_USED:        0
";

    #[test]
    fn reads_total_pss_and_objects() {
        assert_eq!(parse_total_pss(Q), Some(95120));
        assert_eq!(parse_total_pss("TOTAL PSS:  1234  TOTAL RSS: 99\n"), None);
        let o = parse_objects(&format!("{Q}\n{OBJECTS}"));
        assert_eq!(o.len(), 13);
        assert_eq!(o["Views"], 41);
        assert_eq!(o["Activities"], 2);
        assert_eq!(o["Local Binders"], 22);
        assert_eq!(o["OpenSSL Sockets"], 0);
        assert_eq!(o["WebViews"], 0);
        assert!(!o.contains_key("MEMORY_USED"));
        assert!(parse_objects(Q).is_empty());
    }

    /// The shape of `dumpsys package PKG` (the package manager's `Settings.dumpPackageLPr`): the
    /// flags line inside the package's block; a hidden system copy later must not be read.
    #[test]
    fn reads_package_flags() {
        let text = "Packages:
  Package [com.example.leaky] (6a6fc41):
    userId=10123
    pkg=Package{b1d2e3 com.example.leaky}
    codePath=/data/app/com.example.leaky-1
    flags=[ DEBUGGABLE HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP LARGE_HEAP ]
    privateFlags=[ PRIVATE_FLAG_ACTIVITIES_RESIZE_MODE_RESIZEABLE ]
  Package [com.other] (1234):
    flags=[ HAS_CODE ]
";
        let app = parse_package(text, "com.example.leaky").unwrap();
        assert!(app.debuggable && app.large_heap);
        let other = parse_package(text, "com.other").unwrap();
        assert!(!other.debuggable && !other.large_heap);
        // Android 4's layout names them pkgFlags.
        let old = "  Package [com.old] (41b1f):\n    pkgFlags=[ HAS_CODE LARGE_HEAP ]\n";
        assert_eq!(parse_package(old, "com.old").map(|a| (a.debuggable, a.large_heap)), Some((false, true)));
        // Debuggable implies profileable; a release app is profileable by its private flag.
        assert!(app.profileable && !other.profileable);
        let release = "  Package [com.rel] (9):\n    flags=[ HAS_CODE ]\n    privateFlags=[ PRIVATE_FLAG_ACTIVITIES_RESIZE_MODE_RESIZEABLE PROFILEABLE_BY_SHELL ]\n";
        assert_eq!(parse_package(release, "com.rel").map(|a| (a.debuggable, a.profileable)), Some((false, true)));
        assert_eq!(parse_package("Unable to find package: com.x\n", "com.x"), None);
        // A block without flags ends at the next package: its flags are not ours.
        assert_eq!(
            parse_package("  Package [com.a] (1):\n  Package [com.b] (2):\n    flags=[ DEBUGGABLE ]\n", "com.a"),
            None
        );
    }

    #[test]
    fn package_names_from_command_lines() {
        assert_eq!(package_of("com.example.leaky"), Some("com.example.leaky"));
        assert_eq!(package_of("com.example.leaky:remote"), Some("com.example.leaky"));
        assert_eq!(package_of("com.example.leaky -Xmx64m Main"), Some("com.example.leaky"));
        assert_eq!(package_of("/system/bin/surfaceflinger"), None);
        assert_eq!(package_of("zygote64"), None);
        assert_eq!(package_of("com.example;rm -rf"), None);
        assert_eq!(package_of(""), None);
    }
}
