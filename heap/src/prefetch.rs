//! Software prefetch: asking for memory a traversal will read a few steps from now, so the
//! cache misses of a breadth-first search overlap instead of following one another.

/// How many steps ahead the loops that read or write at random ask for their memory (a queue's
/// entries, a list's items): far enough for a miss to land, near enough to stay in the cache.
pub(crate) const AHEAD: usize = 16;

/// Starts bringing `s[i]` into the cache (nothing when `i` is out of bounds, or on targets
/// without a prefetch instruction in stable Rust).
#[inline(always)]
pub(crate) fn read<T>(s: &[T], i: usize) {
    if i < s.len() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch only hints the cache, and the address is inside `s`.
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(s.as_ptr().add(i).cast::<i8>())
        }
    }
}
