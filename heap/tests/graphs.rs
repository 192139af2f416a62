//! The dominator tree against a naive reference on many random graphs: semi-NCA must agree with
//! the textbook definition (iterate Dom(v) = {v} ∪ ⋂ Dom(preds) to a fixed point) everywhere.

mod common;

use common::builder::{Builder, OBJ};
use heap::dominators::{ROOT, UNREACHABLE};
use heap::{Heap, Index, Options};

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const FIELDS: usize = 3;

/// The engine's immediate dominator of the object with this id, in the references' answer form:
/// `None` unreachable, `Some(0)` the virtual root, `Some(i + 1)` the `i`th object (id
/// `0x1000 + 8 i`).
fn idom_of(h: &Heap, object: u32) -> Option<usize> {
    match h.dominators.idom(h.index.node(u64::from(object)).unwrap()) {
        UNREACHABLE => None,
        ROOT => Some(0),
        d => Some((h.index.id(d) as usize - 0x1000) / 8 + 1),
    }
}

/// Immediate dominators by the definition: bitsets of dominators, node 0 the virtual root.
fn naive_idoms(n: usize, edges: &[(usize, usize)], roots: &[usize]) -> Vec<Option<usize>> {
    let total = n + 1;
    let mut preds = vec![Vec::new(); total];
    for &(a, b) in edges {
        preds[b + 1].push(a + 1);
    }
    for &r in roots {
        preds[r + 1].push(0);
    }
    // Reachability from the virtual root.
    let mut reach = vec![false; total];
    reach[0] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for v in 1..total {
            if !reach[v] && preds[v].iter().any(|&p| reach[p]) {
                reach[v] = true;
                changed = true;
            }
        }
    }
    let all: u64 = (1u64 << total) - 1;
    let mut dom: Vec<u64> = (0..total).map(|v| if v == 0 { 1 } else { all }).collect();
    changed = true;
    while changed {
        changed = false;
        for v in 1..total {
            if !reach[v] {
                continue;
            }
            let mut d = all;
            for &p in &preds[v] {
                if reach[p] {
                    d &= dom[p];
                }
            }
            d |= 1 << v;
            if d != dom[v] {
                dom[v] = d;
                changed = true;
            }
        }
    }
    (0..n)
        .map(|i| {
            let v = i + 1;
            if !reach[v] {
                return None;
            }
            // The immediate dominator: the strict dominator with the most dominators of its own.
            (0..total).filter(|&d| d != v && dom[v] & (1 << d) != 0).max_by_key(|&d| dom[d].count_ones())
        })
        .collect()
}

/// A dump with `java.lang.Object` (0x100) and the names of `FIELDS` object fields, which it
/// returns for the classes the test adds.
fn builder() -> (Builder, Vec<(u32, u8)>) {
    let mut b = Builder::new("1.0.2");
    for f in 0..FIELDS as u32 {
        b.string(0x10 + f, &format!("f{f}"));
    }
    b.class(0x100, "java/lang/Object", 0, &[]);
    (b, (0..FIELDS as u32).map(|f| (0x10 + f, OBJ)).collect())
}

/// [`builder`] with three classes `N0`, `N1`, `N2` (ids 0x200, 0x300, 0x400) of its fields.
fn three_classes() -> (Builder, [u32; 3]) {
    let (mut b, fields) = builder();
    let classes = [0x200u32, 0x300, 0x400];
    for (k, &c) in classes.iter().enumerate() {
        b.class(c, &format!("N{k}"), 0x100, &fields);
    }
    (b, classes)
}

