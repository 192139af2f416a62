//! A global allocator that keeps large freed blocks for the next large allocation.
//!
//! The engine's phases each make arrays of a few bytes per object and drop them (pass 1's
//! objects, the DFS's preorder, semi-NCA's arrays, the sums, the children rows): hundreds of
//! megabytes each on a dump of tens of millions of objects. glibc maps every block of 32 MB and
//! more on its own and unmaps it when freed, so each new array's pages are first touched again:
//! a fault per 4 KB page, the page zeroed by the kernel, and in a virtual machine that reports
//! freed memory to its host, the host's fault too. On a dump of 44 M objects that was over a
//! million faults and a quarter of the CPU time.
//!
//! [`Recycler`] maps blocks of [`LARGE`] bytes and more itself and, when one is freed, keeps it
//! mapped (up to [`SLOTS`] pieces). The next large allocation takes the smallest kept piece
//! that fits, the rest of it kept as a piece of its own; when none fits, it gets a fresh mapping
//! into which the kept pieces' pages are moved (`mremap`), largest first, so that pages already
//! resident are used before any new one is touched. A zeroed allocation is zeroed by a `memset`
//! over the moved pages only: writing pages that are there costs about a twentieth of faulting
//! them in. A block put together from several pieces spans several of the kernel's mappings and
//! cannot be moved as one, so growing it copies.
//!
//! Kept pieces are resident memory nobody uses, so [`release`] gives them all back; the engine
//! calls it where it gives back the dump's pages and glibc's free memory: at the end of the
//! index, of the tree and its sums, of the histogram, of the leak rules and the report's steps.
//! Between two such points, what one step frees is there for the next (pass 1's list of
//! objects for pass 2's arrays); where the next makes mostly smaller blocks, the kept ones add
//! to its peak (the arrays dump's pass 2: 40 MB); a step that knows about what it will take
//! gives back the rest first ([`keep_at_most`]: the tree's sums and rows). Smaller blocks, and
//! blocks aligned beyond a page, go to the inner allocator. Elsewhere than Linux everything
//! does.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::Mutex;

/// Blocks of this size and more are mapped by the [`Recycler`].
pub const LARGE: usize = 4 << 20;
/// How many freed blocks are kept at most.
pub const SLOTS: usize = 1024;

const PAGE: usize = 4096;

/// Freed blocks, as (address, mapped length); zero length is an empty slot.
static KEPT: Mutex<[(usize, usize); SLOTS]> = Mutex::new([(0, 0); SLOTS]);

/// The allocator (see the module's comment): large blocks kept for reuse, the rest to `A`.
pub struct Recycler<A>(pub A);

fn mapped_len(size: usize) -> usize {
    size.next_multiple_of(PAGE)
}

fn ours(layout: &Layout) -> bool {
    cfg!(target_os = "linux") && layout.size() >= LARGE && layout.align() <= PAGE
}

/// Gives every kept block back to the kernel.
pub fn release() {
    let kept = std::mem::replace(&mut *lock(), [(0, 0); SLOTS]);
    for (addr, len) in kept {
        if len != 0 {
            unmap(addr, len);
        }
    }
}

/// Gives back kept blocks beyond about `bytes` of them, the largest kept first: for a step that
/// knows about what it will allocate, so that what it will not take does not sit resident
/// through its peak.
pub fn keep_at_most(bytes: usize) {
    // Unmapped after the lock is let go, as `release` does.
    let mut out = [(0, 0); SLOTS];
    {
        let mut kept = lock();
        kept.sort_unstable_by_key(|k| std::cmp::Reverse(k.1));
        let mut total = 0;
        for (slot, gone) in kept.iter_mut().zip(out.iter_mut()) {
            if total >= bytes {
                *gone = std::mem::take(slot);
            } else {
                total += slot.1;
            }
        }
    }
    for (addr, len) in out {
        if len != 0 {
            unmap(addr, len);
        }
    }
}

/// The bytes of freed blocks kept for reuse (resident memory nobody uses until then).
pub fn kept() -> usize {
    lock().iter().map(|&(_, len)| len).sum()
}

