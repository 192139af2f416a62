//! Leak triage: suspects found by named rules, the shortest strong path from a GC root to each,
//! every object on it judged leaking or not, suspects grouped by the references that are to blame,
//! and known framework leaks told apart from the app's own.
//!
//! The pieces follow LeakCanary (traces, verdicts, signatures, library leaks), KOOM (Activity,
//! Fragment and Bitmap rules, its report), Probe (grouping equal paths, counts times retained)
//! and MAT (accumulation points).

pub mod inspect;
pub mod metadata;
pub mod render;
pub mod rules;
pub mod waste;

use std::collections::BTreeMap;

use sha1::{Digest, Sha1};

use crate::analysis::Heap;
use crate::hprof::RootKind;
use crate::index::classes::ClassId;
use crate::index::Node;
use crate::paths::library::{LibraryLeak, LIBRARY_LEAKS};
use crate::paths::path_policy_for;
use crate::paths::{name_references, GcPaths, PathPolicy, RefPattern, Step};
use inspect::{inspect, Leaking};
use rules::{Findings, Suspect, RULES};

/// Thresholds of the rules.
#[derive(Debug, Clone)]
pub struct LeakConfig {
    /// An accumulation point holds at least this share of the reachable heap...
    pub accumulation_share: f64,
    /// ...and at least this many bytes.
    pub accumulation_min_bytes: u64,
    /// A Bitmap of at least this many pixels is large (KOOM: 768 × 1366).
    pub bitmap_min_pixels: u64,
    /// An array of at least this share of the reachable heap (and 1 MiB) is huge...
    pub huge_array_share: f64,
    /// ...and on Android, any array of at least this many bytes (KOOM: 256 KiB).
    pub android_array_bytes: u64,
    /// A stale ThreadLocal value retaining at least this much is a leak.
    pub thread_local_min_bytes: u64,
    /// Rules to skip, by name.
    pub disabled: Vec<String>,
    /// References traces never go through (added to the JDK's queues).
    pub excluded_references: Vec<RefPattern>,
    /// References traces go through only when there is no other way (added to the known
    /// framework leaks).
    pub low_priority_references: Vec<RefPattern>,
    /// With a baseline: a collection that grew is a suspect when it retains at least this much.
    pub growth_min_bytes: u64,
    /// Objects waiting for finalization, at least this many, are a backlog.
    pub finalizer_backlog: u64,
}

impl Default for LeakConfig {
    fn default() -> Self {
        LeakConfig {
            accumulation_share: 0.10,
            accumulation_min_bytes: 1 << 20,
            bitmap_min_pixels: 768 * 1366,
            huge_array_share: 0.05,
            android_array_bytes: 256 << 10,
            thread_local_min_bytes: 256 << 10,
            disabled: Vec::new(),
            excluded_references: Vec::new(),
            low_priority_references: Vec::new(),
            growth_min_bytes: 64 << 10,
            finalizer_backlog: 1000,
        }
    }
}

/// Where a leak comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LeakKind {
    /// The app's own references.
    Application,
    /// A known framework or vendor bug.
    Library,
    /// Objects the runtime marked unreachable (Android 0x90 records).
    Unreachable,
}

/// How a trace step refers to the next, in KOOM's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ReferenceType {
    /// An instance field.
    InstanceField,
    /// A static field (or what a class object holds).
    StaticField,
    /// An array element.
    ArrayEntry,
    /// A local variable (a thread's stack).
    Local,
}

/// One object on a leak trace.
#[derive(Debug, Clone)]
pub struct TraceStep {
    /// The object.
    pub node: Node,
    /// How it refers to the next object (`.field`, `[3]`, `<loader>`); `None` on the last.
    pub reference: Option<String>,
    /// The kind of that reference.
    pub reference_type: Option<ReferenceType>,
    /// Whether this object is leaking.
    pub leaking: Leaking,
    /// Why.
    pub why: String,
    /// Facts that help a person.
    pub labels: Vec<String>,
    /// Whether the reference to the next object is one of the likely causes (underlined).
    pub suspect_reference: bool,
}

/// A group of leaking objects that share the references to blame.
#[derive(Debug, Clone)]
pub struct Leak {
    /// SHA-1 of what is to blame (suspect references, or the library pattern).
    pub signature: String,
    /// Application, library or unreachable.
    pub kind: LeakKind,
    /// Rule that found it.
    pub rule: &'static str,
    /// Why the first instance was flagged.
    pub reason: String,
    /// Class of the leaking objects.
    pub class: String,
    /// The leaking objects.
    pub instances: Vec<Node>,
    /// Their retained size together.
    pub retained_bytes: u64,
    /// Objects they retain together.
    pub retained_objects: u64,
    /// Kind of the GC root of the trace.
    pub gc_root: Option<RootKind>,
    /// The shortest trace among the instances (root first).
    pub trace: Vec<TraceStep>,
    /// The known framework leak it goes through.
    pub library: Option<&'static LibraryLeak>,
}

