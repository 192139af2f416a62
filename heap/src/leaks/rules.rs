//! The suspect rules: each finds objects that are probably leaking, with a reason a person can
//! read. Rules run in this module's order; an object found by an earlier rule is not reported
//! again by a later one.

use crate::analysis::Heap;
use crate::dominators::{Reach, ROOT, UNREACHABLE};
use crate::fmt::human_bytes;
use crate::index::classes::ClassId;
use crate::index::{Node, ObjectKind};
use crate::values::Value;

use super::LeakConfig;

/// An object a rule flags.
#[derive(Debug, Clone)]
pub struct Suspect {
    /// The object.
    pub node: Node,
    /// The rule's name (`android.activity.destroyed`...).
    pub rule: &'static str,
    /// Why, for people.
    pub reason: std::sync::Arc<str>,
    /// Whether the finding is about the app's own memory use rather than a lifecycle leak
    /// (accumulation points, huge arrays): such suspects are reported even when a framework
    /// object is on their path.
    pub accumulation: bool,
    /// Suspects with the same key form one group whatever their paths (duplicate bitmaps).
    pub group: Option<std::sync::Arc<str>>,
}

impl Suspect {
    /// The same finding about `node`.
    pub fn at(&self, node: Node) -> Suspect {
        Suspect { node, ..self.clone() }
    }
}

/// What rules found: objects, each with one of a few findings (a class-wide rule flags millions
/// of objects for one reason: 8 bytes each here, not a [`Suspect`] of 56).
#[derive(Default)]
pub struct Findings {
    /// The findings; their `node` is one of the objects found for them.
    pub kinds: Vec<Suspect>,
    /// Each object found, with its finding (an index into `kinds`).
    pub items: Vec<(Node, u32)>,
}

impl Findings {
    /// Every object found, as a suspect of its own.
    pub fn suspects(&self) -> impl Iterator<Item = Suspect> + '_ {
        self.items.iter().map(|&(n, k)| self.kinds[k as usize].at(n))
    }
}

impl From<Vec<Suspect>> for Findings {
    fn from(kinds: Vec<Suspect>) -> Findings {
        let items = kinds.iter().enumerate().map(|(i, s)| (s.node, i as u32)).collect();
        Findings { kinds, items }
    }
}

/// How a rule reports: a suspect per object, or many objects per finding.
#[derive(Clone, Copy)]
enum Run {
    Each(fn(&Heap, &LeakConfig) -> Vec<Suspect>),
    Many(fn(&Heap, &LeakConfig) -> Findings),
}

/// A named rule.
pub struct Rule {
    /// Name used in reports.
    pub name: &'static str,
    /// What it looks for.
    pub doc: &'static str,
    run: Run,
    /// The values it decides by, when it reads any.
    pub needs: Option<Needs>,
}

/// What a rule reads besides references: without it (a heap graph records no field values and
/// no array contents) the rule cannot decide on the objects it judges, and says so
/// ([`super::undecided`]) rather than report nothing.
#[derive(Debug, Clone, Copy)]
pub struct Needs {
    /// The classes whose instances (and subclasses') it judges.
    pub classes: &'static [&'static str],
    /// The fields it decides by: any one of them present is enough.
    pub fields: &'static [&'static str],
    /// Whether it also reads primitive arrays' contents.
    pub contents: bool,
}

impl Rule {
    /// Runs the rule.
    pub fn run(&self, heap: &Heap, config: &LeakConfig) -> Vec<Suspect> {
        self.findings(heap, config).suspects().collect()
    }

    /// Runs the rule, its findings kept compact.
    pub fn findings(&self, heap: &Heap, config: &LeakConfig) -> Findings {
        match self.run {
            Run::Each(f) => f(heap, config).into(),
            Run::Many(f) => f(heap, config),
        }
    }
}

