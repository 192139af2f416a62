//! Files heaptui writes for people (dumps, sidecars, exports): created only for their owner, never
//! through an existing file or link, and given their names by hard links, which never replace
//! a file.

use std::path::{Path, PathBuf};

use anyhow::Context;

/// Gives the finished file `tmp` its name `out` by a hard link (which never replaces a file). When
/// heaptui chose the name and another dump took it meanwhile (two instances, one second), the
/// next free one (`-2`, `-3`...) is taken; a name the user chose is never changed.
pub fn link_fresh(tmp: &Path, out: &Path, chosen: bool) -> anyhow::Result<PathBuf> {
    let stem = out.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
    for i in 1..1000 {
        let candidate = match (i, out.extension()) {
            (1, _) => out.to_path_buf(),
            (_, Some(ext)) => out.with_file_name(format!("{stem}-{i}.{}", ext.to_string_lossy())),
            (_, None) => out.with_file_name(format!("{stem}-{i}")),
        };
        match std::fs::hard_link(tmp, &candidate) {
            Ok(()) => return Ok(candidate),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && !chosen => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", candidate.display())),
        }
    }
    crate::fail!(Output, "no free name beside {}", out.display())
}

/// A new file only its owner reads (dumps hold user data); never an existing one.
pub fn private_file(path: &Path) -> anyhow::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))
}

/// The directories down to `dir`, made only for their owner where heaptui makes them.
pub fn private_dir(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("cannot create {}", dir.display()))
}

/// Writes `contents` to a new file `stem.ext` in `dir` (`stem-2.ext`... if taken): written under a
/// temporary name only its owner reads, then linked to its name.
pub fn write_new(dir: &Path, stem: &str, ext: &str, contents: &[u8]) -> anyhow::Result<PathBuf> {
    let tmp = dir.join(format!(".{stem}.{ext}.{}.tmp", std::process::id()));
    let written = private_file(&tmp).and_then(|mut f| {
        std::io::Write::write_all(&mut f, contents).with_context(|| format!("cannot write {}", tmp.display()))
    });
    let placed = written.and_then(|()| link_fresh(&tmp, &dir.join(format!("{stem}.{ext}")), false));
    let _ = std::fs::remove_file(&tmp);
    placed
}

/// The most bytes of zeros `restore`, `convert` and a phone's dump write back in place of NODATA
/// arrays, as `heap::expand` bounds every expansion: `asked` (`--max-output`), else
/// `heap::expand::max_expansion` times the input file (at least 1 GiB; 64 GiB when the input is
/// stdin), and never more than the output's file system offers less the margin it keeps free
/// (writing more could not succeed, and would fill it first).
pub fn restore_bound(input: &str, output: &str, asked: Option<u64>) -> u64 {
    let bound = asked.unwrap_or_else(|| match std::fs::metadata(input) {
        Ok(m) if input != "-" => m.len().saturating_mul(heap::expand::max_expansion()).max(1 << 30),
        _ => 64 << 30,
    });
    if output == "-" {
        return bound;
    }
    let dir = Path::new(output).parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    heap::expand::Space::at(dir).map_or(bound, |s| bound.min(s.usable()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_never_replaces_one() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_new(dir.path(), "view", "txt", b"one").unwrap();
        let b = write_new(dir.path(), "view", "txt", b"two").unwrap();
        assert_eq!((a.file_name().unwrap(), b.file_name().unwrap()), ("view.txt".as_ref(), "view-2.txt".as_ref()));
        assert_eq!(std::fs::read(&a).unwrap(), b"one");
        assert_eq!(std::fs::read(&b).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&a).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn a_name_the_user_chose_is_not_changed() {
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join("t");
        std::fs::write(&tmp, "x").unwrap();
        let out = dir.path().join("d.hprof");
        assert_eq!(link_fresh(&tmp, &out, true).unwrap(), out);
        assert!(link_fresh(&tmp, &out, true).is_err());
        assert_eq!(link_fresh(&tmp, &out, false).unwrap(), dir.path().join("d-2.hprof"));
    }
}
