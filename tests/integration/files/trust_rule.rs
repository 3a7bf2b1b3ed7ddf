//! The one trust rule on machines as they are (issue 40): under umask 002 with a user private
//! group the cron line runs day after day (csv and sqlite), while a group with other members
//! is "someone else"; a link another user planted in a team folder (group-writable, or their
//! own folder), at the file's name or at a folder above it, is never followed; another user's
//! file at `-o` is refused before any request, naming them; root keeps an export's group.

use std::fs;
use std::os::unix::fs::{symlink, MetadataExt};

use crate::support::files::{names, read, write, write_with_mode};
use crate::support::owners::{chmod, give, give_away, OTHER};
use crate::support::users::second_user;
use crate::support::{fees_on, sandbox_env, Env, Sandbox};

const DAY: [&str; 7] = fees_on("2024-01-02");

/// The crontab line of the guide on three days in a row, for `file` (csv or sqlite), under
/// umask 002, run by the second user (their private group makes their files 0664); each day
/// exits 0, and the file keeps every day's rows.
fn cron_three_days(file: &str) {
    let Some(user) = second_user() else {
        return;
    };
    let (sandbox, env) = sandbox_env(&[]);
    user.take(env.home.path());
    for end in ["2024-03-01", "2024-03-02", "2024-03-03"] {
        let line = format!(
            "umask 002; mkdir -p \"$HOME/chain-metrics\"; chain-metrics --quiet fees --chain eth,arb --last 30 -e {end} --output \"$HOME/chain-metrics/{file}\" --merge --resume --strict"
        );
        let mut words = user.as_them();
        words.extend(["bash".into(), "-c".into(), line]);
        env.program("setpriv", &words).run();
    }
    let path = env.home.path().join("chain-metrics").join(file);
    let metadata = fs::metadata(&path).unwrap();
    assert_eq!(
        (metadata.uid(), metadata.gid(), metadata.mode() & 0o777),
        (user.uid, user.gid, 0o664)
    );
    let folder = fs::metadata(path.parent().unwrap()).unwrap();
    assert_eq!(folder.mode() & 0o777, 0o775);
    assert_eq!(names(path.parent().unwrap()), [file]);
    // The first day asked 30 days, each later one its new day and the unsettled ones again.
    let ranges = sandbox.ranges();
    assert_eq!(ranges.len(), 6, "{ranges:?}");
    assert!(ranges.iter().all(|r| r.ends_with("..2024-03-01")
        || r.ends_with("..2024-03-02")
        || r.ends_with("..2024-03-03")));
    assert!(
        ranges[4..].iter().all(|r| r.ends_with("2024-03-03")),
        "{ranges:?}"
    );
}

#[test]
fn the_cron_line_runs_three_days_in_a_row_under_umask_002_csv() {
    cron_three_days("fees.csv");
}

#[test]
fn the_cron_line_runs_three_days_in_a_row_under_umask_002_sqlite() {
    cron_three_days("fees.sqlite");
}

#[test]
fn group_write_is_someone_else_s_when_the_group_has_other_members() {
    let (sandbox, env) = sandbox_env(&[]);
    let merge = |file: &str| env.cmd_args(&[&DAY[..], &["-o", file, "--merge"]].concat());
    let path = write_with_mode(
        &env,
        "x.csv",
        "date,chain,fees\n2024-01-01,ETHEREUM,1\n",
        0o664,
    );
    // The user's own private group (root's, for the suite as root): fine.
    merge("x.csv").run();
    // nogroup: `nobody`'s primary group, so `nobody` could change the rows.
    if !give(&path, None, Some(OTHER)) {
        return;
    }
    let before = read(&env, "x.csv");
    merge("x.csv")
        .code(9)
        .error_line_like("error: cannot write x.csv: x.csv can be changed by the members of group id 65534 (nogroup) (mode 0664, owned by user id 0 (root))[..]")
        .stderr_contains("hint: if no one else should change it, run: chmod go-w x.csv")
        .run();
    assert_eq!(read(&env, "x.csv"), before);
    assert_eq!(sandbox.requests().len(), 1, "a refused run sent a request");
}

