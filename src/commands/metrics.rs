//! `fees`, `users`, `social` and `report`: resolve, fetch every request, then write the result.

use super::{note, random_key, resolve_settings};
use crate::cache::Work;
use crate::cache::{self, Mode, RunCache};
use crate::cli::{GlobalArgs, QueryArgs};
use crate::client::{curl_lines, fetch_each, Assembly, Fetched, Plan};
use crate::client::{Client, Request};
use crate::error::{Exit, Failure};
use crate::model::expand_chains;
use crate::model::Period;
use crate::model::{today_utc, DayRange};
use crate::model::{Endpoint, SocialMetric};
use crate::output::{write_stdout, Output, OutputRequest};
use crate::sandbox::{self, Behaviour, Methods, Running};
use crate::settings::Terminal;
use crate::settings::{ApiKey, MASK};
use crate::settings::{FileUse, Settings};
use crate::system::diag;

pub fn run(
    global: &GlobalArgs,
    terminal: Terminal,
    args: &QueryArgs,
    endpoints: Vec<Endpoint>,
    includes: Vec<SocialMetric>,
) -> anyhow::Result<()> {
    let today = today_utc();
    let asked =
        DayRange::resolve(args.start, args.end, args.last, today).map_err(Failure::usage)?;
    let plan = Plan {
        endpoints,
        chains: expand_chains(&args.chains),
        range: merge_range(args, asked),
        includes,
        chunk_days: None,
    };
    // Every usage error comes before any request, key lookup or file.
    let output = Output::resolve(&output_request(args), &plan, terminal)?;
    output.check_target(&plan)?;
    if args.raw {
        check_raw(&plan, args.by)?;
    }
    let settings = resolve_settings(global, terminal, args.chunk_days, FileUse::Read)?;
    if plan.range.start != asked.start {
        let (start, by) = (plan.range.start, args.by.name());
        note(&settings, &format!("note: --merge --by {by}: asking from {start}, the first day of the {by} that holds {}, so that the {by}'s row in the file is replaced whole", asked.start));
    }
    if plan.range.end > today {
        let end = plan.range.end;
        note(&settings, &format!("warning: the range ends {end}, after today (UTC): the service has no data for days to come"));
    }
    if args.raw {
        return print_raw(&settings, &plan, &output);
    }
    let plan = Plan {
        chunk_days: settings.chunk_days,
        ..plan
    };
    let mode = cache_mode(args, &settings);
    if args.dry_run {
        // Read only; with --refresh every request would be sent, so the cache is not read.
        let look = mode.filter(|m| *m != Mode::Refresh).map(|_| Mode::Look);
        return print_curl_lines(&settings, &plan, look);
    }
    fetch_and_write(&settings, &plan, &output, mode)
}

/// The query flags that shape the output, as plain values.
fn output_request(args: &QueryArgs) -> OutputRequest {
    OutputRequest {
        format: args.format,
        file: args.output.clone(),
        merge: args.merge,
        wide: args.wide,
        no_header: args.no_header,
        summary: args.summary,
        by: args.by,
    }
}

/// The range to ask for: with `--merge` and a `--by` period, from the first day of the period
/// that holds the start, so that a fresh row covers the days an older row of that period had
/// (a cron job's `--last 2 --by month` would otherwise never replace the month's row).
fn merge_range(args: &QueryArgs, asked: DayRange) -> DayRange {
    match args.merge {
        true => DayRange {
            start: args.by.start(asked.start),
            ..asked
        },
        false => asked,
    }
}

/// How this run uses the response cache: the flags, else config `cache`; `None`: not at all.
fn cache_mode(args: &QueryArgs, settings: &Settings) -> Option<Mode> {
    if args.refresh {
        Some(Mode::Refresh)
    } else if args.cache || (settings.cache.enabled && !args.no_cache) {
        Some(Mode::Use)
    } else {
        None
    }
}