/// Every rule, in priority order.
pub const RULES: &[Rule] = &[
    Rule {
        name: "leakcanary.watched",
        doc: "Objects LeakCanary was watching (KeyedWeakReference referents whose watch began before the dump)",
        run: Run::Each(leakcanary_watched),
        needs: None,
    },
    Rule {
        name: "android.activity.destroyed",
        doc: "Activities whose mDestroyed or mFinished is true but that are still strongly reachable",
        run: Run::Each(destroyed_activities),
        needs: Some(Needs { classes: &["android.app.Activity"], fields: &["mDestroyed", "mFinished"], contents: false }),
    },
    Rule {
        name: "android.fragment.detached",
        doc: "Fragments (androidx, framework, support) with mFragmentManager null after onCreate ran (mCalled)",
        run: Run::Each(detached_fragments),
        needs: Some(Needs { classes: &["androidx.fragment.app.Fragment"], fields: &["mCalled"], contents: false }),
    },
    Rule {
        name: "android.view.detached",
        doc: "Views whose context is a destroyed Activity, and Dialogs, Windows and ViewRootImpls left behind by one",
        run: Run::Each(leftover_windows_and_views),
        needs: Some(Needs {
            classes: &["android.view.Window", "android.app.Activity"],
            fields: &["mDestroyed"],
            contents: false,
        }),
    },
    Rule {
        name: "android.service.stopped",
        doc: "Services no longer in ActivityThread.mServices (stopped) but still strongly reachable",
        run: Run::Each(stopped_services),
        needs: None,
    },
    Rule { name: "jvm.classloader", doc: "Class loaders kept alive only through their own classes", run: Run::Each(leaked_class_loaders), needs: None },
    Rule {
        name: "jvm.threadlocal",
        doc: "Values of ThreadLocal entries whose ThreadLocal is gone (stale entries) that retain a lot",
        run: Run::Each(stale_thread_locals),
        needs: None,
    },
    Rule {
        name: "jvm.finalizer.backlog",
        doc: "Objects waiting for finalization (reachable only through the finalizer's queue), by class, when at least the configured number wait: a slow or stuck finalizer thread",
        run: Run::Many(finalizer_backlog),
        needs: None,
    },
    Rule {
        name: "android.bitmap.large",
        doc: "Bitmaps of at least the configured pixel count",
        run: Run::Each(large_bitmaps),
        needs: Some(Needs { classes: &["android.graphics.Bitmap"], fields: &["mWidth"], contents: false }),
    },
    Rule {
        name: "android.bitmap.duplicate",
        doc: "Bitmaps with the same size and the same pixels, kept more than once",
        run: Run::Each(duplicate_bitmaps),
        needs: Some(Needs { classes: &["android.graphics.Bitmap"], fields: &["mWidth"], contents: true }),
    },
    Rule { name: "accumulation", doc: "Accumulation points: where the app holds a large share of the heap", run: Run::Each(accumulation_points), needs: None },
    Rule {
        name: "accumulation.class",
        doc: "App classes whose instances together retain the configured share of the heap, with no common holder",
        run: Run::Many(class_accumulation),
        needs: None,
    },
    Rule {
        name: "native.large",
        doc: "Objects with at least 1 MiB of native memory registered (NativeAllocationRegistry: Bitmaps' pixels on Android 8+)",
        run: Run::Each(large_native),
        needs: None,
    },
    Rule {
        name: "array.huge",
        doc: "Large arrays: on Android at least 256 KiB (KOOM's threshold); elsewhere at least 1 MiB and the configured share of the heap",
        run: Run::Each(huge_arrays),
        needs: None,
    },
];

fn strongly_reachable(heap: &Heap, n: Node) -> bool {
    heap.dominators.reach(n) == Reach::Strong
}

/// Instances (not class objects) of `class` and its subclasses, given by name.
pub(crate) fn instances_of_subclasses(heap: &Heap, ancestor: &str) -> Vec<Node> {
    let [found] = instances_of_each(heap, [ancestor]);
    found
}

/// [`instances_of_subclasses`] of each of `ancestors`, in one look at every object (on every
/// core: 44 M objects on a dump of long lists, 0.05 s a look).
pub(crate) fn instances_of_each<const K: usize>(heap: &Heap, ancestors: [&str; K]) -> [Vec<Node>; K] {
    const { assert!(K <= 32, "a bit per ancestor in a u32") };
    let idx = &heap.index;
    let ancestors: [Vec<ClassId>; K] = ancestors.map(|name| idx.classes_named(name).collect());
    let mut each: [Vec<Node>; K] = std::array::from_fn(|_| Vec::new());
    let named: Vec<usize> = (0..K).filter(|&k| !ancestors[k].is_empty()).collect();
    if named.is_empty() {
        return each;
    }
    // Which of them each class descends from, a bit each.
    let of: Vec<u32> = (0..idx.classes.len() as u32)
        .map(|c| {
            let c = ClassId(c);
            (0..K).filter(|&k| ancestors[k].iter().any(|&a| heap.is_subclass(c, a))).fold(0, |m, k| m | 1 << k)
        })
        .collect();
    let found = idx.nodes_where(|n| of[idx.class_of(n).index()] != 0 && idx.kind(n) == ObjectKind::Instance);
    // One class named in this dump (most often): its instances are all of them.
    if let [k] = named[..] {
        each[k] = found;
        return each;
    }
    for n in found {
        let m = of[idx.class_of(n).index()];
        for (k, list) in each.iter_mut().enumerate() {
            if m >> k & 1 != 0 {
                list.push(n);
            }
        }
    }
    each
}

