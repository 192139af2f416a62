//! Bitsets over nodes: a bit per object, 64 to a word.

use rayon::prelude::*;

/// A bit for each of `0..n`, set where `f` holds; `f` runs on every core.
pub(crate) fn collect(n: usize, f: impl Fn(usize) -> bool + Sync) -> Vec<u64> {
    let mut bits = vec![0u64; n.div_ceil(64)];
    bits.par_iter_mut().enumerate().for_each(|(w, word)| {
        for i in w * 64..(w * 64 + 64).min(n) {
            if f(i) {
                *word |= 1 << (i % 64);
            }
        }
    });
    bits
}

/// Bit `i` of `bits`.
#[inline]
pub(crate) fn get(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 != 0
}
