//! Per-object columns kept as narrow as their values allow.
//!
//! Millions of objects make every byte per object count (a 1 GB dump holds 14 M objects: a byte
//! each is 14 MB). A [`Column`] keeps the low bits of each value in `L` (16 or 32 bits) and a
//! high byte per value only when some value needs it, so file offsets take 4 bytes in dumps under
//! 4 GB and 5 above (up to 1 TB), class numbers 2 bytes under 65,536 classes and 3 above.

use crate::slab::Slab;

/// An unsigned integer narrower than 64 bits: the low part of a [`Column`], and the values of
/// `dominators::Packed` (whose maximum marks a value kept in a map instead).
pub(crate) trait Lo: bytemuck::Pod + Copy + Send + Sync + PartialEq {
    /// Bits it holds.
    const BITS: u32;
    /// Its largest value.
    const MAX: Self;
    /// The low `BITS` bits of `v`.
    fn truncate(v: u64) -> Self;
    /// Its value.
    fn widen(self) -> u64;
}

macro_rules! lo {
    ($($t:ty),*) => {$(
        impl Lo for $t {
            const BITS: u32 = <$t>::BITS;
            const MAX: $t = <$t>::MAX;
            #[inline]
            fn truncate(v: u64) -> $t {
                v as $t
            }
            #[inline]
            fn widen(self) -> u64 {
                u64::from(self)
            }
        }
    )*};
}
lo!(u16, u32);

/// Values of up to `L::BITS + 8` bits: `lo[i] | hi[i] << L::BITS`, `hi` empty when every value
/// fits `L`.
#[derive(Default)]
pub(crate) struct Column<L: Lo> {
    pub(crate) lo: Slab<L>,
    pub(crate) hi: Slab<u8>,
}

impl<L: Lo> Column<L> {
    /// The largest value a column holds.
    pub(crate) const MAX: u64 = (1 << (L::BITS + 8)) - 1;

    /// A column of `values`; `None` if one needs more than `L::BITS + 8` bits.
    pub(crate) fn collect(values: impl ExactSizeIterator<Item = u64> + Clone) -> Option<Column<L>> {
        let wide = values.clone().try_fold(false, |wide, v| (v <= Self::MAX).then_some(wide || v >> L::BITS != 0))?;
        let lo = values.clone().map(L::truncate).collect();
        let hi = if wide { values.map(|v| (v >> L::BITS) as u8).collect() } else { Slab::default() };
        Some(Column { lo, hi })
    }

    /// A column from its parts, if they agree in length.
    pub(crate) fn from_parts(lo: Slab<L>, hi: Slab<u8>) -> Option<Column<L>> {
        (hi.is_empty() || hi.len() == lo.len()).then_some(Column { lo, hi })
    }

    /// Sets the high bytes from `(position, byte)` pairs, the others zero.
    pub(crate) fn set_high(&mut self, high: impl IntoIterator<Item = (usize, u8)>) {
        let mut hi = std::mem::take(&mut self.hi).into_vec();
        for (i, b) in high {
            if hi.is_empty() {
                hi = vec![0; self.lo.len()];
            }
            hi[i] = b;
        }
        self.hi = hi.into();
    }

    /// The value at `i`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> u64 {
        let lo = self.lo[i].widen();
        if self.hi.is_empty() {
            lo
        } else {
            lo | u64::from(self.hi[i]) << L::BITS
        }
    }

    /// Number of values.
    pub(crate) fn len(&self) -> usize {
        self.lo.len()
    }

    /// All values, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// Values for a few positions of a column, or for most: the values too large for a narrow
/// column (retained sizes of 64 KB and more: 0.7 % of a typical dump's objects, most of them in a
/// dump of deep chains, where every link retains the rest of its chain), or the shortest-path
/// parents that differ from the immediate dominators. A bit per position says which are here,
/// and a count per 64 positions finds a value's place: constant time, a fifth of a byte a
/// position, and the value's own size, where a hash map took 20 bytes or more a value and a
/// random memory access to insert each.
pub(crate) struct Escapes<V = u64> {
    /// Bit `i % 64` of word `i / 64`: position `i` has a value here.
    bits: Slab<u64>,
    /// Values at the positions below each word.
    before: Vec<u32>,
    values: Slab<V>,
}

