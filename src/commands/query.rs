//! `fees`, `users` and `social`: resolve, fetch every chain, render to stdout.

use std::sync::Arc;

use anyhow::Context;

use super::{format_or_default, note, random_key, setting_flags, write_stdout};
use crate::chain;
use crate::cli::{GlobalArgs, QueryArgs};
use crate::client::{Client, ClientOptions, Trace};
use crate::dates::{today_utc, DayRange};
use crate::error::{Exit, Failure};
use crate::model::{Endpoint, Item};
use crate::query::{self, Plan};
use crate::render::{self, Style};
use crate::sandbox::{self, Behaviour, Methods};
use crate::secret::ApiKey;
use crate::settings::{SettingFlags, Settings};
use crate::terminal;

pub fn run(
    global: &GlobalArgs,
    args: &QueryArgs,
    endpoint: Endpoint,
    includes: Vec<Item>,
) -> anyhow::Result<()> {
    let range =
        DayRange::resolve(args.start, args.end, args.last, today_utc()).map_err(Failure::usage)?;
    let plan = Plan {
        endpoint,
        chains: chain::expand(&args.chains),
        range,
        includes,
        chunk_days: None,
    };
    let settings = Settings::resolve(&SettingFlags {
        chunk_days: args.chunk_days,
        ..setting_flags(global)
    })?;
    let format = format_or_default(args.format);

    // The sandbox lives until the end of this function: the whole run talks to it.
    let sandbox;
    let (base_url, key) = if global.sandbox {
        let key = ApiKey::new(&random_key()).expect("a fresh key is not empty");
        let behaviour = Behaviour {
            key: key.expose().to_owned(),
            methods: Methods::Both,
            latency: std::time::Duration::ZERO,
            fail_rate: 0.0,
            faults: Vec::new(),
            log: false,
        };
        sandbox = sandbox::start("127.0.0.1:0".parse().expect("a socket address"), behaviour)
            .context("cannot start the built-in sandbox")?;
        note(
            global,
            &format!(
                "note: --sandbox: synthetic data from the built-in sandbox at {}",
                sandbox.url
            ),
        );
        (
            reqwest::Url::parse(&sandbox.url).expect("the sandbox URL parses"),
            key,
        )
    } else {
        (settings.service_url()?, settings.api_key()?)
    };

    let trace: Option<Trace> = global
        .verbose
        .then(|| Arc::new(|line: &str| eprintln!("* {line}")) as Trace);
    let client = Client::new(ClientOptions {
        base_url,
        key,
        timeout: settings.timeout,
        connect_timeout: settings.connect_timeout,
        retries: settings.retries,
        method: settings.method,
        trace,
    })?;
    let plan = Plan {
        chunk_days: settings.chunk_days,
        ..plan
    };
    let outcome = query::run(&client, &plan, settings.jobs)
        .map_err(|failure| add_key_hint(failure, &settings))?;
    for warning in &outcome.warnings {
        note(global, &format!("warning: {warning}"));
    }
    let style = Style {
        color: terminal::stdout_color(global.color),
    };
    write_stdout(|out| render::render(&outcome.dataset, format, style, out))
}

/// A rejected key gets a hint naming where the key came from.
fn add_key_hint(failure: Failure, settings: &Settings) -> Failure {
    if failure.exit != Exit::KeyRejected {
        return failure;
    }
    let source = settings
        .key
        .as_ref()
        .map_or_else(|| "the sandbox".to_owned(), |k| k.source.to_string());
    failure.with_hint(format!(
        "the key came from {source}; check it, or set another in CHAIN_METRICS_API_KEY"
    ))
}
