//! Object identifiers mapped to dense node numbers.
//!
//! Ids are sorted, so a node number is a position in the id list. Where the ids lie close
//! together, as a heap's addresses do (a few words apart on average), a node is found in a rank
//! table: a bit for each possible value from the lowest id to the highest, 32 to an 8-byte entry
//! that also holds how many ids come before it. One load, a mask and a count give the node, and
//! the table (a quarter of a byte per possible value, 35 MB for a 1.1 GB heap of 8-byte units)
//! mostly stays in the processor's last-level cache: the second pass looks up every reference.
//! Elsewhere lookups go through a bucket table over the id range (one `u32` per bucket, a bucket
//! per four to eight objects), then a binary search over the few ids of one bucket, which share
//! a cache line or two: two or three cache misses instead of the twenty-odd of a plain binary
//! search over millions of ids. (A bucket per object was no faster and took another 4 bytes per
//! object.)
//!
//! The list is packed to 32 bits: ids are addresses, aligned, so an id is kept as
//! `(id - min) >> pack`, of which only the low 32 bits are stored per id. The values are sorted, so
//! their high parts rise in runs: a short list says where each run starts (one run in a heap that
//! spans less than 2^32 alignment units, 32 GB at 8-byte alignment; a few in a larger heap, or in
//! ids scattered over the address space). Four bytes an id whatever the span, where 64-bit ids
//! would take eight for every dump over 32 GB.

use crate::slab::Slab;

/// Sorted object ids with a bucket table for fast id → node lookups.
pub struct IdMap {
    /// The low 32 bits of each stored value.
    lo: Slab<u32>,
    /// The runs of values that share their high 32 bits: `(high, first position)`, rising.
    runs: Vec<(u32, u32)>,
    buckets: Vec<u32>,
    /// The rank table, where the ids are dense enough (then `buckets` is empty).
    ranks: Option<Ranks>,
    /// The lowest id; ids are stored relative to it.
    min: u64,
    /// Stored values are `(id - min) >> pack`.
    pack: u32,
    /// Bucket of a stored value: `value >> shift`.
    shift: u32,
}

impl IdMap {
    /// Builds the map over `ids`, which must be sorted and free of duplicates.
    pub fn new(ids: Vec<u64>) -> IdMap {
        IdMap::from_sorted(ids.iter().copied())
    }

    /// Builds the map over `ids`, which must be sorted and free of duplicates; read twice over
    /// (the alignment, then the values), so the caller need not gather them into a list of its
    /// own.
    pub fn from_sorted(ids: impl ExactSizeIterator<Item = u64> + Clone) -> IdMap {
        let Some(min) = ids.clone().next() else {
            return IdMap {
                lo: Slab::default(),
                runs: vec![(0, 0)],
                buckets: vec![0, 0],
                ranks: None,
                min: 0,
                pack: 0,
                shift: 63,
            };
        };
        // The alignment all ids share above the lowest (the low bits every offset leaves zero).
        let common = ids.clone().fold(0u64, |acc, id| acc | (id - min));
        let pack = if common == 0 { 0 } else { common.trailing_zeros() };
        let mut runs: Vec<(u32, u32)> = Vec::new();
        let mut lo = Vec::with_capacity(ids.len());
        for (i, id) in ids.enumerate() {
            let v = (id - min) >> pack;
            let high = (v >> 32) as u32;
            if runs.last().is_none_or(|r| r.0 != high) {
                runs.push((high, i as u32));
            }
            lo.push(v as u32);
        }
        IdMap::with_table(lo.into(), runs, min, pack)
    }

