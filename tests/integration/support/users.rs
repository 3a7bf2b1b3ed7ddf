//! A second, real user for the trust tests: `chain-metrics-peer`, made once with `useradd`
//! (with a private group of its own, as Debian and Ubuntu give every user) when the suite runs
//! as root, as CI does; elsewhere there is none and the test that needs one is skipped.

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// A user of the machine, by ids.
#[derive(Debug)]
pub struct User {
    pub uid: u32,
    pub gid: u32,
}

const NAME: &str = "chain-metrics-peer";

/// The second user, made if missing; `None` (said on stderr) where the tests are not root.
pub fn second_user() -> Option<&'static User> {
    static USER: OnceLock<Option<User>> = OnceLock::new();
    let user = USER.get_or_init(|| {
        if !nix::unistd::geteuid().is_root() {
            return None;
        }
        if nix::unistd::User::from_name(NAME).unwrap().is_none() {
            let made = Command::new("useradd")
                .args([
                    "--user-group",
                    "--no-create-home",
                    "--shell",
                    "/bin/sh",
                    NAME,
                ])
                .status()
                .expect("useradd");
            // 9: made meanwhile by another test binary.
            assert!(made.success() || made.code() == Some(9), "useradd {NAME}");
        }
        let found = nix::unistd::User::from_name(NAME).unwrap().unwrap();
        Some(User {
            uid: found.uid.as_raw(),
            gid: found.gid.as_raw(),
        })
    });
    if user.is_none() {
        eprintln!("skipped: only root can make a second user (CI runs as root)");
    }
    user.as_ref()
}

impl User {
    /// Gives `path` and everything below it to this user and their group.
    pub fn take(&self, path: &Path) {
        let given = Command::new("chown")
            .args(["-R", &format!("{}:{}", self.uid, self.gid)])
            .arg(path)
            .status()
            .unwrap();
        assert!(given.success(), "chown {}", path.display());
    }

    /// The words that run `program` as this user, with their own group only.
    pub fn as_them(&self) -> Vec<String> {
        [
            "--reuid",
            &self.uid.to_string(),
            "--regid",
            &self.gid.to_string(),
        ]
        .into_iter()
        .map(str::to_owned)
        .chain(["--clear-groups".to_owned()])
        .collect()
    }
}