fn lock() -> std::sync::MutexGuard<'static, [(usize, usize); SLOTS]> {
    KEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(target_os = "linux")]
fn unmap(addr: usize, len: usize) {
    // SAFETY: (addr, len) is a whole mapping this allocator made and nobody uses any more.
    unsafe { libc::munmap(addr as *mut libc::c_void, len) };
}

#[cfg(not(target_os = "linux"))]
fn unmap(_: usize, _: usize) {}

/// A fresh anonymous mapping of `len` bytes, or null.
#[cfg(target_os = "linux")]
fn map(len: usize) -> *mut u8 {
    // SAFETY: a new private anonymous mapping; no existing memory is affected.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        std::ptr::null_mut()
    } else {
        p.cast()
    }
}

#[cfg(not(target_os = "linux"))]
fn map(_: usize) -> *mut u8 {
    std::ptr::null_mut()
}

/// Moves the mapping (addr, from) to `to` bytes, its pages kept; null when the kernel refuses
/// (the old mapping is then unchanged).
#[cfg(target_os = "linux")]
fn remap(addr: usize, from: usize, to: usize) -> *mut u8 {
    // SAFETY: (addr, from) is a whole mapping of this allocator; with MREMAP_MAYMOVE the kernel
    // either moves it whole or leaves it as it was.
    let p = unsafe { libc::mremap(addr as *mut libc::c_void, from, to, libc::MREMAP_MAYMOVE) };
    if p == libc::MAP_FAILED {
        std::ptr::null_mut()
    } else {
        p.cast()
    }
}

#[cfg(not(target_os = "linux"))]
fn remap(_: usize, _: usize, _: usize) -> *mut u8 {
    std::ptr::null_mut()
}

/// Moves `len` bytes of mapping at `from` to `to`, replacing what was mapped there; false when
/// the kernel refuses (both are then as they were).
#[cfg(target_os = "linux")]
fn move_pages(from: usize, len: usize, to: usize) -> bool {
    // SAFETY: `from..from + len` lies in a kept block nobody uses, `to..to + len` in a fresh
    // mapping of this allocator that nobody has seen yet; MREMAP_FIXED replaces the latter.
    let p = unsafe {
        libc::mremap(
            from as *mut libc::c_void,
            len,
            len,
            libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
            to as *mut libc::c_void,
        )
    };
    p as usize == to
}

#[cfg(not(target_os = "linux"))]
fn move_pages(_: usize, _: usize, _: usize) -> bool {
    false
}

/// A block of `len` mapped bytes, and how many of its first bytes may hold old contents (the
/// rest are fresh zero pages).
///
/// The smallest kept block that fits is split, its tail kept; when none fits, a fresh mapping
/// is made and the kept blocks' pages are moved into it from the front, largest first, so
/// that the pages already resident are used before any new one.
fn take(len: usize) -> (*mut u8, usize) {
    let mut kept = lock();
    if let Some(i) = (0..SLOTS).filter(|&i| kept[i].1 >= len).min_by_key(|&i| kept[i].1) {
        let (addr, have) = kept[i];
        kept[i] = if have > len { (addr + len, have - len) } else { (0, 0) };
        return (addr as *mut u8, len);
    }
    let dest = map(len);
    if dest.is_null() {
        return (dest, 0);
    }
    let mut moved = 0;
    while moved < len {
        let Some(i) = (0..SLOTS).filter(|&i| kept[i].1 != 0).max_by_key(|&i| kept[i].1) else {
            break;
        };
        let (addr, have) = kept[i];
        let part = have.min(len - moved);
        if !move_pages(addr, part, dest as usize + moved) {
            // It spans mappings (it was put together from several): given back instead.
            kept[i] = (0, 0);
            unmap(addr, have);
            continue;
        }
        kept[i] = if have > part { (addr + part, have - part) } else { (0, 0) };
        moved += part;
    }
    (dest, moved)
}