fn bool_field(heap: &Heap, n: Node, name: &str) -> Option<bool> {
    match heap.index.field(n, name)? {
        Value::Boolean(b) => Some(b),
        _ => None,
    }
}

fn leakcanary_watched(heap: &Heap, _: &LeakConfig) -> Vec<Suspect> {
    let idx = &heap.index;
    let mut out = Vec::new();
    for class in ["leakcanary.KeyedWeakReference", "com.squareup.leakcanary.KeyedWeakReference"] {
        let dump_time =
            idx.classes_named(class).find_map(|c| idx.static_value(c, "heapDumpUptimeMillis")).and_then(Value::as_i64);
        for r in instances_of_subclasses(heap, class) {
            let Some(referent) = idx.field_node(r, "referent") else { continue };
            let watched = idx.field(r, "watchUptimeMillis").and_then(Value::as_i64);
            if let (Some(w), Some(d)) = (watched, dump_time) {
                if w > d {
                    continue;
                }
            }
            let description = ["description", "name"]
                .iter()
                .find_map(|f| idx.field_node(r, f).and_then(|s| idx.string_value(s)))
                .unwrap_or_default();
            let age = match (watched, dump_time) {
                (Some(w), Some(d)) => format!(", watched for {} ms before the dump", d - w),
                _ => String::new(),
            };
            let what = if description.is_empty() { String::new() } else { format!(" ({description})") };
            out.push(Suspect {
                node: referent,
                rule: "leakcanary.watched",
                reason: format!("LeakCanary was watching this object{what}{age}").into(),
                accumulation: false,
                group: None,
            });
        }
    }
    out
}

fn destroyed_activities(heap: &Heap, _: &LeakConfig) -> Vec<Suspect> {
    instances_of_subclasses(heap, "android.app.Activity")
        .into_iter()
        .filter(|&n| strongly_reachable(heap, n))
        .filter_map(|n| {
            let reason = if bool_field(heap, n, "mDestroyed") == Some(true) {
                "Activity#mDestroyed is true"
            } else if bool_field(heap, n, "mFinished") == Some(true) {
                "Activity#mFinished is true"
            } else {
                return None;
            };
            Some(Suspect {
                node: n,
                rule: "android.activity.destroyed",
                reason: reason.into(),
                accumulation: false,
                group: None,
            })
        })
        .collect()
}

fn detached_fragments(heap: &Heap, _: &LeakConfig) -> Vec<Suspect> {
    let idx = &heap.index;
    // KOOM checks androidx first, then the framework class, then the support library.
    let Some(base) = ["androidx.fragment.app.Fragment", "android.app.Fragment", "android.support.v4.app.Fragment"]
        .into_iter()
        .find(|c| idx.classes_named(c).next().is_some())
    else {
        return Vec::new();
    };
    instances_of_subclasses(heap, base)
        .into_iter()
        .filter(|&n| strongly_reachable(heap, n))
        .filter(|&n| {
            idx.field(n, "mFragmentManager") == Some(Value::Object(0)) && bool_field(heap, n, "mCalled") == Some(true)
        })
        .map(|n| Suspect {
            node: n,
            rule: "android.fragment.detached",
            reason: "Fragment#mFragmentManager is null and Fragment#mCalled is true".into(),
            accumulation: false,
            group: None,
        })
        .collect()
}

/// Loaders the JVM itself creates and keeps: never reported.
const BUILTIN_LOADERS: &[&str] = &[
    "jdk.internal.loader.ClassLoaders$AppClassLoader",
    "jdk.internal.loader.ClassLoaders$PlatformClassLoader",
    "jdk.internal.loader.ClassLoaders$BootClassLoader",
    "sun.misc.Launcher$AppClassLoader",
    "sun.misc.Launcher$ExtClassLoader",
    // Reflection accessors: each generated class has its own loader, held by its Method on purpose.
    "jdk.internal.reflect.DelegatingClassLoader",
    "sun.reflect.DelegatingClassLoader",
    "java.lang.BootClassLoader",
    "dalvik.system.PathClassLoader",
];

