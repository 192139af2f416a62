//! The adb server's host protocol: a request is its length as four hex digits then its text; the
//! answer starts `OKAY` or `FAIL`, then a length-prefixed payload.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A device as `adb devices -l` lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DeviceInfo {
    /// Serial (`emulator-5554`, `127.0.0.1:5555`, a USB serial; `(no serial number)` when the
    /// device gave none).
    pub serial: String,
    /// Its connection state: `device` when it can be used.
    pub state: DeviceState,
    /// `model:` of the listing, when given.
    pub model: Option<String>,
    /// `product:`.
    pub product: Option<String>,
    /// `transport_id:`.
    pub transport_id: Option<String>,
}

/// A device's connection state as the adb server names it in `adb devices`.
///
/// The names are adb's own: `atransport::connection_state_name()` in `adb/transport.cpp` of
/// AOSP's `system/core` (adb up to 2020), `to_string(ConnectionState)` in `adb.cpp` of
/// `packages/modules/adb` since (which added `detached`), and for `no permissions` the one
/// state of several words, `UsbNoPermissionsShortHelpText()` in `diagnose_usb/diagnose_usb.cpp`:
/// `no permissions (REASON); see [URL]`, the reason (`missing udev rules? user is in the plugdev
/// group`, `user NAME is not in the plugdev group`; older servers `user in plugdev group; are
/// your udev rules wrong?`, `verify udev rules`) and the link left out when unknown, and bare
/// `no permissions` before adb 1.0.36.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeviceState {
    /// Booted into Android with adbd answering: usable.
    Device,
    /// adbd answered but this computer's key is not accepted yet (the phone shows a prompt).
    Unauthorized,
    /// Seen but not answering (a stalled USB link, a phone over Wi-Fi that went to sleep).
    Offline,
    /// The adb server may not open the USB device. Holds what followed `no permissions` as the
    /// server printed it (the reason in parentheses and the link), often empty.
    NoPermissions(String),
    /// The server is trying its `ADB_VENDOR_KEYS` on the phone.
    Authorizing,
    /// The server has not heard from the phone yet.
    Connecting,
    /// Booted into recovery, not Android.
    Recovery,
    /// Recovery's rescue mode.
    Rescue,
    /// Recovery waiting for `adb sideload`.
    Sideload,
    /// The bootloader (fastboot).
    Bootloader,
    /// The other end is an adb host, not a device.
    Host,
    /// A USB device the server let go of (`adb detach`).
    Detached,
    /// Any other word (`unknown`, a state newer than this code), as printed.
    Other(String),
}

impl DeviceState {
    /// The state of adb's listing text: `device`, `unauthorized`, `no permissions (...); see
    /// [...]`...
    pub fn parse(text: &str) -> DeviceState {
        let text = text.trim();
        if let Some(rest) = text.strip_prefix("no permissions") {
            return DeviceState::NoPermissions(rest.trim().to_string());
        }
        match text {
            "device" => DeviceState::Device,
            "unauthorized" => DeviceState::Unauthorized,
            "offline" => DeviceState::Offline,
            "authorizing" => DeviceState::Authorizing,
            "connecting" => DeviceState::Connecting,
            "recovery" => DeviceState::Recovery,
            "rescue" => DeviceState::Rescue,
            "sideload" => DeviceState::Sideload,
            "bootloader" => DeviceState::Bootloader,
            "host" => DeviceState::Host,
            "detached" => DeviceState::Detached,
            other => DeviceState::Other(other.to_string()),
        }
    }

    /// The state's name as adb prints it, `no permissions` without its reason.
    pub fn as_str(&self) -> &str {
        match self {
            DeviceState::Device => "device",
            DeviceState::Unauthorized => "unauthorized",
            DeviceState::Offline => "offline",
            DeviceState::NoPermissions(_) => "no permissions",
            DeviceState::Authorizing => "authorizing",
            DeviceState::Connecting => "connecting",
            DeviceState::Recovery => "recovery",
            DeviceState::Rescue => "rescue",
            DeviceState::Sideload => "sideload",
            DeviceState::Bootloader => "bootloader",
            DeviceState::Host => "host",
            DeviceState::Detached => "detached",
            DeviceState::Other(s) => s,
        }
    }