/// Keeps a freed block, or unmaps it (or the smallest kept one) when every slot is taken.
fn keep(addr: usize, len: usize) {
    let out = {
        let mut kept = lock();
        match (0..SLOTS).find(|&i| kept[i].1 == 0) {
            Some(i) => {
                kept[i] = (addr, len);
                None
            }
            None => {
                let small = (0..SLOTS).min_by_key(|&i| kept[i].1).unwrap_or(0);
                if kept[small].1 < len {
                    Some(std::mem::replace(&mut kept[small], (addr, len)))
                } else {
                    Some((addr, len))
                }
            }
        }
    };
    if let Some((a, l)) = out {
        unmap(a, l);
    }
}

// SAFETY: large blocks are whole private mappings of at least the layout's size, aligned to a
// page (at least the layout's alignment), handed to one owner at a time; the rest is `A`'s.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Recycler<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !ours(&layout) {
            // SAFETY: the caller's contract, passed on.
            return unsafe { self.0.alloc(layout) };
        }
        take(mapped_len(layout.size())).0
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !ours(&layout) {
            // SAFETY: the caller's contract, passed on.
            return unsafe { self.0.alloc_zeroed(layout) };
        }
        let (p, old) = take(mapped_len(layout.size()));
        if !p.is_null() && old != 0 {
            // SAFETY: the first `old` bytes of the block are mapped and now the caller's.
            unsafe { std::ptr::write_bytes(p, 0, old) };
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ours(&layout) {
            keep(ptr as usize, mapped_len(layout.size()));
        } else {
            // SAFETY: the caller's contract, passed on: `ptr` came from `A` with this layout.
            unsafe { self.0.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract: `new_size` is non-zero and fits `isize` once aligned.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (ours(&layout), ours(&new)) {
            // SAFETY: the caller's contract, passed on.
            (false, false) => unsafe { self.0.realloc(ptr, layout, new_size) },
            (true, true) => {
                let (from, to) = (mapped_len(layout.size()), mapped_len(new_size));
                if from == to {
                    return ptr;
                }
                let p = remap(ptr as usize, from, to);
                if !p.is_null() {
                    return p;
                }
                // A block put together from several mappings cannot be moved as one: copied.
                // SAFETY: as in the arm below.
                unsafe { self.moved(ptr, layout, new) }
            }
            // SAFETY: the caller's contract, passed on.
            _ => unsafe { self.moved(ptr, layout, new) },
        }
    }
}

impl<A: GlobalAlloc> Recycler<A> {
    /// `realloc` as a new block, the contents copied, and the old block freed.
    ///
    /// # Safety
    /// As for [`GlobalAlloc::realloc`], with `new` the new layout.
    unsafe fn moved(&self, ptr: *mut u8, layout: Layout, new: Layout) -> *mut u8 {
        // SAFETY: `new` is a valid layout of non-zero size (the caller's contract).
        let p = unsafe { self.alloc(new) };
        if !p.is_null() {
            // SAFETY: both blocks are live and distinct, each at least this long.
            unsafe { std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new.size())) };
            // SAFETY: `ptr` was allocated with `layout` and is no longer used.
            unsafe { self.dealloc(ptr, layout) };
        }
        p
    }
}

#[cfg(test)]
mod tests {
    //! The pieces are shared by every test thread, so these check what a caller sees (contents
    //! kept, zeroes where promised), whichever pieces each allocation got.
    use super::{Recycler, LARGE, PAGE};
    use proptest::prelude::*;
    use std::alloc::{GlobalAlloc, Layout, System};

    const A: Recycler<System> = Recycler(System);

    fn layout(size: usize) -> Layout {
        Layout::from_size_align(size, 8).expect("a valid layout")
    }

    /// Writes a pattern that differs from page to page and block to block.
    fn fill(p: *mut u8, size: usize, seed: u8) {
        for i in (0..size).step_by(997) {
            // SAFETY: `i < size`, inside the caller's live block.
            unsafe { *p.add(i) = seed.wrapping_add((i / PAGE) as u8) };
        }
    }

    fn holds(p: *mut u8, size: usize, seed: u8) -> bool {
        // SAFETY: as in `fill`.
        (0..size).step_by(997).all(|i| unsafe { *p.add(i) } == seed.wrapping_add((i / PAGE) as u8))
    }