/// The path policy leak traces use: the JDK's queues excluded, the known framework leaks that
/// apply to the dump's SDK level and maker taken last.
pub fn default_path_policy(heap: &Heap) -> PathPolicy {
    path_policy_for(&heap.index)
}

/// Finds, traces and groups every suspect.
pub fn find_leaks(heap: &Heap, config: &LeakConfig) -> Vec<Leak> {
    run_rules_for(heap, config, None).leaks(heap, config)
}

/// As [`find_leaks`], with the collections that grew since `baseline` (an earlier dump of the
/// same app) as suspects too: rule `growing`.
pub fn find_leaks_since(heap: &Heap, config: &LeakConfig, baseline: &Heap) -> Vec<Leak> {
    run_rules_for(heap, config, Some(baseline)).leaks(heap, config)
}

/// What the rules found, before suspects nested in others are dropped and the rest traced
/// and grouped ([`Ran::leaks`]). The two steps are apart so that a caller can give the rules
/// every core and do other work beside the second, which takes one or two.
pub struct Ran {
    found: Vec<Findings>,
    rank_of: Vec<u8>,
}

/// Runs every rule not disabled in `config`, side by side; with a `baseline` (an earlier dump
/// of the same app), the collections that grew since are suspects too (rule `growing`).
pub fn run_rules_for(heap: &Heap, config: &LeakConfig, baseline: Option<&Heap>) -> Ran {
    let extra = baseline.map_or_else(Vec::new, |old| growing_suspects(heap, config, old));
    let (found, rank_of) = run_rules(heap, config, extra);
    Ran { found, rank_of }
}

/// The collections that grew since `baseline`, as suspects of rule `growing`.
fn growing_suspects(heap: &Heap, config: &LeakConfig, baseline: &Heap) -> Vec<Suspect> {
    crate::diff::growing_collections(baseline, heap, config.growth_min_bytes)
        .into_iter()
        .map(|g| Suspect {
            node: g.node,
            rule: "growing",
            reason: format!(
                "{} grew from {} to {} elements since the baseline ({} -> {} retained)",
                g.path,
                g.elements.0,
                g.elements.1,
                crate::fmt::human_bytes(g.retained_bytes.0),
                crate::fmt::human_bytes(g.retained_bytes.1)
            )
            .into(),
            accumulation: true,
            group: None,
        })
        .collect()
}

impl Ran {
    /// The suspects found, nested ones dropped, traced and grouped.
    pub fn leaks(self, heap: &Heap, config: &LeakConfig) -> Vec<Leak> {
        let Ran { found, rank_of } = self;
        let meta = metadata::extract(heap);
        let span = crate::trace::span("leaks: nesting");
        let kinds: Vec<Suspect> = found.iter().flat_map(|f| f.kinds.iter().cloned()).collect();
        let suspects = outermost(heap, &found, &rank_of);
        drop((found, rank_of, span));
        let _span = crate::trace::span("leaks: traces");
        let custom = custom_paths(heap, config);
        let paths = custom.as_ref().unwrap_or_else(|| heap.paths());
        let span = crate::trace::span("traces: choose");
        let mut traced = Traced::choose(&suspects, &kinds, paths);
        drop(span);
        let span = crate::trace::span("traces: group");
        let mut groups = traced.group(heap, paths, &suspects, &kinds, meta.sdk_int, meta.manufacturer.as_deref());
        drop(span);
        let span = crate::trace::span("traces: instances");
        // A group's key, found once for each finding of that group (655,000 suspects on the mix
        // share a few).
        let group_keys: Vec<Option<(LeakKind, String)>> = kinds
            .iter()
            .map(|s| {
                let g = s.group.as_deref()?;
                traced.representative.get(g).and_then(|r| traced.keys.get(&r.0)).cloned()
            })
            .collect();
        for (i, &(node, k)) in suspects.iter().enumerate() {
            let key = match &group_keys[k as usize] {
                Some(key) => Some(key),
                None if kinds[k as usize].group.is_some() => None,
                None => traced.keys.get(&i),
            };
            if let Some(entry) = key.and_then(|k| groups.get_mut(k)) {
                entry.instances.push(node);
                entry.retained_bytes += heap.dominators.retained(node);
                entry.retained_objects += u64::from(heap.dominators.retained_count(node));
            }
        }
        drop(span);
        let mut leaks: Vec<Leak> = groups.into_values().collect();
        for l in leaks.iter_mut().filter(|l| l.rule == "accumulation.class") {
            explain_remainder(heap, l);
        }
        leaks.extend(unreachable_groups(heap));
        leaks.sort_by(|a, b| {
            a.kind.cmp(&b.kind).then(b.retained_bytes.cmp(&a.retained_bytes)).then(a.class.cmp(&b.class))
        });
        heap.index.release_pages();
        leaks
    }
}