fn leaked_class_loaders(heap: &Heap, _: &LeakConfig) -> Vec<Suspect> {
    let idx = &heap.index;
    let mut out = Vec::new();
    for l in instances_of_subclasses(heap, "java.lang.ClassLoader") {
        if !strongly_reachable(heap, l) || BUILTIN_LOADERS.contains(&idx.class(l).name.as_str()) {
            continue;
        }
        let loader_id = idx.id(l);
        let own_classes: Vec<Node> =
            idx.classes.iter().filter(|c| c.loader == loader_id).filter_map(|c| c.node).collect();
        if own_classes.is_empty() {
            continue;
        }
        // Kept alive only by what it defined: every referrer is one of its classes, or one of its
        // own internals (an object it dominates).
        let only_own = heap.referrers(l).into_iter().filter(|(_, weak)| !weak).all(|(r, _)| {
            own_classes.contains(&r) || {
                let mut cur = heap.dominators.idom(r);
                let mut steps = 0;
                while cur != ROOT && cur != UNREACHABLE && cur != l && steps < 10_000 {
                    cur = heap.dominators.idom(cur);
                    steps += 1;
                }
                cur == l
            }
        });
        if only_own {
            let name = own_classes
                .first()
                .and_then(|&c| idx.as_class(c))
                .map(|c| idx.classes[c.index()].name.clone())
                .unwrap_or_default();
            out.push(Suspect {
                node: l,
                rule: "jvm.classloader",
                reason: format!(
                    "nothing refers to this class loader but the {} classes it defined (such as {name}), and something still holds them",
                    own_classes.len()
                ).into(),
                accumulation: false,
                group: None,
            });
        }
    }
    out
}

fn stale_thread_locals(heap: &Heap, config: &LeakConfig) -> Vec<Suspect> {
    let idx = &heap.index;
    let mut out = Vec::new();
    for e in instances_of_subclasses(heap, "java.lang.ThreadLocal$ThreadLocalMap$Entry") {
        if idx.field(e, "referent") != Some(Value::Object(0)) || !strongly_reachable(heap, e) {
            continue;
        }
        let Some(value) = idx.field_node(e, "value") else { continue };
        let retained = heap.dominators.retained(value);
        if retained < config.thread_local_min_bytes {
            continue;
        }
        out.push(Suspect {
            node: value,
            rule: "jvm.threadlocal",
            reason: format!(
                "the value of a stale ThreadLocal entry (its ThreadLocal is gone) retains {}",
                human_bytes(retained)
            )
            .into(),
            accumulation: false,
            group: None,
        });
    }
    out
}

fn large_bitmaps(heap: &Heap, config: &LeakConfig) -> Vec<Suspect> {
    let idx = &heap.index;
    instances_of_subclasses(heap, "android.graphics.Bitmap")
        .into_iter()
        .filter(|&n| strongly_reachable(heap, n))
        .filter_map(|n| {
            let w = idx.field(n, "mWidth").and_then(Value::as_i64)?;
            let h = idx.field(n, "mHeight").and_then(Value::as_i64)?;
            let pixels = w.checked_mul(h)?;
            (pixels >= config.bitmap_min_pixels as i64).then(|| Suspect {
                node: n,
                rule: "android.bitmap.large",
                reason: format!("a {w}x{h} Bitmap: {pixels} pixels, at least {}", config.bitmap_min_pixels).into(),
                accumulation: true,
                group: None,
            })
        })
        .collect()
}

/// Whether `class` is the app's: defined by a loader other than the boot loader and the JDK's
/// platform loader.
pub(crate) fn is_app_class(heap: &Heap, class: ClassId) -> bool {
    let idx = &heap.index;
    let c = &idx.classes[class.index()];
    if c.loader == 0 {
        return false;
    }
    let loader_class = idx.node(c.loader).map(|l| idx.class(l).name.as_str()).unwrap_or("");
    !matches!(loader_class, "jdk.internal.loader.ClassLoaders$PlatformClassLoader" | "sun.misc.Launcher$ExtClassLoader")
}

/// Whether object `n` belongs to the app: an instance of an app class, or an app class object.
fn is_app_object(heap: &Heap, n: Node) -> bool {
    match heap.index.as_class(n) {
        Some(c) => is_app_class(heap, c),
        None => is_app_class(heap, heap.index.class_of(n)),
    }
}