#[test]
fn semi_nca_agrees_with_the_definition_on_random_graphs() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..600 {
        let n = 2 + rng.below(40) as usize;
        let (mut b, fields) = builder();
        b.class(0x200, "N", 0x100, &fields);
        let id = |i: usize| 0x1000 + 8 * i as u32;
        let mut edges = Vec::new();
        for i in 0..n {
            let mut vals = [0u32; FIELDS];
            // Two objects in five refer to nothing (leaves: the engine gives them their
            // dominator apart from semi-NCA, as the common ancestor of their referrers).
            let leaf = rng.below(5) < 2;
            for v in vals.iter_mut() {
                if !leaf && rng.below(3) > 0 {
                    let t = rng.below(n as u64) as usize;
                    *v = id(t);
                    edges.push((i, t));
                }
            }
            b.instance(id(i), 0x200, &vals);
        }
        let roots = random_roots(&mut rng, n);
        for &r in &roots {
            b.root(id(r));
        }
        b.root(0x100).root(0x200);
        let index = Index::from_bytes(b.finish(), Options::default()).unwrap();
        let h = Heap::analyse(index, Options::default());
        let expect = naive_idoms(n, &edges, &roots);
        for (i, e) in expect.iter().enumerate() {
            assert_eq!(idom_of(&h, id(i)), *e, "round {round}, node {i}, edges {edges:?}, roots {roots:?}");
        }
        // Retained sizes add up: the virtual root's children retain everything reachable.
        let top: u64 = h.dominators.children(None).iter().map(|&c| h.dominators.retained(c)).sum();
        assert_eq!(top, h.dominators.reachable_bytes);
        // Each object retains the shallow sizes of the objects whose dominators by the
        // definition lead up through it (summed on both cores where the DFS found parts).
        let node = |i: usize| h.index.node(u64::from(id(i))).unwrap();
        let mut want = vec![(0u64, 0u32); n];
        for j in 0..n {
            let mut a = expect[j];
            let size = h.index.shallow_size(node(j));
            if a.is_some() {
                want[j] = (want[j].0 + size, want[j].1 + 1);
            }
            while let Some(d) = a.filter(|&d| d > 0) {
                want[d - 1] = (want[d - 1].0 + size, want[d - 1].1 + 1);
                a = expect[d - 1];
            }
        }
        for (i, w) in want.iter().enumerate() {
            let got = (h.dominators.retained(node(i)), h.dominators.retained_count(node(i)));
            assert_eq!(got, *w, "round {round}, node {i}, edges {edges:?}, roots {roots:?}");
        }
    }
}

/// Retained size by class (what no object of the same class above it in the dominator tree
/// retains already) against the dominator chains walked one object at a time, on random graphs
/// of three classes that nest in one another, with the tree walked in one piece and cut into
/// tasks at every object.
#[test]
fn retained_by_class_agrees_with_the_dominator_chains() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for round in 0..300 {
        let n = 2 + rng.below(300) as usize;
        let (mut b, classes) = three_classes();
        let id = |i: usize| 0x1000 + 8 * i as u32;
        for i in 0..n {
            let mut vals = [0u32; FIELDS];
            for v in vals.iter_mut() {
                // Mostly forward references: deep trees, where classes repeat down the chains.
                if rng.below(4) > 0 {
                    let t = if rng.below(5) > 0 { i + 1 + rng.below(4) as usize } else { rng.below(n as u64) as usize };
                    if t < n {
                        *v = id(t);
                    }
                }
            }
            b.instance(id(i), classes[rng.below(3) as usize], &vals);
        }
        b.root(id(0));
        for i in 1..n {
            if rng.below(20) == 0 {
                b.root(id(i));
            }
        }
        b.root(0x100);
        for &c in &classes {
            b.root(c);
        }
        let index = Index::from_bytes(b.finish(), Options::default()).unwrap();
        let h = Heap::analyse(index, Options::default());
        let expect = retained_by_class_up_the_chains(&h, (0..n).map(|i| u64::from(id(i))));
        for &c in &classes {
            let c = (h.index.class_by_id(u64::from(c)).unwrap()).index();
            assert_eq!(h.histogram[c].retained_bytes, expect[c], "round {round}, class {c}");
        }
        let rows: Vec<u64> = h.histogram.iter().map(|s| s.retained_bytes).collect();
        assert_eq!(h.retained_by_class_in_tasks(1), rows, "round {round}");
        assert_eq!(h.retained_by_class_in_tasks(u64::MAX), rows, "round {round}");
    }
}