impl<V: Send + Sync + 'static> Default for Escapes<V> {
    fn default() -> Self {
        Escapes { bits: Slab::default(), before: Vec::new(), values: Slab::default() }
    }
}

impl<V: Copy + Send + Sync + 'static> Escapes<V> {
    /// From `(position, value)` pairs in rising order of position; `None` when a position
    /// repeats or goes back.
    pub(crate) fn from_sorted(pairs: impl IntoIterator<Item = (u32, V)>) -> Option<Escapes<V>> {
        let (mut bits, mut before, mut values) = (Vec::new(), Vec::new(), Vec::new());
        let mut last: Option<u32> = None;
        for (i, v) in pairs {
            if last.is_some_and(|l| l >= i) {
                return None;
            }
            last = Some(i);
            let word = i as usize / 64;
            if bits.len() <= word {
                bits.resize(word + 1, 0);
                before.resize(word + 1, values.len() as u32);
            }
            bits[word] |= 1 << (i % 64);
            values.push(v);
        }
        Some(Escapes { bits: bits.into(), before, values: values.into() })
    }

    /// From a bit for each of `len` positions and the values of the set bits in order; `None`
    /// when they disagree (another length, a bit past `len`, a value more or less).
    pub(crate) fn from_parts(len: usize, bits: Slab<u64>, values: Slab<V>) -> Option<Escapes<V>> {
        if bits.len() != len.div_ceil(64) {
            return None;
        }
        let mut before = Vec::with_capacity(bits.len());
        let mut total = 0u32;
        for w in bits.iter() {
            before.push(total);
            total = total.checked_add(w.count_ones())?;
        }
        let tail = len % 64;
        if total as usize != values.len() || (tail != 0 && bits.last().is_some_and(|&w| w >> tail != 0)) {
            return None;
        }
        Some(Escapes { bits, before, values })
    }

    /// Its parts, as [`Escapes::from_parts`] takes them back: a bit per position, the values.
    pub(crate) fn parts(&self) -> (&[u64], &[V]) {
        (&self.bits, &self.values)
    }

    /// The value at position `i`, if it has one here.
    #[inline]
    pub(crate) fn get(&self, i: u32) -> Option<V> {
        let word = i as usize / 64;
        let bits = *self.bits.get(word)?;
        let bit = 1u64 << (i % 64);
        if bits & bit == 0 {
            return None;
        }
        let rank = self.before[word] as usize + (bits & (bit - 1)).count_ones() as usize;
        self.values.get(rank).copied()
    }

    /// The positions and values, in order.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, V)> + '_ {
        crate::bits::ones(&self.bits).map(|i| i as u32).zip(self.values.iter().copied())
    }

    /// How many positions have a value here.
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    /// The positions with a value among those of words `words` (64 positions a word), in order.
    pub(crate) fn positions_in(&self, words: std::ops::Range<usize>) -> impl Iterator<Item = u32> + '_ {
        let words = words.start.min(self.bits.len())..words.end.min(self.bits.len());
        let first = words.start * 64;
        crate::bits::ones(&self.bits[words]).map(move |i| (first + i) as u32)
    }

    /// One past the highest position with a value (0 when none).
    pub(crate) fn end(&self) -> usize {
        match self.bits.iter().rposition(|&w| w != 0) {
            Some(k) => k * 64 + 64 - self.bits[k].leading_zeros() as usize,
            None => 0,
        }
    }
}

