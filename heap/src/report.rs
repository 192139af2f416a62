//! What the headless commands print: the `analyze` and `inspect` reports as JSON values and as
//! text for people. The JSON field names are an interface other tools parse: add, never rename.

use std::fmt::Write as _;

use serde_json::{json, Value as Json};

use crate::analysis::Heap;
use crate::dominators::Reach;
use crate::fmt::{fit_name, hex, human_bytes, safe};
use crate::fmt::{shorten_end, wrap};
use crate::index::classes::{ClassId, ClassKind};
use crate::index::Node;

/// Schema version of the JSON reports.
pub const SCHEMA: u32 = 1;

/// Where the dump came from, for the report's `file` object.
pub struct FileInfo<'a> {
    /// Path as given.
    pub path: &'a str,
    /// Size of the file on disk.
    pub bytes: u64,
    /// Whether long class names may be shortened to keep the columns within 100 (for a
    /// terminal); text piped or written to a file keeps every name whole, for `grep`.
    pub cut_names: bool,
}

/// Summary numbers of a dump.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Summary {
    /// Class objects.
    pub classes: u64,
    /// All heap objects but class objects.
    pub instances: u64,
    /// Object arrays.
    pub object_arrays: u64,
    /// Primitive arrays.
    pub primitive_arrays: u64,
    /// GC root records naming objects of the dump.
    pub gc_roots: u64,
    /// Distinct objects named by root records.
    pub gc_root_objects: u64,
    /// Objects reachable from the roots (strongly or through weak references).
    pub reachable_objects: u64,
    /// Shallow size of all objects.
    pub shallow_bytes: u64,
    /// Shallow size of reachable objects.
    pub reachable_bytes: u64,
}

impl Summary {
    /// `N objects: N instances, N object arrays, N primitive arrays, N classes`.
    pub fn objects_line(&self) -> String {
        format!(
            "{} objects: {} instances, {} object arrays, {} primitive arrays, {} classes",
            self.classes + self.instances,
            self.instances - self.object_arrays - self.primitive_arrays,
            self.object_arrays,
            self.primitive_arrays,
            self.classes
        )
    }
}

/// The `analyze` report: a JSON object, and the class histogram kept as rows until it is
/// written. The histogram has a row for every class (26,777 in a dump of many class loaders);
/// as JSON values each row was a map of its own, about 860 bytes, and making them was 15 % of
/// such a dump's analysis. Serialized, a `Report` is the JSON object with `histogram` among its
/// keys in their sorted place, the same bytes [`into_json`](Self::into_json) would give.
pub struct Report<'h> {
    /// Everything but the histogram. Fields added here are written in their sorted place.
    pub json: Json,
    histogram: Vec<HistogramRow<'h>>,
}

/// One class's row of the report's histogram (fields in the sorted order of a JSON map's keys).
#[derive(serde::Serialize)]
struct HistogramRow<'h> {
    class: &'h str,
    #[serde(serialize_with = "hex_or_null")]
    class_id: Option<u64>,
    instances: u64,
    retained_bytes: u64,
    shallow_bytes: u64,
}

fn hex_or_null<S: serde::Serializer>(id: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
    match id {
        Some(id) => s.serialize_str(&hex(*id)),
        None => s.serialize_none(),
    }
}

impl Report<'_> {
    /// How many classes the histogram lists.
    pub fn histogram_rows(&self) -> usize {
        self.histogram.len()
    }

    /// The whole report as one JSON value.
    pub fn into_json(self) -> Json {
        let Report { mut json, histogram } = self;
        // Rows serialize to plain maps; an error is not possible for them.
        json["histogram"] = serde_json::to_value(histogram).unwrap_or_default();
        json
    }
}

impl serde::Serialize for Report<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        const KEY: &str = "histogram";
        let empty = serde_json::Map::new();
        let fields = self.json.as_object().unwrap_or(&empty);
        let mut map = s.serialize_map(Some(fields.len() + 1))?;
        let mut placed = false;
        for (k, v) in fields.iter().filter(|(k, _)| *k != KEY) {
            if !placed && k.as_str() > KEY {
                map.serialize_entry(KEY, &self.histogram)?;
                placed = true;
            }
            map.serialize_entry(k, v)?;
        }
        if !placed {
            map.serialize_entry(KEY, &self.histogram)?;
        }
        map.end()
    }
}