/// What each class's instances among `ids` retain where no instance of the class is above them
/// in the dominator tree, each object's chain walked to the root.
fn retained_by_class_up_the_chains(h: &Heap, ids: impl Iterator<Item = u64>) -> Vec<u64> {
    let d = &h.dominators;
    let mut expect = vec![0u64; h.index.classes.len()];
    for id in ids {
        let v = h.index.node(id).unwrap();
        if d.reach(v) != heap::dominators::Reach::Strong {
            continue;
        }
        let c = h.index.class_of(v);
        let mut up = d.idom(v);
        let mut nested = false;
        while up != ROOT && up != UNREACHABLE {
            nested |= h.index.class_of(up) == c && h.index.kind(up) != heap::ObjectKind::Class;
            up = d.idom(up);
        }
        if !nested {
            expect[c.index()] += d.retained(v);
        }
    }
    expect
}

/// The same by class under an array of 70,000 slots, most of them leaves of the tree and some
/// holding a child of their own: children that many are cut into tasks by their number, not
/// their retained counts. The sums are the chains' however the children are cut.
#[test]
fn retained_by_class_under_a_huge_array() {
    let mut rng = Rng(0x5851_F42D_4C95_7F2D);
    let (mut b, classes) = three_classes();
    let n = 70_000usize;
    let slot = |i: usize| 0x10_0000 + 8 * i as u32;
    let child = |i: usize| 0x100_0000 + 8 * i as u32;
    let mut ids = Vec::new();
    for i in 0..n {
        let mut vals = [0u32; FIELDS];
        if i % 7 == 0 {
            vals[0] = child(i);
            b.instance(child(i), classes[rng.below(3) as usize], &[0; FIELDS]);
            ids.push(u64::from(child(i)));
        }
        b.instance(slot(i), classes[rng.below(3) as usize], &vals);
        ids.push(u64::from(slot(i)));
    }
    let mut array = vec![0x22];
    for word in [0x800u32, 0, n as u32, 0x500] {
        array.extend_from_slice(&word.to_be_bytes());
    }
    for i in 0..n {
        array.extend_from_slice(&slot(i).to_be_bytes());
    }
    b.raw(&array);
    b.root(0x800);
    b.root(0x100);
    for &c in &classes {
        b.root(c);
    }
    let h = Heap::analyse(Index::from_bytes(b.finish(), Options::default()).unwrap(), Options::default());
    let array = h.index.node(0x800).unwrap();
    assert_eq!(h.dominators.children(Some(array)).len(), n);
    let expect = retained_by_class_up_the_chains(&h, ids.into_iter());
    for &c in &classes {
        let c = (h.index.class_by_id(u64::from(c)).unwrap()).index();
        assert!(expect[c] > 0);
        assert_eq!(h.histogram[c].retained_bytes, expect[c], "class {c}");
    }
    let rows: Vec<u64> = h.histogram.iter().map(|s| s.retained_bytes).collect();
    for big in [1, 1000, u64::MAX] {
        assert_eq!(h.retained_by_class_in_tasks(big), rows, "tasks of {big} objects");
    }
}

/// A random graph of up to 41 instances of three classes, each field a reference with
/// probability 2/3, instance 0 and about one in six others GC roots.
struct RandomGraph {
    h: Heap,
    n: usize,
    edges: Vec<(usize, usize)>,
    class_of: Vec<usize>,
    roots: Vec<usize>,
    classes: [u32; 3],
}

/// Instance 0 and about one in six of the others, as GC roots.
fn random_roots(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut roots = vec![0];
    for i in 1..n {
        if rng.below(6) == 0 {
            roots.push(i);
        }
    }
    roots
}

/// The id of the `i`th instance of a [`RandomGraph`].
fn id(i: usize) -> u32 {
    0x1000 + 8 * i as u32
}

