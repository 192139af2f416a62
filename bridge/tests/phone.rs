//! The bridge against the real adb server (Debian `adb`, started on a free port) and the test
//! double of a phone (`tests/phone`: the device end of the adb protocol, running commands in a
//! sandbox on this machine). No device, one, two, and one that goes away mid-command.

use std::io::{Read, Write};
use std::process::Command;

use bridge::device::{AdbDevice, Device, DeviceError, Remote, Stream};
use test_phone::{PhoneSpec, TestPhone};

struct Server(u16);

impl Server {
    fn start() -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        // What heaptui does when no server runs.
        bridge::adb::ensure_server(port).expect("adb (Debian `adb`)");
        Server(port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("adb").args(["-P", &self.0.to_string(), "kill-server"]).output();
    }
}

#[test]
fn no_device_then_one_then_two() {
    let server = Server::start();
    let e = AdbDevice::select(server.0, None).unwrap_err();
    assert!(matches!(e, DeviceError::NoDevice), "{e}");
    assert!(e.to_string().contains("adb connect"), "{e}");

    // Device tracking: the server tells of the phone as it arrives.
    let port = server.0;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = bridge::adb::track_devices(port, |list| tx.send(list).is_ok());
    });
    assert_eq!(rx.recv_timeout(std::time::Duration::from_secs(5)).unwrap(), Vec::new());
    let a = TestPhone::start(PhoneSpec::default()).unwrap();
    a.connect(server.0).unwrap();
    let seen = loop {
        let list = rx.recv_timeout(std::time::Duration::from_secs(10)).expect("a tracking update");
        if list.iter().any(|d| d.state == "device") {
            break list;
        }
    };
    assert_eq!(seen[0].serial, a.serial());
    let d = AdbDevice::select(server.0, None).unwrap();
    assert_eq!(d.serial, a.serial());
    assert_eq!(d.model.as_deref(), Some("heaptui_test_phone"));

    let b = TestPhone::start(PhoneSpec { model: "second".into(), ..Default::default() }).unwrap();
    b.connect(server.0).unwrap();
    let e = AdbDevice::select(server.0, None).unwrap_err();
    assert!(matches!(&e, DeviceError::Several(s) if s.len() == 2), "{e}");
    assert!(e.to_string().contains("-s SERIAL"), "{e}");
    let d = AdbDevice::select(server.0, Some(&b.serial())).unwrap();
    assert_eq!(d.model.as_deref(), Some("second"));
    let e = AdbDevice::select(server.0, Some("nonesuch")).unwrap_err();
    assert!(matches!(e, DeviceError::Unknown(..)), "{e}");
}

