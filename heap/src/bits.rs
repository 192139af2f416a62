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

/// Two bits for each of `0..n`, set where `f` says, in two lists; `f` runs on every core.
pub(crate) fn collect_pair(n: usize, f: impl Fn(usize) -> (bool, bool) + Sync) -> (Vec<u64>, Vec<u64>) {
    let (mut a, mut b) = (vec![0u64; n.div_ceil(64)], vec![0u64; n.div_ceil(64)]);
    a.par_iter_mut().zip(b.par_iter_mut()).enumerate().for_each(|(w, (x, y))| {
        for i in w * 64..(w * 64 + 64).min(n) {
            let (p, q) = f(i);
            *x |= u64::from(p) << (i % 64);
            *y |= u64::from(q) << (i % 64);
        }
    });
    (a, b)
}

/// Sets bit `i` of `bits`.
#[inline]
pub(crate) fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// Bit `i` of `bits`.
#[inline]
pub(crate) fn get(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 != 0
}
