//! Strings whose characters may be the same: the second pass hashes each String's characters
//! ([`StringHashes`]); the analysis turns the hashes into the runs of Strings sharing a hash
//! ([`StringCopies`]) while the dominator tree is built; the duplicate strings report reads the
//! runs. The hashing and the runs are the index's; what counts as waste is the report's.

use crate::hprof::BasicType;
use crate::index::classes::ClassId;

/// The Strings' hashes as the second pass made them, or already turned into the Strings that
/// may be copies of one another.
pub(crate) enum HashedStrings {
    PerString(StringHashes),
    Copies(StringCopies),
}

/// The Strings of `class` that may be copies of one another, from their [`StringHashes`]: the
/// runs of two or more Strings whose characters hash the same, each run's Strings ordered by
/// their array, then by node. Which of them are strongly reachable is not known yet (see
/// `Index::find_string_copies`).
pub(crate) struct StringCopies {
    pub(crate) class: ClassId,
    /// The runs' Strings, one run after another, each with its array: `array << 32 | node`
    /// (the low half of its key, what the report reads a copy by).
    pub(crate) nodes: Vec<u64>,
    /// Where each run ends in `nodes`.
    pub(crate) runs: Vec<u32>,
}

/// Every String's characters hashed by the second pass: for each instance of `class`, in node
/// order, the 64-bit XXH3 of its array's bytes (seeded with the element type's code), or
/// [`StringHashes::NONE`] when it has no array with data.
pub(crate) struct StringHashes {
    pub(crate) class: ClassId,
    pub(crate) hashes: Vec<u64>,
}

impl StringHashes {
    /// A String with no value to count. A hash that comes out as this is moved down by one.
    pub(crate) const NONE: u64 = u64::MAX;

    /// The hash the report keys a String's characters by.
    pub(crate) fn of(chars: &[u8], elem: BasicType) -> u64 {
        xxhash_rust::xxh3::xxh3_64_with_seed(chars, u64::from(elem.code())).min(Self::NONE - 1)
    }
}

/// The key of a String that is not counted (weakly reachable, or no value): zero, so a list of
/// keys starts as untouched zeroed pages its writers fault in on every core. No counted
/// String's is zero, as no hash is (one that comes out as zero is counted as one).
pub(crate) const SKIPPED: u128 = 0;

/// A String's key: the hash of its characters, its array, and its node or its place in a list
/// of Strings.
pub(crate) fn key(hash: u64, array: u32, string: u32) -> u128 {
    u128::from(hash.max(1)) << 64 | u128::from(array) << 32 | u128::from(string)
}

/// A String's array in its key.
pub(crate) fn array_of(key: u128) -> u32 {
    (key >> 32) as u32
}

/// The [`StringCopies`] of `hashed`, for a graph of `objects` objects whose classes `class_of`
/// gives and whose first edges (weak mark cleared) `first_edge` gives; `None` when its Strings
/// are not the graph's instances of its class.
///
/// The keys go straight into buckets by their hashes' top bits (one bucket below 4,096
/// Strings; then 2,048 to 4,096 keys a bucket, up to 512 buckets), and in each bucket, on
/// every core, a table in the core's cache finds the keys whose hash is there more than once;
/// those alone are sorted and kept. Each bucket fills its own stretch of the keys, a stream of
/// writes to a page of its own: with 16,384 buckets the streams' pages were more than the
/// processor's TLB holds, a miss for nearly every key (keys 0.31 s on a dump of 14.6 M
/// Strings, 0.21 s with 512 buckets, whose tables are then 0.01 s slower to probe). Most
/// Strings are one of a kind (11 M of 14.6 M on a dump of long lists), so what is kept is a
/// fraction of the keys.
pub(super) fn copies_of(
    hashed: StringHashes,
    objects: u32,
    class_of: impl Fn(u32) -> ClassId,
    first_edge: impl Fn(u32) -> Option<u32>,
) -> Option<StringCopies> {
    use rayon::prelude::*;
    let _span = crate::trace::span("duplicate strings: copies");
    let StringHashes { class, hashes } = hashed;
    let bits = (usize::BITS - (hashes.len() >> 12).leading_zeros()).min(9);
    let bucket = |h: u64| h.checked_shr(64 - bits).unwrap_or(0) as usize;
    let mut ends = vec![0usize; 1 << bits];
    for &h in hashes.iter().filter(|&&h| h != StringHashes::NONE) {
        ends[bucket(h.max(1))] += 1;
    }
    let mut next = Vec::with_capacity(ends.len());
    let mut sum = 0;
    for e in &mut ends {
        next.push(sum);
        sum += *e;
        *e = sum;
    }
    let span = crate::trace::span("copies: keys");
    let mut keys = vec![SKIPPED; sum];
    // A String with a value and no first edge (which the second pass does not make) keeps its
    // slot as `SKIPPED`, which the tables leave out.
    let mut strings = hashes.iter();
    for v in 0..objects {
        if class_of(v) != class {
            continue;
        }
        let &h = strings.next()?;
        if h == StringHashes::NONE {
            continue;
        }
        let b = bucket(h.max(1));
        if let Some(t) = first_edge(v) {
            keys[next[b]] = key(h, t, v);
        }
        next[b] += 1;
    }
    if strings.next().is_some() {
        return None;
    }
    drop(hashes);
    drop(span);
    let span = crate::trace::span("copies: shared");
    let buckets =
        crate::cut::by_lengths(&mut keys, ends.iter().scan(0, |start, &end| Some(end - std::mem::replace(start, end))));
    let shared: Vec<usize> = buckets.into_par_iter().map_init(Table::default, |t, b| t.shared_first(b)).collect();
    drop(span);
    let _span = crate::trace::span("copies: compact");
    // Each bucket's runs, as the Strings' nodes in the keys' order (by array within a value),
    // and where each run ends: 4 bytes a String and a run instead of 16.
    let (mut nodes, mut runs) = (Vec::new(), Vec::new());
    let mut start = 0;
    for (&end, &n) in ends.iter().zip(&shared) {
        for run in keys[start..start + n].chunk_by(|a, b| a >> 64 == b >> 64) {
            nodes.extend(run.iter().map(|&k| k as u64));
            runs.push(nodes.len() as u32);
        }
        start = end;
    }
    drop(keys);
    Some(StringCopies { class, nodes, runs })
}