/// A folder another user can write, and a link of theirs in it at the export's name, pointing
/// at the user's file `victim.csv`: refused, before any request, whatever the kind of folder.
#[test]
fn a_link_planted_in_a_team_folder_or_another_user_s_folder_is_not_followed() {
    let (sandbox, env) = sandbox_env(&[]);
    write(&env, "victim.csv", "secret\n");
    // A team's folder (root:nogroup 2775, sticky or not), another user's 0777 folder, and
    // another user's own 0755 folder.
    for (name, mode, owner) in [
        ("team", 0o2775, 0),
        ("team-sticky", 0o3775, 0),
        ("open", 0o777, OTHER),
        ("theirs", 0o755, OTHER),
    ] {
        let folder = env.home.path().join(name);
        fs::create_dir(&folder).unwrap();
        chmod(&folder, mode);
        let link = folder.join("out.csv");
        symlink("../victim.csv", &link).unwrap();
        if !give(&link, Some(OTHER), Some(OTHER)) || !give(&folder, Some(owner), Some(OTHER)) {
            return;
        }
        chmod(&folder, mode);
        let out = format!("{name}/out.csv");
        for merge in [&[][..], &["--merge"][..]] {
            let run = env
                .cmd_args(&[&DAY[..], &["-o", &out], merge].concat())
                .code(9)
                .any_stderr()
                .run();
            assert!(
                run.stderr.contains(&format!(
                    "{} is a symbolic link owned by user id 65534 (nobody), neither you (user id 0 (root)) nor root, in a folder another user can write to (mode {mode:04o}",
                    link.display()
                )),
                "{name}: {}",
                run.stderr
            );
        }
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }
    assert_eq!(read(&env, "victim.csv"), "secret\n");
    sandbox.assert_no_requests("a refused run sent a request");
}

/// The same link one folder up: `-o team/sub/out.csv` where `team/sub` is another user's link
/// (to the user's own folder) in a team folder or in another user's 0777 folder. Every part of
/// the path is checked, for a plain `-o`, `--merge` and the SQLite export alike: refused before
/// any request, naming the link and its owner, nothing written where it points.
#[test]
fn a_link_planted_in_a_folder_above_the_output_is_not_followed() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::with_service(&sandbox.url);
    let mine = env.home.path().join("mine");
    fs::create_dir(&mine).unwrap();
    env.cmd_args(&[&DAY[..], &["-o", "mine/out.db"]].concat())
        .run();
    write(&env, "mine/out.csv", "secret\n");
    let db = fs::read(mine.join("out.db")).unwrap();
    let before = sandbox.requests().len();
    for (name, mode, owner) in [("team", 0o2775, 0), ("open", 0o777, OTHER)] {
        let folder = env.home.path().join(name);
        fs::create_dir(&folder).unwrap();
        let link = folder.join("sub");
        symlink("../mine", &link).unwrap();
        if !give(&link, Some(OTHER), Some(OTHER)) || !give(&folder, Some(owner), Some(OTHER)) {
            return;
        }
        chmod(&folder, mode);
        for (file, flags) in [
            ("out.csv", &[][..]),
            ("out.csv", &["--merge"][..]),
            ("out.db", &[][..]),
            ("out.db", &["--merge"][..]),
        ] {
            let out = format!("{name}/sub/{file}");
            let run = env
                .cmd_args(&[&DAY[..], &["-o", &out], flags].concat())
                .code(9)
                .any_stderr()
                .run();
            assert!(
                run.error_line().contains(&format!(
                    "{} is a symbolic link owned by user id 65534 (nobody), neither you (user id 0 (root)) nor root, in a folder another user can write to (mode {mode:04o}",
                    link.display()
                )),
                "{out} {flags:?}: {}",
                run.stderr
            );
        }
    }
    assert_eq!(read(&env, "mine/out.csv"), "secret\n");
    assert_eq!(fs::read(mine.join("out.db")).unwrap(), db);
    assert_eq!(names(&mine), ["out.csv", "out.db"]);
    assert_eq!(
        sandbox.requests().len(),
        before,
        "a refused run sent a request"
    );
}

#[test]
fn another_user_s_file_at_the_output_is_refused_before_any_request_naming_them() {
    let (sandbox, env) = sandbox_env(&[]);
    let path = write_with_mode(&env, "out.csv", "theirs\n", 0o6777);
    if !give_away(&path) {
        return;
    }
    chmod(&path, 0o6777);
    for format in ["csv", "json", "sqlite"] {
        env.cmd_args(&[&DAY[..], &["-o", "out.csv", "-f", format]].concat())
            .code(9)
            .error_line_like("error: cannot write out.csv: out.csv belongs to user id 65534 (nobody), not to you (user id 0 (root)) nor to root (mode 6777)[..]")
            .stderr_contains("hint: use a file of your own instead (copy what you trust of it, or ask user id 65534 (nobody) to remove it)")
            .run();
    }
    assert_eq!(read(&env, "out.csv"), "theirs\n");
    assert_eq!(fs::metadata(&path).unwrap().mode() & 0o7777, 0o6777);
    sandbox.assert_no_requests("a refused run sent a request");
}

