//! Timeouts, retries, long ranges in windows, strict bodies and interruption, end to end: the
//! real binary against the sandbox (with faults) and scripted servers on loopback.

use std::time::{Duration, Instant};

use crate::support::{argv, sandbox_env, Env, Reply, Sandbox, Stub};
use snapbox::str;

const RANGE: [&str; 6] = ["-c", "eth", "-s", "2024-01-01", "-e", "2024-01-03"];
const FEES: &str = "date,fees\n2024-01-01,879768.88\n2024-01-02,826665.76\n2024-01-03,821920.42\n";

/// A listener whose accept queue is full, so that a new connection is never accepted.
struct Unaccepting {
    _runtime: tokio::runtime::Runtime,
    _listener: tokio::net::TcpListener,
    _fillers: Vec<std::net::TcpStream>,
    url: String,
}

fn unaccepting() -> Unaccepting {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let listener = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        socket.listen(0).unwrap()
    });
    let addr = listener.local_addr().unwrap();
    // Linux queues backlog + 1 connections; the ones beyond that wait for a SYN-ACK forever.
    let fillers = (0..3)
        .filter_map(|_| {
            std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(200)).ok()
        })
        .collect();
    Unaccepting {
        url: format!("http://{addr}"),
        _runtime: runtime,
        _listener: listener,
        _fillers: fillers,
    }
}

#[test]
fn connect_timeout_is_its_own_setting_and_ends_in_exit_7() {
    let server = unaccepting();
    let env = Env::with_service(&server.url);
    let run = env.cmd_args(&[
            &["--retries", "1", "--connect-timeout", "0.2", "fees"][..],
            &RANGE,
        ]
        .concat(),).code(7).error_line(format!("error: POST /api/chain-insights/fees for ETHEREUM at {}/api/chain-insights/fees: no connection within 0.2 s (--connect-timeout) (2 attempts)", server.url)).run();
    assert_eq!(
        run.stderr.lines().nth(1),
        Some("hint: check the base URL and your connection, or raise --connect-timeout")
    );

    env.write_config("connect_timeout = 0.3\nretries = 0\n");
    env.cmd_args(&[&["users"][..], &RANGE].concat()).error_line(format!("error: POST /api/chain-insights/active_users for ETHEREUM at {}/api/chain-insights/active_users: no connection within 0.3 s (--connect-timeout)", server.url)).code(7).run();
}

#[test]
fn total_timeout_comes_from_the_config_file_too() {
    let sandbox = Sandbox::start(&["--fault", "latency:5000"]);
    let env = Env::with_service(&sandbox.url);
    env.write_config("timeout = 0.4\nretries = 0\n");
    env.cmd_args(&[&["social"][..], &RANGE].concat()).code(7).error_line(format!("error: POST /api/social-metrics/official-account for ETHEREUM at {}/api/social-metrics/official-account: timed out after 0.4 s", sandbox.url)).run();
    assert_eq!(sandbox.attempts(), 1);
}

#[test]
fn bad_timeouts_are_refused() {
    // A bad flag is a usage error (2); the same value in the config file is a configuration
    // error (3).
    let short = "is less than 0.001 seconds (a millisecond), the shortest wait";
    for (flag, value, why) in [
        ("--connect-timeout", "0", short),
        ("--timeout", "-1", short),
        ("--timeout", "nan", "is not a number of seconds"),
    ] {
        Env::with_service("http://127.0.0.1:9")
            .cmd_args(&[&[&format!("{flag}={value}"), "fees"][..], &RANGE].concat())
            .code(2)
            .error_line(format!(
                "error: invalid value '{value}' for '{flag} <SECS>': '{value}' {why}"
            ))
            .run();
    }
    Env::with_service("http://127.0.0.1:9")
        .cmd_args(&[&["--jobs", "0", "fees"][..], &RANGE].concat())
        .code(2)
        .run();
    let env = Env::with_service("http://127.0.0.1:9");
    env.write_config("connect_timeout = 0\n");
    env.cmd_args(&[&["fees"][..], &RANGE].concat()).code(3).error_line("error: connect_timeout 0 from config file is less than 0.001 seconds (a millisecond), the shortest wait").run();
    let run = Env::with_service("http://127.0.0.1:9")
        .cmd_args(&[&["fees", "--chunk-days", "0"][..], &RANGE].concat())
        .code(2)
        .run();
    assert!(
        run.error_line()
            .starts_with("error: invalid value '0' for '--chunk-days <N>'"),
        "{run:?}"
    );
}

