//! Bionic's stand-in libraries for linking without the NDK: from one of bionic's `*.map.txt`
//! symbol files (the lists the NDK's own stubs are made from), an ABI and an API level, the C
//! source of a library defining every public symbol and the version script that gives each its
//! version. Linked against these, a library needs of the phone only what bionic exports at that
//! API level, under the versions bionic's linker matches. The rules are the NDK's (AOSP's
//! `ndkstubgen`):
//!
//! - a version block or symbol tagged with other architectures only is left out;
//! - `introduced=N` (or `introduced-<arch>=N`) later than the API level: left out;
//! - `platform-only`, `apex`, `systemapi`, `llndk`, `future`, and versions named `*_PRIVATE` or
//!   `*_PLATFORM`: left out (not the NDK's API);
//! - `var`: a data symbol, otherwise a function; `weak`: a weak definition;
//! - `versioned=N`: the symbol carries its version only from API N on (unversioned before).
//!
//! Shared by the build script and `bridge/tests/stubs.rs`; nothing here runs in heaptui.

/// The architectures a map file's tags name.
const ARCHES: [&str; 5] = ["arm", "arm64", "x86", "x86_64", "riscv64"];
/// Tags that keep a symbol out of the NDK's API.
const NOT_NDK: [&str; 5] = ["platform-only", "apex", "systemapi", "llndk", "future"];

/// One version block of a map file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// `LIBC`, `LIBC_N`…
    pub name: String,
    /// The tags of its opening line.
    pub tags: Vec<String>,
    /// The version it inherits from (`} LIBC;`).
    pub base: Option<String>,
    /// Its symbols with their tags.
    pub symbols: Vec<(String, Vec<String>)>,
}

/// A stub library's source and version script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stub {
    /// C that defines every symbol kept.
    pub c: String,
    /// The linker's version script.
    pub script: String,
    /// The symbols kept, in the map's order.
    pub symbols: Vec<String>,
}

/// The first API level an architecture had: an earlier `introduced` counts from there.
fn first_api(arch: &str) -> u32 {
    match arch {
        "arm" | "x86" => 9,
        "arm64" | "x86_64" => 21,
        _ => u32::MAX,
    }
}

fn introduced(tags: &[String], arch: &str) -> Result<u32, String> {
    let own = format!("introduced-{arch}=");
    let mut generic = None;
    for t in tags {
        if let Some(n) = t.strip_prefix(&own) {
            return n.parse().map_err(|_| format!("bad tag {t}"));
        }
        if let Some(n) = t.strip_prefix("introduced=") {
            generic = Some(n.parse().map_err(|_| format!("bad tag {t}"))?);
        }
    }
    Ok(generic.unwrap_or_else(|| first_api(arch)))
}

fn omitted(tags: &[String], arch: &str, api: u32) -> Result<bool, String> {
    if tags.iter().any(|t| NOT_NDK.contains(&t.as_str())) {
        return Ok(true);
    }
    let arches: Vec<&String> = tags.iter().filter(|t| ARCHES.contains(&t.as_str())).collect();
    if !arches.is_empty() && !arches.iter().any(|t| *t == arch) {
        return Ok(true);
    }
    Ok(introduced(tags, arch)? > api)
}

fn versioned_at(tags: &[String], api: u32) -> Result<bool, String> {
    for t in tags {
        if let Some(n) = t.strip_prefix("versioned=") {
            return Ok(api >= n.parse::<u32>().map_err(|_| format!("bad tag {t}"))?);
        }
    }
    Ok(true)
}

fn is_symbol(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
}

/// The version blocks of a map file, or the line that does not parse.
pub fn parse(text: &str) -> Result<Vec<Version>, String> {
    let mut versions = Vec::new();
    let mut current: Option<Version> = None;
    for (n, raw) in text.lines().enumerate() {
        let (line, comment) = raw.split_once('#').unwrap_or((raw, ""));
        let line = line.trim();
        let tags: Vec<String> = comment.split_whitespace().map(str::to_string).collect();
        if line.is_empty() || line == "global:" || line == "local:" || line == "*;" {
            continue;
        }
        let bad = || format!("line {}: cannot read {raw:?}", n + 1);
        match current.as_mut() {
            None => {
                let name = line.strip_suffix('{').map(str::trim).filter(|s| is_symbol(s)).ok_or_else(bad)?;
                current = Some(Version { name: name.to_string(), tags, base: None, symbols: Vec::new() });
            }
            Some(v) => {
                if let Some(rest) = line.strip_prefix('}') {
                    let base = rest.strip_suffix(';').map(str::trim).ok_or_else(bad)?;
                    if !base.is_empty() && !is_symbol(base) {
                        return Err(bad());
                    }
                    v.base = (!base.is_empty()).then(|| base.to_string());
                    versions.extend(current.take());
                } else {
                    let symbol = line.strip_suffix(';').map(str::trim).filter(|s| is_symbol(s)).ok_or_else(bad)?;
                    v.symbols.push((symbol.to_string(), tags));
                }
            }
        }
    }
    match current {
        Some(v) => Err(format!("version {} is not closed", v.name)),
        None => Ok(versions),
    }
}

/// The stub of `map` (a map file's text) for `arch` (`arm64`, `arm`, `x86_64`, `x86`) at `api`.
pub fn stub(map: &str, arch: &str, api: u32) -> Result<Stub, String> {
    let mut c = format!("/* A stand-in for bionic's library for {arch}, API {api}: generated at build time. */\n");
    let mut script = String::new();
    let mut symbols = Vec::new();
    let mut kept_versions: Vec<String> = Vec::new();
    for v in parse(map)? {
        if v.name.ends_with("_PRIVATE") || v.name.ends_with("_PLATFORM") || omitted(&v.tags, arch, api)? {
            continue;
        }
        let mut listed = Vec::new();
        for (name, tags) in &v.symbols {
            if omitted(tags, arch, api)? {
                continue;
            }
            if versioned_at(tags, api)? {
                listed.push(name.as_str());
            }
            if symbols.contains(name) {
                continue;
            }
            symbols.push(name.clone());
            let weak = if tags.iter().any(|t| t == "weak") { "__attribute__((weak)) " } else { "" };
            if tags.iter().any(|t| t == "var") {
                c.push_str(&format!("{weak}int {name} = 0;\n"));
            } else {
                c.push_str(&format!("{weak}void {name}(void) {{}}\n"));
            }
        }
        if !listed.is_empty() && versioned_at(&v.tags, api)? {
            // A base that was itself left out would make the script invalid: none then.
            let base =
                v.base.as_ref().filter(|b| kept_versions.contains(b)).map(|b| format!(" {b}")).unwrap_or_default();
            let body: String = listed.iter().map(|s| format!("    {s};\n")).collect();
            script.push_str(&format!("{} {{\n  global:\n{body}}}{base};\n", v.name));
            kept_versions.push(v.name.clone());
        }
    }
    Ok(Stub { c, script, symbols })
}
