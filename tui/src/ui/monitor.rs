//! Screen 6, the live monitor: a process on this machine or a phone, sampled by a watcher thread
//! (see `run.rs`), its samples charted against the lines that trigger a dump, and the triggers'
//! events logged. The triggers run here, on the host, in `update` (no I/O), as `heaptui monitor`
//! runs them.

use std::collections::VecDeque;

use agent::sample::Sample;
use agent::trigger::{Config, Triggers};
use heap::report::human_bytes;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph};
use ratatui::Frame;

use super::line_edit::LineEdit;
use super::theme::Theme;

/// How many samples the charts keep (at 1 s, ten minutes).
pub const KEEP: usize = 600;

/// A process to watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// A phone's serial; `None` for this machine.
    pub serial: Option<String>,
    /// Process id on that device.
    pub pid: u32,
    /// What the user called it (for dump file names).
    pub name: String,
}

impl Target {
    /// `local` or the serial.
    pub fn device(&self) -> &str {
        self.serial.as_deref().unwrap_or("local")
    }
}

/// The monitor's state.
pub struct MonitorState {
    pub target: Target,
    /// Seconds since the first sample, and the sample.
    pub samples: VecDeque<(f64, Sample)>,
    first_ms: Option<u64>,
    pub triggers: Triggers,
    /// Seconds, and what happened.
    pub events: Vec<(f64, String)>,
    /// Dump when a trigger fires (once, as KOOM does).
    pub auto_dump: bool,
    /// A dump was asked for (by a trigger or `d`) and has not finished.
    pub dumping: bool,
    /// Dumps taken in this session.
    pub dumps: Vec<std::path::PathBuf>,
    /// When dumps were asked for (seconds), marked on the charts.
    pub marks: Vec<f64>,
    /// The thresholds being edited (`t`), as a trigger spec.
    pub editing: Option<LineEdit>,
    /// Why the watch ended, once it has.
    pub ended: Option<String>,
}

/// What a sample asks of the main loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Dump the watched process; the trigger's kind.
    Dump(&'static str),
}

impl MonitorState {
    /// Watching `target` with thresholds `config`.
    pub fn new(target: Target, config: Config) -> MonitorState {
        MonitorState {
            target,
            samples: VecDeque::new(),
            first_ms: None,
            triggers: Triggers::new(config),
            events: Vec::new(),
            auto_dump: false,
            dumping: false,
            dumps: Vec::new(),
            marks: Vec::new(),
            editing: None,
            ended: None,
        }
    }

    /// Takes a sample: charts it, feeds the triggers, logs what fires; asks for a dump when
    /// auto-dump is on and nothing was dumped yet.
    pub fn on_sample(&mut self, s: Sample) -> Option<Request> {
        let first = *self.first_ms.get_or_insert(s.time_ms);
        let t = s.time_ms.saturating_sub(first) as f64 / 1000.0;
        let events = self.triggers.feed(&s);
        if self.samples.len() == KEEP {
            self.samples.pop_front();
        }
        self.samples.push_back((t, s));
        let mut request = None;
        for e in events {
            self.events.push((t, format!("TRIGGER {}: {}", e.kind, e.message)));
            if self.auto_dump && !self.dumping && self.dumps.is_empty() && request.is_none() {
                self.dumping = true;
                self.marks.push(t);
                self.events.push((t, "auto-dump: dumping".into()));
                request = Some(Request::Dump(e.kind));
            }
        }
        request
    }

    /// The last sample's time.
    pub fn now(&self) -> f64 {
        self.samples.back().map_or(0.0, |s| s.0)
    }

    /// Applies a trigger spec (`heap=85%,threads=500`) over the current thresholds.
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        let config = agent::trigger::parse(spec, self.triggers.config.clone())?;
        // New lines, same history: the alarms re-arm against the new thresholds.
        self.triggers = Triggers::new(config);
        let t = self.now();
        self.events.push((t, format!("thresholds: {spec}")));
        Ok(())
    }

    /// The thresholds in words for the last sample.
    pub fn describe(&self) -> String {
        match self.samples.back() {
            Some((_, s)) => crate::cmd::monitor::describe(&self.triggers, s),
            None => String::new(),
        }
    }
}

fn mib(b: u64) -> f64 {
    b as f64 / (1 << 20) as f64
}

