//! How strongly each object is reachable, as ahat reports it: the strongest kind of reference
//! over the best path from a GC root, where a path is as strong as its weakest step. A step
//! through the `referent` of a `SoftReference` is soft, of a `java.lang.ref.Finalizer` (or
//! Android's `FinalizerReference`) finalizer, of a `WeakReference` weak, of a `PhantomReference`
//! (a `Cleaner` among them) phantom; every other step is strong, and an instance keeps its class
//! object alive strongly. The order, strongest first, is ahat's: strong, soft, finalizer, weak,
//! phantom (ahat's `Reachability`; a referent of a plain `Reference` subclass counts as weak).
//!
//! Strong, and unreachable, are the same objects as [`Reach`](crate::dominators::Reach) says;
//! the four weaker kinds split its `Weak`.

use crate::index::csr::WEAK;
use crate::index::Node;
use crate::Heap;

/// How strongly an object is reachable (ahat's kinds, strongest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reachability {
    /// No path from a GC root.
    Unreachable = 0,
    /// The best path crosses a phantom referent.
    Phantom = 1,
    /// The best path crosses a weak referent (and nothing weaker).
    Weak = 2,
    /// The best path crosses a finalizer's referent (and nothing weaker): waiting to be finalized.
    Finalizer = 3,
    /// The best path crosses a soft referent (and nothing weaker).
    Soft = 4,
    /// A path of strong references only.
    Strong = 5,
}

impl Reachability {
    /// Node `n`'s kind in the bytes [`compute`] made.
    fn of(all: &[u8], n: Node) -> Reachability {
        match all.get(n.index()).copied().unwrap_or(0) {
            5 => Reachability::Strong,
            4 => Reachability::Soft,
            3 => Reachability::Finalizer,
            2 => Reachability::Weak,
            1 => Reachability::Phantom,
            _ => Reachability::Unreachable,
        }
    }

    /// Its name: `strong`, `soft`, `finalizer`, `weak`, `phantom` or `unreachable`.
    pub fn name(self) -> &'static str {
        match self {
            Reachability::Strong => "strong",
            Reachability::Soft => "soft",
            Reachability::Finalizer => "finalizer",
            Reachability::Weak => "weak",
            Reachability::Phantom => "phantom",
            Reachability::Unreachable => "unreachable",
        }
    }
}

/// The strength of a referent step out of an instance of each class (indexed like
/// `index.classes`), from the first `java.lang.ref` class among its ancestors.
fn referent_strength(heap: &Heap) -> Vec<u8> {
    let idx = &heap.index;
    idx.classes
        .iter()
        .map(|c| {
            let mut cur = Some(c);
            // Bounded: a damaged dump may make a cycle of superclasses.
            for _ in 0..512 {
                let Some(k) = cur else { break };
                match k.name.as_str() {
                    "java.lang.ref.SoftReference" => return Reachability::Soft as u8,
                    "java.lang.ref.Finalizer" | "java.lang.ref.FinalReference" | "java.lang.ref.FinalizerReference" => {
                        return Reachability::Finalizer as u8
                    }
                    "java.lang.ref.WeakReference" => return Reachability::Weak as u8,
                    "java.lang.ref.PhantomReference" => return Reachability::Phantom as u8,
                    _ => {}
                }
                cur = k.super_class.and_then(|s| idx.classes.get(s.index()));
            }
            Reachability::Weak as u8
        })
        .collect()
}

/// Every object's [`Reachability`] (as a byte a node): a widest-path search, the strongest
/// level first, each object settled at the strongest level that reaches it. An object is
/// looked at once a level at most (five times in all), so the cost is a few sweeps of the graph.
pub(crate) fn compute(heap: &Heap) -> Vec<u8> {
    let idx = &heap.index;
    let g = idx.graph();
    let strength = referent_strength(heap);
    let mut level = vec![Reachability::Unreachable as u8; idx.len()];
    // Objects waiting at each level, strongest last so it is taken first.
    let mut waiting: [Vec<u32>; 6] = Default::default();
    for &(r, _) in idx.roots() {
        if level[r.index()] != Reachability::Strong as u8 {
            level[r.index()] = Reachability::Strong as u8;
            waiting[Reachability::Strong as usize].push(r.0);
        }
    }
    for l in (1..=Reachability::Strong as u8).rev() {
        while let Some(v) = waiting[l as usize].pop() {
            if level[v as usize] != l {
                continue; // settled at a stronger level since
            }
            let mut reach = |t: u32, step: u8| {
                let to = l.min(step);
                if to > level[t as usize] {
                    level[t as usize] = to;
                    waiting[to as usize].push(t);
                }
            };
            let class = idx.class_of(Node(v));
            if let Some(c) = idx.classes[class.index()].node {
                reach(c.0, Reachability::Strong as u8);
            }
            let referent = strength.get(class.index()).copied().unwrap_or(Reachability::Weak as u8);
            for &t in g.edges(v) {
                if t & WEAK != 0 {
                    reach(t & !WEAK, referent);
                } else {
                    reach(t, Reachability::Strong as u8);
                }
            }
        }
    }
    level
}

impl Heap {
    /// How strongly `n` is reachable (ahat's kinds; see the module's notes). Every object's is
    /// worked out on first use, a byte an object.
    pub fn reachability(&self, n: Node) -> Reachability {
        let all = self.reachability.get_or_init(|| compute(self));
        self.under_rules(Reachability::of(all, n), n)
    }

    /// [`Heap::reachability`] when every object's has been worked out already (for a caller that
    /// must not wait for it: the UI draws the coarser reach meanwhile).
    pub fn reachability_if_made(&self, n: Node) -> Option<Reachability> {
        self.reachability.get().map(|all| self.under_rules(Reachability::of(all, n), n))
    }

    /// The kind under the heap's rule set: strong and unreachable are the rule set's own (what
    /// its search keeps alive), the weaker kinds heaptui's graph's for the rest. So a perflib
    /// thread object is unreachable and a MAT referent strong, as the tree says, and the kinds
    /// never contradict the reach shown before them.
    fn under_rules(&self, kind: Reachability, n: Node) -> Reachability {
        use crate::dominators::Reach;
        match (self.semantics, self.dominators.reach(n), kind) {
            (crate::Semantics::Heaptui, ..) => kind,
            (_, Reach::Strong, _) => Reachability::Strong,
            (_, _, Reachability::Strong) => Reachability::Unreachable,
            _ => kind,
        }
    }
}