/// The values too wide for a 16-bit column of sums (retained sizes of 64 KB and more, retained
/// counts of 65,535 and more): in 32 bits, as [`Escapes`], half of what 64 took. In the 1 GB
/// benchmark's dump of deep chains, 9.9 M of the 20 M objects have a wide size and 6.7 M a
/// wide count: 66 MB saved. A retained size of 4 GiB − 1 and more (a few objects, and only in
/// a dump over 4 GB) is `u32::MAX` there and has its value in a short list of its own.
#[derive(Default)]
pub(crate) struct Wide {
    fit: Escapes<u32>,
    /// (position, value), each position marked `u32::MAX` in `fit`, in rising order.
    huge: Vec<(u32, u64)>,
}

impl Wide {
    /// From `(position, value)` pairs in any order; `None` when a position repeats.
    pub(crate) fn from_pairs(mut pairs: Vec<(u32, u64)>) -> Option<Wide> {
        pairs.sort_unstable_by_key(|p| p.0);
        let huge = pairs.iter().filter(|p| p.1 >= u64::from(u32::MAX)).copied().collect();
        let fit = Escapes::from_sorted(pairs.iter().map(|&(i, v)| (i, u32::try_from(v).unwrap_or(u32::MAX))))?;
        Some(Wide { fit, huge })
    }

    /// From a bit for each of `len` positions, the 32-bit values of the set bits in order, and
    /// the values of those marked `u32::MAX`; `None` when they disagree (as
    /// [`Escapes::from_parts`], or a mark without its value, a value without its mark, a value
    /// that would have fitted).
    pub(crate) fn from_parts(len: usize, bits: Slab<u64>, values: Slab<u32>, huge: Vec<(u32, u64)>) -> Option<Wide> {
        let fit = Escapes::from_parts(len, bits, values)?;
        let marks = fit.values.iter().filter(|&&v| v == u32::MAX).count();
        let ok = marks == huge.len()
            && huge.windows(2).all(|w| w[0].0 < w[1].0)
            && huge.iter().all(|&(i, v)| v >= u64::from(u32::MAX) && fit.get(i) == Some(u32::MAX));
        ok.then_some(Wide { fit, huge })
    }

    /// Its parts, as [`Wide::from_parts`] takes them back.
    pub(crate) fn parts(&self) -> (&[u64], &[u32], &[(u32, u64)]) {
        let (bits, values) = self.fit.parts();
        (bits, values, &self.huge)
    }

    /// The value at position `i`, if it has one here.
    #[inline]
    pub(crate) fn get(&self, i: u32) -> Option<u64> {
        match self.fit.get(i)? {
            u32::MAX => self.huge.binary_search_by_key(&i, |p| p.0).ok().map(|k| self.huge[k].1),
            v => Some(u64::from(v)),
        }
    }

    /// How many positions have a value here.
    pub(crate) fn len(&self) -> usize {
        self.fit.len()
    }

