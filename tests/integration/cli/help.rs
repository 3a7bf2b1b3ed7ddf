//! Help text: short enough, ending in examples that really run, and the README's usage block and
//! exit-code table in step with `--help` and the man page.

use std::path::PathBuf;

use crate::support::{sandbox_env, tools, Env};
use clap::{CommandFactory, Parser};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).unwrap()
}

/// The words after `chain-metrics` of every visible subcommand, nested ones too.
fn subcommand_paths() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        for sub in cmd.get_subcommands() {
            if sub.is_hide_set() || sub.get_name() == "help" {
                continue;
            }
            path.push(sub.get_name().to_owned());
            out.push(path.clone());
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(&chain_metrics::Cli::command(), &mut Vec::new(), &mut out);
    out
}

/// The example lines a help text ends with, or a description of what is wrong.
fn trailing_examples(help: &str) -> Result<Vec<String>, String> {
    let (_, block) = help
        .rsplit_once("\nExamples:\n")
        .ok_or("no `Examples:` block")?;
    let examples: Vec<String> = block.lines().map(|l| l.trim().to_owned()).collect();
    if !(2..=3).contains(&examples.len()) {
        return Err(format!("{} examples, not 2 or 3", examples.len()));
    }
    if let Some(bad) = examples.iter().find(|e| e.is_empty()) {
        return Err(format!("not at the end of the help: {bad:?}"));
    }
    Ok(examples)
}

/// The arguments of an example: what is piped into it, leading `VAR=value` words and a
/// trailing `> file` dropped.
fn example_args(example: &str) -> Vec<String> {
    let command = example
        .rsplit_once(" | ")
        .map_or(example, |(_, command)| command);
    let words: Vec<&str> = command.split_whitespace().collect();
    let start = words.iter().position(|w| !w.contains('=')).unwrap();
    let end = words.iter().position(|w| *w == ">").unwrap_or(words.len());
    assert_eq!(words[start], "chain-metrics", "{example}");
    words[start + 1..end]
        .iter()
        .map(|w| w.to_string())
        .collect()
}

#[test]
fn top_level_help_fits_on_one_screen_with_its_options_grouped() {
    let run = Env::new().cmd("--help").run();
    let lines = run.stdout.lines().count();
    // One 48-line screen: the commands, then the options under headings by purpose.
    assert!(lines <= 48, "{lines} lines:\n{}", run.stdout);
    for heading in ["Connection:", "Settings:", "Messages:"] {
        assert!(
            run.stdout.lines().any(|l| l == heading),
            "{heading}\n{}",
            run.stdout
        );
    }
}

#[test]
fn every_help_ends_with_two_or_three_examples_that_run() {
    let (_sandbox, env) = sandbox_env(&[]);
    env.write_config(
        "timeout = 20\n\n[profiles.staging]\ntimeout = 60\nretries = 1\n\n[profiles.ci]\n",
    );
    // The exports that render's examples draw.
    for line in [
        "fees -c eth,arb --last 7 -o fees.csv",
        "report -c eth --last 21 --by week -o report.sqlite",
    ] {
        env.cmd(line).any_stderr().run();
    }
    let mut paths = subcommand_paths();
    paths.insert(0, Vec::new());
    for path in paths {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = env.cmd_args(&args).run();
        let examples = trailing_examples(&help.stdout)
            .unwrap_or_else(|e| panic!("`chain-metrics {}`: {e}", args.join(" ")));
        for example in examples {
            let words = example_args(&example);
            assert!(
                words.starts_with(&path),
                "{example:?} is not about {path:?}"
            );
            let parsed = chain_metrics::Cli::try_parse_from(
                std::iter::once("chain-metrics".to_owned()).chain(words.clone()),
            );
            assert!(parsed.is_ok(), "{example:?}: {}", parsed.unwrap_err());
            // The sandbox serves until stopped, and login waits for a key typed or piped in
            // (secrets/auth.rs runs it): parsing is all an example of them can show here.
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            if words.first() == Some(&"sandbox") || words.starts_with(&["auth", "login"]) {
                continue;
            }
            let run = env.cmd_args(&words).any_stderr().run();
            // Commands that only change the config file may say nothing on stdout.
            let changes_only =
                ["logout", "set", "unset", "clear"].contains(&words[1.min(words.len() - 1)]);
            assert!(
                changes_only || !run.stdout.is_empty(),
                "{example:?} printed nothing"
            );
        }
    }
}

