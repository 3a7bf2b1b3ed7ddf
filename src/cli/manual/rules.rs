//! The DETAILS section of the query commands' pages (fees, users, social, report): what each
//! option does in full. docs/exports.md holds the guides by task and leaves the rules here, as
//! ripgrep's GUIDE.md stands beside rg.1.

use roff::{bold, roman, Roff};

/// One entry: the argument it is about (the entry shows only on the page of a command that has
/// it), its heading, and its paragraphs.
struct Rule {
    arg: &'static str,
    term: &'static str,
    text: &'static [&'static str],
}

const RULES: &[Rule] = &[
    Rule {
        arg: "chains",
        term: "-c, --chain",
        text: &[
            "A name (ethereum), an alias (eth, arb, bnb, op, matic or pol) or an EVM chain id \
                (1, 42161, 56, 10, 8453, 137), in any case; comma-separated or repeated; all for \
                every chain. One request per chain, run concurrently (--jobs). A mistyped chain, \
                include, period or format gets a tip: with the closest value (-c etherium: \
                ethereum), and an empty item (-c polygon,) is named as a stray comma. Periods, \
                formats, methods and shells are taken in any case too (--by QUARTER, -f CSV).",
        ],
    },
    Rule {
        arg: "start",
        term: "-s, --start, -e, --end, --last, --month, --quarter, --year",
        text: &[
            "Days are YYYY-MM-DD, today or yesterday (UTC). The end is inclusive and defaults \
                to yesterday, the last complete UTC day. --last N (30, 30d, 4w) instead of \
                --start; --since is another name for --start (as in git log and gh). Calendar \
                ranges: -s 2024-03 is the month's first day (and -e 2024-03 its last); --month \
                2024-03, --quarter 2024Q1 and --year 2024 are their whole days; --last 3m, \
                --last 2q and --last 1y are whole months, quarters or years ending with the last \
                complete one on or before the end (run on 2024-05-15, --last 3m is February to \
                April). With --by week, --last 4w is the four complete ISO weeks (Monday to \
                Sunday) before the end; without it, 28 days. Other forms are usage errors that \
                name the accepted ones. Days run from year 1 to 9999: a day outside, given or \
                computed (-e 0001-01-02 --last 5), is a usage error and nothing is sent. An end \
                after today is allowed, with a warning (the service has no data for days to \
                come).",
        ],
    },
    Rule {
        arg: "by",
        term: "--by day|week|month|quarter|year",
        text: &[
            "One row per period (and chain) instead of one per day. date is the period's \
                first day (the Monday of an ISO week, 2024-04-01 for Q2), so files stay \
                sortable. Fees and the social counts are summed; active_users becomes \
                active_users_avg, the mean over the days that have a value (a sum of daily \
                actives counts no real users), rounded half to even. A days column after chain \
                counts the days of the period that had any value, so a partial period (the \
                range's edges, a gap) shows. The sums are exact decimals (0.1 + 0.2 is 0.3, \
                31-digit values add up to the last digit), within the number bound below. --by \
                day (the default) is the daily output unchanged.",
        ],
    },
    Rule {
        arg: "includes",
        term: "-i, --include",
        text: &[
            "reply, retweet, tweet, quote, in the column order you want. All four by default, \
                and always sent explicitly, so columns never depend on the service's default.",
        ],
    },
    Rule {
        arg: "format",
        term: "-f, --format",
        text: &[
            "table (the default on a terminal): numbers with digit groups, aligned on the \
                decimal point; a table wider than the terminal wraps into blocks of columns, \
                each with the dates repeated, and when even one column is too wide a note \
                suggests -f csv | less -S. csv (the default otherwise), tsv, json (one array), \
                ndjson (one object a line), markdown.",
            "chart: a line chart in the terminal, one series per chain or metric, as wide as \
                the terminal (80 columns otherwise); value labels never show digits a float does \
                not hold (past 15 significant digits they are zeros). Where the locale speaks \
                UTF-8 (LC_ALL, else LC_CTYPE, else LANG names UTF-8 or utf8) the lines are drawn \
                in braille dots, 2 by 4 to a character cell, each series in its colour; with \
                another locale, with NO_COLOR, into a file by -o, and for several series without \
                colour (--color never, or a pipe) they are drawn in plain characters, one mark \
                per series. A terminal too narrow for the value labels beside one date (20-odd \
                columns) is refused with exit 2, before anything is drawn.",
            "svg: one self-contained picture, a panel per metric on its own scale from zero, \
                a line per chain (each chain keeps its colour from a colour-blind-safe palette), \
                the periods' first days on the x axis, gaps as breaks in the line, each point's \
                exact value and date as hover text; the same input gives the same bytes. html: \
                one page that needs no network or script: the query, the charts, the gaps and \
                warnings, and the table of exact values (the numbers csv writes), light or dark \
                as the system is, and fit to print; the time it was made is now, or \
                SOURCE_DATE_EPOCH. svg and html refuse --wide (exit 2).",
        ],
    },
    Rule {
        arg: "output",
        term: "-o, --output FILE",
        text: &[
            "The file is written atomically: a temp file in the same folder, flushed, then \
                renamed, so a failed or killed run leaves the old file as it was. Without \
                --format the extension decides, in any case: .csv, .tsv, .json, .ndjson or \
                .jsonl, .md, .svg, .html or .htm, .sqlite or .db; csv without an extension or \
                with .txt; another extension (.png) is refused (exit 2), never filled with csv.",
            "A symlink is written where it points (it stays a link; a loop is refused), \
                except a link that neither you nor root own in a folder someone else can write \
                (/tmp, a team's root:team 2775 folder, another user's folder; sticky or not): \
                that one is refused (exit 9, before any request), as is another user's file at \
                FILE (naming its owner); see SECURITY. A read-only file is refused rather than \
                replaced (exit 9); so is a folder that refuses the temp file, and the error says \
                that one is needed beside the target. The temp file is created with the mode and \
                group of the file it replaces (a new one: 0666 less the umask) before a byte is \
                written; it is named .NAME.chain-metrics.XXXXXX.tmp (shortened to fit the \
                255-byte name limit), and one left by a killed run (kill -9) is removed by the \
                next write to the same file once it is a minute old.",
            "Streams are written to, never replaced. A FIFO or device (>(gzip > f.gz)) is \
                written to directly, and so is a path to a stream the run already holds: \
                /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, or a symlink to one; \
                chain-metrics ... -o /dev/stdout >> log.csv appends to the log. -o - is stdout. \
                /dev/fd/N must be a descriptor the caller passed (3>>f, open when the run \
                starts): any other number is one the tool opened itself, such as the cache \
                database, and is refused (exit 9).",
        ],
    },
    Rule {
        arg: "output",
        term: "SQLite (-o FILE.sqlite or .db, or -f sqlite with any -o)",
        text: &[
            "A table named after the command (fees, users, social, report) with the csv \
                columns, every cell TEXT: the date in ISO form, each number as the exact text \
                the service sent (never a float), a gap NULL; primary key (date, chain), or date \
                for --wide; a table always has the chain column, one chain too. SQLite's own \
                sum() is exact only while every value is a whole number that fits 64 bits: one \
                value with a fraction (or a wider one) makes the sum a double of about 16 \
                significant digits; the sqlite3 shell's decimal_sum() adds the text exactly.",
            "The table's rows are written in place in one transaction, so the file's other \
                tables and the user's indexes and triggers stay, and one database can hold every \
                command's table; a table written before chain was a column (date alone the key) \
                is made again with it by a plain -o, its indexes and triggers made again too. A \
                new file is written atomically, in WAL mode, so readers (sqlite3, DuckDB, \
                Datasette, a dashboard) never block the writer. A writer that must wait for \
                another program says so after a second and gives up at --lock-timeout (exit 9, \
                with a hint). --merge upserts into the table under the same lock as the text \
                formats, with the same rules.",
            "Refused (exit 9) before any request, the file left byte for byte: a table of \
                that name with other columns (also under a plain -o), a view of that name, a \
                table holding one key twice (named as (date, chain)), a REAL cell (with a hint \
                to store it as text), and a -journal or -wal file beside it (or beside a new \
                database's name) that the rule of SECURITY refuses: SQLite would roll it into \
                the database. A file that is no SQLite database is refused (exit 9), never \
                replaced; so are stdout and pipes (exit 2): a database is no stream.",
        ],
    },
    Rule {
        arg: "merge",
        term: "--merge",
        text: &[
            "With --output (csv, tsv, json, ndjson, sqlite, or a PostgreSQL table): upsert \
                into the existing file by (date, chain), by date with --wide. Fresh values \
                replace old ones, other rows stay; a value missing from this run's answer never \
                erases a stored one. Rows are sorted by date, then by chain in the service's \
                order, whatever the -c order, so two runs that hold the same data write the same \
                bytes. A file with other columns is refused (exit 9) before any request, and \
                left untouched.",
            "With --by, the key is the period's first day, and the run asks from the first \
                day of the period that holds its start (a note: names the new start, unless -q): \
                -s 2024-01-05 --by month --merge asks from 2024-01-01, so a daily job's --last 2 \
                --by month --merge keeps the month's row whole. A chain's days and values for a \
                period are replaced together, and never by a run that covers fewer days of that \
                period (the file keeps the fuller row, and a warning names it). Every date in \
                the file must start a period of that --by (month: the 1st; week: a Monday; \
                quarter: Jan, Apr, Jul or Oct 1; year: Jan 1), else the merge is refused before \
                any request (exit 9), since week rows mixed into a month file would count days \
                twice (a year file's dates also start quarters and months, so that mix-up cannot \
                be told apart).",
            "Files name their chains: a file written by --merge (and every SQLite table) has \
                a chain column, one chain included, so a later run for another chain adds its \
                rows beside the others and never in their place. A one-chain file written \
                before, or without --merge, has no chain column: --merge refuses it (exit 9) \
                until one run names its chain with --file-chain CHAIN, after which the file has \
                the column; a --file-chain that contradicts the file's chain column is a usage \
                error. --wide files name their chains in their column names; a new chain there \
                is a new column. Columns are matched by name: another --include order, or a new \
                include (its old cells empty), merges; a column this run does not write, a \
                missing days (--by) or chain is named in the refusal. A json or ndjson file \
                whose numbers are in the other --json-numbers style is refused, not rewritten. \
                --share, --change, --rolling, --cumulative and --summary do not go with --merge.",
            "--merge reads files spreadsheets and jq -S write (a UTF-8 BOM, CRLF, quoted \
                fields, JSON members in any order); its errors name the line an editor shows, a \
                cell cut to 40 characters with its control characters replaced. A file that \
                holds one key twice is refused (exit 9), naming both lines; so is a file that is \
                not UTF-8, wherever the byte is, and a row dated after today (UTC) or before \
                2015-01-01 (the year Ethereum, the first supported chain, began), a typo that \
                would stall a cron job for good (exit 9, naming the line and the date, under -q \
                too). Before any request a file over 64 KiB is checked by its first line alone; \
                under the lock it is read once, as a stream, and the merged file is written as \
                it is rendered, so a merge holds the file's rows once and never its text: a \
                million rows merge in seconds. Anything but a regular file (a FIFO, a folder, \
                /dev/stdout) is refused at once with exit 9, since it cannot be read back and \
                replaced.",
            "Locks: --merge holds an advisory lock (flock on a .NAME.lock file beside the \
                target, opened without following links, mode 0600, removed afterwards) from \
                reading the old file to the rename, so runs at the same moment take turns and \
                none loses another's rows. A run that has to wait says so on stderr; after \
                --lock-timeout SECS (default 30) it gives up, leaving the file as it was (exit \
                9). Locks on network file systems are only as good as the server's flock.",
        ],
    },
    Rule {
        arg: "resume",
        term: "--resume, --resume-overlap N",
        text: &[
            "With --merge: catch up from the file. The range starts on the day after the \
                newest date the file holds a value of, for every asked chain (the earliest of \
                those, so no chain misses a day), and ends at --end (default yesterday); every \
                (day, chain) missing inside the file's own range is asked again too, and a note \
                names those holes. --start or --last is used only while the file has no rows (or \
                none for a newly asked chain), so one cron line serves the first run and every \
                later one; with neither and no rows yet it is a usage error (exit 2). The last \
                days before that start are asked again, because the service may still revise \
                them: those less than cache_settle_days (default 7) before today, or the file's \
                last N days with --resume-overlap N (0: none); a note: names them. Already up to \
                date: nothing is sent, one note:, exit 0. --dry-run shows the range it would \
                ask, and -v says it too.",
        ],
    },
    Rule {
        arg: "wide",
        term: "--wide",
        text: &[
            "One column per chain (ETHEREUM), per chain and metric for social and report \
                (ETHEREUM.fees), in every format. With --by, each chain has its own days column \
                (ETHEREUM.days, ETHEREUM.fees, ARBITRUM.days, ARBITRUM.fees in a csv header): \
                chains can have data on different days, and the columns never depend on the \
                data.",
        ],
    },
    Rule {
        arg: "summary",
        term: "--no-header, --summary",
        text: &[
            "--no-header leaves out the csv or tsv header. --summary adds total, mean, min \
                and max rows in exact decimal arithmetic (the mean rounded half to even to \
                --decimals, trailing zeros left out), in every format but chart and svg: footer \
                rows in html, rows after the data in table, markdown, csv and tsv (their date \
                cell says total, mean, min, max), lines with that date in ndjson, and in json an \
                object {\"rows\": [...], \"summary\": {\"total\": {...}, ...}} (per chain with \
                several: .summary.ETHEREUM.total.fees). With several chains, one block of four \
                rows per chain. Active users, the derived percents, rolling means, running \
                totals and per-user values have an empty total, since their sum means nothing; \
                their mean, min and max stay. Not with --merge.",
        ],
    },
    Rule {
        arg: "change",
        term: "--change, --rolling N, --cumulative, --share, --per-user, --decimals N",
        text: &[
            "Exact decimals, as extra columns right after the metric each comes from, in \
                every format, with --by (against the previous period) and --wide \
                (ETHEREUM.fees_change). --change: fees_change, and fees_change_pct against the \
                previous value. --rolling N: fees_rolling_N, the mean of the last N rows that \
                have values; empty until N are there and on a gap; after a gap those N rows span \
                more than N days. --cumulative: fees_cumulative, the running total; empty from \
                the first gap on, and not for active users. --share: fees_share_pct, the chain's \
                percent of the date's total over the asked chains; empty when any of them lacks \
                that date. report --per-user: fees_per_user, fees over the active users of the \
                same date and chain; with --by, over the period's exact mean of daily actives. \
                Percents, means and per-user values are rounded half to even to --decimals N \
                (default 2, at most 30), once, from the exact quotient; --decimals where nothing \
                rounds, and users --cumulative, change nothing and say so in a note:. A measure \
                that needs a missing value is empty, never computed over a zero; a missing date \
                counts as a gap. --change, --rolling and --cumulative depend on rows outside the \
                range fetched, so they do not go with --merge.",
        ],
    },
    Rule {
        arg: "sort",
        term: "--sort COLUMN[:desc], --top N",
        text: &[
            "Any column of the header, derived ones too (ETHEREUM.fees with --wide); gaps \
                last either way, ties in date order; --sort chain by the chain's name. --top N \
                keeps the first N rows after sorting; --summary then sums up only those rows: \
                fees -c eth --last 90 --change --sort fees_change:desc --top 10 is the ten days \
                with the largest rise.",
        ],
    },
    Rule {
        arg: "raw",
        term: "--raw, --dry-run",
        text: &[
            "--raw prints the service's body byte for byte (one chain, one request: not \
                report, not --chunk-days, no --by but day), but for the API key: wherever the \
                service echoes it, it becomes **** (a JSON string stays a JSON string), with a \
                warning. --dry-run prints the equivalent curl command lines, with the key as \
                $CHAIN_METRICS_API_KEY; nothing is sent and no key is needed. A user in the base \
                URL becomes -u 'NAME' (curl asks for the password).",
        ],
    },
    Rule {
        arg: "strict",
        term: "--strict, --no-strict",
        text: &[
            "Every asked (date, chain, metric) value must be there. When one is not (a date \
                the service skipped, a member a record left out, no data at all), everything \
                that came is still written, the warnings name what is missing, and the run exits \
                10 after one error: line that lists it. Without it, gaps are warnings and the \
                exit is 0. A record that lacks a member (or has it as null) is warned about \
                either way. A run that had to send requests again says so in one line at the end \
                (warning: 1 request retried (2 retries): 503 x2; under -q too), so cron mail \
                shows throttling before it becomes exit 6. --no-strict turns config strict off \
                for one run. -v also prints the service's RateLimit-* and Retry-After headers.",
        ],
    },
    Rule {
        arg: "keep_going",
        term: "--keep-going, --json-numbers string, --error-format json",
        text: &[
            "For scripts. --keep-going (several chains): the chains whose requests all \
                succeeded are written, each chain that failed is left out whole with a warning: \
                line, and the run ends naming every failed chain with its class, with the first \
                failure's exit code. --json-numbers string (json, ndjson) writes each number as \
                a JSON string of its exact text, for tools that read numbers as doubles (jq 1.6, \
                JavaScript). --error-format json writes every stderr line as one JSON object; \
                see MESSAGES AS JSON in chain-metrics(1). With several requests, progress \
                (requests: 3/12 done) shows on stderr when it is a terminal, and never in a \
                pipe, a file or cron mail.",
        ],
    },
    Rule {
        arg: "chains",
        term: "Columns, rows and numbers",
        text: &[
            "Columns are date, then chain when several chains were asked (or with --merge), \
                then days with --by, then the metrics. Rows are sorted by date, then by chain. \
                Numbers keep the exact text the service sent (0.1 stays 0.1, 5E+3 stays 5E+3); a \
                value the service left out is an empty cell (csv) or null (json). Dates the \
                service did not return are reported on stderr and never filled in; duplicate \
                dates keep the last record; records outside the range are dropped, with a \
                warning.",
            "The number bound: every sum, mean or scale computed from the service's numbers \
                (--by, --summary, the chart's axis) takes a value of at most 4096 digits with an \
                exponent within +-1000 (no float comes near either). A value beyond it is \
                refused before any arithmetic, with exit 8 naming its chain, column and date, a \
                long value cut; csv, tsv, json, ndjson, table and markdown still pass it through \
                verbatim. The chart leaves out a value too large to draw (beyond +-1e300) and \
                says so in a line under it; it never labels an axis NaN or infinity.",
        ],
    },
];

/// The section, on the page of a command that writes files (one with --merge).
pub(super) fn section(roff: &mut Roff, cmd: &clap::Command) {
    let has = |id: &str| cmd.get_arguments().any(|arg| arg.get_id() == id);
    if !has("merge") {
        return;
    }
    roff.control("SH", ["DETAILS"]);
    roff.text([roman(
        "What the options above do in full. Guides by task (a daily export, monthly totals, the \
            output into jq, DuckDB, pandas, SQLite or PostgreSQL without losing a digit) are in \
                docs/exports.md, which the packages install as \
                    /usr/share/doc/chain-metrics/docs/exports.md.",
    )]);
    for rule in RULES.iter().filter(|rule| has(rule.arg)) {
        roff.control("TP", []).text([bold(rule.term)]);
        for (i, paragraph) in rule.text.iter().enumerate() {
            if i > 0 {
                roff.control("IP", []);
            }
            roff.text([roman(*paragraph)]);
        }
    }
}