fn random_graph(rng: &mut Rng) -> RandomGraph {
    let n = 2 + rng.below(40) as usize;
    let (mut b, classes) = three_classes();
    let id = |i: usize| 0x1000 + 8 * i as u32;
    let mut edges = Vec::new();
    let mut class_of = Vec::new();
    for i in 0..n {
        let mut vals = [0u32; FIELDS];
        for v in vals.iter_mut() {
            if rng.below(3) > 0 {
                let t = rng.below(n as u64) as usize;
                *v = id(t);
                edges.push((i, t));
            }
        }
        let k = rng.below(3) as usize;
        class_of.push(k);
        b.instance(id(i), classes[k], &vals);
    }
    let roots = random_roots(rng, n);
    for &r in &roots {
        b.root(id(r));
    }
    b.root(0x100);
    for &c in &classes {
        b.root(c);
    }
    let h = Heap::analyse(Index::from_bytes(b.finish(), Options::default()).unwrap(), Options::default());
    RandomGraph { h, n, edges, class_of, roots, classes }
}

/// The immediate dominators of a class's instances, grouped by class, against the textbook
/// dominators on random graphs of three classes: each group holds exactly the distinct
/// immediate dominators of that class, dominating as many instances as the definition says;
/// instances under the virtual root form the GC roots' group, unreachable ones are counted.
#[test]
fn immediate_dominators_agree_with_the_definition() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for round in 0..300 {
        let RandomGraph { h, n, edges, class_of, roots, classes } = random_graph(&mut rng);
        let expect = naive_idoms(n, &edges, &roots);
        // The set: the instances of the first class.
        let chosen: Vec<usize> = (0..n).filter(|&i| class_of[i] == 0).collect();
        let set: Vec<heap::Node> = chosen.iter().map(|&i| h.index.node(u64::from(id(i))).unwrap()).collect();
        let got = h.immediate_dominators(&set);
        // By the definition: (class index, or 3 for the GC roots) → (distinct dominators, dominated).
        let mut want: std::collections::BTreeMap<usize, (std::collections::BTreeSet<usize>, u64)> = Default::default();
        let mut unreachable = 0;
        for &i in &chosen {
            match expect[i] {
                None => unreachable += 1,
                Some(0) => want.entry(3).or_default().1 += 1,
                Some(d) => {
                    let e = want.entry(class_of[d - 1]).or_default();
                    e.0.insert(d - 1);
                    e.1 += 1;
                }
            }
        }
        let mut have: std::collections::BTreeMap<usize, (std::collections::BTreeSet<usize>, u64)> = Default::default();
        for g in &got.groups {
            let k = match g.class {
                None => 3,
                Some(c) => classes.iter().position(|&x| h.index.class_by_id(u64::from(x)) == Some(c)).unwrap(),
            };
            let doms = g.dominators.iter().map(|&d| (h.index.id(d) as usize - 0x1000) / 8).collect();
            assert!(have.insert(k, (doms, g.dominated)).is_none(), "round {round}: class {k} twice");
        }
        assert_eq!(have, want, "round {round}, edges {edges:?}, roots {roots:?}");
        assert_eq!(got.unreachable, unreachable, "round {round}");
    }
}

