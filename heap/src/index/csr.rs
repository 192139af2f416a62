//! Compressed sparse rows: the outgoing references of every object.

/// Bit set on an edge target when the edge is the `referent` of a `java.lang.ref.Reference`.
pub const WEAK: u32 = 1 << 31;

/// Edges of node `n` are `targets[starts[n]..starts[n + 1]]`; a target may carry [`WEAK`].
#[derive(Default)]
pub struct Csr {
    pub(crate) starts: Vec<u32>,
    pub(crate) targets: Vec<u32>,
}

impl Csr {
    /// Raw edges of `n` (targets may carry the [`WEAK`] bit).
    #[inline]
    pub fn edges(&self, n: u32) -> &[u32] {
        let a = self.starts[n as usize] as usize;
        let b = self.starts[n as usize + 1] as usize;
        &self.targets[a..b]
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