    /// The map over values already packed (`lo`, `runs`, `min`, `pack` as [`IdMap::parts`] gives
    /// them, from a cache file): `None` unless they are ids in ascending order from `min`. The
    /// first value is 0 (`min` itself) in a first run of high bits 0; each run starts after the
    /// one before, above it, and holds values in ascending order; the highest id fits in 64 bits.
    pub(crate) fn from_parts(min: u64, pack: u32, lo: Slab<u32>, runs: Vec<(u32, u32)>) -> Option<IdMap> {
        if lo.is_empty() {
            return Some(IdMap::new(Vec::new()));
        }
        let len = lo.len();
        let starts_ok = runs.first() == Some(&(0, 0))
            && lo[0] == 0
            && runs.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1)
            && runs.iter().all(|r| (r.1 as usize) < len);
        if pack >= 64 || !starts_ok {
            return None;
        }
        let ends = runs.iter().skip(1).map(|r| r.1 as usize).chain([len]);
        let ascending = runs.iter().zip(ends).all(|(r, end)| lo[r.1 as usize..end].windows(2).all(|w| w[0] < w[1]));
        let last = u64::from(runs[runs.len() - 1].0) << 32 | u64::from(lo[len - 1]);
        if !ascending || last > (u64::MAX - min) >> pack {
            return None;
        }
        // Read back from a cache, the map answers a lookup at a time (the UI's `:`, an import's
        // ids): the bucket table, a byte an id, rather than a rank table that may take four.
        Some(IdMap::with_lookup(lo, runs, min, pack, false))
    }

    /// The map over values already packed from sorted ids (as [`IdMap::parts`] gives them),
    /// trusted: for values just made from ids in order.
    pub(crate) fn from_packed(lo: Slab<u32>, runs: Vec<(u32, u32)>, min: u64, pack: u32) -> IdMap {
        if lo.is_empty() {
            return IdMap::new(Vec::new());
        }
        IdMap::with_table(lo, runs, min, pack)
    }

    /// What [`IdMap::from_parts`] takes back: the lowest id, the packing shift, the low 32 bits
    /// of each value and the runs of high bits.
    pub fn parts(&self) -> (u64, u32, &[u32], &[(u32, u32)]) {
        (self.min, self.pack, &self.lo, &self.runs)
    }

    /// The rank table over values in order where they are dense (see [`Ranks::fits`]), else
    /// the bucket table.
    fn with_table(lo: Slab<u32>, runs: Vec<(u32, u32)>, min: u64, pack: u32) -> IdMap {
        let dense = runs.len() == 1 && lo.last().is_some_and(|&last| Ranks::fits(lo.len(), u64::from(last)));
        IdMap::with_lookup(lo, runs, min, pack, dense)
    }

    /// The map with a rank table (`ranks`: values all below 2^32) or a bucket table.
    fn with_lookup(lo: Slab<u32>, runs: Vec<(u32, u32)>, min: u64, pack: u32, ranks: bool) -> IdMap {
        let mut map = IdMap { lo, runs, buckets: Vec::new(), ranks: None, min, pack, shift: 0 };
        if ranks {
            map.ranks = Some(Ranks::of(&map.lo));
            return map;
        }
        let len = map.lo.len();
        let span = map.value(len - 1);
        let target = (len as u64 / 4).max(1);
        let mut shift = 0u32;
        while shift < 63 && (span >> shift) > target {
            shift += 1;
        }
        map.shift = shift;
        let n_buckets = ((span >> shift) + 2) as usize;
        let mut buckets = vec![0u32; n_buckets + 1];
        // buckets[b] = first position whose value falls in bucket b or later: in runs of
        // buckets on every core, each run's first position found by a binary search.
        use rayon::prelude::*;
        const RUN: usize = 1 << 16;
        let first_in = |b: u64| {
            let (mut lo, mut hi) = (0usize, len);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if map.value(mid) >> shift < b {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        buckets.par_chunks_mut(RUN).enumerate().for_each(|(k, run)| {
            let mut pos = first_in((k * RUN) as u64);
            for (i, slot) in run.iter_mut().enumerate() {
                let b = (k * RUN + i) as u64;
                while pos < len && (map.value(pos) >> shift) < b {
                    pos += 1;
                }
                *slot = pos as u32;
            }
        });
        map.buckets = buckets;
        map
    }

    /// The run holding position `i`.
    #[inline]
    fn run_of(&self, i: usize) -> usize {
        if self.runs.len() == 1 {
            return 0;
        }
        self.runs.partition_point(|&(_, start)| start as usize <= i).saturating_sub(1)
    }

    /// The stored value at position `i`: `(id - min) >> pack`.
    #[inline]
    fn value(&self, i: usize) -> u64 {
        u64::from(self.runs[self.run_of(i)].0) << 32 | u64::from(self.lo[i])
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        self.lo.len()
    }

    /// Whether there are no ids.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The id of node `n`.
    #[inline]
    pub fn id(&self, n: u32) -> u64 {
        self.min + (self.value(n as usize) << self.pack)
    }

    /// All ids, in order.
    pub fn ids(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.len()).map(|i| self.id(i as u32))
    }

    /// Runs of ids that share their high bits (1 for a heap under 32 GB).
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// The node of `id`, if the dump holds that object.
    #[inline]
    pub fn node(&self, id: u64) -> Option<u32> {
        let off = id.checked_sub(self.min)?;
        if off & ((1u64 << self.pack) - 1) != 0 {
            return None;
        }
        let v = off >> self.pack;
        if let Some(ranks) = &self.ranks {
            return ranks.rank(v);
        }
        let b = (v >> self.shift) as usize;
        let mut lo = *self.buckets.get(b)? as usize;
        let mut hi = *self.buckets.get(b + 1)? as usize;
        if self.runs.len() > 1 {
            // Only the positions whose high bits are the id's.
            let high = u32::try_from(v >> 32).ok()?;
            let r = self.runs.binary_search_by_key(&high, |&(h, _)| h).ok()?;
            let end = self.runs.get(r + 1).map_or(self.lo.len(), |&(_, s)| s as usize);
            lo = lo.max(self.runs[r].1 as usize);
            hi = hi.min(end);
        } else if v >> 32 != 0 {
            return None;
        }
        let i = self.lo.get(lo..hi)?.binary_search(&(v as u32)).ok()?;
        Some((lo + i) as u32)
    }
}

