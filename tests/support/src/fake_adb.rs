//! A fake adb server, named as such: it answers the host protocol's listing requests with a
//! listing the test chooses, for what the real server never lets a test's device choose (its
//! serial: a phone over USB names itself by its USB descriptor, which the test phone, connected
//! over TCP as `HOST:PORT`, cannot). It speaks the protocol as `adb`'s own server does
//! (`adb/SERVICES.TXT`, `adb/adb.cpp` `handle_host_request`): a 4-hex-digit length and the
//! request, then `OKAY` with a 4-hex-digit length and the payload, or `FAIL` with a message.
//! Every other request is answered `FAIL`, as the real server answers one for a device it
//! cannot reach.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};

/// A fake server on a free local port, serving until dropped (the test process's end).
pub struct FakeAdbServer {
    /// Its port (give it to heaptui as `ANDROID_ADB_SERVER_PORT`).
    pub port: u16,
}

impl FakeAdbServer {
    /// Starts one whose `host:devices-l` answers `listing` (lines as `adb devices -l` prints).
    pub fn start(listing: &str) -> std::io::Result<FakeAdbServer> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        let port = listener.local_addr()?.port();
        let listing = listing.to_string();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let listing = listing.clone();
                std::thread::spawn(move || {
                    let _ = serve(stream, &listing);
                });
            }
        });
        Ok(FakeAdbServer { port })
    }
}

fn serve(mut s: TcpStream, listing: &str) -> std::io::Result<()> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len)?;
    let n = usize::from_str_radix(std::str::from_utf8(&len).unwrap_or("0"), 16).unwrap_or(0);
    let mut request = vec![0u8; n];
    s.read_exact(&mut request)?;
    let request = String::from_utf8_lossy(&request);
    let okay = |s: &mut TcpStream, payload: &str| -> std::io::Result<()> {
        s.write_all(format!("OKAY{:04x}{payload}", payload.len()).as_bytes())
    };
    match request.as_ref() {
        "host:version" => okay(&mut s, "0029"),
        "host:devices" | "host:devices-l" => okay(&mut s, listing),
        other => {
            let why = format!("device not found ({other})");
            s.write_all(format!("FAIL{:04x}{why}", why.len()).as_bytes())
        }
    }
}
