//! `render FILE` is explicit: a database holding several of the tool's tables is drawn only
//! with `--table NAME` (its hint is a command that works), and the `--summary` rows of the
//! tool's own exports are passed over with a note, the picture being that of the dated rows.

use crate::support::{Env, Sandbox};

/// An environment with no service and no key, the time a picture says it was made fixed.
fn offline() -> Env {
    let mut env = Env::new();
    env.set("SOURCE_DATE_EPOCH", "1700000000");
    env
}

const RANGE: &str = "-c eth,arb -s 2024-01-01 -e 2024-01-10";

#[test]
fn a_database_of_several_tables_is_drawn_only_with_table_named() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    env.cmd(&format!("fees {RANGE} -o m.db")).run();
    // One table: drawn as it is.
    let offline = offline();
    let db = env.home.path().join("m.db");
    let db = db.to_str().unwrap();
    offline.cmd_args(&["render", db, "-o", "one.svg"]).run();
    env.cmd(&format!("users {RANGE} -o m.db")).run();
    offline
        .cmd_args(&["render", db, "-o", "two.svg"])
        .code(2)
        .stderr(format!(
            "error: {db} holds several tables: 'fees', 'users'; render draws one\n\
             hint: name the one to draw: --table fees, or --table users\n"
        ))
        .run();
    assert!(!offline.home.path().join("two.svg").exists());
    // The hint's flags, as it gives them, draw that table: the fees picture of before.
    offline
        .cmd_args(&["render", db, "-o", "fees.svg", "--table", "fees"])
        .run();
    let read = |name: &str| std::fs::read_to_string(offline.home.path().join(name)).unwrap();
    assert_eq!(read("fees.svg"), read("one.svg"));
    offline
        .cmd_args(&["render", db, "-o", "users.svg", "--table", "users"])
        .run();
    assert!(
        read("users.svg").contains("<title>active_users · "),
        "the users table drawn"
    );
    offline
        .cmd_args(&["render", db, "-o", "x.svg", "--table", "nope"])
        .code(2)
        .stderr(format!(
            "error: {db} has no table 'nope'; its tables: 'fees', 'users'\n\
             hint: name one of its tables with --table NAME\n"
        ))
        .run();
}

#[test]
fn table_names_a_database_s_table_and_nothing_else() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    env.cmd(&format!("fees {RANGE} -o m.csv")).run();
    let csv = env.home.path().join("m.csv");
    let csv = csv.to_str().unwrap();
    offline()
        .cmd_args(&["render", csv, "-o", "x.svg", "--table", "fees"])
        .code(2)
        .stderr(format!(
            "error: --table names a table of a SQLite database, and {csv} is a csv file\n\
             hint: leave out --table\n"
        ))
        .run();
}

/// Each mergeable text format with `--summary` (csv, tsv and ndjson hold them as rows dated
/// `total`, `mean`, `min`, `max`; json as a `summary` member) draws the picture of the same
/// export without them, byte for byte, saying once what was left out.
#[test]
fn summary_rows_are_passed_over_with_a_note_and_the_picture_is_the_dated_rows() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let offline = offline();
    for extension in ["csv", "tsv", "ndjson", "json"] {
        let name = format!("s.{extension}");
        let file = env.home.path().join(&name);
        let file = file.to_str().unwrap();
        let draw = |svg: &str| {
            offline
                .cmd_args(&["render", file, "-o", svg])
                .any_stderr()
                .run()
                .stderr
        };
        env.cmd(&format!("fees {RANGE} -o {name}")).run();
        assert_eq!(draw("plain.svg"), "", "{extension}");
        env.cmd(&format!("fees {RANGE} --summary -o {name}")).run();
        assert_eq!(
            draw("summary.svg"),
            format!(
                "note: {file}: its --summary rows (total, mean, min, max) are not drawn; the \
                 picture is of its dated rows\n"
            ),
            "{extension}"
        );
        let read = |svg: &str| std::fs::read(offline.home.path().join(svg)).unwrap();
        assert!(read("plain.svg") == read("summary.svg"), "{extension}");
    }
}

/// `--merge` still refuses a file with `--summary` rows: they are no dates.
#[test]
fn a_merge_into_a_file_with_summary_rows_is_still_refused() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    env.cmd(&format!("fees {RANGE} --summary -o s.json")).run();
    env.cmd(&format!("fees {RANGE} -o s.json --merge"))
        .code(9)
        .error_line_like(
            "error: s.json cannot be merged: not a JSON array of row objects ([..])[..]",
        )
        .any_stderr()
        .run();
}