/// The rank table of values below 2^32 in ascending order: entry `e` holds, in its low 32 bits,
/// a bit for each value from `32 × e` up that is present, and in its high 32 bits the number of
/// values below `32 × e`. A value's node is then that number plus the bits set below its own.
struct Ranks(Vec<u64>);

impl Ranks {
    /// Whether a table for `len` values up to `last` is no larger than the values themselves
    /// (4 bytes each): on average at most 16 possible values to one present.
    fn fits(len: usize, last: u64) -> bool {
        (last / 32 + 1) * 2 <= len as u64
    }

    /// The table over `lo`, made in runs of entries on every core, each run's first position
    /// found by a binary search.
    fn of(lo: &[u32]) -> Ranks {
        use rayon::prelude::*;
        const RUN: usize = 1 << 16;
        let entries = lo.last().map_or(0, |&last| last as usize / 32 + 1);
        let mut table = vec![0u64; entries];
        table.par_chunks_mut(RUN).enumerate().for_each(|(k, run)| {
            let first = (k * RUN * 32) as u64;
            let mut pos = lo.partition_point(|&v| u64::from(v) < first);
            for (i, slot) in run.iter_mut().enumerate() {
                let start = first + 32 * i as u64;
                let below = pos as u64;
                let mut bits = 0u32;
                while let Some(&v) = lo.get(pos).filter(|&&v| u64::from(v) < start + 32) {
                    bits |= 1 << (u64::from(v) - start);
                    pos += 1;
                }
                *slot = below << 32 | u64::from(bits);
            }
        });
        Ranks(table)
    }

    /// The position of value `v`, if present.
    #[inline]
    fn rank(&self, v: u64) -> Option<u32> {
        let entry = *self.0.get(usize::try_from(v / 32).ok()?)?;
        let bit = 1u32 << (v % 32);
        let bits = entry as u32;
        if bits & bit == 0 {
            return None;
        }
        Some((entry >> 32) as u32 + (bits & (bit - 1)).count_ones())
    }
}

/// One sampled id per this many nodes once the map is let go ([`Ids::thin`]).
pub(crate) const SAMPLE: usize = 32;

/// The ids of an index's objects: the whole map while the index is built, a sample of it after.
///
/// Once the second pass has turned every reference into a node, nothing but a few dozen JSON
/// fields and a lookup or two asks for an id again in an analysis: the map's 4.75 bytes an
/// object sat unread through the dominator tree's peak (276 MB of the dump of lists). Each id
/// is in the dump anyway, as the first field of its object's record. So the analysis lets the
/// map go ([`Ids::thin`]) and keeps every [`SAMPLE`]th id (a quarter of a byte an object): an id
/// is then read from its record, and a node found by a search of the samples and then of the
/// records of one stretch of nodes. Whoever reads ids in bulk (an export, SQL) has the map
/// made again from the records first ([`crate::Index::id_map`]).
pub(crate) struct Ids {
    map: std::sync::OnceLock<IdMap>,
    len: usize,
    /// The ids of nodes 0, `SAMPLE`, 2 × `SAMPLE`… while the map is let go.
    samples: Vec<u64>,
    /// What the map is made again with: `IdMap::parts` less the values.
    min: u64,
    pack: u32,
    runs: Vec<(u32, u32)>,
}

impl Ids {
    /// The ids of a map, kept whole.
    pub(crate) fn whole(map: IdMap) -> Ids {
        let (len, min, pack, runs) = (map.len(), map.min, map.pack, map.runs.clone());
        Ids { map: std::sync::OnceLock::from(map), len, samples: Vec::new(), min, pack, runs }
    }

    /// Number of ids.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The whole map, when it is at hand.
    #[inline]
    pub(crate) fn map(&self) -> Option<&IdMap> {
        self.map.get()
    }

