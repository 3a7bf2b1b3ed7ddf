//! The tool page's section "MESSAGES AS JSON": what `--error-format json` writes on stderr, and
//! a jq line that reads it (the tests run it as written).

use roff::{bold, roman, Roff};

/// The jq example: the days `--strict` found missing, one line per series.
pub const JQ_EXAMPLE: &str = "chain-metrics --error-format json fees -c eth,arb --last 7 --strict \
    -o fees.csv 2>&1 | jq -r 'select(.class == \"incomplete\") | .missing[] | \"\\(.chain) \
        \\(.metric): \\(.days | join(\" \"))\"'";

/// The kinds of line, as (their level, what the object holds).
const OBJECTS: &[(&str, &str)] = &[
    (
        "warning, note, verbose",
        "Every warning, note and -v line: {\"level\": \"warning\" (or \"note\", \"verbose\"), \
            \"message\": the text the line would say without its label}. What a command reports \
                it did (config set, auth logout, cache clear) and the sandbox's own lines \
                    (\"sandbox: ...\") are notes. Some add data: a warning about the data adds \
                        series ([{\"chain\", \"metric\"}], the series it is about) and days (ISO \
                            dates); a chain --keep-going left out adds chain, class, exit, status \
                                (null when no HTTP answer came) and reason (why it failed), one \
                                    object per chain.",
    ),
    (
        "error",
        "The error that ends the run, last, once: {\"level\": \"error\", \"message\": the \
            message}, then exit, class (usage, config, key_rejected, request_rejected, \
                service_failed, network, bad_response, output, incomplete, interrupted, \
                    internal), endpoint, chain, status, service_message and hint, each null when \
                        not known (the hint is this member, not a line of its own). A usage error \
                            adds tip (the suggestion clap makes, such as a similar flag) and \
                                possible_values (the values the flag takes), each null when there \
                                    is none; --strict's error adds missing: [{\"chain\", \
                                        \"metric\", \"days\": [ISO dates]}], one per series that \
                                            lacks values.",
    ),
];

pub(super) fn section(roff: &mut Roff) {
    roff.control("SH", ["MESSAGES AS JSON"]);
    roff.text([roman(
        "With --error-format json, given before or after the command, every line on stderr is one \
            JSON object, whatever the command, and every object has level and message: a script \
                reads stderr line by line with one parser. The data on stdout does not change. By \
                    level:",
    )]);
    for (levels, meaning) in OBJECTS {
        roff.control("TP", [])
            .text([bold(*levels)])
            .text([roman(*meaning)]);
    }
    roff.control("PP", []).text([roman(
        "The days --strict found missing, one line per series:",
    )]);
    roff.control("RS", ["4"])
        .control("nf", [])
        .text([roman(JQ_EXAMPLE)])
        .control("fi", [])
        .control("RE", []);
}
