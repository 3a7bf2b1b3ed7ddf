//! The texts shown after the options in `--help` (`after_help`): examples and notes, one const
//! per command, kept apart so that rustfmt formats the clap definitions around them.

/// `Examples:` and the command lines under it, each on its own line indented two spaces.
macro_rules! examples {
    ($($line:literal),+ $(,)?) => {
        concat!("Examples:", $("\n  ", $line),+)
    };
}

/// The usage line of a query command, as clap writes it in `--help`, and used for its errors
/// too: clap's own error usage lists the flags given, so a run with `--end` alone showed
/// `--end <DAY>` as if it were required.
macro_rules! query_usage {
    ($command:literal) => {
        concat!(
            "chain-metrics ",
            $command,
            " [OPTIONS] --chain <CHAIN> <--start <DAY>|--last <N>|--resume|--month \
            <YYYY-MM>|--quarter <YYYYQn>|--year <YYYY>>"
        )
    };
}

// The one-line descriptions (`about`) the top level and the query commands are built with, in
// the whole command tree and in the one a query needs (`needed.rs`) alike.
pub(super) const ABOUT: &str =
    "Daily fees, active users and official social-media activity of six blockchains";
pub(super) const FEES_ABOUT: &str = "Daily transaction fees collected on a chain";
pub(super) const USERS_ABOUT: &str = "Daily active users on a chain";
pub(super) const SOCIAL_ABOUT: &str = "Daily activity of the chain's official social-media account";
pub(super) const REPORT_ABOUT: &str =
    "Fees, active users and social activity side by side, one row per date";

pub(super) const CLI: &str = concat!(
    "\
The API key comes from CHAIN_METRICS_API_KEY or the config file, never from a flag.
",
    examples!(
        "chain-metrics --sandbox fees --chain eth --last 7",
        "chain-metrics users --chain eth,arb --start 2024-01-01 --end 2024-01-31 > users.csv"
    )
);

pub(super) const FEES: &str = concat!(
    "\
Derived measures: exact decimals, after the metric they come from; a gap stays a gap
(the same for users, social and report, with --by and --wide):
  --change       fees_change, fees_change_pct  fees -c eth --last 30 --change
  --rolling N    fees_rolling_N                fees -c eth --last 90 --rolling 7
  --cumulative   fees_cumulative               fees -c eth -s 2024-01-01 --cumulative
  --share        fees_share_pct                fees -c all --last 12w --by week --share
  --sort, --top  the 10 largest rises of 90 days:
                 fees -c eth --last 90 --change --sort fees_change:desc --top 10

",
    examples!(
        "chain-metrics fees --chain eth --last 7",
        "chain-metrics fees -c eth,arb -s 2024-01-01 -e 2024-01-31 -f csv > fees.csv",
        "chain-metrics fees -c eth,arb,base -s 2024-01-01 -e 2024-12-31 --by month --wide"
    )
);

pub(super) const USERS: &str = examples!(
    "chain-metrics users --chain base --last 4w",
    "chain-metrics users --chain all --start 2024-06-01 --format json",
    "chain-metrics users --chain base --last 12w --by week"
);

pub(super) const SOCIAL: &str = examples!(
    "chain-metrics social --chain op --last 30",
    "chain-metrics social -c eth -i tweet,reply -s 2024-01-01 -e 2024-01-31"
);

pub(super) const REPORT: &str = concat!(
    "\
-f svg draws a chart per metric and a line per chain; -f html makes one page that needs no
network: the charts, the gaps and warnings, and the table of exact values.

",
    examples!(
        "chain-metrics report --chain eth --last 7",
        "chain-metrics report -c eth --last 30 -i tweet --per-user --decimals 4",
        "chain-metrics report -c all --last 90 --by week -f html > report.html"
    )
);

pub(super) const CHAINS: &str =
    examples!("chain-metrics chains", "chain-metrics chains --format json");

pub(super) const RENDER: &str = concat!(
    "\
Reads the file as --merge does and sends no request: no key, no network. The picture is
the query's own; with a days column (--by) the period is told from the dates.

",
    examples!(
        "chain-metrics render fees.csv -f chart",
        "chain-metrics render fees.csv -f svg > fees.svg",
        "chain-metrics render report.sqlite -f html > report.html"
    )
);

