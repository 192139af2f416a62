//! Hostile input built by code, never edited by hand: a heap dump whose names and strings carry
//! terminal control sequences, dumps that ask for memory out of all proportion (class layouts,
//! NODATA arrays, compressed zeros), and [`corpus`], every case with the outcome heaptui must
//! give. Written with the engine tests' HPROF writer (`heap/tests/common/builder.rs`);
//! `cargo run -p test-support --bin hostile-corpus DIR` writes the corpus out (for fuzzing
//! seeds, or to try a build by hand).

use crate::builder::{Builder, BOOL, OBJ};
use std::io::Write;

use crate::traces;

/// OSC 52: set the clipboard (to "pwned", base64), ended by BEL.
pub const CLIPBOARD: &str = "\x1b]52;c;cHduZWQ=\x07";
/// CSI 2 J: clear the screen.
pub const CLEAR: &str = "\x1b[2J";
/// OSC 0: set the window title, ended by BEL.
pub const TITLE: &str = "\x1b]0;owned\x07";
/// C1 CSI (U+009B) `31m`: red, on terminals that take 8-bit controls.
pub const C1: &str = "\u{9b}31m";
/// RIGHT-TO-LEFT OVERRIDE: what follows reads backwards.
pub const BIDI: &str = "\u{202e}gpj.exe";

/// Every sequence above, one after the other, with a newline and a tab.
pub fn payload() -> String {
    format!("{CLIPBOARD}{CLEAR}{TITLE}{C1}{BIDI}\n\t")
}

/// What `heap::fmt::safe` shows for the start of [`payload`]: the proof it was escaped, not dropped.
pub const SHOWN: &str = "\\x1b]52;c;cHduZWQ=\\x07\\x1b[2J";

/// The names and strings [`dump`] holds, each carrying [`payload`].
pub struct Names {
    /// An `android.app.Activity` subclass, destroyed and still reachable (a leak suspect).
    pub activity: String,
    /// A class whose static field holds the activity (the leak's GC root).
    pub holder: String,
    /// The activity's field holding [`Names::string`].
    pub field: String,
    /// The holder's static field.
    pub static_field: String,
    /// A `java.lang.String` value.
    pub string: String,
    /// A `java.lang.Thread`'s name (a thread-object root).
    pub thread: String,
}

impl Names {
    /// The names, each with the payload inside.
    pub fn new() -> Names {
        let p = payload();
        Names {
            activity: format!("com.evil.{p}Activity"),
            holder: format!("com.evil.Holder{p}"),
            field: format!("field{p}"),
            static_field: format!("leaked{p}"),
            string: format!("a string {p}from a chat message"),
            thread: format!("worker-{p}1"),
        }
    }
}

impl Default for Names {
    fn default() -> Names {
        Names::new()
    }
}

/// The id of the destroyed activity instance in [`dump`].
pub const ACTIVITY_ID: u32 = 0x2000;
/// The id of the String [`Names::string`] in [`dump`].
pub const STRING_ID: u32 = 0x3000;

/// A small HPROF 1.0.2 dump (4-byte ids) holding [`Names`]: the activity (its `mDestroyed` true)
/// with the hostile field pointing to the hostile String, held by the hostile static field of a
/// sticky class, and a thread object named with the payload.
pub fn dump() -> Vec<u8> {
    let n = Names::new();
    let mut b = Builder::new("1.0.2");
    // Field name strings.
    b.string(0x1001, "value");
    b.string(0x1002, "mDestroyed");
    b.string(0x1003, &n.field);
    b.string(0x1004, &n.static_field);
    b.string(0x1005, "name");
    b.class(0x100, "java.lang.Object", 0, &[]);
    b.class(0x110, "java.lang.String", 0x100, &[(0x1001, OBJ)]);
    b.class(0x120, "android.app.Activity", 0x100, &[(0x1002, BOOL)]);
    b.class(0x130, &n.activity, 0x120, &[(0x1003, OBJ)]);
    b.class_with_static(0x140, &n.holder, 0x100, &[], 0x1004, ACTIVITY_ID);
    b.class(0x150, "java.lang.Thread", 0x100, &[(0x1005, OBJ)]);
    // The activity: its own field (the String), then Activity's (mDestroyed = true).
    let mut data = STRING_ID.to_be_bytes().to_vec();
    data.push(1);
    b.instance_raw(ACTIVITY_ID, 0x130, &data);
    string(&mut b, STRING_ID, 0x3100, &n.string);
    b.instance(0x4000, 0x150, &[0x4100]);
    string(&mut b, 0x4100, 0x4200, &n.thread);
    // Roots: the holder class (sticky), the thread object.
    b.raw(&[0x05]).raw(&0x140u32.to_be_bytes());
    b.raw(&[0x08]).raw(&0x4000u32.to_be_bytes()).raw(&1u32.to_be_bytes()).raw(&0u32.to_be_bytes());
    b.finish()
}

