//! `adb devices` output gathered from public sources (`tests/transcripts/adb-devices/`, each
//! file's header names its source): every listing parses to the serials, states and models its
//! header records, and every state it shows says what to do.

use std::collections::BTreeMap;
use std::path::PathBuf;

use bridge::adb::{parse_devices, DeviceState};

fn list(v: &str) -> Vec<String> {
    v.split(", ").map(str::to_string).collect()
}

#[test]
fn every_adb_devices_transcript_parses() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/transcripts/adb-devices");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 8, "{} transcripts", files.len());
    let mut seen = Vec::new();
    for p in files {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&p).unwrap();
        let header = text.lines().take_while(|l| l.starts_with('#')).count();
        let expect: BTreeMap<&str, &str> = text
            .lines()
            .take(header)
            .filter_map(|l| l.strip_prefix("# expect:")?.split_once('='))
            .map(|(k, v)| (k.trim(), v.trim()))
            .collect();
        let body: String = text.split_inclusive('\n').skip(header).collect();
        let devices = parse_devices(&body);
        let serials: Vec<String> = devices.iter().map(|d| d.serial.clone()).collect();
        assert_eq!(serials, list(expect["serials"]), "{name}");
        let states: Vec<String> = devices.iter().map(|d| d.state.to_string()).collect();
        assert_eq!(states, list(expect["states"]), "{name}");
        if let Some(models) = expect.get("models") {
            let got: Vec<String> = devices.iter().map(|d| d.model.clone().unwrap_or_else(|| "-".into())).collect();
            assert_eq!(got, list(models), "{name}");
        }
        for d in &devices {
            assert!(!matches!(d.state, DeviceState::Other(_)), "{name}: {:?}", d.state);
            if !d.state.is_ready() {
                assert!(!d.state.remedy(&d.serial).is_empty(), "{name}");
            }
            seen.push(d.state.as_str().to_string());
        }
    }
    for state in ["device", "unauthorized", "offline", "no permissions", "authorizing", "recovery"] {
        assert!(seen.iter().any(|s| s == state), "no transcript shows {state}");
    }
}
