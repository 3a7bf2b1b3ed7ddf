//! `sandbox`: serve the reference service in the foreground until interrupted.

use std::io::{self, Write};

use super::{note, random_key};
use crate::cli::{GlobalArgs, SandboxArgs};
use crate::error::{Exit, Failure};
use crate::sandbox::{self, Behaviour, Methods};
use crate::settings::config_file::MethodChoice;
use crate::settings::secret::ApiKey;

pub fn run(global: &GlobalArgs, args: &SandboxArgs) -> anyhow::Result<()> {
    let (key, generated) = match args.key.as_deref().and_then(ApiKey::new) {
        Some(key) => (key.expose().to_owned(), false),
        None => (random_key(), true),
    };
    let methods = match global.method {
        None | Some(MethodChoice::Auto) => Methods::Both,
        Some(MethodChoice::Post) => Methods::Post,
        Some(MethodChoice::Get) => Methods::Get,
    };
    let behaviour = Behaviour {
        key: key.clone(),
        methods,
        latency: std::time::Duration::from_millis(args.latency),
        fail_rate: args.fail_rate,
        faults: args.faults.clone(),
        log: !global.quiet,
    };
    let ready = |url: &str| {
        // The URL alone on stdout, for scripts and tests; the rest is for people.
        println!("{url}");
        let _ = io::stdout().flush();
        note(global, &format!("chain-metrics sandbox: serving SERVICE.md on {url} with synthetic data; Ctrl-C stops it"));
        if generated {
            note(
                global,
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
