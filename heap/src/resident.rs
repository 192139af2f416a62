//! Zeroed arrays whose pages are made writable up front, for loops that read an element
//! before they write it (counters, running sums); arrays of one value filled on every core; and
//! stretches of the mapped dump made readable at once before a scan.
//!
//! A zeroed vector of more than a few hundred kilobytes comes from the kernel as pages nobody
//! has touched. Reading such a page first maps the kernel's shared zero page there; the write
//! that follows faults a second time, copies the page, and must then flush the old mapping
//! from every core that runs the process: an interrupt to the other core for each page. In the
//! virtual machine the benchmarks ran on, those two faults and the interrupt were 0.7 s of the
//! 1.1 s that the retained sizes took on a dump of 44 M objects. Asking the kernel to fill the
//! page tables for writing before the loop (`MADV_POPULATE_WRITE`, Linux 5.14 and later) costs
//! one pass with no interrupts; where the kernel refuses, a write to each page does the same,
//! one fault a page.
//!
//! Only for arrays the loop touches nearly all of: every page becomes resident at once.

/// `n` zeroes, every page of them already writable (see the module's comment).
pub(crate) fn zeroed<T: bytemuck::Pod>(n: usize) -> Vec<T> {
    let mut v = vec![T::zeroed(); n];
    make_writable(bytemuck::cast_slice_mut(&mut v));
    v
}

/// `n` copies of `value`, written on every core. A fresh array of a few hundred megabytes is
/// mostly its page faults; filled on one core, the other waits for them (0.03–0.05 s of the
/// dominator tree on a dump of 58 M objects, where nothing else was left to run beside it).
pub(crate) fn filled<T: Copy + Send + Sync>(value: T, n: usize) -> Vec<T> {
    use rayon::prelude::*;
    let mut v = Vec::with_capacity(n);
    v.par_extend(rayon::iter::repeat_n(value, n));
    v
}

const PAGE: usize = 4096;

/// Fills the page tables of `bytes` (a stretch of the mapped dump, most often) for reading, in
/// one call where a loop over them would fault page by page (`MADV_POPULATE_READ`, Linux 5.14
/// and later; elsewhere, or when the kernel refuses, nothing happens and the loop faults as
/// before). For stretches a loop is about to read whole.
pub(crate) fn populate_read(bytes: &[u8]) {
    if bytes.len() < 16 * PAGE {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        // The pages the stretch touches, its first and last included.
        let start = bytes.as_ptr() as usize;
        let from = start / PAGE * PAGE;
        let len = (start + bytes.len()).next_multiple_of(PAGE) - from;
        const MADV_POPULATE_READ: libc::c_int = 22;
        // SAFETY: the pages hold `bytes`, which this process may read; populating for reading
        // changes no contents and no mapping's protection.
        unsafe { libc::madvise(from as *mut libc::c_void, len, MADV_POPULATE_READ) };
    }
}

/// Makes the pages of `bytes`, all zero, present and writable without changing them.
fn make_writable(bytes: &mut [u8]) {
    if bytes.len() < 64 * PAGE {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let start = bytes.as_ptr() as usize;
        let from = start.next_multiple_of(PAGE) - start;
        let len = (bytes.len() - from) / PAGE * PAGE;
        const MADV_POPULATE_WRITE: libc::c_int = 23;
        // SAFETY: the range lies inside `bytes`, which this process owns and may write;
        // populating for writing keeps the contents as they are.
        let done = unsafe { libc::madvise(bytes.as_mut_ptr().add(from).cast(), len, MADV_POPULATE_WRITE) } == 0;
        if done {
            return;
        }
    }
    touch(bytes);
}

/// What [`make_writable`] does where the kernel cannot: a zero written to every page.
fn touch(bytes: &mut [u8]) {
    for page in bytes.chunks_mut(PAGE) {
        // A volatile write, which the compiler cannot drop though the value is already zero.
        // SAFETY: `page` is a live, writable, non-empty slice.
        unsafe { std::ptr::write_volatile(page.as_mut_ptr(), 0) };
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn arrays_come_back_zeroed_whatever_their_size() {
        for n in [0usize, 1, 4095, 1 << 20, (1 << 20) + 3] {
            let v: Vec<u16> = super::zeroed(n);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 0));
        }
        let mut bytes = vec![0u8; 5 * super::PAGE + 7];
        super::touch(&mut bytes);
        assert!(bytes.iter().all(|&x| x == 0));
        for n in [0usize, 1, 1 << 20, (1 << 20) + 3] {
            let v = super::filled(u32::MAX - 1, n);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == u32::MAX - 1));
        }
    }

    /// The pages are in memory before anything reads or writes them (`mincore` says which
    /// pages of a range are).
    #[cfg(target_os = "linux")]
    #[test]
    fn every_page_is_resident_at_once() {
        let v: Vec<u64> = super::zeroed(4 << 20);
        let start = v.as_ptr() as usize;
        let from = start.next_multiple_of(super::PAGE);
        let pages = (start + v.len() * 8 - from) / super::PAGE;
        let mut resident = vec![0u8; pages];
        // SAFETY: the range is page-aligned and inside `v`, which lives; `resident` has a byte
        // for each of its pages.
        let r = unsafe { libc::mincore(from as *mut libc::c_void, pages * super::PAGE, resident.as_mut_ptr()) };
        assert_eq!(r, 0);
        let missing = resident.iter().filter(|&&b| b & 1 == 0).count();
        assert_eq!(missing, 0, "{missing} of {pages} pages not resident");
    }
}