/// Merged shortest paths on random graphs: every merged node is on the shortest path (the
/// breadth-first distance from the GC roots, counted here) of as many chosen objects as it says,
/// with their retained sizes added; each node's parent is the next object up its path; nothing
/// else is in the tree; unreachable objects are counted apart. Every object's depth, made at
/// once, is that distance too.
#[test]
fn merged_paths_count_every_path_through_a_node() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..300 {
        let RandomGraph { h, n, edges, class_of, roots, .. } = random_graph(&mut rng);
        // Breadth-first distances from the roots, by hand.
        let mut dist = vec![usize::MAX; n];
        let mut queue: std::collections::VecDeque<usize> = roots.iter().copied().collect();
        for &r in &roots {
            dist[r] = 0;
        }
        while let Some(a) = queue.pop_front() {
            for &(s, t) in &edges {
                if s == a && dist[t] == usize::MAX {
                    dist[t] = dist[a] + 1;
                    queue.push_back(t);
                }
            }
        }
        let index = |node: heap::Node| (h.index.id(node) as usize - 0x1000) / 8;
        let chosen: Vec<usize> = (0..n).filter(|&i| class_of[i] == 0).collect();
        let set: Vec<heap::Node> = chosen.iter().map(|&i| h.index.node(u64::from(id(i))).unwrap()).collect();
        let got = h.merged_paths(&set);
        // What each object's path passes through, walked one object at a time.
        let mut want: std::collections::BTreeMap<usize, (u64, u64)> = Default::default();
        let mut unreachable = 0;
        for (&i, &node) in chosen.iter().zip(&set) {
            let mut path = Vec::new();
            if !h.paths().walk_up(node, |x| path.push(index(x))) {
                unreachable += 1;
                assert_eq!(dist[i], usize::MAX, "round {round}: {i} is reachable");
                continue;
            }
            assert_eq!(path.len() - 1, dist[i], "round {round}: the path of {i} is not a shortest one");
            for p in path {
                let e = want.entry(p).or_default();
                e.0 += 1;
                e.1 += h.dominators.retained(node);
            }
        }
        let mut have: std::collections::BTreeMap<usize, (u64, u64)> = Default::default();
        for (k, m) in got.nodes.iter().enumerate() {
            assert!(have.insert(index(m.node), (m.paths, m.retained)).is_none(), "round {round}: twice");
            match m.parent {
                Some(p) => {
                    assert_eq!(h.paths().parent(m.node), Some(Some(got.nodes[p].node)), "round {round}");
                    assert!(got.children(p).contains(&k), "round {round}");
                }
                None => assert!(got.roots.contains(&k), "round {round}"),
            }
        }
        assert_eq!(have, want, "round {round}, edges {edges:?}, roots {roots:?}");
        assert_eq!(got.unreachable, unreachable, "round {round}");
        // Every object's depth at once is each one's alone, and the breadth-first distance.
        let depths = h.paths().depths();
        for node in h.index.nodes() {
            assert_eq!(depths[node.index()] as usize, h.paths().depth(node), "round {round}");
        }
        for (i, &d) in dist.iter().enumerate() {
            let node = h.index.node(u64::from(id(i))).unwrap();
            let want = if d == usize::MAX { 0 } else { d + 1 };
            assert_eq!(depths[node.index()] as usize, want, "round {round}: depth of {i}");
        }
    }
}

/// A chain of 100,000 links, each referring to one shared object: a leaf (as `Boolean.TRUE` is
/// to the nodes of a list of Booleans), or a twig (an object referring to a leaf only, as a
/// String does). The shared object's dominator is the chain's head, which retains everything;
/// the twig dominates its leaf. (Each link's walk up the chain to the head, once per link,
/// took minutes at a million links: the walks now stop where an earlier one passed.)
#[test]
fn an_object_every_link_of_a_long_chain_refers_to() {
    const LINKS: u32 = 100_000;
    for twig in [false, true] {
        let mut b = Builder::new("1.0.2");
        b.string(0x10, "next").string(0x11, "shared");
        b.class(0x100, "java/lang/Object", 0, &[]);
        b.class(0x200, "Link", 0x100, &[(0x10, OBJ), (0x11, OBJ)]);
        b.class(0x300, "Leaf", 0x100, &[]);
        b.class(0x400, "Twig", 0x100, &[(0x10, OBJ)]);
        let (shared, leaf, head) = (0x10_0000u32, 0x10_0008u32, 0x100_0000u32);
        if twig {
            b.instance(shared, 0x400, &[leaf]);
            b.instance(leaf, 0x300, &[]);
        } else {
            b.instance(shared, 0x300, &[]);
        }
        for i in 0..LINKS {
            let next = if i + 1 < LINKS { head + 8 * (i + 1) } else { 0 };
            b.instance(head + 8 * i, 0x200, &[next, shared]);
        }
        b.root(head).root(0x100).root(0x200).root(0x300).root(0x400);
        let h = Heap::analyse(Index::from_bytes(b.finish(), Options::default()).unwrap(), Options::default());
        let node = |id: u32| h.index.node(u64::from(id)).unwrap();
        assert_eq!(h.dominators.idom(node(shared)), node(head), "twig {twig}");
        if twig {
            assert_eq!(h.dominators.idom(node(leaf)), node(shared));
        }
        let shared_objects = if twig { 2 } else { 1 };
        assert_eq!(h.dominators.retained_count(node(head)), LINKS + shared_objects, "twig {twig}");
        assert_eq!(h.dominators.idom(node(head + 8 * (LINKS - 1))), node(head + 8 * (LINKS - 2)));
    }
}