#[test]
fn each_retry_is_one_verbose_line_and_retry_after_is_honoured() {
    let sandbox = Sandbox::start(&["--fault", "503:0@2"]);
    let run = Env::with_service(&sandbox.url)
        .cmd_args(&[&["-v", "fees"][..], &RANGE].concat())
        .stdout(FEES)
        .stderr_contains("* POST ")
        .run();
    let retries = run.stderr_lines("* retry ");
    let line = |n| {
        format!("* retry {n} of 3 in 0 ms: POST {}/api/chain-insights/fees: HTTP 503 Service Unavailable (ETHEREUM fees, 2024-01-01 to 2024-01-03)", sandbox.url)
    };
    assert_eq!(retries, [line(1), line(2)]);
    assert_eq!(sandbox.attempts(), 3);

    // An HTTP date a second ahead: waited for, then the answer.
    let sandbox = Sandbox::start(&["--fault", "429:date+1@1"]);
    Env::with_service(&sandbox.url)
        .cmd_args(&[&["fees"][..], &RANGE].concat())
        .stdout(FEES)
        .stderr("warning: 1 request retried (1 retry): 429 x1\n")
        .run();
    assert_eq!(sandbox.attempts(), 2);
}

#[test]
fn zero_retries_means_one_attempt() {
    let sandbox = Sandbox::start(&["--fault", "503:0"]);
    let run = Env::with_service(&sandbox.url)
        .cmd_args(&[&["--retries", "0", "fees"][..], &RANGE].concat())
        .code(6)
        .run();
    assert!(run.error_line().ends_with("(no retries)"), "{run:?}");
    assert_eq!(sandbox.attempts(), 1);
}

#[test]
fn chunk_days_splits_the_range_and_stitches_it_in_order_over_one_connection() {
    let (sandbox, env) = sandbox_env(&[]);
    let whole = env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-10").run();
    let run = env
        .cmd("--jobs 1 fees -c eth -s 2024-01-01 -e 2024-01-10 --chunk-days 4")
        .stdout(&whole.stdout)
        .run();
    assert_eq!(run.stdout.lines().count(), 11);
    let asked: Vec<String> = sandbox.requests().into_iter().skip(1).collect();
    assert_eq!(
        asked,
        [
            r#"POST /api/chain-insights/fees {"chain":"ETHEREUM","start_date":"2024-01-01","end_date":"2024-01-04"}"#,
            r#"POST /api/chain-insights/fees {"chain":"ETHEREUM","start_date":"2024-01-05","end_date":"2024-01-08"}"#,
            r#"POST /api/chain-insights/fees {"chain":"ETHEREUM","start_date":"2024-01-09","end_date":"2024-01-10"}"#,
        ]
    );
    // One connection per run: the three windows went over one kept-alive connection.
    assert_eq!(sandbox.connections(), 2);
}

#[test]
fn chunks_of_several_chains_fetched_concurrently_come_out_in_order() {
    let sandbox = Sandbox::start(&["--fault", "range-cap:3", "--fault", "chunked"]);
    let env = Env::with_service(&sandbox.url);
    let args = argv("social -c pol,eth,bnb -s 2024-02-25 -e 2024-03-04");
    let refused = env.cmd_args(&args).code(5).run();
    assert_eq!(refused.stderr.lines().nth(1), Some("hint: the request asked for 9 days and the service takes at most 3: split the range with --chunk-days 3 (or chunk_days = 3 in the config file)"));
    env.write_config("chunk_days = 3\n");
    let plain = Sandbox::start(&[]);
    let whole = Env::with_service(&plain.url).cmd_args(&args).run();
    let run = env
        .cmd_args(&[&["--jobs", "4"][..], &args].concat())
        .stdout(&whole.stdout)
        .run();

    assert_eq!(run.stdout.lines().count(), 1 + 9 * 3);
}