fn accumulation_points(heap: &Heap, config: &LeakConfig) -> Vec<Suspect> {
    let d = &heap.dominators;
    let total = d.reachable_bytes.max(1);
    let threshold = ((total as f64 * config.accumulation_share) as u64).max(config.accumulation_min_bytes);
    let mut out = Vec::new();
    // Walk down from the virtual root through objects above the threshold; an accumulation point
    // is one above it none of whose children is. Remember whether the app is on the way.
    let mut stack: Vec<(Node, bool)> = d
        .children(None)
        .iter()
        .filter(|&&c| d.retained(c) >= threshold)
        .map(|&c| (c, is_app_object(heap, c)))
        .collect();
    while let Some((n, app_above)) = stack.pop() {
        let big: Vec<Node> = d.children(Some(n)).iter().copied().filter(|&c| d.retained(c) >= threshold).collect();
        if !big.is_empty() {
            for c in big {
                stack.push((c, app_above || is_app_object(heap, c)));
            }
            continue;
        }
        let kids = d.children(Some(n));
        let app_below = kids.iter().take(64).any(|&c| is_app_object(heap, c));
        if !(app_above || app_below || is_app_object(heap, n)) {
            continue;
        }
        let share = d.retained(n) as f64 * 100.0 / total as f64;
        // What it holds, by class: the class whose objects retain the most of it.
        let what = retained_by_class_of(heap, kids)
            .iter()
            // The most bytes; on a tie the lowest class number, whatever the map's order.
            .max_by_key(|(&c, (_, bytes))| (*bytes, std::cmp::Reverse(c)))
            .map(|(&c, &(count, bytes))| {
                format!(": mostly {count} x {} ({})", heap.index.classes[c.index()].name, human_bytes(bytes))
            })
            .unwrap_or_default();
        // Report the collection, not its internal array: climb through java.util objects that
        // retain barely more than what they hold.
        let mut shown = n;
        while let Some(Some(p)) = heap.dominator(shown) {
            let is_collection = heap.index.as_class(p).is_none() && heap.index.class(p).name.starts_with("java.util.");
            if !is_collection || d.retained(p) > d.retained(shown) + d.retained(shown) / 10 {
                break;
            }
            shown = p;
        }
        let size = heap
            .index
            .field(shown, "size")
            .and_then(Value::as_i64)
            .map(|s| format!(" of {s} entries"))
            .unwrap_or_default();
        out.push(Suspect {
            node: shown,
            rule: "accumulation",
            reason: format!(
                "{}{size} retains {} ({share:.0}% of the reachable heap){what}",
                heap.display_class(shown),
                human_bytes(d.retained(shown)),
            )
            .into(),
            accumulation: true,
            group: None,
        });
    }
    out
}

/// How many of `kids` each class has and what they retain. An accumulation point may be an
/// array of millions of slots (22 M boxes in one `Object[]`): on every core, a run of one class
/// summed before it meets the map.
fn retained_by_class_of(heap: &Heap, kids: &[Node]) -> rustc_hash::FxHashMap<ClassId, (u64, u64)> {
    use rayon::prelude::*;
    type ByClass = rustc_hash::FxHashMap<ClassId, (u64, u64)>;
    let add = |map: &mut ByClass, c: ClassId, (count, bytes): (u64, u64)| {
        let e = map.entry(c).or_default();
        (e.0, e.1) = (e.0 + count, e.1 + bytes);
    };
    kids.par_chunks(1 << 16)
        .map(|chunk| {
            let mut map = ByClass::default();
            let mut run: Option<(ClassId, (u64, u64))> = None;
            for &k in chunk {
                let (c, r) = (heap.index.class_of(k), heap.dominators.retained(k));
                match &mut run {
                    Some((rc, (count, bytes))) if *rc == c => (*count, *bytes) = (*count + 1, *bytes + r),
                    _ => {
                        if let Some((rc, sums)) = run.replace((c, (1, r))) {
                            add(&mut map, rc, sums);
                        }
                    }
                }
            }
            if let Some((rc, sums)) = run {
                add(&mut map, rc, sums);
            }
            map
        })
        .reduce(ByClass::default, |mut a, b| {
            for (c, sums) in b {
                add(&mut a, c, sums);
            }
            a
        })
}

fn huge_arrays(heap: &Heap, config: &LeakConfig) -> Vec<Suspect> {
    let idx = &heap.index;
    let threshold = if idx.header.format.is_android() {
        config.android_array_bytes
    } else {
        ((heap.dominators.reachable_bytes as f64 * config.huge_array_share) as u64).max(1 << 20)
    };
    idx.nodes()
        .filter(|&n| idx.shallow_size(n) >= threshold && strongly_reachable(heap, n))
        .filter(|&n| matches!(idx.kind(n), ObjectKind::ObjectArray | ObjectKind::PrimitiveArray))
        .map(|n| Suspect {
            node: n,
            rule: "array.huge",
            reason: format!(
                "{} of {} elements takes {}",
                idx.class(n).name,
                idx.array_length(n).unwrap_or(0),
                human_bytes(idx.shallow_size(n))
            )
            .into(),
            accumulation: true,
            group: None,
        })
        .collect()
}

