//! Foreign text made safe in one place: a key the service echoes glued to other text,
//! percent-encoded or coloured shows no piece of itself in any message (error line, `-v`,
//! `--error-format json`), a reordering mark from the service never reaches stderr, a key
//! written with JSON escapes is masked in `--raw`, and config text is shown the same way.

use crate::support::files::run_sql;
use crate::support::{empty_service, Env, Reply, Stub, KEY};

const DAY: &str = "fees -c eth -s 2024-01-01 -e 2024-01-01";

const REJECTED: &str = "error: the service rejected the API key: POST /api/chain-insights/fees \
                        for ETHEREUM answered HTTP 401 Unauthorized: ";

/// No piece of the key in `shown`, which the failure prints.
fn assert_key_hidden(shown: &str) {
    assert_eq!(pieces_of_key(shown), Vec::<&str>::new(), "{shown}");
}

/// Every 5-character piece of the key that `shown` holds.
fn pieces_of_key(shown: &str) -> Vec<&'static str> {
    (0..=KEY.len() - 5)
        .map(|i| &KEY[i..i + 5])
        .filter(|piece| shown.contains(piece))
        .collect()
}

#[test]
fn a_key_echoed_glued_percent_encoded_or_coloured_shows_no_piece_of_itself() {
    let cases = [
        (
            format!("xxxx{KEY} is the key you sent"),
            "xxxx**** is the key you sent",
        ),
        (format!("key=%20{KEY}%20 unknown"), "key=%20****%20 unknown"),
        (
            format!("bad key \x1b[31m{KEY}\x1b[0m"),
            "bad key \u{fffd}[31m****\u{fffd}[0m",
        ),
    ];
    for (said, shown) in cases {
        let stub = Stub::always(Reply::new(401, "text/plain", said));
        let run = Env::with_service(&stub.url)
            .cmd(DAY)
            .code(4)
            .error_line(format!("{REJECTED}{shown}"))
            .run();
        assert_key_hidden(&run.stderr);
    }
}

