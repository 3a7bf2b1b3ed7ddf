//! Entry point: the whole run is the library's; this only hands its exit code to the OS.

fn main() -> std::process::ExitCode {
    chain_metrics::main()
}