fn duplicate_bitmaps(heap: &Heap, _: &LeakConfig) -> Vec<Suspect> {
    use sha1::{Digest, Sha1};
    let idx = &heap.index;
    // An app's pixels can be most of its dump, so they are read once at most and not held:
    // only Bitmaps of one size and as many bytes of pixels (those that can hold the same
    // pixels) are hashed, in the order their pixels lie in the dump, and the pages read are
    // given back behind them. So are the records read before: Linux maps the whole of a large
    // folio of the page cache at a fault (up to 2 MB), and reading each Bitmap's fields and its
    // array's length mapped 421 MB of a dump of 2,000 Bitmaps of 256 KB (526 MB).
    // The records are given back a folio at a time, as the reads move on from it (the Bitmaps'
    // records lie together, their arrays' headers among their pixels).
    const FOLIO: usize = 2 << 20;
    let windows = [std::cell::Cell::new(usize::MAX), std::cell::Cell::new(usize::MAX)];
    let leave = |w: usize| {
        if w != usize::MAX {
            idx.data.release(w..w + FOLIO);
        }
    };
    let given_back = |n: Node, stream: usize| {
        let w = idx.offsets.get(n.index()) as usize & !(FOLIO - 1);
        let last = windows[stream].replace(w);
        if last != w {
            leave(last);
        }
    };
    let mut found = Vec::new();
    let mut sizes: rustc_hash::FxHashMap<(i64, i64, usize), u32> = Default::default();
    let buffers = std::cell::OnceCell::new();
    for b in instances_of_subclasses(heap, "android.graphics.Bitmap") {
        if !strongly_reachable(heap, b) {
            continue;
        }
        let (Some(w), Some(h)) =
            (idx.field(b, "mWidth").and_then(Value::as_i64), idx.field(b, "mHeight").and_then(Value::as_i64))
        else {
            continue;
        };
        let buffer_of = |ptr| {
            buffers.get_or_init(|| crate::bitmap::DumpBuffers::of(heap)).as_ref().and_then(|d| d.buffer(heap, ptr))
        };
        let pixels = crate::bitmap::pixels_array_in(heap, b, buffer_of);
        given_back(b, 0);
        let Some((pixels, bytes)) = pixels.and_then(|(p, _)| Some((p, idx.primitive_array_bytes(p)?.1))) else {
            continue;
        };
        given_back(pixels, 1);
        *sizes.entry((w, h, bytes.len())).or_default() += 1;
        found.push((b, w, h, bytes));
    }
    windows.iter().for_each(|w| leave(w.get()));
    found.retain(|&(_, w, h, bytes)| sizes[&(w, h, bytes.len())] >= 2);
    let mut in_file: Vec<usize> = (0..found.len()).collect();
    in_file.sort_unstable_by_key(|&k| found[k].3.as_ptr());
    let mut digests = vec![Vec::new(); found.len()];
    // Where each array's pixels lie in the dump (they are read from it).
    let at = |pixels: &[u8]| (pixels.as_ptr() as usize).wrapping_sub(idx.bytes().as_ptr() as usize);
    // Each stretch is given back from a folio below where the last one ended: reading the next
    // array's first page maps its folio again, the end of the last array with it (from where
    // the last one ended, 122 MB of that dump's pixels stayed mapped).
    let mut behind = in_file.first().map_or(0, |&k| at(found[k].3));
    let mut last: Option<usize> = None;
    for k in in_file {
        let pixels = found[k].3;
        // Bitmaps sharing one array (sorted together) take its digest, not a second read.
        if let Some(l) = last.filter(|&l| std::ptr::eq(found[l].3, pixels)) {
            digests[k] = digests[l].clone();
            continue;
        }
        digests[k] = Sha1::digest(pixels).to_vec();
        last = Some(k);
        let end = at(pixels).saturating_add(pixels.len());
        idx.data.release(behind & !(FOLIO - 1)..end);
        behind = end;
    }
    let mut groups: std::collections::BTreeMap<(i64, i64, Vec<u8>), Vec<Node>> = Default::default();
    for ((b, w, h, _), digest) in found.into_iter().zip(digests) {
        groups.entry((w, h, digest)).or_default().push(b);
    }
    let mut out = Vec::new();
    for ((w, h, digest), bitmaps) in groups {
        if bitmaps.len() < 2 {
            continue;
        }
        let key: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        for &b in &bitmaps {
            out.push(Suspect {
                node: b,
                rule: "android.bitmap.duplicate",
                reason: format!("{} Bitmaps of {w}x{h} hold the same pixels", bitmaps.len()).into(),
                accumulation: true,
                group: Some(format!("duplicate bitmap {w}x{h} {key}").into()),
            });
        }
    }
    out
}

fn suspect(node: Node, rule: &'static str, reason: String) -> Suspect {
    Suspect { node, rule, reason: reason.into(), accumulation: false, group: None }
}