    /// The positions with a value among those of words `words` (64 positions a word), in order.
    pub(crate) fn positions_in(&self, words: std::ops::Range<usize>) -> impl Iterator<Item = u32> + '_ {
        self.fit.positions_in(words)
    }

    /// One past the highest position with a value (0 when none).
    pub(crate) fn end(&self) -> usize {
        self.fit.end()
    }

    /// The positions and values, in order.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.fit.iter().map(|(i, _)| (i, self.get(i).unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_find_every_value_and_nothing_else() {
        let pairs = [(0u32, 70_000u64), (1, 1 << 40), (63, 5), (64, 6), (200, 7), (4_000_000, u64::MAX)];
        let e = Escapes::from_sorted(pairs).unwrap();
        assert_eq!(e.values.len(), pairs.len());
        for &(i, v) in &pairs {
            assert_eq!(e.get(i), Some(v), "{i}");
        }
        for i in [2, 62, 65, 199, 201, 3_999_999, 4_000_001, u32::MAX] {
            assert_eq!(e.get(i), None, "{i}");
        }
        assert_eq!(e.iter().collect::<Vec<_>>(), pairs);
        assert_eq!(e.end(), 4_000_001);
        assert!(Escapes::from_sorted([(3, 1), (3, 2)]).is_none());
        assert!(Escapes::from_sorted([(4, 1), (3, 2)]).is_none());
        assert_eq!(Escapes::<u64>::default().get(0), None);
        // From a bit per position (trailing words of zeros included) and the values in order.
        let e = Escapes::from_parts(130, vec![1 << 5 | 1 << 63, 0, 0].into(), vec![7u32, 8].into()).unwrap();
        assert_eq!(e.iter().collect::<Vec<_>>(), [(5, 7), (63, 8)]);
        assert_eq!((e.get(63), e.get(64), e.end()), (Some(8), None, 64));
        assert!(Escapes::from_parts(130, vec![1, 0].into(), vec![7u32].into()).is_none(), "a word short");
        assert!(
            Escapes::from_parts(130, vec![1, 0, 1 << 2].into(), vec![7u32, 8].into()).is_none(),
            "a bit past the end"
        );
        assert!(Escapes::from_parts(130, vec![1, 0, 0].into(), vec![7u32, 8].into()).is_none(), "a value more");
    }

    /// Wide values of 32 bits and of 4 GiB and more read back alike, from pairs or from parts,
    /// and parts that disagree are refused.
    #[test]
    fn wide_values_hold_sizes_past_four_gigabytes() {
        let max = u64::from(u32::MAX);
        let pairs = [(70u32, 1u64 << 40), (3, 65_535), (64, max), (5, max - 1)];
        let w = Wide::from_pairs(pairs.to_vec()).unwrap();
        for &(i, v) in &pairs {
            assert_eq!(w.get(i), Some(v), "{i}");
        }
        assert_eq!((w.get(4), w.get(71), w.len(), w.end()), (None, None, 4, 71));
        assert_eq!(w.iter().collect::<Vec<_>>(), [(3, 65_535), (5, max - 1), (64, max), (70, 1 << 40)]);
        assert!(Wide::from_pairs(vec![(3, 1), (3, 2)]).is_none(), "a position twice");

        let (bits, values, huge) = w.parts();
        let parts = |huge: Vec<(u32, u64)>| Wide::from_parts(71, bits.to_vec().into(), values.to_vec().into(), huge);
        assert_eq!(parts(huge.to_vec()).unwrap().iter().collect::<Vec<_>>(), w.iter().collect::<Vec<_>>());
        assert!(parts(huge[..1].to_vec()).is_none(), "a mark without its value");
        assert!(parts([huge, &[(5, 1 << 33)]].concat()).is_none(), "a value without its mark");
        assert!(parts(vec![(64, 1 << 33), (64, 1 << 34)]).is_none(), "a value twice");
        assert!(parts(vec![(64, 7), (70, 1 << 40)]).is_none(), "a value that fitted");
    }

    #[test]
    fn narrow_values_take_no_high_byte() {
        let c = Column::<u32>::collect([0, 7, u64::from(u32::MAX)].into_iter()).unwrap();
        assert!(c.hi.is_empty());
        assert_eq!(c.iter().collect::<Vec<_>>(), [0, 7, u64::from(u32::MAX)]);
    }

    #[test]
    fn wide_values_keep_their_high_byte() {
        let vals = [5u64, 1 << 32, (1 << 40) - 1, 1 << 35 | 9];
        let c = Column::<u32>::collect(vals.into_iter()).unwrap();
        assert_eq!(c.hi.len(), 4);
        assert_eq!(c.iter().collect::<Vec<_>>(), vals);
        assert!(Column::<u32>::collect([1u64 << 40].into_iter()).is_none());

        let mut k = Column::<u16>::collect([3u64, 65_535].into_iter()).unwrap();
        assert!(k.hi.is_empty());
        k.set_high([(1, 2)]);
        assert_eq!(k.iter().collect::<Vec<_>>(), [3, 2 << 16 | 65_535]);
        assert!(Column::<u16>::from_parts(vec![1, 2].into(), vec![0].into()).is_none());
    }
}
