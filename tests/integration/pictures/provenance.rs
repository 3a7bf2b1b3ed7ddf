//! Where a picture's data came from, and when: one made from `--sandbox` says its data is
//! synthetic (in the SVG's subtitle, with the time it was made, in the page's header); a page names the service (any
//! password masked) and the time it was made (`SOURCE_DATE_EPOCH` fixes it); a picture with
//! no data says so in words instead of drawing bare axes. Data from a sandbox run on its own
//! is synthetic too (its answers say so), and an export records where its data came from, so
//! that `render FILE` says it again; a merge never mixes synthetic data with real data.

use std::path::Path;

use super::{browser, dated_env, picture};
use crate::support::{empty_service, made_line, sandbox_env, Env, Reply, Stub};

const SYNTHETIC: &str = "synthetic data from the built-in sandbox";

#[test]
fn a_picture_from_the_sandbox_says_its_data_is_synthetic() {
    let env = dated_env();
    for name in ["r.svg", "r.html"] {
        let path = env.home.path().join(name);
        let path = path.to_str().unwrap();
        env.cmd(&format!(
            "--sandbox report -c eth,base -e 2024-03-31 --last 14 -o {path}"
        ))
        .any_stderr()
        .run();
        let markup = std::fs::read_to_string(path).unwrap();
        assert!(
            !markup.contains("127.0.0.1"),
            "the sandbox's port is no source"
        );
        let dom = browser::open(std::path::Path::new(path), &["--dump-dom"]);
        let line = match name {
            "r.svg" => format!(
                "y=\"62\">{SYNTHETIC} · made 2023-11-14 22:13 UTC by chain-metrics {}</text>",
                env!("CARGO_PKG_VERSION")
            ),
            _ => format!("<strong>Not real chain data</strong>: {SYNTHETIC}.</p>"),
        };
        assert!(
            markup.contains(&line) && dom.stdout.contains(&line),
            "{name}"
        );
    }
}

