//! Lists the import cycles between the files of each crate of a workspace (`import-cycles
//! [WORKSPACE]`, this repository by default) and exits 1 when there is one: what CI runs first.

fn main() {
    let root = std::env::args_os()
        .nth(1)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    match test_support::imports::cycles(&root) {
        Ok(cycles) => {
            print!("{}", test_support::imports::report(&cycles));
            std::process::exit(i32::from(!cycles.is_empty()));
        }
        Err(e) => {
            eprintln!("import-cycles: cannot read {}: {e}", root.display());
            std::process::exit(2);
        }
    }
}
