//! The small rules that have one home each in src, checked from the outside: the loopback set
//! (CLI.md §3) for both plain http and proxies, the number bound under `--summary`, colour and
//! `TERM=dumb`, and a trust store that is only read when a connection can need TLS.

use crate::support::files::read;
use crate::support::{Env, Reply, Stub, TestCa, TestProxy};

const ARGS: [&str; 7] = ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01"];
const BODY: &str = r#"[{"date":"2024-01-01","fees":12.5}]"#;
const CSV: &str = "date,fees\n2024-01-01,12.5\n";

#[test]
fn plain_http_is_taken_for_localhost_but_not_for_a_name_under_localhost() {
    let stub = Stub::always(Reply::json(200, BODY));
    let port = stub.url.rsplit(':').next().unwrap().to_owned();
    Env::with_service(&format!("http://localhost:{port}"))
        .cmd_args(&ARGS)
        .stdout(CSV)
        .run();
    let run = Env::with_service(&format!("http://a.localhost:{port}"))
        .cmd_args(&ARGS)
        .code(3)
        .run();
    assert!(
        run.error_line()
            .contains("refusing plain http to a.localhost: the API key would travel in clear"),
        "{run:?}"
    );
    assert_eq!(stub.seen().len(), 1, "only the localhost run was sent");
}

#[test]
fn a_proxy_is_skipped_for_loopback_and_used_for_a_name_under_localhost() {
    let proxy = TestProxy::start(200);
    let stub = Stub::always(Reply::json(200, BODY));
    let port = stub.url.rsplit(':').next().unwrap().to_owned();
    for (host, through_proxy) in [
        ("127.0.0.1", false),
        ("localhost", false),
        ("a.localhost", true),
    ] {
        let mut env = Env::with_service(&format!("http://{host}:{port}"));
        env.set("HTTP_PROXY", &proxy.url);
        // Plain http to a name that is not loopback is the user's explicit choice here.
        env.write_config("allow_http = true\n");
        let before = proxy.seen().len();
        env.cmd_args(&ARGS).any_outcome().run();
        let proxied = proxy.seen().len() > before;
        assert_eq!(proxied, through_proxy, "{host}");
    }
}

#[test]
fn summary_over_a_huge_exponent_is_a_bad_response_and_writes_nothing() {
    for value in ["1e999999999", "1e9999999999999999999"] {
        let body = format!(r#"[{{"date":"2024-01-01","fees":{value}}}]"#);
        let stub = Stub::always(Reply::json(200, &body));
        let env = Env::with_service(&stub.url);
        let run = env
            .cmd_args(&[&ARGS[..], &["--summary", "-f", "markdown", "-o", "out.md"]].concat())
            .code(8)
            .run();
        assert!(run.error_line().contains(&value[..6]), "{value}: {run:?}");
        assert!(!env.home.path().join("out.md").exists(), "{value}");
        // Without --summary the value passes through as sent.
        env.cmd_args(&[&ARGS[..], &["-o", "out.csv"]].concat())
            .run();
        assert_eq!(
            read(&env, "out.csv"),
            format!("date,fees\n2024-01-01,{value}\n")
        );
    }
}

#[test]
fn term_dumb_turns_colour_off_on_a_terminal_as_clap_does() {
    let stub = Stub::always(Reply::json(200, BODY));
    let mut env = Env::with_service(&stub.url);
    let coloured = env.cmd_args(&ARGS).on_terminal().run().stdout;
    assert!(coloured.contains("\x1b["), "{coloured:?}");
    env.set("TERM", "dumb");
    let plain = env.cmd_args(&ARGS).on_terminal().run().stdout;
    assert!(!plain.contains("\x1b["), "{plain:?}");
    assert!(plain.contains("12.5"), "{plain:?}");
}

#[test]
fn the_trust_store_is_read_only_when_a_connection_can_need_tls() {
    // A broken SSL_CERT_FILE does not matter to plain http on loopback: nothing reads it.
    let stub = Stub::always(Reply::json(200, BODY));
    let mut env = Env::with_service(&stub.url);
    let broken = env.home.path().join("broken.pem");
    std::fs::write(&broken, "not a certificate\n").unwrap();
    env.set("SSL_CERT_FILE", broken.to_str().unwrap());
    env.cmd_args(&ARGS).stdout(CSV).run();
    // Over https the same variable is read, and refused.
    let ca = TestCa::new();
    let tls = Stub::start_tls(&ca.leaf(), |_| Reply::json(200, BODY));
    let mut env = Env::with_service(&tls.url);
    env.set("SSL_CERT_FILE", broken.to_str().unwrap());
    let run = env.cmd_args(&ARGS).code(3).run();
    assert!(
        run.error_line().starts_with("error: SSL_CERT_FILE="),
        "{run:?}"
    );
    assert_eq!(tls.connections(), 0);
}
