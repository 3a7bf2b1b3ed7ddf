//! `sandbox`: serve the reference service in the foreground until interrupted.

use std::io::{self, Write};
use std::path::Path;

use super::random_key;
use crate::cli::SandboxArgs;
use crate::error::{Exit, Failure};
use crate::output::write_atomically;
use crate::sandbox::{self, Behaviour, Methods, SandboxCertificate};
use crate::settings::ApiKey;
use crate::settings::{MethodChoice, Settings};
use crate::system::diag;

/// The key the sandbox accepts, and whether it made it up: `--key` checked by the client's
/// rule (so that every sandbox key can be used), else a fresh random one.
fn sandbox_key(args: &SandboxArgs) -> anyhow::Result<(String, bool)> {
    match args.key.as_deref().and_then(ApiKey::new) {
        Some(key) => {
            key.check().map_err(|why| {
                Failure::usage(format!("--key: {why}"))
                    .with_hint("leave out --key and the sandbox makes up one")
            })?;
            Ok((key.expose().to_owned(), false))
        }
        None => Ok((random_key()?, true)),
    }
}

/// `settings`: the config file located, not read; the sandbox serves no configured service,
/// only the flag `--method` matters.
pub(super) fn run(args: &SandboxArgs, settings: &Settings) -> anyhow::Result<()> {
    let (key, generated) = sandbox_key(args)?;
    let methods = match settings.method {
        MethodChoice::Auto => Methods::Both,
        MethodChoice::Post => Methods::Post,
        MethodChoice::Get => Methods::Get,
    };
    let behaviour = Behaviour {
        key: key.clone(),
        methods,
        latency: std::time::Duration::from_millis(args.latency),
        fail_rate: args.fail_rate,
        faults: args.faults.clone(),
        log: true,
    };
    let certificate = match args.tls {
        true => Some(certificate(args.cert_out.as_deref())?),
        false => None,
    };
    let ready = |url: &str| {
        if let Some(warning) = sandbox::exposure(args.listen) {
            diag::Notice::warning(warning).loud().write();
        }
        announce(args, url, generated.then_some(key.as_str()));
    };
    sandbox::serve(args.listen, behaviour, certificate.as_ref(), ready).map_err(|e| {
        Failure::new(
            Exit::Config,
            format!("sandbox cannot listen on {}: {e}", args.listen),
        )
        .into()
    })
}

/// The URL alone on stdout, for scripts and tests; the rest is for people (`made_up`: the key
/// the sandbox made up, for the `export` line). A stdout that cannot take it (closed,
/// /dev/full) does not stop the service: the note names the URL.
fn announce(args: &SandboxArgs, url: &str, made_up: Option<&str>) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{url}").and_then(|()| out.flush());
    diag::status(format!(
        "chain-metrics sandbox: serving the service of docs/service.md on {url} with synthetic \
            data; Ctrl-C stops it"
    ));
    if let Some(path) = &args.cert_out {
        let path = path.display();
        let line = format!("  the certificate is in {path}: trust it with --ca-bundle {path}");
        diag::status(line);
    }
    if let Some(key) = made_up {
        let line = format!("  export CHAIN_METRICS_BASE_URL={url} CHAIN_METRICS_API_KEY={key}");
        diag::status(line);
    }
}

/// A fresh self-signed certificate, written to `cert_out` before serving (a file that cannot
/// be written is exit 9, and nothing is served).
fn certificate(cert_out: Option<&Path>) -> anyhow::Result<SandboxCertificate> {
    let certificate = self_signed()?;
    if let Some(path) = cert_out {
        write_atomically(path, certificate.pem.as_bytes())?;
    }
    Ok(certificate)
}

/// The sandbox's fresh self-signed certificate, for `sandbox --tls` and `--sandbox` alike: a
/// failure to make one is the same failure (exit 1) whichever way the sandbox was asked for.
pub(crate) fn self_signed() -> Result<SandboxCertificate, Failure> {
    sandbox::self_signed().map_err(|e| {
        Failure::new(
            Exit::Internal,
            format!("cannot make the sandbox's certificate: {e}"),
        )
    })
}