#[test]
fn root_keeps_an_export_s_group_whatever_it_is() {
    let (_sandbox, env) = sandbox_env(&[]);
    let path = write_with_mode(
        &env,
        "www.csv",
        "date,chain,fees\n2024-01-01,ETHEREUM,1\n",
        0o640,
    );
    if !nix::unistd::geteuid().is_root() || !give(&path, None, Some(OTHER)) {
        return;
    }
    env.cmd_args(&[&DAY[..], &["-o", "www.csv", "--merge"]].concat())
        .run();
    env.cmd_args(&[&DAY[..], &["-o", "www.csv"]].concat()).run();
    let metadata = fs::metadata(&path).unwrap();
    assert_eq!(
        (metadata.uid(), metadata.gid(), metadata.mode() & 0o7777),
        (0, OTHER, 0o640)
    );
}

#[test]
fn an_ssl_cert_dir_another_user_owns_or_can_add_to_is_refused_before_any_request() {
    let mut env = Env::with_service("https://127.0.0.1:9");
    let certs = env.home.path().join("certs");
    fs::create_dir(&certs).unwrap();
    env.set("SSL_CERT_DIR", certs.to_str().unwrap());
    // The first line of stderr starts with `start`.
    let refused = |env: &Env, start: String| {
        env.cmd_args(&DAY)
            .code(3)
            .error_line_like(format!("{start}[..]"))
            .run();
    };
    // A folder of another user's; then one of the user's, sticky but writable by all; then
    // the user's own folder holding another user's file.
    if !give_away(&certs) {
        return;
    }
    refused(
        &env,
        format!(
            "error: SSL_CERT_DIR: {} belongs to user id 65534 (nobody)",
            certs.display()
        ),
    );
    give(&certs, Some(0), Some(0));
    chmod(&certs, 0o1777);
    refused(
        &env,
        format!(
            "error: SSL_CERT_DIR: folder {} can be changed by other users (mode 1777)",
            certs.display()
        ),
    );
    chmod(&certs, 0o755);
    let planted = certs.join("evil.pem");
    fs::write(&planted, "").unwrap();
    give_away(&planted);
    refused(
        &env,
        format!(
            "error: SSL_CERT_DIR: {} belongs to user id 65534 (nobody)",
            planted.display()
        ),
    );
}

/// Another user's script in a shared sticky folder, and an `api_key_command` that would run it
/// through an interpreter, `env`, or a `cd`: never run, before any request.
#[test]
fn another_user_s_key_script_is_not_run_through_sh_env_or_cd() {
    let sandbox = Sandbox::start(&[]);
    let env = Env::new();
    let shared = env.home.path().join("shared");
    fs::create_dir(&shared).unwrap();
    chmod(&shared, 0o1777);
    let script = shared.join("getkey.sh");
    let mark = env.home.path().join("ran");
    fs::write(
        &script,
        format!("touch {}\necho {}\n", mark.display(), crate::support::KEY),
    )
    .unwrap();
    chmod(&script, 0o755);
    if !give_away(&script) {
        return;
    }
    let (s, d) = (script.display(), shared.display());
    for (command, says) in [
        (
            format!("sh {s}"),
            format!("is not run: the script {s} belongs to user id 65534 (nobody)"),
        ),
        (
            format!("env sh {s}"),
            format!("is not run: the script {s} belongs to user id 65534 (nobody)"),
        ),
        (
            format!("sh -c 'cd {d} && ./getkey.sh'"),
            format!("is not run: the script {d}/./getkey.sh belongs to user id 65534 (nobody)"),
        ),
        (
            format!("cd {d} && ./getkey.sh"),
            "is not run: it uses `&`, and it is run without a shell".to_owned(),
        ),
    ] {
        env.write_config(&format!(
            "base_url = \"{}\"\napi_key_command = \"{}\"\n",
            sandbox.url,
            command.replace('\\', "\\\\").replace('"', "\\\"")
        ));
        let run = env.cmd_args(&DAY).code(3).any_stderr().run();
        assert!(
            run.error_line().contains(&says),
            "{command}: {}",
            run.stderr
        );
        assert!(!mark.exists(), "{command} ran the script");
    }
    assert!(sandbox.requests().is_empty());
    // The user's own script, named alone or through sh: run.
    give(&script, Some(0), Some(0));
    env.write_config(&format!(
        "base_url = \"{}\"\napi_key_command = \"sh {s}\"\n",
        sandbox.url
    ));
    env.cmd_args(&DAY).any_stdout().run();
    assert!(mark.exists());
}