#[test]
fn a_page_names_its_service_with_the_password_masked_and_when_it_was_made() {
    let stub = Stub::always(Reply::json(200, r#"[{"date":"2024-01-02","fees":1}]"#));
    let url = stub.url.replacen("://", "://ann:hunter2@", 1);
    let mut env = Env::with_service(&url);
    env.set("SOURCE_DATE_EPOCH", "1700000000");
    env.cmd("fees -c eth -s 2024-01-02 -e 2024-01-02 -o f.html")
        .run();
    let page = std::fs::read_to_string(env.home.path().join("f.html")).unwrap();
    let shown = stub.url.replacen("://", "://ann:****@", 1);
    assert!(
        page.contains(&format!("<p id=\"source\">Data from {shown}.</p>")),
        "{page}"
    );
    assert!(page.contains("Made 2023-11-14 22:13 UTC by chain-metrics"));
    assert!(!page.contains("hunter2"));
}

#[test]
fn a_picture_with_no_data_says_so_in_words() {
    let (_stub, env) = empty_service();
    let svg = picture(&env, "fees -c eth -s 2024-01-02 -e 2024-01-09", "f.svg");
    assert!(
        svg.contains(
            "Nothing to draw: no chain has a value of fees that can be drawn in this range."
        ) || svg.contains("(no data to chart)"),
        "{svg}"
    );
    assert!(
        !svg.contains(">1.0</text>") && !svg.contains(">0.0</text>"),
        "{svg}"
    );
}

/// The fees of two chains on one day, as the stub below serves them (any chain, any day).
const ONE_DAY: &str = "fees -c eth,arb -s 2024-01-02 -e 2024-01-02";

/// A service that answers as the real one does, without the sandbox's header.
fn real_service() -> (Stub, Env) {
    let stub = Stub::always(Reply::json(200, r#"[{"date":"2024-01-02","fees":1}]"#));
    let mut env = Env::with_service(&stub.url);
    env.set("SOURCE_DATE_EPOCH", "1700000000");
    (stub, env)
}

/// The svg's provenance (its lines, cut at spaces to fit, joined again).
fn source_of(svg: &str) -> String {
    let lines: Vec<&str> = (svg.split("<text class=\"source\"").skip(1))
        .map(|t| &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()])
        .collect();
    assert!(!lines.is_empty(), "no source line");
    lines.join(" ")
}

#[test]
fn every_picture_of_a_sandbox_run_on_its_own_says_its_data_is_synthetic() {
    let (sandbox, mut env) = sandbox_env(&[]);
    env.set("SOURCE_DATE_EPOCH", "1700000000");
    let query = "fees -c eth,base -s 2024-01-01 -e 2024-01-14";
    let source = format!("synthetic data from the sandbox at {}", sandbox.url);
    let svg = picture(&env, query, "f.svg");
    assert!(
        source_of(&svg).starts_with(&format!("{source} · made 2023-11-14 22:13 UTC")),
        "{}",
        source_of(&svg)
    );
    let page = picture(&env, query, "f.html");
    let line = format!(
        "<p id=\"source\" class=\"synthetic\"><strong>Not real chain data</strong>: {source}.</p>"
    );
    assert!(page.contains(&line), "{page}");
    let chart = env
        .cmd(&format!("{query} -f chart"))
        .any_stdout()
        .run()
        .stdout;
    let made = made_line();
    assert!(chart.ends_with(&format!("\n{source}\n{made}\n")), "{chart}");
}

#[test]
fn a_service_without_the_sandbox_s_header_is_not_called_synthetic() {
    let (stub, env) = real_service();
    let svg = picture(&env, ONE_DAY, "f.svg");
    let made = "made 2023-11-14 22:13 UTC by chain-metrics";
    assert!(
        source_of(&svg).starts_with(&format!("data from {} · {made}", stub.url)),
        "{}",
        source_of(&svg)
    );
    let chart = env
        .cmd(&format!("{ONE_DAY} -f chart"))
        .any_stdout()
        .run()
        .stdout;
    let ending = format!("data from {}\n{}\n", stub.url, made_line());
    assert!(chart.ends_with(&ending), "{chart}");
    assert!(!chart.contains("synthetic"), "{chart}");
    // Its export says where it came from, and that is no sandbox.
    env.cmd(&format!("{ONE_DAY} -o f.csv")).run();
    let file = env.home.path().join("f.csv");
    let drawn = rendered(&env, &file, "r.svg");
    let line = format!("data from {}, drawn from f.csv · {made}", stub.url);
    source_starts(&drawn, &line, "f.csv");
    let page = rendered(&env, &file, "r.html");
    assert!(
        !page.contains("synthetic") && !page.contains("Not real"),
        "{page}"
    );
}

/// The svg's source line (of the export `name`) starts with `line`.
fn source_starts(svg: &str, line: &str, name: &str) {
    let source = source_of(svg);
    assert!(source.starts_with(line), "{name}: {source}");
}

/// `render FILE -o name` in `env`, exit 0, any stderr: the picture, as text.
fn rendered(env: &Env, file: &Path, name: &str) -> String {
    let file = file.to_str().unwrap();
    env.cmd_args(&["render", file, "-o", name])
        .any_stderr()
        .run();
    std::fs::read_to_string(env.home.path().join(name)).unwrap()
}

#[test]
fn an_export_of_the_built_in_sandbox_is_drawn_as_synthetic_in_every_format() {
    let env = dated_env();
    for name in ["f.csv", "f.tsv", "f.json", "f.ndjson", "f.sqlite"] {
        env.cmd(&format!("--sandbox {ONE_DAY} -o {name}"))
            .any_stderr()
            .run();
        let file = env.home.path().join(name);
        let svg = rendered(&env, &file, "r.svg");
        source_starts(
            &svg,
            &format!("{SYNTHETIC}, drawn from {name} · made "),
            name,
        );
        let page = rendered(&env, &file, "r.html");
        assert!(
            page.contains("<strong>Not real chain data</strong>: "),
            "{name}"
        );
        let chart = env.cmd_args(&["render", file.to_str().unwrap(), "-f", "chart"]);
        let chart = chart.any_stdout().any_stderr().run().stdout;
        let last = format!("\n{SYNTHETIC}, drawn from {name}\n{}\n", made_line());
        assert!(chart.ends_with(&last), "{name}: {chart}");
    }
}

#[test]
fn a_merge_never_mixes_synthetic_data_with_a_service_s() {
    let (_stub, env) = real_service();
    let home = env.home.path();
    env.cmd(&format!("{ONE_DAY} -o real.csv")).run();
    env.cmd(&format!("--sandbox {ONE_DAY} -o sandbox.csv"))
        .any_stderr()
        .run();
    for (file, held, brought) in [
        (
            "real.csv",
            "a service's data",
            "synthetic data from a sandbox",
        ),
        (
            "sandbox.csv",
            "synthetic data from a sandbox",
            "a service's data",
        ),
    ] {
        let before = std::fs::read(home.join(file)).unwrap();
        let sandbox = if file == "real.csv" { "--sandbox " } else { "" };
        env.cmd(&format!("{sandbox}{ONE_DAY} -o {file} --merge"))
            .code(9)
            .stderr_contains(&format!(
                "error: cannot merge into {file}: it holds {held}, and this run brought \
                {brought}; not merged"
            ))
            .run();
        assert_eq!(std::fs::read(home.join(file)).unwrap(), before, "{file}");
    }
    // A file that records nothing (written by hand, or before exports recorded it) takes the
    // sandbox's rows, and says from then on that its data is synthetic.
    std::fs::write(
        home.join("old.csv"),
        "date,chain,fees\n2024-01-01,ETHEREUM,5\n",
    )
    .unwrap();
    env.cmd(&format!("--sandbox {ONE_DAY} -o old.csv --merge"))
        .any_stderr()
        .run();
    let svg = rendered(&env, &home.join("old.csv"), "r.svg");
    assert!(
        source_of(&svg).starts_with(SYNTHETIC),
        "{}",
        source_of(&svg)
    );
    // Merged again with the sandbox's data, it stays synthetic; a copy without its
    // attributes (as `cat` makes it) is drawn as before, from the file alone.
    env.cmd(&format!("--sandbox {ONE_DAY} -o sandbox.csv --merge"))
        .any_stderr()
        .run();
    let copy = home.join("copy.csv");
    std::fs::write(&copy, std::fs::read(home.join("sandbox.csv")).unwrap()).unwrap();
    let svg = rendered(&env, &copy, "c.svg");
    assert!(
        source_of(&svg).starts_with("drawn from copy.csv · made"),
        "{}",
        source_of(&svg)
    );
}

#[test]
fn an_export_records_its_service_with_the_password_masked_and_never_the_key() {
    let stub = Stub::always(Reply::json(200, r#"[{"date":"2024-01-02","fees":1}]"#));
    let url = stub.url.replacen("://", "://ann:hunter2@", 1);
    let env = Env::with_service(&url);
    env.cmd(&format!("{ONE_DAY} -o f.json")).run();
    let file = env.home.path().join("f.json");
    // The attributes as another program reads them (getfattr -d shows the same).
    let read = "import os, sys; f = sys.argv[1]; \
        print(*sorted(f'{a}={os.getxattr(f, a).decode()}' for a in os.listxattr(f)), sep='\\n')";
    let python = crate::support::tools::venv_python();
    let args = ["-c", read, file.to_str().unwrap()];
    let run = env
        .program(python.to_str().unwrap(), &args)
        .any_stdout()
        .run();
    let shown = stub.url.replacen("://", "://ann:****@", 1);
    assert_eq!(
        run.stdout,
        format!("user.chain-metrics.data=service\nuser.xdg.origin.url={shown}\n")
    );
    assert!(!run.stdout.contains(crate::support::KEY));
}
