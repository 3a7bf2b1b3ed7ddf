//! The one builder for a run of the binary: `Env` holds an isolated home and the variables,
//! `Env::cmd` sets one run up (stdin, stdout, a pseudo-terminal) and `Cmd::run` runs it,
//! checking and recording what it printed. `Env::run` is the common case.

use std::ffi::OsStr;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use super::{binary, check_output, terminal, KEY};

/// A temporary HOME and config folder, and the binary run inside them with nothing of the
/// user's environment (no CHAIN_METRICS_*, RUST_BACKTRACE, NO_COLOR...).
pub struct Env {
    pub home: tempfile::TempDir,
    vars: Vec<(String, String)>,
}

/// What one run of the binary did. On a terminal, `stdout` is everything the terminal showed.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The first line of stderr.
    pub fn error_line(&self) -> &str {
        self.stderr.lines().next().unwrap_or("")
    }
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

    /// `program` in this environment only, in the temporary HOME, with stdin empty.
    fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut command = Command::new(program);
        command
            .env_clear()
            .envs(self.vars())
            .current_dir(self.home.path())
            .stdin(Stdio::null());
        command
    }

    /// Sets up a run of the binary with `args`; `run` or `spawn` it.
    pub fn cmd(&self, args: &[&str]) -> Cmd<'_> {
        Cmd {
            env: self,
            args: args.iter().map(|a| a.to_string()).collect(),
            stdin: None,
            stdout_to: None,
            terminal: None,
            columns: 80,
        }
    }

    /// Runs the binary with `args`, and checks that the test key appears in no output.
    pub fn run(&self, args: &[&str]) -> Run {
        self.cmd(args).run()
    }

    /// Runs another program (a shell) in the same environment, `chain-metrics` first on its
    /// PATH; its output is checked and recorded like every run's.
    pub fn run_program(&self, program: &str, args: &[&OsStr]) -> Run {
        let output = self.command(program).args(args).output();
        let output =
            output.unwrap_or_else(|e| panic!("cannot run {program} ({e}); .ci/run installs it"));
        let run = Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        check_output(&format!("{program} {args:?}"), &run.stdout, &run.stderr);
        run
    }

    /// Runs a bash script in the same environment, for what needs a shell (pipes).
    pub fn run_shell(&self, script: &str) -> Run {
        self.run_program("bash", &["-c".as_ref(), script.as_ref()])
    }
}

/// One run of the binary being set up, made by `Env::cmd`.
pub struct Cmd<'e> {
    env: &'e Env,
    args: Vec<String>,
    stdin: Option<String>,
    stdout_to: Option<PathBuf>,
    terminal: Option<terminal::Typing>,
    columns: u16,
}

impl Cmd<'_> {
    /// `input` on stdin (how scripts hand `auth login` the key).
    pub fn stdin(mut self, input: &str) -> Self {
        self.stdin = Some(input.to_owned());
        self
    }

    /// Stdout into this file (created or truncated) instead of a pipe.
    pub fn stdout_to(mut self, path: impl Into<PathBuf>) -> Self {
        self.stdout_to = Some(path.into());
        self
    }

    /// Stdin, stderr and (unless `stdout_to`) stdout on a pseudo-terminal, as a person runs it.
    pub fn on_terminal(mut self) -> Self {
        self.terminal.get_or_insert_with(terminal::Typing::default);
        self
    }

    /// On a terminal `columns` wide (80 unless told).
    pub fn terminal_columns(mut self, columns: u16) -> Self {
        self.columns = columns;
        self.on_terminal()
    }

    /// On a terminal: waits for `prompt`, then for the echo to be switched off (a password
    /// prompt), then types `input` and Enter.
    pub fn typing(mut self, prompt: &str, input: &str) -> Self {
        self.terminal = Some(terminal::Typing::answer(prompt, input));
        self
    }

    fn describe(&self) -> String {
        let mut what = format!("chain-metrics {:?}", self.args);
        if let Some(path) = &self.stdout_to {
            what.push_str(&format!(" > {}", path.display()));
        }
        if self.terminal.is_some() {
            what.push_str(" on a terminal");
        }
        what
    }

    /// Runs it to the end: the exit code and what it printed, checked for the key and recorded.
    pub fn run(self) -> Run {
        let what = self.describe();
        let run = match &self.terminal {
            Some(typing) => {
                assert!(
                    self.stdin.is_none(),
                    "on a terminal, type the input instead"
                );
                let (code, shown) = terminal::run(
                    &self.env.vars(),
                    self.env.home.path(),
                    &self.args,
                    self.stdout_to.as_deref(),
                    typing,
                    self.columns,
                );
                Run {
                    code,
                    stdout: shown,
                    stderr: String::new(),
                }
            }
            None => self.spawn_piped().finish_unchecked(),
        };
        check_output(&what, &run.stdout, &run.stderr);
        run
    }

    /// Starts it with stdout and stderr piped, for tests that stop it themselves.
    pub fn spawn(self) -> Running {
        assert!(self.terminal.is_none(), "spawn runs on pipes only");
        self.spawn_piped()
    }

    fn spawn_piped(self) -> Running {
        let mut command = self.env.command(binary());
        command.args(&self.args).stderr(Stdio::piped());
        match &self.stdout_to {
            Some(path) => command.stdout(File::create(path).unwrap()),
            None => command.stdout(Stdio::piped()),
        };
        if self.stdin.is_some() {
            command.stdin(Stdio::piped());
        }
        let mut child = command.spawn().unwrap();
        if let Some(input) = &self.stdin {
            // A binary that exits without reading all of stdin closes the pipe: not a test error.
            let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        }
        Running {
            what: self.describe(),
            child,
        }
    }
}

/// A run of the binary that is still going; `finish` waits for it.
pub struct Running {
    what: String,
    pub child: Child,
}

impl Running {
    /// Waits for the end: the exit code and what it printed, checked for the key and recorded.
    pub fn finish(self) -> Run {
        let what = self.what.clone();
        let run = self.finish_unchecked();
        check_output(&what, &run.stdout, &run.stderr);
        run
    }

    fn finish_unchecked(self) -> Run {
        let output = self.child.wait_with_output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}
