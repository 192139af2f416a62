//! The key bindings: one table, with a description per binding. Input is mapped through it, and
//! the `?` help is generated from it, so the two cannot disagree. The keys are an interface
//! people and scripts rely on: add bindings, never change these.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::screen::Screen;

/// What a key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    Help,
    Goto(Screen),
    NextScreen,
    PrevScreen,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Open,
    Back,
    Filter,
    GoTo,
    Sort,
    GroupPackages,
    Expand,
    Collapse,
    Inspect,
    Copy,
    CopyTrace,
    Export,
    PickBaseline,
    AutoDump,
    Thresholds,
    DumpNow,
    MergedPaths,
    ImmediateDominators,
    GroupByClass,
    Preview,
    EditQuery,
    Schema,
}

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every screen.
    Global,
    /// One screen.
    On(Screen),
}

/// One binding.
pub struct Binding {
    pub scope: Scope,
    pub keys: &'static [KeyCode],
    pub label: &'static str,
    pub action: Action,
    pub description: &'static str,
}

const fn b(
    scope: Scope,
    keys: &'static [KeyCode],
    label: &'static str,
    action: Action,
    description: &'static str,
) -> Binding {
    Binding { scope, keys, label, action, description }
}

use Action as A;
use KeyCode as K;
use Scope::{Global as G, On};

/// The table, in the order help shows it.
pub const KEYMAP: &[Binding] = &[
    b(G, &[K::Char('1')], "1", A::Goto(Screen::Overview), "overview"),
    b(G, &[K::Char('2')], "2", A::Goto(Screen::Classes), "classes (histogram)"),
    b(G, &[K::Char('3')], "3", A::Goto(Screen::Leaks), "leak suspects"),
    b(G, &[K::Char('4')], "4", A::Goto(Screen::Dominators), "dominator tree"),
    b(G, &[K::Char('5')], "5", A::Goto(Screen::Inspector), "instance inspector"),
    b(G, &[K::Char('6')], "6", A::Goto(Screen::Monitor), "live monitor"),
    b(G, &[K::Char('7')], "7", A::Goto(Screen::Diff), "diff with a baseline"),
    b(G, &[K::Char('8')], "8", A::Goto(Screen::Threads), "threads and stacks"),
    b(G, &[K::Char('9')], "9", A::Goto(Screen::Query), "SQL query"),
    b(G, &[K::Tab], "Tab", A::NextScreen, "next screen"),
    b(G, &[K::BackTab], "Shift-Tab", A::PrevScreen, "previous screen"),
    b(G, &[K::Up, K::Char('k')], "↑ k", A::Up, "move up"),
    b(G, &[K::Down, K::Char('j')], "↓ j", A::Down, "move down"),
    b(G, &[K::PageUp], "PgUp", A::PageUp, "page up"),
    b(G, &[K::PageDown], "PgDn", A::PageDown, "page down"),
    b(G, &[K::Char('g'), K::Home], "g", A::Top, "to the top"),
    b(G, &[K::Char('G'), K::End], "G", A::Bottom, "to the bottom"),
    b(G, &[K::Enter], "Enter", A::Open, "open the selection"),
    b(G, &[K::Esc, K::Backspace], "Esc Backspace", A::Back, "back"),
    b(G, &[K::Char('i')], "i", A::Inspect, "inspect the selection"),
    b(G, &[K::Char('y')], "y", A::Copy, "copy the id (OSC 52)"),
    b(G, &[K::Char('e')], "e", A::Export, "export view to a file"),
    b(G, &[K::Char('?')], "?", A::Help, "this help"),
    b(G, &[K::Char('q')], "q", A::Quit, "quit"),
    b(G, &[K::Char('/')], "/", A::Filter, "filter (Esc clears)"),
    b(G, &[K::Char(':')], ":", A::GoTo, "go to an id or a class"),
    b(G, &[K::Char('s')], "s", A::Sort, "next sort order"),
    b(G, &[K::Right, K::Char('l')], "→ l", A::Expand, "open (tree node, stack)"),
    b(G, &[K::Left, K::Char('h')], "← h", A::Collapse, "close it"),
    b(G, &[K::Char('m')], "m", A::MergedPaths, "merged paths to GC roots"),
    b(G, &[K::Char('D')], "D", A::ImmediateDominators, "immediate dominators"),
    b(G, &[K::Char('v')], "v", A::Preview, "view a Bitmap's picture"),
    b(On(Screen::Classes), &[K::Char('p')], "p", A::GroupPackages, "group by package"),
    b(On(Screen::Leaks), &[K::Char('Y')], "Y", A::CopyTrace, "copy the trace (OSC 52)"),
    b(On(Screen::Dominators), &[K::Char('c')], "c", A::GroupByClass, "group by class"),
    b(On(Screen::Query), &[K::Char('/')], "/", A::EditQuery, "edit the SQL (↑↓ past)"),
    b(On(Screen::Query), &[K::Char('S')], "S", A::Schema, "show the tables"),
    b(On(Screen::Diff), &[K::Char('b')], "b", A::PickBaseline, "pick a baseline dump"),
    b(On(Screen::Monitor), &[K::Char('a')], "a", A::AutoDump, "auto-dump on trigger"),
    b(On(Screen::Monitor), &[K::Char('t')], "t", A::Thresholds, "edit thresholds"),
    b(On(Screen::Monitor), &[K::Char('d')], "d", A::DumpNow, "dump now"),
];

