//! Helpers for the crate's unit tests.

/// A xorshift generator from `seed` (not zero): numbers spread enough for random cases, the
/// same on every run.
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// The peers' dumps: `../shared/fixtures` beside the checkout, or `HEAPTUI_FIXTURES`.
pub(crate) fn fixtures() -> std::path::PathBuf {
    std::env::var_os("HEAPTUI_FIXTURES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"))
}
