//! The isolated environment every run happens in: `Env` holds a temporary home and the
//! variables, and `Env::cmd` sets one run up (the builder is in cmd.rs).

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use super::{binary, Cmd, KEY};

/// A temporary HOME and config folder, and the binary run inside them with nothing of the
/// user's environment (no CHAIN_METRICS_*, RUST_BACKTRACE, NO_COLOR...).
pub struct Env {
    pub home: tempfile::TempDir,
    vars: Vec<(String, String)>,
}

/// When a run of the binary says it made its picture or chart (2023-11-14 22:13 UTC), unless the
/// test sets SOURCE_DATE_EPOCH itself.
pub const MADE_EPOCH: &str = "1700000000";

/// What a chart says of when it was made, under [`MADE_EPOCH`].
pub fn made_line() -> String {
    let version = env!("CARGO_PKG_VERSION");
    format!("made 2023-11-14 22:13 UTC by chain-metrics {version}")
}

impl Env {
    pub fn new() -> Env {
        Env::in_home(tempfile::tempdir().unwrap())
    }

    /// An environment whose HOME is `home`.
    pub fn in_home(home: tempfile::TempDir) -> Env {
        Env {
            home,
            vars: Vec::new(),
        }
    }

    /// An environment whose CHAIN_METRICS_BASE_URL and CHAIN_METRICS_API_KEY point at `url`.
    pub fn with_service(url: &str) -> Env {
        let mut env = Env::new();
        env.set("CHAIN_METRICS_BASE_URL", url);
        env.set("CHAIN_METRICS_API_KEY", KEY);
        env
    }

    /// An environment whose default config file holds `text` (written as `write_config` does).
    pub fn with_config(text: &str) -> Env {
        let env = Env::new();
        env.write_config(text);
        env
    }

    pub fn set(&mut self, name: &str, value: &str) -> &mut Env {
        self.vars.push((name.into(), value.into()));
        self
    }

    pub fn config_dir(&self) -> PathBuf {
        self.home.path().join(".config").join("chain-metrics")
    }

    /// The default config file's path.
    pub fn config_path(&self) -> PathBuf {
        self.config_dir().join("config.toml")
    }

    /// Writes the default config file, private (0600) as the tool itself creates it.
    pub fn write_config(&self, text: &str) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(self.config_dir()).unwrap();
        std::fs::write(self.config_path(), text).unwrap();
        let private = std::fs::Permissions::from_mode(0o600);
        std::fs::set_permissions(self.config_path(), private).unwrap();
    }

    /// The variables the test set (`with_service`, `set`), in the order it set them.
    pub(super) fn set_vars(&self) -> &[(String, String)] {
        &self.vars
    }

    /// The variables a run gets: PATH (with the binary's folder first, for scripts and shells
    /// that call `chain-metrics`), the temporary HOME and XDG_CONFIG_HOME, and `set` ones.
    pub(super) fn vars(&self) -> Vec<(String, String)> {
        let bin = binary().parent().unwrap().display().to_string();
        let path = format!("{bin}:{}", std::env::var("PATH").unwrap_or_default());
        let home = self.home.path();
        let mut vars = vec![
            ("PATH".to_owned(), path),
            ("HOME".to_owned(), home.display().to_string()),
            (
                "XDG_CONFIG_HOME".to_owned(),
                home.join(".config").display().to_string(),
            ),
        ];
        vars.extend(self.vars.iter().cloned());
        vars
    }

    /// The variables a run of the binary gets: [`Env::vars`], and SOURCE_DATE_EPOCH fixed
    /// ([`MADE_EPOCH`]) unless the test sets its own, so that the time a picture or chart says
    /// it was made does not depend on the minute the test runs in.
    pub(super) fn binary_vars(&self) -> Vec<(String, String)> {
        let made = ("SOURCE_DATE_EPOCH".to_owned(), MADE_EPOCH.to_owned());
        std::iter::once(made).chain(self.vars()).collect()
    }

    /// `program` in this environment only, in the temporary HOME, with stdin empty.
    pub(super) fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let vars = match program.as_ref() == binary().as_os_str() {
            true => self.binary_vars(),
            false => self.vars(),
        };
        let mut command = Command::new(program);
        command
            .env_clear()
            .envs(vars)
            .current_dir(self.home.path())
            .stdin(Stdio::null());
        command
    }

    /// Sets up a run of the binary with `line` split into words at white space (a word in
    /// single quotes may hold spaces); `run` or `spawn` it. Exit 0 and an empty stderr are
    /// expected unless the test says otherwise.
    pub fn cmd(&self, line: &str) -> Cmd<'_> {
        self.cmd_args(&words(line))
    }

    /// The same with the arguments given one by one, for arguments a line cannot hold.
    pub fn cmd_args<S: AsRef<str>>(&self, args: &[S]) -> Cmd<'_> {
        let args = args.iter().map(|a| a.as_ref().to_owned()).collect();
        Cmd::new(self, None, args)
    }

    /// Sets up a run of another program (a shell) in the same environment, `chain-metrics`
    /// first on its PATH; it is checked and recorded like every run of the binary.
    pub fn program<S: AsRef<OsStr>>(&self, program: &str, args: &[S]) -> Cmd<'_> {
        let args = args
            .iter()
            .map(|a| a.as_ref().to_string_lossy().into_owned());
        let args = args.collect();
        Cmd::new(self, Some(program.to_owned()), args)
    }

    /// A bash script in the same environment, for what needs a shell (pipes).
    pub fn shell(&self, script: &str) -> Cmd<'_> {
        self.program("bash", &["-c", script])
    }
}

/// `line` split at white space; single quotes keep a word whole (`'a b'`, `''`).
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            c if c.is_whitespace() && !quoted => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(!quoted, "an unclosed quote in {line:?}");
    words.extend(word);
    words
}