#[test]
fn shell_v2_exec_push_pull_forward() {
    let server = Server::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let d = AdbDevice::select(server.0, Some(&phone.serial())).unwrap();

    // Shell v2: streams apart, the exit code kept, output beginning with FAIL is output.
    let o = d.output("echo FAIL looks like an error; echo to-stderr >&2; exit 3").unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), "FAIL looks like an error\n");
    assert_eq!(String::from_utf8_lossy(&o.stderr), "to-stderr\n");
    assert_eq!(o.code, 3);
    // Silent for longer than mozdevice's 2 s timeout, then output.
    let o = d.output("sleep 3; echo late").unwrap();
    assert_eq!((String::from_utf8_lossy(&o.stdout).as_ref(), o.code), ("late\n", 0));
    // Streaming: chunks arrive while the command runs.
    let mut chunks = Vec::new();
    let t0 = std::time::Instant::now();
    d.run("echo one; sleep 1; echo two", &mut |_, b| chunks.push((t0.elapsed(), b.to_vec()))).unwrap();
    // The first chunk came a second before the last: streamed, not gathered at the end.
    assert!(chunks.len() >= 2, "{chunks:?}");
    let (first, last) = (chunks[0].0, chunks[chunks.len() - 1].0);
    assert!(last - first >= std::time::Duration::from_millis(700), "{chunks:?}");

    // exec: binary output, every byte value intact.
    let bin = d.exec("printf '\\000\\001\\377\\n\\r'").unwrap();
    assert_eq!(bin, [0u8, 1, 255, b'\n', b'\r']);

    // Push and pull a 3 MB file of every byte value; the pull's checksum is the phone's.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("blob");
    let data: Vec<u8> = (0..3_000_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(&src, &data).unwrap();
    d.push(&data, "/data/local/tmp/blob", 0o640).unwrap();
    assert_eq!(std::fs::read(phone.tmp_dir().join("blob")).unwrap(), data);
    let back = dir.path().join("back");
    let mut seen = Vec::new();
    let pulled = d.pull("/data/local/tmp/blob", &back, &mut |n, total| seen.push((n, total))).unwrap();
    assert_eq!(std::fs::read(&back).unwrap(), data);
    assert_eq!(pulled.bytes, data.len() as u64);
    assert!(pulled.verified, "the phone's sha256sum was compared");
    let sha = Command::new("sha256sum").arg(&src).output().unwrap();
    assert_eq!(pulled.sha256, String::from_utf8_lossy(&sha.stdout).split_whitespace().next().unwrap());
    assert_eq!(seen.last(), Some(&(data.len() as u64, Some(data.len() as u64))));
    assert!(seen.len() > 2, "progress is reported as bytes arrive");
    // A pull never replaces a file.
    std::fs::write(&back, b"mine").unwrap();
    assert!(d.pull("/data/local/tmp/blob", &back, &mut |_, _| {}).is_err());
    assert_eq!(std::fs::read(&back).unwrap(), b"mine");
    assert!(d.pull("/data/local/tmp/no-such-file", &dir.path().join("x"), &mut |_, _| {}).is_err());
    assert!(!dir.path().join("x").exists());

    // Forward to a TCP port and to an abstract socket on the phone.
    let echo = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let echo_port = echo.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let (mut s, _) = echo.accept().unwrap();
        let mut b = [0u8; 5];
        s.read_exact(&mut b).unwrap();
        s.write_all(&b).unwrap();
    });
    {
        let f = d.forward(&Remote::Tcp(echo_port)).unwrap();
        let mut s = std::net::TcpStream::connect(("127.0.0.1", f.local_port)).unwrap();
        s.write_all(b"hello").unwrap();
        let mut b = [0u8; 5];
        s.read_exact(&mut b).unwrap();
        assert_eq!(&b, b"hello");
    }
    use std::os::linux::net::SocketAddrExt;
    let name = format!("heaptui-test-{}", std::process::id());
    let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
    let ab = std::os::unix::net::UnixListener::bind_addr(&addr).unwrap();
    std::thread::spawn(move || {
        let (mut s, _) = ab.accept().unwrap();
        s.write_all(b"abstract").unwrap();
    });
    let f = d.forward(&Remote::Abstract(name)).unwrap();
    let port = f.local_port;
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut b = [0u8; 8];
    s.read_exact(&mut b).unwrap();
    assert_eq!(&b, b"abstract");
    // Dropping the forward removes it from the server.
    drop(f);
    let list = bridge::adb::host_request(server.0, "host:list-forward").unwrap();
    assert!(!list.contains(&format!("tcp:{port}")), "{list}");
}

