//! The UI's first screen: the real `heaptui` binary launched on a dump in a pseudo-terminal of
//! 160×45 cells, timed from the launch to the overview's object counts on its screen, and to the
//! leak suspects' count. Its output is read as it comes into a grid of cells (the cursor moves and
//! clears ratatui sends), so nothing polls: a terminal multiplexer polled every 50 ms adds up to
//! 50 ms and its own start-up to each figure. The pseudo-terminal answers the queries a terminal
//! emulator answers (device attributes, cell size, status): unanswered, the UI's graphics
//! probe waits out its timeout before the first frame.
//!
//! Without the index cache, each launch alternates with `heaptui analyze --no-cache --format
//! json` on the same dump: the goal is a first screen within that time. Then one launch writes
//! the cache (in a directory of the bench's own, removed after) and the rest re-open from it.

use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::median;

const ROWS: u16 = 45;
const COLS: u16 = 160;
/// How long a launch may take to show its leak suspects (a 1 GB dump takes seconds).
const LIMIT: Duration = Duration::from_secs(300);

/// What one launch showed, in seconds from the launch.
struct Launch {
    /// The overview's counts of objects.
    screen: f64,
    /// The overview's count of leak suspects.
    leaks: f64,
}

/// Times `runs` launches of each file without the cache (alternating with `analyze`), one that
/// writes the cache, and `runs` from it.
pub fn run(files: Vec<PathBuf>, runs: usize) -> Result<()> {
    let bin = std::env::current_exe()?.with_file_name("heaptui");
    if !bin.exists() {
        bail!("{} is missing: build it first (cargo build --release -p heaptui)", bin.display());
    }
    let cache = crate::cache_dir().join("first-screen-cache");
    for f in files {
        println!("\n{} ({:.1} MB)", f.display(), std::fs::metadata(&f)?.len() as f64 / 1e6);
        crate::warm(&f)?;
        let (mut screens, mut leaks, mut analyses) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            let l = launch(&bin, &f, &[("HEAPTUI_INDEX_CACHE", Path::new("off"))], None)?;
            let t = Instant::now();
            let out = Command::new(&bin)
                .args(["analyze", "--no-cache", "--format", "json"])
                .arg(&f)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .output()?;
            if !out.status.success() {
                bail!("analyze failed: {}", String::from_utf8_lossy(&out.stderr));
            }
            let a = t.elapsed().as_secs_f64();
            println!("  no cache: first screen {:.3} s, leak suspects {:.3} s; analyze {a:.3} s", l.screen, l.leaks);
            screens.push(l.screen);
            leaks.push(l.leaks);
            analyses.push(a);
        }
        println!(
            "  medians of {runs}: first screen {:.3} s, leak suspects {:.3} s, analyze {:.3} s",
            median(&mut screens),
            median(&mut leaks),
            median(&mut analyses)
        );
        let _ = std::fs::remove_dir_all(&cache);
        std::fs::create_dir_all(&cache)?;
        let env = [("HEAPTUI_INDEX_CACHE", cache.as_path()), ("HEAPTUI_INDEX_CACHE_MIN", Path::new("0"))];
        let l = launch(&bin, &f, &env, Some(&cache))?;
        println!("  writing the cache: first screen {:.3} s, leak suspects {:.3} s", l.screen, l.leaks);
        let (mut screens, mut leaks) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let l = launch(&bin, &f, &env, None)?;
            println!("  from the cache: first screen {:.3} s, leak suspects {:.3} s", l.screen, l.leaks);
            screens.push(l.screen);
            leaks.push(l.leaks);
        }
        println!(
            "  medians of {runs} from the cache: first screen {:.3} s, leak suspects {:.3} s",
            median(&mut screens),
            median(&mut leaks)
        );
        std::fs::remove_dir_all(&cache)?;
    }
    Ok(())
}

