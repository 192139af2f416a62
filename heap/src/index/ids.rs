//! Object identifiers mapped to dense node numbers.
//!
//! Ids are sorted, so a node number is a position in `ids`. Lookups go through a bucket table over
//! the id range (one `u32` per bucket, about one bucket per object), then a short binary search:
//! two cache misses instead of the twenty-odd of a plain binary search over millions of ids.

/// Sorted object ids with a bucket table for fast id → node lookups.
pub struct IdMap {
    pub(crate) ids: Vec<u64>,
    buckets: Vec<u32>,
    min: u64,
    shift: u32,
}

impl IdMap {
    /// Builds the map over `ids`, which must be sorted and free of duplicates.
    pub fn new(ids: Vec<u64>) -> IdMap {
        let (min, max) = match (ids.first(), ids.last()) {
            (Some(&a), Some(&b)) => (a, b),
            _ => return IdMap { ids, buckets: vec![0, 0], min: 0, shift: 63 },
        };
        let span = max - min;
        let target = (ids.len() as u64).max(1);
        let mut shift = 0u32;
        while shift < 63 && (span >> shift) > target {
            shift += 1;
        }
        let n_buckets = ((span >> shift) + 2) as usize;
        let mut buckets = vec![0u32; n_buckets + 1];
        // buckets[b] = first position whose id falls in bucket b or later.
        let mut pos = 0usize;
        for (b, slot) in buckets.iter_mut().enumerate() {
            while pos < ids.len() && ((ids[pos] - min) >> shift) < b as u64 {
                pos += 1;
            }
            *slot = pos as u32;
        }
        IdMap { ids, buckets, min, shift }
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether there are no ids.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The id of node `n`.
    #[inline]
    pub fn id(&self, n: u32) -> u64 {
        self.ids[n as usize]
    }

    /// All ids, sorted.
    pub fn ids(&self) -> &[u64] {
        &self.ids
    }

    /// The node of `id`, if the dump holds that object.
    #[inline]
    pub fn node(&self, id: u64) -> Option<u32> {
        if id < self.min {
            return None;
        }
        let b = ((id - self.min) >> self.shift) as usize;
        let lo = *self.buckets.get(b)? as usize;
        let hi = *self.buckets.get(b + 1)? as usize;
        let slice = self.ids.get(lo..hi)?;
        slice.binary_search(&id).ok().map(|i| (lo + i) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_id_and_rejects_others() {
        let ids: Vec<u64> = vec![8, 16, 24, 1000, 1008, 1 << 40, (1 << 40) + 8];
        let m = IdMap::new(ids.clone());
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(m.node(*id), Some(i as u32));
        }
        for id in [0, 7, 9, 999, 1 << 39, u64::MAX] {
            assert_eq!(m.node(id), None);
        }
        assert_eq!(IdMap::new(vec![]).node(5), None);
    }
}
