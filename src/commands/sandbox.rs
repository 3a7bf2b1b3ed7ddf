//! `sandbox`: serve the reference service in the foreground until interrupted.

use std::io::{self, Write};

use super::{note, random_key, resolve_settings};
use crate::cli::{GlobalArgs, SandboxArgs};
use crate::error::{Exit, Failure};
use crate::sandbox::{self, Behaviour, Methods};
use crate::settings::config_file::MethodChoice;
use crate::settings::secret::ApiKey;
use crate::settings::FileUse;

pub fn run(global: &GlobalArgs, args: &SandboxArgs) -> anyhow::Result<()> {
    // The sandbox serves no configured service: only the flags (`--method`, `--quiet`) matter.
    let settings = resolve_settings(global, None, FileUse::LocateOnly)?;
    let (key, generated) = match args.key.as_deref().and_then(ApiKey::new) {
        Some(key) => (key.expose().to_owned(), false),
        None => (random_key(), true),
    };
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
        log: !settings.quiet,
    };
    let ready = |url: &str| {
        // The URL alone on stdout, for scripts and tests; the rest is for people. A stdout that
        // cannot take it (closed, /dev/full) does not stop the service: the note below names it.
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{url}").and_then(|()| out.flush());
        note(&settings, &format!("chain-metrics sandbox: serving SERVICE.md on {url} with synthetic data; Ctrl-C stops it"));
        if generated {
            note(
                &settings,
                &format!("  export CHAIN_METRICS_BASE_URL={url} CHAIN_METRICS_API_KEY={key}"),
            );
        }
    };
    sandbox::serve(args.listen, behaviour, ready).map_err(|e| {
        Failure::new(
            Exit::Config,
            format!("sandbox cannot listen on {}: {e}", args.listen),
        )
        .into()
    })
}
