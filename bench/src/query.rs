//! `--query [FILE]`: SQL over a dump's index, and its tables exported to Parquet.
//!
//! The dump (default: the 1 GB HeapGen dump) is opened as `heaptui query` opens it, from the
//! index cache (written on the first run; the figures are for a warm cache). Each query runs
//! three times on a fresh connection and its median is printed; then the export, with its rate
//! in MB of dump a second. Side by side: DuckDB (PyPI's `duckdb`, when installed) answering the
//! per-class query over the exported Parquet files, the engine a fleet's dumps would go to.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use heaptui::session::sql;

/// The canonical per-class query: a full scan of every object, grouped.
const BY_CLASS: &str = "SELECT class, count(*), sum(retained) FROM objects GROUP BY class_id ORDER BY 3 DESC LIMIT 10";

pub fn run(file: Option<PathBuf>) -> Result<()> {
    let path = match file {
        Some(f) => f,
        None => crate::make_dump(1000)?,
    };
    let size = std::fs::metadata(&path)?.len();
    println!("{} ({:.1} MB)", path.display(), size as f64 / 1e6);
    let t = Instant::now();
    let heap = Arc::new(heaptui::cli::open(&path, &heaptui::cli::OpenArgs::default())?);
    println!("  opened (index cache) in {:.2} s, {} objects", t.elapsed().as_secs_f64(), heap.index.len());
    // An object with fields and referrers: the largest retained one's largest retained child.
    let top = heap.top_retained(1).first().map_or(0, |&n| heap.index.id(n));
    let queries: Vec<(&str, String)> = vec![
        ("objects by class (full scan, grouped)", BY_CLASS.to_string()),
        ("fields of one object (lookup by id)", format!("SELECT * FROM fields WHERE id = {top}")),
        ("referrers of one object (lookup by dst)", format!("SELECT * FROM refs WHERE dst = {top}")),
        ("one class's objects (lookup by class_id)", format!(
            "SELECT count(*), sum(shallow) FROM objects WHERE class_id = (SELECT class_id FROM objects WHERE id = {top})"
        )),
        ("Strings over 1,000 chars (full scan of values)", "SELECT count(*) FROM objects WHERE length(string) > 1000".into()),
        ("depth of every object (full scan)", "SELECT max(depth), avg(depth) FROM objects".into()),
    ];
    for (what, q) in &queries {
        let mut times = Vec::new();
        let mut rows = 0;
        for _ in 0..3 {
            let conn = sql::connect(heap.clone())?;
            let t = Instant::now();
            rows = sql::collect(&conn, q, usize::MAX)?.1.len();
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        println!("  {what:<48} median {:>9.2} ms of 3 ({rows} rows)", times[1]);
    }
    let dir = crate::cache_dir().join(format!("export-{}", std::process::id()));
    let t = Instant::now();
    let written = sql::export::export(heap.clone(), &dir, |_| {})?;
    let secs = t.elapsed().as_secs_f64();
    let bytes: u64 = written.iter().map(|w| w.bytes).sum();
    for w in &written {
        println!("  export {:<8} {:>11} rows {:>8.1} MB {:>6.2} s", w.table, w.rows, w.bytes as f64 / 1e6, w.seconds);
    }
    println!(
        "  export: {:.2} s, {:.1} MB of Parquet, {:.0} MB/s of dump; peak RSS of this process {:.0} MB ({:.2}x the dump)",
        secs,
        bytes as f64 / 1e6,
        size as f64 / 1e6 / secs,
        crate::peak_rss() as f64 / 1e6,
        crate::peak_rss() as f64 / size as f64
    );
    // The same per-class question asked of DuckDB over the Parquet files.
    let duck = format!(
        "import duckdb, time\n\
         con = duckdb.connect()\n\
         q = \"SELECT c.name, count(*), sum(o.retained) FROM '{d}/objects.parquet' o JOIN '{d}/classes.parquet' c \
         ON c.id = o.class_id GROUP BY o.class_id, c.name ORDER BY 3 DESC LIMIT 10\"\n\
         ts = []\n\
         for _ in range(3):\n    t = time.time(); con.sql(q).fetchall(); ts.append(time.time() - t)\n\
         print('%.2f' % (sorted(ts)[1] * 1000))\n",
        d = dir.display()
    );
    match Command::new("python3").args(["-c", &duck]).output() {
        Ok(o) if o.status.success() => println!(
            "  DuckDB over the Parquet files, objects by class: median {} ms of 3",
            String::from_utf8_lossy(&o.stdout).trim()
        ),
        _ => println!("  DuckDB: not run (python3 -m pip install duckdb)"),
    }
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