/// Launches `bin` on `dump` in a new pseudo-terminal and reads its screen until the leak
/// suspects are counted (and, with `cache`, until an index file is in that directory), then
/// kills it. A dump the UI cannot open ends the launch with the UI's own words.
fn launch(bin: &Path, dump: &Path, env: &[(&str, &Path)], cache: Option<&Path>) -> Result<Launch> {
    let (master, slave) = open_pty()?;
    let mut cmd = Command::new(bin);
    cmd.arg(dump)
        .env("TERM", "xterm-256color")
        .env_remove("TMUX")
        .env_remove("HEAPTUI_TRACE")
        .stdin(Stdio::from(slave.try_clone()?))
        .stdout(Stdio::from(slave.try_clone()?))
        .stderr(Stdio::from(slave));
    for (k, v) in env {
        cmd.env(k, v);
    }
    // SAFETY: only async-signal-safe calls between fork and exec: a session of its own, whose
    // controlling terminal is the pseudo-terminal on its standard input.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().with_context(|| format!("launching {}", bin.display()))?;
    let mut term = std::fs::File::from(master);
    let mut screen = Screen::new(ROWS as usize, COLS as usize);
    let (mut shown, mut listed) = (None, None);
    let mut buf = vec![0u8; 1 << 16];
    let result = loop {
        if start.elapsed() > LIMIT {
            break Err(anyhow::anyhow!("no leak suspects on the screen after {} s", LIMIT.as_secs()));
        }
        if let (Some(screen), Some(leaks)) = (shown, listed) {
            if cache.is_none_or(has_index) {
                break Ok(Launch { screen, leaks });
            }
        }
        let mut pfd = libc::pollfd { fd: std::os::fd::AsRawFd::as_raw_fd(&term), events: libc::POLLIN, revents: 0 };
        // SAFETY: one valid pollfd for the duration of the call.
        if unsafe { libc::poll(&mut pfd, 1, 100) } <= 0 {
            continue;
        }
        let n = match term.read(&mut buf) {
            Ok(0) | Err(_) => break Err(anyhow::anyhow!("heaptui closed its terminal before its leak suspects")),
            Ok(n) => n,
        };
        let now = start.elapsed().as_secs_f64();
        screen.feed(&buf[..n]);
        if !screen.replies.is_empty() {
            term.write_all(&std::mem::take(&mut screen.replies))?;
        }
        // The screen's rows as text, once a read.
        let rows: Vec<String> = screen.rows().collect();
        if shown.is_none() && rows.iter().any(|r| r.contains(" objects: ")) {
            shown = Some(now);
        }
        if listed.is_none() && rows.iter().any(|r| suspects_counted(r)) {
            listed = Some(now);
        }
        // The UI's loading screen says so when the dump cannot be opened, and then waits.
        if let Some(at) = rows.iter().position(|r| r.contains("The dump could not be opened")) {
            let why: Vec<&str> = rows[at..]
                .iter()
                .take(3)
                .map(|r| r.trim_matches(|c: char| c == '│' || c.is_whitespace()))
                .filter(|r| !r.is_empty())
                .collect();
            break Err(anyhow::anyhow!("{}", why.join(": ")));
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// Whether a row is the overview's header of leak suspects with their count.
fn suspects_counted(row: &str) -> bool {
    row.split("Leak suspects (").nth(1).is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

fn has_index(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|d| d.flatten().any(|e| e.path().extension().is_some_and(|x| x == "idx")))
}

fn open_pty() -> Result<(OwnedFd, OwnedFd)> {
    let (mut master, mut slave) = (-1, -1);
    let size = libc::winsize { ws_row: ROWS, ws_col: COLS, ws_xpixel: COLS * 8, ws_ypixel: ROWS * 16 };
    // SAFETY: out-pointers to two ints and a winsize that outlive the call; no name buffer.
    if unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), &size) } < 0 {
        return Err(std::io::Error::last_os_error()).context("openpty");
    }
    // SAFETY: openpty succeeded, so both are open descriptors this process owns alone.
    Ok(unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) })
}

/// Where the byte stream is within an escape sequence.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Ground,
    Escape,
    /// `ESC [`, parameters so far in `params`.
    Csi,
    /// An OSC, APC, DCS or PM string, which ends at BEL or `ESC \`.
    Text,
    TextEscape,
}

/// The cells a terminal would show: what ratatui's crossterm backend sends is cursor moves,
/// styles, clears and text, so that is all this follows (one cell per character).
struct Screen {
    cells: Vec<Vec<char>>,
    row: usize,
    col: usize,
    state: State,
    params: Vec<u8>,
    utf8: Vec<u8>,
    /// What the terminal answers to the queries read so far.
    replies: Vec<u8>,
}

impl Screen {
    fn new(rows: usize, cols: usize) -> Screen {
        Screen {
            cells: vec![vec![' '; cols]; rows],
            row: 0,
            col: 0,
            state: State::Ground,
            params: Vec::new(),
            utf8: Vec::new(),
            replies: Vec::new(),
        }
    }

