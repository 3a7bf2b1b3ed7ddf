//! The completion candidates that depend on the rest of the line typed: the chains not yet
//! given after a comma, the columns `--sort` can name (the header the line as typed would
//! write), the values of the key `config set` was given, and the forms `--last` takes.

use std::ffi::{OsStr, OsString};

use clap::{FromArgMatches, ValueEnum};
use clap_complete::engine::{PathCompleter, ValueCompleter};
use clap_complete::CompletionCandidate;

use super::{Cli, Command, QueryArgs};
use crate::analysis::{Analysis, Layout, Measures, Naming, Shape};
use crate::fetched::Plan;
use crate::model::{expand_chains, today_utc, Chain, ChainArg, DayRange, Endpoint, SocialMetric};
use crate::render::{Format, Wide};
use crate::settings::{ColorChoice, ConfigKey, MethodChoice};

/// The words of the line being completed (the program's name first) and the index of the one
/// under the cursor: after `--` in the binary's arguments, the index as the shell script hands
/// it over (bash, zsh, elvish), else the last word (fish, powershell), as clap_complete reads it.
fn line() -> (Vec<String>, usize) {
    let words: Vec<String> = std::env::args_os()
        .skip_while(|w| w != "--")
        .skip(1)
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let index = std::env::var("_CLAP_COMPLETE_INDEX")
        .ok()
        .and_then(|i| i.parse().ok())
        .unwrap_or(words.len().saturating_sub(1));
    (words, index)
}

/// The chains named on the line so far: every `-c`/`--chain` value but the part of the word
/// under the cursor after its last comma (the one being typed).
fn chains_given(words: &[String], index: usize) -> Vec<Chain> {
    let mut given = Vec::new();
    for (at, word) in words.iter().enumerate() {
        let value = match word.as_str() {
            "-c" | "--chain" => None,
            w => w.strip_prefix("--chain=").or(w.strip_prefix("-c")),
        };
        let value = match (value, word.as_str()) {
            (Some(value), _) if at != index => value.to_owned(),
            (None, "-c" | "--chain") if at + 1 != index => match words.get(at + 1) {
                Some(next) => next.clone(),
                None => continue,
            },
            (None, "-c" | "--chain") => {
                before_last_comma(words.get(index).map_or("", String::as_str)).to_owned()
            }
            _ => continue,
        };
        let items = value
            .split(',')
            .filter_map(|item| ChainArg::parse(item).ok());
        given.extend(expand_chains(&items.collect::<Vec<_>>()));
    }
    given
}

/// `eth,arb,po` → `eth,arb`; no comma: nothing.
fn before_last_comma(word: &str) -> &str {
    word.rsplit_once(',').map_or("", |(before, _)| before)
}

/// `--chain` after what is typed: the chains not named yet (names, aliases, ids); `all` only
/// as the first chain of the line, never after a comma.
pub(super) fn chain_list(current: &OsStr) -> Vec<CompletionCandidate> {
    let (words, index) = line();
    let given = chains_given(&words, index);
    let first = given.is_empty() && !words.get(index).is_some_and(|w| w.contains(','));
    chain_offers(&current.to_string_lossy(), &given, first)
}

/// `--file-chain`: one chain (names, aliases and chain ids; `all` is no chain of a file).
pub(super) fn chains(current: &OsStr) -> Vec<CompletionCandidate> {
    chain_offers(&current.to_string_lossy(), &[], false)
}

/// The chains offered for the item `typed`, less those `given`, with `all` when `first`; in
/// upper case if the user started so.
pub(super) fn chain_offers(typed: &str, given: &[Chain], first: bool) -> Vec<CompletionCandidate> {
    let upper = typed.chars().any(|c| c.is_ascii_uppercase());
    let mut offers = Vec::new();
    for chain in Chain::ALL.into_iter().filter(|c| !given.contains(c)) {
        let id = chain.evm_id().to_string();
        offers.push((chain.name().to_ascii_lowercase(), format!("chain id {id}")));
        for alias in chain.aliases() {
            offers.push(((*alias).to_owned(), chain.name().to_owned()));
        }
        offers.push((id, chain.name().to_owned()));
    }
    if first {
        offers.push(("all".to_owned(), "every chain".to_owned()));
    }
    offers
        .into_iter()
        .map(|(value, help)| match upper {
            true => (value.to_ascii_uppercase(), help),
            false => (value, help),
        })
        .filter(|(value, _)| value.starts_with(typed))
        .map(|(value, help)| CompletionCandidate::new(value).help(Some(help.into())))
        .collect()
}