/// Draws the monitor screen.
pub fn draw(frame: &mut Frame<'_>, area: Rect, theme: &Theme, m: Option<&MonitorState>) {
    let Some(m) = m else {
        let text = vec![
            Line::styled("Nothing is being watched", theme.header),
            Line::raw(""),
            Line::raw("Run heaptui with no argument and pick a process (a phone's app or a local JVM):"),
            Line::raw("this screen then charts its Java heap, RSS/PSS, threads and open files against"),
            Line::raw("the lines that trigger a dump. Headless: heaptui monitor PROCESS --json."),
        ];
        frame.render_widget(Paragraph::new(text), area);
        return;
    };
    let [head, charts, log] =
        Layout::vertical([Constraint::Length(3), Constraint::Min(8), Constraint::Length(7)]).areas(area);
    let last = m.samples.back().map(|s| &s.1);
    let name = &m.target.name;
    let mut state =
        format!("auto-dump {}{}", if m.auto_dump { "ON" } else { "off" }, if m.dumping { " · dumping…" } else { "" });
    if let Some(p) = m.dumps.last() {
        state.push_str(&format!(" · dumped {}", p.display()));
    }
    if let Some(e) = &m.ended {
        state.push_str(&format!(" · ended: {e}"));
    }
    let mut lines = vec![
        Line::from(vec![
            Span::styled(format!("{} ({}) on {}", name, m.target.pid, m.target.device()), theme.header),
            Span::raw(format!("  {state}")),
        ]),
        Line::styled(format!("thresholds: {}", m.describe()), theme.dim),
    ];
    lines.push(match &m.editing {
        Some(spec) => Line::raw(format!("new thresholds (Enter applies, Esc cancels): {}", spec.shown(true))),
        None => Line::styled("a auto-dump · t thresholds · d dump now", theme.dim),
    });
    frame.render_widget(Paragraph::new(lines), head);

    let [top, bottom] = Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(charts);
    let [heap_area, mem_area] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(top);
    let [thr_area, fd_area] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(bottom);
    let series = |f: &dyn Fn(&Sample) -> Option<f64>| -> Vec<(f64, f64)> {
        m.samples.iter().filter_map(|(t, s)| f(s).map(|v| (*t, v))).collect()
    };
    let flat = |v: Option<f64>| -> Vec<(f64, f64)> {
        match (v, m.samples.front(), m.samples.back()) {
            (Some(v), Some(a), Some(b)) => vec![(a.0, v), (b.0, v)],
            _ => Vec::new(),
        }
    };

    // Java heap: used, max, and the trigger's line.
    let used = series(&|s| s.java_heap.map(|h| mib(h.used)));
    let max = last.and_then(|s| s.java_heap).map(|h| h.max);
    let line = max.and_then(|mx| m.triggers.heap_line(mx));
    let title = match last.and_then(|s| s.java_heap) {
        Some(h) => format!(
            " Java heap {} / {}{} ",
            human_bytes(h.used),
            human_bytes(h.max),
            line.map_or(String::new(), |l| format!(", dump at {}", human_bytes(l)))
        ),
        None => " Java heap: unknown (no hsperfdata or dumpsys) ".to_string(),
    };
    // Each dump as a vertical line, as high as the heap's max.
    let top = max.map(mib).unwrap_or_else(|| used.iter().map(|p| p.1).fold(1.0, f64::max));
    let mut heap_series = vec![
        ("used", used, theme.accent),
        ("max", flat(max.map(mib)), theme.dim),
        ("trigger", flat(line.map(mib)), theme.error),
    ];
    // Marks of dumps older than the oldest sample kept have scrolled off.
    let since = m.samples.front().map_or(0.0, |s| s.0);
    for (i, &t) in m.marks.iter().filter(|&&t| t >= since).enumerate() {
        heap_series.push((if i == 0 { "dump" } else { "" }, vec![(t, 0.0), (t, top)], theme.header));
    }
    chart(frame, heap_area, theme, &title, "MiB", heap_series);

    let rss = series(&|s| Some(s.rss_kb as f64 / 1024.0));
    let pss = series(&|s| s.pss_kb.map(|k| k as f64 / 1024.0));
    let title = match last {
        Some(s) => format!(
            " RSS {} · PSS {} ",
            human_bytes(s.rss_kb * 1024),
            s.pss_kb.map_or("-".into(), |k| human_bytes(k * 1024))
        ),
        None => " RSS · PSS ".into(),
    };
    chart(frame, mem_area, theme, &title, "MiB", vec![("rss", rss, theme.accent), ("pss", pss, theme.dim)]);

    let threads = series(&|s| Some(s.threads as f64));
    let tl = m.triggers.config.threads.map(|n| n as f64);
    let title = format!(" Threads {} ", last.map_or("-".into(), |s| s.threads.to_string()));
    chart(
        frame,
        thr_area,
        theme,
        &title,
        "",
        vec![("threads", threads, theme.accent), ("trigger", flat(tl), theme.error)],
    );

    let fds = series(&|s| Some(s.fds as f64));
    let fl = m.triggers.fd_line(last.and_then(|s| s.fd_limit)).map(|n| n as f64);
    let title = format!(
        " Open files {}{} ",
        last.map_or("-".into(), |s| s.fds.to_string()),
        last.and_then(|s| s.fd_limit).map_or(String::new(), |l| format!(" of {l}"))
    );
    chart(frame, fd_area, theme, &title, "", vec![("fds", fds, theme.accent), ("trigger", flat(fl), theme.error)]);

    let block = Block::default().borders(Borders::TOP).title(" Events ");
    let inner = block.inner(log);
    frame.render_widget(block, log);
    let shown: Vec<Line<'_>> = m
        .events
        .iter()
        .rev()
        .take(inner.height as usize)
        .map(|(t, e)| {
            let style = if e.starts_with("TRIGGER") { theme.error } else { Style::default() };
            Line::styled(format!("{t:>7.1}s  {e}"), style)
        })
        .collect();
    frame.render_widget(Paragraph::new(shown), inner);
}