/// A rule that could not decide on some objects: they are of the classes it judges, but the
/// dump lacks the values it decides by (a Perfetto heap graph records none of `mDestroyed`,
/// `mCalled` or pixels).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Undecided {
    /// The rule.
    pub rule: &'static str,
    /// The class it judges.
    pub class: &'static str,
    /// Its strongly reachable instances (subclasses' too): the objects left undecided.
    pub objects: u64,
    /// What the dump lacks, for people: `mDestroyed or mFinished`, `array contents`.
    pub missing: String,
}

/// The rules not disabled in `config` that could not decide on objects of this dump, and on how
/// many. Empty for a complete HPROF.
pub fn undecided(heap: &Heap, config: &LeakConfig) -> Vec<Undecided> {
    let idx = &heap.index;
    let no_contents = idx.heap_graph.is_some();
    let mut out = Vec::new();
    for rule in RULES {
        let Some(needs) = rule.needs else { continue };
        if config.disabled.iter().any(|d| d == rule.name) {
            continue;
        }
        for &class in needs.classes {
            let judged: Vec<Node> = rules::instances_of_subclasses(heap, class)
                .into_iter()
                .filter(|&n| heap.dominators.reach(n) == crate::dominators::Reach::Strong)
                .collect();
            let Some(&first) = judged.first() else { continue };
            let fields = needs.fields.iter().any(|f| idx.field(first, f).is_some());
            let missing = match (fields, needs.contents && no_contents) {
                (true, false) => continue,
                (false, false) => needs.fields.join(" or "),
                (true, true) => "array contents".to_string(),
                (false, true) => format!("{} and array contents", needs.fields.join(" or ")),
            };
            out.push(Undecided { rule: rule.name, class, objects: judged.len() as u64, missing });
        }
    }
    out
}

/// A class-wide accumulation whose instances were partly taken by other suspects (nested in
/// them) says so: its reason speaks of the whole class, its row of the instances left.
fn explain_remainder(heap: &Heap, l: &mut Leak) {
    let idx = &heap.index;
    let total: u64 = idx.classes_named(&l.class).map(|c| heap.histogram[c.index()].instances).sum();
    let here = l.instances.len() as u64;
    if here < total {
        l.reason = format!(
            "{}; {here} of them here, retaining {} (the others lie under other suspects)",
            l.reason,
            crate::fmt::human_bytes(l.retained_bytes)
        );
    }
}

/// A rule's rank for an object no rule flagged.
const NO: u8 = u8::MAX - 1;
/// Not yet computed (in the memo of [`outermost`]).
const UNSET: u8 = u8::MAX;

/// Runs every rule not disabled, growth since a baseline (`extra`) first: what each found, in
/// rule order, each kept as the rule made it (a class-wide rule can return millions: they are
/// not copied into one list), and per object the rank of the first rule that flagged it (growth
/// 0, then [`RULES`] in order), or [`NO`]. Dense arrays rather than hash maps: a class-wide rule
/// can flag millions of objects. The ranks are left empty when nothing is found.
fn run_rules(heap: &Heap, config: &LeakConfig, extra: Vec<Suspect>) -> (Vec<Findings>, Vec<u8>) {
    let n = heap.index.len();
    let mut rank_of: Vec<u8> = Vec::new();
    let mut found: Vec<Findings> = Vec::new();
    let mut add = |rank: u8, mut more: Findings, found: &mut Vec<Findings>| {
        if more.items.is_empty() {
            return;
        }
        if rank_of.is_empty() {
            rank_of = vec![NO; n];
        }
        more.items.retain(|&(node, _)| match rank_of.get_mut(node.index()).filter(|r| **r == NO) {
            Some(slot) => {
                *slot = rank;
                true
            }
            None => false,
        });
        found.push(more);
    };
    // Growth since a baseline is the most specific finding there is: it ranks first.
    add(0, extra.into(), &mut found);
    // Each rule only reads the heap, and most look at one class's instances on one core: they
    // run side by side on every core, and their findings are ranked in rule order after.
    let ran: Vec<(u8, Findings)> = {
        use rayon::prelude::*;
        RULES
            .par_iter()
            .enumerate()
            .filter(|(_, rule)| !config.disabled.iter().any(|d| d == rule.name))
            .map(|(i, rule)| {
                let _span = crate::trace::span(rule.name);
                (i as u8 + 1, rule.findings(heap, config))
            })
            .collect()
    };
    for (rank, more) in ran {
        add(rank, more, &mut found);
    }
    (found, rank_of)
}