    /// Whether commands can run on it.
    pub fn is_ready(&self) -> bool {
        *self == DeviceState::Device
    }

    /// What the state means, to follow "phone SERIAL is".
    pub fn meaning(&self) -> String {
        match self {
            DeviceState::Device => "ready".into(),
            DeviceState::Unauthorized => "unauthorized: it has not accepted this computer's adb key".into(),
            DeviceState::Offline => "offline: the adb server sees it but it does not answer".into(),
            DeviceState::NoPermissions(detail) => {
                // The reason adb gave, without its link (the remedy names the page).
                let reason = detail.split("; see [").next().unwrap_or("").trim();
                let reason = reason.trim_start_matches('(').trim_end_matches(')');
                if reason.is_empty() {
                    "not accessible: the adb server has no permission to open its USB device".into()
                } else {
                    format!("not accessible: the adb server has no permission to open its USB device ({reason})")
                }
            }
            DeviceState::Authorizing => "still authorizing: the adb server is trying its keys on it".into(),
            DeviceState::Connecting => "still connecting: the adb server has not heard from it yet".into(),
            DeviceState::Recovery => "in recovery mode, not booted into Android".into(),
            DeviceState::Rescue => "in rescue mode (recovery), not booted into Android".into(),
            DeviceState::Sideload => {
                "in sideload mode (recovery waiting for `adb sideload`), not booted into Android".into()
            }
            DeviceState::Bootloader => "in the bootloader (fastboot), not booted into Android".into(),
            DeviceState::Host => "another adb host, not a phone".into(),
            DeviceState::Detached => "detached from the adb server (`adb detach`)".into(),
            DeviceState::Other(s) => format!("in state {s:?}, which heaptui does not know"),
        }
    }

    /// What to do about the state for phone `serial`; empty for `device`.
    pub fn remedy(&self, serial: &str) -> String {
        match self {
            DeviceState::Device => String::new(),
            DeviceState::Unauthorized => {
                "unlock the phone and accept its \"Allow USB debugging?\" prompt; if the prompt \
                 never appears, run `adb kill-server` and replug the cable (and if ADB_VENDOR_KEYS is set, check \
                 it names this computer's key)"
                    .into()
            }
            DeviceState::NoPermissions(_) => "install udev rules for it (Debian: `sudo apt install \
                 android-sdk-platform-tools-common`) and put your user in the plugdev group (`sudo usermod -aG \
                 plugdev $USER`, then log in again), replug the phone and run `adb kill-server`; Android's page \
                 \"Run apps on a hardware device\" (https://developer.android.com/studio/run/device, which adb \
                 links as http://developer.android.com/tools/device.html) gives the Linux setup"
                .into(),
            DeviceState::Offline => "replug the cable or run `adb reconnect offline` (over Wi-Fi, `adb connect` it \
                 again); if it stays offline, turn USB debugging off and on in the phone's Developer options"
                .into(),
            DeviceState::Recovery | DeviceState::Rescue | DeviceState::Sideload => {
                format!(
                    "reboot it into Android (`adb -s {} reboot`) and try again once it has booted",
                    crate::shell::quote(serial)
                )
            }
            DeviceState::Bootloader => {
                "boot it into Android (`fastboot reboot`, or the bootloader's menu) and try again once it has booted"
                    .into()
            }
            DeviceState::Authorizing | DeviceState::Connecting => {
                format!(
                    "wait a few seconds and try again (`adb -s {} wait-for-device` waits for it)",
                    crate::shell::quote(serial)
                )
            }
            DeviceState::Host => "pick a phone with -s SERIAL".into(),
            DeviceState::Detached => format!("attach it again with `adb -s {} attach`", crate::shell::quote(serial)),
            DeviceState::Other(_) => "replug it or run `adb reconnect`, and see what `adb devices -l` says".into(),
        }
    }
}