/// The commands `chain-metrics --help` lists, as (name, description), `help` left out.
fn help_commands() -> Vec<(String, String)> {
    let help = Env::new().cmd("--help").run().stdout;
    let (_, rest) = help.split_once("\nCommands:\n").unwrap();
    rest.lines()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let (name, about) = l.trim().split_once(' ').unwrap();
            (name.to_owned(), about.trim().to_owned())
        })
        .filter(|(name, _)| name != "help")
        .collect()
}

/// The README's usage block: its first line and its (name, description) lines.
fn readme_usage() -> (String, Vec<(String, String)>) {
    let readme = readme();
    let (_, use_section) = readme.split_once("\n## Use\n").unwrap();
    let (_, block) = use_section.split_once("```\n").unwrap();
    let (block, _) = block.split_once("```").unwrap();
    let mut lines = block.lines();
    let first = lines.next().unwrap().to_owned();
    let commands = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (name, about) = l.trim().split_once(' ').unwrap();
            (name.to_owned(), about.trim().to_owned())
        })
        .collect();
    (first, commands)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}

#[test]
fn readme_usage_block_lists_what_help_lists() {
    let (first, readme) = readme_usage();
    let help = Env::new().cmd("--help").run().stdout;
    let usage = help.lines().find(|l| l.starts_with("Usage: ")).unwrap();
    assert_eq!(
        first,
        usage
            .trim_start_matches("Usage: ")
            .replace("[OPTIONS]", "[GLOBAL OPTIONS]")
    );
    let readme: Vec<(String, String)> = readme
        .into_iter()
        .map(|(name, about)| (name, capitalised(&about)))
        .collect();
    assert_eq!(readme, help_commands());
}

/// A man page as text: `mandoc -T ascii`, wide enough that nothing wraps, no overstrike.
fn man_text(page: &str) -> String {
    let path = repo().join("man").join(page);
    let output = tools::output(
        "mandoc",
        &[
            "-T".as_ref(),
            "ascii".as_ref(),
            "-O".as_ref(),
            "width=400".as_ref(),
            path.as_os_str(),
        ],
    );
    assert!(output.status.success());
    let raw = String::from_utf8(output.stdout).unwrap();
    let mut text = String::new();
    for c in raw.chars() {
        if c == '\u{8}' {
            text.pop();
        } else {
            text.push(c);
        }
    }
    text
}

/// The lines of a section of a man page rendered by `man_text`.
fn man_section(text: &str, heading: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn readme_usage_block_lists_what_the_man_page_lists() {
    let text = man_text("chain-metrics.1");
    let listed = man_section(&text, "SUBCOMMANDS").join("\n");
    for (name, about) in readme_usage().1 {
        let entry = format!("chain-metrics-{name}(1)\n{}", capitalised(&about));
        assert!(listed.contains(&entry), "{entry:?} not in:\n{listed}");
    }
}

/// The README's exit-code table as (code, meaning).
fn readme_exit_codes() -> Vec<(String, String)> {
    let readme = readme();
    let (_, section) = readme.split_once("\n## Exit codes\n").unwrap();
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| {
            let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
            (cells[0].to_owned(), cells[1].replace('`', ""))
        })
        .collect()
}

#[test]
fn readme_exit_codes_are_the_man_pages() {
    let text = man_text("chain-metrics.1");
    let man: Vec<(String, String)> = man_section(&text, "EXIT STATUS")
        .iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            let (code, meaning) = l.split_once(' ').unwrap();
            (code.to_owned(), meaning.trim().to_owned())
        })
        .collect();
    assert_eq!(readme_exit_codes(), man);
    let codes: Vec<&str> = man.iter().map(|(code, _)| code.as_str()).collect();
    assert_eq!(
        codes,
        ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "129", "130", "143"]
    );
}

