//! Every hint leads somewhere: each error below prints a `hint:` naming a command
//! or flags; the test does what the hint says, in the same setting (the same environment,
//! files and other flags), and checks that the command it leads to is not refused.

use crate::support::{Env, Sandbox, KEY};

/// Flags that take a value, for editing a command line as a hint says.
const VALUED: [&str; 7] = [
    "--format",
    "--output",
    "--chunk-days",
    "--profile",
    "-o",
    "--method",
    "--end",
];

/// A refused command, the start of its hint, and how the test sets up before it.
struct Case {
    args: &'static [&'static str],
    hint_starts: &'static str,
    setup: fn(&Env),
    /// The sandbox's flags besides `--fault range-cap:7`.
    sandbox: &'static [&'static str],
}

fn nothing(_: &Env) {}

fn profile_ci(env: &Env) {
    env.write_config("[profiles.ci]\nretries = 1\n");
}

fn a_markdown_export(env: &Env) {
    env.cmd("fees -c eth --last 3 -o y.md").run();
}

const CASES: [Case; 11] = [
    Case {
        args: &["fees", "-c", "eth", "--last", "3", "--method", "get"],
        hint_starts: "the service does not take GET here: use --method post",
        setup: nothing,
        sandbox: &["--method", "post"],
    },
    Case {
        args: &["fees", "-c", "eth", "-s", "today"],
        hint_starts: "an earlier --start, or --end",
        setup: nothing,
        sandbox: &[],
    },
    Case {
        args: &["config", "get", "timeout"],
        hint_starts: "set it with: chain-metrics config set timeout VALUE",
        setup: nothing,
        sandbox: &[],
    },
    Case {
        args: &["config", "get", "api_key"],
        hint_starts: "store it with: chain-metrics auth login",
        setup: nothing,
        sandbox: &[],
    },
    Case {
        args: &["--profile", "ci", "config", "get", "timeout"],
        hint_starts: "set it with: chain-metrics --profile ci config set timeout VALUE",
        setup: profile_ci,
        sandbox: &[],
    },
    Case {
        args: &["--profile", "ci", "config", "get", "api_key"],
        hint_starts: "store it with: chain-metrics --profile ci auth login",
        setup: profile_ci,
        sandbox: &[],
    },
    Case {
        args: &["--profile", "qa", "config", "get", "timeout"],
        hint_starts: "add it with: chain-metrics --profile qa config set KEY VALUE",
        setup: nothing,
        sandbox: &[],
    },
    Case {
        args: &["config", "set", "api_key", "x"],
        hint_starts: "store it with: chain-metrics auth login",
        setup: nothing,
        sandbox: &[],
    },
    Case {
        args: &["fees", "-c", "eth", "--last", "3", "-o", "y.md", "--merge"],
        hint_starts: "merge into a csv file: --format csv --output y.csv",
        setup: a_markdown_export,
        sandbox: &[],
    },
    Case {
        args: &["fees", "-c", "eth", "--last", "30", "--raw"],
        hint_starts: "--raw asks for the whole range in one request: leave out --raw",
        setup: nothing,
        sandbox: &[],
    },
    Case {
        args: &[
            "fees", "-c", "eth", "--last", "3", "--scale", "log", "--format", "chart",
        ],
        hint_starts: "draw it as a picture: --format svg --output chart.svg",
        setup: nothing,
        sandbox: &[],
    },
];

/// The command line a hint leads to: the command it names (`chain-metrics ...`, placeholders
/// filled in), or `args` edited as it says (`leave out --raw`, `--format csv --output y.csv`).
fn follow(hint: &str, args: &[&str]) -> Vec<String> {
    if let Some((_, named)) = hint.split_once("chain-metrics ") {
        let named = named.split(['(', ')']).next().unwrap().trim();
        let named = named
            .replace("KEY VALUE", "timeout 30")
            .replace("VALUE", "30");
        return shlex::split(&named).unwrap();
    }
    let mut line: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let words: Vec<String> = shlex::split(&hint.replace([',', ':', '(', ')'], " ")).unwrap();
    let mut i = 0;
    while i < words.len() {
        let word = words[i].as_str();
        if word == "out" && i > 0 && words[i - 1] == "leave" {
            remove(&mut line, &words[i + 1]);
            i += 2;
            continue;
        }
        if VALUED.contains(&word) {
            remove(&mut line, word);
            line.extend([word.to_owned(), words[i + 1].clone()]);
            i += 1;
        }
        i += 1;
    }
    line
}

/// `flag` (and its value, if it takes one) out of `line`.
fn remove(line: &mut Vec<String>, flag: &str) {
    let alias = if flag == "--output" { "-o" } else { flag };
    while let Some(at) = line.iter().position(|a| a == flag || a == alias) {
        let width = if VALUED.contains(&flag) { 2 } else { 1 };
        line.drain(at..(at + width).min(line.len()));
    }
}

#[test]
fn every_hint_leads_to_a_command_that_is_not_refused() {
    for case in CASES {
        let sandbox = Sandbox::start(&[&["--fault", "range-cap:7"][..], case.sandbox].concat());
        let env = Env::with_service(&sandbox.url);
        (case.setup)(&env);
        let refused = env.cmd_args(case.args).any_outcome().run();
        assert_ne!(refused.code, 0, "{:?} was not refused", case.args);
        let hint = refused
            .stderr
            .lines()
            .find_map(|l| l.strip_prefix("hint: "))
            .or_else(|| refused.error_line().split_once(": give ").map(|(_, h)| h))
            .unwrap_or_else(|| panic!("no hint for {:?}: {refused:?}", case.args));
        assert!(
            hint.starts_with(case.hint_starts),
            "{:?}: {hint}",
            case.args
        );
        let next = follow(hint, case.args);
        let next: Vec<&str> = next.iter().map(String::as_str).collect();
        // The builder names the command the hint led to if it is refused.
        env.cmd_args(&next)
            .stdin(&format!("{KEY}\n"))
            .any_stderr()
            .run();
    }
}