    /// Lets the map go, keeping every [`SAMPLE`]th id.
    pub(crate) fn thin(&mut self) {
        let Some(map) = self.map.take() else { return };
        self.samples = (0..self.len).step_by(SAMPLE).map(|i| map.id(i as u32)).collect();
    }

    /// The nodes among which `id` lies, if it is anywhere: the stretch of [`SAMPLE`] nodes from
    /// the last sample at or below it.
    pub(crate) fn stretch_of(&self, id: u64) -> Option<std::ops::Range<usize>> {
        let k = self.samples.partition_point(|&s| s <= id).checked_sub(1)?;
        Some(k * SAMPLE..((k + 1) * SAMPLE).min(self.len))
    }

    /// The map made again from every id in order (`id_at` gives node `i`'s, read from its record
    /// at `record_at(i)`), 65,536 ids at a time on every core; `release` is given the stretches
    /// of the dump read behind them (see [`super::Behind`]).
    pub(crate) fn rebuild(
        &self,
        id_at: impl Fn(usize) -> u64 + Sync,
        record_at: impl Fn(usize) -> u64 + Sync,
        release: impl Fn(std::ops::Range<usize>) + Sync,
    ) -> &IdMap {
        self.map.get_or_init(|| {
            let _span = crate::trace::span("index: ids again");
            use rayon::prelude::*;
            const CHUNK: usize = 1 << 16;
            let mut lo = vec![0u32; self.len];
            lo.par_chunks_mut(CHUNK).enumerate().for_each(|(k, out)| {
                let from = k * CHUNK;
                let mut behind = super::Behind::new(record_at(from));
                for (i, v) in out.iter_mut().enumerate() {
                    if let Some(read) = behind.note(record_at(from + i)) {
                        release(read);
                    }
                    *v = (id_at(from + i).wrapping_sub(self.min) >> self.pack) as u32;
                }
                behind.finish().for_each(&release);
            });
            IdMap::from_packed(lo.into(), self.runs.clone(), self.min, self.pack)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the map `IdMap::new` makes, and the same values with each table that can hold
    /// them.
    fn check(ids: Vec<u64>, absent: &[u64], runs: usize) {
        let m = IdMap::new(ids.clone());
        check_map(&m, &ids, absent, runs);
        let (min, pack, lo, runs_of) = m.parts();
        // A rank table for values up to 2^32 would take 1 GB: only for smaller spans here.
        let small = runs_of.len() == 1 && lo.last().is_some_and(|&v| v < 1 << 26);
        for ranks in [false, true].into_iter().filter(|&r| !r || small) {
            let other = IdMap::with_lookup(lo.to_vec().into(), runs_of.to_vec(), min, pack, ranks);
            check_map(&other, &ids, absent, runs);
        }
    }

    fn check_map(m: &IdMap, ids: &[u64], absent: &[u64], runs: usize) {
        assert_eq!(m.runs(), runs, "{ids:x?}");
        assert_eq!(m.len(), ids.len());
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(m.node(*id), Some(i as u32), "{id:#x}");
            assert_eq!(m.id(i as u32), *id);
        }
        assert_eq!(m.ids().collect::<Vec<_>>(), ids);
        for id in absent {
            assert_eq!(m.node(*id), None, "{id:#x}");
        }
    }

    #[test]
    fn finds_every_id_and_rejects_others() {
        // Scattered over 2^40 bytes at 8-byte alignment: 2^37 units, more than 32 bits hold.
        check(vec![8, 16, 24, 1000, 1008, 1 << 40, (1 << 40) + 8], &[0, 7, 9, 999, 1 << 39, u64::MAX], 3);
        // Runs of ids 2^35 bytes apart, as in a dump larger than 32 GB: every one found through
        // its run, ids between runs and in runs that are not there absent.
        let runs: Vec<u64> =
            (0..5u64).flat_map(|r| (0..300u64).map(move |i| 0x1000 + r * (3 << 35) + i * 16)).collect();
        check(runs, &[0x1000 + (1 << 35), 0x1000 + (3 << 35) + 8, 0x1000 + 15 * (1 << 35), u64::MAX], 5);
        // Aligned far above 8 bytes: stored as small values, one run.
        check(vec![0, 1 << 40, 2 << 40, 7 << 40], &[1 << 39, 3 << 40, 8], 1);
        // A heap's addresses: 8-aligned within 32 GB of the lowest, packed.
        let base = 0x6_0000_0000u64;
        let heap: Vec<u64> = (0..1000u64).map(|i| base + i * 24 + (i % 3) * 8).collect();
        check(heap, &[base - 8, base + 4, base + 1000 * 32, u64::MAX, 0], 1);
        // 4-byte ids (Android), any alignment.
        check(vec![0x12c0_0001, 0x12c0_0003, 0x12c0_0010, 0xffff_fff0], &[0x12c0_0002, 0, 0x12c0_0000], 1);
        // Enough ids for several runs of buckets (the table is made in runs of 65,536 on
        // every core), with gaps of every size: bursts of neighbours, and stretches a run of
        // buckets long with no id at all.
        let mut next = 0x1000u64;
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let spread: Vec<u64> = (0..1_000_000)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                next += match i % 100_000 {
                    0 => 8 << 20,
                    _ => 8 * (1 + x % 16),
                };
                next
            })
            .collect();
        let gaps: Vec<u64> = spread.windows(2).filter(|w| w[1] - w[0] > 8).map(|w| w[0] + 8).take(1000).collect();
        check(spread, &gaps, 1);
        // One id, and none.
        check(vec![42], &[0, 41, 43], 1);
        assert_eq!(IdMap::new(vec![]).node(5), None);
        assert_eq!(IdMap::new(vec![]).len(), 0);
    }

