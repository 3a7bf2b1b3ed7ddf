//! The key command's own process group: ended whole when it overruns (children included), and
//! given the terminal while it runs, so that a password manager can still ask for a password.
//!
//! Why both: in a group of its own, the command and everything it started can be stopped with
//! one signal; but a process outside the terminal's foreground group that reads the terminal
//! is stopped by the kernel (SIGTTIN). So, as a shell does for a job, the group gets the
//! foreground while it runs and the run takes it back after, with the settings it had (a
//! prompt cut short leaves echo off); Ctrl-C at its prompt then reaches the command, and the
//! run stops with exit 130 when the command dies of it.

use std::io;
use std::process::{Child, Command, ExitStatus};

/// A running command in its own process group.
pub(crate) struct CommandGroup {
    child: Child,
    #[cfg(unix)]
    terminal: Option<unix::Terminal>,
    /// While set, an interruption of the run ends the group too.
    _tracked: crate::system::interrupt::Scoped,
}

impl CommandGroup {
    /// Starts `command` as the leader of a new process group, with the terminal when the run
    /// has it (the foreground of its controlling terminal).
    pub(crate) fn spawn(command: &mut Command) -> io::Result<CommandGroup> {
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(command, 0);
        let child = command.spawn()?;
        Ok(CommandGroup {
            #[cfg(unix)]
            terminal: unix::Terminal::hand_to(child.id()),
            _tracked: crate::system::interrupt::track_group(child.id()),
            child,
        })
    }

    pub(crate) fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// The command's exit status once it has ended; the terminal is taken back then.
    pub(crate) fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        let status = self.child.try_wait()?;
        if status.is_some() {
            self.take_terminal_back();
        }
        Ok(status)
    }

    /// Ends the command and every process of its group (what it started in the background
    /// too), and takes the terminal back.
    pub(crate) fn end(&mut self) {
        #[cfg(unix)]
        unix::kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.take_terminal_back();
    }

    fn take_terminal_back(&mut self) {
        #[cfg(unix)]
        if let Some(terminal) = self.terminal.take() {
            terminal.take_back();
        }
    }
}

impl Drop for CommandGroup {
    fn drop(&mut self) {
        self.take_terminal_back();
    }
}

/// Whether the command ended because the user pressed Ctrl-C (it died of SIGINT, or exited 130
/// as shells and most tools do then).
pub(crate) fn interrupted_by_user(status: ExitStatus) -> bool {
    #[cfg(unix)]
    if std::os::unix::process::ExitStatusExt::signal(&status) == Some(2) {
        return true;
    }
    status.code() == Some(130)
}

#[cfg(unix)]
mod unix {
    use std::fs::{File, OpenOptions};

    use nix::sys::signal::{killpg, SigSet, SigmaskHow, Signal};
    use nix::sys::termios::{tcgetattr, tcsetattr, SetArg, Termios};
    use nix::unistd::{getpgrp, tcgetpgrp, tcsetpgrp, Pid};

    /// The controlling terminal, handed to the command's group, the group to give it back to,
    /// and its settings before: a prompt killed midway (Ctrl-C) leaves its echo off, and a shell
    /// only restores the settings of a job that dies of a signal, which the run does not.
    pub(super) struct Terminal {
        tty: File,
        ours: Pid,
        settings: Option<Termios>,
    }

    impl Terminal {
        /// Gives the terminal's foreground to the group led by `leader`, if this run has it now
        /// (a run in the background, or without a terminal, leaves it alone).
        pub(super) fn hand_to(leader: u32) -> Option<Terminal> {
            let tty = OpenOptions::new()
                .read(true)
                .write(true)
                .open("/dev/tty")
                .ok()?;
            let ours = getpgrp();
            if tcgetpgrp(&tty).ok()? != ours {
                return None;
            }
            let group = Pid::from_raw(i32::try_from(leader).ok()?);
            let settings = tcgetattr(&tty).ok();
            tcsetpgrp(&tty, group).ok()?;
            // A command that read the terminal before it had it was stopped for it: go on.
            let _ = killpg(group, Signal::SIGCONT);
            Some(Terminal {
                tty,
                ours,
                settings,
            })
        }

        /// Makes this run's group the foreground again, with the settings from before. It is a
        /// background group by then, which the kernel would stop for this (SIGTTOU) unless the
        /// signal is blocked meanwhile.
        pub(super) fn take_back(self) {
            let Ok(mask) = SigSet::from(Signal::SIGTTOU).thread_swap_mask(SigmaskHow::SIG_BLOCK)
            else {
                return;
            };
            let _ = tcsetpgrp(&self.tty, self.ours);
            if let Some(settings) = &self.settings {
                let _ = tcsetattr(&self.tty, SetArg::TCSADRAIN, settings);
            }
            let _ = mask.thread_set_mask();
        }
    }

    /// SIGKILL to every process of the group led by `leader`.
    pub(super) fn kill_group(leader: u32) {
        if let Ok(leader) = i32::try_from(leader) {
            let _ = killpg(Pid::from_raw(leader), Signal::SIGKILL);
        }
    }
}