#[test]
fn config_set_ca_bundle_checks_the_file_and_stores_it_absolute() {
    let env = Env::new();
    let home = env.home.path();
    env.cmd("config set ca_bundle nowhere.pem")
        .code(2)
        .error_line(format!(
            "error: invalid value 'nowhere.pem' for ca_bundle: cannot read CA bundle {}: No such file or directory (os error 2)",
            home.join("nowhere.pem").display()
        ))
        .run();
    std::fs::write(home.join("empty.pem"), "no certificate here\n").unwrap();
    env.cmd("config set ca_bundle empty.pem")
        .code(2)
        .error_line(format!(
            "error: invalid value 'empty.pem' for ca_bundle: CA bundle {} holds no PEM certificate",
            home.join("empty.pem").display()
        ))
        .run();
    assert!(!env.config_path().exists(), "a refused value was stored");
    std::fs::write(home.join("ca.pem"), crate::support::TestCa::new().pem).unwrap();
    env.cmd("config set ca_bundle ca.pem").any_stderr().run();
    env.cmd("config get ca_bundle")
        .any_stderr()
        .stdout(format!("{}\n", home.join("ca.pem").display()))
        .run();
}

#[test]
fn a_404_points_at_the_base_urls_path() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&format!("{}/v9", sandbox.url));
    let run = env.cmd("fees -c eth --last 3").code(5).run();
    assert!(
        run.stderr.ends_with("hint: check the base URL's path: the endpoint paths are appended to it, so a missing or extra prefix (such as /v2) answers 404\n"),
        "{run:?}"
    );
}

#[test]
fn a_missing_first_day_shows_the_usage_without_the_end_given() {
    let env = Env::new();
    env.cmd("fees -c eth -e 2024-01-01")
        .code(2)
        .stderr_contains("\nUsage: chain-metrics fees [OPTIONS] --chain <CHAIN> <--start <DAY>|--last <N>|--resume|--month <YYYY-MM>|--quarter <YYYYQn>|--year <YYYY>>\n")
        .run();
}

#[test]
fn unclear_messages_say_what_is_wrong() {
    let env = Env::new();
    env.cmd("fees -c eth --last -3")
        .code(2)
        .error_line("error: invalid value '-3' for '--last <N>': '-3' is negative: --last counts days back from the end, at least 1 (e.g. 30, 30d or 4w)")
        .run();
    env.write_config("[profiles]\nfoo = 1\n");
    env.cmd("config show")
        .code(3)
        .error_line_like("[..]line 2: profiles.foo must be a table of settings (a profile is written [profiles.NAME])")
        .run();
}

/// The words of `hint` from `chain-metrics` on, up to the first `(`, `;` or `,`: the command a
/// user would copy.
fn hinted_command(stderr: &str) -> Vec<String> {
    let hint = stderr
        .lines()
        .find_map(|l| l.strip_prefix("hint: "))
        .unwrap_or_else(|| panic!("no hint in {stderr}"));
    let from = hint.find("chain-metrics ").expect("a command in the hint");
    let command = hint[from..].split(['(', ';', ',']).next().unwrap();
    command
        .split_whitespace()
        .skip(1)
        .map(str::to_owned)
        .collect()
}

#[test]
fn hints_keep_the_config_file_and_profile_so_following_them_changes_that_file() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &sandbox.url);
    let other = env.home.path().join("other.toml");
    std::fs::write(&other, "[profiles.ci]\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o600)).unwrap();
    let chosen = ["--config", "other.toml", "--profile", "ci"];
    let run = |args: &[&str]| {
        env.cmd_args(&[&chosen[..], args].concat())
            .code(3)
            .any_stderr()
            .run()
    };
    // (a refused command, what to give for VALUE); `config get api_key` leads to the same
    // `auth login` as the missing key does, which is followed last.
    let cases: [(&[&str], &str); 3] = [
        (&["config", "get", "timeout"], "5"),
        (&["config", "get", "api_key"], ""),
        (&["fees", "-c", "eth", "--last", "2"], ""),
    ];
    for (args, value) in cases {
        let refused = run(args);
        let words = hinted_command(&refused.stderr);
        assert_eq!(words[..4], chosen, "{}", refused.stderr);
        if args[1] == "get" && args[2] == "api_key" {
            assert_eq!(words[4..], ["auth", "login"], "{}", refused.stderr);
            continue;
        }
        let words: Vec<&str> = (words.iter())
            .map(|w| if w == "VALUE" { value } else { w.as_str() })
            .collect();
        let words: Vec<&str> = match words.last() {
            Some(&"login") => [&words[..], &["--no-verify"]].concat(),
            _ => words,
        };
        env.cmd_args(&words)
            .stdin(&format!("{KEY}\n"))
            .any_stderr()
            .run();
    }
    let other = std::fs::read_to_string(env.home.path().join("other.toml")).unwrap();
    assert!(other.contains("timeout = 5"), "{other}");
    assert!(other.contains(KEY), "the key went elsewhere: {other}");
    assert!(
        !env.home
            .path()
            .join(".config/chain-metrics/config.toml")
            .exists(),
        "a hint changed the default config file"
    );
}