/// The action a key has on `screen`, screen bindings first.
pub fn action_for(screen: Screen, key: KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c')).then_some(Action::Quit);
    }
    let on_screen = KEYMAP.iter().filter(|b| b.scope == Scope::On(screen));
    let global = KEYMAP.iter().filter(|b| b.scope == Scope::Global);
    on_screen.chain(global).find(|b| b.keys.contains(&key.code)).map(|b| b.action)
}

/// The bindings help lists on `screen`: the screen's own, then the global ones.
pub fn help_for(screen: Screen) -> Vec<&'static Binding> {
    let own = KEYMAP.iter().filter(move |b| b.scope == Scope::On(screen));
    own.chain(KEYMAP.iter().filter(|b| b.scope == Scope::Global)).collect()
}

/// The key table as Markdown, for the README: every binding, where it applies and what it
/// does, in the order help shows them.
pub fn markdown() -> String {
    let mut out = String::from("| key | where | what |\n|---|---|---|\n");
    for b in KEYMAP {
        let scope = match b.scope {
            Scope::Global => "everywhere".to_string(),
            Scope::On(s) => s.title().to_string(),
        };
        out.push_str(&format!("| `{}` | {scope} | {} |\n", b.label, b.description));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's key table is [`markdown`]'s: `HEAPTUI_WRITE_README=1 cargo test -p heaptui
    /// --lib keymap` writes it after a binding changes.
    #[test]
    fn the_readme_key_table_is_the_keymap() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
        let readme = std::fs::read_to_string(&path).unwrap();
        let (begin, end) = ("<!-- keys: generated from the keymap -->\n", "<!-- /keys -->");
        let start = readme.find(begin).expect("the README's key table markers") + begin.len();
        let stop = start + readme[start..].find(end).expect("the end marker");
        let table = markdown();
        if std::env::var_os("HEAPTUI_WRITE_README").is_some() {
            std::fs::write(&path, format!("{}{table}{}", &readme[..start], &readme[stop..])).unwrap();
            return;
        }
        assert_eq!(&readme[start..stop], table, "run HEAPTUI_WRITE_README=1 cargo test -p heaptui --lib keymap");
    }

    #[test]
    fn help_lines_fit_two_columns_of_an_80_column_terminal() {
        for b in KEYMAP {
            assert!(b.label.chars().count() <= 13 && b.description.chars().count() <= 24, "{}", b.description);
        }
    }

    #[test]
    fn no_key_is_bound_twice_in_one_scope() {
        for (i, a) in KEYMAP.iter().enumerate() {
            for b in &KEYMAP[i + 1..] {
                let overlap = a.keys.iter().any(|k| b.keys.contains(k));
                let clash = a.scope == b.scope || a.scope == Scope::Global && b.scope == Scope::Global;
                assert!(!(overlap && clash), "{} and {} share a key", a.label, b.label);
            }
        }
    }

    #[test]
    fn screen_bindings_win() {
        let p = KeyEvent::new(KeyCode::Char('p'), KeyModifiers::NONE);
        assert_eq!(action_for(Screen::Classes, p), Some(Action::GroupPackages));
        assert_eq!(action_for(Screen::Dominators, p), None);
        let slash = KeyEvent::new(KeyCode::Char('/'), KeyModifiers::NONE);
        assert_eq!(action_for(Screen::Classes, slash), Some(Action::Filter));
        assert_eq!(action_for(Screen::Dominators, slash), Some(Action::Filter));
    }
}