/// The commands a help text shows inside its notes (the derived measures' table), from the
/// command word on: `fees -c eth --last 30 --change`.
fn commands_in_notes(help: &str) -> Vec<String> {
    let notes = help
        .rsplit_once("\nExamples:\n")
        .map_or(help, |(notes, _)| notes);
    notes
        .lines()
        .filter_map(|line| {
            ["fees -c", "users -c", "social -c", "report -c"]
                .iter()
                .find_map(|start| line.find(start))
                .map(|at| line[at..].to_owned())
        })
        .collect()
}

#[test]
fn every_command_in_a_helps_notes_runs() {
    let (_sandbox, env) = sandbox_env(&[]);
    let mut seen = 0;
    for command in ["fees", "users", "social", "report"] {
        let help = env.cmd(&format!("{command} --help")).run();
        for line in commands_in_notes(&help.stdout) {
            let run = env.cmd(&format!("{line} -f csv")).any_stderr().run();
            assert!(!run.stdout.is_empty(), "{line:?} printed nothing");
            seen += 1;
        }
    }
    assert!(seen >= 5, "{seen} commands found in the notes");
}

#[test]
fn a_subcommands_help_shows_its_own_options_and_one_line_for_the_global_ones() {
    let env = Env::new();
    for (line, pointer) in [
        ("completions --help", "  --error-format: see chain-metrics --help"),
        ("chains -h", "  --error-format: see chain-metrics --help"),
        ("cache stats --help", "  -q, --error-format: see chain-metrics --help"),
        ("fees --help", "  --sandbox, --profile, -v, -q, --error-format, --base-url and 11 more: see chain-metrics --help"),
        ("auth login -h", "  --sandbox, --profile, -v, -q, --error-format, --base-url and 11 more: see chain-metrics --help"),
    ] {
        let help = env.cmd(line).run().stdout;
        let lines: Vec<&str> = help.lines().collect();
        let at = lines.iter().position(|l| *l == "Global options:");
        assert_eq!(at.map(|at| lines[at + 1]), Some(pointer), "{line}:\n{help}");
        for global in ["--timeout", "--lock-timeout", "--connect-timeout", "Settings:"] {
            assert!(!help.contains(global), "{line} shows {global}:\n{help}");
        }
    }
    // The top-level help lists them all, and fees still takes them after the command.
    let top = env.cmd("--help").run().stdout;
    assert!(top.contains("--timeout <SECS>") && !top.contains("Global options:"));
    let short = env.cmd("fees -h").run().stdout.lines().count();
    let long = env.cmd("fees --help").run().stdout.lines().count();
    assert!(short < long, "-h {short} lines, --help {long}");
    let parsed = chain_metrics::Cli::try_parse_from([
        "chain-metrics",
        "fees",
        "-c",
        "eth",
        "--last",
        "2",
        "--timeout",
        "5",
    ]);
    assert!(parsed.is_ok());
}

/// The words after `chain-metrics` of every subcommand, hidden ones (`man`) too.
fn every_command_path() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        for sub in cmd.get_subcommands().filter(|sub| sub.get_name() != "help") {
            path.push(sub.get_name().to_owned());
            out.push(path.clone());
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut out = vec![Vec::new()];
    walk(&chain_metrics::Cli::command(), &mut Vec::new(), &mut out);
    out
}

/// The long flags a help lists as options: the flags that start a line at the options' indent
/// (2 or 6 spaces; a description is indented further or follows them), and those of the
/// "Global options:" line.
fn listed_flags(help: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in help.lines() {
        let words = line.trim_start();
        let indent = line.len() - words.len();
        if ![2, 6].contains(&indent) || !words.starts_with('-') {
            continue;
        }
        let flags = words
            .split_whitespace()
            .map(|word| word.trim_end_matches(','))
            .take_while(|word| word.starts_with('-'));
        names.extend(
            flags
                .filter(|flag| flag.starts_with("--"))
                .map(str::to_owned),
        );
    }
    names.sort();
    names.dedup();
    names
}