    fn rows(&self) -> impl Iterator<Item = String> + '_ {
        self.cells.iter().map(|r| r.iter().collect())
    }

    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.state = match (self.state, b) {
                (State::Ground, 0x1b) => State::Escape,
                (State::Ground, b'\r') => {
                    self.col = 0;
                    State::Ground
                }
                (State::Ground, b'\n') => {
                    self.row += 1;
                    State::Ground
                }
                (State::Ground, b) if b < 0x20 => State::Ground,
                (State::Ground, b) => {
                    self.text(b);
                    State::Ground
                }
                (State::Escape, b'[') => {
                    self.params.clear();
                    State::Csi
                }
                (State::Escape, b']' | b'_' | b'P' | b'^') => State::Text,
                (State::Escape, _) => State::Ground,
                (State::Csi, 0x20..=0x3f) => {
                    self.params.push(b);
                    State::Csi
                }
                (State::Csi, final_byte) => {
                    self.control(final_byte);
                    State::Ground
                }
                (State::Text, 0x07) => State::Ground,
                (State::Text, 0x1b) => State::TextEscape,
                (State::Text, _) => State::Text,
                (State::TextEscape, b'\\') => State::Ground,
                (State::TextEscape, _) => State::Text,
            }
        }
    }

    fn text(&mut self, b: u8) {
        self.utf8.push(b);
        let c = match std::str::from_utf8(&self.utf8) {
            Ok(s) => s.chars().next().unwrap_or(' '),
            Err(e) if e.error_len().is_none() && self.utf8.len() < 4 => return,
            Err(_) => char::REPLACEMENT_CHARACTER,
        };
        self.utf8.clear();
        if let Some(cell) = self.cells.get_mut(self.row).and_then(|r| r.get_mut(self.col)) {
            *cell = c;
        }
        self.col += 1;
    }

    fn control(&mut self, final_byte: u8) {
        let params = String::from_utf8_lossy(&self.params).into_owned();
        let numbers: Vec<usize> = params.split(';').map(|p| p.parse().unwrap_or(0)).collect();
        let first = numbers.first().copied().unwrap_or(0);
        match (final_byte, params.as_str()) {
            (b'H' | b'f', _) => {
                self.row = first.max(1) - 1;
                self.col = numbers.get(1).copied().unwrap_or(1).max(1) - 1;
            }
            (b'J', "2" | "3") => self.cells.iter_mut().for_each(|r| r.fill(' ')),
            (b'K', "" | "0") => {
                if let Some(r) = self.cells.get_mut(self.row) {
                    r.iter_mut().skip(self.col).for_each(|c| *c = ' ');
                }
            }
            (b'C', _) => self.col += first.max(1),
            // As xterm answers: VT420 with colour, a cell of 8×16 pixels, status fine, cursor.
            (b'c', "" | "0") => self.replies.extend_from_slice(b"\x1b[?64;1;2;6;22c"),
            (b't', "16") => self.replies.extend_from_slice(b"\x1b[6;16;8t"),
            (b't', "14") => self.replies.extend_from_slice(b"\x1b[4;720;1280t"),
            (b'n', "5") => self.replies.extend_from_slice(b"\x1b[0n"),
            (b'n', "6") => {
                self.replies.extend_from_slice(format!("\x1b[{};{}R", self.row + 1, self.col + 1).as_bytes())
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_lands_where_the_cursor_was_moved_and_queries_are_answered() {
        let mut s = Screen::new(3, 20);
        // A split multi-byte character and a split escape sequence, as reads may cut them.
        s.feed(b"\x1b_Gi=31;AAAA\x1b\\\x1b[c\x1b[2;3Hab\xe2\x94");
        s.feed(b"\x8c\x1b[1");
        s.feed(b";38;2;1;2;3mcd\x1b[3;1H 12 objects: 3\x1b[5n");
        let rows: Vec<String> = s.rows().collect();
        assert_eq!(rows[0].trim_end(), "");
        assert_eq!(rows[1].trim_end(), "  ab┌cd");
        assert!(rows[2].contains(" objects: "));
        assert_eq!(s.replies, b"\x1b[?64;1;2;6;22c\x1b[0n");
        assert!(suspects_counted("Leak suspects (12)"));
        assert!(!suspects_counted("Leak suspects (finding...)"));
    }
}
