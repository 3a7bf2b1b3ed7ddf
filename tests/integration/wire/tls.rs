//! The production path over real TLS on loopback, with certificates the tests make: trust
//! through SSL_CERT_FILE, `ca_bundle`, CHAIN_METRICS_CA_BUNDLE and --ca-bundle; each refused
//! certificate (one attempt, exit 7, the hint); the wrong scheme for a port; bad bundles;
//! gzip; `sandbox --tls`; and part of the fault matrix over TLS.

use std::io::Write;
use std::path::PathBuf;

use crate::support::{Env, Reply, Sandbox, Stub, TestCa};
use snapbox::str;

const FEES: &str = "/api/chain-insights/fees";
const ARGS: [&str; 7] = ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-01"];
/// 36 significant digits: no float survives them.
const BODY: &str = r#"[{"date":"2024-01-01","fees":123456789012345678.123456789012345678}]"#;
const CSV: &str = "date,fees\n2024-01-01,123456789012345678.123456789012345678\n";
const CERT_HINT: &str = "hint: if a company proxy or a private CA signs it, trust that CA's certificate with --ca-bundle FILE (or CHAIN_METRICS_CA_BUNDLE, or SSL_CERT_FILE); check the base URL's host name";

fn service(leaf: &crate::support::Leaf) -> Stub {
    Stub::start_tls(leaf, |_| Reply::json(200, BODY))
}

/// Writes `pem` into the test's home and returns its path.
fn pem_file(env: &Env, name: &str, pem: &str) -> PathBuf {
    let path = env.home.path().join(name);
    std::fs::write(&path, pem).unwrap();
    path
}

/// `error: POST /api/chain-insights/fees for ETHEREUM at URL/api/chain-insights/fees: `
fn at(url: &str) -> String {
    format!("error: POST {FEES} for ETHEREUM at {url}{FEES}: ")
}

/// A service whose certificate a CA of the tests' own signed, and an environment pointed at it.
fn a_private_service() -> (TestCa, Stub, Env) {
    let ca = TestCa::new();
    let stub = service(&ca.leaf());
    let env = Env::with_service(&stub.url);
    (ca, stub, env)
}

/// The run fetches the exact numbers, and says nothing else.
fn fetches_exactly(env: &Env) {
    env.cmd_args(&ARGS).stdout(CSV).run();
}

#[test]
fn trusted_through_ssl_cert_file() {
    let (ca, _stub, mut env) = a_private_service();
    env.set(
        "SSL_CERT_FILE",
        pem_file(&env, "ca.pem", &ca.pem).to_str().unwrap(),
    );
    fetches_exactly(&env);
}

#[test]
fn trusted_through_ca_bundle_in_the_config_file_relative_to_it() {
    let (ca, _stub, env) = a_private_service();
    env.write_config("ca_bundle = \"company-ca.pem\"\n");
    std::fs::write(env.config_dir().join("company-ca.pem"), &ca.pem).unwrap();
    fetches_exactly(&env);
}

#[test]
fn trusted_through_the_variable_and_the_flag() {
    let ca = TestCa::new();
    let stub = service(&ca.leaf());
    let mut env = Env::with_service(&stub.url);
    let ca_path = pem_file(&env, "ca.pem", &ca.pem);
    let ca_path = ca_path.to_str().unwrap();
    env.cmd_args(&[&["--ca-bundle", ca_path][..], &ARGS].concat())
        .stdout(CSV)
        .run();
    env.set("CHAIN_METRICS_CA_BUNDLE", ca_path);
    env.cmd_args(&ARGS).stdout(CSV).run();
    // The bundle adds to the platform's store; another CA's server is still refused.
    let other = service(&TestCa::new().leaf());
    env.set("CHAIN_METRICS_BASE_URL", &other.url);
    env.cmd_args(&ARGS).code(7).run();
}

