//! The builder for one run: what to run (arguments, stdin, a terminal) and what it must give.
//! A run expects exit 0 and an empty stderr unless the test says otherwise (`code`, `stderr`,
//! `stderr_contains`, `error_line`, `any_stderr`), and a failed run an empty stdout unless the
//! test says what it holds (`stdout`, `stdout_contains`, `any_stdout`); on a mismatch it panics
//! showing the command as a line to paste into a shell (the key masked), what differs, the exit
//! code and both streams. Expected text may be a snapbox `str![[...]]` block
//! (`SNAPSHOTS=overwrite` rewrites a block that no longer matches; with CI set it never does).

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Stdio};

use snapbox::assert::Action;
use snapbox::{Assert, Data, IntoData};

use super::{binary, check_output, terminal, Env, KEY};

/// What one run did. On a terminal, `stdout` is everything the terminal showed.
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

    /// The lines of stderr that start with `prefix` (the `-v` lines of one kind).
    pub fn stderr_lines(&self, prefix: &str) -> Vec<&str> {
        let lines = self.stderr.lines();
        lines.filter(|line| line.starts_with(prefix)).collect()
    }
}

/// What a run must give; the default is exit 0 and nothing on stderr.
struct Expect {
    code: Option<i32>,
    stdout: Option<Data>,
    stderr: Option<Data>,
    stdout_has: Vec<String>,
    stderr_has: Vec<String>,
    first_line: Option<String>,
    first_line_like: Option<String>,
    any_stderr: bool,
    any_stdout: bool,
}

/// One run being set up, made by `Env::cmd`, `Env::cmd_args`, `Env::program` or `Env::shell`.
pub struct Cmd<'e> {
    env: &'e Env,
    program: Option<String>,
    args: Vec<String>,
    stdin: Option<String>,
    stdout_to: Option<PathBuf>,
    terminal: Option<terminal::Typing>,
    /// The terminal's size, columns by rows (80 x 24 unless told).
    columns: u16,
    rows: u16,
    expect: Expect,
}