/// Immediate dominators by Cooper, Harvey and Kennedy's iteration over reverse postorder, for
/// graphs too deep for [`naive_idoms`]' 64-bit sets; the same answer form (node 0 the virtual
/// root, object `i` as `i + 1`).
fn iterative_idoms(n: usize, edges: &[(usize, usize)], roots: &[usize]) -> Vec<Option<usize>> {
    let total = n + 1;
    let (mut succ, mut preds) = (vec![Vec::new(); total], vec![Vec::new(); total]);
    for (a, b) in edges.iter().map(|&(a, b)| (a + 1, b + 1)).chain(roots.iter().map(|&r| (0, r + 1))) {
        succ[a].push(b);
        preds[b].push(a);
    }
    // Postorder numbers by an explicit-stack DFS from the virtual root.
    let mut post = vec![usize::MAX; total];
    let (mut seen, mut order, mut stack) = (vec![false; total], Vec::new(), vec![(0usize, 0usize)]);
    seen[0] = true;
    while let Some(&mut (v, ref mut i)) = stack.last_mut() {
        if let Some(&w) = succ[v].get(*i) {
            *i += 1;
            if !seen[w] {
                seen[w] = true;
                stack.push((w, 0));
            }
        } else {
            post[v] = order.len();
            order.push(v);
            stack.pop();
        }
    }
    let mut idom = vec![usize::MAX; total];
    idom[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for &v in order.iter().rev().filter(|&&v| v != 0) {
            let mut new = usize::MAX;
            for &p in preds[v].iter().filter(|&&p| idom[p] != usize::MAX) {
                new = if new == usize::MAX {
                    p
                } else {
                    let (mut a, mut b) = (p, new);
                    while a != b {
                        while post[a] < post[b] {
                            a = idom[a];
                        }
                        while post[b] < post[a] {
                            b = idom[b];
                        }
                    }
                    a
                };
            }
            if idom[v] != new {
                idom[v] = new;
                changed = true;
            }
        }
    }
    (1..total).map(|v| (idom[v] != usize::MAX).then_some(idom[v])).collect()
}

/// Deep random graphs: narrow trees hundreds of objects deep, each object referring now and then
/// to one of a few shared leaves or twigs (objects referring to leaves only), and more rarely to
/// an object a few further down; every dominator as the iteration above finds it. The
/// shared objects' referrers lie far apart in the tree, so their common ancestors are found
/// both by short walks and by the marked walks that long ones are left to.
#[test]
fn deep_graphs_with_shared_leaves_and_twigs() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for round in 0..60 {
        let n = 300 + rng.below(500) as usize;
        let (mut b, fields) = builder();
        b.class(0x200, "N", 0x100, &fields);
        let (leaves, twigs) = (n - 8..n, n - 16..n - 8);
        let mut vals = vec![[0u32; FIELDS]; n];
        let mut edges = Vec::new();
        let mut to = |vals: &mut Vec<[u32; FIELDS]>, i: usize, f: usize, t: usize| {
            vals[i][f] = id(t);
            edges.push((i, t));
        };
        // A narrow tree, hundreds deep: each object's parent one of the three before it, in the
        // parent's field 0 or 2 (now and then none: reached by the random references alone).
        for i in 1..twigs.start {
            let from = i.saturating_sub(if rng.below(5) == 0 { 2 } else { 1 });
            if let Some(f) = [0, 2].into_iter().find(|&f| vals[from][f] == 0) {
                if rng.below(100) < 97 {
                    to(&mut vals, from, f, i);
                }
            }
        }
        for i in 0..twigs.start {
            if rng.below(10) < 7 {
                to(&mut vals, i, 1, twigs.start + rng.below(16) as usize);
            }
            // Short cuts a few objects on, which keep the tree deep.
            if vals[i][2] == 0 && rng.below(100) < 5 {
                to(&mut vals, i, 2, (i + 2 + rng.below(5) as usize).min(twigs.start - 1));
            }
        }
        for i in twigs.clone() {
            to(&mut vals, i, 0, leaves.start + rng.below(8) as usize);
        }
        for (i, v) in vals.iter().enumerate() {
            b.instance(id(i), 0x200, v);
        }
        // The tree's root, and now and then one more, so that most dominators are objects.
        let roots: Vec<usize> =
            std::iter::once(0).chain((0..rng.below(2)).map(|_| rng.below(n as u64) as usize)).collect();
        for &r in &roots {
            b.root(id(r));
        }
        b.root(0x100).root(0x200);
        let h = Heap::analyse(Index::from_bytes(b.finish(), Options::default()).unwrap(), Options::default());
        let expect = iterative_idoms(n, &edges, &roots);
        for (i, e) in expect.iter().enumerate() {
            assert_eq!(idom_of(&h, id(i)), *e, "round {round}, object {i} of {n}");
        }
    }
}

