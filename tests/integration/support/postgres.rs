//! A throw-away PostgreSQL cluster, for the PostgreSQL export's tests (`files/postgres`) and the
//! PostgreSQL guide's recipes (`docs/recipes`): Debian's `postgresql` package, which .ci/test
//! installs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::Env;

/// The superuser's password (`postgres`): scram-sha-256 on every connection.
pub const PASSWORD: &str = "Pg-test-pass-8317";

/// A throw-away PostgreSQL cluster for one test: `initdb` and `pg_ctl` from Debian's
/// `postgresql` package (the newest of /usr/lib/postgresql/*/bin), its data folder and Unix
/// socket in a folder under `target/tmp` (CARGO_TARGET_TMPDIR), also listening on 127.0.0.1 at
/// a free port (the TLS test's), with `fsync` off. initdb refuses to run as root, so when the
/// tests run as root (as in CI's containers) the cluster's folder is given to `nobody` and
/// initdb, pg_ctl and the server run as that user through `setpriv --reuid=nobody
/// --regid=nogroup --clear-groups`; as any other user they run as that user. The superuser
/// is `postgres` with [`PASSWORD`]. Stopped (`-m immediate`) and removed on drop.
pub struct Cluster {
    pub dir: PathBuf,
    pub bin: PathBuf,
    pub port: u16,
    /// The server's options (`pg_ctl -o`), to start it again after [`Cluster::stop`].
    options: String,
}

impl Cluster {
    pub fn start() -> Cluster {
        Cluster::start_with(|_| Vec::new())
    }

    /// A cluster whose server also gets `settings(dir)` (`-c name=value` pairs), after the
    /// files they name are written into `dir`.
    pub fn start_with(settings: impl FnOnce(&Path) -> Vec<String>) -> Cluster {
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, Ordering::SeqCst);
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pg-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let bin = server_bin();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        std::fs::write(dir.join("pw"), PASSWORD).unwrap();
        let extra = settings(&dir);
        let mut cluster = Cluster {
            dir,
            bin,
            port,
            options: String::new(),
        };
        cluster.give_to_server_user();
        cluster.on_data(
            "initdb",
            &[
                "-U",
                "postgres",
                "--auth=scram-sha-256",
                &format!("--pwfile={}", cluster.dir.join("pw").display()),
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
        );
        let mut options = format!(
            "-k {} -p {} -c listen_addresses=127.0.0.1 -c fsync=off",
            cluster.dir.display(),
            cluster.port
        );
        for setting in extra {
            options.push_str(&format!(" -c {setting}"));
        }
        cluster.options = options;
        cluster.start_again();
        cluster
    }

    /// Starts the server (again, after [`Cluster::stop`]), waiting until it takes connections.
    pub fn start_again(&self) {
        let log = self.dir.join("log");
        self.on_data(
            "pg_ctl",
            &[
                "-l",
                log.to_str().unwrap(),
                "-w",
                "-t",
                "120",
                "-o",
                &self.options,
                "start",
            ],
        );
    }

    /// Stops the server at once (`-m immediate`: every connection cut, no checkpoint), as a
    /// crash or a pulled cable would.
    pub fn stop(&self) {
        self.on_data("pg_ctl", &["-m", "immediate", "-w", "stop"]);
    }

    /// Everything in the folder given to the user the server runs as (root only).
    pub fn give_to_server_user(&self) {
        if !is_root() {
            return;
        }
        for entry in std::fs::read_dir(&self.dir).unwrap() {
            std::os::unix::fs::chown(entry.unwrap().path(), Some(65534), Some(65534)).unwrap();
        }
        std::os::unix::fs::chown(&self.dir, Some(65534), Some(65534)).unwrap();
    }

    /// One of the server's programs on the data folder (`-D DATA ARGS...`), to be run as
    /// `nobody` when the tests run as root.
    pub fn server_command(&self, program: &str, args: &[&str]) -> Command {
        let program = self.bin.join(program);
        let mut command = match is_root() {
            true => {
                let mut c = Command::new("setpriv");
                c.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
                    .arg(&program);
                c
            }
            false => Command::new(&program),
        };
        let data = self.dir.join("data");
        command.arg("-D").arg(data).args(args);
        command
    }

    /// Runs one of the server's programs on the data folder; a failure fails the test.
    pub fn on_data(&self, program: &str, args: &[&str]) {
        let mut command = self.server_command(program, args);
        let out = command.current_dir(&self.dir).output().unwrap();
        assert!(
            out.status.success(),
            "{command:?}: {}\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
        );
    }

    /// An environment whose libpq variables reach this cluster over its socket, and a
    /// service: `-o postgresql:///postgres` is the whole target.
    pub fn env(&self, service: &str) -> Env {
        let mut env = Env::with_service(service);
        env.set("PGHOST", self.dir.to_str().unwrap());
        env.set("PGPORT", &self.port.to_string());
        env.set("PGUSER", "postgres");
        env.set("PGPASSWORD", PASSWORD);
        env
    }

    /// `psql` with `sql`: the rows unaligned, `|` between cells; a failure fails the test.
    pub fn sql(&self, sql: &str) -> String {
        self.sql_in("postgres", sql)
    }

    /// [`Cluster::sql`] in `database`.
    pub fn sql_in(&self, database: &str, sql: &str) -> String {
        let out = self.psql_in(database, sql);
        assert!(
            out.status.success(),
            "{sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    pub fn psql(&self, sql: &str) -> std::process::Output {
        self.psql_in("postgres", sql)
    }

    /// `psql -c sql` in `database`, as the superuser over the socket.
    pub fn psql_in(&self, database: &str, sql: &str) -> std::process::Output {
        Command::new(self.bin.join("psql"))
            .args([
                "-X",
                "-A",
                "-t",
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-d",
                database,
                "-c",
                sql,
            ])
            .env("PGHOST", &self.dir)
            .env("PGPORT", self.port.to_string())
            .env("PGUSER", "postgres")
            .env("PGPASSWORD", PASSWORD)
            .output()
            .unwrap()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let mut command = self.server_command("pg_ctl", &["-m", "immediate", "stop"]);
        let _ = command.output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The newest PostgreSQL's programs Debian installed.
pub fn server_bin() -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed (apt-get install postgresql; .ci/test does)")
        .map(|e| e.unwrap().path().join("bin"))
        .filter(|bin| bin.join("initdb").exists())
        .collect();
    versions.sort_by_key(|p| {
        let version = p
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        version.parse::<u32>().unwrap_or(0)
    });
    versions
        .pop()
        .expect("a PostgreSQL server in /usr/lib/postgresql/*/bin")
}

/// A server certificate for `localhost` signed by `ca`, its key (0600) and `ca.pem`, written
/// into a cluster's folder `dir`; the settings that serve TLS with them.
pub fn tls_settings(dir: &Path, ca: &super::TestCa) -> Vec<String> {
    use std::os::unix::fs::PermissionsExt;
    let leaf = ca.leaf_for(&["localhost"], -1, 30);
    std::fs::write(dir.join("server.crt"), &leaf.pem).unwrap();
    std::fs::write(dir.join("server.key"), &leaf.key_pem).unwrap();
    let private = std::fs::Permissions::from_mode(0o600);
    std::fs::set_permissions(dir.join("server.key"), private).unwrap();
    std::fs::write(dir.join("ca.pem"), &ca.pem).unwrap();
    let file = |name: &str| dir.join(name).display().to_string();
    vec![
        "ssl=on".to_owned(),
        format!("ssl_cert_file={}", file("server.crt")),
        format!("ssl_key_file={}", file("server.key")),
    ]
}