/// A `java.lang.String` `id` whose `char[]` `chars` holds `s` (UTF-16, big-endian).
fn string(b: &mut Builder, id: u32, chars: u32, s: &str) {
    b.instance(id, 0x110, &[chars]);
    let units: Vec<u16> = s.encode_utf16().collect();
    b.raw(&[0x23]).raw(&chars.to_be_bytes()).raw(&0u32.to_be_bytes()).raw(&(units.len() as u32).to_be_bytes());
    b.raw(&[5]);
    let data: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
    b.raw(&data);
}

/// The control characters in `text` a terminal could act on (C0 but `\n`, and `\t` when
/// `tabs`; DEL; C1; bidi overrides and isolates), with their byte offsets: empty when it is safe.
pub fn unsafe_chars(text: &str, tabs: bool) -> Vec<(usize, char)> {
    text.char_indices()
        .filter(|&(_, c)| {
            let c0 = c < ' ' && c != '\n' && !(tabs && c == '\t');
            c0 || ('\x7f'..='\u{9f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
        })
        .collect()
}

/// An Android (1.0.3) dump of `arrays` PRIMITIVE ARRAY NODATA records, each declaring `length`
/// `long`s: 14 bytes a record, `8 × length` bytes each once restored (4 GiB × 8 at most).
pub fn nodata_bomb(arrays: u32, length: u32) -> Vec<u8> {
    let mut b = Builder::new("1.0.3");
    b.class(0x100, "java.lang.Object", 0, &[]);
    for i in 0..arrays {
        // NODATA (0xc3): id, stack serial, length, element type (11: long).
        b.raw(&[0xc3]).raw(&(0x5000 + i).to_be_bytes()).raw(&0u32.to_be_bytes()).raw(&length.to_be_bytes());
        b.raw(&[11]);
    }
    b.finish()
}

/// A base class of `fields` reference fields and `subclasses` classes that extend it and
/// declare nothing: about 85 bytes per subclass (its LOAD CLASS, name and CLASS DUMP), each
/// inheriting every field.
pub fn layout_bomb(fields: u32, subclasses: u32) -> Vec<u8> {
    let mut b = Builder::new("1.0.2");
    b.string(0x10, "f");
    b.class(0x100, "java.lang.Object", 0, &[]);
    let own: Vec<(u32, u8)> = (0..fields).map(|_| (0x10, OBJ)).collect();
    b.class(0x200, "Wide", 0x100, &own);
    for i in 0..subclasses {
        b.class(0x1000 + i * 4, "S", 0x200, &[]);
    }
    b.finish()
}

/// An HPROF header (4-byte ids) and a heap dump segment declaring 4 GiB, of which `mib` MiB of
/// zeros follow, through `compress`: a well-formed start, so only the expansion bound stops it.
fn zeros(mib: u32, w: &mut dyn Write) -> std::io::Result<()> {
    w.write_all(b"JAVA PROFILE 1.0.2\0")?;
    w.write_all(&4u32.to_be_bytes())?;
    w.write_all(&0u64.to_be_bytes())?;
    w.write_all(&[0x1c, 0, 0, 0, 0])?;
    w.write_all(&u32::MAX.to_be_bytes())?;
    let block = vec![0u8; 1 << 20];
    for _ in 0..mib {
        w.write_all(&block)?;
    }
    Ok(())
}

/// A gzip file of an HPROF header followed by zeros alone (`mib` MiB): refused at its first
/// record, before anything is written.
pub fn gzip_header_then_zeros(mib: u32) -> std::io::Result<Vec<u8>> {
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    g.write_all(b"JAVA PROFILE 1.0.2\0")?;
    let block = vec![0u8; 1 << 20];
    for _ in 0..mib {
        g.write_all(&block)?;
    }
    g.finish()
}

/// A gzip file of a dump's start and `mib` MiB of zeros (about 1 KB a MiB: gzip expands at
/// most about 1,030 times, so only the free space, or a lower `HEAPTUI_MAX_EXPANSION`, stops it).
pub fn gzip_bomb(mib: u32) -> std::io::Result<Vec<u8>> {
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    zeros(mib, &mut g)?;
    g.finish()
}

/// A zstd file of a dump's start and `mib` MiB of zeros (a few dozen bytes a MiB: past the
/// default ratio).
pub fn zstd_bomb(mib: u32) -> std::io::Result<Vec<u8>> {
    let mut z = zstd::stream::write::Encoder::new(Vec::new(), 3)?;
    zeros(mib, &mut z)?;
    z.finish()
}

/// What heaptui must do with a case of the corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// Open it; what it prints holds no control character.
    Opens,
    /// Refuse it with an error containing this text.
    Error(&'static str),
}

/// A case of the corpus: a file name, its bytes, and the outcome.
pub struct Case {
    /// The file name (itself harmless: a test that wants a hostile name adds one).
    pub name: &'static str,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// What `heaptui analyze` must do with it.
    pub expect: Expect,
}

/// Every case: control characters in every name and string kind, a layout bomb, a NODATA bomb
/// (which opens: only restoring it would expand), compressed bombs, and a compressed file that is
/// not a dump.
pub fn corpus() -> std::io::Result<Vec<Case>> {
    let mut not_a_dump = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    not_a_dump.write_all(&[b'x'; 4096])?;
    Ok(vec![
        Case { name: "names.hprof", bytes: dump(), expect: Expect::Opens },
        Case {
            name: "layouts.hprof",
            bytes: layout_bomb(20_000, 20_000),
            expect: Expect::Error("class layouts resolve to more than"),
        },
        Case { name: "nodata.hprof", bytes: nodata_bomb(20, u32::MAX), expect: Expect::Opens },
        Case {
            name: "zeros.hprof.gz",
            bytes: gzip_header_then_zeros(64)?,
            expect: Expect::Error("has tag 0x00, which no HPROF record has"),
        },
        Case {
            name: "zeros.hprof.zst",
            bytes: zstd_bomb(1024)?,
            expect: Expect::Error("expands past 10000 times its size"),
        },
        // Perfetto traces (`crate::traces`).
        Case { name: "padded.pftrace.gz", bytes: traces::padded_type(100_000, 20_000), expect: Expect::Opens },
        Case { name: "tiny.pftrace.gz", bytes: traces::tiny_objects(1_000_000), expect: Expect::Opens },
        Case {
            name: "graphs.pftrace.gz",
            bytes: traces::many_graphs(70_000),
            expect: Expect::Error("more than 65536 heap graphs"),
        },
        Case {
            name: "packet.pftrace",
            bytes: traces::huge_packet(1 << 32),
            expect: Expect::Error("a packet of 4294967296 bytes (at most 67108864)"),
        },
        Case {
            name: "zeros.pftrace.gz",
            bytes: traces::zeros(2),
            expect: Expect::Error("at byte 0 of the decompressed trace (packet 1): field number 0"),
        },
        Case { name: "fields.pftrace.gz", bytes: traces::many_fields(300_000), expect: Expect::Opens },
        Case { name: "mapped.pftrace.gz", bytes: traces::many_mapped(40_000), expect: Expect::Opens },
        Case { name: "text.gz", bytes: not_a_dump.finish()?, expect: Expect::Error("not an HPROF file") },
    ])
}

/// Records of phones' dump methods (`$XDG_DATA_HOME/heaptui/phones.json`) another user or a
/// damaged disk could leave: none may be trusted, each with why it must be refused.
pub fn phone_records() -> Vec<(&'static str, Vec<u8>)> {
    let entry = |fingerprint: &str, method: &str, why: &str| {
        format!(
            r#"{{"failures":[{{"fingerprint":"{fingerprint}","art_module":"com.android.art 1","method":"{method}","when":"20261129T000000Z","why":"{why}"}}]}}"#
        )
        .into_bytes()
    };
    vec![
        ("not JSON", b"\x1b[2J not json".to_vec()),
        ("a method heaptui has not", entry("f", "rm -rf", "y")),
        ("a fingerprint of a megabyte", entry(&"f".repeat(1 << 20), "fork", "y")),
        ("a reason past its bound", entry("f", "fork", &"y".repeat(4096))),
        ("past the record's size", [b"{\"failures\":[".as_slice(), &vec![b' '; 300 << 10], b"]}"].concat()),
        (
            "more entries than kept",
            format!(
                r#"{{"failures":[{}]}}"#,
                vec![r#"{"fingerprint":"f","art_module":"m","method":"fork","when":"w","why":"y"}"#; 300].join(",")
            )
            .into_bytes(),
        ),
    ]
}

/// A program another user planted for heaptui to push to a phone: a shell script, told apart
/// from any build at a glance.
pub const PLANTED_AGENT: &[u8] = b"#!/bin/sh\n# planted by another user\necho planted\n";

/// Where another user plants an agent, laid out under `root` (which must be a fresh folder of
/// this user): how heaptui is pointed at it, and the text of its refusal (`None`: heaptui pushes
/// the agent it carries, the planted one is never read).
pub struct PlantedAgent {
    /// What the case is.
    pub name: &'static str,
    /// Where the heaptui binary is to be copied and run from.
    pub binary: std::path::PathBuf,
    /// `HEAPTUI_AGENT_DIR`, when the case sets it.
    pub agent_dir: Option<std::path::PathBuf>,
    /// What the refusal says.
    pub refused: Option<&'static str>,
}

/// The planted-agent cases for a phone whose agent target is `triple`: builds where earlier
/// heaptui versions looked around the binary, in a folder every user can write; and
/// `HEAPTUI_AGENT_DIR` naming a folder others can change, one that belongs to another user, a
/// file others can write, and a link into an open folder. Making a file another user's takes
/// root, as the phone tests have.
pub fn planted_agents(root: &std::path::Path, triple: &str) -> std::io::Result<Vec<PlantedAgent>> {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
    let plant = |dir: &std::path::Path| -> std::io::Result<std::path::PathBuf> {
        std::fs::create_dir_all(dir.join(triple))?;
        let agent = dir.join(triple).join("heaptui-agent");
        std::fs::write(&agent, PLANTED_AGENT)?;
        mode(&agent, 0o755)?;
        Ok(agent)
    };
    let mut cases = Vec::new();

    // An open folder (no sticky bit) two levels above the binary: <open>/target/release/heaptui,
    // with <open>/target/<triple>/{release,debug}/heaptui-agent and
    // <open>/target/release/agents/<triple>/heaptui-agent planted.
    let open = root.join("open");
    let target = open.join("target");
    for profile in ["release", "debug"] {
        let d = target.join(triple).join(profile);
        std::fs::create_dir_all(&d)?;
        std::fs::write(d.join("heaptui-agent"), PLANTED_AGENT)?;
        mode(&d.join("heaptui-agent"), 0o755)?;
    }
    plant(&target.join("release").join("agents"))?;
    mode(&open, 0o777)?;
    cases.push(PlantedAgent {
        name: "builds around the binary, in a folder anyone can write",
        binary: target.join("release").join("heaptui"),
        agent_dir: None,
        refused: None,
    });

    let private = root.join("private");
    std::fs::create_dir_all(&private)?;
    mode(&private, 0o700)?;
    let binary = private.join("heaptui");

    let shared = open.join("agents");
    plant(&shared)?;
    cases.push(PlantedAgent {
        name: "HEAPTUI_AGENT_DIR in a folder anyone can write",
        binary: binary.clone(),
        agent_dir: Some(shared.clone()),
        refused: Some("can be changed by other users"),
    });

    let theirs = private.join("theirs");
    plant(&theirs)?;
    for p in [theirs.clone(), theirs.join(triple), theirs.join(triple).join("heaptui-agent")] {
        std::os::unix::fs::chown(&p, Some(4321), Some(4321))?;
    }
    cases.push(PlantedAgent {
        name: "HEAPTUI_AGENT_DIR belonging to another user",
        binary: binary.clone(),
        agent_dir: Some(theirs),
        refused: Some("belongs to uid 4321"),
    });

    let writable = private.join("writable");
    let agent = plant(&writable)?;
    mode(&agent, 0o777)?;
    cases.push(PlantedAgent {
        name: "an agent file anyone can write",
        binary: binary.clone(),
        agent_dir: Some(writable),
        refused: Some("can be changed by other users"),
    });

    let linked = private.join("linked");
    std::fs::create_dir_all(linked.join(triple))?;
    std::os::unix::fs::symlink(shared.join(triple).join("heaptui-agent"), linked.join(triple).join("heaptui-agent"))?;
    cases.push(PlantedAgent {
        name: "a link to an agent in a folder anyone can write",
        binary,
        agent_dir: Some(linked),
        refused: Some("can be changed by other users"),
    });
    Ok(cases)
}
