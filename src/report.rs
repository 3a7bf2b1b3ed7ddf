//! The end of a run: the outcome becomes `error:`/`hint:` lines on stderr and an exit code.

use std::process::ExitCode;

use crate::error::{Exit, Failure};
use crate::system::{diag, interrupt};

/// The exit code of a run that ended in `err`, its lines printed. A closed stdout (`| head`)
/// is a quiet success; a signal's handler decides the code itself.
pub fn report(err: &anyhow::Error) -> ExitCode {
    if interrupt::interrupted() {
        return ExitCode::from(interrupt::wait_for_handler());
    }
    let broken_pipe = err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    let code = match err.downcast_ref::<Failure>() {
        Some(failure) => {
            diag::line(&format!("error: {}", failure.message));
            if let Some(hint) = &failure.hint {
                diag::line(&format!("hint: {hint}"));
            }
            failure.exit
        }
        None => {
            diag::line(&format!("error: {err:#}"));
            diag::line(
                "hint: this is a bug in chain-metrics; please report it with the command you ran",
            );
            Exit::Internal
        }
    };
    ExitCode::from(code as u8)
}