/// `-h` fits one screen: at most 60 lines (as wrapped for 100 columns), the common flags of a
/// query in it, the expert ones (`hide_short_help`) left to `--help`, which lists every flag
/// `-h` does; a `-h` that leaves flags out ends saying that `--help` shows them all.
#[test]
fn every_short_help_fits_one_screen_and_help_keeps_every_flag() {
    let mut env = Env::new();
    env.set("COLUMNS", "100");
    let common = [
        "--chain", "--start", "--end", "--last", "--output", "--format",
    ];
    let definition = chain_metrics::Cli::command();
    for path in every_command_path() {
        let words = path.join(" ");
        let with = |flag: &str| [path.clone(), vec![flag.to_owned()]].concat();
        let short = env.cmd_args(&with("-h")).run().stdout;
        let long = env.cmd_args(&with("--help")).run().stdout;
        let lines = short.lines().count();
        assert!(lines <= 60, "`{words} -h` is {lines} lines:\n{short}");
        let (short_flags, long_flags) = (listed_flags(&short), listed_flags(&long));
        let missing: Vec<&String> = short_flags
            .iter()
            .filter(|f| !long_flags.contains(f))
            .collect();
        assert!(missing.is_empty(), "`{words} --help` lacks {missing:?}");
        let cmd = path
            .iter()
            .fold(&definition, |cmd, word| cmd.find_subcommand(word).unwrap());
        let expert: Vec<String> = cmd
            .get_arguments()
            .filter(|arg| arg.is_hide_short_help_set() && !arg.is_hide_set())
            .map(|arg| format!("--{}", arg.get_long().unwrap()))
            .collect();
        for flag in &expert {
            assert!(
                long_flags.contains(flag),
                "`{words} --help` lacks {flag}:\n{long}"
            );
            assert!(
                !short_flags.contains(flag),
                "`{words} -h` shows {flag}:\n{short}"
            );
        }
        if ["fees", "users", "social", "report"].contains(&words.as_str()) {
            assert!(expert.len() >= 10, "`{words} -h` leaves out {expert:?}");
            for flag in common {
                assert!(
                    short_flags.contains(&flag.to_owned()),
                    "`{words} -h` lacks {flag}"
                );
            }
        }
        let pointer = format!("Use `chain-metrics {words} --help` to see all options, with notes.");
        let last = short.lines().last().unwrap_or_default();
        match expert.is_empty() {
            true => assert!(!last.contains("to see all options"), "`{words} -h`"),
            false => assert_eq!(last, pointer, "`{words} -h`"),
        }
    }
}

/// The README's test command is one line that CI runs as it is, and it makes what the tests
/// need (the packages, the venv) before `cargo test`.
#[test]
fn ci_runs_the_readmes_test_command_exactly() {
    let readme = readme();
    let (_, tests) = readme.split_once("## Tests\n\n```sh\n").unwrap();
    let command = tests.lines().next().unwrap();
    assert_eq!(tests.lines().nth(1), Some("```"), "one command");
    let ci = std::fs::read_to_string(repo().join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|line| line == command),
        "{command} not in .ci/run"
    );
    let script = std::fs::read_to_string(repo().join(command)).unwrap();
    let order: Vec<usize> = ["apt-get install", "python3 -m venv", "cargo test --locked"]
        .iter()
        .map(|step| {
            script
                .find(step)
                .unwrap_or_else(|| panic!("{command} lacks {step}"))
        })
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
}

/// The README's everyday examples, each run as written with `--sandbox` before the command:
/// exit 0, and something written (on stdout, or the file it names).
#[test]
fn the_readmes_everyday_examples_run() {
    let readme = readme();
    let (_, block) = readme.split_once("<!-- examples -->\n```sh\n").unwrap();
    let block = block.split_once("\n```").unwrap().0;
    let env = Env::new();
    let mut ran = 0;
    for line in block.lines() {
        let command = line.split(" # ").next().unwrap().trim_end();
        let with_sandbox = command.replacen("chain-metrics ", "chain-metrics --sandbox ", 1);
        // The sandbox's note on stderr; a chart needs no terminal here.
        let run = env.shell(&with_sandbox).any_stderr().run();
        let file = command.rsplit(['>', ' ']).find(|w| w.contains('.'));
        let wrote =
            !run.stdout.is_empty() || file.is_some_and(|f| env.home.path().join(f).exists());
        assert!(wrote, "{command} wrote nothing");
        ran += 1;
    }
    assert_eq!(ran, 10, "ten examples");
}