impl std::fmt::Display for DeviceState {
    /// The name as adb prints it (padding and width apply).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl PartialEq<str> for DeviceState {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for DeviceState {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl serde::Serialize for DeviceState {
    /// As its name, the string `state` always was.
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// The adb server's port: `ANDROID_ADB_SERVER_PORT`, else 5037.
pub fn server_port() -> u16 {
    std::env::var("ANDROID_ADB_SERVER_PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(5037)
}

/// Why the list could not be had.
#[derive(Debug)]
pub enum AdbError {
    /// No server listens on the port.
    NoServer(u16),
    /// None listened, and none could be started (no `adb` program, or it failed): why.
    NotStarted(String),
    /// The server said `FAIL` with this message.
    Failed(String),
    /// The socket broke or the answer was not the protocol.
    Io(std::io::Error),
}

impl std::fmt::Display for AdbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AdbError::NoServer(p) => write!(f, "no adb server on port {p} (start one with `adb start-server`)"),
            AdbError::NotStarted(why) => write!(f, "adb server: {why}"),
            AdbError::Failed(m) => write!(f, "adb server: {m}"),
            AdbError::Io(e) => write!(f, "adb server: {e}"),
        }
    }
}

impl std::error::Error for AdbError {}

fn read_payload(s: &mut TcpStream) -> std::io::Result<String> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len)?;
    let n = std::str::from_utf8(&len)
        .ok()
        .and_then(|h| usize::from_str_radix(h, 16).ok())
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "bad length prefix"))?;
    let mut buf = vec![0u8; n];
    s.read_exact(&mut buf)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// Sends host request `request` to the server on `port` and returns its payload.
pub fn host_request(port: u16, request: &str) -> Result<String, AdbError> {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).map_err(|_| AdbError::NoServer(port))?;
    s.set_read_timeout(Some(Duration::from_secs(10))).map_err(AdbError::Io)?;
    s.write_all(format!("{:04x}{request}", request.len()).as_bytes()).map_err(AdbError::Io)?;
    let mut status = [0u8; 4];
    s.read_exact(&mut status).map_err(AdbError::Io)?;
    match &status {
        b"OKAY" => read_payload(&mut s).map_err(AdbError::Io),
        b"FAIL" => Err(AdbError::Failed(read_payload(&mut s).unwrap_or_default())),
        other => Err(AdbError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("unexpected answer {:?}", String::from_utf8_lossy(other)),
        ))),
    }
}

fn status(s: &mut TcpStream) -> Result<(), AdbError> {
    let mut status = [0u8; 4];
    s.read_exact(&mut status).map_err(AdbError::Io)?;
    match &status {
        b"OKAY" => Ok(()),
        b"FAIL" => Err(AdbError::Failed(read_payload(s).unwrap_or_default())),
        other => Err(AdbError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("unexpected answer {:?}", String::from_utf8_lossy(other)),
        ))),
    }
}

/// Opens `service` (`shell,v2,raw:ls`, `exec:cat f`, `sync:`, `tcp:8700`...) on device `serial`
/// through the server on `port`: the socket then carries the service's own bytes. No read
/// timeout: a long command may be silent for minutes.
pub fn open(port: u16, serial: &str, service: &str) -> Result<TcpStream, AdbError> {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).map_err(|_| AdbError::NoServer(port))?;
    let transport = format!("host:transport:{serial}");
    s.write_all(format!("{:04x}{transport}", transport.len()).as_bytes()).map_err(AdbError::Io)?;
    status(&mut s)?;
    s.write_all(format!("{:04x}{service}", service.len()).as_bytes()).map_err(AdbError::Io)?;
    status(&mut s)?;
    Ok(s)
}