/// A table of the hashes in one bucket of keys, and whether each was seen more than once: one
/// probe a key in the core's cache, where a sort of the bucket took a dozen comparisons.
#[derive(Default)]
struct Table {
    hashes: Vec<u64>,
    twice: Vec<bool>,
}

impl Table {
    /// Moves the keys of `bucket` whose hash it holds more than once to its front, sorted, and
    /// gives their count. Keys of hash 0 (`SKIPPED`) are left out.
    fn shared_first(&mut self, bucket: &mut [u128]) -> usize {
        // At most half full, so a probe ends in a step or two. The low bits of a hash pick its
        // slot (its top bits are the bucket's).
        let size = (2 * bucket.len()).next_power_of_two().max(16);
        self.hashes.clear();
        self.hashes.resize(size, 0);
        self.twice.clear();
        self.twice.resize(size, false);
        let hash = |k: u128| (k >> 64) as u64;
        let slot = |hashes: &[u64], h: u64| {
            let mut i = h as usize & (size - 1);
            while hashes[i] != 0 && hashes[i] != h {
                i = (i + 1) & (size - 1);
            }
            i
        };
        for &k in bucket.iter().filter(|&&k| hash(k) != 0) {
            let i = slot(&self.hashes, hash(k));
            self.twice[i] = self.hashes[i] != 0;
            self.hashes[i] = hash(k);
        }
        let mut n = 0;
        for at in 0..bucket.len() {
            let h = hash(bucket[at]);
            if h != 0 && self.twice[slot(&self.hashes, h)] {
                bucket.swap(n, at);
                n += 1;
            }
        }
        bucket[..n].sort_unstable();
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys a bucket's table keeps are those of the hashes it holds more than once, in
    /// order, as sorting the whole bucket and keeping its runs of two or more finds them;
    /// `SKIPPED` keys are left out.
    #[test]
    fn a_bucket_keeps_the_runs_a_sort_would() {
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        let mut table = Table::default();
        for len in [0usize, 1, 2, 7, 100, 5000] {
            // Few values, so that most hashes come more than once; some keys `SKIPPED`.
            let mut bucket: Vec<u128> = (0..len)
                .map(|i| match next() % 11 {
                    0 => SKIPPED,
                    _ => key(next() % (len as u64 / 3 + 1) + 1, (next() % 5) as u32, i as u32),
                })
                .collect();
            let mut sorted = bucket.clone();
            sorted.sort_unstable();
            let expected: Vec<u128> = sorted
                .chunk_by(|a, b| a >> 64 == b >> 64)
                .filter(|run| run.len() > 1 && run[0] >> 64 != 0)
                .flatten()
                .copied()
                .collect();
            let n = table.shared_first(&mut bucket);
            assert_eq!(&bucket[..n], &expected[..], "{len} keys");
        }
    }
}
