//! `fees`, `users`, `social` and `report`: resolve, fetch every request, then write the result.

use super::keep_going::Answers;
use super::{note, random_key, resolve_settings};
use crate::cache::Work;
use crate::cache::{self, Mode, RunCache};
use crate::cli::{GlobalArgs, QueryArgs};
use crate::client::Client;
use crate::client::{curl_lines, fetch_each};
use crate::error::{Exit, Failure};
use crate::fetched::{Assembly, Fetched, Plan, Request};
use crate::model::expand_chains;
use crate::model::Period;
use crate::model::{today_utc, DayRange, DaySpec};
use crate::model::{Endpoint, SocialMetric};
use crate::output::{write_stdout, Output, OutputRequest, Resume};
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
    // With --resume the range comes from the file, read once the output is known.
    let flags_range = match args.resume {
        true => None,
        false => Some(flags_range(args, today)?),
    };
    let plan = Plan {
        endpoints,
        chains: expand_chains(&args.chains),
        range: flags_range.unwrap_or(DayRange {
            start: today,
            end: today,
        }),
        includes,
        chunk_days: None,
    };
    // Every usage error comes before any request, key lookup or file.
    let output = Output::resolve(&output_request(args), &plan, terminal)?;
    check_dry_run(args)?;
    output.check_target(&plan)?;
    if args.raw {
        check_raw(&plan, args.by)?;
    }
    let asked = match flags_range {
        Some(range) => Some(range),
        None => resume_range(args, &output, &plan, today)?,
    };
    let settings = resolve_settings(global, terminal, args.chunk_days, FileUse::Read)?;
    let Some(asked) = asked else {
        let file = args.output.as_deref().unwrap_or("-".as_ref()).display();
        note(
            &settings,
            &format!("note: --resume: {file} is up to date for every chain asked; nothing to ask"),
        );
        return Ok(());
    };
    let plan = Plan {
        range: merge_range(args, asked),
        ..plan
    };
    run_plan(args, &settings, plan, asked, &output, today)
}

/// The rest of a run once its range is known: the notes on it, then `--raw`, `--dry-run` or
/// the fetch.
fn run_plan(
    args: &QueryArgs,
    settings: &Settings,
    plan: Plan,
    asked: DayRange,
    output: &Output,
    today: chrono::NaiveDate,
) -> anyhow::Result<()> {
    if args.resume && (args.dry_run || settings.verbose) {
        let file = args.output.as_deref().unwrap_or("-".as_ref()).display();
        note(
            settings,
            &format!(
                "note: --resume: asking {}..{}, after the newest day in {file}",
                asked.start, asked.end
            ),
        );
    }
    if plan.range.start != asked.start {
        let (start, by) = (plan.range.start, args.by.name());
        note(settings, &format!("note: --merge --by {by}: asking from {start}, the first day of the {by} that holds {}, so that the {by}'s row in the file is replaced whole", asked.start));
    }
    if plan.range.end > today {
        let end = plan.range.end;
        note(settings, &format!("warning: the range ends {end}, after today (UTC): the service has no data for days to come"));
    }
    if args.raw {
        return print_raw(settings, &plan, output);
    }
    let plan = Plan {
        chunk_days: settings.chunk_days,
        ..plan
    };
    let mode = cache_mode(args, settings);
    if args.dry_run {
        // Read only; with --refresh every request would be sent, so the cache is not read.
        let look = mode.filter(|m| *m != Mode::Refresh).map(|_| Mode::Look);
        return print_curl_lines(settings, &plan, look);
    }
    let strict = args.strict || settings.strict;
    fetch_and_write(settings, &plan, output, mode, strict, args.keep_going)
}

/// The range the flags give: a calendar range (`--month`, `--quarter`, `--year`), else
/// `--start`/`--last`/`--end`.
fn flags_range(args: &QueryArgs, today: chrono::NaiveDate) -> Result<DayRange, Failure> {
    match args.calendar.range() {
        Some(range) => Ok(range),
        None => DayRange::resolve_span(args.start, args.end, args.last, args.by, today)
            .map_err(Failure::usage),
    }
}