/// What to ask the service (and what the cache has), with the cache's warning and its `-v`
/// line on stderr.
fn plan_work(
    settings: &Settings,
    plan: &Plan,
    mode: Option<Mode>,
) -> anyhow::Result<(Work, Option<RunCache>)> {
    let Some(mode) = mode else {
        return Ok((Work::everything(plan), None));
    };
    let base_url = match settings.sandbox {
        true => None,
        false => Some(settings.service_url()?),
    };
    let mut cache = RunCache::open(settings, cache::service_name(base_url.as_ref()), mode);
    let work = cache.work(plan, today_utc());
    if let Some(warning) = cache.take_warning() {
        note(settings, &format!("warning: {warning}"));
    }
    if settings.verbose {
        diag::line(&format!("* cache: {}", cache_summary(plan, &work, mode)));
    }
    Ok((work, Some(cache)))
}

/// `-v`: how many days came from the cache, and what is left to ask.
fn cache_summary(plan: &Plan, work: &Work, mode: Mode) -> String {
    let series = plan.chains.len() * plan.endpoints.len();
    let days = plan.range.days().count();
    let requests = match work.requests.len() {
        1 => "1 request".to_owned(),
        n => format!("{n} requests"),
    };
    let of = match series {
        1 => format!("{days} days"),
        _ => format!("{} days ({series} series of {days} days)", series * days),
    };
    match mode {
        Mode::Refresh => format!("--refresh: asking for all {of} in {requests}"),
        _ => format!(
            "{} of {of} came from the cache; {requests} to send",
            work.days_from_cache
        ),
    }
}

/// Every request the cache cannot answer, then the rows, warnings first.
fn fetch_and_write(
    settings: &Settings,
    plan: &Plan,
    output: &Output,
    mode: Option<Mode>,
) -> anyhow::Result<()> {
    let (work, mut cache) = plan_work(settings, plan, mode)?;
    let mut assembly = Assembly::new(plan);
    for known in work.from_cache {
        assembly.know(known.chain, known.date, known.column, known.value);
    }
    // Every answer is kept and joined as it comes; the error reported is the first failed
    // request in plan order, so it never depends on timing.
    let mut failure = None;
    fetch(
        settings,
        output,
        &work.requests,
        &mut |answer| match answer {
            Ok(answer) => {
                if let Some(cache) = &mut cache {
                    cache.keep(&answer);
                }
                assembly.add(answer);
            }
            Err(e) => {
                failure.get_or_insert(e);
            }
        },
    )?;
    if let Some(warning) = cache.as_mut().and_then(RunCache::take_warning) {
        note(settings, &format!("warning: {warning}"));
    }
    if let Some(failure) = failure {
        return Err(add_key_hint(failure, settings).into());
    }
    let outcome = assembly.finish();
    for warning in &outcome.warnings {
        note(settings, &format!("warning: {warning}"));
    }
    let wait = settings.lock_wait();
    output.write(outcome.dataset, plan, settings.color, wait, &|line| {
        note(settings, line)
    })
}

/// Sends the requests; with none to send, needs neither the key nor a connection.
fn fetch(
    settings: &Settings,
    output: &Output,
    requests: &[Request],
    take: &mut dyn FnMut(crate::error::Result<Fetched>),
) -> anyhow::Result<()> {
    if requests.is_empty() {
        return Ok(());
    }
    let (client, _sandbox) = connect(settings)?;
    let progress = output.progress(requests.len(), settings.quiet);
    fetch_each(&client, requests, settings.jobs, &|| progress.tick(), take);
    progress.finish();
    Ok(())
}

/// `--raw`: one body as sent, the whole range in one request whatever the chunking.
fn print_raw(settings: &Settings, plan: &Plan, output: &Output) -> anyhow::Result<()> {
    let (client, _sandbox) = connect(settings)?;
    let raw = client
        .fetch_raw(&plan.requests()[0])
        .map_err(|failure| add_key_hint(failure, settings))?;
    if raw.key_masked {
        note(
            settings,
            &format!(
                "warning: the service echoed the API key in its answer; --raw shows it as {MASK}"
            ),
        );
    }
    output.write_bytes(&raw.body)
}

