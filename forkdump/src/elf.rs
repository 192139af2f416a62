//! Finding ART's symbols in `libart.so` by reading the ELF file, as KOOM does: device builds may
//! not export what the fork dump needs (`art::hprof::Hprof::Dump`, `~Hprof`), and `dlsym` sees
//! only exported symbols. Where a name is looked for, in order:
//!
//! 1. `.dynsym` through the GNU hash table (`.gnu.hash`), what the dynamic linker uses;
//! 2. `.dynsym` through the SysV hash table (`.hash`), for libraries linked without the former;
//! 3. `.symtab`, when the library was not stripped;
//! 4. the `.symtab` of the MiniDebugInfo in `.gnu_debugdata`: an xz-compressed ELF that Android's
//!    build keeps in stripped system libraries for unwinding, and that holds local symbols.
//!
//! goblin parses the file (headers, sections, symbol and string tables); the two hash-table walks
//! are here because goblin's own `GnuHash` reads raw pointers of a loaded image (aligned, host
//! byte order) and it has no SysV lookup.

use goblin::elf::section_header::{SHT_GNU_HASH, SHT_HASH};
use goblin::elf::sym::Symtab;
use goblin::elf::Elf;
use goblin::strtab::Strtab;

/// Where a symbol was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `.dynsym`, through `.gnu.hash`.
    GnuHash,
    /// `.dynsym`, through `.hash`.
    SysvHash,
    /// `.symtab`.
    Symtab,
    /// `.symtab` of the xz-compressed ELF in `.gnu_debugdata`.
    MiniDebugInfo,
}

impl Source {
    /// The table, as `heaptui doctor` names it: `dynsym`, `symtab` or `gnu_debugdata`.
    pub fn table(self) -> &'static str {
        match self {
            Source::GnuHash | Source::SysvHash => "dynsym",
            Source::Symtab => "symtab",
            Source::MiniDebugInfo => "gnu_debugdata",
        }
    }
}

/// A symbol found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbol {
    /// Its value: the address relative to the library's load base.
    pub value: u64,
    /// Its size in bytes.
    pub size: u64,
    /// Where it was found.
    pub source: Source,
}

/// Why a library could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ElfError {
    /// Not an ELF file goblin can parse.
    #[error("not a readable ELF file: {0}")]
    Parse(String),
    /// `.gnu_debugdata` is there but does not decompress to an ELF.
    #[error("the MiniDebugInfo (.gnu_debugdata) cannot be read: {0}")]
    MiniDebugInfo(String),
}

/// A library's symbols, ready for lookups.
pub struct Library<'a> {
    data: &'a [u8],
    elf: Elf<'a>,
    /// The decompressed MiniDebugInfo: `None` when the library has none, an error when it has one
    /// that does not read (then only what it alone holds is lost).
    mini: Option<Result<Vec<u8>, ElfError>>,
}

/// The most a MiniDebugInfo may decompress to. libart's holds a few MB (function symbols and
/// their unwind tables); a file claiming more is not one, and must not take the app's memory.
pub const MINI_DEBUG_INFO_MAX: usize = 64 << 20;

/// The most memory the xz decoder may take (KiB), its dictionary most of it. `xz -9`, the
/// largest preset, has a 64 MiB dictionary; a header asking more is not a MiniDebugInfo.
const MINI_DEBUG_INFO_DICT_KIB: u32 = 80 << 10;

/// The MiniDebugInfo decompressed, streaming: the decoder's dictionary bounded by its header
/// before it is allocated, the output by [`MINI_DEBUG_INFO_MAX`] as it inflates (one byte past
/// it stops the decoder).
fn inflate(xz: &[u8]) -> Result<Vec<u8>, ElfError> {
    let reader = lzma_rust2::XzReader::new_mem_limit(xz, false, MINI_DEBUG_INFO_DICT_KIB);
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(reader, MINI_DEBUG_INFO_MAX as u64 + 1), &mut out)
        .map_err(|e| ElfError::MiniDebugInfo(e.to_string()))?;
    if out.len() > MINI_DEBUG_INFO_MAX {
        return Err(ElfError::MiniDebugInfo(format!("decompresses past {} MiB", MINI_DEBUG_INFO_MAX >> 20)));
    }
    Ok(out)
}

