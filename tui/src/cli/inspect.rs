//! `heaptui inspect FILE TARGET`: one object by id, or every instance of a class.

use std::path::PathBuf;

use anyhow::bail;

use super::Format;

/// Arguments of `inspect`.
#[derive(clap::Args)]
pub struct Args {
    /// The heap dump.
    pub file: PathBuf,
    /// An object id (`0x1234abcd`) or a class name in Java form (`java.lang.String`, `byte[]`).
    pub target: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// At most this many objects (largest retained first).
    #[arg(long)]
    pub limit: Option<usize>,
    /// The shortest paths from the GC roots to all the objects, merged into one tree (MAT's
    /// "Merge Shortest Paths to GC Roots"): each object on them with how many paths pass through
    /// it and the retained size those objects account for.
    #[arg(long, conflicts_with = "immediate_dominators")]
    pub merged_paths: bool,
    /// The objects' immediate dominators, grouped by class (MAT's "Immediate Dominators").
    #[arg(long)]
    pub immediate_dominators: bool,
    /// Writes the picture of the Bitmap the id names to a new PNG file (never over one).
    #[arg(long, value_name = "OUT.png")]
    pub png: Option<PathBuf>,
    /// How deep the merged paths' tree is printed.
    #[arg(long, default_value_t = 12)]
    pub depth: usize,
    #[command(flatten)]
    pub open: super::OpenArgs,
}

/// Runs `inspect`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let heap = super::open(&args.file, &args.open)?;
    let nodes = select(&heap, &args.target)?;
    let nodes: Vec<heap::Node> = nodes.into_iter().take(args.limit.unwrap_or(usize::MAX)).collect();
    if let Some(out) = &args.png {
        let [n] = nodes[..] else { crate::fail!(Usage, "--png takes one Bitmap's id, not {} objects", nodes.len()) };
        let picture = match heap.bitmap(n) {
            None => crate::fail!(BadInput, "{} is a {}, not a Bitmap", args.target, heap.display_class(n)),
            Some(Err(why)) => bail!("{}: {why}", args.target),
            Some(Ok(p)) => p,
        };
        let (w, h) = crate::session::pictures::write_png(&picture, out)?;
        return super::print(&format!("wrote {w}x{h} pixels to {}\n", out.display()));
    }
    // The views of the whole set: the tree's nodes show their 20 largest children.
    if args.merged_paths || args.immediate_dominators {
        let (json, text) = if args.merged_paths {
            let m = heap.merged_paths(&nodes);
            (m.to_json(&heap, args.depth, 20), m.to_text(&heap, args.depth, 20))
        } else {
            let d = heap.immediate_dominators(&nodes);
            (d.to_json(&heap, 20), d.to_text(&heap))
        };
        return match args.format {
            Format::Json => super::print_json(&(serde_json::to_string_pretty(&json)? + "\n")),
            Format::Text => super::print(&text),
        };
    }
    match args.format {
        Format::Json => {
            let v: Vec<serde_json::Value> = nodes.iter().map(|&n| heap.inspect_json(n)).collect();
            let mut s = serde_json::to_string_pretty(&v)?;
            s.push('\n');
            super::print_json(&s)
        }
        Format::Text => {
            use std::io::IsTerminal;
            let cut = std::io::stdout().is_terminal();
            let mut s = String::new();
            for n in nodes {
                s.push_str(&heap.inspect_text(n, cut));
                s.push('\n');
            }
            super::print(&s)
        }
    }
}

/// The objects `target` names, largest retained first.
pub fn select(heap: &heap::Heap, target: &str) -> anyhow::Result<Vec<heap::Node>> {
    if let Some(hex) = target.strip_prefix("0x").or_else(|| target.strip_prefix("0X")) {
        let Ok(id) = u64::from_str_radix(hex, 16) else { crate::fail!(Usage, "{target:?} is not a hex object id") };
        let Some(n) = heap.index.node(id) else { crate::fail!(BadInput, "no object with id {target} in the dump") };
        return Ok(vec![n]);
    }
    let mut classes: Vec<heap::ClassId> = heap.index.classes_named(target).collect();
    if classes.is_empty() {
        // A simple name (`MainActivity`, `Outer$Inner`) matches the end of a full name.
        let dotted = format!(".{target}");
        let nested = format!("${target}");
        classes = (0..heap.index.classes.len() as u32)
            .map(heap::ClassId)
            .filter(|&c| {
                let name = &heap.index.classes[c.index()].name;
                name.ends_with(&dotted) || name.ends_with(&nested)
            })
            .collect();
        let mut names: Vec<&str> = classes.iter().map(|&c| heap.index.classes[c.index()].name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        if names.len() > 1 {
            crate::fail!(Usage, "{target:?} matches several classes: {}", names.join(", "));
        }
    }
    if classes.is_empty() {
        crate::fail!(
            BadInput,
            "no class named {target:?} in the dump (use the Java form, e.g. java.lang.String or int[])"
        );
    }
    let mut nodes: Vec<heap::Node> = classes.iter().flat_map(|&c| heap.instances_by_retained(c).to_vec()).collect();
    if classes.len() > 1 {
        let d = &heap.dominators;
        nodes.sort_by(|a, b| d.retained(*b).cmp(&d.retained(*a)).then(a.cmp(b)));
    }
    Ok(nodes)
}
