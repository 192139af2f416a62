//! Against the real adb server (Debian `adb`), started on a free port so it touches no other
//! server on this machine, and killed at the end.

use std::process::Command;

struct Server(u16);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("adb").args(["-P", &self.0.to_string(), "kill-server"]).output();
    }
}

#[test]
fn lists_no_devices_on_a_fresh_server() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let out = Command::new("adb").args(["-P", &port.to_string(), "start-server"]).output().expect("adb (Debian `adb`)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _server = Server(port);
    let devices = bridge::adb::devices(port).unwrap();
    assert!(devices.is_empty(), "{devices:?}");
    // The server answers FAIL to what it does not know; the message comes through.
    let e = bridge::adb::host_request(port, "host:no-such-request").unwrap_err();
    assert!(matches!(e, bridge::adb::AdbError::Failed(_)), "{e}");
}
