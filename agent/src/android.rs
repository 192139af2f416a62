//! The Java heap of an Android app, read from outside the app: `dumpsys meminfo <pid>`'s
//! `Dalvik Heap` row (its `Heap Alloc` column is what the app's objects use) against the heap's
//! limit, `dalvik.vm.heapgrowthlimit` (what `Runtime.maxMemory()` answers for an app without
//! `largeHeap`; KOOM's heap rule reads `maxMemory()`). dumpsys asks the app itself and costs
//! tens of milliseconds, so the agent reads it less often than `/proc`.

use crate::hsperf::JavaHeap;

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

fn run(cmd: &str, args: &[&str]) -> Option<String> {
    let out = std::process::Command::new(cmd).args(args).stderr(std::process::Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The Java heap of app `pid`, when this is Android (`dumpsys` and `getprop` answer).
pub fn java_heap(pid: u32) -> Option<JavaHeap> {
    let (alloc_kb, _) = parse_meminfo(&run("dumpsys", &["meminfo", &pid.to_string()])?)?;
    let max = parse_size(&run("getprop", &["dalvik.vm.heapgrowthlimit"])?)
        .or_else(|| parse_size(&run("getprop", &["dalvik.vm.heapsize"])?))?;
    Some(JavaHeap { used: alloc_kb * 1024, max })
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
}
