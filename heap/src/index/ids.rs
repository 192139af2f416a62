//! Object identifiers mapped to dense node numbers.
//!
//! Ids are sorted, so a node number is a position in the id list. Lookups go through a bucket
//! table over the id range (one `u32` per bucket, a bucket per four to eight objects), then a
//! binary search over the few ids of one bucket, which share a cache line or two: two or three
//! cache misses instead of the twenty-odd of a plain binary search over millions of ids. (A bucket
//! per object was no faster and took another 4 bytes per object.)
//!
//! The list is packed to 32 bits when it can be: ids are addresses, aligned, and a heap spans
//! less than 2^32 alignment units above its lowest object (32 GB at 8-byte alignment), so an id
//! is kept as `(id - min) >> shift`. Half the memory of 64-bit ids; dumps that do not fit (ids
//! scattered over the address space) keep them whole.

/// Sorted object ids with a bucket table for fast id → node lookups.
pub struct IdMap {
    ids: Ids,
    buckets: Vec<u32>,
    /// The lowest id; ids are stored relative to it.
    min: u64,
    /// Packed ids are `(id - min) >> pack`.
    pack: u32,
    /// Bucket of a stored value: `value >> shift`.
    shift: u32,
}

enum Ids {
    Packed(Vec<u32>),
    Whole(Vec<u64>),
}

impl IdMap {
    /// Builds the map over `ids`, which must be sorted and free of duplicates.
    pub fn new(ids: Vec<u64>) -> IdMap {
        IdMap::from_sorted(ids.iter().copied())
    }

    /// Builds the map over `ids`, which must be sorted and free of duplicates; read twice over
    /// (the highest id and the alignment, then the values), so the caller need not gather them
    /// into a list of its own.
    pub fn from_sorted(ids: impl ExactSizeIterator<Item = u64> + Clone) -> IdMap {
        let Some(min) = ids.clone().next() else {
            return IdMap { ids: Ids::Whole(Vec::new()), buckets: vec![0, 0], min: 0, pack: 0, shift: 63 };
        };
        // The highest, and the alignment all ids share above the lowest (the low bits every
        // offset leaves zero).
        let (max, common) = ids.clone().fold((min, 0u64), |(_, acc), id| (id, acc | (id - min)));
        let pack = if common == 0 { 0 } else { common.trailing_zeros().min(32) };
        let span = (max - min) >> pack;
        let (ids, span) = if span <= u64::from(u32::MAX) {
            (Ids::Packed(ids.map(|id| ((id - min) >> pack) as u32).collect()), span)
        } else {
            (Ids::Whole(ids.map(|id| id - min).collect()), max - min)
        };
        let pack = if matches!(ids, Ids::Packed(_)) { pack } else { 0 };
        let len = match &ids {
            Ids::Packed(v) => v.len(),
            Ids::Whole(v) => v.len(),
        };
        let target = (len as u64 / 4).max(1);
        let mut shift = 0u32;
        while shift < 63 && (span >> shift) > target {
            shift += 1;
        }
        let n_buckets = ((span >> shift) + 2) as usize;
        let mut buckets = vec![0u32; n_buckets + 1];
        // buckets[b] = first position whose value falls in bucket b or later.
        let mut map = IdMap { ids, buckets: Vec::new(), min, pack, shift };
        let mut pos = 0usize;
        for (b, slot) in buckets.iter_mut().enumerate() {
            while pos < len && (map.value(pos) >> shift) < b as u64 {
                pos += 1;
            }
            *slot = pos as u32;
        }
        map.buckets = buckets;
        map
    }

    /// The stored value at position `i`: `(id - min) >> pack`.
    #[inline]
    fn value(&self, i: usize) -> u64 {
        match &self.ids {
            Ids::Packed(v) => u64::from(v[i]),
            Ids::Whole(v) => v[i],
        }
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        match &self.ids {
            Ids::Packed(v) => v.len(),
            Ids::Whole(v) => v.len(),
        }
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

    /// Bytes the id list takes (4 or 8 per object).
    pub fn bytes_per_id(&self) -> usize {
        match &self.ids {
            Ids::Packed(_) => 4,
            Ids::Whole(_) => 8,
        }
    }

    /// The node of `id`, if the dump holds that object.
    #[inline]
    pub fn node(&self, id: u64) -> Option<u32> {
        let off = id.checked_sub(self.min)?;
        if off & ((1u64 << self.pack) - 1) != 0 {
            return None;
        }
        let v = off >> self.pack;
        let b = (v >> self.shift) as usize;
        let lo = *self.buckets.get(b)? as usize;
        let hi = *self.buckets.get(b + 1)? as usize;
        match &self.ids {
            Ids::Packed(ids) => {
                let v = u32::try_from(v).ok()?;
                ids.get(lo..hi)?.binary_search(&v).ok().map(|i| (lo + i) as u32)
            }
            Ids::Whole(ids) => ids.get(lo..hi)?.binary_search(&v).ok().map(|i| (lo + i) as u32),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(ids: Vec<u64>, absent: &[u64], per_id: usize) {
        let m = IdMap::new(ids.clone());
        assert_eq!(m.bytes_per_id(), per_id, "{ids:x?}");
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
        check(vec![8, 16, 24, 1000, 1008, 1 << 40, (1 << 40) + 8], &[0, 7, 9, 999, 1 << 39, u64::MAX], 8);
        // A heap's addresses: 8-aligned within 32 GB of the lowest, packed.
        let base = 0x6_0000_0000u64;
        let heap: Vec<u64> = (0..1000u64).map(|i| base + i * 24 + (i % 3) * 8).collect();
        check(heap, &[base - 8, base + 4, base + 1000 * 32, u64::MAX, 0], 4);
        // 4-byte ids (Android), any alignment.
        check(vec![0x12c0_0001, 0x12c0_0003, 0x12c0_0010, 0xffff_fff0], &[0x12c0_0002, 0, 0x12c0_0000], 4);
        // One id, and none.
        check(vec![42], &[0, 41, 43], 4);
        assert_eq!(IdMap::new(vec![]).node(5), None);
        assert_eq!(IdMap::new(vec![]).len(), 0);
    }
}
