//! libpq's connection service file (`service=NAME`, PGSERVICE): the `[NAME]` section's
//! `key=value` lines, from the user's file (`servicefile`, PGSERVICEFILE, else
//! `~/.pg_service.conf`), else the system's (`pg_service.conf` in PGSYSCONFDIR, else Debian's
//! `/etc/postgresql-common`), read as libpq reads them.

use std::path::PathBuf;

use crate::settings::LibpqEnvironment;

/// The folder Debian's libpq was built to find `pg_service.conf` in (`pg_config --sysconfdir`).
const SYSCONFDIR: &str = "/etc/postgresql-common";

/// The service `name`'s parameters, from the first file that defines it; `user_file`: the
/// `servicefile` the URI or PGSERVICEFILE names. A service no file defines, or a line that is
/// no `key=value`, is the reason in words.
pub(super) fn entry(
    name: &str,
    user_file: Option<PathBuf>,
    env: &LibpqEnvironment,
) -> Result<Vec<(String, String)>, String> {
    let user_file = user_file.or_else(|| env.home.as_ref().map(|h| h.join(".pg_service.conf")));
    let folder = PathBuf::from(env.get("sysconfdir").unwrap_or(SYSCONFDIR));
    let files: Vec<PathBuf> = user_file
        .into_iter()
        .chain([folder.join("pg_service.conf")])
        .collect();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        if let Some(entry) =
            find(&text, name).map_err(|why| format!("{}: {why}", file.display()))?
        {
            return Ok(entry);
        }
    }
    let looked: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    Err(format!(
        "no service file defines the service {} (looked in {})",
        crate::system::foreign::echo(name),
        looked.join(" and ")
    ))
}

/// The section `[name]` of a service file: blank lines and `#` lines skipped, each other line
/// `key=value` (white space around both trimmed); `None` when there is no such section.
fn find(text: &str, name: &str) -> Result<Option<Vec<(String, String)>>, String> {
    let mut entry: Option<Vec<(String, String)>> = None;
    for (at, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(section) = line.strip_prefix('[') {
            if entry.is_some() {
                break;
            }
            if section.strip_suffix(']') == Some(name) {
                entry = Some(Vec::new());
            }
            continue;
        }
        let Some(pairs) = entry.as_mut() else {
            continue;
        };
        let (key, value) = (line.split_once('='))
            .ok_or_else(|| format!("line {}: a line of a service is key=value", at + 1))?;
        if key.trim() == "service" {
            return Err(format!("line {}: a service names no other service", at + 1));
        }
        pairs.push((key.trim().to_owned(), value.trim().to_owned()));
    }
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_is_read_up_to_the_next() {
        let text =
            "# team\n[other]\nhost=a\n\n[team]\n host = db.example \nport=5433\n[last]\nport=1\n";
        let team = find(text, "team").unwrap().unwrap();
        assert_eq!(
            team,
            [
                ("host".into(), "db.example".into()),
                ("port".into(), "5433".into())
            ]
        );
        assert_eq!(find(text, "none").unwrap(), None);
        assert!(find("[x]\nhost\n", "x").is_err());
        assert!(find("[x]\nservice=y\n", "x").is_err());
    }
}
