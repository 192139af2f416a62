//! Compressed sparse rows: the outgoing references of every object.

use crate::slab::Slab;

/// Bit set on an edge target when the edge is the `referent` of a `java.lang.ref.Reference`.
pub const WEAK: u32 = 1 << 31;

/// Edges of node `n` are `targets[starts[n]..starts[n + 1]]`; a target may carry [`WEAK`].
#[derive(Default)]
pub struct Csr {
    pub(crate) starts: Starts,
    pub(crate) targets: crate::slab::Slab<u32>,
}

impl Csr {
    /// Raw edges of `n` (targets may carry the [`WEAK`] bit).
    #[inline]
    pub fn edges(&self, n: u32) -> &[u32] {
        let a = self.starts.get(n as usize) as usize;
        let b = self.starts.get(n as usize + 1) as usize;
        &self.targets[a..b]
    }

    /// Which objects hold no strong reference, and which hold a weak one, read on every core
    /// (see [`EdgeKinds`]).
    pub(crate) fn kinds(&self) -> EdgeKinds {
        let n = self.starts.len().saturating_sub(1);
        let (strong_leaves, weak_holders) = crate::bits::collect_pair(n, |v| {
            let edges = self.edges(v as u32);
            (edges.iter().all(|&t| t & WEAK != 0), edges.iter().any(|&t| t & WEAK != 0))
        });
        EdgeKinds { strong_leaves, weak_holders }
    }

    /// Starts bringing the row start of `n` into the cache.
    #[inline]
    pub(crate) fn prefetch_start(&self, n: u32) {
        self.starts.prefetch(n as usize);
    }

    /// Starts bringing the first edges of `n` into the cache (its row start should be there).
    #[inline]
    pub(crate) fn prefetch_edges(&self, n: u32) {
        crate::prefetch::read(&self.targets, self.starts.get(n as usize) as usize);
    }

    /// Number of edges.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are no edges.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }
}

/// Two bits per node, from one read of every edge.
pub(crate) struct EdgeKinds {
    /// Set for objects with no strong reference (none at all, or only referents): the leaves of
    /// the strong graph, 41 % of the objects of the 1 GB benchmark dump.
    pub(crate) strong_leaves: Vec<u64>,
    /// Set for objects with a weak reference (a Reference's referent): the few the search for
    /// weakly reachable objects starts from.
    pub(crate) weak_holders: Vec<u64>,
}

/// Marks a block of [`Starts`] kept whole; the rest of its `base` entry is its place in `wide`.
const WIDE: u64 = 1 << 63;
/// Entries per block.
const BLOCK: usize = 64;

/// The row starts of a CSR (ascending, one more than there are rows) in about two bytes each
/// instead of four: per block of 64 entries the first one, then each entry as its distance from
/// it in 16 bits. A block spanning 65,536 or more (a huge array's references) is kept whole.
#[derive(Default, Clone)]
pub struct Starts {
    base: Slab<u64>,
    rel: Slab<u16>,
    wide: Slab<u32>,
}

impl Starts {
    /// The starts in `v`, which must be ascending: runs of blocks on every core, each writing
    /// its part of the lists; the blocks kept whole are then placed after those of the runs
    /// before.
    pub fn new(v: &[u32]) -> Starts {
        use rayon::prelude::*;
        const RUN: usize = BLOCK << 12;
        let mut base = vec![0u64; v.len().div_ceil(BLOCK)];
        let mut rel = vec![0u16; v.len()];
        let wides: Vec<Vec<u32>> = v
            .par_chunks(RUN)
            .zip(base.par_chunks_mut(RUN / BLOCK))
            .zip(rel.par_chunks_mut(RUN))
            .map(|((run, base), rel)| {
                let mut wide = Vec::new();
                for ((block, b), r) in run.chunks(BLOCK).zip(base).zip(rel.chunks_mut(BLOCK)) {
                    let lo = block[0];
                    if block[block.len() - 1] - lo <= u32::from(u16::MAX) {
                        *b = u64::from(lo);
                        for (r, &x) in r.iter_mut().zip(block) {
                            *r = (x - lo) as u16;
                        }
                    } else {
                        *b = WIDE | wide.len() as u64;
                        wide.extend_from_slice(block);
                    }
                }
                wide
            })
            .collect();
        let mut wide: Vec<u32> = Vec::new();
        for (w, bases) in wides.into_iter().zip(base.chunks_mut(RUN / BLOCK)) {
            if !w.is_empty() && !wide.is_empty() {
                let placed = wide.len() as u64;
                for b in bases.iter_mut().filter(|b| **b & WIDE != 0) {
                    *b += placed;
                }
            }
            wide.extend_from_slice(&w);
        }
        Starts { base: base.into(), rel: rel.into(), wide: wide.into() }
    }

