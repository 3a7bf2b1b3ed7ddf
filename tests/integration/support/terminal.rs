//! The one pseudo-terminal runner (portable-pty): the binary with stdin, stderr and, unless
//! redirected, stdout on a terminal, as a person at a terminal runs it. It is how the tests see
//! the hidden key prompt, the coloured table and the progress line.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::mpsc;

use portable_pty::{CommandBuilder, PtySize};

use super::binary;

/// What a person types, if anything: `input` and Enter once `prompt` shows and the terminal's
/// echo is off.
#[derive(Default)]
pub struct Typing(Option<(String, String)>);

impl Typing {
    pub fn answer(prompt: &str, input: &str) -> Typing {
        Typing(Some((prompt.to_owned(), input.to_owned())))
    }
}

/// Runs the binary with `args` on a new pseudo-terminal (`columns` x `rows`), in `cwd` with only
/// `vars`.
/// With `stdout_to`, a shell sends stdout into that file first (the terminal keeps stderr).
/// Returns the exit code and everything the terminal showed (line ends are `\r\n` there).
pub fn run(
    vars: &[(String, String)],
    cwd: &Path,
    args: &[String],
    stdout_to: Option<&Path>,
    typing: &Typing,
    (columns, rows): (u16, u16),
) -> (i32, String) {
    let size = PtySize {
        cols: columns,
        rows,
        ..PtySize::default()
    };
    let pty = portable_pty::native_pty_system().openpty(size).unwrap();
    let command = command(vars, cwd, args, stdout_to);
    let mut child = pty.slave.spawn_command(command).unwrap();
    drop(pty.slave);
    let chunks = read_in_the_background(pty.master.try_clone_reader().unwrap());
    let mut shown = Vec::new();
    let mut writer = None;
    if let Typing(Some((prompt, input))) = typing {
        while !String::from_utf8_lossy(&shown).contains(prompt.as_str()) {
            match chunks.recv() {
                Ok(chunk) => shown.extend(chunk),
                Err(_) => panic!(
                    "no prompt {prompt:?}; the terminal showed {:?}",
                    String::from_utf8_lossy(&shown)
                ),
            }
        }
        wait_for_echo_off(pty.master.as_raw_fd().unwrap());
        let mut keyboard = pty.master.take_writer().unwrap();
        keyboard.write_all(format!("{input}\r").as_bytes()).unwrap();
        writer = Some(keyboard);
    }
    let code = child.wait().unwrap().exit_code() as i32;
    let echo = echo_is_on(pty.master.as_raw_fd().unwrap());
    drop(writer);
    drop(pty.master);
    shown.extend(chunks.iter().flatten());
    let shown = String::from_utf8_lossy(&shown).into_owned();
    // Whatever happened (a prompt, Ctrl-C, a key command killed), the person can type again.
    assert_ne!(
        echo,
        Some(false),
        "the run left the terminal's echo off: {shown:?}"
    );
    (code, shown)
}

/// The binary with `args` in `cwd` with only `vars` (and TERM); with `stdout_to`, a shell that
/// sends its stdout into that file first.
fn command(
    vars: &[(String, String)],
    cwd: &Path,
    args: &[String],
    stdout_to: Option<&Path>,
) -> CommandBuilder {
    let mut command = match stdout_to {
        Some(path) => {
            let mut c = CommandBuilder::new("bash");
            c.args(["-c", r#"out=$1; shift; exec "$@" > "$out""#, "bash"]);
            c.arg(path);
            c.arg(binary());
            c
        }
        None => CommandBuilder::new(binary()),
    };
    command.env_clear();
    // What a terminal emulator sets; a test may say otherwise (TERM=dumb).
    command.env("TERM", "xterm-256color");
    for (name, value) in vars {
        command.env(name, value);
    }
    command.cwd(cwd);
    command.args(args);
    command
}

/// What the terminal shows, chunk by chunk, read by a thread of its own until it closes.
fn read_in_the_background(mut reader: Box<dyn Read + Send>) -> mpsc::Receiver<Vec<u8>> {
    let (sender, chunks) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n @ 1..) = reader.read(&mut buffer) {
            let _ = sender.send(buffer[..n].to_vec());
        }
    });
    chunks
}

/// Whether the terminal echoes what is typed; `None` if its settings cannot be read.
fn echo_is_on(master: std::os::unix::io::RawFd) -> Option<bool> {
    // SAFETY: `termios` is plain data, and `master` is an open terminal descriptor.
    let mut settings: libc::termios = unsafe { std::mem::zeroed() };
    let read = unsafe { libc::tcgetattr(master, &mut settings) };
    (read == 0).then_some(settings.c_lflag & libc::ECHO != 0)
}

/// Waits until the program has switched the terminal's echo off (a password prompt does so
/// just after printing itself); after 10 s it gives up, and the typed text will show.
fn wait_for_echo_off(master: std::os::unix::io::RawFd) {
    for _ in 0..10_000 {
        if echo_is_on(master) == Some(false) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