/// The suspects kept, as (object, finding in all the rules' findings in order).
///
/// Suspects nested in one another (one retains the other) are partly the same memory: keep the
/// one found by the more specific rule (earlier in RULES). A destroyed Activity wins over the
/// View that holds it, and over an accumulation point that holds many of them. Equal rules
/// keep both, except accumulation-type findings, which keep the outer one.
///
/// Pairwise over every suspect and each suspect among its dominators, that is: a suspect goes
/// when the best rank among its dominators beats it (or ties it, for accumulation findings),
/// and when the best rank among the suspects it dominates beats it. Both are computed along
/// dominator chains with memos, so millions of suspects under one table cost one walk of the
/// chains they share, not one each.
fn outermost(heap: &Heap, found: &[Findings], rank_of: &[u8]) -> Vec<(Node, u32)> {
    use crate::dominators::raw::ROOT;
    if found.iter().all(|f| f.items.is_empty()) {
        return Vec::new();
    }
    let n = heap.index.len();
    let rank = |v: Node| rank_of[v.index()];
    let items = || found.iter().flat_map(|f| &f.items);
    // An object's immediate dominator as a number: the virtual root and "unreachable" are the
    // two highest, at or above `raw::ROOT`, and end a walk up.
    let idom = |v: u32| heap.dominators.idom(Node(v)).0;
    // The two walks share nothing but what they read: one on each core.
    let (above, below) = rayon::join(
        || {
            let _span = crate::trace::span("nesting: above");
            // Best rank strictly above each suspect, from a memo of it for each node on the
            // chains walked and each suspect. (Suspects in a chain, one dominating the next, are
            // found in a row: each then stops at the one before, 10 M of them on a dump of
            // chains, where without their own entries each walked one step more.)
            let mut memo: Vec<u8> = vec![UNSET; n];
            let mut chain: Vec<u32> = Vec::new();
            // A list of the right size, not collected from the findings' iterator, which grew
            // it by doubling: with the plain loop, 0.052 -> 0.034 s on the chains dump.
            let mut above = Vec::with_capacity(found.iter().map(|f| f.items.len()).sum());
            for &(v, _) in items() {
                let v = v.0;
                let mut base = memo[v as usize];
                if base == UNSET {
                    // Up to the first node with a memo; those passed get theirs on the way back.
                    chain.clear();
                    let mut p = idom(v);
                    base = loop {
                        if p >= ROOT {
                            break NO;
                        }
                        match memo[p as usize] {
                            UNSET => chain.push(p),
                            m => break m.min(rank_of[p as usize]),
                        }
                        p = idom(p);
                    };
                    for &p in chain.iter().rev() {
                        memo[p as usize] = base;
                        base = base.min(rank_of[p as usize]);
                    }
                    memo[v as usize] = base;
                }
                above.push(base);
            }
            above
        },
        || {
            let _span = crate::trace::span("nesting: below");
            // Best rank strictly below each dominator of a suspect.
            let mut below: Vec<u8> = vec![NO; n];
            for &(node, _) in items() {
                let r = rank(node);
                let mut a = idom(node.0);
                while a < ROOT && below[a as usize] > r {
                    below[a as usize] = r;
                    a = idom(a);
                }
            }
            below
        },
    );
    let _span = crate::trace::span("nesting: keep");
    let mut kept = Vec::new();
    let mut base = 0u32;
    let mut above = above.into_iter();
    for f in found {
        for (&(node, k), a) in f.items.iter().zip(above.by_ref()) {
            let r = rank(node);
            let accumulation = f.kinds[k as usize].accumulation;
            if !(a < r || (a == r && accumulation) || below[node.index()] < r) {
                kept.push((node, base + k));
            }
        }
        base += f.kinds.len() as u32;
    }
    kept
}