impl Heap {
    /// The summary numbers, derived from the histogram and the class table (no pass over objects).
    pub fn summary(&self) -> Summary {
        let idx = &self.index;
        // A malformed dump may give two class entries one node: count nodes, not entries.
        let mut class_nodes: Vec<Node> = idx.classes.iter().filter_map(|c| c.node).collect();
        class_nodes.sort_unstable();
        class_nodes.dedup();
        let (mut arrays_o, mut arrays_p, mut shallow) = (0u64, 0u64, 0u64);
        for (c, h) in idx.classes.iter().zip(&self.histogram) {
            shallow += h.shallow_bytes;
            match c.kind {
                ClassKind::ObjectArray => arrays_o += h.instances,
                ClassKind::PrimitiveArray(_) => arrays_p += h.instances,
                ClassKind::Instance => {}
            }
        }
        shallow += class_nodes.iter().map(|&n| idx.shallow_size(n)).sum::<u64>();
        let classes = class_nodes.len() as u64;
        Summary {
            classes,
            instances: (idx.len() as u64).saturating_sub(classes),
            object_arrays: arrays_o,
            primitive_arrays: arrays_p,
            gc_roots: self.gc_root_records() as u64,
            gc_root_objects: self.gc_root_objects() as u64,
            reachable_objects: self.dominators.reachable_objects,
            shallow_bytes: shallow,
            reachable_bytes: self.dominators.reachable_bytes,
        }
    }

    /// Objects and shallow bytes per heap, in the dump's heap order (heaps without objects left out).
    pub fn heap_totals(&self) -> Vec<(String, u64, u64)> {
        let idx = &self.index;
        let heaps = idx.heaps.len();
        // With one heap (every HotSpot dump) each object's heap is known without looking its
        // file offset up: 0.045 s of the report on a dump of 22 M objects.
        let t = if heaps <= 1 {
            crate::histogram::count_by(idx, heaps, |_| Some(0))
        } else {
            crate::histogram::count_by_each_run(idx, heaps, || {
                let mut run = 0;
                move |n| Some(idx.heap_of_from(n, &mut run).min(heaps - 1))
            })
        };
        idx.heaps.iter().zip(t).filter(|(_, (o, _))| *o > 0).map(|(h, (o, b))| (h.name.clone(), o, b)).collect()
    }

    /// The classes of the histogram, largest retained first (then shallow, then name, then the
    /// order of the class table).
    ///
    /// Sorted once and kept: on a dump of 26,777 classes, most with no instance and so tied on
    /// both sizes, the sort took 4–6 ms, a third of the keypress that groups the classes by
    /// package (the report asks twice, the Classes screen once per grouping).
    pub fn histogram_order(&self) -> Vec<ClassId> {
        self.histogram_order.get_or_init(|| self.sort_histogram()).clone()
    }

