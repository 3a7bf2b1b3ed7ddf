//! What goes on the wire: method, headers, body, base URL prefixes, the 405 fallback, redirects;
//! `--raw` prints the body as it came, `--dry-run` the curl lines that send what the tool sends.

use crate::support::{argv, Cmd, Env, Reply, Sandbox, Stub, KEY};
use snapbox::str;

const FEES: &str = r#"[{"date":"2024-01-01","fees":1}]"#;

fn fees<'e>(env: &'e Env, chains: &str, extra: &[&str]) -> Cmd<'e> {
    env.cmd_args(
        &[
            &[
                "fees",
                "-c",
                chains,
                "-s",
                "2024-01-01",
                "-e",
                "2024-01-01",
                "--jobs",
                "1",
            ],
            extra,
        ]
        .concat(),
    )
}

#[test]
fn posts_the_documented_body_and_headers() {
    let stub = Stub::always(Reply::json(200, FEES));
    fees(&Env::with_service(&stub.url), "eth", &[]).run();
    let seen = &stub.seen()[0];
    assert_eq!(
        (seen.method.as_str(), seen.path.as_str()),
        ("POST", "/api/chain-insights/fees")
    );
    let header = |name: &str| seen.headers.get(name).unwrap().to_str().unwrap().to_owned();
    assert_eq!(header("x-api-key"), KEY);
    assert_eq!(header("content-type"), "application/json");
    assert_eq!(header("accept"), "application/json");
    assert_eq!(
        header("user-agent"),
        format!("chain-metrics/{}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(
        seen.body,
        r#"{"chain":"ETHEREUM","start_date":"2024-01-01","end_date":"2024-01-01"}"#
    );
}

#[test]
fn each_endpoint_has_its_path() {
    let stub = Stub::start(|seen| match seen.path.as_str() {
        "/api/social-metrics/official-account" => Reply::json(200, r#"{"data":[]}"#),
        _ => Reply::json(200, "[]"),
    });
    let env = Env::with_service(&stub.url);
    for command in ["fees", "users", "social"] {
        env.cmd(&format!("{command} -c eth -s 2024-01-01 -e 2024-01-01 -q"))
            .run();
    }
    let paths: Vec<String> = stub.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(
        paths,
        [
            "/api/chain-insights/fees",
            "/api/chain-insights/active_users",
            "/api/social-metrics/official-account"
        ]
    );
}

#[test]
fn a_base_url_path_prefix_is_kept_with_or_without_a_trailing_slash() {
    let stub = Stub::always(Reply::json(200, FEES));
    for base in [format!("{}/v2", stub.url), format!("{}/v2/", stub.url)] {
        fees(&Env::with_service(&base), "eth", &[]).run();
    }
    let paths: Vec<String> = stub.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(
        paths,
        ["/v2/api/chain-insights/fees", "/v2/api/chain-insights/fees"]
    );
}

#[test]
fn auto_falls_back_to_get_on_405_and_keeps_get() {
    let stub = Stub::start(|seen| match seen.method.as_str() {
        "GET" => Reply::json(200, FEES),
        _ => Reply::json(405, r#"{"error":"method not allowed"}"#),
    });
    let run = fees(&Env::with_service(&stub.url), "eth,arb", &["-v"])
        .stderr_contains("* POST ")
        .run();
    let seen = stub.seen();
    let methods: Vec<&str> = seen.iter().map(|s| s.method.as_str()).collect();
    assert_eq!(methods, ["POST", "GET", "GET"]);
    assert_eq!(
        seen[2].body, r#"{"chain":"ARBITRUM","start_date":"2024-01-01","end_date":"2024-01-01"}"#,
        "GET carries the body"
    );
    assert!(
        run.stderr
            .contains("the service refused POST (405): retrying as GET"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_real_sandbox_in_get_only_mode_works_through_auto() {
    let sandbox = Sandbox::start(&["--method", "get"]);
    let env = Env::with_service(&sandbox.url);
    fees(&env, "eth,arb", &[])
        .stdout(str![[r#"
date,chain,fees
2024-01-01,ETHEREUM,879768.88
2024-01-01,ARBITRUM,59575.78

"#]])
        .run();
    fees(&env, "eth", &["--method", "post"]).code(5).error_line("error: the service rejected the request: POST /api/chain-insights/fees for ETHEREUM answered HTTP 405 Method Not Allowed: method POST is not allowed").run();
}

#[test]
fn method_get_sends_get_from_the_start() {
    let stub = Stub::always(Reply::json(200, FEES));
    fees(&Env::with_service(&stub.url), "eth", &["--method", "get"]).run();
    assert_eq!(stub.seen()[0].method, "GET");
}

#[test]
fn a_redirect_within_the_origin_is_followed() {
    let stub = Stub::start(|seen| match seen.path.as_str() {
        "/api/chain-insights/fees" => Reply::json(307, "").header("location", "/moved/fees"),
        _ => Reply::json(200, FEES),
    });
    fees(&Env::with_service(&stub.url), "eth", &[]).run();
    let seen = stub.seen();
    assert_eq!(seen[1].path, "/moved/fees");
    assert_eq!(seen[1].headers.get("x-api-key").unwrap(), KEY);
}

#[test]
fn a_redirect_to_another_origin_is_refused_and_never_gets_the_key() {
    let elsewhere = Stub::always(Reply::json(200, FEES));
    let target = format!("{}/collect", elsewhere.url);
    let location = target.clone();
    let stub = Stub::start(move |_| Reply::json(308, "").header("location", &location));
    fees(&Env::with_service(&stub.url), "eth", &[]).code(7).error_line(format!("error: POST /api/chain-insights/fees for ETHEREUM redirected to {target}, another origin: not followed, so the API key is not sent there")).run();
    assert!(
        elsewhere.seen().is_empty(),
        "the other origin was contacted"
    );
    assert_eq!(stub.seen().len(), 1);
}

#[test]
fn a_301_302_or_303_within_the_origin_resends_the_same_post_with_its_body() {
    for status in [301, 302, 303] {
        let stub = Stub::start(move |seen| match seen.path.as_str() {
            "/api/chain-insights/fees" => Reply::json(status, "").header("location", "/v2/fees"),
            _ => Reply::json(200, FEES),
        });
        fees(&Env::with_service(&stub.url), "eth", &[]).run();
        let seen = stub.seen();
        assert_eq!(
            (seen[1].method.as_str(), seen[1].path.as_str()),
            ("POST", "/v2/fees"),
            "{status}"
        );
        assert_eq!(
            seen[1].body,
            r#"{"chain":"ETHEREUM","start_date":"2024-01-01","end_date":"2024-01-01"}"#
        );
        assert_eq!(seen[1].headers.get("x-api-key").unwrap(), KEY);
    }
}

#[test]
fn raw_prints_the_body_byte_for_byte() {
    let body =
        "{ \"data\" : [ {\"date\":\"2024-01-01\",\"tweet\":1.0E0, \"extra\":\"\u{e9}\"} ] }\n\n";
    let stub = Stub::always(Reply::json(200, body));
    let env = Env::with_service(&stub.url);
    let args = argv("social -c eth -s 2024-01-01 -e 2024-01-01 --raw");
    env.cmd_args(&args).stdout(body).run();

    env.cmd_args(&[&args[..], &["-o", "raw.json"]].concat())
        .run();
    assert_eq!(
        std::fs::read(env.home.path().join("raw.json")).unwrap(),
        body.as_bytes()
    );
}

/// `--raw` writes the body as it comes: one cut short before any of it was written (a day's
/// body, whose first half is still held to see whether the key begins there) is asked again;
/// one cut after some was written (three months') is not, as it would be written twice.
#[test]
fn raw_asks_again_for_a_body_cut_short_only_while_none_of_it_was_written() {
    let day = argv("fees -c eth -s 2024-01-01 -e 2024-01-01 --raw");
    let whole = {
        let sandbox = Sandbox::start(&[]);
        Env::with_service(&sandbox.url).cmd_args(&day).run().stdout
    };
    let sandbox = Sandbox::start(&["--fault", "cut@1"]);
    let env = Env::with_service(&sandbox.url);
    env.cmd_args(&day).stdout(whole.as_str()).run();
    assert_eq!(sandbox.attempts(), 2);
    let sandbox = Sandbox::start(&["--fault", "cut@1"]);
    let env = Env::with_service(&sandbox.url);
    let run = env
        .cmd("fees -c eth -s 2024-01-01 -e 2024-03-31 --raw")
        .code(7)
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        run.error_line().contains("the response body was cut short"),
        "{}",
        run.stderr
    );
    // The first half as sent, once.
    assert!(
        run.stdout.starts_with("[{\"date\":\"2024-01-01\""),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stdout.matches("2024-01-01").count(),
        1,
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.attempts(), 1);
}

#[test]
fn raw_to_a_terminal_replaces_control_characters_and_to_a_pipe_keeps_them() {
    // An OSC 52 clipboard write and a title change in a value, and a bare escape.
    let body = "[{\"date\":\"2024-01-01\",\"x\":\"\u{1b}]52;c;ZXZpbA==\u{7}\u{1b}]0;owned\u{7}\u{1b}[2J\"}]\n";
    let stub = Stub::always(Reply::json(200, body));
    let env = Env::with_service(&stub.url);
    let args = argv("social -c eth -s 2024-01-01 -e 2024-01-01 --raw");
    env.cmd_args(&args).stdout(body).run();
    let shown = env.cmd_args(&args).on_terminal().run().stdout;
    assert!(!shown.contains(['\u{1b}', '\u{7}']), "{shown:?}");
    assert!(
        shown.contains("\u{fffd}]52;c;ZXZpbA==\u{fffd}\u{fffd}]0;owned\u{fffd}\u{fffd}[2J"),
        "{shown:?}"
    );
}

#[test]
fn dry_run_prints_curl_lines_that_bash_runs_as_printed_and_sends_nothing() {
    let stub = Stub::always(Reply::json(200, r#"{"data":[]}"#));
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", &format!("{}/v2/", stub.url));
    let version = env!("CARGO_PKG_VERSION");
    let line = |chain: &str| {
        format!(
            "curl -sS -X POST '{}/v2/api/social-metrics/official-account' -H \"X-API-Key: $CHAIN_METRICS_API_KEY\" -H 'Content-Type: application/json' -H 'Accept: application/json' -H 'User-Agent: chain-metrics/{version}' --data-raw '{{\"chain\":\"{chain}\",\"start_date\":\"2024-01-01\",\"end_date\":\"2024-01-02\",\"includes\":\"quote\"}}'\n",
            stub.url
        )
    };
    let run = env
        .cmd("social -c eth,op -i quote -s 2024-01-01 -e 2024-01-02 --dry-run")
        .stdout(line("ETHEREUM") + &line("OPTIMISM"))
        .run();

    assert!(stub.seen().is_empty(), "--dry-run sent a request");

    let mut shell = Env::new();
    shell.set("CHAIN_METRICS_API_KEY", KEY);
    shell
        .shell(run.stdout.lines().next().unwrap())
        .stdout(r#"{"data":[]}"#)
        .run();
    // What curl sent is what chain-metrics itself sends.
    env.set("CHAIN_METRICS_API_KEY", KEY);
    env.cmd("social -c eth -i quote -s 2024-01-01 -e 2024-01-02")
        .stderr_contains("warning: ETHEREUM official account: no data")
        .run();
    let seen = stub.seen();
    assert_eq!(seen.len(), 2);
    for header in ["x-api-key", "content-type", "accept", "user-agent"] {
        assert_eq!(
            seen[0].headers.get(header),
            seen[1].headers.get(header),
            "{header}"
        );
    }
    assert_eq!(seen[0].headers["x-api-key"], KEY);
    assert_eq!(
        (&seen[0].method, &seen[0].path, &seen[0].body),
        (&seen[1].method, &seen[1].path, &seen[1].body)
    );
}

#[test]
fn dry_run_follows_the_method_setting() {
    let mut env = Env::new();
    env.set("CHAIN_METRICS_BASE_URL", "http://127.0.0.1:9");
    let run = env
        .cmd("--method get fees -c eth -s 2024-01-01 -e 2024-01-01 --dry-run")
        .run();
    assert!(
        run.stdout
            .starts_with("curl -sS -X GET 'http://127.0.0.1:9/api/chain-insights/fees' "),
        "{run:?}"
    );
}
