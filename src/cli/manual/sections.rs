//! The man-page sections clap knows nothing about: environment, files, exit status, examples,
//! reporting bugs.

use roff::{bold, italic, roman, Roff};

use crate::error::Exit;
use crate::settings::{ENV_BASE_URL, ENV_CA_BUNDLE, ENV_CONFIG, ENV_KEY, ENV_PROFILE};

/// Every exit code of CLI.md §6 and what it means; the README's table is checked against it.
pub const EXIT_CODES: &[(u8, &str)] = &[
    (0, "success"),
    (Exit::Internal as u8, "internal error (a bug)"),
    (
        Exit::Usage as u8,
        "usage: bad flag, bad date, unknown chain or include, start after end",
    ),
    (
        Exit::Config as u8,
        "configuration: no API key, no base URL, unreadable or invalid config file",
    ),
    (
        Exit::KeyRejected as u8,
        "the service rejected the API key (401/403)",
    ),
    (
        Exit::RequestRejected as u8,
        "the service rejected the request (other 4xx)",
    ),
    (
        Exit::ServiceFailed as u8,
        "the service failed (5xx, or 429 after the retries)",
    ),
    (
        Exit::Network as u8,
        "network: cannot connect, timed out, body cut short (after the retries); a certificate \
            refused, the wrong scheme for the port, a proxy refusing (at once); a redirect to \
                another origin refused, or a redirect loop",
    ),
    (
        Exit::BadResponse as u8,
        "the service answered something that is not the documented shape (broken HTTP included: \
            headers too large, a bad Content-Length)",
    ),
    (
        Exit::Output as u8,
        "output: cannot write the file, or --merge found other columns or another --by period",
    ),
    (
        Exit::Incomplete as u8,
        "--strict (or config strict = true): the result lacks asked values, named in the warnings; \
            everything that arrived was written",
    ),
    (
        128 + 1,
        "hung up (SIGHUP); no partial output file is left",
    ),
    (
        Exit::Interrupted as u8,
        "interrupted (Ctrl-C, SIGINT); no partial output file is left",
    ),
    (
        128 + 15,
        "terminated (SIGTERM); no partial output file is left",
    ),
];

/// The environment variables the tool reads, and what for.
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        ENV_KEY,
        "The API key. There is no flag for it: a flag would show in ps(1) and in the shell \
            history.",
    ),
    (ENV_BASE_URL, "The service address, as --base-url."),
    (ENV_PROFILE, "The profile of the config file, as --profile."),
    (ENV_CONFIG, "The config file, as --config."),
    (
        ENV_CA_BUNDLE,
        "Extra CA certificates (a PEM file) to trust besides the platform's store, as --ca-bundle.",
    ),
    (
        "SSL_CERT_FILE, SSL_CERT_DIR",
        "Extra CA certificates (a PEM file; folders separated by colons), as curl and OpenSSL read \
            them; they add to the platform's store. A set SSL_CERT_FILE that cannot be read is an \
                error (exit 3).",
    ),
    (
        "HTTPS_PROXY, HTTP_PROXY, ALL_PROXY",
        "The proxy for https and http addresses, and for both; either letter case, lowercase \
            first, as curl reads them (HTTP_PROXY in capitals is ignored under CGI). An https \
                request goes through it as a CONNECT tunnel, so the proxy never sees the key. No \
                    scheme means http://, no port means 1080; socks proxies are not supported. A \
                        password in it is never printed.",
    ),
    (
        "NO_PROXY",
        "Hosts reached directly, comma-separated: * for all, a domain (with or without a leading \
            dot) and its subdomains, IP addresses and CIDR ranges. Loopback hosts (localhost, \
                127.0.0.0/8, ::1) and --sandbox never go through a proxy.",
    ),
    (
        "XDG_CONFIG_HOME",
        "Where the config folder is; HOME/.config when unset, on every Unix, macOS included.",
    ),
    (
        "XDG_CACHE_HOME",
        "Where the response cache's folder is, when absolute; HOME/.cache otherwise.",
    ),
    (
        "NO_COLOR",
        "When set and not empty, no colour (unless --color always).",
    ),
    ("CLICOLOR", "When 0, no colour."),
    (
        "CLICOLOR_FORCE",
        "When set and not 0, colour even when stdout or stderr is not a terminal.",
    ),
    (
        "TERM",
        "When dumb, nothing but text: no colour (unless --color always or CLICOLOR_FORCE asks \
            for it) and no progress line.",
    ),
    (
        "LC_ALL, LC_CTYPE, LANG",
        "The first one set names the locale: when it is not UTF-8 (the C locale, or none set), the \
            chart draws with ASCII instead of braille dots and tables with ASCII instead of \
                box-drawing lines. Dates and numbers are written the same in every locale.",
    ),
    (
        "SOURCE_DATE_EPOCH",
        "Seconds since 1970: the time an html page says it was made, instead of now, so that a \
            page can be made again byte for byte.",
    ),
];

