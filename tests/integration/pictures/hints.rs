//! A picture that will not read says what would make it read, on stderr as a `hint:` and in
//! the page's notes, and the flag it names works: `--scale log` when a chain lies on the floor
//! of a linear axis, `--by week` when a line has more points than the plot has room for.

use super::dated_env;

const LOG: &str = "OPTIMISM and POLYGON fees stay under 1/30 of the panel's top, flat on the floor: add --scale log to draw every chain's own shape";
const DENSE: &str = "431 days a line are more than the plot's 860 pixels can show apart: add --by week to draw each week as one point";

#[test]
fn a_picture_hints_at_the_flag_that_makes_it_read_and_that_flag_works() {
    let env = dated_env();
    let query = "--sandbox fees -c all -e 2024-03-31 --last 431";
    let run = env.cmd(&format!("{query} -o f.html")).any_stderr().run();
    let hints = run.stderr_lines("hint: ");
    assert_eq!(hints, [format!("hint: {LOG}"), format!("hint: {DENSE}")]);
    let page = std::fs::read_to_string(env.home.path().join("f.html")).unwrap();
    for hint in [LOG, DENSE] {
        let note = format!("<li>{}</li>", hint.replace('\'', "&#39;"));
        assert!(page.contains(&note), "{hint} not in the notes");
    }
    // Each hint's flag, added to the same command, works and answers its hint.
    for (hint, gone) in [(LOG, "--scale log"), (DENSE, "--by week")] {
        let flag = hint
            .split("add ")
            .nth(1)
            .unwrap()
            .split(" to ")
            .next()
            .unwrap();
        assert_eq!(flag, gone);
        let run = env
            .cmd(&format!("{query} {flag} -o again.svg"))
            .any_stderr()
            .run();
        assert!(!run.stderr.contains(hint), "{flag}: {}", run.stderr);
        assert!(env.home.path().join("again.svg").exists());
    }
    // A table has no picture to hint at.
    let run = env.cmd(&format!("{query} -f csv")).any_stderr().run();
    assert!(run.stderr_lines("hint: ").is_empty(), "{}", run.stderr);
}
