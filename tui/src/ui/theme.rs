//! Colour themes: JSON files in `themes/` (built in), and the user's in
//! `$XDG_CONFIG_HOME/heaptui/themes/NAME.json`, which win over built-in ones of the same name.
//! The high-contrast theme uses the Okabe–Ito palette, readable with every common colour blindness.

use std::path::PathBuf;

use anyhow::{bail, Context};
use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

const BUILT_IN: &[(&str, &str)] = &[
    ("dark", include_str!("../../../themes/dark.json")),
    ("light", include_str!("../../../themes/light.json")),
    ("high-contrast", include_str!("../../../themes/high-contrast.json")),
];

#[derive(Deserialize)]
struct ThemeFile {
    text: String,
    dim: String,
    accent: String,
    selection_fg: String,
    selection_bg: String,
    header: String,
    bar: String,
    leaking_yes: String,
    leaking_no: String,
    leaking_unknown: String,
    suspect: String,
    status_fg: String,
    status_bg: String,
    error: String,
    /// Warnings (a partial dump, dangling references): themes written before it had one take
    /// the error colour.
    #[serde(default)]
    warning: Option<String>,
}

/// Resolved styles.
#[derive(Debug, Clone)]
pub struct Theme {
    pub text: Style,
    pub dim: Style,
    pub accent: Style,
    pub selection: Style,
    pub header: Style,
    pub bar: Color,
    pub leaking_yes: Style,
    pub leaking_no: Style,
    pub leaking_unknown: Style,
    pub suspect: Style,
    pub status: Style,
    pub error: Style,
    /// The status line's warnings (on the status line's background).
    pub warning: Style,
}

fn color(s: &str) -> anyhow::Result<Color> {
    s.parse::<Color>().map_err(|_| anyhow::anyhow!("{s:?} is not a colour (a name like \"white\" or \"#rrggbb\")"))
}

impl Theme {
    fn from_json(text: &str) -> anyhow::Result<Theme> {
        let f: ThemeFile = serde_json::from_str(text)?;
        let fg = |s: &str| -> anyhow::Result<Style> { Ok(Style::default().fg(color(s)?)) };
        Ok(Theme {
            text: fg(&f.text)?,
            dim: fg(&f.dim)?,
            accent: fg(&f.accent)?,
            selection: Style::default().fg(color(&f.selection_fg)?).bg(color(&f.selection_bg)?),
            header: fg(&f.header)?.add_modifier(Modifier::BOLD),
            bar: color(&f.bar)?,
            leaking_yes: fg(&f.leaking_yes)?.add_modifier(Modifier::BOLD),
            leaking_no: fg(&f.leaking_no)?,
            leaking_unknown: fg(&f.leaking_unknown)?,
            suspect: fg(&f.suspect)?.add_modifier(Modifier::UNDERLINED),
            status: Style::default().fg(color(&f.status_fg)?).bg(color(&f.status_bg)?),
            error: fg(&f.error)?.add_modifier(Modifier::BOLD),
            warning: Style::default()
                .fg(color(f.warning.as_deref().unwrap_or(&f.error))?)
                .bg(color(&f.status_bg)?)
                .add_modifier(Modifier::BOLD),
        })
    }

    /// The user's theme directory.
    pub fn user_dir() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
        Some(base.join("heaptui").join("themes"))
    }

    /// Loads theme `name`: the user's file first, then the built-in one.
    pub fn load(name: &str) -> anyhow::Result<Theme> {
        if let Some(path) = Theme::user_dir().map(|d| d.join(format!("{name}.json"))) {
            if path.exists() {
                let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
                return Theme::from_json(&text).with_context(|| format!("theme {}", path.display()));
            }
        }
        match BUILT_IN.iter().find(|(n, _)| *n == name) {
            Some((_, text)) => Theme::from_json(text).with_context(|| format!("built-in theme {name}")),
            None => {
                let names: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
                bail!(
                    "no theme named {name:?} (built in: {}; yours go in $XDG_CONFIG_HOME/heaptui/themes)",
                    names.join(", ")
                )
            }
        }
    }

    /// A theme without colours, for snapshot tests.
    pub fn plain() -> Theme {
        let s = Style::default();
        Theme {
            text: s,
            dim: s,
            accent: s,
            selection: s.add_modifier(Modifier::REVERSED),
            header: s,
            bar: Color::Reset,
            leaking_yes: s,
            leaking_no: s,
            leaking_unknown: s,
            suspect: s,
            status: s.add_modifier(Modifier::REVERSED),
            error: s,
            warning: s.add_modifier(Modifier::REVERSED),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_themes_load() {
        for (name, _) in BUILT_IN {
            Theme::load(name).unwrap();
        }
        assert!(Theme::load("nope").is_err());
        assert!(Theme::from_json(r#"{"text":"not-a-colour"}"#).is_err());
    }
}