pub(super) fn environment(roff: &mut Roff) {
    roff.control("SH", ["ENVIRONMENT"]);
    for (name, meaning) in ENVIRONMENT {
        roff.control("TP", [])
            .text([bold(*name)])
            .text([roman(*meaning)]);
    }
    roff.control("PP", []).text([roman(
        "Settings are taken, highest first, from the flag, the environment, the selected profile \
            of the config file, the top level of the config file, and the default. A \
                CHAIN_METRICS_* variable that is not UTF-8 text is an error naming it (exit 3), \
                    never taken as unset.",
    )]);
}

pub(super) fn files(roff: &mut Roff) {
    roff.control("SH", ["FILES"]);
    roff.control("TP", [])
        .text([italic("$XDG_CONFIG_HOME/chain-metrics/config.toml")])
        .text([roman(
            "The config file (~/.config/chain-metrics/config.toml by default), in TOML. Keys, at \
                the top level and in [profiles.NAME] tables: base_url, api_key, api_key_command, \
                    api_key_command_timeout, allow_http, ca_bundle (a PEM file of extra CA \
                        certificates, relative to the config file's folder), timeout, \
                            connect_timeout, retries, jobs, method, chunk_days, cache, \
                                cache_settle_days, strict; and the output defaults a query uses \
                                    where its flag is not given: format (for stdout; a file's \
                                    format follows its extension), color, decimals, chains (as \
                                    --chain takes them, e.g. \"eth,arb\"). An unknown key is an \
                                    error that names it and its line.",
        )]);
    roff.control("TP", [])
        .text([italic("$XDG_CACHE_HOME/chain-metrics/cache.sqlite3")])
        .text([roman(
            "The response cache (~/.cache/chain-metrics/cache.sqlite3 by default), used with \
                --cache or config cache = true: the values of settled days, each as the service \
                    wrote it, per base URL, endpoint, chain, metric and day; never the key. See \
                        chain-metrics-cache(1).",
        )]);
    roff.control("TP", [])
        .text([italic(".NAME.lock")])
        .text([roman(
        "Beside a file that --merge or a config edit changes, while it changes it: runs at the \
                same moment take turns under this lock. One that waits longer than --lock-timeout \
                    gives up, the file left as it was (exit 9, or 3 for the config file).",
    )]);
    roff.control("TP", [])
        .text([italic(".NAME.chain-metrics.XXXXXX.tmp")])
        .text([roman(
            "The new content of an --output or config file, renamed over it once complete. One \
                left by a killed run is removed by the next write to the same file.",
        )]);
}

/// Whose files are used, and the key kept out of core dumps: one paragraph each.
const SECURITY: [&str; 2] = [
    "Whose files are used, as OpenSSH's StrictModes decides: the config file, a script that \
        api_key_command names, a CA bundle (also SSL_CERT_FILE), the response cache, a --merge \
            file or a database, and a lock file are used only when they belong to you or to root, \
                no one else can write to them (no group or other write bit), and their folder is \
                    yours or root's and writable by no one else unless sticky (as /tmp is). \
                        Otherwise the run stops before any key command runs and before any \
                            request (exit 3 for settings, 9 for files; the cache is left aside \
                                with a warning), naming the file, its owner and mode, with a fix. \
                                    A FIFO, device or socket is read or written only when it is \
                                        yours or root's. A config file is read up to 1 MiB, a CA \
                                            bundle up to 4 MiB.",
    "A process holding the API key writes no core dump (its core limit is set to 0 and, on Linux, \
        it is not dumpable), as ssh-agent and gpg-agent do; the key, and a key in the base URL, \
            is masked in every message.",
];