/// `--last`: a number typed gets each unit after it; before that, the common spans.
pub(super) fn last_forms(current: &OsStr) -> Vec<CompletionCandidate> {
    let typed = current.to_string_lossy();
    let offer =
        |value: String, help: &'static str| CompletionCandidate::new(value).help(Some(help.into()));
    if !typed.is_empty() && typed.chars().all(|c| c.is_ascii_digit()) {
        let units = [
            ("", "days"),
            ("d", "days"),
            ("w", "weeks (whole ISO weeks with --by week)"),
            ("m", "whole months"),
            ("q", "whole quarters"),
            ("y", "whole years"),
        ];
        return units
            .iter()
            .map(|(unit, help)| offer(format!("{typed}{unit}"), help))
            .collect();
    }
    let common = [
        ("7", "the last 7 days"),
        ("30", "the last 30 days"),
        ("90", "the last 90 days"),
        ("365", "the last 365 days"),
        ("4w", "the last 4 weeks"),
        ("1m", "the last whole month"),
        ("3m", "the last 3 whole months"),
        ("1q", "the last whole quarter"),
        ("1y", "the last whole year"),
    ];
    common
        .iter()
        .filter(|(value, _)| value.starts_with(typed.as_ref()))
        .map(|(value, help)| offer((*value).to_owned(), help))
        .collect()
}

/// `config set KEY <TAB>`: the values that key takes, where they are a choice (a file's path
/// for `ca_bundle`, chains as `--chain` takes them); nothing for free text and numbers.
pub(super) fn config_values(current: &OsStr) -> Vec<CompletionCandidate> {
    let (words, index) = line();
    let key = index.checked_sub(1).and_then(|at| words.get(at));
    let Some(key) = key.and_then(|k| ConfigKey::from_name(k)) else {
        return Vec::new();
    };
    let typed = current.to_string_lossy();
    let names: Vec<String> = match key {
        ConfigKey::Method => names_of(MethodChoice::value_variants()),
        ConfigKey::Color => names_of(ColorChoice::value_variants()),
        ConfigKey::Format => names_of(&Format::all_that(|c| !c.file_only)),
        ConfigKey::AllowHttp | ConfigKey::Cache | ConfigKey::Strict => {
            vec!["true".into(), "false".into()]
        }
        ConfigKey::CaBundle => return PathCompleter::file().complete(current),
        ConfigKey::Chains => return chains_value(&typed),
        _ => Vec::new(),
    };
    names
        .into_iter()
        .filter(|name| name.starts_with(typed.as_ref()))
        .map(CompletionCandidate::new)
        .collect()
}

/// `config set chains eth,a<TAB>`: as after `--chain`, the whole word offered.
fn chains_value(typed: &str) -> Vec<CompletionCandidate> {
    let (before, item) = match typed.rsplit_once(',') {
        Some((before, item)) => (Some(before), item),
        None => (None, typed),
    };
    let given: Vec<ChainArg> = before
        .into_iter()
        .flat_map(|b| b.split(','))
        .filter_map(|item| ChainArg::parse(item).ok())
        .collect();
    chain_offers(item, &expand_chains(&given), before.is_none())
        .into_iter()
        .map(|c| match before {
            Some(before) => {
                let value = format!("{before},{}", c.get_value().to_string_lossy());
                CompletionCandidate::new(value).help(c.get_help().cloned())
            }
            None => c,
        })
        .collect()
}

fn names_of<T: ValueEnum>(values: &[T]) -> Vec<String> {
    values
        .iter()
        .filter_map(|v| Some(v.to_possible_value()?.get_name().to_owned()))
        .collect()
}

/// `--sort`: the columns of the header the line as typed would write (its command, chains,
/// includes, measures, `--by`, `--wide` and format), each also with `:desc` once a `:` is typed.
pub(super) fn sort_columns(current: &OsStr) -> Vec<CompletionCandidate> {
    let (mut words, index) = line();
    // The line without `--sort` and the value being typed, which need not parse yet.
    words.truncate(index.saturating_sub(1).min(words.len()));
    let typed = current.to_string_lossy();
    let header = header_of(&words).unwrap_or_default();
    let (column, direction) = match typed.rsplit_once(':') {
        Some((column, direction)) => (column, Some(direction)),
        None => (typed.as_ref(), None),
    };
    match direction {
        None => header
            .into_iter()
            .filter(|name| name.starts_with(column))
            .map(CompletionCandidate::new)
            .collect(),
        Some(direction) => ["asc", "desc"]
            .iter()
            .filter(|d| d.starts_with(direction) && header.iter().any(|h| h == column))
            .map(|d| CompletionCandidate::new(format!("{column}:{d}")))
            .collect(),
    }
}

