//! Read-only arrays that live either in memory or where they lie in a mapped index-cache file.
//!
//! Re-opening a dump from its index cache used to copy every array of the file into fresh
//! memory. On a 1.6 GB cache that copy took 0.65–0.73 s, most of it the kernel finding and
//! zeroing pages for the copy while the file's own pages sat in the page cache. A [`Slab`] over
//! the mapped file uses those pages as they are: the re-open costs the checksum's one pass over
//! them, and the machine holds the arrays once instead of twice.
//!
//! The engine's own arrays become slabs when they are complete, so the code that reads them
//! cannot tell the two apart.

use std::any::Any;
use std::ops::Deref;
use std::sync::Arc;

/// A read-only array of plain values: a vector the engine built, or a stretch of a mapped
/// file. Cloning one shares it.
pub struct Slab<T> {
    /// The first element, inside what `owner` keeps alive; aligned, and dangling only when
    /// `len` is 0.
    ptr: *const T,
    len: usize,
    /// The `Vec<T>` or the `memmap2::Mmap` the elements live in (or, for 16-bit values
    /// narrowed where they stood, the `Vec<u32>` they were written over: [`Slab::over_front`]).
    /// None of them moves its elements while it lives, nor is written through again once a
    /// slab is made.
    owner: Arc<dyn Any + Send + Sync>,
}

// SAFETY: a slab only ever reads its elements, and its owner is `Send + Sync`.
unsafe impl<T: Sync> Send for Slab<T> {}
// SAFETY: as above; `&Slab<T>` hands out only `&[T]`.
unsafe impl<T: Sync> Sync for Slab<T> {}

impl<T: bytemuck::Pod + Send + Sync> Slab<T> {
    /// The elements of `bytes`, a stretch of `map` (which must hold it), used in place; `None`
    /// unless the stretch is aligned for `T` and a whole number of elements long.
    ///
    /// The map must be of a file nobody writes to while it is mapped: the index cache's files
    /// are written once under a temporary name in a directory only their owner can enter,
    /// then renamed, and never written in place. (A write would change values, never make
    /// one invalid: any bit pattern is a valid `T`.)
    pub(crate) fn mapped(map: &Arc<memmap2::Mmap>, bytes: &[u8]) -> Option<Slab<T>> {
        let whole = map.as_ptr_range();
        let inside = whole.start <= bytes.as_ptr() && bytes.as_ptr_range().end <= whole.end;
        let elems: &[T] = bytemuck::try_cast_slice(bytes).ok()?;
        inside.then(|| Slab { ptr: elems.as_ptr(), len: elems.len(), owner: map.clone() })
    }

    /// The elements as a vector of their own: taken back when this slab owns a vector nobody
    /// shares, copied otherwise.
    pub fn into_vec(self) -> Vec<T> {
        let Slab { ptr, len, owner } = self;
        match owner.downcast::<Vec<T>>().map(Arc::try_unwrap) {
            Ok(Ok(v)) => v,
            // SAFETY: `owner` still lives and keeps `ptr..ptr + len` as it was.
            _ => unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec(),
        }
    }
}

impl<T> Deref for Slab<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` and `len` describe elements inside `owner`, which lives as long as
        // `self` and never moves or writes them (see the fields).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<'a, T> IntoIterator for &'a Slab<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> std::slice::Iter<'a, T> {
        self.iter()
    }
}

impl<T: Send + Sync + 'static> From<Vec<T>> for Slab<T> {
    fn from(v: Vec<T>) -> Slab<T> {
        let (ptr, len) = (v.as_ptr(), v.len());
        Slab { ptr, len, owner: Arc::new(v) }
    }
}

impl Slab<u16> {
    /// The first `len` 16-bit values laid over the front of `v` (a list of 32-bit values
    /// narrowed where it stands), the rest of `v`'s memory given back. `len` is at most twice
    /// `v`'s length.
    pub(crate) fn over_front(mut v: Vec<u32>, len: usize) -> Slab<u16> {
        let len = len.min(2 * v.len());
        v.truncate(len.div_ceil(2));
        v.shrink_to_fit();
        let halves: &[u16] = bytemuck::cast_slice(&v);
        let ptr = halves.as_ptr();
        Slab { ptr, len, owner: Arc::new(v) }
    }
}

impl<T: Send + Sync + 'static> FromIterator<T> for Slab<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Slab<T> {
        Slab::from(iter.into_iter().collect::<Vec<T>>())
    }
}

impl<T: Send + Sync + 'static> Default for Slab<T> {
    fn default() -> Slab<T> {
        Slab::from(Vec::new())
    }
}

impl<T> Clone for Slab<T> {
    fn clone(&self) -> Slab<T> {
        Slab { ptr: self.ptr, len: self.len, owner: self.owner.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_slabs_give_their_vector_back_and_shared_ones_copy() {
        let v = vec![1u32, 2, 3];
        let at = v.as_ptr();
        let s = Slab::from(v);
        assert_eq!(&s[..], [1, 2, 3]);
        let back = s.into_vec();
        assert_eq!(back.as_ptr(), at, "taken back, not copied");
        let s = Slab::from(back);
        let shared = s.clone();
        let copy = s.into_vec();
        assert_ne!(copy.as_ptr(), shared.as_ptr());
        assert_eq!(copy, [1, 2, 3]);
    }

    #[test]
    fn mapped_slabs_refuse_misaligned_and_foreign_stretches() {
        let mut f = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut f, &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0]).unwrap();
        // SAFETY: a private temporary file nothing else writes.
        let map = Arc::new(unsafe { memmap2::Mmap::map(&f) }.unwrap());
        let s = Slab::<u32>::mapped(&map, &map[..8]).unwrap();
        assert_eq!(&s[..], [1, 2]);
        drop(map);
        assert_eq!(&s[..], [1, 2], "the slab keeps the map alive");
        let map = Arc::new(unsafe { memmap2::Mmap::map(&f) }.unwrap());
        assert!(Slab::<u32>::mapped(&map, &map[1..5]).is_none(), "misaligned");
        assert!(Slab::<u32>::mapped(&map, &map[..6]).is_none(), "not whole elements");
        let elsewhere = [0u8; 8];
        assert!(Slab::<u8>::mapped(&map, &elsewhere).is_none(), "not in the map");
    }
}
