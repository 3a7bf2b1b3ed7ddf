//! Output defaults in the config file (`format`, `color`, `decimals`, `chains`, at the top level
//! and per profile): a query uses them where its flag is not given, `config show` names their
//! source, `config set` refuses bad values; and `config profiles`.

use crate::support::{sandbox_env, Env, Sandbox, SANDBOX_DAY};
use snapbox::str;

const DAY: &str = "-s 2024-01-01 -e 2024-01-01";

fn read(env: &Env) -> String {
    std::fs::read_to_string(env.config_path()).unwrap()
}

#[test]
fn config_format_csv_makes_fees_print_csv_on_a_terminal_and_format_flag_wins() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::with_service(&sandbox.url);
    env.set("LANG", "C.UTF-8");
    env.write_config("format = \"csv\"\n");
    let shown = env
        .cmd(&format!("fees -c eth {DAY}"))
        .on_terminal()
        .run()
        .stdout
        .replace("\r\n", "\n");
    assert_eq!(shown, SANDBOX_DAY);
    // A pipe too (csv is also its own default): json from the config, csv from the flag.
    env.write_config("format = \"json\"\n");
    env.cmd(&format!("fees -c eth {DAY}"))
        .stdout("[\n  {\"date\":\"2024-01-01\",\"fees\":879768.88}\n]\n")
        .run();
    env.cmd(&format!("fees -c eth {DAY} --format csv"))
        .stdout(SANDBOX_DAY)
        .run();
    // A file's extension says more than a default.
    env.cmd(&format!("fees -c eth {DAY} -o day.csv")).run();
    let file = std::fs::read_to_string(env.home.path().join("day.csv")).unwrap();
    assert_eq!(file, SANDBOX_DAY);
}

