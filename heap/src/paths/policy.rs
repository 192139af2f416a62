//! Which references the path search skips or takes last ([`PathPolicy`]), and the policy each
//! dump gets: the JDK's queues skipped, the framework's known leaks ([`super::library`]) that
//! apply to the dump's SDK level and maker taken last.

use super::library::LIBRARY_LEAKS;
use crate::index::csr::WEAK;
use crate::index::{Index, Node};

/// The path policy leak traces and the analysis use for the dump `index` holds: the JDK's
/// queues excluded, the known framework leaks that apply to its SDK level and maker taken last.
pub fn path_policy_for(index: &Index) -> PathPolicy {
    let (sdk, maker) = device(index);
    PathPolicy {
        excluded: PathPolicy::jdk_queues(),
        low_priority: LIBRARY_LEAKS
            .iter()
            .filter(|l| l.applies(sdk, maker.as_deref()))
            .map(|l| RefPattern { class: l.class.into(), field: l.field.into(), is_static: l.is_static })
            .collect(),
    }
}

/// `Build.VERSION.SDK_INT` and `Build.MANUFACTURER`, from the index alone (what the path policy
/// needs before the rest of the analysis exists).
pub fn device(idx: &Index) -> (Option<u32>, Option<String>) {
    let sdk = idx.static_int("android.os.Build$VERSION", "SDK_INT").and_then(|v| u32::try_from(v).ok());
    (sdk, idx.static_string("android.os.Build", "MANUFACTURER"))
}

/// A reference named by class and field: `Class#field` (instance) or `static Class#field`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefPattern {
    /// Class that declares the field (instances of subclasses match too).
    pub class: String,
    /// Field name.
    pub field: String,
    /// A static field of that class.
    pub is_static: bool,
}

impl RefPattern {
    /// Parses `Class#field` or `static Class#field`.
    pub fn parse(s: &str) -> Option<RefPattern> {
        let (is_static, rest) = match s.strip_prefix("static ") {
            Some(r) => (true, r.trim()),
            None => (false, s.trim()),
        };
        let (class, field) = rest.split_once('#')?;
        (!class.is_empty() && !field.is_empty()).then(|| RefPattern {
            class: class.into(),
            field: field.into(),
            is_static,
        })
    }
}

/// References the path search skips or takes last.
#[derive(Debug, Clone, Default)]
pub struct PathPolicy {
    /// Never followed.
    pub excluded: Vec<RefPattern>,
    /// Followed only where no other path exists.
    pub low_priority: Vec<RefPattern>,
}

impl PathPolicy {
    /// The JDK's finalizer and cleaner queues: lists that link every pending object to every other.
    pub fn jdk_queues() -> Vec<RefPattern> {
        let mut v = Vec::new();
        for class in [
            "java.lang.ref.Finalizer",
            "java.lang.ref.FinalizerReference",
            "sun.misc.Cleaner",
            "jdk.internal.ref.Cleaner",
        ] {
            for field in ["prev", "next"] {
                v.push(RefPattern { class: class.into(), field: field.into(), is_static: false });
            }
        }
        v
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Excluded,
    Low,
}

/// The policy resolved against a dump: per class, the field offsets it names; per class object,
/// the statics.
pub(super) struct Resolved {
    by_class: Vec<Vec<(u32, Mode)>>,
    statics: rustc_hash::FxHashMap<u32, Vec<(u64, Mode)>>,
    /// A bit per object the policy may name a reference of: instances of the classes in
    /// `by_class`, the class objects in `statics`. The search looks at the others' class no more.
    marked: Vec<u64>,
}

impl Resolved {
    pub(super) fn new(index: &Index, policy: &PathPolicy) -> Option<Resolved> {
        if policy.excluded.is_empty() && policy.low_priority.is_empty() {
            return None;
        }
        let mut by_class = vec![Vec::new(); index.classes.len()];
        let mut statics: rustc_hash::FxHashMap<u32, Vec<(u64, Mode)>> = Default::default();
        let all = policy
            .excluded
            .iter()
            .map(|p| (p, Mode::Excluded))
            .chain(policy.low_priority.iter().map(|p| (p, Mode::Low)));
        for (p, mode) in all {
            for (ci, c) in index.classes.iter().enumerate() {
                if p.is_static {
                    if c.name == p.class {
                        if let (Some(node), Some(s)) = (c.node, c.statics.iter().find(|s| s.name == p.field)) {
                            statics.entry(node.0).or_default().push((s.raw, mode));
                        }
                    }
                } else {
                    for f in &c.fields {
                        if f.name == p.field && index.classes[f.declared_by.index()].name == p.class {
                            by_class[ci].push((f.offset, mode));
                        }
                    }
                }
            }
        }
        let mut marked =
            crate::bits::collect(index.len(), |v| !by_class[index.class_of(Node(v as u32)).index()].is_empty());
        for &v in statics.keys() {
            marked[v as usize / 64] |= 1 << (v % 64);
        }
        Some(Resolved { by_class, statics, marked })
    }

    /// Whether the policy may name a reference of `v` (a node, as the search's queue holds it).
    #[inline]
    pub(super) fn marks(&self, v: u32) -> bool {
        crate::bits::get(&self.marked, v as usize)
    }

    /// Starts bringing [`marks`](Self::marks)'s bit for `v` into the cache.
    #[inline]
    pub(super) fn prefetch(&self, v: u32) {
        crate::bits::prefetch(&self.marked, v as usize);
    }

    /// The targets of `v` that the policy names, with their mode.
    pub(super) fn special(&self, index: &Index, v: u32) -> Vec<(u64, Mode)> {
        // Called for every object the search expands: decide from the class table first.
        let n = Node(v);
        let class = index.class_of(n);
        if class == index.java_lang_class() && !self.statics.is_empty() {
            if let Some(s) = self.statics.get(&v) {
                return s.clone();
            }
        }
        let rules = &self.by_class[class.index()];
        if rules.is_empty() || index.as_class(n).is_some() {
            return Vec::new();
        }
        let Ok(crate::hprof::SubRecord::Instance { data, .. }) = index.record(n) else { return Vec::new() };
        let id_size = index.header.id_size;
        rules
            .iter()
            .filter_map(|&(off, mode)| {
                let b = data.get(off as usize..off as usize + id_size as usize)?;
                Some((crate::hprof::cursor::read_id(b, id_size), mode))
            })
            .collect()
    }
}

/// How the policy treats the edge `v -> t` (nodes, as the search's queue holds them), given the
/// targets `special` it names among `v`'s references (see [`Resolved::special`]): `None` for an
/// ordinary edge.
#[inline]
pub(super) fn edge_mode(index: &Index, v: u32, t: u32, special: &[(u64, Mode)]) -> Option<Mode> {
    if special.is_empty() {
        return None;
    }
    let id = index.id(Node(t));
    let hits: Vec<Mode> = special.iter().filter(|(s, _)| *s == id).map(|(_, m)| *m).collect();
    // A target also held by an ordinary field is an ordinary edge; only a target held solely
    // through named fields takes their mode.
    let named = hits.len();
    let total = index.graph().edges(v).iter().filter(|&&e| e & !WEAK == t).count();
    if named == 0 || total > named {
        None
    } else if hits.contains(&Mode::Low) && !hits.contains(&Mode::Excluded) {
        Some(Mode::Low)
    } else {
        Some(Mode::Excluded)
    }
}