impl<'a> Library<'a> {
    /// Parses `data` (the library file's bytes). Each symbol table stands alone: a MiniDebugInfo
    /// that does not decompress (or decompresses past [`MINI_DEBUG_INFO_MAX`]) costs only the
    /// names it alone holds, and [`Library::mini_debug_info_error`] says why.
    pub fn parse(data: &'a [u8]) -> Result<Library<'a>, ElfError> {
        let elf = Elf::parse(data).map_err(|e| ElfError::Parse(e.to_string()))?;
        let mini = section(&elf, data, ".gnu_debugdata").map(|xz| {
            let out = inflate(xz)?;
            Elf::parse(&out).map_err(|e| ElfError::MiniDebugInfo(format!("not an ELF file: {e}")))?;
            Ok(out)
        });
        Ok(Library { data, elf, mini })
    }

    /// Why the library's MiniDebugInfo could not be read, when it has one that could not.
    pub fn mini_debug_info_error(&self) -> Option<&ElfError> {
        self.mini.as_ref()?.as_ref().err()
    }

    /// Whether the library is 64-bit.
    pub fn is_64(&self) -> bool {
        self.elf.is_64
    }

    /// The CPU it is built for (`e_machine`).
    pub fn machine(&self) -> u16 {
        self.elf.header.e_machine
    }

    /// Looks `name` up in the order the module describes.
    pub fn lookup(&self, name: &str) -> Option<Symbol> {
        // A defined entry only: an undefined one (imported) falls through to the other tables.
        let dynsym = |i: usize, source| {
            let s = self.elf.dynsyms.get(i)?;
            (s.st_value != 0 && s.st_shndx != 0).then_some(Symbol { value: s.st_value, size: s.st_size, source })
        };
        let (dynsyms, dynstr, little) = (&self.elf.dynsyms, &self.elf.dynstrtab, self.elf.little_endian);
        let found = if let Some(table) = self.hash_table(SHT_GNU_HASH) {
            gnu_lookup(table, self.elf.is_64, little, name, dynsyms, dynstr).and_then(|i| dynsym(i, Source::GnuHash))
        } else if let Some(table) = self.hash_table(SHT_HASH) {
            sysv_lookup(table, little, name, dynsyms, dynstr).and_then(|i| dynsym(i, Source::SysvHash))
        } else {
            None
        };
        if found.is_some() {
            return found;
        }
        if let Some(s) = linear(&self.elf.syms, &self.elf.strtab, name) {
            return Some(Symbol { source: Source::Symtab, ..s });
        }
        let mini = Elf::parse(self.mini.as_ref()?.as_deref().ok()?).ok()?;
        linear(&mini.syms, &mini.strtab, name).map(|s| Symbol { source: Source::MiniDebugInfo, ..s })
    }

    fn hash_table(&self, kind: u32) -> Option<&'a [u8]> {
        let h = self.elf.section_headers.iter().find(|h| h.sh_type == kind)?;
        self.data.get(h.sh_offset as usize..h.sh_offset.checked_add(h.sh_size)? as usize)
    }
}

fn section<'a>(elf: &Elf<'_>, data: &'a [u8], name: &str) -> Option<&'a [u8]> {
    let h = elf.section_headers.iter().find(|h| elf.shdr_strtab.get_at(h.sh_name) == Some(name))?;
    data.get(h.sh_offset as usize..h.sh_offset.checked_add(h.sh_size)? as usize)
}

fn linear(syms: &Symtab<'_>, strtab: &Strtab<'_>, name: &str) -> Option<Symbol> {
    syms.iter().find(|s| s.st_value != 0 && strtab.get_at(s.st_name) == Some(name)).map(|s| Symbol {
        value: s.st_value,
        size: s.st_size,
        source: Source::Symtab,
    })
}

fn u32_at(b: &[u8], at: usize, little: bool) -> Option<u32> {
    let w: [u8; 4] = b.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(if little { u32::from_le_bytes(w) } else { u32::from_be_bytes(w) })
}

fn u64_at(b: &[u8], at: usize, little: bool) -> Option<u64> {
    let w: [u8; 8] = b.get(at..at.checked_add(8)?)?.try_into().ok()?;
    Some(if little { u64::from_le_bytes(w) } else { u64::from_be_bytes(w) })
}

fn named(i: usize, name: &str, syms: &Symtab<'_>, strtab: &Strtab<'_>) -> bool {
    syms.get(i).is_some_and(|s| strtab.get_at(s.st_name) == Some(name))
}

/// The GNU hash of a symbol name (Daniel J. Bernstein's, as glibc and bionic compute it).
pub fn gnu_hash(name: &str) -> u32 {
    name.bytes().fold(5381u32, |h, c| h.wrapping_mul(33).wrapping_add(u32::from(c)))
}

/// The SysV ELF hash of a symbol name.
pub fn sysv_hash(name: &str) -> u32 {
    let mut h = 0u32;
    for c in name.bytes() {
        h = (h << 4).wrapping_add(u32::from(c));
        let g = h & 0xf000_0000;
        if g != 0 {
            h ^= g >> 24;
        }
        h &= !g;
    }
    h
}

