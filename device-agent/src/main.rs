//! `heaptui-agent`, the on-device program (monitor, triggers, dumpers, streaming stripper).
//!
//! Not built yet (issue "Device bridge and agent"); it says so and exits with status 2 rather
//! than pretend to monitor anything.

fn main() {
    eprintln!("heaptui-agent: the device agent is not implemented yet; see the issue \"Device bridge and agent\"");
    std::process::exit(2);
}