pub(super) const AUTH: &str = examples!(
    "chain-metrics auth login",
    "chain-metrics auth status --format json",
    "chain-metrics auth logout --profile ci"
);

pub(super) const CONFIG: &str = examples!(
    "chain-metrics config set base_url https://metrics.example.com/v2",
    "chain-metrics config set timeout 60 --profile staging",
    "chain-metrics config show"
);

pub(super) const CACHE: &str = concat!(
    "\
Queries use it with --cache (or config cache = true); a day is settled, and served from it,
once it is cache_settle_days (default 7) or more days before today (UTC).

",
    examples!(
        "chain-metrics cache stats",
        "chain-metrics cache clear --before 2020-01-01"
    )
);

pub(super) const SANDBOX: &str = concat!(
    "\
The global --method post|get makes the sandbox accept only that method (405 for the other).
Without --key it makes up a key and prints the `export` line that points the other commands at it.
Every data answer carries the header X-Chain-Metrics-Data: synthetic, so that a client's
pictures, and the exports it writes, say the data is synthetic.

",
    examples!(
        "chain-metrics sandbox --listen 127.0.0.1:8080 --key test-key",
        "chain-metrics sandbox --listen 127.0.0.1:0 --latency 200 --fail-rate 0.1"
    )
);

pub(super) const COMPLETIONS: &str = concat!(
    "\
zsh loads completion functions from the folders on $fpath, so add one before compinit runs:
  mkdir -p ~/.zfunc && chain-metrics completions zsh > ~/.zfunc/_chain-metrics
  echo 'fpath=(~/.zfunc $fpath); autoload -U compinit; compinit' >> ~/.zshrc

",
    examples!(
        "chain-metrics completions bash > ~/.local/share/bash-completion/completions/chain-metrics",
        "chain-metrics completions fish > ~/.config/fish/completions/chain-metrics.fish"
    )
);

pub(super) const MAN: &str = concat!(
    "\
Every page, into the share/man beside the folder the binary is in (man looks there, no MANPATH):
  chain-metrics man --dir ~/.cargo/share/man/man1      (after cargo install)

",
    examples!(
        "chain-metrics man fees > chain-metrics-fees.1",
        "chain-metrics man auth login"
    )
);

pub(super) const AUTH_LOGIN: &str = examples!(
    "chain-metrics auth login",
    "printf '%s\\n' \"$KEY\" | chain-metrics auth login --profile ci --no-verify"
);

pub(super) const AUTH_STATUS: &str = examples!(
    "chain-metrics auth status",
    "chain-metrics auth status --format json --no-verify"
);

pub(super) const AUTH_LOGOUT: &str = examples!(
    "chain-metrics auth logout",
    "chain-metrics auth logout --profile ci"
);

pub(super) const CONFIG_PATH: &str = examples!(
    "chain-metrics config path",
    "chain-metrics config path --config ./team.toml"
);

pub(super) const CONFIG_SHOW: &str = examples!(
    "chain-metrics config show",
    "chain-metrics config show --profile staging"
);

pub(super) const CONFIG_GET: &str = examples!(
    "chain-metrics config get base_url",
    "chain-metrics config get timeout --profile staging"
);

pub(super) const CONFIG_SET: &str = examples!(
    "chain-metrics config set base_url https://metrics.example.com/v2",
    "chain-metrics config set method get --profile staging"
);

pub(super) const CONFIG_PROFILES: &str = examples!(
    "chain-metrics config profiles",
    "chain-metrics config profiles --profile staging"
);

pub(super) const CONFIG_UNSET: &str = examples!(
    "chain-metrics config unset timeout",
    "chain-metrics config unset retries --profile staging"
);

pub(super) const CACHE_PATH: &str = examples!(
    "chain-metrics cache path",
    "XDG_CACHE_HOME=/var/cache/ci chain-metrics cache path"
);

pub(super) const CACHE_STATS: &str = examples!(
    "chain-metrics cache stats",
    "chain-metrics cache stats --format json"
);

pub(super) const CACHE_CLEAR: &str = examples!(
    "chain-metrics cache clear",
    "chain-metrics cache clear --before 2020-01-01"
);

pub(super) const FEES_USAGE: &str = query_usage!("fees");
pub(super) const USERS_USAGE: &str = query_usage!("users");
pub(super) const SOCIAL_USAGE: &str = query_usage!("social");
pub(super) const REPORT_USAGE: &str = query_usage!("report");
