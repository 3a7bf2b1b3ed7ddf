//! Where a picture's data came from, and when: one made from `--sandbox` says its data is
//! synthetic (in the SVG's subtitle, with the time it was made, in the page's header); a page names the service (any
//! password masked) and the time it was made (`SOURCE_DATE_EPOCH` fixes it); a picture with
//! no data says so in words instead of drawing bare axes.

use super::{browser, dated_env, picture};
use crate::support::{empty_service, Env, Reply, Stub};

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