fn leftover_windows_and_views(heap: &Heap, _: &LeakConfig) -> Vec<Suspect> {
    use super::inspect::unwrap_context;
    let idx = &heap.index;
    let destroyed = |ctx: Option<Node>| -> bool {
        ctx.map(|c| unwrap_context(heap, c)).is_some_and(|a| {
            instances_of_class(heap, a, "android.app.Activity") && bool_field(heap, a, "mDestroyed") == Some(true)
        })
    };
    let mut out = Vec::new();
    for v in instances_of_subclasses(heap, "android.view.View") {
        if strongly_reachable(heap, v) && destroyed(idx.field_node(v, "mContext")) {
            let attached = idx.field(v, "mAttachInfo").is_some_and(|x| x != Value::Object(0));
            let state = if attached { "still attached" } else { "detached" };
            out.push(suspect(
                v,
                "android.view.detached",
                format!("View#mContext is a destroyed Activity (Activity#mDestroyed is true; {state})"),
            ));
        }
    }
    for d in instances_of_subclasses(heap, "android.app.Dialog") {
        if strongly_reachable(heap, d) && destroyed(idx.field_node(d, "mContext")) {
            out.push(suspect(
                d,
                "android.view.detached",
                "Dialog#mContext is a destroyed Activity (Activity#mDestroyed is true)".into(),
            ));
        }
    }
    for w in instances_of_subclasses(heap, "android.view.Window") {
        if strongly_reachable(heap, w) && bool_field(heap, w, "mDestroyed") == Some(true) {
            out.push(suspect(w, "android.view.detached", "Window#mDestroyed is true".into()));
        }
    }
    for r in instances_of_subclasses(heap, "android.view.ViewRootImpl") {
        if strongly_reachable(heap, r) && idx.field(r, "mView") == Some(Value::Object(0)) {
            out.push(suspect(r, "android.view.detached", "ViewRootImpl#mView is null: its window is gone".into()));
        }
    }
    out
}

fn instances_of_class(heap: &Heap, n: Node, class: &str) -> bool {
    let idx = &heap.index;
    idx.as_class(n).is_none() && idx.classes_named(class).any(|c| heap.is_subclass(idx.class_of(n), c))
}

/// Services ActivityThread still runs: what `sCurrentActivityThread.mServices` (an ArrayMap or
/// HashMap of token to Service) holds, found within a few references of the map.
fn running_services(heap: &Heap) -> Option<std::collections::HashSet<Node>> {
    let idx = &heap.index;
    let c = idx.classes_named("android.app.ActivityThread").next()?;
    let at = idx.node(idx.static_value(c, "sCurrentActivityThread")?.as_object()?)?;
    let map = idx.field_node(at, "mServices")?;
    let mut found = std::collections::HashSet::new();
    let mut frontier = vec![map];
    for _ in 0..4 {
        let mut next = Vec::new();
        for n in frontier {
            for t in idx.references(n) {
                if instances_of_class(heap, t, "android.app.Service") {
                    found.insert(t);
                } else if idx.as_class(t).is_none() {
                    next.push(t);
                }
            }
        }
        frontier = next;
    }
    Some(found)
}

fn stopped_services(heap: &Heap, _: &LeakConfig) -> Vec<Suspect> {
    let Some(running) = running_services(heap) else { return Vec::new() };
    instances_of_subclasses(heap, "android.app.Service")
        .into_iter()
        .filter(|&s| strongly_reachable(heap, s) && !running.contains(&s))
        .map(|s| {
            suspect(s, "android.service.stopped", "not in ActivityThread#mServices: the Service was stopped".into())
        })
        .collect()
}