#[test]
fn a_profile_gives_chains_and_decimals_and_the_flags_win() {
    let (_sandbox, env) = sandbox_env(&[]);
    env.write_config(
        "decimals = 1\n\n[profiles.pair]\nchains = \"eth,arb\"\nformat = \"tsv\"\ndecimals = 3\n",
    );
    let line = "fees -s 2024-01-01 -e 2024-01-02 --change";
    env.cmd(&format!("--profile pair {line}"))
        .stdout(str![[r#"
date	chain	fees	fees_change	fees_change_pct
2024-01-01	ETHEREUM	879768.88		
2024-01-01	ARBITRUM	59575.78		
2024-01-02	ETHEREUM	826665.76	-53103.12	-6.036
2024-01-02	ARBITRUM	71927.52	12351.74	20.733

"#]])
        .run();
    env.cmd(&format!("--profile pair {line} -c eth --decimals 0 -f csv"))
        .stdout(str![[r#"
date,fees,fees_change,fees_change_pct
2024-01-01,879768.88,,
2024-01-02,826665.76,-53103.12,-6

"#]])
        .run();
    // The top level's decimals, and no chain anywhere: clap's own words, exit 2.
    env.cmd(&format!("{line} -c eth"))
        .stdout(str![[r#"
date,fees,fees_change,fees_change_pct
2024-01-01,879768.88,,
2024-01-02,826665.76,-53103.12,-6.0

"#]])
        .run();
    env.cmd(line)
        .code(2)
        .stderr_contains(
            "error: the following required arguments were not provided:\n  --chain <CHAIN>\n",
        )
        .stderr_contains("tip: or set a default: chain-metrics config set chains eth,arb")
        .run();
}

#[test]
fn config_show_names_each_default_and_its_source() {
    let mut env = Env::new();
    env.set("NO_COLOR", "1");
    env.write_config(
        "format = \"json\"\ncolor = \"always\"\n\n[profiles.p]\nchains = \"eth,all\"\ndecimals = 4\n",
    );
    let show = env.cmd("--profile p config show").run().stdout;
    let row = |name: &str| {
        let line = show
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        line.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert_eq!(row("format"), "format json (config file)");
    // NO_COLOR is the environment, above the file.
    assert_eq!(row("color"), "color never (environment NO_COLOR)");
    assert_eq!(row("decimals"), "decimals 4 (config file, profile p)");
    assert_eq!(
        row("chains"),
        "chains ETHEREUM,all (config file, profile p)"
    );
    let show = env.cmd("--profile p --color auto config show").run().stdout;
    assert!(
        show.contains("auto") && show.contains("(flag --color)"),
        "{show}"
    );
    let env = Env::new();
    env.write_config("color = \"always\"\n");
    let show = env.cmd("config show").run().stdout;
    let colour = show.lines().find(|l| l.starts_with("color ")).unwrap();
    let colour = colour.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(colour, "color always (config file)");
    assert!(
        show.contains("chains                   (not set)"),
        "{show}"
    );
}

#[test]
fn config_set_takes_good_values_and_refuses_bad_ones_naming_them() {
    let env = Env::new();
    for (key, value) in [
        ("format", "CSV"),
        ("color", "never"),
        ("decimals", "0"),
        ("chains", "eth,arb"),
    ] {
        env.cmd(&format!("config set {key} {value}"))
            .stderr_contains(&format!("{key} = "))
            .run();
    }
    let before = read(&env);
    assert_eq!(
        before,
        "format = \"csv\"\ncolor = \"never\"\ndecimals = 0\nchains = \"eth,arb\"\n"
    );
    for (args, error) in [
        ("format xml", "error: invalid value 'xml' for format: expected one of table, csv, tsv, json, ndjson, markdown, chart, svg or html (the default for stdout)"),
        ("format sqlite", "error: invalid value 'sqlite' for format: expected one of table, csv, tsv, json, ndjson, markdown, chart, svg or html (the default for stdout)"),
        ("color sometimes", "error: invalid value 'sometimes' for color: expected auto, always or never"),
        ("decimals 31", "error: invalid value '31' for decimals: expected a whole number from 0 to 30"),
        ("chains eth,solana", "error: invalid value 'eth,solana' for chains: unknown chain 'solana': expected one of ETHEREUM, ARBITRUM, BSC, OPTIMISM, BASE, POLYGON, an alias or chain id (see `chain-metrics chains`), or all"),
    ] {
        env.cmd(&format!("config set {args}")).code(2).error_line(error).run();
        assert_eq!(read(&env), before, "{args}");
    }
}

#[test]
fn bad_values_in_the_file_are_configuration_errors() {
    let env = Env::with_service("http://127.0.0.1:9");
    env.write_config("format = \"xml\"\n");
    env.cmd(&format!("fees -c eth {DAY}"))
        .code(3)
        .error_line("error: format 'xml' from config file is not a format for stdout: expected one of table, csv, tsv, json, ndjson, markdown, chart, svg or html")
        .run();
    env.write_config("[profiles.p]\nchains = \"eth,,arb\"\n");
    env.cmd(&format!("--profile p fees {DAY}"))
        .code(3)
        .error_line_like(
            "error: config file [..]: profile p: chains: a chain is empty (a stray comma?)[..]",
        )
        .run();
    env.write_config("color = \"sometimes\"\n");
    env.cmd("config show")
        .code(3)
        .error_line_like("error: config file [..]: line 1: unknown value, expected one of `auto`, `always`, `never`")
        .run();
    env.write_config("decimals = 99\n");
    env.cmd(&format!("fees -c eth {DAY}"))
        .code(3)
        .error_line("error: decimals 99 from config file is out of bounds: expected from 0 to 30")
        .run();
}

#[test]
fn config_profiles_lists_them_and_marks_the_one_in_use_with_its_source() {
    let mut env = Env::new();
    env.write_config("retries = 1\n[profiles.work]\njobs = 2\n[profiles.ci]\njobs = 4\n");
    let path = env.config_path().display().to_string();
    env.cmd("config profiles")
        .stdout("  ci\n  work\n")
        .stderr(format!("note: no profile is selected (the default): the top level of config file {path} applies; select one with --profile NAME or CHAIN_METRICS_PROFILE\n"))
        .run();
    env.cmd("--profile work config profiles")
        .stdout("  ci\n* work  (from --profile)\n")
        .run();
    env.set("CHAIN_METRICS_PROFILE", "ci");
    env.cmd("config profiles")
        .stdout("* ci    (from CHAIN_METRICS_PROFILE)\n  work\n")
        .run();
    let mut env = Env::new();
    env.write_config("retries = 1\n[profiles.work]\njobs = 2\n[profiles.ci]\njobs = 4\n");
    env.set("CHAIN_METRICS_PROFILE", "typo");
    let path = env.config_path().display().to_string();
    env.cmd("config profiles")
        .stdout("  ci\n  work\n")
        .stderr(format!(
            "warning: profile 'typo' (from CHAIN_METRICS_PROFILE) is not in config file {path}\n"
        ))
        .run();
    let env = Env::new();
    env.write_config("retries = 1\n");
    let path = env.config_path().display().to_string();
    env.cmd("config profiles")
        .stdout("")
        .stderr(format!("note: config file {path} has no profiles; add one with: chain-metrics --profile NAME config set KEY VALUE\n"))
        .run();
}

#[test]
fn config_color_colours_a_pipe_unless_the_flag_or_no_color_says_otherwise() {
    let sandbox = Sandbox::start(&[]);
    let mut env = Env::with_service(&sandbox.url);
    let line = format!("fees -c eth {DAY} -f table");
    env.write_config("color = \"always\"\n");
    assert!(
        env.cmd(&line).run().stdout.contains("\x1b["),
        "config color always"
    );
    let never = env.cmd(&format!("{line} --color never")).run().stdout;
    assert!(!never.contains('\x1b'), "the flag wins: {never:?}");
    env.set("NO_COLOR", "1");
    assert!(
        !env.cmd(&line).run().stdout.contains('\x1b'),
        "NO_COLOR wins over the file"
    );
    let mut env = Env::with_service(&sandbox.url);
    env.set("CLICOLOR_FORCE", "1");
    env.write_config("color = \"never\"\n");
    assert!(
        env.cmd(&line).run().stdout.contains("\x1b["),
        "the environment wins"
    );
}