#[test]
fn whole_numbers_stay_exact_beyond_2_pow_53_and_fractions_are_refused() {
    let stub = Stub::always(Reply::json(
        200,
        r#"[{"date":"2024-01-01","active_users":9007199254740993},{"date":"2024-01-02","active_users":123456789012345678901234567890}]"#,
    ));
    Env::with_service(&stub.url)
        .cmd("users -c eth -s 2024-01-01 -e 2024-01-02 -f json")
        .stdout(str![[r#"
[
  {"date":"2024-01-01","active_users":9007199254740993},
  {"date":"2024-01-02","active_users":123456789012345678901234567890}
]

"#]])
        .run();
    let stub = Stub::always(Reply::json(
        200,
        r#"{"data":[{"date":"2024-01-01","tweet":2,"extra":"ignored"},{"date":"2024-01-02","tweet":2.5}]}"#,
    ));
    Env::with_service(&stub.url).cmd("social -c eth -i tweet -s 2024-01-01 -e 2024-01-02").code(8).error_line("error: POST /api/social-metrics/official-account for ETHEREUM answered something that is not the documented shape (content-type application/json): record 1: field tweet: expected a whole number, at least 0 (a count), found 2.5").run();
}

#[test]
fn a_plain_text_success_is_not_json() {
    let stub = Stub::always(Reply::new(200, "text/plain", "ok"));
    Env::with_service(&stub.url).cmd_args(&[&["fees"][..], &RANGE].concat()).code(8).error_line("error: POST /api/chain-insights/fees for ETHEREUM answered content-type text/plain, not JSON: ok").run();
    assert_eq!(stub.seen().len(), 1);
}

/// Starts a query the sandbox never answers, waits until its request arrived, then sends
/// `signal` to the client. With `output`, the run writes to that file, which already holds
/// an earlier export: it must come out byte-identical, with no temp file beside it.
fn interrupted_by(signal: &str, output: Option<&str>, code: i32) {
    let sandbox = Sandbox::start(&["--latency", "60000"]);
    let env = Env::with_service(&sandbox.url);
    let old = match output {
        Some(name) if name.ends_with(".json") => {
            "[\n  {\"date\":\"2023-12-31\",\"chain\":\"ETHEREUM\",\"fees\":1}\n]\n"
        }
        _ => "date,chain,fees\n2023-12-31,ETHEREUM,1\n",
    };
    let mut args = vec!["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-01-03"];
    if let Some(name) = output {
        std::fs::write(env.home.path().join(name), old).unwrap();
        args.extend(["--output", name, "--merge"]);
    }
    let running = env.cmd_args(&args).code(code).stdout("").stderr("").spawn();
    let deadline = Instant::now() + Duration::from_secs(30);
    while sandbox.attempts() == 0 {
        assert!(Instant::now() < deadline, "the request never arrived");
        std::thread::sleep(Duration::from_millis(20));
    }
    running.kill(signal);
    // No partial output, and nothing to say on stderr.
    running.finish();
    if let Some(name) = output {
        assert_eq!(
            std::fs::read_to_string(env.home.path().join(name)).unwrap(),
            old
        );
        let mut files: Vec<String> = std::fs::read_dir(env.home.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with(".config") && !n.starts_with(".cache"))
            .collect();
        files.sort();
        assert_eq!(files, [name], "no temp file is left beside the output");
    }
}

#[test]
fn ctrl_c_stops_at_once_with_exit_130() {
    interrupted_by("-INT", None, 130);
}

#[test]
fn sigterm_and_sighup_stop_at_once_with_128_plus_the_signal() {
    interrupted_by("-TERM", None, 143);
    interrupted_by("-HUP", None, 129);
}

#[test]
fn an_interrupted_export_leaves_the_old_file_intact() {
    interrupted_by("-INT", Some("fees.csv"), 130);
    interrupted_by("-TERM", Some("fees.json"), 143);
}

#[test]
fn usr1_usr2_alrm_and_xfsz_stop_with_128_plus_the_signal_and_leave_the_file_intact() {
    interrupted_by("-USR1", Some("fees.csv"), 138);
    interrupted_by("-USR2", Some("fees.json"), 140);
    interrupted_by("-ALRM", Some("fees.csv"), 142);
    interrupted_by("-XFSZ", Some("fees.csv"), 153);
}

/// A `ulimit -f` the export outgrows: the run fails (exit 9, or 153 when the signal is taken
/// first), the old file stays, and neither temp file nor lock is left.
#[test]
fn a_file_size_limit_hit_leaves_no_temp_file_and_the_old_file_intact() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let old = "date,chain,fees\n2023-12-31,ETHEREUM,1\n";
    std::fs::write(env.home.path().join("fees.csv"), old).unwrap();
    for merge in ["", " --merge"] {
        let run = env
            .shell(&format!(
                "ulimit -f 1; chain-metrics fees -c eth,arb -s 2024-01-01 -e 2024-03-31 -o fees.csv{merge}"
            ))
            .any_outcome()
            .run();
        assert!(matches!(run.code, 9 | 153), "{}: {}", run.code, run.stderr);
        assert_eq!(
            std::fs::read_to_string(env.home.path().join("fees.csv")).unwrap(),
            old
        );
        let files: Vec<String> = std::fs::read_dir(env.home.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with(".config") && !n.starts_with(".cache"))
            .collect();
        assert_eq!(files, ["fees.csv"], "no temp file or lock is left");
    }
}

#[test]
fn a_closed_stdout_is_exit_9_and_dev_null_opened_read_write_is_a_place_to_write() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let run = "chain-metrics fees -c eth -s 2024-01-01 -e 2024-01-01";
    env.shell(&format!("{run} >&-"))
        .code(9)
        .stderr("error: cannot write to stdout: it was closed when the run started\nhint: give stdout a place (> FILE, | CMD), or write with --output FILE\n")
        .run();
    // What Python's subprocess.DEVNULL, Go's exec and systemd's StandardOutput=null give a
    // program: /dev/null open read-write, as the standard library puts in place of a closed
    // stdout. Given, it is where the rows go (nowhere), not a closed stdout.
    env.shell(&format!("{run} 1<>/dev/null"))
        .code(0)
        .stderr("")
        .run();
}

#[test]
fn the_timeout_bounds_a_body_that_trickles_in() {
    use std::io::{Read, Write};
    // Headers at once, then the body a few bytes at a time: each read is quick, the whole is not.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else {
            return;
        };
        let mut request = [0; 4096];
        let _ = stream.read(&mut request);
        let body = r#"[{"date":"2024-01-01","fees":1}]"#;
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            body.len()
        );
        let _ = stream.write_all(head.as_bytes());
        for piece in body.as_bytes().chunks(2) {
            std::thread::sleep(Duration::from_millis(150));
            if stream
                .write_all(piece)
                .and_then(|()| stream.flush())
                .is_err()
            {
                return;
            }
        }
    });
    Env::with_service(&url)
        .cmd_args(&[&["--timeout", "0.5", "--retries", "0", "fees"][..], &RANGE].concat())
        .code(7)
        .error_line_like("[..]: timed out after 0.5 s")
        .run();
}