#[test]
fn an_unknown_issuer_is_one_attempt_exit_7_with_the_hint() {
    let stub = service(&TestCa::new().leaf());
    let env = Env::with_service(&stub.url);
    env.cmd_args(&[&["--retries", "3"][..], &ARGS].concat()).code(7).stderr(format!("{}the server's certificate was refused: it is signed by an unknown issuer (invalid peer certificate: UnknownIssuer)\n{CERT_HINT}\n", at(&stub.url))).run();
    assert_eq!((stub.connections(), stub.seen().len()), (1, 0));
}

/// A run against a service with the certificate `leaf` makes, its CA trusted through
/// SSL_CERT_FILE: refused at the first connection, exit 7.
fn refused(leaf: impl Fn(&TestCa) -> crate::support::Leaf) -> (Stub, crate::support::Run) {
    let ca = TestCa::new();
    let stub = service(&leaf(&ca));
    let mut env = Env::with_service(&stub.url);
    env.set(
        "SSL_CERT_FILE",
        pem_file(&env, "ca.pem", &ca.pem).to_str().unwrap(),
    );
    let run = env
        .cmd_args(&[&["--retries", "2"][..], &ARGS].concat())
        .code(7)
        .run();
    assert_eq!((run.code, stub.connections()), (7, 1), "{run:?}");
    (stub, run)
}

#[test]
fn an_expired_certificate_is_named() {
    let (stub, run) = refused(|ca| ca.leaf_for(&["127.0.0.1"], -30, -1));
    let expected = format!("{}the server's certificate was refused: it has expired (invalid peer certificate: certificate expired: verification time ", at(&stub.url));
    assert!(run.error_line().starts_with(&expected), "{}", run.stderr);
    assert_eq!(run.stderr.lines().nth(1), Some(CERT_HINT));
}

#[test]
fn a_certificate_for_another_host_is_named() {
    let (stub, run) = refused(|ca| ca.leaf_for(&["other.example"], -1, 30));
    assert_eq!(
        run.error_line(),
        format!("{}the server's certificate was refused: it is for another host name (invalid peer certificate: certificate not valid for name \"127.0.0.1\"; certificate is only valid for DnsName(\"other.example\"))", at(&stub.url))
    );
}

#[test]
fn https_to_a_plain_port_and_http_to_a_tls_port_say_so() {
    let plain = Stub::always(Reply::json(200, BODY));
    let url = plain.url.replace("http://", "https://");
    Env::with_service(&url).cmd_args(&ARGS).code(7).stderr(format!("{}the server answered https:// in plain HTTP (an http:// port?) (received corrupt message of type InvalidContentType)\nhint: the port speaks plain HTTP: check the base URL's scheme and port\n", at(&url))).run();
    let tls = service(&TestCa::new().leaf());
    let url = tls.url.replace("https://", "http://");
    let run = Env::with_service(&url).cmd_args(&ARGS).stderr(format!("{}the server does not speak plain HTTP (an https:// port?) (invalid HTTP version parsed)\nhint: the port speaks TLS: use https:// in the base URL\n", at(&url))).code(7).run();
    assert_eq!((run.code, tls.connections()), (7, 1), "{run:?}");
}

#[test]
fn a_bundle_that_cannot_be_used_is_exit_3_naming_the_file() {
    let stub = service(&TestCa::new().leaf());
    let mut env = Env::with_service(&stub.url);
    let empty = pem_file(&env, "empty.pem", "");
    let garbage = pem_file(
        &env,
        "bad.pem",
        "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n",
    );
    let missing = env.home.path().join("missing.pem");
    let hint = "hint: name a readable file of PEM certificates (-----BEGIN CERTIFICATE-----)";
    env.cmd_args(&[&["--ca-bundle", empty.to_str().unwrap()][..], &ARGS].concat())
        .code(3)
        .stderr(format!(
            "error: CA bundle {} holds no PEM certificate (from flag --ca-bundle)\n{hint}\n",
            empty.display()
        ))
        .run();
    env.cmd_args(&[&["--ca-bundle", garbage.to_str().unwrap()][..], &ARGS].concat()).code(3).error_line(format!("error: CA bundle {}: a certificate cannot be a root (invalid peer certificate: BadEncoding) (from flag --ca-bundle)", garbage.display())).run();
    env.set("CHAIN_METRICS_CA_BUNDLE", missing.to_str().unwrap());
    env.cmd_args(&ARGS).code(3).error_line(format!("error: cannot read CA bundle {}: No such file or directory (os error 2) (from environment CHAIN_METRICS_CA_BUNDLE)", missing.display())).run();
    assert_eq!(stub.connections(), 0);
}