    /// Ids a few words apart, as a heap's addresses are, are looked up in the rank table; ids
    /// spread wider, or over more than 2^32 units, in the buckets.
    #[test]
    fn dense_ids_are_ranked_and_sparse_ones_bucketed() {
        let base = 0x6_0000_0000u64;
        let dense: Vec<u64> = (0..1000u64).map(|i| base + i * 24 + (i % 2) * 8).collect();
        assert!(IdMap::new(dense).ranks.is_some());
        // 20 units of 8 bytes apart on average: a table larger than the ids' 4 bytes each.
        let sparse: Vec<u64> = (0..1000u64).map(|i| base + i * 160 + (i % 2) * 8).collect();
        assert!(IdMap::new(sparse).ranks.is_none());
        let mut runs: Vec<u64> = (0..1000u64).map(|i| base + (i % 2) * (1 << 40) + i * 8).collect();
        runs.sort_unstable();
        assert!(IdMap::new(runs).ranks.is_none());
    }

    /// The parts of a map make the same map again; parts that are not ids in ascending order
    /// (as a damaged cache file could hold) make none.
    #[test]
    fn parts_make_the_map_again_and_bad_parts_none() {
        let ids = vec![8, 16, 24, 1000, 1 << 40, (1 << 40) + 8, 3 << 40];
        let m = IdMap::new(ids.clone());
        let (min, pack, lo, runs) = m.parts();
        let again = IdMap::from_parts(min, pack, lo.to_vec().into(), runs.to_vec()).unwrap();
        assert_eq!(again.ids().collect::<Vec<_>>(), ids);
        assert_eq!(again.node(1 << 40), Some(4));
        assert_eq!(again.node(1 << 39), None);
        let rebuilt = |lo: Vec<u32>, runs: Vec<(u32, u32)>| IdMap::from_parts(min, pack, lo.into(), runs).is_some();
        let (lo, runs) = (lo.to_vec(), runs.to_vec());
        assert!(rebuilt(lo.clone(), runs.clone()));
        let mut down = lo.clone();
        down.swap(1, 2);
        assert!(!rebuilt(down, runs.clone()), "values going down within a run");
        let mut twice = lo.clone();
        twice[2] = twice[1];
        assert!(!rebuilt(twice, runs.clone()), "a value twice");
        let mut late = runs.clone();
        late[0].1 = 1;
        assert!(!rebuilt(lo.clone(), late), "the first run not at 0");
        let mut high = runs.clone();
        high[0].0 = 1;
        assert!(!rebuilt(lo.clone(), high), "the first run above 0");
        let mut above = lo.clone();
        above[0] = 1;
        assert!(!rebuilt(above, runs.clone()), "the lowest value not the lowest id");
        let mut order = runs.clone();
        order.swap(1, 2);
        assert!(!rebuilt(lo.clone(), order), "runs out of order");
        let mut past = runs.clone();
        past[2].1 = lo.len() as u32;
        assert!(!rebuilt(lo.clone(), past), "a run past the end");
        assert!(IdMap::from_parts(u64::MAX - 8, pack, lo.clone().into(), runs.clone()).is_none(), "ids past 2^64");
        assert!(IdMap::from_parts(min, 64, lo.clone().into(), runs.clone()).is_none(), "a shift of 64");
        assert!(IdMap::from_parts(min, pack, lo.into(), Vec::new()).is_none(), "no runs");
        assert_eq!(IdMap::from_parts(0, 0, Slab::default(), Vec::new()).unwrap().len(), 0);
    }
}