/// The largest retained sizes (`Heap::top_retained`, the report's `top_retained`) against every
/// object sorted, on random graphs whose byte arrays make sizes of 64 KB and more and whose
/// equal objects make ties, found each of its three ways: down the dominator tree, among the
/// objects whose sizes are too wide for 16 bits, and by a look at every object. Under Android's
/// size model a class declaring no fields of its own has instances of size 0, which retain what
/// their children do: ties between an object and one it dominates.
#[test]
fn top_retained_agrees_with_every_object_sorted() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut ways = std::collections::BTreeMap::new();
    for round in 0..300 {
        let n = 2 + rng.below(200) as usize;
        let (mut b, fields) = builder();
        b.class(0x200, "N", 0x100, &fields);
        b.class(0x300, "Z", 0x200, &[]);
        let id = |i: usize| 0x1000 + 8 * i as u32;
        // One object in four a byte array, one of those in eight of 40-70 KB (two of them
        // under one holder retain more than 16 bits can say); the rest plain instances.
        for i in 0..n {
            if rng.below(4) == 0 {
                let len = if rng.below(8) == 0 { 40_000 + rng.below(30_000) as u32 } else { rng.below(64) as u32 };
                b.primitive_array(id(i), 8, len, &vec![0u8; len as usize]);
                continue;
            }
            let mut vals = [0u32; FIELDS];
            for v in vals.iter_mut() {
                if rng.below(3) > 0 {
                    *v = id(rng.below(n as u64) as usize);
                }
            }
            b.instance(id(i), if rng.below(3) == 0 { 0x300 } else { 0x200 }, &vals);
        }
        for r in random_roots(&mut rng, n) {
            b.root(id(r));
        }
        b.root(0x100).root(0x200).root(0x300);
        let size_model = (round % 2 == 0).then_some(heap::SizeModel::Android);
        let index = Index::from_bytes(b.finish(), Options { size_model, ..Default::default() }).unwrap();
        let h = Heap::analyse(index, Options::default());
        let d = &h.dominators;
        let mut sorted: Vec<(std::cmp::Reverse<u64>, heap::Node)> = h
            .index
            .nodes()
            .filter(|&v| d.idom(v) != UNREACHABLE && d.retained(v) > 0)
            .map(|v| (std::cmp::Reverse(d.retained(v)), v))
            .collect();
        sorted.sort_unstable();
        for k in [0, 1, 2, 3, 7, 20, n + 5] {
            let expect: Vec<heap::Node> = sorted.iter().take(k).map(|&(_, v)| v).collect();
            assert_eq!(h.top_retained(k), expect, "round {round}, k {k}");
            for budget in [0, 3, usize::MAX] {
                let (top, way) = h.top_retained_by(k, budget);
                assert_eq!(top, expect, "round {round}, k {k}, budget {budget}, {way}");
                *ways.entry(way).or_insert(0) += 1;
            }
        }
    }
    for way in ["tree", "wide", "all"] {
        assert!(ways.get(way).is_some_and(|&c| c > 10), "{way} taken too rarely: {ways:?}");
    }
}