/// The most a sync `DATA` frame carries (AOSP's `SYNC_DATA_MAX`, `adb/file_sync_protocol.h`):
/// its client refuses a larger one, and so does this.
pub const SYNC_DATA_MAX: usize = 64 * 1024;

/// Copies `path` on device `serial` to `out` through the sync service (`RECV`), at most `limit`
/// bytes; the bytes copied. Every frame is read bounded: a `DATA` frame over [`SYNC_DATA_MAX`],
/// a `FAIL` message over it, an unknown frame or more than `limit` bytes in all end the copy
/// with an error (a device that streams without end cannot fill the disk).
pub fn sync_pull(port: u16, serial: &str, path: &str, limit: u64, out: &mut dyn Write) -> Result<u64, AdbError> {
    let bad = |what: String| AdbError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, what));
    if path.len() > 1024 {
        return Err(bad(format!("a path of {} bytes (sync takes at most 1024)", path.len())));
    }
    let mut s = open(port, serial, "sync:")?;
    let mut request = b"RECV".to_vec();
    request.extend_from_slice(&(path.len() as u32).to_le_bytes());
    request.extend_from_slice(path.as_bytes());
    s.write_all(&request).map_err(AdbError::Io)?;
    let mut buf = vec![0u8; SYNC_DATA_MAX];
    let mut copied = 0u64;
    loop {
        let mut head = [0u8; 8];
        s.read_exact(&mut head).map_err(AdbError::Io)?;
        let len = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
        match &head[..4] {
            b"DATA" => {
                if len > SYNC_DATA_MAX {
                    return Err(bad(format!(
                        "a sync DATA frame of {len} bytes after {copied} (at most {SYNC_DATA_MAX})"
                    )));
                }
                if copied + len as u64 > limit {
                    return Err(bad(format!("{path} sends more than {limit} bytes")));
                }
                s.read_exact(&mut buf[..len]).map_err(AdbError::Io)?;
                out.write_all(&buf[..len]).map_err(AdbError::Io)?;
                copied += len as u64;
            }
            b"DONE" => return Ok(copied),
            b"FAIL" => {
                if len > SYNC_DATA_MAX {
                    return Err(bad(format!("a sync FAIL message of {len} bytes")));
                }
                s.read_exact(&mut buf[..len]).map_err(AdbError::Io)?;
                return Err(AdbError::Failed(String::from_utf8_lossy(&buf[..len]).into_owned()));
            }
            other => {
                return Err(bad(format!(
                    "an unknown sync frame {:?} after {copied} bytes",
                    String::from_utf8_lossy(other)
                )))
            }
        }
    }
}

/// Asks the server on `port` to forward `local` (`tcp:0` for any free port) to `remote` on device
/// `serial`; returns the local port the server chose (empty when `local` named one).
pub fn forward(port: u16, serial: &str, local: &str, remote: &str) -> Result<String, AdbError> {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).map_err(|_| AdbError::NoServer(port))?;
    s.set_read_timeout(Some(Duration::from_secs(10))).map_err(AdbError::Io)?;
    let req = format!("host-serial:{serial}:forward:{local};{remote}");
    s.write_all(format!("{:04x}{req}", req.len()).as_bytes()).map_err(AdbError::Io)?;
    // One OKAY for the device, one for the forward, then the port when the server chose it.
    status(&mut s)?;
    status(&mut s)?;
    Ok(read_payload(&mut s).unwrap_or_default())
}

