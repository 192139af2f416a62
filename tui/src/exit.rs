//! heaptui's exit codes: one table for every subcommand, each code a kind of failure a script can
//! act on. The README lists it (generated from [`Code::TABLE`] and checked by a test).
//!
//! An error's code is decided once, in the binary, from what it is: an error that says its kind
//! ([`Code::error`], [`Code::wrap`]) has that kind; otherwise the first typed error in its chain
//! decides (a dump's [`heap::Error`] is bad input; a device's error is "no device" or "device
//! failed" by what went wrong; a file that exists is "output"); anything else is bad input, the
//! code every error had before there was a table.

use std::fmt;

use bridge::adb::AdbError;
use bridge::device::DeviceError;

/// What went wrong, as the process's exit status says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// Done.
    Success,
    /// A dump, trace, mapping, query or other input cannot be read as what it should be.
    BadInput,
    /// The command line asks for something that cannot be done as asked.
    Usage,
    /// Leak suspects were found (kept for a gate over `analyze`; not used yet).
    LeaksFound,
    /// Nothing to talk to: no adb server, no phone, or the phone or process named is not there.
    NoDevice,
    /// The phone, the adb server or the agent failed, or answered what heaptui cannot use.
    DeviceFailed,
    /// A file to write exists (heaptui never overwrites one) or cannot be made.
    Output,
    /// heaptui itself went wrong (a bug: please report it with the message); a panic too.
    Internal,
}

impl Code {
    /// Every code, with its number and what it means: the README's table.
    pub const TABLE: [(Code, u8, &'static str); 8] = [
        (Code::Success, 0, "success"),
        (Code::BadInput, 1, "bad input: a dump, trace, mapping, query or file cannot be read as one (the message names the file, and for a dump the byte offset and record)"),
        (Code::Usage, 2, "usage: a flag or argument is wrong, flags do not go together, or a name matches several processes, phones or classes"),
        (Code::LeaksFound, 3, "leaks found: reserved for a gate over `analyze`'s suspects (not used yet)"),
        (Code::NoDevice, 4, "no device: no adb server, no phone, or the phone, process or app named is not there"),
        (Code::DeviceFailed, 5, "device failed: the phone, the adb server or the agent failed, or answered what heaptui cannot use"),
        (Code::Output, 6, "output: a file to write exists (never overwritten) or cannot be made"),
        (Code::Internal, 7, "internal: heaptui went wrong (a bug; a panic too): please report it with the message"),
    ];

    /// The exit status.
    pub fn number(self) -> u8 {
        Code::TABLE.iter().find(|(c, ..)| *c == self).map_or(1, |(_, n, _)| *n)
    }

    /// An error of this kind, saying `message`.
    pub fn error(self, message: impl fmt::Display) -> anyhow::Error {
        anyhow::Error::new(Classified { code: self, message: message.to_string() })
    }

    /// `e`, said to be of this kind (its message, with every cause, kept).
    pub fn wrap(self, e: anyhow::Error) -> anyhow::Error {
        self.error(format!("{e:#}"))
    }

    /// The kind of `e`, from its chain (see the module's comment).
    pub fn of(e: &anyhow::Error) -> Code {
        for cause in e.chain() {
            if let Some(c) = cause.downcast_ref::<Classified>() {
                return c.code;
            }
            if cause.downcast_ref::<heap::Error>().is_some() {
                return Code::BadInput;
            }
            if let Some(d) = cause.downcast_ref::<DeviceError>() {
                return Code::of_device(d);
            }
            if let Some(a) = cause.downcast_ref::<AdbError>() {
                return Code::of_adb(a);
            }
            if cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::AlreadyExists) {
                return Code::Output;
            }
        }
        Code::BadInput
    }

    fn of_device(e: &DeviceError) -> Code {
        match e {
            DeviceError::Adb(a) => Code::of_adb(a),
            DeviceError::NoDevice | DeviceError::Unknown(..) | DeviceError::NotReady(..) => Code::NoDevice,
            DeviceError::Several(_) => Code::Usage,
            DeviceError::Gone(..) | DeviceError::Transfer(_) | DeviceError::TooMuch(_) | DeviceError::Io(_) => {
                Code::DeviceFailed
            }
        }
    }

    fn of_adb(e: &AdbError) -> Code {
        match e {
            AdbError::NoServer(_) | AdbError::NotStarted(_) => Code::NoDevice,
            AdbError::Failed(_) | AdbError::Io(_) => Code::DeviceFailed,
        }
    }
}

/// An error that says its kind.
#[derive(Debug)]
struct Classified {
    code: Code,
    message: String,
}

impl fmt::Display for Classified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Classified {}

/// `bail!` with a kind: returns an error of kind `$code` (a [`Code`] variant's name).
#[macro_export]
macro_rules! fail {
    ($code:ident, $($arg:tt)*) => {
        return Err($crate::exit::Code::$code.error(format!($($arg)*)))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbers_are_allocated_once_and_keep_the_old_ones() {
        let mut numbers: Vec<u8> = Code::TABLE.iter().map(|(_, n, _)| *n).collect();
        numbers.dedup();
        assert_eq!(numbers, (0..8).collect::<Vec<u8>>());
        // Scripts relied on these before the table: 0 done, 1 bad input, 2 usage (clap's).
        assert_eq!((Code::Success.number(), Code::BadInput.number(), Code::Usage.number()), (0, 1, 2));
    }

    #[test]
    fn an_error_is_of_the_kind_it_says_or_its_first_typed_cause_says() {
        let bad = anyhow::Error::new(heap::hprof::parse_header(b"not a dump").err().unwrap());
        assert_eq!(Code::of(&bad), Code::BadInput);
        assert_eq!(Code::of(&bad.context("opening x.hprof")), Code::BadInput);
        assert_eq!(Code::of(&anyhow::Error::new(DeviceError::NoDevice)), Code::NoDevice);
        assert_eq!(Code::of(&anyhow::Error::new(DeviceError::Adb(AdbError::NoServer(5037)))), Code::NoDevice);
        let no_adb = || DeviceError::Adb(AdbError::NotStarted("cannot run `adb start-server`".into()));
        assert_eq!(Code::of(&anyhow::Error::new(no_adb())), Code::NoDevice);
        // Said once: the adb error is the device error's message, not also its cause.
        assert_eq!(format!("{:#}", anyhow::Error::new(no_adb())), "adb server: cannot run `adb start-server`");
        assert_eq!(Code::of(&anyhow::Error::new(DeviceError::Several(vec!["a".into(), "b".into()]))), Code::Usage);
        let gone = anyhow::Error::new(DeviceError::Gone("emulator-5554".into(), "ps".into()));
        assert_eq!(Code::of(&gone.context("listing")), Code::DeviceFailed);
        let exists = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::AlreadyExists));
        assert_eq!(Code::of(&exists), Code::Output);
        assert_eq!(Code::of(&anyhow::anyhow!("something")), Code::BadInput);
        let said = Code::Internal.wrap(anyhow::Error::new(DeviceError::NoDevice).context("outer"));
        assert_eq!(Code::of(&said), Code::Internal);
        assert_eq!(format!("{said:#}"), format!("outer: {}", DeviceError::NoDevice));
        let f = || -> anyhow::Result<()> { fail!(Usage, "--{} is wrong", "x") };
        let e = f().unwrap_err();
        assert_eq!((Code::of(&e), e.to_string()), (Code::Usage, "--x is wrong".to_string()));
    }
}
