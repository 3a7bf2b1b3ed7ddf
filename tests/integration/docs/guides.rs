//! The guides say what ships: the service described in docs/service.md (SERVICE.md ships
//! nowhere, so no shipped guide names it), and docs/sandbox.md lists every fault the sandbox takes.

use std::path::PathBuf;

use crate::support::Env;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap()
}

#[test]
fn no_shipped_guide_names_service_md_and_the_readme_links_service_md() {
    let mut guides = vec!["README.md".to_owned()];
    for entry in std::fs::read_dir(repo().join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            guides.push(format!("docs/{name}"));
        }
    }
    for guide in &guides {
        assert!(
            !read(guide).contains("SERVICE.md"),
            "{guide} names SERVICE.md"
        );
    }
    assert!(read("README.md").contains("](docs/service.md)"));
    assert!(read("docs/sandbox.md").contains("](service.md)"));
}

/// Every fault `sandbox --help` names has its row in the guide's table.
#[test]
fn the_sandbox_guide_lists_every_fault() {
    let help = Env::new().cmd("sandbox --help").any_stdout().run().stdout;
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let (_, faults) = flat
        .split_once("Misbehave on purpose (repeatable): ")
        .unwrap();
    let (faults, _) = faults.split_once("; NAME@N").unwrap();
    // The examples in parentheses are not faults of their own.
    let faults: String = faults
        .split('(')
        .map(|part| part.split_once(')').map_or(part, |(_, rest)| rest))
        .collect();
    let guide = read("docs/sandbox.md");
    let names: Vec<&str> = faults
        .split(", ")
        .map(|fault| fault.split([':', ' ']).next().unwrap())
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    for name in names {
        let row = match name {
            "CODE[" | "CODE" => "| `CODE[:RETRY_AFTER]` |".to_owned(),
            _ => format!("| `{name}"),
        };
        assert!(
            guide.contains(&row),
            "docs/sandbox.md has no row for {name}"
        );
    }
}
