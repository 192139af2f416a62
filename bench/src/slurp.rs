//! The histogram-only pass side by side with hprof-slurp (`cargo install hprof-slurp`): wall time,
//! medians of 3 runs, and the instance counts of hprof-slurp's top-20 table checked against ours.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Result};

/// Runs the comparison on `files` (default: the 100 MB and 1 GB HeapGen dumps).
pub fn run(files: Vec<PathBuf>) -> Result<()> {
    let files = if files.is_empty() { vec![crate::make_dump(100)?, crate::make_dump(1000)?] } else { files };
    if Command::new("hprof-slurp").arg("--help").output().is_err() {
        bail!("hprof-slurp is not installed: cargo install --locked hprof-slurp");
    }
    for f in files {
        let size = std::fs::metadata(&f)?.len() as f64;
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        let mut rows = Vec::new();
        let mut table = String::new();
        for _ in 0..3 {
            let t = Instant::now();
            rows = heap::quick::quick_histogram(&f, None, 0)?.rows;
            ours.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let out = Command::new("hprof-slurp").arg(&f).output()?;
            theirs.push(t.elapsed().as_secs_f64());
            table = String::from_utf8_lossy(&out.stdout).to_string();
        }
        let (o, s) = (crate::median(&mut ours), crate::median(&mut theirs));
        // hprof-slurp's "Top 20 raw shallow heap classes" table: | total | instances | largest | class |
        let mut agree = 0;
        let mut checked = 0;
        if let Some(part) = table.split("Top 20 raw shallow heap classes").nth(1) {
            for line in part.lines().filter(|l| l.starts_with('|') && !l.contains("Class name")).take(20) {
                let cols: Vec<&str> = line.split('|').map(str::trim).collect();
                let (Some(n), Some(name)) = (cols.get(2).and_then(|c| c.parse::<u64>().ok()), cols.get(4)) else {
                    continue;
                };
                checked += 1;
                if rows.iter().any(|r| r.class == *name && r.instances == n) {
                    agree += 1;
                }
            }
        }
        println!(
            "{} ({:.0} MB): heaptui --histogram-only {o:.2} s ({:.0} MB/s), hprof-slurp {s:.2} s: {:.1}x; instance counts agree on {agree}/{checked} of its top classes",
            f.display(),
            size / 1e6,
            size / 1e6 / o,
            s / o
        );
    }
    Ok(())
}