    fn zero(p: *mut u8, size: usize) -> bool {
        // SAFETY: the caller's live block of `size` bytes.
        unsafe { std::slice::from_raw_parts(p, size) }.iter().all(|&b| b == 0)
    }

    #[test]
    fn zeroed_blocks_are_zero_when_made_of_freed_ones() {
        // Two dirty blocks freed, then zeroed ones of every size around theirs: the smaller
        // from a piece, the larger put together from both.
        for want in [LARGE, LARGE + 12_345, 3 * LARGE, LARGE / 2 + LARGE] {
            let dirty: Vec<(*mut u8, usize)> = [LARGE + 7, 2 * LARGE]
                .into_iter()
                .map(|s| {
                    // SAFETY: a non-zero layout.
                    let p = unsafe { A.alloc(layout(s)) };
                    assert!(!p.is_null());
                    // SAFETY: `p` is live with `s` bytes.
                    unsafe { std::ptr::write_bytes(p, 0xAB, s) };
                    (p, s)
                })
                .collect();
            for (p, s) in dirty {
                // SAFETY: allocated above with this layout.
                unsafe { A.dealloc(p, layout(s)) };
            }
            // SAFETY: a non-zero layout.
            let p = unsafe { A.alloc_zeroed(layout(want)) };
            assert!(!p.is_null());
            assert!(zero(p, want), "{want} bytes not all zero");
            // SAFETY: allocated above with this layout.
            unsafe { A.dealloc(p, layout(want)) };
        }
        super::release();
    }

    #[derive(Debug, Clone)]
    enum Op {
        Alloc(usize, bool),
        Grow(usize, usize),
        Free(usize),
        /// `keep_at_most` of this many bytes.
        Trim(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        let size = prop_oneof![1usize..4096, LARGE - 4096..LARGE + 4096, LARGE..4 * LARGE];
        prop_oneof![
            (size.clone(), any::<bool>()).prop_map(|(s, z)| Op::Alloc(s, z)),
            (any::<usize>(), size).prop_map(|(i, s)| Op::Grow(i, s)),
            any::<usize>().prop_map(Op::Free),
            (0..6 * LARGE).prop_map(Op::Trim),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Any mix of allocations, reallocations (across the large size both ways, and of blocks
        /// put together from pieces), frees and kept blocks given back: every live block keeps
        /// what was written to it.
        #[test]
        fn blocks_keep_their_contents(ops in proptest::collection::vec(op(), 1..40)) {
            let mut live: Vec<(*mut u8, usize, u8)> = Vec::new();
            for (k, op) in ops.into_iter().enumerate() {
                let seed = k as u8;
                match op {
                    Op::Alloc(s, zeroed) => {
                        // SAFETY: a non-zero layout.
                        let p = unsafe { if zeroed { A.alloc_zeroed(layout(s)) } else { A.alloc(layout(s)) } };
                        prop_assert!(!p.is_null());
                        if zeroed {
                            prop_assert!(zero(p, s));
                        }
                        fill(p, s, seed);
                        live.push((p, s, seed));
                    }
                    Op::Grow(i, s) if !live.is_empty() => {
                        let (p, old, seed) = live.swap_remove(i % live.len());
                        // SAFETY: `p` is live with this layout; `s` is non-zero.
                        let q = unsafe { A.realloc(p, layout(old), s) };
                        prop_assert!(!q.is_null());
                        prop_assert!(holds(q, old.min(s), seed));
                        fill(q, s, seed);
                        live.push((q, s, seed));
                    }
                    Op::Trim(bytes) => super::keep_at_most(bytes),
                    Op::Free(i) if !live.is_empty() => {
                        let (p, s, seed) = live.swap_remove(i % live.len());
                        prop_assert!(holds(p, s, seed));
                        // SAFETY: `p` is live with this layout.
                        unsafe { A.dealloc(p, layout(s)) };
                    }
                    _ => {}
                }
                for &(p, s, seed) in &live {
                    prop_assert!(holds(p, s, seed));
                }
            }
            for (p, s, _) in live {
                // SAFETY: `p` is live with this layout.
                unsafe { A.dealloc(p, layout(s)) };
            }
        }
    }
}
