//! Runs one parsed command: resolves settings, fetches, renders to stdout, reports on stderr.

use std::io::{self, BufWriter, Write};
use std::sync::Arc;

use anyhow::Context;

use crate::chain::{self, Chain};
use crate::cli::{ChainsArgs, Cli, Command, GlobalArgs, QueryArgs, SandboxArgs};
use crate::client::{Client, ClientOptions, Trace};
use crate::config_file::MethodChoice;
use crate::dates::{today_utc, DayRange};
use crate::error::{Exit, Failure};
use crate::model::{Endpoint, Item};
use crate::query::{self, Plan};
use crate::render::{self, Format, Style};
use crate::sandbox::{self, Behaviour, Methods};
use crate::secret::ApiKey;
use crate::settings::{SettingFlags, Settings};
use crate::terminal;

pub fn run(cli: Cli) -> anyhow::Result<()> {
    let global = &cli.global;
    match &cli.command {
        Command::Fees(args) => run_query(global, args, Endpoint::Fees, Vec::new()),
        Command::Users(args) => run_query(global, args, Endpoint::ActiveUsers, Vec::new()),
        Command::Social(args) => {
            let includes = if args.includes.is_empty() {
                Item::ALL.to_vec()
            } else {
                dedup(&args.includes)
            };
            run_query(global, &args.query, Endpoint::OfficialAccount, includes)
        }
        Command::Chains(args) => list_chains(args),
        Command::Sandbox(args) => run_sandbox(global, args),
    }
}

fn dedup(items: &[Item]) -> Vec<Item> {
    let mut unique = Vec::new();
    for item in items {
        if !unique.contains(item) {
            unique.push(*item);
        }
    }
    unique
}

fn setting_flags(global: &GlobalArgs) -> SettingFlags {
    SettingFlags {
        base_url: global.base_url.clone(),
        profile: global.profile.clone(),
        config: global.config.clone(),
        timeout: global.timeout,
        retries: global.retries,
        jobs: global.jobs,
        method: global.method,
    }
}

fn note(global: &GlobalArgs, line: &str) {
    if !global.quiet {
        eprintln!("{line}");
    }
}

fn run_query(
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
    };
    let settings = Settings::resolve(&setting_flags(global))?;
    let format = args.format.unwrap_or(if terminal::stdout_is_terminal() {
        Format::Table
    } else {
        Format::Csv
    });

    // The sandbox lives until the end of this function: the whole run talks to it.
    let sandbox;
    let (base_url, key) = if global.sandbox {
        let key = ApiKey::new(&random_key()).expect("a fresh key is not empty");
        let behaviour = Behaviour {
            key: key.expose().to_owned(),
            methods: Methods::Both,
            latency: std::time::Duration::ZERO,
            fail_rate: 0.0,
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
        retries: settings.retries,
        method: settings.method,
        trace,
    })?;
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

/// Writes through a locked, buffered stdout; a closed pipe surfaces as `BrokenPipe` for `main`.
fn write_stdout(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> anyhow::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => anyhow::Error::new(e),
            _ => Failure::new(Exit::Output, format!("cannot write to stdout: {e}")).into(),
        })
}

fn random_key() -> String {
    (0..4)
        .map(|_| {
            format!(
                "{:08x}",
                (crate::retry::random_fraction() * f64::from(u32::MAX)) as u32
            )
        })
        .collect()
}

fn list_chains(args: &ChainsArgs) -> anyhow::Result<()> {
    let format = args.format.unwrap_or(if terminal::stdout_is_terminal() {
        Format::Table
    } else {
        Format::Csv
    });
    let rows: Vec<[String; 3]> = Chain::ALL
        .iter()
        .map(|c| {
            [
                c.name().to_owned(),
                c.evm_id().to_string(),
                c.aliases().join(","),
            ]
        })
        .collect();
    write_stdout(|out| match format {
        Format::Table => {
            let mut table = comfy_table::Table::new();
            table
                .load_preset(comfy_table::presets::UTF8_FULL_CONDENSED)
                .force_no_tty();
            table
                .set_header(["chain", "chain_id", "aliases"])
                .add_rows(rows);
            writeln!(out, "{table}")
        }
        Format::Csv => {
            let mut writer = csv::Writer::from_writer(out);
            writer.write_record(["chain", "chain_id", "aliases"])?;
            rows.iter().try_for_each(|row| writer.write_record(row))?;
            writer.flush()
        }
        Format::Json => {
            let list: Vec<_> = Chain::ALL
                .iter()
                .map(|c| serde_json::json!({"chain": c.name(), "chain_id": c.evm_id(), "aliases": c.aliases()}))
                .collect();
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&list).expect("plain values serialise")
            )
        }
    })
}

fn run_sandbox(global: &GlobalArgs, args: &SandboxArgs) -> anyhow::Result<()> {
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
