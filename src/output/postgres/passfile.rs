//! libpq's password file (`~/.pgpass`, `PGPASSFILE`, `passfile=`): lines
//! `host:port:database:user:password`, read as libpq's `passwordFromFile` reads them.

use std::path::Path;

/// The host libpq matches a line against for a connection with no host named, or over the
/// socket folder it was built with (Debian's).
const LOCAL: &str = "localhost";

/// A password file's lines, once read; none when it is missing, not a file, or readable by
/// others (as libpq, which ignores it then, with a warning).
pub(super) struct PasswordFile {
    text: String,
}

impl PasswordFile {
    pub(super) fn read(file: &Path) -> Option<PasswordFile> {
        let metadata = std::fs::metadata(file).ok()?;
        if !metadata.is_file() {
            return None;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if metadata.permissions().mode() & 0o077 != 0 {
                crate::system::diag::warning(format!(
                    "the password file {} is readable by others (it should be 0600): it is \
                        ignored, as psql does",
                    file.display()
                ));
                return None;
            }
        }
        let text = std::fs::read_to_string(file).ok()?;
        Some(PasswordFile { text })
    }

    /// The password of the first line that matches: each of its first four fields is `*` or
    /// the connection's host, port, database and user (`\` escaping the next character). The
    /// host is `host` as named (a socket folder's path), `localhost` for none named or for
    /// the default socket folder `default_socket`, as libpq.
    pub(super) fn password(
        &self,
        host: Option<&str>,
        default_socket: &str,
        port: u16,
        dbname: &str,
        user: &str,
    ) -> Option<String> {
        let host = match host {
            None | Some("") => LOCAL,
            Some(folder) if folder == default_socket => LOCAL,
            Some(name) => name,
        };
        let port = port.to_string();
        let wanted = [host, port.as_str(), dbname, user];
        let lines = self.text.lines().map(|l| l.trim_end_matches('\r'));
        lines
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .find_map(|line| {
                let rest = wanted
                    .iter()
                    .try_fold(line, |rest, token| field_matches(rest, token))?;
                Some(unescaped_password(rest))
            })
    }
}

/// libpq's `pwdfMatchesString`: whether the field at the start of `line` is `*` or `token`
/// (`\` escaping the next character), and the line after the field's `:`.
fn field_matches<'a>(line: &'a str, token: &str) -> Option<&'a str> {
    if let Some(rest) = line.strip_prefix("*:") {
        return Some(rest);
    }
    let mut wanted = token.chars();
    let mut chars = line.char_indices();
    while let Some((at, c)) = chars.next() {
        let (c, escaped) = match c {
            '\\' => match chars.next() {
                Some((_, next)) => (next, true),
                None => return None,
            },
            c => (c, false),
        };
        if c == ':' && !escaped {
            return wanted.next().is_none().then(|| &line[at + 1..]);
        }
        if wanted.next() != Some(c) {
            return None;
        }
    }
    None
}

/// The password field: up to the first unescaped `:`, with `\` escapes undone.
fn unescaped_password(field: &str) -> String {
    let mut password = String::new();
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        match c {
            ':' => break,
            '\\' => password.extend(chars.next().or(Some('\\'))),
            c => password.push(c),
        }
    }
    password
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> PasswordFile {
        PasswordFile {
            text: text.to_owned(),
        }
    }

    #[test]
    fn lines_match_as_libpq_matches_them() {
        let f = file(
            "# comment\n\
            h\\:x:*:db:u:pa\\:ss:extra\r\n\
            db.example:5433:*:u:first\n\
            db.example:*:*:u:second\n\
            \\*:5432:db:u:starred\n\
            localhost:5432:db:u:local\n\
            /run/pg:5432:db:u:folder\n",
        );
        let sock = "/var/run/postgresql";
        assert_eq!(
            f.password(Some("h:x"), sock, 1, "db", "u").unwrap(),
            "pa:ss"
        );
        assert_eq!(
            f.password(Some("db.example"), sock, 5433, "x", "u")
                .unwrap(),
            "first"
        );
        assert_eq!(
            f.password(Some("db.example"), sock, 5434, "x", "u")
                .unwrap(),
            "second"
        );
        assert_eq!(
            f.password(Some("*"), sock, 5432, "db", "u").unwrap(),
            "starred"
        );
        assert_eq!(f.password(Some("other"), sock, 5432, "db", "u"), None);
        assert_eq!(f.password(None, sock, 5432, "db", "u").unwrap(), "local");
        assert_eq!(
            f.password(Some(sock), sock, 5432, "db", "u").unwrap(),
            "local"
        );
        assert_eq!(
            f.password(Some("/run/pg"), sock, 5432, "db", "u").unwrap(),
            "folder"
        );
        assert_eq!(f.password(Some("db.example"), sock, 5433, "x", "v"), None);
        assert_eq!(file("h:1:d:u").password(Some("h"), sock, 1, "d", "u"), None);
    }
}
