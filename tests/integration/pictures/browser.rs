//! Headless Chromium (Debian's `chromium-headless-shell`), run as a person's browser would be
//! but without a window: a fresh profile each time, no network of its own, console messages
//! logged to stderr so that a test can see them.

use std::path::Path;
use std::process::Command;

const CHROMIUM: &str = "chromium-headless-shell";

/// What one run of the browser gave: stdout (the DOM, for `--dump-dom`) and stderr.
pub struct Browser {
    pub stdout: String,
    pub stderr: String,
}

impl Browser {
    /// The page's console messages: any at all is a fault, as the pages have no script.
    pub fn console(&self) -> Vec<&str> {
        self.stderr
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .collect()
    }
}

/// Runs the browser on a file with `args` (`--dump-dom`, `--screenshot=...`).
pub fn open(page: &Path, args: &[&str]) -> Browser {
    let profile = tempfile::tempdir().unwrap();
    let output = Command::new(CHROMIUM)
        .env_clear()
        .env("HOME", profile.path())
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .args([
            "--headless",
            // As root (CI) Chromium refuses to start inside its own sandbox.
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {CHROMIUM} (apt-get install {CHROMIUM}): {e}"));
    let run = Browser {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert!(output.status.success(), "{CHROMIUM} failed: {}", run.stderr);
    run
}

/// A screenshot of `page` at `width` x `height`, as PNG bytes, and the browser's run.
pub fn screenshot(page: &Path, width: u32, height: u32) -> (Vec<u8>, Browser) {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("shot.png");
    let run = open(
        page,
        &[
            &format!("--screenshot={}", png.display()),
            &format!("--window-size={width},{height}"),
            "--hide-scrollbars",
        ],
    );
    (std::fs::read(&png).unwrap(), run)
}