/// The header a query command line would write, read off the same [`Shape`] the run builds.
fn header_of(words: &[String]) -> Option<Vec<String>> {
    let command = super::completion::command_to_complete().ignore_errors(true);
    let matches = command
        .try_get_matches_from(words.iter().map(OsString::from))
        .ok()?;
    let cli = Cli::from_arg_matches(&matches).ok()?;
    let (args, endpoints, includes) = match &cli.command {
        Command::Fees(args) => (args, vec![Endpoint::Fees], Vec::new()),
        Command::Users(args) => (args, vec![Endpoint::ActiveUsers], Vec::new()),
        Command::Social(s) => (
            &s.query,
            vec![Endpoint::OfficialAccount],
            s.includes.clone(),
        ),
        Command::Report(s) => (&s.query, Endpoint::ALL.to_vec(), s.includes.clone()),
        _ => return None,
    };
    let chains = match expand_chains(&args.chains) {
        none if none.is_empty() => vec![Chain::Ethereum],
        chains => chains,
    };
    let includes = match includes.is_empty() && endpoints.contains(&Endpoint::OfficialAccount) {
        true => SocialMetric::ALL.to_vec(),
        false => includes,
    };
    let today = today_utc();
    let naming = match endpoints.as_slice() {
        [Endpoint::Fees] | [Endpoint::ActiveUsers] => Naming::Chain,
        _ => Naming::ChainAndMetric,
    };
    let plan = Plan {
        endpoints,
        chains,
        range: DayRange {
            start: today,
            end: today,
        },
        includes,
        chunk_days: None,
    };
    let shape = Shape::new(analysis(args), args.by, args.summary, layout(args, naming));
    Some(
        shape
            .columns(&plan.dataset(Vec::new()), &plan.chains)
            .header(),
    )
}

/// The measures the line asks.
fn analysis(args: &QueryArgs) -> Analysis {
    let a = &args.analysis;
    Analysis {
        measures: Measures {
            change: a.change,
            rolling: a.rolling,
            cumulative: a.cumulative,
            share: a.share,
            per_user: a.per_user,
            ..Measures::default()
        },
        sort: None,
        top: None,
        per_day: a.per_day,
    }
}

/// The layout the line's format gives the rows (the output's rule: `Format::can().wide`).
fn layout(args: &QueryArgs, naming: Naming) -> Layout {
    let format = args.format.unwrap_or(Format::Csv);
    Layout {
        steps: format == Format::Chart,
        wide: match format.can().wide {
            Wide::Asked => args.wide.then_some(naming),
            Wide::Always => Some(naming),
            Wide::Refused => None,
        },
        chain_column: format == Format::Sqlite || format == Format::Postgres,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of completion candidates, as the shell gets them.
    fn values(candidates: Vec<CompletionCandidate>) -> Vec<String> {
        candidates
            .iter()
            .map(|c| c.get_value().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn chain_candidates_follow_the_case_typed() {
        assert_eq!(values(chains(OsStr::new("b"))), ["bsc", "bnb", "base"]);
        assert_eq!(values(chains(OsStr::new("B"))), ["BSC", "BNB", "BASE"]);
        assert_eq!(values(chains(OsStr::new("4"))), ["42161"]);
        assert_eq!(chains(OsStr::new("")).len(), 6 * 2 + 6);
    }

    /// The words of a command line, as the shell hands them to the completer.
    fn words(line: &str) -> Vec<String> {
        shlex::split(line).expect("a line the shell can split")
    }

    #[test]
    fn the_chains_given_are_every_chain_flag_but_the_item_being_typed() {
        let line = words("chain-metrics fees -c 1 --chain=op fees --chain arb,ba");
        assert_eq!(
            chains_given(&line, 7),
            [Chain::Ethereum, Chain::Optimism, Chain::Arbitrum]
        );
        // The word being typed is past the end (zsh's empty word after `-c `).
        assert_eq!(chains_given(&words("chain-metrics fees -c"), 3), []);
        assert_eq!(chains_given(&words("x -c all -c"), 4), Chain::ALL);
    }

    #[test]
    fn all_is_offered_first_only_and_given_chains_never() {
        assert_eq!(
            values(chain_offers("a", &[], true)),
            ["arbitrum", "arb", "all"]
        );
        assert_eq!(
            values(chain_offers("a", &[Chain::Arbitrum], false)),
            [""; 0]
        );
        assert_eq!(values(chains_value("eth,a")), ["eth,arbitrum", "eth,arb"]);
        assert_eq!(values(chains_value("eth,arb,")).len(), 4 * 3);
    }

    #[test]
    fn last_offers_units_after_a_number() {
        let forms = values(last_forms(OsStr::new("2")));
        assert_eq!(forms, ["2", "2d", "2w", "2m", "2q", "2y"]);
        for form in forms.iter().chain(&values(last_forms(OsStr::new("")))) {
            assert!(crate::model::parse_span(form).is_ok(), "{form}");
        }
    }
}