/// Paths of their own for the traces when the configuration names more references than the
/// default policy; `None` to use the heap's shared paths.
fn custom_paths(heap: &Heap, config: &LeakConfig) -> Option<GcPaths> {
    if config.excluded_references.is_empty() && config.low_priority_references.is_empty() {
        return None;
    }
    let mut policy = default_path_policy(heap);
    policy.excluded.extend(config.excluded_references.iter().cloned());
    policy.low_priority.extend(config.low_priority_references.iter().cloned());
    Some(GcPaths::compute_with(&heap.index, &policy))
}

/// Which suspects are traced: a group (suspects that share a key whatever their paths: every
/// instance of an accumulating class, duplicate bitmaps) is traced through its member closest
/// to a GC root; the others add their instances and sizes. Half a million instances of one
/// class are one trace, not half a million.
struct Traced<'k> {
    /// Per group, its representative (index into the suspects) and that one's depth.
    representative: rustc_hash::FxHashMap<&'k str, (usize, usize)>,
    /// The suspects traced, as indexes into the suspects.
    traced: Vec<usize>,
    /// The leak each traced suspect went into (a group's members take their representative's).
    keys: rustc_hash::FxHashMap<usize, (LeakKind, String)>,
}

impl<'k> Traced<'k> {
    fn choose(suspects: &[(Node, u32)], kinds: &'k [Suspect], paths: &GcPaths) -> Traced<'k> {
        // Each finding's group as a number, its name hashed once per finding and not once per
        // suspect: 655,000 suspects on the mix share a few findings, and looking their names up
        // twice each took as long as the climbs.
        let mut names: Vec<&'k str> = Vec::new();
        let mut numbers: rustc_hash::FxHashMap<&'k str, usize> = Default::default();
        let mut group_of: Vec<Option<usize>> = Vec::with_capacity(kinds.len());
        for s in kinds {
            group_of.push(s.group.as_deref().map(|g| {
                *numbers.entry(g).or_insert_with(|| {
                    names.push(g);
                    names.len() - 1
                })
            }));
        }
        let group = |k: u32| group_of[k as usize];
        let depth = |n: Node| match paths.depth(n) {
            0 => usize::MAX,
            d => d,
        };
        // A depth is a climb up the path: on every core.
        use rayon::prelude::*;
        let depths: Vec<usize> =
            suspects.par_iter().map(|&(node, k)| if group(k).is_some() { depth(node) } else { 0 }).collect();
        // Per group, the suspect closest to a root (the first of those as close).
        let mut best: Vec<Option<(usize, usize)>> = vec![None; names.len()];
        for (i, &(_, k)) in suspects.iter().enumerate() {
            if let Some(g) = group(k) {
                let d = depths[i];
                if best[g].is_none_or(|b| d < b.1) {
                    best[g] = Some((i, d));
                }
            }
        }
        let traced: Vec<usize> = (0..suspects.len())
            .filter(|&i| group(suspects[i].1).is_none_or(|g| best[g].is_some_and(|r| r.0 == i)))
            .collect();
        let representative = names.into_iter().zip(best).filter_map(|(g, b)| Some((g, b?))).collect();
        Traced { representative, traced, keys: Default::default() }
    }

    /// Traces the chosen suspects, judges each trace, tells library leaks apart and groups the
    /// traces by signature, each leak keeping its shortest trace. Every trace is made first,
    /// then their references named together: traces through one large table share its scan.
    fn group(
        &mut self,
        heap: &Heap,
        paths: &GcPaths,
        suspects: &[(Node, u32)],
        kinds: &[Suspect],
        sdk: Option<u32>,
        maker: Option<&str>,
    ) -> BTreeMap<(LeakKind, String), Leak> {
        let mut traces: Vec<Vec<Step>> = self.traced.iter().map(|&i| trace_to(heap, paths, suspects[i].0)).collect();
        name_references(&heap.index, &mut traces);
        let mut groups: BTreeMap<(LeakKind, String), Leak> = BTreeMap::new();
        for (&i, steps) in self.traced.iter().zip(traces) {
            let (node, k) = suspects[i];
            let s = &kinds[k as usize].at(node);
            let mut trace = judge(heap, &steps, s);
            let library = find_library(heap, &trace, sdk, maker);
            let (kind, signature) = match (library, &s.group) {
                (Some(l), _) => (LeakKind::Library, sha1_hex(&l.pattern())),
                (None, Some(g)) => (LeakKind::Application, sha1_hex(g.as_ref())),
                (None, None) => (LeakKind::Application, signature(heap, &trace, s.rule)),
            };
            if library.is_some() {
                for t in &mut trace {
                    t.suspect_reference = false;
                }
                mark_library_reference(heap, &mut trace, library);
            }
            let gc_root = trace.first().and_then(|t| heap.root_kinds(t.node).first().copied());
            self.keys.insert(i, (kind, signature.clone()));
            let entry = groups.entry((kind, signature.clone())).or_insert_with(|| Leak {
                signature,
                kind,
                rule: s.rule,
                reason: s.reason.to_string(),
                class: heap.display_class(s.node),
                instances: Vec::new(),
                retained_bytes: 0,
                retained_objects: 0,
                gc_root,
                trace: trace.clone(),
                library,
            });
            if trace.len() < entry.trace.len() {
                entry.trace = trace;
                entry.gc_root = gc_root;
            }
        }
        groups
    }
}

/// The path from a GC root to `n`. A class loader kept alive through its classes has no path of
/// references (an instance does not point at its class in the graph): its trace goes through
/// the closest live instance of one of its classes, then that class, then the loader.
fn trace_to(heap: &Heap, paths: &GcPaths, n: Node) -> Vec<Step> {
    let idx = &heap.index;
    let direct = paths.path_unnamed(idx, n);
    if !direct.is_empty() {
        return direct;
    }
    let loader_id = idx.id(n);
    let classes: Vec<ClassId> =
        (0..idx.classes.len() as u32).map(ClassId).filter(|&c| idx.classes[c.index()].loader == loader_id).collect();
    let mut best: Option<(usize, Node)> = None;
    for v in idx.nodes() {
        if idx.as_class(v).is_none() && classes.contains(&idx.class_of(v)) {
            let depth = paths.depth(v);
            if depth > 0 && best.is_none_or(|(d, _)| depth < d) {
                best = Some((depth, v));
            }
        }
    }
    let Some((_, last)) = best else { return Vec::new() };
    let mut best = paths.path_unnamed(idx, last);
    if let Some(class_node) = idx.class(last).node {
        best.push(Step { node: class_node, reference: Some("<class>".into()), weak: false });
        best.push(Step { node: n, reference: Some("<loader>".into()), weak: false });
    }
    best
}

fn reference_type(heap: &Heap, from: Node, reference: &str, first: bool) -> ReferenceType {
    if reference.starts_with('[') {
        ReferenceType::ArrayEntry
    } else if heap.index.as_class(from).is_some() {
        ReferenceType::StaticField
    } else if first && heap.root_kinds(from).iter().any(|k| matches!(k, RootKind::JavaFrame | RootKind::JniLocal)) {
        ReferenceType::Local
    } else {
        ReferenceType::InstanceField
    }
}

/// Verdicts along the path, propagated as LeakCanary does: everything before the last NO is NO,
/// everything after the first YES is YES, and the references in between are the likely causes.
fn judge(heap: &Heap, steps: &[Step], suspect: &Suspect) -> Vec<TraceStep> {
    let mut trace: Vec<TraceStep> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut v = inspect(heap, s.node);
            // A thread's local (or frame) root: which thread, as LeakCanary names it.
            if i == 0 {
                if let Some(name) = heap.index.root_thread(s.node).and_then(|t| heap.thread_name(t)) {
                    v.labels.insert(0, format!("Thread name: '{name}'"));
                }
            }
            let next = steps.get(i + 1);
            let reference = next.and_then(|n| n.reference.clone());
            let reference_type = reference.as_deref().map(|r| reference_type(heap, s.node, r, i == 0));
            TraceStep {
                node: s.node,
                reference,
                reference_type,
                leaking: v.leaking,
                why: v.why,
                labels: v.labels,
                suspect_reference: false,
            }
        })
        .collect();
    if suspect.rule == "jvm.classloader" {
        // What the leaked loader defined leaks with it: its classes and their instances.
        let loader = heap.index.id(suspect.node);
        for t in &mut trace {
            let idx = &heap.index;
            let defined_by = match idx.as_class(t.node) {
                Some(c) => idx.classes[c.index()].loader,
                None => idx.class(t.node).loader,
            };
            if defined_by == loader {
                t.leaking = Leaking::Yes;
                t.why = "defined by the leaking class loader".into();
            }
        }
    }
    let Some(last) = trace.last_mut() else { return trace };
    last.leaking = Leaking::Yes;
    last.why = if last.why.is_empty() || suspect.rule != "android.activity.destroyed" {
        suspect.reason.to_string()
    } else {
        last.why.clone()
    };
    let last_no = trace.iter().rposition(|t| t.leaking == Leaking::No);
    let first_yes = trace.iter().position(|t| t.leaking == Leaking::Yes).unwrap_or(trace.len() - 1);
    if let Some(k) = last_no {
        for i in 0..k {
            if trace[i].leaking != Leaking::No {
                let next = heap.display_class(trace[i + 1].node);
                trace[i].leaking = Leaking::No;
                trace[i].why = format!("{}↓ is not leaking", simple(&next));
            }
        }
    }
    for i in first_yes + 1..trace.len() {
        if trace[i].leaking != Leaking::Yes {
            let prev = heap.display_class(trace[i - 1].node);
            trace[i].leaking = Leaking::Yes;
            trace[i].why = format!("{}↑ is leaking", simple(&prev));
        }
    }
    let n = trace.len();
    for i in 0..n.saturating_sub(1) {
        let here = trace[i].leaking;
        let next = trace[i + 1].leaking;
        trace[i].suspect_reference = here == Leaking::Unknown || (here == Leaking::No && next != Leaking::No);
    }
    trace
}