pub(super) fn security(roff: &mut Roff) {
    roff.control("SH", ["SECURITY"]);
    for (i, paragraph) in SECURITY.iter().enumerate() {
        if i > 0 {
            roff.control("PP", []);
        }
        roff.text([roman(*paragraph)]);
    }
}

pub(super) fn exit_status(roff: &mut Roff) {
    roff.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in EXIT_CODES {
        roff.control("TP", [])
            .text([bold(code.to_string())])
            .text([roman(*meaning)]);
    }
    roff.control("PP", []).text([roman(
        "Every error is one line on stderr starting with error:, sometimes followed by a line \
            starting with hint: that says what to do; with --error-format json, one JSON object \
                (see MESSAGES AS JSON in chain-metrics(1)).",
    )]);
}

pub(super) fn examples(roff: &mut Roff, examples: &[String]) {
    if examples.is_empty() {
        return;
    }
    roff.control("SH", ["EXAMPLES"]);
    for (i, example) in examples.iter().enumerate() {
        // A paragraph break right after the heading is one mandoc warns about.
        if i > 0 {
            roff.control("PP", []);
        }
        roff.control("RS", ["4"])
            .control("nf", [])
            .text([roman(example.as_str())])
            .control("fi", [])
            .control("RE", []);
    }
}

/// Where a bug goes and what it needs: the three things that let someone else see it happen.
pub(super) fn reporting_bugs(roff: &mut Roff) {
    // Cargo.toml's `repository` is the one home of the project's address; none is set yet.
    let place = match env!("CARGO_PKG_REPOSITORY") {
        "" => "Report a bug where you got chain-metrics: the project's issue tracker, or your \
            distribution's for a packaged build."
            .to_owned(),
        repository => format!("Report a bug at {repository}/issues."),
    };
    roff.control("SH", ["REPORTING BUGS"]);
    roff.text([roman(place), roman(" Include:")]);
    for item in [
        "the output of chain-metrics --version (the version, commit and build date);",
        "the command as you ran it;",
        "what it printed with -v added (the key is masked in it, as in every message), and its \
            exit status.",
    ] {
        roff.control("IP", ["\\(bu", "2"]).text([roman(item)]);
    }
    roff.control("PP", []).text([roman(
        "An internal error (exit 1) is always a bug, even when the input was wrong.",
    )]);
}

pub(super) fn see_also(roff: &mut Roff, name: &str, parents: &[String], cmd: &clap::Command) {
    let mut pages: Vec<String> = (1..=parents.len())
        .map(|n| parents[..n].join("-"))
        .collect();
    pages.extend(super::visible_subcommands(cmd).map(|sub| format!("{name}-{}", sub.get_name())));
    if pages.is_empty() {
        return;
    }
    roff.control("SH", ["SEE ALSO"]);
    let last = pages.len() - 1;
    for (i, page) in pages.iter().enumerate() {
        let separator = if i == last { "" } else { "," };
        roff.control("BR", [page.as_str(), &format!("(1){separator}")]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_exit_code_is_documented_once() {
        let all = [
            Exit::Internal,
            Exit::Usage,
            Exit::Config,
            Exit::KeyRejected,
            Exit::RequestRejected,
            Exit::ServiceFailed,
            Exit::Network,
            Exit::BadResponse,
            Exit::Output,
            Exit::Incomplete,
            Exit::Interrupted,
        ];
        for exit in all {
            // Exhaustive on purpose: a new exit code stops the build here until it is listed.
            match exit {
                Exit::Internal
                | Exit::Usage
                | Exit::Config
                | Exit::KeyRejected
                | Exit::RequestRejected
                | Exit::ServiceFailed
                | Exit::Network
                | Exit::BadResponse
                | Exit::Output
                | Exit::Incomplete
                | Exit::Interrupted => {}
            }
            let listed = EXIT_CODES.iter().filter(|(c, _)| *c == exit as u8).count();
            assert_eq!(listed, 1, "{exit:?}");
        }
        // 0, the failures, and the signals other than Ctrl-C (129 SIGHUP, 143 SIGTERM).
        assert_eq!(
            EXIT_CODES.len(),
            all.len() + 3,
            "0, the failures, 129 and 143"
        );
    }
}