impl<'e> Cmd<'e> {
    pub(super) fn new(env: &'e Env, program: Option<String>, args: Vec<String>) -> Cmd<'e> {
        Cmd {
            env,
            program,
            args,
            stdin: None,
            stdout_to: None,
            terminal: None,
            columns: 80,
            rows: 24,
            expect: Expect::default(),
        }
    }

    /// The exit code it must give (0 unless told; -1 for a run killed by a signal). With
    /// another code than 0, stderr is free unless the test says what it holds.
    pub fn code(mut self, code: i32) -> Self {
        self.expect.code = Some(code);
        self
    }

    /// Any exit code and any stderr: for a test whose data is the outcome itself (a table of
    /// outcomes compared as a whole).
    pub fn any_outcome(mut self) -> Self {
        self.expect.code = None;
        self.expect.any_stderr = true;
        self.expect.any_stdout = true;
        self
    }

    /// Stdout, exactly (a `str![[...]]` block may use `[..]` for any text within a line).
    pub fn stdout(mut self, expected: impl IntoData) -> Self {
        self.expect.stdout = Some(expected.into_data());
        self
    }

    /// Stderr, exactly.
    pub fn stderr(mut self, expected: impl IntoData) -> Self {
        self.expect.stderr = Some(expected.into_data());
        self
    }

    /// Stdout holds `part` somewhere.
    pub fn stdout_contains(mut self, part: &str) -> Self {
        self.expect.stdout_has.push(part.to_owned());
        self
    }

    /// Stderr holds `part` somewhere (it may hold more).
    pub fn stderr_contains(mut self, part: &str) -> Self {
        self.expect.stderr_has.push(part.to_owned());
        self
    }

    /// The first line of stderr is `line`.
    pub fn error_line(mut self, line: impl Into<String>) -> Self {
        self.expect.first_line = Some(line.into());
        self
    }

    /// The first line of stderr matches `pattern`, where `[..]` stands for any text (an OS
    /// message, a port).
    pub fn error_line_like(mut self, pattern: impl Into<String>) -> Self {
        self.expect.first_line_like = Some(pattern.into());
        self
    }

    /// Stderr may hold anything (the test reads it itself).
    pub fn any_stderr(mut self) -> Self {
        self.expect.any_stderr = true;
        self
    }

    /// Stdout may hold anything, also on a failed run (the test reads it itself).
    pub fn any_stdout(mut self) -> Self {
        self.expect.any_stdout = true;
        self
    }

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

    /// On a terminal `columns` wide and `rows` high.
    pub fn terminal_size(mut self, columns: u16, rows: u16) -> Self {
        self.rows = rows;
        self.terminal_columns(columns)
    }

    /// On a terminal: waits for `prompt`, then for the echo to be switched off (a password
    /// prompt), then types `input` and Enter.
    pub fn typing(mut self, prompt: &str, input: &str) -> Self {
        self.terminal = Some(terminal::Typing::answer(prompt, input));
        self
    }

    /// The run as a command line to paste into a shell: into the temporary HOME, with the
    /// variables the test set, the binary by its path, every word shell-quoted, and the test
    /// key masked as the tool masks a key (`****`) wherever it stands.
    fn describe(&self) -> String {
        let home = self.env.home.path().display().to_string();
        let mut line = format!("cd {} && ", shell_word(&home));
        if let Some(input) = &self.stdin {
            line.push_str(&format!("printf %s {} | ", shell_word(input)));
        }
        let config = format!("{home}/.config");
        let vars = [("HOME", home.as_str()), ("XDG_CONFIG_HOME", &config)];
        let set = self.env.set_vars().iter();
        for (name, value) in vars
            .into_iter()
            .chain(set.map(|(n, v)| (n.as_str(), v.as_str())))
        {
            line.push_str(&format!("{name}={} ", shell_word(value)));
        }
        let program = match &self.program {
            Some(program) => program.clone(),
            None => binary().display().to_string(),
        };
        let words = std::iter::once(&program).chain(&self.args);
        line.push_str(
            &words
                .map(|word| shell_word(word))
                .collect::<Vec<_>>()
                .join(" "),
        );
        if let Some(path) = &self.stdout_to {
            line.push_str(&format!(" > {}", shell_word(&path.display().to_string())));
        }
        if self.terminal.is_some() {
            line.push_str(&format!(
                "  # on a terminal {} columns wide, {} rows high",
                self.columns, self.rows
            ));
        }
        line
    }

    /// Runs it to the end and checks it: the exit code and what it printed, as expected, and
    /// the key in none of it (everything is recorded for secrets/leaks.rs).
    #[track_caller]
    pub fn run(mut self) -> Run {
        let Some(typing) = &self.terminal else {
            return self.spawn_piped().finish();
        };
        // A terminal shows stdout and stderr as one: the error is in what it showed.
        self.expect.any_stdout = true;
        assert!(
            self.stdin.is_none() && self.program.is_none(),
            "on a terminal, run the binary and type the input instead"
        );
        let (code, shown) = terminal::run(
            &self.env.binary_vars(),
            self.env.home.path(),
            &self.args,
            self.stdout_to.as_deref(),
            typing,
            (self.columns, self.rows),
        );
        let run = Run {
            code,
            stdout: shown,
            stderr: String::new(),
        };
        self.expect.check(&self.describe(), &run);
        run
    }

    /// Starts it with stdout and stderr piped, for tests that stop it themselves; `finish`
    /// checks it.
    pub fn spawn(self) -> Running {
        assert!(self.terminal.is_none(), "spawn runs on pipes only");
        self.spawn_piped()
    }

    fn spawn_piped(self) -> Running {
        let what = self.describe();
        let program = self.program.map_or_else(binary, PathBuf::from);
        let mut command = self.env.command(program);
        command.args(&self.args).stderr(Stdio::piped());
        match &self.stdout_to {
            Some(path) => command.stdout(File::create(path).unwrap()),
            None => command.stdout(Stdio::piped()),
        };
        if self.stdin.is_some() {
            command.stdin(Stdio::piped());
        }
        let spawned = command.spawn();
        let mut child = spawned.unwrap_or_else(|e| panic!("cannot run {what} ({e})"));
        if let Some(input) = &self.stdin {
            // A binary that exits without reading all of stdin closes the pipe: not a test error.
            let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        }
        Running {
            what,
            child,
            expect: self.expect,
        }
    }
}

/// A run that is still going; `finish` waits for it and checks it.
pub struct Running {
    what: String,
    pub child: Child,
    expect: Expect,
}

impl Running {
    /// Sends `signal` (`-TERM`, `-INT`...) to the run, with bash's builtin kill (no procps
    /// needed); `finish` then sees how it ended.
    pub fn kill(&self, signal: &str) {
        let pid = self.child.id();
        let status = std::process::Command::new("bash")
            .args(["-c", &format!("kill {signal} {pid}")])
            .status()
            .unwrap();
        assert!(status.success(), "kill {signal} {pid} failed");
    }

