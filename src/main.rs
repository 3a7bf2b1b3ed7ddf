//! Entry point: run the command, print `error:`/`hint:` lines, map the failure to its exit code.

use std::process::ExitCode;

use chain_metrics::{diag, Exit, Failure};

fn main() -> ExitCode {
    // A TAB in a shell with our completion script runs us this way; nothing else may print first.
    chain_metrics::completion::answer_if_asked();
    let cli = <chain_metrics::Cli as clap::Parser>::parse();
    if let Err(e) = chain_metrics::interrupt::install() {
        // Without the handler Ctrl-C still stops the run; only temp-file cleanup is lost.
        diag::line(&format!(
            "warning: cannot handle Ctrl-C ({e}); an interrupted run may leave a temporary file"
        ));
    }
    match chain_metrics::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => report(&err),
    }
}

fn report(err: &anyhow::Error) -> ExitCode {
    if chain_metrics::interrupt::interrupted() {
        // The signal handler is removing temp files (and may be restoring the terminal's echo)
        // and then exits 128 + the signal itself; returning now would end the process under it. Wait for it,
        // with a bound in case the cleanup hangs (a `stty` on a terminal gone away).
        std::thread::sleep(std::time::Duration::from_secs(5));
        return ExitCode::from(chain_metrics::interrupt::exit_code());
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