/// `--resume`: from the day after the file's newest (for every chain asked) to `--end`, the
/// flags' first day for a chain the file has no rows for; `None` when it is up to date.
fn resume_range(
    args: &QueryArgs,
    output: &Output,
    plan: &Plan,
    today: chrono::NaiveDate,
) -> Result<Option<DayRange>, Failure> {
    let end = args.end.unwrap_or(DaySpec::Yesterday).resolve(today);
    let first_day = match (args.start, args.last, args.calendar.range()) {
        (None, None, None) => None,
        _ => Some(flags_range(args, today)?.start),
    };
    match output.resume(plan, first_day, end)? {
        Resume::From(start) => {
            let (start, end) = (Some(DaySpec::Date(start)), Some(DaySpec::Date(end)));
            let range = DayRange::resolve(start, end, None, today).map_err(Failure::usage)?;
            Ok(Some(range))
        }
        Resume::UpToDate => Ok(None),
    }
}

/// `--dry-run` writes nothing: `--output` goes with it only to show a `--resume` range.
fn check_dry_run(args: &QueryArgs) -> Result<(), Failure> {
    if args.dry_run && args.output.is_some() && !args.resume {
        return Err(Failure::usage(
            "--dry-run sends nothing and writes nothing, so --output has nothing to do",
        )
        .with_hint("leave out --output; with --merge --resume, --dry-run shows the range a catch-up would ask"));
    }
    Ok(())
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
        analysis: args.analysis.analysis(),
        json_numbers: args.json_numbers,
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

/// Every request the cache cannot answer, then the rows, warnings first; under `strict`, a
/// result that lacks asked values fails after it is written; the retries are told last.
fn fetch_and_write(
    settings: &Settings,
    plan: &Plan,
    output: &Output,
    mode: Option<Mode>,
    strict: bool,
    keep_going: bool,
) -> anyhow::Result<()> {
    let (work, mut cache) = plan_work(settings, plan, mode)?;
    let mut assembly = Assembly::new(plan);
    // Every answer is kept and joined as it comes (`--keep-going`: chain by chain); the error
    // reported is the first failed request in plan order, so it never depends on timing.
    let mut answers = Answers::new(keep_going);
    let retried = fetch(settings, output, &work.requests, &mut |answer| {
        if let (Ok(answer), Some(cache)) = (&answer, &mut cache) {
            cache.keep(answer);
        }
        answers.take(answer, &mut assembly);
    })?;
    answers.flush(&mut assembly);
    for known in work.from_cache {
        if !answers.failed(known.chain) {
            assembly.know(known.chain, known.date, known.column, known.value);
        }
    }
    if let Some(warning) = cache.as_mut().and_then(RunCache::take_warning) {
        note(settings, &format!("warning: {warning}"));
    }
    if let Some(failure) = answers.fatal(&plan.chains) {
        return Err(add_key_hint(failure, settings).into());
    }
    let (left_out, failure) = answers.left_out();
    let outcome = assembly.finish();
    for warning in outcome.warnings.iter().chain(&left_out) {
        note(settings, &format!("warning: {warning}"));
    }
    let wait = settings.lock_wait();
    let written = output.write(
        outcome.dataset,
        plan,
        &outcome.warnings,
        settings.color,
        wait,
        &|line| note(settings, line),
    );
    if let Some(line) = retried {
        note(settings, &format!("note: {line}"));
    }
    written?;
    if let Some(failure) = failure {
        return Err(add_key_hint(failure, settings).into());
    }
    match strict {
        true => Ok(outcome.gaps.strict_verdict()?),
        false => Ok(()),
    }
}

/// Sends the requests; with none to send, needs neither the key nor a connection. Returns the
/// retries' line (`3 requests retried: 429 x2, 503 x1`), if any.
fn fetch(
    settings: &Settings,
    output: &Output,
    requests: &[Request],
    take: &mut dyn FnMut(crate::error::Result<Fetched>),
) -> anyhow::Result<Option<String>> {
    if requests.is_empty() {
        return Ok(None);
    }
    let (client, _sandbox) = connect(settings)?;
    let progress = output.progress(requests.len(), settings.quiet);
    fetch_each(&client, requests, settings.jobs, &|| progress.tick(), take);
    progress.finish();
    Ok(client.retry_summary())
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
    // The body as sent, plus the newline a text file and a shell prompt expect after it.
    let mut body = raw.body;
    if !body.ends_with(b"\n") {
        body.push(b'\n');
    }
    output.write_bytes(&body)
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
