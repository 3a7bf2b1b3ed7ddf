//! Tables for people on a real terminal: numbers aligned on the decimal point, and a `--wide`
//! table narrower terminals get as blocks of columns with the dates repeated (or, when even
//! one column is too wide, a note suggesting `-f csv | less -S`); ASCII lines where the locale
//! is not UTF-8, as the chart falls back from braille.

use super::utf8_env;
use crate::support::sandbox_env;

const WIDE: &str = "fees -c all -s 2024-01-01 -e 2024-01-03 --wide -f table";

/// The table's lines as the terminal showed them: colours and the progress line (erased by
/// `ESC [2K`) taken out, and the sandbox's note left out.
fn table_lines(screen: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut chars = screen.chars();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => {
                // CSI: parameters up to the final letter.
                chars.by_ref().find(|c| c.is_ascii_alphabetic());
            }
            '\r' => {}
            c => plain.push(c),
        }
    }
    plain
        .lines()
        .map(|l| l.find('┌').map_or(l, |at| &l[at..]).to_owned())
        .filter(|l| !l.starts_with("note:") && !l.starts_with("requests:"))
        .collect()
}

#[test]
fn a_wide_table_wraps_into_blocks_that_fit_the_terminal_with_dates_repeated() {
    let (_sandbox, mut env) = sandbox_env(&[]);
    env.set("LANG", "C.UTF-8");
    let wide = env.cmd(WIDE).terminal_columns(200).run();
    let whole = table_lines(&wide.stdout);
    assert_eq!(whole.len(), 7, "{}", wide.stdout);
    assert!(whole[0].chars().count() > 80);
    let run = env.cmd(WIDE).terminal_columns(80).run();
    let lines = table_lines(&run.stdout);
    assert!(
        lines.iter().all(|l| l.chars().count() <= 80),
        "{}",
        run.stdout
    );
    let headers: Vec<&String> = lines.iter().filter(|l| l.starts_with("│ date")).collect();
    assert!(headers.len() >= 2, "{}", run.stdout);
    // Every chain's column is in some block, and every block shows the three dates.
    for chain in ["ETHEREUM", "ARBITRUM", "BSC", "OPTIMISM", "BASE", "POLYGON"] {
        assert_eq!(
            headers.iter().filter(|h| h.contains(chain)).count(),
            1,
            "{chain}"
        );
    }
    let dated = lines
        .iter()
        .filter(|l| l.starts_with("│ 2024-01-0"))
        .count();
    assert_eq!(dated, 3 * headers.len());
}

#[test]
fn numbers_line_up_on_the_decimal_point_on_a_terminal() {
    let (_stub, env) = utf8_env(
        r#"[{"date":"2024-01-01","fees":1234.5},{"date":"2024-01-02","fees":0.25},{"date":"2024-01-03","fees":7},{"date":"2024-01-04","fees":-3.125}]"#,
    );
    let run = env
        .cmd("fees -c eth -s 2024-01-01 -e 2024-01-04 -f table")
        .terminal_columns(120)
        .run();
    let rows: Vec<String> = table_lines(&run.stdout)
        .into_iter()
        .filter(|l| l.starts_with("│ 2024"))
        .collect();
    assert_eq!(
        rows,
        [
            "│ 2024-01-01 ┆ 1,234.5   │",
            "│ 2024-01-02 ┆     0.25  │",
            "│ 2024-01-03 ┆     7     │",
            "│ 2024-01-04 ┆    -3.125 │",
        ]
    );
}

#[test]
fn a_column_wider_than_the_terminal_suggests_csv_and_less() {
    let (_sandbox, env) = sandbox_env(&[]);
    env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-02 --share -f table")
        .terminal_columns(30)
        .stdout_contains("note: a column of this table is wider than the terminal (30 columns); for long lines, try -f csv | less -S")
        .run();
}

#[test]
fn a_locale_that_is_not_utf8_gets_ascii_lines() {
    let (_sandbox, mut env) = sandbox_env(&[]);
    let line = "fees -c eth -s 2024-01-01 -e 2024-01-02 -f table";
    let ascii = "\
+------------+------------+
| date       |       fees |
+============+============+
| 2024-01-01 | 879,768.88 |
| 2024-01-02 | 826,665.76 |
+------------+------------+
";
    // No locale at all is the C locale.
    env.cmd(line).stdout(ascii).run();
    env.set("LANG", "C");
    env.cmd(line).stdout(ascii).run();
    let chains = env.cmd("chains -f table").run().stdout;
    assert!(
        chains.starts_with("+---") && !chains.contains('│'),
        "{chains}"
    );
    env.set("LC_ALL", "en_US.UTF-8");
    env.cmd(line)
        .stdout_contains("│ 2024-01-01 ┆ 879,768.88 │")
        .run();
    let chains = env.cmd("chains -f table").run().stdout;
    assert!(chains.contains('│'), "{chains}");
}