    /// The starts `values` yields, which must ascend (made a block at a time: no list of them
    /// all in 32 bits is needed).
    pub fn collect(values: impl ExactSizeIterator<Item = u32>) -> Starts {
        let len = values.len();
        // The parts as they grow: base, rel, wide.
        let mut s: (Vec<u64>, Vec<u16>, Vec<u32>) =
            (Vec::with_capacity(len.div_ceil(BLOCK)), Vec::with_capacity(len), Vec::new());
        let mut block = [0u32; BLOCK];
        let mut k = 0;
        let flush = |(base, rel, wide): &mut (Vec<u64>, Vec<u16>, Vec<u32>), block: &[u32]| {
            let (lo, hi) = (block[0], block[block.len() - 1]);
            if hi - lo <= u32::from(u16::MAX) {
                base.push(u64::from(lo));
                rel.extend(block.iter().map(|&x| (x - lo) as u16));
            } else {
                base.push(WIDE | wide.len() as u64);
                wide.extend_from_slice(block);
                rel.extend(std::iter::repeat_n(0, block.len()));
            }
        };
        for x in values {
            block[k] = x;
            k += 1;
            if k == BLOCK {
                flush(&mut s, &block);
                k = 0;
            }
        }
        if k > 0 {
            flush(&mut s, &block[..k]);
        }
        Starts { base: s.0.into(), rel: s.1.into(), wide: s.2.into() }
    }

    /// Entry `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        let b = self.base[i / BLOCK];
        if b & WIDE == 0 {
            b as u32 + u32::from(self.rel[i])
        } else {
            self.wide[(b & !WIDE) as usize + i % BLOCK]
        }
    }

    /// The last of `rows` whose entry is at most `edge`: the row holding that edge, when the
    /// first of `rows` starts at or before it (starts rise, so a binary search).
    pub(crate) fn row_at(&self, edge: u32, rows: std::ops::Range<usize>) -> usize {
        let (mut a, mut b) = (rows.start, rows.end);
        while b - a > 1 {
            let m = (a + b) / 2;
            if self.get(m) <= edge {
                a = m;
            } else {
                b = m;
            }
        }
        a
    }

    /// Starts bringing entry `i` into the cache.
    #[inline]
    pub(crate) fn prefetch(&self, i: usize) {
        crate::prefetch::read(&self.rel, i);
        crate::prefetch::read(&self.base, i / BLOCK);
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.rel.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rel.is_empty()
    }

    /// Every entry, in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Its parts, for the index cache.
    pub(crate) fn parts(&self) -> (&[u64], &[u16], &[u32]) {
        (&self.base, &self.rel, &self.wide)
    }

    /// From its parts, if they fit together (whether the entries ascend is the caller's check).
    pub(crate) fn from_parts(base: Slab<u64>, rel: Slab<u16>, wide: Slab<u32>) -> Option<Starts> {
        if base.len() != rel.len().div_ceil(BLOCK) {
            return None;
        }
        let mut next_wide = 0usize;
        for (b, &x) in base.iter().enumerate() {
            if x & WIDE != 0 {
                let len = (rel.len() - b * BLOCK).min(BLOCK);
                if (x & !WIDE) as usize != next_wide {
                    return None;
                }
                next_wide += len;
            } else {
                // Every entry of a narrow block must fit 32 bits.
                let top = rel[b * BLOCK..(b * BLOCK + BLOCK).min(rel.len())].iter().max().copied().unwrap_or(0);
                if x + u64::from(top) > u64::from(u32::MAX) {
                    return None;
                }
            }
        }
        (next_wide == wide.len()).then_some(Starts { base, rel, wide })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_read_back_in_narrow_and_wide_blocks() {
        // Small rows, then a block holding a row of 100,000 edges, then small rows again; a last
        // block that is not full.
        let mut v = vec![0u32];
        for i in 0..300u32 {
            let step = if i == 100 { 100_000 } else { i % 7 };
            v.push(v.last().unwrap() + step);
        }
        let s = Starts::new(&v);
        assert_eq!(s.len(), v.len());
        assert_eq!(s.iter().collect::<Vec<_>>(), v);
        assert_eq!(s.wide.len(), 64, "one block kept whole");
        let (b, r, w) = s.parts();
        let back = Starts::from_parts(b.to_vec().into(), r.to_vec().into(), w.to_vec().into()).unwrap();
        assert_eq!(back.iter().collect::<Vec<_>>(), v);
        assert!(Starts::from_parts(b.to_vec().into(), r[64..].to_vec().into(), w.to_vec().into()).is_none());
        assert!(Starts::from_parts(b.to_vec().into(), r.to_vec().into(), w[1..].to_vec().into()).is_none());
        assert_eq!(Starts::new(&[]).len(), 0);
        // A narrow block whose entries would pass 32 bits (a damaged cache) is refused.
        assert!(Starts::from_parts(vec![u64::from(u32::MAX) - 1].into(), vec![0, 5].into(), Slab::default()).is_none());
        assert!(Starts::from_parts(vec![u64::from(u32::MAX) - 5].into(), vec![0, 5].into(), Slab::default()).is_some());
    }

    /// Made on every core, the starts are the parts one core makes: blocks kept whole in several
    /// runs of blocks (none in some) placed one after the other.
    #[test]
    fn starts_made_in_runs_are_those_made_in_one() {
        let mut v = vec![0u32];
        for i in 0..(3 << 18) + 1000u32 {
            let step = if [5, 300_000, 300_070, 700_000].contains(&i) { 70_000 } else { i % 3 };
            v.push(v.last().unwrap() + step);
        }
        let (a, b) = (Starts::new(&v), Starts::collect(v.iter().copied()));
        assert_eq!(a.parts(), b.parts());
        assert_eq!(a.wide.len(), 4 * BLOCK);
        assert!(a.iter().eq(v.iter().copied()));
    }
}
