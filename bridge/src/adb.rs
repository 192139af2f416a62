//! The adb server's host protocol: a request is its length as four hex digits then its text; the
//! answer starts `OKAY` or `FAIL`, then a length-prefixed payload.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A device as `adb devices -l` lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DeviceInfo {
    /// Serial (`emulator-5554`, `127.0.0.1:5555`, a USB serial).
    pub serial: String,
    /// `device`, `offline`, `unauthorized`, `recovery`...
    pub state: String,
    /// `model:` of the listing, when given.
    pub model: Option<String>,
    /// `product:`.
    pub product: Option<String>,
    /// `transport_id:`.
    pub transport_id: Option<String>,
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
    /// The server said `FAIL` with this message.
    Failed(String),
    /// The socket broke or the answer was not the protocol.
    Io(std::io::Error),
}

impl std::fmt::Display for AdbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AdbError::NoServer(p) => write!(f, "no adb server on port {p} (start one with `adb start-server`)"),
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
            AdbError::Failed(format!("cannot run `adb start-server` ({e}): install adb (Debian: apt install adb)"))
        })?;
    if !out.status.success() {
        return Err(AdbError::Failed(format!(
            "`adb start-server` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    host_request(port, "host:version").map(|_| ())
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

/// Parses the payload of `host:devices-l`.
pub fn parse_devices(text: &str) -> Vec<DeviceInfo> {
    text.lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let serial = words.next()?.to_string();
            let state = words.next()?.to_string();
            let mut d = DeviceInfo { serial, state, model: None, product: None, transport_id: None };
            for w in words {
                match w.split_once(':') {
                    Some(("model", v)) => d.model = Some(v.to_string()),
                    Some(("product", v)) => d.product = Some(v.to_string()),
                    Some(("transport_id", v)) => d.transport_id = Some(v.to_string()),
                    _ => {}
                }
            }
            Some(d)
        })
        .collect()
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
        assert_eq!(d[1].state, "unauthorized");
        assert_eq!(d[1].model, None);
        assert_eq!(d[1].transport_id.as_deref(), Some("2"));
    }

    #[test]
    fn no_server_is_a_clear_error() {
        // A port nothing listens on: bind one, note it, drop it.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let e = devices(port).unwrap_err();
        assert!(e.to_string().contains("adb start-server"), "{e}");
    }
}