/// `--raw` shows one body as sent, so it needs exactly one request, and its daily rows as they
/// are (`--by day`, the default, may be given).
fn check_raw(plan: &Plan, by: Period) -> Result<(), Failure> {
    if by != Period::Day {
        return Err(Failure::usage(format!(
            "--raw prints the service's body as sent, one entry a day, and cannot roll it up by {}",
            by.name()
        ))
        .with_hint("leave out --raw, or --by"));
    }
    if plan.endpoints.len() > 1 {
        return Err(Failure::usage(
            "--raw prints one service body, and report makes three requests per chain",
        )
        .with_hint("use --raw with fees, users or social"));
    }
    if plan.chains.len() > 1 {
        let names: Vec<&str> = plan.chains.iter().map(|c| c.name()).collect();
        return Err(Failure::usage(format!(
            "--raw prints one service body, for one chain; asked: {}",
            names.join(", ")
        ))
        .with_hint("give one chain to --chain"));
    }
    Ok(())
}

fn print_curl_lines(settings: &Settings, plan: &Plan, mode: Option<Mode>) -> anyhow::Result<()> {
    if settings.sandbox {
        return Err(Failure::usage(
            "--dry-run prints commands for a service that outlives the run; --sandbox lasts only one run",
        )
        .with_hint("start `chain-metrics sandbox` and set CHAIN_METRICS_BASE_URL to its URL")
        .into());
    }
    let (work, _) = plan_work(settings, plan, mode)?;
    if work.requests.is_empty() {
        note(
            settings,
            "note: every day asked is in the cache: nothing would be sent",
        );
    }
    let lines = curl_lines(&settings.service_url()?, settings.method, &work.requests);
    write_stdout(|out| lines.iter().try_for_each(|line| writeln!(out, "{line}")))
}

/// The client for this run: the configured service, or a sandbox started for it (returned too,
/// since it serves only as long as it is kept).
fn connect(settings: &Settings) -> anyhow::Result<(Client, Option<Running>)> {
    let (base_url, key, sandbox) = if settings.sandbox {
        let key = ApiKey::new(&random_key()?)
            .ok_or_else(|| Failure::new(Exit::Internal, "the sandbox key came out empty"))?;
        let behaviour = Behaviour {
            key: key.expose().to_owned(),
            methods: Methods::Both,
            latency: std::time::Duration::ZERO,
            fail_rate: 0.0,
            faults: Vec::new(),
            log: false,
        };
        // Over HTTPS, so that the quickstart takes the production path; failing to listen is
        // the same failure as `chain-metrics sandbox` failing to listen: the machine's setup.
        let failed = |e: String| {
            Failure::new(
                Exit::Config,
                format!("cannot start the built-in sandbox: {e}"),
            )
        };
        let certificate = super::sandbox::self_signed()?;
        let pem = certificate.pem.clone();
        let listen = "127.0.0.1:0".parse().expect("a socket address");
        let sandbox = sandbox::start(listen, behaviour, Some(certificate))
            .map_err(|e| failed(e.to_string()))?;
        note(
            settings,
            &format!(
                "note: --sandbox: synthetic data from the built-in sandbox at {}",
                sandbox.url
            ),
        );
        let url = reqwest::Url::parse(&sandbox.url).expect("the sandbox URL parses");
        (url, key, Some((sandbox, pem)))
    } else {
        (settings.service_url()?, settings.api_key()?, None)
    };
    let pem = sandbox.as_ref().map(|(_, pem)| pem.as_str());
    let client = super::client(settings, base_url, key, pem)?;
    Ok((client, sandbox.map(|(running, _)| running)))
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
