//! Where what every run printed is recorded, and the check that the test key is in none of it.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use super::KEY;

/// Where each test process writes the transcript of what the binary printed, one file per
/// test binary; secrets/leaks.rs scans them all for the key.
pub fn transcripts_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("transcripts")
}

/// The transcript of this test process, started afresh when the process writes to it first.
fn transcript() -> &'static Mutex<File> {
    static FILE: OnceLock<Mutex<File>> = OnceLock::new();
    FILE.get_or_init(|| {
        let dir = transcripts_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let exe = std::env::current_exe().unwrap();
        let name = exe.file_stem().unwrap().to_string_lossy().into_owned();
        Mutex::new(File::create(dir.join(format!("{name}.log"))).unwrap())
    })
}

/// Records what one run of the binary printed in the transcript, and fails at once if the
/// test key is anywhere in it.
pub fn check_output(what: &str, stdout: &str, stderr: &str) {
    {
        let mut file = transcript().lock().unwrap_or_else(|e| e.into_inner());
        write!(
            file,
            "$ {what}\n--- stdout\n{stdout}\n--- stderr\n{stderr}\n"
        )
        .unwrap();
    }
    assert!(
        !stdout.contains(KEY) && !stderr.contains(KEY),
        "the API key leaked in the output of {what}:\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    );
}
