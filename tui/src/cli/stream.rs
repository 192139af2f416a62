//! What `strip`, `restore` and `convert` share: the streaming rewriter from a file or stdin
//! (`-`) to a file or stdout (`-`). Files are written under a temporary name and linked into
//! place; an existing file is never overwritten.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use heap::strip::{Plan, Rewriter};

/// An error of the rewrite, with what to do about a bound it met.
pub(super) fn explain(e: heap::Error, input: &str) -> anyhow::Error {
    let hint = match e.kind {
        heap::ErrorKind::TooLarge(heap::Limit::Restored { .. }) => {
            "; nothing was written: if the dump is genuine, pass --max-output BYTES to allow more"
        }
        _ => "",
    };
    anyhow::anyhow!("{input}: {e}{hint}")
}

/// The input as a reader: stdin, or a file; zstd and gzip are undone on the way.
pub(super) fn open_input(input: &str) -> anyhow::Result<Box<dyn Read>> {
    let raw: Box<dyn Read> = if input == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(File::open(input).with_context(|| format!("cannot open {input}"))?)
    };
    let mut r = std::io::BufReader::with_capacity(1 << 20, raw);
    let magic = {
        use std::io::BufRead;
        r.fill_buf()?.get(..4).map(|m| m.to_vec()).unwrap_or_default()
    };
    Ok(if magic == [0x28, 0xb5, 0x2f, 0xfd] {
        Box::new(zstd::stream::read::Decoder::new(r)?)
    } else if magic.starts_with(&[0x1f, 0x8b]) {
        Box::new(flate2::read::MultiGzDecoder::new(r))
    } else {
        Box::new(r)
    })
}

/// Where the output goes: stdout, or a temporary file renamed into place when all went well.
pub(super) struct Output {
    target: Option<PathBuf>,
    tmp: Option<PathBuf>,
}

impl Output {
    pub(super) fn create(output: &str) -> anyhow::Result<(Output, Box<dyn Write>)> {
        if output == "-" {
            return Ok((Output { target: None, tmp: None }, Box::new(BufWriter::new(std::io::stdout().lock()))));
        }
        let target = PathBuf::from(output);
        if target.exists() {
            crate::fail!(Output, "{output} exists; heaptui never overwrites a file (remove it or choose another name)");
        }
        let dir = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = target.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let file = crate::session::files::private_file(&tmp)?;
        Ok((Output { target: Some(target), tmp: Some(tmp) }, Box::new(BufWriter::with_capacity(1 << 20, file))))
    }

    /// Moves the finished file into place (never over an existing one).
    pub(super) fn commit(mut self) -> anyhow::Result<()> {
        if let (Some(tmp), Some(target)) = (&self.tmp, &self.target) {
            // Linked first: if that fails, the temporary file is still ours to remove (in Drop).
            std::fs::hard_link(tmp, target).with_context(|| format!("cannot create {}", target.display()))?;
            let _ = std::fs::remove_file(tmp);
            self.tmp = None;
        }
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some(tmp) = &self.tmp {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

pub(super) fn run_plan(input: &str, output: &str, plan: Plan, zstd_out: bool) -> anyhow::Result<()> {
    let mut reader = open_input(input)?;
    let (out, writer) = Output::create(output)?;
    let writer: Box<dyn Write> =
        if zstd_out { Box::new(zstd::stream::write::Encoder::new(writer, 3)?.auto_finish()) } else { writer };
    let mut r = Rewriter::new(writer, plan);
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => bail!("cannot read {input}: {e}"),
        };
        r.feed(&buf[..n]).map_err(|e| explain(e, input))?;
    }
    match r.finish() {
        Ok((mut w, stats)) => {
            w.flush()?;
            drop(w);
            out.commit()?;
            super::note(&format!(
                "heaptui: {} -> {} bytes ({:.1} %); {} arrays emptied, {} objects dropped, {} arrays restored",
                stats.bytes_in,
                stats.bytes_out,
                stats.bytes_out as f64 * 100.0 / stats.bytes_in.max(1) as f64,
                stats.arrays_emptied,
                stats.objects_dropped,
                stats.arrays_restored
            ));
            Ok(())
        }
        Err(e) => {
            // The input was cut short: what was complete is valid and kept, under the name asked for.
            out.commit()?;
            Err(anyhow::Error::new(e).context(format!("{input} ends early; {output} holds what came before")))
        }
    }
}
