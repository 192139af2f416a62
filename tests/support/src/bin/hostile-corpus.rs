//! Writes the hostile corpus (`test_support::hostile::corpus`) into a directory:
//! `cargo run -p test-support --bin hostile-corpus DIR`. Each file is created new; an existing
//! one is left as it is and named.

fn main() -> std::io::Result<()> {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: hostile-corpus DIR");
        std::process::exit(2);
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir)?;
    for case in test_support::hostile::corpus()? {
        let path = dir.join(case.name);
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        std::io::Write::write_all(&mut f, &case.bytes)?;
        println!("{}\t{:?}", path.display(), case.expect);
    }
    Ok(())
}