/// A failure that ends the run stops the sending: once the first answer is a rejected key, no
/// other request goes out (with the same key), at one job or several; `--keep-going` still
/// asks every chain, so that the chains that work are written.
#[test]
fn a_failure_that_ends_the_run_stops_the_requests_not_yet_sent() {
    let days = ["-s", "2024-01-01", "-e", "2024-01-10", "--chunk-days", "1"];
    for jobs in ["1", "3"] {
        let sandbox = Sandbox::start(&[]);
        let mut env = Env::with_service(&sandbox.url);
        env.set("CHAIN_METRICS_API_KEY", "revoked-key-00009999");
        let args = [&["fees", "-c", "eth", "--jobs", jobs], &days[..]].concat();
        env.cmd_args(&args).code(4).any_stderr().run();
        // Ten requests planned: the first, and at most those already on the wire beside it.
        let sent = sandbox.requests().len();
        assert!(
            sent <= jobs.parse::<usize>().unwrap(),
            "jobs {jobs}: {sent} sent"
        );
    }
    // The first attempt fails (ETHEREUM's first day): --keep-going sends the other 19.
    let sandbox = Sandbox::start(&["--fault", "503@1"]);
    let env = Env::with_service(&sandbox.url);
    let args = [
        &["fees", "-c", "eth,arb", "--keep-going", "--retries", "0"],
        &days[..],
    ]
    .concat();
    let run = env.cmd_args(&args).any_outcome().run();
    assert!(
        run.stdout.contains("2024-01-10,ARBITRUM,"),
        "{}",
        run.stdout
    );
    assert_eq!(sandbox.requests().len(), 20);
}