/// Starts the adb server on `port` when none answers there, as `adb start-server` does (it is
/// what runs it: the server is adb's own program).
pub fn ensure_server(port: u16) -> Result<(), AdbError> {
    if host_request(port, "host:version").is_ok() {
        return Ok(());
    }
    let out =
        std::process::Command::new("adb").args(["-P", &port.to_string(), "start-server"]).output().map_err(|e| {
            AdbError::NotStarted(format!("cannot run `adb start-server` ({e}): install adb (Debian: apt install adb)"))
        })?;
    if !out.status.success() {
        return Err(AdbError::NotStarted(format!(
            "`adb start-server` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    host_request(port, "host:version").map(|_| ())
}

/// The adb features device `serial` offers (`shell_v2`, `cmd`, `stat_v2`...), which its adbd
/// named in the CNXN banner: `host-serial:SERIAL:features`, what `adb -s SERIAL features`
/// asks (the `features` host request in adb's `handle_host_request()`, `adb.cpp`; adb 1.0.32
/// and later). adbd before Android 7 has no `shell_v2`.
pub fn features(port: u16, serial: &str) -> Result<Vec<String>, AdbError> {
    let text = host_request(port, &format!("host-serial:{serial}:features"))?;
    Ok(text.split(',').map(str::trim).filter(|f| !f.is_empty()).map(str::to_string).collect())
}

/// Follows the device list as it changes (`host:track-devices-l`): `on_change` gets each new
/// list and returns false to stop.
pub fn track_devices(port: u16, mut on_change: impl FnMut(Vec<DeviceInfo>) -> bool) -> Result<(), AdbError> {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).map_err(|_| AdbError::NoServer(port))?;
    let req = "host:track-devices-l";
    s.write_all(format!("{:04x}{req}", req.len()).as_bytes()).map_err(AdbError::Io)?;
    status(&mut s)?;
    loop {
        let list = read_payload(&mut s).map_err(AdbError::Io)?;
        if !on_change(parse_devices(&list)) {
            return Ok(());
        }
    }
}

/// Parses the payload of `host:devices-l` (or of `host:devices`, `adb devices`' short form).
///
/// adb writes a line as `append_transport()` in `adb/transport.cpp` does: the serial (padded to
/// 22 columns in the long form, a tab after it in the short one), the state, which may be several
/// words (`no permissions (...); see [...]`), then ` usb:1-1`, ` product:`, ` model:`,
/// ` device:`, ` transport_id:` when known. A serial of spaces (`(no serial number)`, a
/// non-ASCII mDNS name) is whatever comes before the tab, or before the state.
pub fn parse_devices(text: &str) -> Vec<DeviceInfo> {
    text.lines().filter_map(parse_device_line).collect()
}

/// The states of one word, to find where a serial of several words ends.
const ONE_WORD_STATES: [&str; 12] = [
    "device",
    "unauthorized",
    "offline",
    "authorizing",
    "connecting",
    "recovery",
    "rescue",
    "sideload",
    "bootloader",
    "host",
    "detached",
    "unknown",
];

fn parse_device_line(line: &str) -> Option<DeviceInfo> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() || line.starts_with("List of devices") || line.starts_with("* ") {
        return None;
    }
    // The serial, and the text after it.
    let (serial, rest) = if let Some((serial, rest)) = line.split_once('\t') {
        // The short form, or the first `-l` of 2012 (`SERIAL\tusb:2-5\tdevice`).
        let rest = match rest.split_once('\t') {
            Some((path, state)) if path.starts_with("usb:") => state,
            _ => rest,
        };
        (serial.trim().to_string(), rest)
    } else {
        let words: Vec<&str> = line.split_whitespace().collect();
        // Where the state begins: the first word after the first that is a state.
        let at = (1..words.len())
            .find(|&i| {
                ONE_WORD_STATES.contains(&words[i])
                    || (words[i] == "no" && words.get(i + 1).is_some_and(|w| w.starts_with("permissions")))
            })
            .unwrap_or(1);
        let serial = words[..at.min(words.len())].join(" ");
        let mut rest = line.trim_start();
        for _ in 0..at {
            rest = rest.trim_start();
            rest = rest.find(char::is_whitespace).map_or("", |n| &rest[n..]);
        }
        (serial, rest)
    };
    let rest = rest.trim_start();
    if serial.is_empty() {
        return None;
    }
    // The state: one word, or `no permissions` with its reason and link.
    let (state, attrs) = match rest.strip_prefix("no permissions") {
        Some(after) => {
            let mut end = rest.len() - after.len();
            let tail = &rest[end..];
            if tail.starts_with(" (") {
                end += tail.find(')').map_or(tail.len(), |n| n + 1);
            }
            let tail = &rest[end..];
            if let Some(link) = tail.strip_prefix("; see [") {
                end += tail.len() - link.len() + link.find(']').map_or(link.len(), |n| n + 1);
            }
            (DeviceState::parse(&rest[..end]), &rest[end..])
        }
        None => {
            let word = rest.split_whitespace().next()?;
            (DeviceState::parse(word), &rest[word.len()..])
        }
    };
    let mut d = DeviceInfo { serial, state, model: None, product: None, transport_id: None };
    for w in attrs.split_whitespace() {
        match w.split_once(':') {
            Some(("model", v)) => d.model = Some(v.to_string()),
            Some(("product", v)) => d.product = Some(v.to_string()),
            Some(("transport_id", v)) => d.transport_id = Some(v.to_string()),
            _ => {}
        }
    }
    Some(d)
}

/// The devices the adb server on `port` knows.
pub fn devices(port: u16) -> Result<Vec<DeviceInfo>, AdbError> {
    host_request(port, "host:devices-l").map(|t| parse_devices(&t))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The listing's shape as adb 34 prints it (`adb devices -l`).
    #[test]
    fn parses_a_listing() {
        let t = "emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64x transport_id:1\n\
                 0123456789ABCDEF       unauthorized usb:1-1 transport_id:2\n";
        let d = parse_devices(t);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].serial, "emulator-5554");
        assert_eq!(d[0].model.as_deref(), Some("sdk_gphone64_x86_64"));
        assert_eq!(d[1].state, DeviceState::Unauthorized);
        assert_eq!(d[1].state, "unauthorized");
        assert_eq!(d[1].model, None);
        assert_eq!(d[1].transport_id.as_deref(), Some("2"));
    }

    /// Lines as `append_transport()` writes them (`%-22s %s`, then the attributes), with every
    /// name `to_string(ConnectionState)` gives.
    #[test]
    fn every_state_in_the_long_listing() {
        let cases = [
            ("device", DeviceState::Device),
            ("unauthorized", DeviceState::Unauthorized),
            ("offline", DeviceState::Offline),
            ("authorizing", DeviceState::Authorizing),
            ("connecting", DeviceState::Connecting),
            ("recovery", DeviceState::Recovery),
            ("rescue", DeviceState::Rescue),
            ("sideload", DeviceState::Sideload),
            ("bootloader", DeviceState::Bootloader),
            ("host", DeviceState::Host),
            ("detached", DeviceState::Detached),
            ("unknown", DeviceState::Other("unknown".into())),
            (
                "no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html]",
                DeviceState::NoPermissions(
                    "(missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html]".into(),
                ),
            ),
            (
                "no permissions (user alice is not in the plugdev group); see [http://developer.android.com/tools/device.html]",
                DeviceState::NoPermissions(
                    "(user alice is not in the plugdev group); see [http://developer.android.com/tools/device.html]".into(),
                ),
            ),
            ("no permissions; see [http://developer.android.com/tools/device.html]", DeviceState::NoPermissions("; see [http://developer.android.com/tools/device.html]".into())),
            ("no permissions", DeviceState::NoPermissions(String::new())),
        ];
        for (text, state) in cases {
            let long = format!(
                "{:<22} {text} usb:1-1 product:oriole model:Pixel_6 device:oriole transport_id:7\n",
                "1A2B3C4D5E6F"
            );
            let d = parse_devices(&long);
            assert_eq!(d.len(), 1, "{long}");
            assert_eq!((d[0].serial.as_str(), &d[0].state), ("1A2B3C4D5E6F", &state), "{long}");
            assert_eq!(d[0].model.as_deref(), Some("Pixel_6"), "{long}");
            assert_eq!(d[0].transport_id.as_deref(), Some("7"), "{long}");
            let short = format!("1A2B3C4D5E6F\t{text}\n");
            assert_eq!(parse_devices(&short)[0].state, state, "{short}");
            assert_eq!(d[0].state.is_ready(), state == DeviceState::Device);
            assert_eq!(format!("{:<16}|", d[0].state).len(), d[0].state.as_str().len().max(16) + 1);
        }
    }

    #[test]
    fn odd_serials() {
        let d = parse_devices("(no serial number)     no permissions; see [http://developer.android.com/tools/device.html] usb:3-2 transport_id:4\n");
        assert_eq!(d[0].serial, "(no serial number)");
        assert_eq!(d[0].state.as_str(), "no permissions");
        assert_eq!(d[0].transport_id.as_deref(), Some("4"));
        // adb before 1.0.32 printed question marks for a device it could not read.
        let d = parse_devices("List of devices attached\n????????????\tno permissions\n\n");
        assert_eq!((d[0].serial.as_str(), d[0].state.as_str()), ("????????????", "no permissions"));
        // The first `devices -l` (2012) put the USB path before the state.
        let d = parse_devices("016B75D60A00600D\tusb:2-5\tdevice\n");
        assert_eq!((d[0].serial.as_str(), &d[0].state), ("016B75D60A00600D", &DeviceState::Device));
        // A wireless-debugging mDNS name.
        let d = parse_devices("adb-R58M41XXXXX-AbCdEf._adb-tls-connect._tcp device product:a52qnsxx model:SM_A525F device:a52q transport_id:2\n");
        assert_eq!(d[0].serial, "adb-R58M41XXXXX-AbCdEf._adb-tls-connect._tcp");
        assert_eq!(d[0].state, "device");
    }

    #[test]
    fn every_state_says_what_to_do() {
        let s = "1A2B";
        let no_perm = DeviceState::parse("no permissions (user alice is not in the plugdev group); see [http://developer.android.com/tools/device.html]");
        assert!(no_perm.meaning().contains("(user alice is not in the plugdev group)"), "{}", no_perm.meaning());
        assert!(!no_perm.meaning().contains("see ["), "{}", no_perm.meaning());
        for needle in ["udev", "plugdev", "developer.android.com/studio/run/device", "tools/device.html"] {
            assert!(no_perm.remedy(s).contains(needle), "{needle}: {}", no_perm.remedy(s));
        }
        let un = DeviceState::Unauthorized.remedy(s);
        assert!(un.contains("Allow USB debugging") && un.contains("adb kill-server"), "{un}");
        assert!(DeviceState::Offline.remedy(s).contains("adb reconnect offline"));
        for st in [DeviceState::Recovery, DeviceState::Rescue, DeviceState::Sideload, DeviceState::Bootloader] {
            assert!(st.meaning().contains("not booted into Android"), "{st}");
            assert!(st.remedy(s).contains("reboot"), "{st}");
        }
        for st in [DeviceState::Authorizing, DeviceState::Connecting] {
            assert!(st.remedy(s).contains("wait a few seconds"), "{st}");
        }
        assert!(DeviceState::Detached.remedy(s).contains("adb -s 1A2B attach"));
        assert!(DeviceState::Host.remedy(s).contains("-s SERIAL"));
        assert!(DeviceState::Other("weird".into()).meaning().contains("\"weird\""));
        assert_eq!(DeviceState::Device.remedy(s), "");
        assert_eq!(serde_json::to_string(&no_perm).unwrap(), "\"no permissions\"");
    }

    #[test]
    fn no_server_is_a_clear_error() {
        // A port nothing listens on: bind one, note it, drop it.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let e = devices(port).unwrap_err();
        assert!(e.to_string().contains("adb start-server"), "{e}");
    }
}
