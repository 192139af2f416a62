//! Against the real adb server (Debian `adb`), started on a free port so it touches no other
//! server on this machine, and killed at the end.

#[test]
fn lists_no_devices_on_a_fresh_server() {
    let server = test_phone::AdbServer::start();
    let port = server.0;
    let devices = bridge::adb::devices(port).unwrap();
    assert!(devices.is_empty(), "{devices:?}");
    // The server answers FAIL to what it does not know; the message comes through.
    let e = bridge::adb::host_request(port, "host:no-such-request").unwrap_err();
    assert!(matches!(e, bridge::adb::AdbError::Failed(_)), "{e}");
}
