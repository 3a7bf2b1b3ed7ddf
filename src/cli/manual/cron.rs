//! The tool page's section "Running it from cron and systemd": the crontab line, the systemd
//! units of contrib/systemd/ (included as they are, so the page cannot drift from them) and
//! what each exit code means for an unattended job. docs/cron-and-systemd.md shows the same.

use roff::{bold, roman, Roff};

/// The crontab line; docs/cron-and-systemd.md holds it too.
pub const CRONTAB: &str = "30 1 * * *  chain-metrics --quiet fees --chain eth,arb --last 30 \
    --output \"$HOME/chain-metrics/fees.csv\" --merge --resume --strict";

/// The unit files as (name, text).
pub const UNITS: [(&str, &str); 2] = [
    (
        "chain-metrics-export.service",
        include_str!("../../../contrib/systemd/chain-metrics-export.service"),
    ),
    (
        "chain-metrics-export.timer",
        include_str!("../../../contrib/systemd/chain-metrics-export.timer"),
    ),
];

/// What each exit code means for the job, in the order a reader meets them.
const JOB_EXITS: &[(&str, &str)] = &[
    (
        "0",
        "The file holds every asked day; or it was up to date already and nothing was sent.",
    ),
    (
        "10",
        "With --strict: the file was written with everything that arrived, but values are \
        missing (the warning names them). Fill them in later with a run over their dates with \
            --merge.",
    ),
    (
        "2, 3",
        "The job itself is wrong: a flag, or the config file or key as the job's user sees it \
        (cron runs with a minimal environment: HOME and a short PATH). Nothing was sent.",
    ),
    (
        "4",
        "The key was rejected: renew it with chain-metrics auth login.",
    ),
    (
        "5, 8",
        "The service refused the request, or answered what is not documented: the file is as \
        it was; see the error line.",
    ),
    (
        "6, 7",
        "The service or the network failed after the retries: the file is as it was, and the \
        next run fetches those days too.",
    ),
    (
        "9",
        "The file cannot be written, or it has other columns: it is as it was.",
    ),
    (
        "129, 130, 143",
        "Stopped by a signal (systemctl stop, a shutdown): no partial file is left; \
        the next run catches up.",
    ),
    (
        "1",
        "A bug: please report it with the output of chain-metrics --version.",
    ),
];

pub(super) fn section(roff: &mut Roff) {
    roff.control("SH", ["RUNNING IT FROM CRON AND SYSTEMD"]);
    roff.text([roman(
        "One command line serves the first run and every later one: with --merge --resume it \
            fetches the days after the newest date already in the file (--last 30 only while the \
                file has no rows), and --strict makes missing values exit 10, so a job that lost \
                    data fails where cron or systemd shows it. --quiet keeps stderr, and so \
                        cron's mail, empty unless something needs a look. The key comes from the \
                            config file, mode 0600 as chain-metrics auth login writes it, or from \
                                its api_key_command: never from the crontab or the unit file.",
    )]);
    roff.control("PP", []).text([roman(
        "A crontab line (crontab -e); the days are UTC days, so run it after midnight UTC:",
    )]);
    block(roff, &format!("# m h dom mon dow  command\n{CRONTAB}"));
    roff.control("PP", []).text([roman(
        "With systemd, a user service and a timer (contrib/systemd/ in the source tree, \
            /usr/share/doc/chain-metrics/examples/ in the Debian package); Persistent=true runs a \
                day missed while the machine was off at the next boot:",
    )]);
    block(
        roff,
        "cp chain-metrics-export.service chain-metrics-export.timer \
        ~/.config/systemd/user/\nsystemctl --user daemon-reload\nsystemctl --user enable --now \
            chain-metrics-export.timer\nloginctl enable-linger \"$USER\"    # runs also while you \
                are logged out",
    );
    for (name, text) in UNITS {
        roff.control("PP", []).text([bold(name)]);
        block(roff, text.trim_end());
    }
    roff.control("PP", [])
        .text([roman("What each exit code means for the job:")]);
    for (codes, meaning) in JOB_EXITS {
        roff.control("TP", [])
            .text([bold(*codes)])
            .text([roman(*meaning)]);
    }
}

/// Lines shown as they are, indented.
fn block(roff: &mut Roff, text: &str) {
    roff.control("RS", ["4"]).control("nf", []);
    for line in text.lines() {
        roff.text([roman(line)]);
    }
    roff.control("fi", []).control("RE", []);
}