type Series<'a> = (&'a str, Vec<(f64, f64)>, Style);

fn chart(frame: &mut Frame<'_>, area: Rect, theme: &Theme, title: &str, unit: &str, series: Vec<Series<'_>>) {
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0.0f64);
    for (_, pts, _) in &series {
        for &(x, y) in pts {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
    }
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    if x1 - x0 < 1.0 {
        x1 = x0 + 1.0;
    }
    let y1 = if y1 <= 0.0 { 1.0 } else { y1 * 1.1 };
    let datasets: Vec<Dataset<'_>> = series
        .iter()
        .map(|(name, pts, style)| {
            Dataset::default().name(*name).marker(Marker::Braille).graph_type(GraphType::Line).style(*style).data(pts)
        })
        .collect();
    let label = |v: f64| if unit.is_empty() { format!("{v:.0}") } else { format!("{v:.0} {unit}") };
    let chart = Chart::new(datasets)
        .block(Block::default().borders(Borders::ALL).title(title.to_string()).border_style(theme.dim))
        .x_axis(Axis::default().bounds([x0, x1]).labels([format!("{x0:.0}s"), format!("{x1:.0}s")]).style(theme.dim))
        .y_axis(Axis::default().bounds([0.0, y1]).labels(["0".to_string(), label(y1)]).style(theme.dim));
    frame.render_widget(chart, area);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t_ms: u64, used_mib: u64) -> Sample {
        Sample {
            time_ms: 1_000_000 + t_ms,
            pid: 42,
            name: "app".into(),
            rss_kb: 200_000,
            pss_kb: Some(150_000),
            vm_size_kb: 4_000_000,
            vm_peak_kb: 4_000_000,
            threads: 30,
            fds: 100,
            fd_limit: Some(32768),
            bits: Some(64),
            java_heap: Some(agent::hsperf::JavaHeap { used: used_mib << 20, max: 256 << 20 }),
        }
    }

    fn target() -> Target {
        Target { serial: None, pid: 42, name: "app".into() }
    }

    /// KOOM's rule on a 256 MiB heap: 85 % (217.6 MiB), three samples in a row over it.
    #[test]
    fn auto_dump_asks_once_on_the_koom_trigger() {
        let mut m = MonitorState::new(target(), Config::default());
        m.auto_dump = true;
        let mut asked = Vec::new();
        for (i, used) in [100, 150, 220, 225, 230, 235, 240, 245].iter().enumerate() {
            asked.push(m.on_sample(sample(i as u64 * 1000, *used)));
        }
        // Over the line from the third sample; it fires on the fifth (third in a row).
        assert_eq!(asked.iter().position(Option::is_some), Some(4));
        assert_eq!(asked[4], Some(Request::Dump("heap")));
        assert_eq!(asked.iter().filter(|a| a.is_some()).count(), 1);
        assert!(m.dumping);
        let fired: Vec<&(f64, String)> = m.events.iter().filter(|e| e.1.starts_with("TRIGGER heap")).collect();
        assert_eq!(fired.len(), 1);
        assert_eq!(fired[0].0, 4.0);
        assert_eq!(m.samples.len(), 8);
        assert_eq!(m.now(), 7.0);
    }

    #[test]
    fn without_auto_dump_it_only_logs_and_thresholds_can_change() {
        let mut m = MonitorState::new(target(), Config::default());
        for i in 0..5 {
            assert_eq!(m.on_sample(sample(i * 1000, 230)), None);
        }
        assert_eq!(m.events.iter().filter(|e| e.1.starts_with("TRIGGER")).count(), 1);
        assert!(m.apply("heap=95%").is_ok());
        assert_eq!(m.triggers.heap_line(256 << 20), Some(((256u64 << 20) as f64 * 0.95) as u64));
        assert!(m.apply("heap=lots").is_err());
        assert!(m.describe().contains("heap 243.2 MiB"), "{}", m.describe());
    }

    #[test]
    fn the_charts_keep_the_last_ten_minutes() {
        let mut m = MonitorState::new(target(), Config::default());
        for i in 0..(KEEP as u64 + 50) {
            m.on_sample(sample(i * 1000, 10));
        }
        assert_eq!(m.samples.len(), KEEP);
        assert_eq!(m.samples.front().unwrap().0, 50.0);
    }
}