#[test]
fn a_key_echoed_glued_is_masked_in_the_json_error() {
    let stub = Stub::always(Reply::json(401, &format!(r#"{{"error":"x{KEY}x"}}"#)));
    let run = Env::with_service(&stub.url)
        .cmd(&format!("{DAY} --error-format json"))
        .code(4)
        .stdout("")
        .any_stderr()
        .run();
    let error: serde_json::Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(error["service_message"], "x****x");
    assert_eq!(
        error["message"],
        format!("{}x****x", &REJECTED["error: ".len()..])
    );
    assert_eq!(pieces_of_key(&run.stderr), Vec::<&str>::new());
}

#[test]
fn a_key_glued_in_a_redirect_is_masked_in_the_verbose_line() {
    let location = format!("/v2/api/chain-insights/fees?key=x{KEY}x&y=1");
    let stub = Stub::moved_to_v2(location);
    let shown = format!("{}/v2/api/chain-insights/fees?key=x****x&y=1", stub.url);
    let run = Env::with_service(&stub.url)
        .cmd(&format!("{DAY} -v"))
        .stderr_contains(&shown)
        .run();
    assert_eq!(pieces_of_key(&run.stderr), Vec::<&str>::new());
}

#[test]
fn a_reordering_mark_from_the_service_never_reaches_stderr() {
    let said = "invalid key\u{202e}yek dilavni\u{2066} \u{85}x\u{9b}31m";
    let stub = Stub::always(Reply::new(401, "text/plain", said));
    let run = Env::with_service(&stub.url)
        .cmd(DAY)
        .code(4)
        .error_line(format!(
            "{REJECTED}invalid key\u{fffd}yek dilavni\u{fffd} x\u{fffd}31m"
        ))
        .run();
    for mark in ['\u{202e}', '\u{2066}', '\u{85}', '\u{9b}'] {
        assert!(!run.stderr.contains(mark), "{:?}", run.stderr);
    }
}

#[test]
fn a_key_glued_in_a_redirect_target_is_masked() {
    let target = format!("https://other.example/login?k=x{KEY}x");
    let stub = Stub::always(Reply::json(302, "").header("location", &target));
    Env::with_service(&stub.url)
        .cmd(DAY)
        .code(7)
        .error_line(
            "error: POST /api/chain-insights/fees for ETHEREUM redirected to \
             https://other.example/login?k=x****x, another origin: not followed, so the API key \
             is not sent there",
        )
        .any_stderr()
        .run();
}

#[test]
fn raw_masks_a_key_written_with_json_escapes() {
    // The key's first character as a JSON escape: the same string to any JSON reader.
    let escaped = format!("\\u{:04x}{}", KEY.as_bytes()[0], &KEY[1..]);
    let body = format!(r#"[{{"date":"2024-01-01","fees":1,"you_sent":"{escaped}"}}]"#);
    let stub = Stub::always(Reply::json(200, &body));
    Env::with_service(&stub.url)
        .cmd(&format!("{DAY} --raw"))
        .stdout(concat!(
            r#"[{"date":"2024-01-01","fees":1,"you_sent":"****"}]"#,
            "\n"
        ))
        .stderr("warning: the service echoed the API key in its answer; --raw shows it as ****\n")
        .run();
}

#[test]
fn a_config_file_quoted_in_an_error_shows_no_reordering_mark() {
    let env = Env::with_config("[profiles.\"a\\u202Eb\".profiles.c]\n");
    let run = env.cmd("config show").code(3).any_stderr().run();
    assert!(
        run.stderr
            .contains("profile a\u{fffd}b: profiles cannot be nested"),
        "{:?}",
        run.stderr
    );
    assert!(!run.stderr.contains('\u{202e}'), "{:?}", run.stderr);
}

#[test]
fn the_sandbox_logs_a_posted_body_as_foreign_text_with_its_key_masked() {
    use std::io::{Read, Write};
    let sandbox = crate::support::Sandbox::start(&[]);
    let address = sandbox
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/');
    let address = address.split('/').next().unwrap();
    let body = format!("{{\"chain\":\"x\x1b[2J{KEY}glued\u{202e}\"}}");
    let request = format!(
        "POST /api/chain-insights/fees HTTP/1.1\r\nHost: {address}\r\nContent-Type: \
         application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut connection = std::net::TcpStream::connect(address).unwrap();
    connection.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    connection.read_to_end(&mut answer).unwrap();
    let log = sandbox.log_with("#1 -> ");
    assert!(
        log.contains("{\"chain\":\"x\u{fffd}[2J****glued\u{fffd}\"}"),
        "{log:?}"
    );
    assert_eq!(pieces_of_key(&log), Vec::<&str>::new(), "{log:?}");
    assert!(
        !log.contains('\x1b') && !log.contains('\u{202e}'),
        "{log:?}"
    );
}

#[test]
fn cache_stats_shows_names_from_the_file_as_foreign_text() {
    let (_sandbox, env) = crate::support::sandbox_env(&[]);
    env.cmd(&format!("{DAY} --cache")).any_stderr().run();
    let file = env.home.path().join(".cache/chain-metrics/cache.sqlite3");
    let sql = "UPDATE series SET service = 'http://x\u{1b}[2J\u{202e}y', chain = 'ETH\u{9b}1m'";
    run_sql(&file, sql);
    let run = env.cmd("cache stats --format csv").any_stderr().run();
    assert_eq!(
        run.stdout.lines().nth(1),
        Some("http://x\u{fffd}[2J\u{fffd}y,/api/chain-insights/fees,ETH\u{fffd}1m,1,2024-01-01,2024-01-01")
    );
}

#[test]
fn a_merge_file_column_name_is_shown_as_foreign_text_in_sqlite_and_csv() {
    let (_sandbox, env) = crate::support::sandbox_env(&[]);
    let path = env.home.path().join("f.sqlite");
    run_sql(
        &path,
        "CREATE TABLE fees (date TEXT, \"fe\u{202e}es\u{1b}\" TEXT)",
    );
    std::fs::write(env.home.path().join("f.csv"), "date,fe\u{202e}es\u{9b}\n").unwrap();
    for file in ["f.sqlite", "f.csv"] {
        env.cmd(&format!("{DAY} -o {file} --merge"))
            .code(9)
            .error_line(format!(
                "error: {file} has the columns date,fe\u{fffd}es\u{fffd} but this command writes \
                 date,chain,fees (fe\u{fffd}es\u{fffd}: not written by this command with these flags): \
                 not merged; the file is left as it was",
            ))
            .any_stderr()
            .run();
    }
}

/// The key, from the environment or from the config file, is known before any file is read: a
/// merge file holding it (as it is, split by an invisible character, or percent-encoded, in a
/// value, date or chain cell) is refused with it masked, in text and JSON mode.
#[test]
fn a_merge_file_refusal_masks_the_key_in_every_spelling() {
    let (stub, from_env) = empty_service();
    let from_file = Env::new();
    from_file.write_config(&format!(
        "base_url = \"{}\"\napi_key = \"{KEY}\"\n",
        stub.url
    ));
    for env in [from_env, from_file] {
        merge_refusals_mask_the_key(&env);
    }
    assert!(stub.seen().is_empty());
}

fn merge_refusals_mask_the_key(env: &Env) {
    let (head, tail) = KEY.split_at(7);
    let encoded: String = KEY.bytes().map(|b| format!("%{b:02x}")).collect();
    for cell in [
        KEY.to_owned(),
        format!("{head}\u{200b}{tail}"),
        format!("{head}\u{ad}{tail}"),
        encoded,
    ] {
        for row in [
            format!("2024-01-01,ETHEREUM,{cell}"),
            format!("{cell},ETHEREUM,1"),
            format!("2024-01-01,{cell},1"),
        ] {
            std::fs::write(
                env.home.path().join("m.csv"),
                format!("date,chain,fees\n{row}\n"),
            )
            .unwrap();
            merge_refusal_masks_the_key(env, &row);
        }
    }
}

fn merge_refusal_masks_the_key(env: &Env, row: &str) {
    for format in ["", " --error-format json"] {
        let run = env
            .cmd(&format!("{DAY} -o m.csv --merge{format}"))
            .code(9)
            .any_stderr()
            .run();
        assert!(run.stderr.contains("****"), "{row:?}: {}", run.stderr);
        assert_key_hidden(&run.stderr);
    }
}

/// `--dry-run` and `config show` never run `api_key_command` (its output could be the key).
#[test]
fn dry_run_and_config_show_never_run_the_key_command() {
    let env = Env::new();
    let mark = env.home.path().join("ran");
    env.write_config(&format!(
        "base_url = \"http://127.0.0.1:9\"\napi_key_command = \"touch {}\"\n",
        mark.display()
    ));
    env.cmd(&format!("{DAY} --dry-run")).any_stdout().run();
    env.cmd("config show").any_stdout().run();
    env.cmd(&format!("{DAY} -o m.csv --merge --resume --dry-run"))
        .any_stdout()
        .any_stderr()
        .run();
    assert!(!mark.exists(), "the key command ran");
}