    /// Waits for the end, then checks it as `Cmd::run` does.
    #[track_caller]
    pub fn finish(self) -> Run {
        let output = self.child.wait_with_output().unwrap();
        let run = Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        self.expect.check(&self.what, &run);
        run
    }
}

impl Default for Expect {
    fn default() -> Expect {
        Expect {
            code: Some(0),
            stdout: None,
            stderr: None,
            stdout_has: Vec::new(),
            stderr_has: Vec::new(),
            first_line: None,
            first_line_like: None,
            any_stderr: false,
            any_stdout: false,
        }
    }
}

impl Expect {
    /// Records the run, then panics with the whole run if anything differs from what is expected.
    #[track_caller]
    fn check(&self, what: &str, run: &Run) {
        check_output(what, &run.stdout, &run.stderr);
        let mut wrong = Vec::new();
        if let Some(code) = self.code.filter(|code| *code != run.code) {
            wrong.push(format!("exit code {} instead of {code}", run.code));
        }
        let stderr_said = self.stderr.is_some()
            || !self.stderr_has.is_empty()
            || self.first_line.is_some()
            || self.first_line_like.is_some()
            || self.any_stderr;
        if self.code == Some(0) && !stderr_said && !run.stderr.is_empty() {
            wrong.push("stderr is not empty".to_owned());
        }
        // A failure's stdout carries nothing unless the test says what (--strict and
        // --keep-going still write what they have).
        let stdout_said = self.stdout.is_some() || !self.stdout_has.is_empty() || self.any_stdout;
        if self.code != Some(0) && !stdout_said && !run.stdout.is_empty() {
            wrong.push("stdout is not empty on a failed run".to_owned());
        }
        wrong.extend(differs("stdout", &run.stdout, self.stdout.as_ref()));
        wrong.extend(differs("stderr", &run.stderr, self.stderr.as_ref()));
        for (stream, text, parts) in [
            ("stdout", &run.stdout, &self.stdout_has),
            ("stderr", &run.stderr, &self.stderr_has),
        ] {
            let missing = parts.iter().filter(|part| !text.contains(part.as_str()));
            wrong.extend(missing.map(|part| format!("{stream} lacks {part:?}")));
        }
        if let Some(line) = &self.first_line {
            if run.error_line() != line {
                wrong.push(format!("the first line of stderr is not {line:?}"));
            }
        }
        if let Some(pattern) = &self.first_line_like {
            if !matches(pattern, run.error_line()) {
                wrong.push(format!("the first line of stderr is not like {pattern:?}"));
            }
        }
        assert!(
            wrong.is_empty(),
            "$ {what}\n{}\n--- exit code {}\n--- stdout\n{}\n--- stderr\n{}",
            wrong.join("\n"),
            run.code,
            run.stdout,
            run.stderr
        );
    }
}

/// `word` as one POSIX shell word (quoted only when it needs to be), with the test key masked.
fn shell_word(word: &str) -> String {
    let masked = word.replace(KEY, "****");
    shlex::try_quote(&masked).map_or_else(|_| format!("{masked:?}"), |quoted| quoted.into_owned())
}

/// Whether `text` is `pattern` with each `[..]` standing for any text.
fn matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Why `actual` is not `expected` (a snapbox comparison, so that blocks can be rewritten).
fn differs(stream: &str, actual: &str, expected: Option<&Data>) -> Option<String> {
    let expected = expected?;
    if expected.render().as_deref() == Some(actual) {
        return None;
    }
    let mut assert = Assert::new()
        .action_env(snapbox::assert::DEFAULT_ACTION_ENV)
        .normalize_paths(false);
    if std::env::var_os("CI").is_some_and(|ci| !ci.is_empty()) {
        assert = assert.action(Action::Verify);
    }
    let actual = Data::text(actual.to_owned());
    let result = assert.try_eq(Some(&stream), actual, expected.clone().raw());
    result.err().map(|e| e.to_string())
}

/// A failed run is shown as a line a shell runs as the test ran it: the words read back as the
/// test's own, the variables the test set before the binary, and the key masked everywhere.
#[test]
fn a_failed_run_shows_a_command_to_paste_with_the_key_masked() {
    let mut env = Env::with_service("http://127.0.0.1:9");
    env.set("LANG", "C.UTF-8");
    let cmd = env
        .cmd_args(&["fees", "-c", "eth", "--last", "2", "-o", "a b.csv"])
        .stdin(&format!("{KEY}\n"));
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| cmd.run()));
    let message = *failed.unwrap_err().downcast::<String>().unwrap();
    let (line, _) = message.split_once("\nexit code 7 instead of 0\n").unwrap();
    let line = line.strip_prefix("$ ").unwrap();
    let home = env.home.path().display().to_string();
    let binary = binary().display().to_string();
    let expected = [
        "cd",
        &home,
        "&&",
        "printf",
        "%s",
        "****\n",
        "|",
        &format!("HOME={home}"),
        &format!("XDG_CONFIG_HOME={home}/.config"),
        "CHAIN_METRICS_BASE_URL=http://127.0.0.1:9",
        "CHAIN_METRICS_API_KEY=****",
        "LANG=C.UTF-8",
        &binary,
        "fees",
        "-c",
        "eth",
        "--last",
        "2",
        "-o",
        "a b.csv",
    ];
    assert_eq!(shlex::split(line).unwrap(), expected, "{line}");
    assert!(!message.contains(KEY), "{message}");
    assert!(
        message.contains("\n--- exit code 7\n--- stdout\n\n--- stderr\nerror: "),
        "{message}"
    );
}
