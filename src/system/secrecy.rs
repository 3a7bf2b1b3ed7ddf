//! A process holding the API key keeps it out of core dumps, as ssh-agent and gpg-agent do:
//! a crash (or `kill -QUIT`) would otherwise write the key into a file, and a non-dumpable
//! process cannot be read by another process of the same user through ptrace or /proc.

use std::sync::Once;

/// Turns core dumps off for the rest of the process (the limit, soft and hard, set to 0; on
/// Linux also not dumpable). Once per process; a system that refuses leaves the key as safe
/// as it was.
pub(crate) fn no_core_dumps() {
    static DONE: Once = Once::new();
    DONE.call_once(|| {
        #[cfg(unix)]
        let _ = nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_CORE, 0, 0);
        #[cfg(target_os = "linux")]
        let _ = nix::sys::prctl::set_dumpable(false);
    });
}