fn class_accumulation(heap: &Heap, config: &LeakConfig) -> Findings {
    let d = &heap.dominators;
    let total = d.reachable_bytes.max(1);
    let threshold = ((total as f64 * config.accumulation_share) as u64).max(config.accumulation_min_bytes);
    let qualifies = |c: usize| {
        let stats = &heap.histogram[c];
        stats.retained_bytes >= threshold && stats.instances >= 2 && is_app_class(heap, ClassId(c as u32))
    };
    // Sized once: there can be millions (a doubling vector would hold twice that at its peak).
    // (At most one per object: a histogram read from a damaged cache must not ask for more.)
    let wanted: u64 = (0..heap.histogram.len())
        .filter(|&c| qualifies(c))
        .map(|c| heap.histogram[c].instances)
        .fold(0u64, u64::saturating_add)
        .min(heap.index.len() as u64);
    let mut out = Findings { kinds: Vec::new(), items: Vec::with_capacity(wanted as usize) };
    for (c, stats) in heap.histogram.iter().enumerate() {
        if !qualifies(c) {
            continue;
        }
        let class = &heap.index.classes[c];
        // Every instance is a suspect of one group; nesting (a common holder found by the
        // accumulation rule) removes them again.
        let share = stats.retained_bytes as f64 * 100.0 / total as f64;
        let reason: std::sync::Arc<str> = format!(
            "{} instances of {} retain {} ({share:.0}% of the reachable heap) together",
            stats.instances,
            class.name,
            human_bytes(stats.retained_bytes)
        )
        .into();
        let group: std::sync::Arc<str> = format!("class accumulation {}", class.name).into();
        let kind = out.kinds.len() as u32;
        let before = out.items.len();
        // One look at every object on every core for the class and the reach at once, then the
        // pairs written on every core.
        //
        // An instance whose immediate dominator is an instance of the class is left out: the
        // nesting would drop it for that one, found here too (strongly reachable, as what
        // dominates a strongly reachable object is). Nor does leaving it out change what the
        // nesting decides for another suspect: the instance above it stands on the same
        // dominator chains with this finding's rank or a better one. On a dump of chains that
        // is all but 200 of 10 M instances, which the nesting then walked up one by one (this
        // rule 0.078 -> 0.037 s, the nesting 0.078 -> 0.013 s; the run's peak 891-897 -> 861 MB).
        let id = ClassId(c as u32);
        let idx = &heap.index;
        let under_another = |n: Node| {
            let up = heap.dominators.idom(n);
            up.0 < crate::dominators::raw::ROOT && idx.class_of(up) == id
        };
        let found = idx.nodes_where(|n| idx.class_of(n) == id && strongly_reachable(heap, n) && !under_another(n));
        use rayon::prelude::*;
        out.items.par_extend(found.par_iter().map(|&n| (n, kind)));
        if let Some(&(first, _)) = out.items.get(before) {
            out.kinds.push(Suspect {
                node: first,
                rule: "accumulation.class",
                reason,
                accumulation: true,
                group: Some(group),
            });
        }
    }
    out
}

/// Objects waiting for finalization: the referents of `java.lang.ref.Finalizer` (HotSpot) and
/// `java.lang.ref.FinalizerReference` (ART) that nothing reaches more strongly. (A registered
/// object still in use is strongly reachable and not waiting.) One finding a class, past the
/// configured count in all: each holds what its objects keep alive until they are finalized.
fn finalizer_backlog(heap: &Heap, config: &LeakConfig) -> Findings {
    use crate::reachability::Reachability;
    let idx = &heap.index;
    // Referents no strong path reaches, first (cheap); only when there are enough of them are
    // the reachability kinds worked out (a pass over the whole graph) to keep those a finalizer
    // reaches and nothing stronger.
    let mut waiting: Vec<Node> = Vec::new();
    for name in ["java.lang.ref.Finalizer", "java.lang.ref.FinalizerReference"] {
        for class in idx.classes_named(name).collect::<Vec<_>>() {
            for f in heap.instances_of(class) {
                if let Some(r) = idx.field_node(f, "referent") {
                    if heap.dominators.reach(r) == Reach::Weak {
                        waiting.push(r);
                    }
                }
            }
        }
    }
    waiting.sort_unstable();
    waiting.dedup();
    if (waiting.len() as u64) < config.finalizer_backlog.max(1) {
        return Findings::default();
    }
    waiting.retain(|&r| heap.reachability(r) == Reachability::Finalizer);
    let total = waiting.len() as u64;
    if total < config.finalizer_backlog.max(1) {
        return Findings::default();
    }
    let mut by_class: std::collections::BTreeMap<ClassId, Vec<Node>> = Default::default();
    for n in waiting {
        by_class.entry(idx.class_of(n)).or_default().push(n);
    }
    let mut out = Findings::default();
    for (class, nodes) in by_class {
        let name = &idx.classes[class.index()].name;
        let kept: u64 = nodes.iter().map(|&n| heap.dominators.retained(n)).sum();
        let kind = out.kinds.len() as u32;
        out.kinds.push(Suspect {
            node: nodes[0],
            rule: "jvm.finalizer.backlog",
            reason: format!(
                "{} {name} objects wait for finalization, keeping {} alive ({total} objects wait in all: is the finalizer thread stuck?)",
                nodes.len(),
                human_bytes(kept)
            )
            .into(),
            accumulation: true,
            group: Some(format!("finalizer backlog {name}").into()),
        });
        out.items.extend(nodes.into_iter().map(|n| (n, kind)));
    }
    out
}

fn large_native(heap: &Heap, _: &LeakConfig) -> Vec<Suspect> {
    heap.index
        .nodes()
        .filter(|&n| heap.native_size(n) >= 1 << 20 && strongly_reachable(heap, n))
        .map(|n| Suspect {
            node: n,
            rule: "native.large",
            reason: format!("{} of native memory is registered for it", human_bytes(heap.native_size(n))).into(),
            accumulation: true,
            group: None,
        })
        .collect()
}