fn simple(class: &str) -> &str {
    let c = class.strip_prefix("class ").unwrap_or(class);
    c.rsplit('.').next().unwrap_or(c)
}

fn sha1_hex(s: &str) -> String {
    let digest = Sha1::digest(s.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-1 over the suspect references: the source class's name and the reference, with array
/// indices generalised (`[x]`) so equal paths through different slots group together.
fn signature(heap: &Heap, trace: &[TraceStep], rule: &str) -> String {
    let mut s = String::new();
    for t in trace.iter().filter(|t| t.suspect_reference) {
        let class = heap
            .index
            .as_class(t.node)
            .map_or_else(|| heap.index.class(t.node).name.clone(), |c| heap.index.classes[c.index()].name.clone());
        let r = t.reference.as_deref().unwrap_or("");
        let r = if r.starts_with('[') { "[x]" } else { r.trim_start_matches('.') };
        s.push_str(&class);
        s.push_str(r);
    }
    if s.is_empty() {
        // No suspect reference (a root is itself the leak): group by rule and class.
        s = format!("{rule}:{}", trace.last().map(|t| heap.index.class(t.node).name.clone()).unwrap_or_default());
    }
    sha1_hex(&s)
}

fn matches_library(heap: &Heap, from: Node, reference: &str, l: &LibraryLeak) -> bool {
    let idx = &heap.index;
    let Some(field) = reference.strip_prefix('.') else { return false };
    if field != l.field {
        return false;
    }
    match idx.as_class(from) {
        Some(c) => l.is_static && idx.classes[c.index()].name == l.class,
        None => !l.is_static && idx.classes_named(l.class).any(|c| heap.is_subclass(idx.class_of(from), c)),
    }
}

fn find_library(
    heap: &Heap,
    trace: &[TraceStep],
    sdk: Option<u32>,
    maker: Option<&str>,
) -> Option<&'static LibraryLeak> {
    trace.iter().find_map(|t| {
        let r = t.reference.as_deref()?;
        LIBRARY_LEAKS.iter().find(|l| l.applies(sdk, maker) && matches_library(heap, t.node, r, l))
    })
}

fn mark_library_reference(heap: &Heap, trace: &mut [TraceStep], library: Option<&'static LibraryLeak>) {
    let Some(l) = library else { return };
    for t in trace.iter_mut() {
        if t.reference.as_deref().is_some_and(|r| matches_library(heap, t.node, r, l)) {
            t.suspect_reference = true;
        }
    }
}

/// Android's 0x90 records: one group per class.
fn unreachable_groups(heap: &Heap) -> Vec<Leak> {
    let mut by_class: BTreeMap<String, Vec<Node>> = BTreeMap::new();
    for &n in heap.index.marked_unreachable() {
        by_class.entry(heap.display_class(n)).or_default().push(n);
    }
    by_class
        .into_iter()
        .map(|(class, instances)| Leak {
            signature: sha1_hex(&format!("unreachable:{class}")),
            kind: LeakKind::Unreachable,
            rule: "android.unreachable",
            reason: format!("the runtime marked {} objects of this class unreachable", instances.len()),
            retained_bytes: instances.iter().map(|&n| heap.index.shallow_size(n)).sum(),
            retained_objects: instances.len() as u64,
            class,
            instances,
            gc_root: None,
            trace: Vec::new(),
            library: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each group is traced through its member closest to a GC root (the first of those as
    /// close; an unreachable member is farthest), every suspect of no group is traced, and a
    /// group named by two findings is one group: on the dialer dump's paths, with a third of
    /// its objects made suspects of four findings, two of them naming one group.
    #[test]
    fn a_group_is_traced_through_its_member_closest_to_a_root() {
        let dir = crate::testing::fixtures().join("android");
        let heap = Heap::open(&dir.join("adt-tools-base__dialer.android-hprof"), Default::default()).unwrap();
        let groups = [Some("shared"), None, Some("shared"), Some("own")];
        let kinds: Vec<Suspect> = groups
            .iter()
            .map(|g| Suspect {
                node: Node(0),
                rule: "test",
                reason: "".into(),
                accumulation: false,
                group: g.map(std::sync::Arc::from),
            })
            .collect();
        let mut next = crate::testing::xorshift(0x5DEE_CE66_D1CE_4E5B);
        let suspects: Vec<(Node, u32)> = heap
            .index
            .nodes()
            .filter_map(|v| {
                let x = next();
                x.is_multiple_of(3).then_some((v, ((x >> 8) % 4) as u32))
            })
            .collect();
        let paths = heap.paths();
        let depth = |v: Node| match paths.depth(v) {
            0 => usize::MAX,
            d => d,
        };
        let mut want_traced = Vec::new();
        let mut want: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
        for (i, &(v, k)) in suspects.iter().enumerate() {
            match groups[k as usize] {
                None => want_traced.push(i),
                Some(g) => {
                    let e = want.entry(g).or_insert((i, depth(v)));
                    if depth(v) < e.1 {
                        *e = (i, depth(v));
                    }
                }
            }
        }
        want_traced.extend(want.values().map(|r| r.0));
        want_traced.sort_unstable();
        // Members at several depths, some at the best one after the first.
        let shared: Vec<usize> =
            suspects.iter().filter(|s| groups[s.1 as usize] == Some("shared")).map(|s| depth(s.0)).collect();
        let best = want["shared"].1;
        assert!(shared.iter().filter(|&&d| d == best).count() > 1 && shared.iter().any(|&d| d > best));
        assert!(shared.contains(&usize::MAX), "an unreachable member");
        let traced = Traced::choose(&suspects, &kinds, paths);
        assert_eq!(traced.traced, want_traced);
        let got: std::collections::BTreeMap<&str, (usize, usize)> =
            traced.representative.iter().map(|(&g, &r)| (g, r)).collect();
        assert_eq!(got, want);
    }

    /// The suspects `outermost` keeps are those the plain definition keeps, each suspect's
    /// dominators walked to the root and every suspect's rank taken to all of its dominators:
    /// on a real dump's dominator tree (Android's dialer), with a third of the objects made
    /// suspects of three ranks at random, the middle one accumulations.
    #[test]
    fn the_suspects_kept_are_those_no_better_one_nests() {
        let dir = crate::testing::fixtures().join("android");
        let heap = Heap::open(&dir.join("adt-tools-base__dialer.android-hprof"), Default::default()).unwrap();
        let n = heap.index.len();
        let mut rank_of = vec![NO; n];
        let mut found: Vec<Findings> = (0..3).map(|_| Findings::default()).collect();
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        for v in heap.index.nodes() {
            let x = next();
            if heap.dominator(v).is_none() || !x.is_multiple_of(3) {
                continue;
            }
            let f = ((x >> 8) % 3) as usize;
            rank_of[v.index()] = f as u8 + 1;
            found[f].items.push((v, 0));
        }
        for (f, findings) in found.iter_mut().enumerate() {
            let node = findings.items[0].0;
            findings.kinds.push(Suspect { node, rule: "test", reason: "".into(), accumulation: f == 1, group: None });
        }
        let above = |v: Node| {
            let mut out = Vec::new();
            let mut cur = heap.dominator(v).flatten();
            while let Some(a) = cur {
                out.push(a);
                cur = heap.dominator(a).flatten();
            }
            out
        };
        let mut below = vec![NO; n];
        for &(v, _) in found.iter().flat_map(|f| &f.items) {
            for a in above(v) {
                below[a.index()] = below[a.index()].min(rank_of[v.index()]);
            }
        }
        let mut want = Vec::new();
        let mut base = 0;
        for f in &found {
            for &(v, k) in &f.items {
                let r = rank_of[v.index()];
                let a = above(v).iter().map(|a| rank_of[a.index()]).min().unwrap_or(NO);
                let accumulation = f.kinds[k as usize].accumulation;
                if !(a < r || (a == r && accumulation) || below[v.index()] < r) {
                    want.push((v, base + k));
                }
            }
            base += f.kinds.len() as u32;
        }
        // Some kept, some nested.
        let total: usize = found.iter().map(|f| f.items.len()).sum();
        assert!(want.len() > 100 && want.len() < total, "{} of {total}", want.len());
        assert_eq!(outermost(&heap, &found, &rank_of), want);
    }
}
