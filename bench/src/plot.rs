//! `--plot [TSV] OUT.svg`: how time and memory grow with the dump's size, from the lines a
//! `--scale` run wrote (`scale.tsv` in the cache): time on the left, peak memory on the right,
//! with the machine's memory and 0.35× the file (the memory goal) drawn for scale.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use plotters::prelude::*;

/// One `--scale` run: the dump's size, its objects, seconds, peak allocated and peak RSS (GB).
struct Point {
    gb: f64,
    seconds: f64,
    allocated: f64,
    rss: f64,
}

fn read(tsv: &Path) -> Result<Vec<Point>> {
    let text = std::fs::read_to_string(tsv).with_context(|| tsv.display().to_string())?;
    let mut points = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let v: Vec<f64> =
            line.split('\t').map(str::parse).collect::<Result<_, _>>().with_context(|| line.to_string())?;
        let [gb, _objects, seconds, allocated, rss] = v[..] else {
            bail!("{}: not five columns: {line}", tsv.display())
        };
        points.push(Point { gb, seconds, allocated, rss });
    }
    points.sort_by(|a, b| a.gb.total_cmp(&b.gb));
    if points.is_empty() {
        bail!("{} holds no runs", tsv.display());
    }
    Ok(points)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// One panel: dump size across, `y_desc` up to `max_y`.
fn chart<'a, 'b>(area: &'a Area<'b>, caption: &str, max_x: f64, max_y: f64, y_desc: &str) -> Result<Chart<'a, 'b>> {
    let mut c = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..max_x, 0.0..max_y)?;
    c.configure_mesh().light_line_style(WHITE).x_desc("dump (GB)").y_desc(y_desc).draw()?;
    Ok(c)
}

pub fn run(args: &[String]) -> Result<()> {
    let (tsv, out) = match args {
        [out] => (crate::cache_dir().join("scale.tsv"), PathBuf::from(out)),
        [tsv, out] => (PathBuf::from(tsv), PathBuf::from(out)),
        _ => bail!("--plot [TSV] OUT.svg"),
    };
    let points = read(&tsv)?;
    let ram = crate::mem_total() as f64 / 1e9;
    let max_gb = points.iter().map(|p| p.gb).fold(0.0, f64::max) * 1.05;
    let max_s = points.iter().map(|p| p.seconds).fold(0.0, f64::max) * 1.1;
    let max_mem = points.iter().map(|p| p.rss.max(p.allocated)).fold(ram, f64::max) * 1.1;

    let root = SVGBackend::new(&out, (1000, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(500);
    let mut time = chart(&left, "analyze: whole run", max_gb, max_s, "seconds")?;
    let line = |f: &dyn Fn(&Point) -> f64| points.iter().map(|p| (p.gb, f(p))).collect::<Vec<_>>();
    time.draw_series(LineSeries::new(line(&|p| p.seconds), BLUE.stroke_width(2)))?;
    time.draw_series(line(&|p| p.seconds).into_iter().map(|xy| Circle::new(xy, 4, BLUE.filled())))?;

    let mut mem = chart(&right, "peak memory", max_gb, max_mem, "GB")?;
    mem.draw_series(LineSeries::new(line(&|p| p.rss), RED.stroke_width(2)))?
        .label("peak RSS (with the mapped dump's pages)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], RED.stroke_width(2)));
    mem.draw_series(line(&|p| p.rss).into_iter().map(|xy| Circle::new(xy, 4, RED.filled())))?;
    mem.draw_series(LineSeries::new(line(&|p| p.allocated), GREEN.stroke_width(2)))?
        .label("peak allocated")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], GREEN.stroke_width(2)));
    mem.draw_series(LineSeries::new(vec![(0.0, ram), (max_gb, ram)], BLACK.stroke_width(1)))?
        .label(format!("this machine's memory ({ram:.1} GB)"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK.stroke_width(1)));
    mem.draw_series(LineSeries::new(vec![(0.0, 0.0), (max_gb, max_gb * 0.35)], BLACK.mix(0.4).stroke_width(1)))?
        .label("0.35x the file")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK.mix(0.4).stroke_width(1)));
    mem.configure_series_labels().position(SeriesLabelPosition::UpperLeft).border_style(BLACK).draw()?;
    root.present()?;
    println!("{}", out.display());
    Ok(())
}