/// The phone's features as the server learnt them from its CNXN banner, and the plain `shell:`
/// service that a phone without `shell_v2` (Android 6 and older) runs commands on. The test
/// phone offers `shell_v2`, so the v1 path is called directly.
#[test]
fn features_and_the_shell_without_v2() {
    let server = Server::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let d = AdbDevice::select(server.0, Some(&phone.serial())).unwrap();
    // The banner says `features=shell_v2,cmd`; the server may keep them in any order.
    let mut asked = bridge::adb::features(server.0, &phone.serial()).unwrap();
    asked.sort();
    assert_eq!(asked, ["cmd", "shell_v2"]);
    let kept = d.features().unwrap();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(d.has_feature("shell_v2").unwrap() && d.has_feature("cmd").unwrap());
    assert!(!d.has_feature("abb").unwrap());
    // The server knows no such phone: FAIL, the message through.
    assert!(bridge::adb::features(server.0, "nonesuch").is_err());

    let v1 = |cmd: &str| {
        let mut out = Vec::new();
        let code = d
            .run_v1(cmd, &mut |s, b| {
                assert_eq!(s, Stream::Stdout, "v1 has one stream");
                out.extend_from_slice(b);
                true
            })
            .unwrap();
        (String::from_utf8_lossy(&out).into_owned(), code)
    };
    // The exit code comes back, the marker does not, stderr is merged in.
    let (out, code) = v1("echo FAIL looks like an error; echo to-stderr >&2; exit 3");
    assert_eq!(code, Some(3));
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort();
    assert_eq!(lines, ["FAIL looks like an error", "to-stderr"], "{out:?}");
    assert_eq!(v1("printf 'no newline'"), ("no newline".to_string(), Some(0)));
    assert_eq!(v1(r#"printf '%s\n' "it's quoted"; false"#), ("it's quoted\n".to_string(), Some(1)));
    assert_eq!(v1("exit 255").1, Some(255));
    assert_eq!(v1("cat").0, "", "stdin is closed");
    assert_eq!(v1("getprop ro.product.model"), ("heaptui_test_phone\n".to_string(), Some(0)));

    // Streaming: the first chunk a second before the last.
    let mut chunks = Vec::new();
    let t0 = std::time::Instant::now();
    d.run_v1("echo one; sleep 1; echo two", &mut |_, b| {
        chunks.push((t0.elapsed(), b.to_vec()));
        true
    })
    .unwrap();
    assert!(chunks.len() >= 2, "{chunks:?}");
    assert!(chunks[chunks.len() - 1].0 - chunks[0].0 >= std::time::Duration::from_millis(700), "{chunks:?}");
    // The sink hangs up: no code.
    let t0 = std::time::Instant::now();
    assert_eq!(d.run_v1("echo first; sleep 30", &mut |_, _| false).unwrap(), None);
    assert!(t0.elapsed() < std::time::Duration::from_secs(10));

    // The phone goes away mid-command.
    let d2 = d.clone();
    let t = std::thread::spawn(move || d2.run_v1("echo started; sleep 30", &mut |_, _| true));
    std::thread::sleep(std::time::Duration::from_millis(700));
    phone.go_away();
    let e = t.join().unwrap().unwrap_err();
    assert!(matches!(e, DeviceError::Gone(..)), "{e}");
}

#[test]
fn a_phone_that_goes_away_mid_command() {
    let server = Server::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let d = AdbDevice::select(server.0, None).unwrap();
    let t = std::thread::spawn(move || d.output("echo started; sleep 30"));
    std::thread::sleep(std::time::Duration::from_millis(700));
    phone.go_away();
    let e = t.join().unwrap().unwrap_err();
    assert!(matches!(e, DeviceError::Gone(..)), "{e}");
    assert!(e.to_string().contains("went away"), "{e}");
}

/// A phone that answers without end (here 200 MiB of `y`): the command is stopped at the bound
/// and is an error, not 200 MiB (or more) of memory.
#[test]
fn an_answer_without_end_is_cut_at_the_bound() {
    let server = Server::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let d = AdbDevice::select(server.0, None).unwrap();
    let e = d.output("yes | head -c 209715200").unwrap_err();
    assert!(matches!(e, DeviceError::TooMuch(_)), "{e}");
    assert!(e.to_string().contains("more than 64 MiB"), "{e}");
    // The phone is still usable.
    assert_eq!(d.output("echo ok").unwrap().stdout, b"ok\n");
}

#[test]
fn the_agent_is_pushed_once_and_lists_processes() {
    let server = Server::start();
    let phone = TestPhone::start(PhoneSpec::default()).unwrap();
    phone.connect(server.0).unwrap();
    let d = AdbDevice::select(server.0, None).unwrap();
    let a = bridge::agent::Agent::deploy(&d).unwrap();
    assert!(a.pushed);
    assert_eq!(a.version, env!("CARGO_PKG_VERSION"));
    assert!(phone.tmp_dir().join("heaptui-agent").is_file());
    // Same build on the phone: not pushed again.
    assert!(!bridge::agent::Agent::deploy(&d).unwrap().pushed);

    // The phone's processes are this machine's: this test is one of them.
    let me = std::process::id();
    let list = a.processes().unwrap();
    assert!(list.iter().any(|p| p.pid == me), "{} processes, none is {me}", list.len());

    // Probe's breakdowns, read on the phone: this test's threads, its open files.
    let g = a.groups(me).unwrap();
    assert!(g.threads.iter().map(|t| t.1).sum::<u64>() >= 1, "{g:?}");
    assert!(g.fds.iter().map(|t| t.1).sum::<u64>() >= 3, "{g:?}");
    assert!(a.groups(999_999_999).is_err());
    assert_eq!(
        bridge::agent::Agent::deploy(&d).unwrap().processes().unwrap().iter().filter(|p| p.pid == me).count(),
        1
    );

    // Samples stream back as the agent takes them.
    let mut samples = Vec::new();
    let code = a.sample(me, 100, Some(3), &mut |l| samples.push(l)).unwrap();
    assert_eq!(code, 0);
    assert_eq!(samples.len(), 3);
    match &samples[0] {
        agent::protocol::Line::Sample { sample: s } => {
            assert_eq!(s.pid, me);
            assert!(s.rss_kb > 0 && s.threads >= 1);
        }
        other => panic!("{other:?}"),
    }

    // A phone whose CPU has no agent build is a clear error. (Its ABI list too: the default
    // phone's `x86_64,x86` would pick a build.)
    let odd =
        TestPhone::start(PhoneSpec { abi: "mips".into(), abi_list: "mips".into(), ..Default::default() }).unwrap();
    odd.connect(server.0).unwrap();
    let d = AdbDevice::select(server.0, Some(&odd.serial())).unwrap();
    let e = bridge::agent::Agent::deploy(&d).err().unwrap();
    assert!(
        e.to_string().contains("runs \"mips\"; the agent is built for arm64-v8a, armeabi-v7a, x86_64 and x86"),
        "{e}"
    );
}
