//! Shell words: what heaptui pastes into a command line, a phone's or one it suggests to the
//! user, quoted so that it stays one word whatever it holds.

/// Quotes `s` for a POSIX shell.
pub fn quote(s: &str) -> String {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,@%+".contains(&b)) {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_word_stays_one() {
        assert_eq!(super::quote("emulator-5554"), "emulator-5554");
        assert_eq!(super::quote("192.168.1.2:5555"), "192.168.1.2:5555");
        assert_eq!(super::quote("a b;rm -rf ~"), "'a b;rm -rf ~'");
        assert_eq!(super::quote("it's"), "'it'\\''s'");
        assert_eq!(super::quote(""), "''");
    }
}
