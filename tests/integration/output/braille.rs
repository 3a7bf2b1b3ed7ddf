//! The terminal chart in braille dots: drawn where the locale speaks UTF-8 (LC_ALL, else
//! LC_CTYPE, else LANG), in plain characters with any other locale, with NO_COLOR, and when
//! several series would have no colour to tell them apart.

use super::chart::uncoloured;
use super::utf8_env;
use crate::support::{made_line, sandbox_env, Env};

/// Three chains over a fortnight (`-q`: no progress line on the terminal).
const CHAINS: &str = "users -c eth,arb,base -s 2024-03-01 -e 2024-03-14 -f chart -q";

fn braille_cells(text: &str) -> usize {
    text.chars()
        .filter(|c| ('\u{2800}'..='\u{28FF}').contains(c))
        .count()
}

/// What `args` shows on an 80-column terminal, against the service at `url`, with `vars` set
/// (nothing else of the environment: no locale unless given).
fn on_terminal(url: &str, args: &str, vars: &[(&str, &str)]) -> String {
    let mut env = Env::with_service(url);
    for (name, value) in vars {
        env.set(name, value);
    }
    env.cmd(args)
        .on_terminal()
        .run()
        .stdout
        .replace("\r\n", "\n")
}

#[test]
fn a_utf8_terminal_gets_braille_each_chain_in_its_colour() {
    let (sandbox, _env) = sandbox_env(&[]);
    let shown = on_terminal(&sandbox.url, CHAINS, &[("LANG", "C.UTF-8")]);
    assert!(braille_cells(&shown) > 100, "braille lines: {shown}");
    // No plain marks in the plot; the legend shows each chain's colour with a braille line.
    assert!(!shown.contains('*') && !shown.contains(" o "), "{shown}");
    for (colour, chain) in [("34", "ETHEREUM"), ("33", "ARBITRUM"), ("36", "BASE")] {
        let entry = format!("\x1b[{colour}m\u{2812}\x1b[0m {chain}");
        assert!(shown.contains(&entry), "{entry:?} in the legend: {shown}");
    }
    // Axis labels and dates as ever.
    assert!(
        shown.contains("2024-03-01") && shown.contains("2024-03-14"),
        "{shown}"
    );
    // The locale may say UTF-8 in any case and in LC_CTYPE alone.
    for locale in [("LANG", "en_US.utf8"), ("LC_CTYPE", "UTF-8")] {
        let shown = on_terminal(&sandbox.url, CHAINS, &[locale]);
        assert!(braille_cells(&shown) > 100, "{locale:?}: {shown}");
    }
}

#[test]
fn no_utf8_locale_or_no_color_keeps_the_plain_chart() {
    let (sandbox, _env) = sandbox_env(&[]);
    let cases: [&[(&str, &str)]; 4] = [
        &[],
        &[("LANG", "C")],
        &[("LANG", "C.UTF-8"), ("NO_COLOR", "1")],
        // LC_ALL, when set, decides over LANG.
        &[("LANG", "C.UTF-8"), ("LC_ALL", "POSIX")],
    ];
    // The plain chart, character for character, whatever else differs (colour).
    let plain = uncoloured(&on_terminal(&sandbox.url, CHAINS, &[]));
    assert!(
        plain.contains("* ETHEREUM   o ARBITRUM   x BASE"),
        "{plain}"
    );
    assert!(plain.matches('*').count() > 20, "{plain}");
    for vars in cases {
        let shown = on_terminal(&sandbox.url, CHAINS, vars);
        assert_eq!(braille_cells(&shown), 0, "{vars:?}: {shown}");
        assert_eq!(uncoloured(&shown), plain, "{vars:?}");
    }
}

#[test]
fn several_chains_without_colour_fall_back_to_marks_and_one_chain_keeps_braille() {
    let (sandbox, _env) = sandbox_env(&[]);
    let utf8 = [("LANG", "C.UTF-8")];
    let several = on_terminal(&sandbox.url, &format!("{CHAINS} --color never"), &utf8);
    assert_eq!(braille_cells(&several), 0, "{several}");
    assert!(
        several.contains("* ETHEREUM   o ARBITRUM   x BASE"),
        "{several}"
    );
    let one = "users -c eth -s 2024-03-01 -e 2024-03-14 -f chart --color never -q";
    let shown = on_terminal(&sandbox.url, one, &utf8);
    assert!(braille_cells(&shown) > 20, "{shown}");
    assert!(!shown.contains('\x1b'), "{shown}");
    assert!(shown.contains("\u{2812} ETHEREUM"), "{shown}");
}

#[test]
fn a_gap_stays_a_break_in_braille_and_the_axes_stay_as_they_were() {
    // Into a pipe: the locale alone decides, and one series needs no colour. No value on the
    // 3rd: nothing is drawn between the 2nd and the 4th.
    let (stub, env) = utf8_env(
        r#"[{"date":"2024-01-01","fees":10},{"date":"2024-01-02","fees":40},{"date":"2024-01-04","fees":25},{"date":"2024-01-05","fees":30}]"#,
    );
    env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-05 -f chart -q")
        .stdout(format!(
            "\
40 +                 ⣠⠞⠁
   |               ⣠⠞⠁
   |             ⣠⠞⠁
30 +           ⣠⠞⠁                                                     ⢀⣀⣀⣠⠤⠤⠴⠒⠒
   |         ⢠⠞⠁                                            ⢀⣀⣠⠤⠤⠴⠒⠒⠚⠉⠉⠉
   |       ⢀⡴⠋
20 +     ⢀⡴⠋
   |   ⢀⡴⠋
   | ⢀⡴⠋
10 +⠴⠋
   |
   |
 0 +
   ++------------------+------------------+-----------------+------------------+
    2024-01-01    2024-01-02         2024-01-03        2024-01-04     2024-01-05
    ⠒ ETHEREUM
ETHEREUM · 2024-01-01 to 2024-01-05 · by day · data from {}
{}
",
            stub.url,
            made_line()
        ))
        .run();
}
