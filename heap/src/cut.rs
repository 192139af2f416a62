//! Lists cut or grouped into consecutive parts, for the cores to fill or sort apart.

/// `items` grouped by `group` (below `groups`), each group's in the order they come, and where
/// each group starts (`groups + 1` entries): a count, then a fill.
pub(crate) fn grouped<T: Copy + Default>(
    items: impl Iterator<Item = T> + Clone,
    groups: usize,
    group: impl Fn(T) -> usize,
) -> (Vec<T>, Vec<u32>) {
    let mut starts = vec![0u32; groups + 1];
    for x in items.clone() {
        starts[group(x) + 1] += 1;
    }
    for g in 1..=groups {
        starts[g] += starts[g - 1];
    }
    let mut placed = vec![T::default(); starts[groups] as usize];
    let mut next = starts.clone();
    for x in items {
        let slot = &mut next[group(x)];
        placed[*slot as usize] = x;
        *slot += 1;
    }
    (placed, starts)
}

/// `s` cut into consecutive parts of `lengths`, in order; what the lengths leave at the end
/// is not among them. The lengths must not add up to more than `s` holds.
pub(crate) fn by_lengths<T>(s: &mut [T], lengths: impl IntoIterator<Item = usize>) -> Vec<&mut [T]> {
    let mut rest = s;
    lengths
        .into_iter()
        .map(|len| {
            let (part, after) = std::mem::take(&mut rest).split_at_mut(len);
            rest = after;
            part
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn groups_keep_their_items_in_order() {
        let (placed, starts) = super::grouped([5u32, 2, 7, 4, 1].into_iter(), 3, |x| x as usize % 3);
        assert_eq!(placed, [7, 4, 1, 5, 2]);
        assert_eq!(starts, [0, 0, 3, 5]);
    }

    #[test]
    fn parts_follow_one_another() {
        let mut v: Vec<u32> = (0..10).collect();
        let parts = super::by_lengths(&mut v, [3, 0, 4]);
        assert_eq!(parts.iter().map(|p| p.to_vec()).collect::<Vec<_>>(), [vec![0, 1, 2], vec![], vec![3, 4, 5, 6]]);
        assert!(super::by_lengths(&mut [] as &mut [u8], [0, 0]).iter().all(|p| p.is_empty()));
    }
}