#[test]
fn a_broken_ssl_cert_file_is_exit_3_and_an_empty_cert_dir_is_exit_7() {
    let stub = service(&TestCa::new().leaf());
    let mut env = Env::with_service(&stub.url);
    env.set("SSL_CERT_FILE", "/nonexistent/ca.pem");
    env.cmd_args(&ARGS)
        .code(3)
        .stderr(str![[r#"
error: cannot read SSL_CERT_FILE /nonexistent/ca.pem: No such file or directory (os error 2)
hint: point SSL_CERT_FILE at a PEM file of CA certificates, or unset it

"#]])
        .run();
    // A folder with nothing in it: the platform's store still counts; never exit 1.
    let mut env = Env::with_service(&stub.url);
    let empty = env.home.path().join("certs");
    std::fs::create_dir(&empty).unwrap();
    env.set("SSL_CERT_DIR", empty.to_str().unwrap());
    let run = env.cmd_args(&ARGS).code(7).run();
    assert_eq!(run.stderr.lines().nth(1), Some(CERT_HINT));
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn gzip_is_asked_for_and_decoded_with_numbers_exact() {
    let ca = TestCa::new();
    let stub = Stub::start_tls(&ca.leaf(), |_| {
        Reply::json(200, "")
            .header("content-encoding", "gzip")
            .body(gzip(BODY.as_bytes()))
    });
    let mut env = Env::with_service(&stub.url);
    env.set(
        "CHAIN_METRICS_CA_BUNDLE",
        pem_file(&env, "ca.pem", &ca.pem).to_str().unwrap(),
    );
    env.cmd_args(&ARGS).stdout(CSV).run();

    assert_eq!(stub.seen()[0].headers["accept-encoding"], "gzip");
}

#[test]
fn a_body_that_inflates_past_the_cap_stops_there_exit_8() {
    // 80 MiB of digits, about 80 KiB on the wire.
    let bomb = {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let chunk = vec![b'7'; 1 << 20];
        (0..80).for_each(|_| encoder.write_all(&chunk).unwrap());
        encoder.finish().unwrap()
    };
    let stub = Stub::always(
        Reply::json(200, "")
            .body(bomb)
            .header("content-encoding", "gzip"),
    );
    let run = Env::with_service(&stub.url)
        .cmd_args(&[&["--retries", "2"][..], &ARGS].concat())
        .stderr(format!(
            "{}the response is larger than 64 MiB, the most this tool reads\n",
            at(&stub.url)
        ))
        .code(8)
        .run();
    assert_eq!((run.code, stub.seen().len()), (8, 1), "{run:?}");

    let broken =
        Stub::always(Reply::json(200, "not gzip at all").header("content-encoding", "gzip"));
    Env::with_service(&broken.url)
        .cmd_args(&[&["--retries", "2"][..], &ARGS].concat())
        .error_line(format!(
            "{}the response body cannot be decoded (Invalid gzip header)",
            at(&broken.url)
        ))
        .code(8)
        .run();
    assert_eq!(broken.seen().len(), 1);
}

#[test]
fn sandbox_tls_writes_its_certificate_for_clients_to_trust() {
    let cert = tempfile::NamedTempFile::new().unwrap();
    let cert_path = cert.path().to_str().unwrap();
    let sandbox = Sandbox::start(&["--tls", "--cert-out", cert_path]);
    let pem = std::fs::read_to_string(cert.path()).unwrap();
    assert!(pem.starts_with("-----BEGIN CERTIFICATE-----\n"), "{pem}");
    let env = Env::with_service(&sandbox.url);
    env.cmd_args(&[&["--ca-bundle", cert_path][..], &ARGS].concat())
        .stdout(str![[r#"
date,fees
2024-01-01,879768.88

"#]])
        .run();
    let run = env.cmd_args(&ARGS).code(7).run();
    assert!(
        run.error_line().ends_with(
            "it is signed by an unknown issuer (invalid peer certificate: UnknownIssuer)"
        ),
        "{}",
        run.stderr
    );
    let alert = "failed: received fatal alert: UnknownCA";
    let log = sandbox.log_with(alert);
    assert!(log.contains(alert), "{log}");
}

#[test]
fn sandbox_cert_out_needs_tls_and_a_writable_place() {
    let env = Env::new();
    env.cmd("sandbox --cert-out x.pem")
        .code(2)
        .error_line("error: the following required arguments were not provided:")
        .run();
    env.cmd("sandbox --tls --cert-out /nonexistent/dir/x.pem --key sandbox-key")
        .code(9)
        .error_line_like("error: cannot write /nonexistent/dir/x.pem: [..]")
        .run();
}

/// Part of the fault matrix, over HTTPS: the same exits, attempts and lines as over HTTP.
#[test]
fn faults_over_tls_fail_as_over_http() {
    let cases: [(&str, i32, usize, &str); 4] = [
        ("cut", 7, 3, "the response body was cut short (peer closed connection without sending TLS close_notify) (3 attempts)"),
        ("huge", 8, 1, "the response is larger than 64 MiB, the most this tool reads"),
        ("503:0@2", 0, 3, "warning: 1 request retried (2 retries): 503 x2\n"),
        (
            "reset@1",
            0,
            2,
            "warning: 1 request retried (1 retry): connection failed x1\n",
        ),
    ];
    std::thread::scope(|scope| {
        for (fault, code, attempts, reason) in cases {
            scope.spawn(move || {
                let cert = tempfile::NamedTempFile::new().unwrap();
                let cert_path = cert.path().to_str().unwrap();
                let sandbox = Sandbox::start(&["--tls", "--cert-out", cert_path, "--fault", fault]);
                let env = Env::with_service(&sandbox.url);
                let run = env
                    .cmd_args(
                        &[
                            &[
                                "--ca-bundle",
                                cert_path,
                                "--retries",
                                "2",
                                "--timeout",
                                // 64 MiB from a debug build on a busy machine takes a while.
                                if fault == "huge" { "60" } else { "10" },
                            ][..],
                            &ARGS,
                        ]
                        .concat(),
                    )
                    .code(code);
                // A run that succeeds says how often it retried (its one stderr line).
                let run = match code {
                    0 => run.stderr(reason),
                    _ => run,
                }
                .run();
                assert_eq!(
                    (run.code, sandbox.attempts()),
                    (code, attempts),
                    "{fault}: {run:?}"
                );
                match code {
                    0 => assert_eq!(run.stdout, "date,fees\n2024-01-01,879768.88\n"),
                    _ => assert_eq!(run.error_line(), format!("{}{reason}", at(&sandbox.url))),
                }
            });
        }
    });
}

/// A gzip body cut short is a transient failure like any other, not an undecodable one.
#[test]
fn a_gzip_body_cut_short_is_retried_then_exit_7() {
    use std::io::Read;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let compressed = gzip(BODY.repeat(200).as_bytes());
    let server = std::thread::spawn(move || {
        for _ in 0..2 {
            let (mut client, _) = listener.accept().unwrap();
            let _ = client.read(&mut [0; 4096]).unwrap();
            let head = format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: {}\r\n\r\n", compressed.len());
            client.write_all(head.as_bytes()).unwrap();
            client
                .write_all(&compressed[..compressed.len() / 2])
                .unwrap();
        }
    });
    Env::with_service(&url)
        .cmd_args(&[&["--retries", "1"][..], &ARGS].concat())
        .code(7).error_line(format!("{}the response body was cut short (end of file before message length reached) (2 attempts)", at(&url))).run();
    server.join().unwrap();
}
