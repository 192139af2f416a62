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

/// The positions of the set bits of `words`, in order.
pub(crate) fn ones(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut left = word;
        std::iter::from_fn(move || {
            (left != 0).then(|| {
                let i = left.trailing_zeros() as usize;
                left &= left - 1;
                w * 64 + i
            })
        })
    })
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

/// Starts bringing bit `i` of `bits` into the cache, for a [`get`] some steps later.
#[inline]
pub(crate) fn prefetch(bits: &[u64], i: usize) {
    crate::prefetch::read(bits, i / 64);
}

#[cfg(test)]
mod tests {
    /// Every set bit once, in order, across words, from bit 0 to bit 63, past empty words.
    #[test]
    fn ones_are_the_set_bits_in_order() {
        let words = [0b1011, 0, 1 << 63 | 1, 0];
        assert_eq!(super::ones(&words).collect::<Vec<_>>(), [0, 1, 3, 128, 191]);
        assert_eq!(super::ones(&[]).count(), 0);
        let mut bits = vec![0u64; 3];
        for i in [5, 64, 100, 130] {
            super::set(&mut bits, i);
        }
        assert_eq!(super::ones(&bits).collect::<Vec<_>>(), [5, 64, 100, 130]);
    }
}