/// Walks a `.gnu.hash` table: header (buckets, first hashed symbol, bloom words, bloom shift),
/// the bloom filter (words of the class's size), the buckets, the chain of hashes (the low bit
/// ends a chain). Returns the `.dynsym` index.
fn gnu_lookup(
    t: &[u8],
    is_64: bool,
    little: bool,
    name: &str,
    syms: &Symtab<'_>,
    strtab: &Strtab<'_>,
) -> Option<usize> {
    let (nbuckets, symoffset, bloom_size, shift) =
        (u32_at(t, 0, little)?, u32_at(t, 4, little)?, u32_at(t, 8, little)?, u32_at(t, 12, little)?);
    if nbuckets == 0 || bloom_size == 0 {
        return None;
    }
    let h = gnu_hash(name);
    let word_bits = if is_64 { 64 } else { 32 };
    let word_bytes = word_bits as usize / 8;
    // Offsets checked: the table's counts are the file's, and a phone's `usize` may be 32 bits.
    let word_at = (((h / word_bits) % bloom_size) as usize).checked_mul(word_bytes)?.checked_add(16)?;
    let word = if is_64 { u64_at(t, word_at, little)? } else { u64::from(u32_at(t, word_at, little)?) };
    let mask = (1u64 << (h % word_bits)) | (1u64 << ((h >> (shift % 32)) % word_bits));
    if word & mask != mask {
        return None;
    }
    let buckets_at = (bloom_size as usize).checked_mul(word_bytes)?.checked_add(16)?;
    let first = u32_at(t, buckets_at.checked_add(((h % nbuckets) as usize).checked_mul(4)?)?, little)? as usize;
    if first < symoffset as usize {
        return None;
    }
    let chain_at = (nbuckets as usize).checked_mul(4)?.checked_add(buckets_at)?;
    // A chain is at most the symbols there are; past them, the table is malformed.
    for i in (first..).take(syms.len() + 1) {
        let h2 = u32_at(t, (i - symoffset as usize).checked_mul(4)?.checked_add(chain_at)?, little)?;
        if (h | 1) == (h2 | 1) && named(i, name, syms, strtab) {
            return Some(i);
        }
        if h2 & 1 == 1 {
            return None;
        }
    }
    None
}

/// Walks a SysV `.hash` table: bucket and chain counts, the buckets, the chains (0 ends one).
fn sysv_lookup(t: &[u8], little: bool, name: &str, syms: &Symtab<'_>, strtab: &Strtab<'_>) -> Option<usize> {
    let (nbucket, nchain) = (u32_at(t, 0, little)?, u32_at(t, 4, little)?);
    if nbucket == 0 {
        return None;
    }
    let mut i = u32_at(t, ((sysv_hash(name) % nbucket) as usize).checked_mul(4)?.checked_add(8)?, little)? as usize;
    // Each step moves along a chain; more steps than there are chains, symbols or words in the
    // table means a loop in a malformed one (its counts are the file's: 4 G steps would hang).
    let steps = (nchain as usize).min(syms.len()).min(t.len() / 4);
    for _ in 0..=steps {
        if i == 0 {
            return None;
        }
        if named(i, name, syms, strtab) {
            return Some(i);
        }
        i = u32_at(t, (nbucket as usize).checked_add(i)?.checked_mul(4)?.checked_add(8)?, little)? as usize;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hash tables whose chains loop, with counts of 4 G (found by the `elf` fuzz target: the
    /// SysV walk took 4 G steps): each lookup ends at once, nothing found.
    #[test]
    fn looping_hash_chains_end() {
        let (syms, strtab) = (Symtab::default(), Strtab::default());
        // SysV: one bucket, 4 G chains, bucket 0 → symbol 1, chain 1 → 1.
        let mut t = Vec::new();
        for w in [1u32, u32::MAX, 1, 0, 1] {
            t.extend_from_slice(&w.to_le_bytes());
        }
        assert_eq!(sysv_lookup(&t, true, "printf", &syms, &strtab), None);
        // GNU: one bucket, symoffset 0, one bloom word that passes every hash, a chain of hashes
        // that never sets the ending bit.
        let mut g = Vec::new();
        for w in [1u32, 0, 1, 0] {
            g.extend_from_slice(&w.to_le_bytes());
        }
        g.extend_from_slice(&u64::MAX.to_le_bytes());
        g.extend_from_slice(&0u32.to_le_bytes());
        for _ in 0..1024 {
            g.extend_from_slice(&2u32.to_le_bytes());
        }
        assert_eq!(gnu_lookup(&g, true, true, "printf", &syms, &strtab), None);
        // Counts that overflow an offset on a 32-bit phone are an absent table, not a panic.
        let mut big = Vec::new();
        for w in [u32::MAX, 0, u32::MAX, 0] {
            big.extend_from_slice(&w.to_le_bytes());
        }
        assert_eq!(gnu_lookup(&big, true, true, "printf", &syms, &strtab), None);
    }

    /// Published values: glibc's `dl_new_hash` and the System V ABI's `elf_hash`.
    #[test]
    fn hashes() {
        assert_eq!(gnu_hash(""), 5381);
        assert_eq!(gnu_hash("printf"), 0x156b_2bb8);
        assert_eq!(sysv_hash("printf"), 0x0779_05a6);
        assert_eq!(sysv_hash(""), 0);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(Library::parse(b"not an elf at all").is_err());
        // Every cut of a real ELF either fails to parse or looks up without panicking.
        let bytes = std::fs::read("/proc/self/exe").unwrap();
        for cut in [64, 200, 4096, bytes.len() / 2] {
            if let Ok(l) = Library::parse(&bytes[..cut]) {
                let _ = l.lookup("main");
            }
        }
    }
}
