//! A query's resolution: the flags taken apart ([`QueryFlags`]), checked with no settings read
//! (`checks`, `range`), then joined with the settings into the one [`Query`] a run reads.

use super::flags::QueryFlags;
use super::{checks, range, Fetch, Mode, Query};
use crate::cache::Mode as CacheMode;
use crate::cli::{missing_chain, GlobalArgs, QueryArgs};
use crate::commands::settings_said;
use crate::fetched::Plan;
use crate::model::{each_once, today_utc, Endpoint, SocialMetric};
use crate::settings::{
    ConfigKey, FileUse, Flags, LibpqEnvironment, Settings, Source, Sourced, Terminal,
};

impl Query {
    /// The flags first, with every usage error before any key lookup, request or file write;
    /// then the settings.
    pub(super) fn resolve(
        global: &GlobalArgs,
        terminal: Terminal,
        args: &QueryArgs,
        endpoints: &[Endpoint],
        includes: &[SocialMetric],
    ) -> anyhow::Result<Query> {
        let today = today_utc();
        let mut flags = QueryFlags::new(args, endpoints);
        // The settings are read first, silently: for the config file's output defaults, and so
        // that a key in the config file is masked in every message (a merge file's refusal that
        // quotes it included). Their warnings, or their failure, are said after the usage
        // errors of the flags.
        let resolved = Settings::resolve(
            &Flags::from(global),
            flags.chunk_days,
            FileUse::Read,
            terminal,
        );
        if let Ok(settings) = &resolved {
            flags.with_defaults(&settings.output)?;
        }
        // libpq's environment, for a `postgresql://` target: the settings' (read anew through
        // the same reader when they failed, which is said after the usage errors).
        let libpq = match &resolved {
            Ok(settings) => settings.libpq.clone(),
            Err(_) => LibpqEnvironment::from_process(),
        };
        if flags.chains.is_empty() {
            // A broken config file may be what left the chains out: said first.
            settings_said(resolved)?;
            let command = match endpoints {
                [one] => one.command(),
                _ => "report",
            };
            crate::report::usage_error(missing_chain(command));
        }
        let (endpoints, includes) = (endpoints.to_vec(), items(endpoints, includes));
        let checked =
            checks::Checked::resolve(&flags, endpoints, includes, terminal, today, &libpq)?;
        let resume = range::resume_start(&flags, &checked.output, &checked.plan, today)?;
        let settings = settings_said(resolved)?;
        let catch_up = match resume {
            Some(start) => {
                let settle = settings.cache.settle_days;
                Some(range::catch_up(start, flags.resume_overlap, settle, today)?)
            }
            None => None,
        };
        let asked = match &catch_up {
            Some(catch_up) => catch_up.range,
            None => Some(checked.plan.range),
        };
        let mode = match asked {
            None => Mode::UpToDate,
            Some(_) => mode(&flags, &settings),
        };
        let asked = asked.unwrap_or(checked.plan.range);
        let plan = Plan {
            range: range::widened(&flags, asked),
            // `--raw` asks the whole range in one request.
            chunk_days: settings.chunk_days.filter(|_| !matches!(mode, Mode::Raw)),
            ..checked.plan
        };
        Ok(Query {
            plan,
            asked,
            by: flags.output.by,
            today,
            mode,
            output: checked.output,
            resume: catch_up,
            without_effect: flags.without_effect,
            settings,
        })
    }
}

/// How the flags and the settings say to run.
fn mode(flags: &QueryFlags, settings: &Settings) -> Mode {
    let cache = cache_mode(flags, settings);
    if flags.raw {
        Mode::Raw
    } else if flags.dry_run {
        // Read only; with --refresh every request would be sent, so the cache is not read.
        let look = cache
            .filter(|m| *m != CacheMode::Refresh)
            .map(|_| CacheMode::Look);
        Mode::DryRun { look }
    } else {
        let config = || configured(settings, ConfigKey::Strict, settings.strict);
        Mode::Fetch(Fetch {
            cache,
            strict: flags.strict.resolve(["--strict", "--no-strict"], config),
            keep_going: flags.keep_going,
            jobs: settings.jobs,
        })
    }
}

/// How this run uses the response cache: the flags, else config `cache`; `None`: not at all.
fn cache_mode(flags: &QueryFlags, settings: &Settings) -> Option<CacheMode> {
    let config = || configured(settings, ConfigKey::Cache, settings.cache.enabled);
    if flags.refresh {
        Some(CacheMode::Refresh)
    } else if flags.cache.resolve(["--cache", "--no-cache"], config).value {
        Some(CacheMode::Use)
    } else {
        None
    }
}

/// A setting as the config file (or the default) gave it, with its source.
fn configured(settings: &Settings, key: ConfigKey, value: bool) -> Sourced<bool> {
    let source = settings.sources.get(&key).cloned();
    Sourced {
        value,
        source: source.unwrap_or(Source::Default),
    }
}

/// The official-account items asked, each once, in the order given; all four by default (none
/// when the official account is not asked).
fn items(endpoints: &[Endpoint], asked: &[SocialMetric]) -> Vec<SocialMetric> {
    if !endpoints.contains(&Endpoint::OfficialAccount) {
        return Vec::new();
    }
    if asked.is_empty() {
        return SocialMetric::ALL.to_vec();
    }
    each_once(asked)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};
    use crate::model::{parse_date, DayRange};

    fn fees_flags(line: &str) -> QueryFlags {
        let cli = Cli::try_parse_from(line.split(' ')).unwrap();
        match cli.command {
            Command::Fees(args) => QueryFlags::new(&args, &[Endpoint::Fees]),
            _ => unreachable!("a fees command line"),
        }
    }

    #[test]
    fn a_merge_by_month_asks_from_the_first_day_of_the_month() {
        let today = parse_date("2024-06-01").unwrap();
        let line = "chain-metrics fees -c eth -s 2024-03-10 -e 2024-03-20 --merge -o f.csv --by";
        let merged = fees_flags(&format!("{line} month"));
        let asked = range::from_flags(&merged.days, merged.output.by, today).unwrap();
        let start = parse_date("2024-03-01").unwrap();
        assert_eq!(range::widened(&merged, asked), DayRange { start, ..asked });
        let daily = fees_flags(&format!("{line} day"));
        assert_eq!(range::widened(&daily, asked), asked);
    }

    #[test]
    fn items_are_asked_once_in_the_order_given_and_all_by_default() {
        use SocialMetric::{Quote, Reply, Tweet};
        let social = [Endpoint::OfficialAccount];
        assert_eq!(items(&social, &[Tweet, Reply, Tweet]), [Tweet, Reply]);
        assert_eq!(items(&social, &[]), SocialMetric::ALL);
        assert_eq!(items(&[Endpoint::Fees], &[Quote]), []);
    }

    #[test]
    fn a_flag_pair_over_a_config_key_names_the_flag_given() {
        let strict = fees_flags("chain-metrics fees -c eth --last 3 --no-strict").strict;
        let config = || Sourced {
            value: true,
            source: Source::File,
        };
        let off = strict.resolve(["--strict", "--no-strict"], config);
        assert_eq!(
            (off.value, off.source),
            (false, Source::Flag("--no-strict"))
        );
        let neither = fees_flags("chain-metrics fees -c eth --last 3").cache;
        let on = neither.resolve(["--cache", "--no-cache"], config);
        assert_eq!((on.value, on.source), (true, Source::File));
    }
}