    fn sort_histogram(&self) -> Vec<ClassId> {
        let classes = &self.index.classes;
        let mut rows: Vec<(u64, u64, &str, ClassId)> = (0..classes.len() as u32)
            .map(ClassId)
            .filter(|&c| self.histogram[c.index()].instances > 0 || classes[c.index()].node.is_some())
            .map(|c| {
                let h = &self.histogram[c.index()];
                (h.retained_bytes, h.shallow_bytes, classes[c.index()].name.as_str(), c)
            })
            .collect();
        rows.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(y.1.cmp(&x.1)).then_with(|| x.2.cmp(y.2)).then(x.3.cmp(&y.3)));
        rows.into_iter().map(|r| r.3).collect()
    }

    /// The `analyze` report as JSON, with leak suspects.
    pub fn analyze_json_with_leaks(&self, file: &FileInfo<'_>, top: usize, leaks: &[crate::leaks::Leak]) -> Json {
        self.analyze_report_with_leaks(file, top, leaks).into_json()
    }

    /// The `analyze` report, with leak suspects, ready to serialize (see [`Report`]).
    pub fn analyze_report_with_leaks<'h>(
        &'h self,
        file: &FileInfo<'_>,
        top: usize,
        leaks: &[crate::leaks::Leak],
    ) -> Report<'h> {
        let mut report = self.analyze_report_sections(file, top, None);
        self.add_leaks(&mut report, leaks);
        report
    }

    /// The `analyze` report with its leak suspects, and those suspects: the rules' thresholds
    /// in `config`, and the rules it leaves enabled that could not decide listed; with a
    /// `baseline` (an earlier dump of the same app), the collections that grew since are
    /// suspects too.
    ///
    /// The rules run first, side by side on every core. Then the suspects are nested, traced
    /// and grouped (a chain of steps that keeps one core, two at times) while the sections that
    /// need no suspects are made, each a task the other core takes: the tracing used to wait
    /// for the last rule while that core made the sections alone, and idled once they were
    /// done.
    pub fn analyze_report_finding_leaks<'h>(
        &'h self,
        file: &FileInfo<'_>,
        top: usize,
        config: &crate::leaks::LeakConfig,
        baseline: Option<&Heap>,
    ) -> (Report<'h>, Vec<crate::leaks::Leak>) {
        let ran = crate::leaks::run_rules_for(self, config, baseline);
        let (leaks, mut report) =
            rayon::join(|| ran.leaks(self, config), || self.analyze_report_sections(file, top, Some(config)));
        self.add_leaks(&mut report, &leaks);
        (report, leaks)
    }

    /// The `analyze` report but its leak suspects and the app's metadata, each section a task;
    /// with a `config`, the rules it leaves enabled that could not decide.
    fn analyze_report_sections<'h>(
        &'h self,
        file: &FileInfo<'_>,
        top: usize,
        config: Option<&crate::leaks::LeakConfig>,
    ) -> Report<'h> {
        let summary = || {
            let _span = crate::trace::span("report: summary");
            self.analyze_report(file, top)
        };
        let threads = || {
            let _span = crate::trace::span("report: threads, fds");
            // Every thread with its stack and locals; each group of threads of one name gains
            // the frames of the thread its `example` names.
            let threads = self.threads();
            // The two kinds of instance found in one look at every object.
            let [thread_objects, fds] =
                crate::leaks::rules::instances_of_each(self, ["java.lang.Thread", "java.io.FileDescriptor"]);
            let mut groups = json!(crate::leaks::waste::thread_groups_of(self, thread_objects));
            for g in groups.as_array_mut().into_iter().flatten() {
                let example = threads.iter().find(|t| t.name.as_deref() == g["example"].as_str() && t.frames.is_some());
                g["frames"] = example.map_or(Json::Null, |t| t.to_json(self)["frames"].take());
            }
            let stacks: Json = threads.iter().map(|t| t.to_json(self)).collect();
            (groups, stacks, json!(crate::leaks::waste::fd_groups_of(self, fds)))
        };
        let strings = || {
            let _span = crate::trace::span("report: duplicate strings");
            json!(crate::leaks::waste::duplicate_strings(self, top))
        };
        let undecided = || config.map(|c| json!(crate::leaks::undecided(self, c)));
        let (mut report, ((groups, stacks, fds), (strings, undecided))) =
            rayon::join(summary, || rayon::join(threads, || rayon::join(strings, undecided)));
        let v = &mut report.json;
        v["threads"] = groups;
        v["thread_stacks"] = stacks;
        v["file_descriptors"] = fds;
        v["duplicate_strings"] = strings;
        if let Some(undecided) = undecided {
            v["undecided"] = undecided;
        }
        self.index.release_pages();
        report
    }

    /// The leak suspects and the app's metadata, into `report`.
    fn add_leaks(&self, report: &mut Report<'_>, leaks: &[crate::leaks::Leak]) {
        let _span = crate::trace::span("report: leaks");
        let v = &mut report.json;
        v["leaks"] = crate::leaks::render::leaks_json(self, leaks);
        v["metadata"] = crate::leaks::render::metadata_json(&crate::leaks::metadata::extract(self));
    }

    /// The `analyze` report as JSON, without leak suspects.
    pub fn analyze_json(&self, file: &FileInfo<'_>, top: usize) -> Json {
        self.analyze_report(file, top).into_json()
    }

    /// The `analyze` report without leak suspects, ready to serialize (see [`Report`]).
    pub fn analyze_report<'h>(&'h self, file: &FileInfo<'_>, top: usize) -> Report<'h> {
        let idx = &self.index;
        let span = crate::trace::span("summary: counts");
        let s = self.summary();
        drop(span);
        let span = crate::trace::span("summary: histogram");
        let histogram: Vec<HistogramRow<'h>> = self
            .histogram_order()
            .into_iter()
            .map(|c| {
                let h = &self.histogram[c.index()];
                let class = &idx.classes[c.index()];
                HistogramRow {
                    class: &class.name,
                    class_id: (class.id != 0).then_some(class.id),
                    instances: h.instances,
                    retained_bytes: h.retained_bytes,
                    shallow_bytes: h.shallow_bytes,
                }
            })
            .collect();
        drop(span);
        let span = crate::trace::span("summary: top retained");
        let top_retained: Vec<Json> = self
            .top_retained(top)
            .into_iter()
            .map(|n| {
                json!({
                    "id": hex(idx.id(n)),
                    "class": self.display_class(n),
                    "shallow_bytes": idx.shallow_size(n),
                    "retained_bytes": self.dominators.retained(n),
                    "retained_objects": self.dominators.retained_count(n),
                })
            })
            .collect();
        drop(span);
        let _span = crate::trace::span("summary: the rest");
        let mut v = json!({
            "schema": SCHEMA,
            "file": {
                "path": file.path,
                "format": idx.header.format.as_str(),
                "id_size": idx.header.id_size,
                "bytes": file.bytes,
                "decompressed_bytes": (idx.heap_graph.is_none() && idx.bytes().len() as u64 != file.bytes)
                    .then_some(idx.bytes().len() as u64),
                "timestamp_ms": idx.header.timestamp_ms,
                "heap_graph": idx.heap_graph,
            },
            "summary": {
                "classes": s.classes,
                "instances": s.instances,
                "object_arrays": s.object_arrays,
                "primitive_arrays": s.primitive_arrays,
                "gc_roots": s.gc_roots,
                "gc_root_objects": s.gc_root_objects,
                "reachable_objects": s.reachable_objects,
                "shallow_bytes": s.shallow_bytes,
                "reachable_bytes": s.reachable_bytes,
                "native_bytes": self.native_total(),
                "size_model": idx.sizer.model.name(),
                "semantics": self.semantics.name(),
                "reference_size": idx.sizer.ref_size,
            },
            "heaps": self.heap_totals().into_iter().map(|(name, objects, bytes)| json!({
                "name": name, "objects": objects, "shallow_bytes": bytes,
            })).collect::<Vec<_>>(),
            "records": idx.counts.records,
            "warnings": idx.warnings,
        });
        // Moved in, not through `json!`, which would serialize a copy of them.
        v["top_retained"] = Json::Array(top_retained);
        Report { json: v, histogram }
    }

    /// The class name to show for `n`: for class objects, `class Name`.
    pub fn display_class(&self, n: Node) -> String {
        match self.index.as_class(n) {
            Some(c) => format!("class {}", self.index.classes[c.index()].name),
            None => self.index.class(n).name.clone(),
        }
    }

    /// One `inspect` entry as JSON.
    pub fn inspect_json(&self, n: Node) -> Json {
        let idx = &self.index;
        let d = &self.dominators;
        let fields: Vec<Json> = idx
            .fields(n)
            .into_iter()
            .map(|f| {
                let mut o = json!({"name": f.name, "type": f.ty.java_name(), "value": f.value.to_json()});
                if f.is_static {
                    o["static"] = json!(true);
                }
                o
            })
            .collect();
        let path: Vec<Json> = self
            .paths()
            .path(idx, n)
            .into_iter()
            .map(|s| json!({"id": hex(idx.id(s.node)), "class": self.display_class(s.node), "reference": s.reference, "weak": s.weak}))
            .collect();
        let mut o = json!({
            "id": hex(idx.id(n)),
            "class": self.display_class(n),
            "kind": idx.kind(n),
            "heap": idx.heaps.get(idx.heap_of(n)).map(|h| h.name.as_str()).unwrap_or("default"),
            "shallow_bytes": idx.shallow_size(n),
            "retained_bytes": d.retained(n),
            "retained_objects": d.retained_count(n),
            "native_bytes": self.native_size(n),
            "dominator": match self.dominator(n) { Some(Some(p)) => Json::from(hex(idx.id(p))), _ => Json::Null },
            "dominated": self.dominated(Some(n)).into_iter().map(|c| hex(idx.id(c))).collect::<Vec<_>>(),
            "gc_roots": self.root_kinds(n).iter().map(|k| k.name()).collect::<Vec<_>>(),
            "referrers": self.referrers(n).into_iter().map(|(r, weak)| json!({"id": hex(idx.id(r)), "class": self.display_class(r), "weak": weak})).collect::<Vec<_>>(),
            "reachable": d.reach(n) != Reach::Unreachable,
            "reachability": d.reach(n),
            "reachability_kind": self.reachability(n).name(),
            "fields": fields,
            "path_to_root": path,
        });
        if let Some(len) = idx.array_length(n) {
            o["length"] = json!(len);
        }
        if idx.heap_graph.is_some() {
            o["values_recorded"] = json!(false);
        }
        if let Some(t) = idx.root_thread(n) {
            o["root_thread"] = json!({"id": hex(idx.id(t)), "name": self.thread_name(t)});
        }
        if let Some(s) = idx.string_value(n) {
            o["string"] = json!(s);
        }
        o
    }

    /// The `analyze` report as text for people, at most 100 columns wide. Names and strings from
    /// the dump, and the file's path, are made [`safe`] where they are put in.
    ///
    /// `undecided` are the rules that could not decide on this dump ([`crate::leaks::undecided`]),
    /// said under the suspects.
    pub fn analyze_text(
        &self,
        file: &FileInfo<'_>,
        top: usize,
        leaks: &[crate::leaks::Leak],
        undecided: &[crate::leaks::Undecided],
    ) -> String {
        let idx = &self.index;
        let s = self.summary();
        let name = |n: &str, max: usize| fit_name(n, max, file.cut_names);
        let mut out = String::new();
        match &idx.heap_graph {
            Some(origin) => {
                let _ = writeln!(
                    out,
                    "{}  (Perfetto heap graph {} of {}, {}, size model {})",
                    safe(file.path),
                    origin.number,
                    origin.graphs.len(),
                    human_bytes(file.bytes),
                    self.model_and_rules()
                );
                if origin.graphs.len() > 1 {
                    for (i, g) in origin.graphs.iter().enumerate() {
                        let _ = writeln!(
                            out,
                            "  {} graph {}: pid {} {}, {} ns, {} objects{}",
                            if i + 1 == origin.number { "*" } else { " " },
                            i + 1,
                            g.pid,
                            safe(g.process.as_deref().unwrap_or("(no command line)")),
                            g.timestamp_ns,
                            g.objects,
                            if g.truncated { ", incomplete" } else { "" }
                        );
                    }
                }
            }
            None => {
                // A compressed dump says both sizes: the file's, and the dump's.
                let size = match idx.bytes().len() as u64 {
                    data if data != file.bytes && file.bytes > 0 => {
                        format!("{}, {} decompressed", human_bytes(file.bytes), human_bytes(data))
                    }
                    _ => human_bytes(file.bytes),
                };
                let _ = writeln!(
                    out,
                    "{}  (HPROF {}, {}-byte ids, {size}, size model {})",
                    safe(file.path),
                    idx.header.format.as_str(),
                    idx.header.id_size,
                    self.model_and_rules()
                );
            }
        }
        let _ = writeln!(out, "{}", s.objects_line());
        let _ = writeln!(
            out,
            "{} GC roots on {} objects; {} objects reachable ({}) of {} shallow",
            s.gc_roots,
            s.gc_root_objects,
            s.reachable_objects,
            human_bytes(s.reachable_bytes),
            human_bytes(s.shallow_bytes)
        );
        for (name, objects, bytes) in self.heap_totals() {
            let _ = writeln!(out, "  heap {:<10} {objects:>12} objects {:>12}", safe(&name), human_bytes(bytes));
        }
        for w in &idx.warnings {
            let _ = writeln!(out, "warning: {}", safe(w));
        }
        let _ = writeln!(out, "\nClasses by retained size (top {top})");
        let _ = writeln!(out, "{:>12} {:>12} {:>12}  class", "instances", "shallow", "retained");
        for c in self.histogram_order().into_iter().take(top) {
            let h = &self.histogram[c.index()];
            let _ = writeln!(
                out,
                "{:>12} {:>12} {:>12}  {}",
                h.instances,
                human_bytes(h.shallow_bytes),
                human_bytes(h.retained_bytes),
                name(&idx.classes[c.index()].name, 60)
            );
        }
        let _ = writeln!(out, "\nLeak suspects ({})", leaks.len());
        for l in leaks.iter().take(top) {
            let _ = writeln!(
                out,
                "{:>12} {:>6}x  {:<11} {}",
                human_bytes(l.retained_bytes),
                l.instances.len(),
                format!("{:?}", l.kind).to_lowercase(),
                name(&l.class, 66)
            );
            for line in wrap(&safe(&l.reason), 78) {
                let _ = writeln!(out, "{:>21}{line}", "");
            }
        }
        for u in undecided {
            let _ = writeln!(
                out,
                "  could not decide: {} on {} {} (the dump does not record {})",
                u.rule, u.objects, u.class, u.missing
            );
        }
        let _ = writeln!(out, "\nObjects by retained size (top {top})");
        let _ = writeln!(out, "{:<18} {:>12} {:>12} {:>10}  class", "id", "shallow", "retained", "objects");
        for n in self.top_retained(top) {
            let _ = writeln!(
                out,
                "{:<18} {:>12} {:>12} {:>10}  {}",
                hex(idx.id(n)),
                human_bytes(idx.shallow_size(n)),
                human_bytes(self.dominators.retained(n)),
                self.dominators.retained_count(n),
                name(&self.display_class(n), 40)
            );
        }
        out
    }

    /// One `inspect` entry as text; names from the dump made [`safe`], the String's value quoted
    /// with `{:?}` (which escapes control characters).
    ///
    /// `cut_names`: whether long class names may be shortened (a terminal); piped or written to
    /// a file, every name stays whole.
    pub fn inspect_text(&self, n: Node, cut_names: bool) -> String {
        let idx = &self.index;
        let d = &self.dominators;
        let mut out = String::new();
        let _ = writeln!(out, "{} {}", hex(idx.id(n)), safe(&self.display_class(n)));
        let heap = safe(idx.heaps.get(idx.heap_of(n)).map(|h| h.name.as_str()).unwrap_or("default"));
        let _ = writeln!(
            out,
            "  heap {heap}, shallow {}, retained {} in {}, {}",
            human_bytes(idx.shallow_size(n)),
            human_bytes(d.retained(n)),
            crate::fmt::count(u64::from(d.retained_count(n)), "object"),
            self.reachability(n).name()
        );
        if let Some(s) = idx.string_value(n) {
            let _ = writeln!(out, "  value {:?}", shorten_end(&s, 80));
        }
        let roots = self.root_kinds(n);
        if !roots.is_empty() {
            let names: Vec<&str> = roots.iter().map(|k| k.label()).collect();
            let thread = idx.root_thread(n).and_then(|t| self.thread_name(t));
            let of = thread.map(|t| format!(" (thread '{}')", safe(&t))).unwrap_or_default();
            let _ = writeln!(out, "  GC root: {}{of}", names.join(", "));
        }
        for f in idx.fields(n) {
            let st = if f.is_static { "static " } else { "" };
            let _ = writeln!(out, "  {st}{} {} = {}", f.ty.java_name(), safe(&f.name), f.value);
        }
        if let Some(note) = idx.values_note() {
            let _ = writeln!(out, "  ({note})");
        }
        let path = self.paths().path(idx, n);
        if !path.is_empty() {
            let _ = writeln!(out, "  path from GC root:");
            for s in path {
                let r = s.reference.unwrap_or_default();
                let _ = writeln!(
                    out,
                    "    {:<24} {} {}",
                    safe(&r),
                    hex(idx.id(s.node)),
                    fit_name(&self.display_class(s.node), 60, cut_names)
                );
            }
        }
        out
    }
}
