//! `--merge`: upserts by (date, chain) or by date, number texts kept, refusals with exit 9 that
//! leave the file byte-identical.

use crate::support::files::{names, read, refused_keeps, write};
use crate::support::{argv, empty_service, sandbox_env, Env, Reply, Stub};
use snapbox::str;

#[test]
fn merge_upserts_overlapping_days_of_two_chains_and_sorts() {
    let (_sandbox, env) = sandbox_env(&[]);
    // Yesterday's export: the 2nd holds provisional values the service has since revised.
    write(
        &env,
        "fees.csv",
        "date,chain,fees\n2023-12-31,ARBITRUM,7\n2024-01-01,ETHEREUM,1.50\n2024-01-02,ARBITRUM,5\n2024-01-02,ETHEREUM,2\n",
    );
    // ARBITRUM has no row of 2024-01-01, between its own: a hole, which a plain --merge names.
    env.cmd("fees -c eth,arb -s 2024-01-02 -e 2024-01-03 -o fees.csv --merge")
        .stdout("")
        .stderr(
            "warning: fees.csv lacks values for days inside its own range that this run did not \
             ask: ARBITRUM 2024-01-01\n\
             hint: add --resume to this command: each run then asks the missing ones again\n",
        )
        .run();

    assert_eq!(
        read(&env, "fees.csv"),
        "date,chain,fees\n2023-12-31,ARBITRUM,7\n2024-01-01,ETHEREUM,1.50\n2024-01-02,ETHEREUM,826665.76\n2024-01-02,ARBITRUM,71927.52\n2024-01-03,ETHEREUM,821920.42\n2024-01-03,ARBITRUM,67000.93\n"
    );
    assert_eq!(names(env.home.path()), ["fees.csv"]);
}

#[test]
fn merge_into_a_missing_or_empty_file_writes_the_fresh_rows() {
    let (_sandbox, env) = sandbox_env(&[]);
    let args = argv("fees -c eth -s 2024-01-01 -e 2024-01-01 --merge -o");
    env.cmd_args(&[&args[..], &["new.csv"]].concat()).run();
    assert_eq!(
        read(&env, "new.csv"),
        "date,chain,fees\n2024-01-01,ETHEREUM,879768.88\n"
    );
    write(&env, "empty.json", "");
    env.cmd_args(&[&args[..], &["empty.json"]].concat()).run();
    assert_eq!(
        read(&env, "empty.json"),
        "[\n  {\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":879768.88}\n]\n"
    );
}

#[test]
fn merge_keeps_number_texts_of_json_ndjson_and_tsv_exactly() {
    let (_sandbox, env) = sandbox_env(&[]);
    let args = argv("fees -c eth -s 2024-01-02 -e 2024-01-02 --merge -o");
    // (file, what it held, what it holds after): each keeps its own number texts.
    let cases = [
        (
            "f.json",
            "[{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":12345678901234567890.123456789},\n {\"date\":\"2023-12-30\", \"chain\":\"ETHEREUM\", \"fees\": 5E+3}, {\"date\":\"2023-12-31\",\"chain\":\"ETHEREUM\",\"fees\":null}]",
            "[\n  {\"date\":\"2023-12-30\",\"chain\":\"ETHEREUM\",\"fees\":5E+3},\n  {\"date\":\"2023-12-31\",\"chain\":\"ETHEREUM\",\"fees\":null},\n  {\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":12345678901234567890.123456789},\n  {\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":826665.76}\n]\n",
        ),
        (
            "f.ndjson",
            "{\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":0.1}\n\n{\"date\":\"2024-01-03\",\"chain\":\"ETHEREUM\",\"fees\":0.10}\n",
            "{\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":826665.76}\n{\"date\":\"2024-01-03\",\"chain\":\"ETHEREUM\",\"fees\":0.10}\n",
        ),
        (
            "f.tsv",
            "date\tchain\tfees\n2024-01-03\tETHEREUM\t1e-7\n2024-01-04\tETHEREUM\t\n",
            "date\tchain\tfees\n2024-01-02\tETHEREUM\t826665.76\n2024-01-03\tETHEREUM\t1e-7\n2024-01-04\tETHEREUM\t\n",
        ),
    ];
    for (file, before, after) in cases {
        write(&env, file, before);
        // f.json's null of 2023-12-31 is a hole inside its range, which a plain --merge names.
        let said = match file {
            "f.json" => "warning: f.json lacks values for days inside its own range that this run \
                did not ask: ETHEREUM 2023-12-31\nhint: add --resume to this command: each run then asks the missing ones again\n",
            _ => "",
        };
        env.cmd_args(&[&args[..], &[file]].concat())
            .stderr(said)
            .run();
        assert_eq!(read(&env, file), after, "{file}");
    }
}

#[test]
fn merge_with_wide_upserts_by_date() {
    let (_sandbox, env) = sandbox_env(&[]);
    write(
        &env,
        "wide.csv",
        "date,ETHEREUM,ARBITRUM\n2024-01-01,1,\n2024-01-02,2,3\n",
    );
    env.cmd("fees -c eth,arb -s 2024-01-02 -e 2024-01-02 --wide -o wide.csv --merge")
        .run();
    assert_eq!(
        read(&env, "wide.csv"),
        "date,ETHEREUM,ARBITRUM\n2024-01-01,1,\n2024-01-02,826665.76,71927.52\n"
    );
}

#[test]
fn merge_refuses_other_columns_with_exit_9_and_leaves_the_file_untouched() {
    let (_sandbox, env) = sandbox_env(&[]);
    // (A file of one chain, `date,fees`, takes several chains: chains_grow.rs.)
    let old = "date,active_users\n2024-01-01,1\n";
    let merge = env.cmd("fees -c eth,arb -s 2024-01-01 -e 2024-01-01 -o fees.csv --merge").code(9).stderr(str![[r#"
error: fees.csv has the columns date,active_users but this command writes date,chain,fees (active_users: not written by this command with these flags): not merged; the file is left as it was
hint: merge only the same command with the same --wide and --by (columns are matched by name, so another --include order or a new include merges); or write to another file

"#]]);
    refused_keeps(&env, "fees.csv", old, merge);
    // The same for json: the member names are the columns.
    let old_json = "[{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"active_users\":3}]";
    let merge = env.cmd("fees -c eth,arb -s 2024-01-01 -e 2024-01-01 -o users.json --merge").code(9).error_line("error: users.json has the columns date,chain,active_users but this command writes date,chain,fees (active_users: not written by this command with these flags): not merged; the file is left as it was").any_stderr();
    refused_keeps(&env, "users.json", old_json, merge);
    // A damaged row is refused as well, naming its line.
    let damaged = "date,chain,fees\n2024-01-01,ETHEREUM,1\n2024-01-02,ETHEREUM,n/a\n";
    let merge = env.cmd("fees -c eth -s 2024-01-01 -e 2024-01-01 -o damaged.csv --merge").code(9).error_line("error: damaged.csv cannot be merged: line 3: 'n/a' is not a number; the file is left as it was");
    refused_keeps(&env, "damaged.csv", damaged, merge);
    assert_eq!(
        names(env.home.path()),
        ["damaged.csv", "fees.csv", "users.json"]
    );
}

#[test]
fn a_fresh_gap_never_erases_a_stored_value() {
    // ARBITRUM has no record this time: its stored 3 stays, ETHEREUM's value is revised.
    let stub = Stub::start(|seen| {
        let body = match seen.body.contains("ETHEREUM") {
            true => r#"[{"date":"2024-01-02","fees":9}]"#,
            false => "[]",
        };
        Reply::json(200, body)
    });
    let env = Env::with_service(&stub.url);
    write(&env, "wide.csv", "date,ETHEREUM,ARBITRUM\n2024-01-02,2,3\n");
    env.cmd("fees -c eth,arb -s 2024-01-02 -e 2024-01-02 --wide -o wide.csv --merge -q")
        .run();
    assert_eq!(
        read(&env, "wide.csv"),
        "date,ETHEREUM,ARBITRUM\n2024-01-02,9,3\n"
    );
}

#[test]
fn other_columns_are_refused_before_any_request() {
    let (stub, env) = empty_service();
    write(&env, "fees.csv", "date,tweet\n2024-01-01,1\n");
    env.cmd("fees -c all --last 3 -o fees.csv --merge")
        .code(9)
        .run();
    assert!(
        stub.seen().is_empty(),
        "{} requests were sent first",
        stub.seen().len()
    );
    assert_eq!(read(&env, "fees.csv"), "date,tweet\n2024-01-01,1\n");
}

/// A file that is not UTF-8 is refused with the words it always was (`read_to_string`'s),
/// wherever the bad byte is: read as a stream, it is still judged whole before its rows are,
/// so a fault met first (a bad cell, a key twice) does not hide it. `render FILE` the same.
#[test]
fn a_merge_file_that_is_not_utf8_is_refused_with_the_same_words_wherever_the_byte_is() {
    let (_sandbox, env) = sandbox_env(&[]);
    let args = argv("fees -c eth -s 2024-01-02 -e 2024-01-02 --merge -o");
    let cases: [(&str, &[u8]); 6] = [
        ("first.csv", b"date,chain,f\xffees\n2024-01-01,ETHEREUM,1\n"),
        // A bad cell on line 2, a key twice, then the byte at the very end.
        (
            "late.csv",
            b"date,chain,fees\n2024-01-01,ETHEREUM,x\n2024-01-01,ETHEREUM,1\n2024-01-01,ETHEREUM,1\n\xc3",
        ),
        ("cut.tsv", b"date\tchain\tfees\n2024-01-01\tETHEREUM\t1\n\xe2\x82"),
        ("late.ndjson", b"{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":\"x\"}\n\xfe\n"),
        ("in_string.json", b"[{\"date\":\"2024-01-01\",\"chain\":\"ETH\xffEREUM\",\"fees\":1}]"),
        ("after.json", b"[{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":1}] \x80"),
    ];
    for (name, bytes) in cases {
        std::fs::write(env.home.path().join(name), bytes).unwrap();
        env.cmd_args(&[&args[..], &[name]].concat())
            .code(9)
            .error_line(format!("error: {name} cannot read it to merge: stream did not contain valid UTF-8; the file is left as it was"))
            .run();
        assert_eq!(
            std::fs::read(env.home.path().join(name)).unwrap(),
            bytes,
            "{name}"
        );
        env.cmd_args(&["render", name, "-f", "svg"])
            .code(9)
            .error_line(format!(
                "error: cannot draw {name}: stream did not contain valid UTF-8"
            ))
            .run();
    }
}

/// A merge file is read as a stream, so a run holds its rows, not its text: files of two rows
/// apart by 48 MiB that hold no row (blank CRLF lines in csv, blank lines in ndjson, white
/// space between a JSON array's elements) merge within a peak far below what holding the
/// text took (the text alone was 48 MiB). The peak is the child's own, as in `wire/bounded.rs`.
#[test]
fn a_merge_file_is_read_as_a_stream_within_memory_bounded_by_its_rows() {
    const PADDING: usize = 48 * 1024 * 1024;
    let (_sandbox, env) = sandbox_env(&[]);
    let first = r#"{"date":"2024-01-01","chain":"ETHEREUM","fees":1}"#;
    let last = r#"{"date":"2024-01-03","chain":"ETHEREUM","fees":3}"#;
    let spaces_line = format!("{}\n", " ".repeat(1023));
    let cases = [
        (
            "padded.csv",
            format!(
                "date,chain,fees\r\n2024-01-01,ETHEREUM,1\r\n{}2024-01-03,ETHEREUM,3\r\n",
                "\r\n".repeat(PADDING / 2)
            ),
            "date,chain,fees\n2024-01-01,ETHEREUM,1\n2024-01-02,ETHEREUM,826665.76\n2024-01-03,ETHEREUM,3\n",
        ),
        (
            "padded.ndjson",
            format!("{first}\n{}{last}\n", spaces_line.repeat(PADDING / 1024)),
            "{\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":1}\n{\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":826665.76}\n{\"date\":\"2024-01-03\",\"chain\":\"ETHEREUM\",\"fees\":3}\n",
        ),
        (
            "padded.json",
            format!("[{first},{}{last}]\n", " ".repeat(PADDING)),
            "[\n  {\"date\":\"2024-01-01\",\"chain\":\"ETHEREUM\",\"fees\":1},\n  {\"date\":\"2024-01-02\",\"chain\":\"ETHEREUM\",\"fees\":826665.76},\n  {\"date\":\"2024-01-03\",\"chain\":\"ETHEREUM\",\"fees\":3}\n]\n",
        ),
    ];
    for (name, text, merged) in cases {
        write(&env, name, &text);
        drop(text);
        let args = argv("fees -c eth -s 2024-01-02 -e 2024-01-02 --merge -o");
        let (code, stderr, peak) =
            crate::wire::bounded::run_measured(env.cmd_args(&[&args[..], &[name]].concat()));
        assert_eq!(code, 0, "{name}: {stderr}");
        assert_eq!(read(&env, name), merged, "{name}");
        println!("{name}: peak RSS {peak} KiB");
        assert!(peak < 32 * 1024, "{name}: peak RSS {peak} KiB");
    }
}

/// The merged file is written as it is rendered, into the temp file that replaces it: a run
/// holds the rows, not the rows and a second copy of the whole file. 8,000 rows of
/// 4,000-digit values (a 31 MiB file) merge within a peak well below the rows and the text
/// together. The peak is the child's own, as in `wire/bounded.rs`.
#[test]
fn a_merged_file_is_written_as_it_is_rendered_not_held_whole_first() {
    let (_sandbox, env) = sandbox_env(&[]);
    let digits = "7".repeat(4000);
    let start = chrono::NaiveDate::from_ymd_opt(2015, 1, 1).unwrap();
    let mut text = String::from("date,chain,fees\n");
    for day in start.iter_days().take(4000) {
        for chain in ["ETHEREUM", "ARBITRUM"] {
            text.push_str(&format!("{day},{chain},{digits}\n"));
        }
    }
    let size = text.len() as i64 / 1024;
    write(&env, "big.csv", &text);
    drop(text);
    let args = argv("fees -c eth -s 2024-01-02 -e 2024-01-02 --merge -o big.csv");
    let (code, stderr, peak) = crate::wire::bounded::run_measured(env.cmd_args(&args));
    assert_eq!(code, 0, "{stderr}");
    let back = read(&env, "big.csv");
    assert!(back.contains("2024-01-02,ETHEREUM,826665.76\n"));
    assert_eq!(back.lines().count(), 8001);
    println!("file {size} KiB, peak RSS {peak} KiB");
    // Measured in a debug build: 53 MiB; 84 MiB when the whole text was rendered into memory
    // before the temp file was written.
    assert!(peak < size * 9 / 4, "file {size} KiB, peak RSS {peak} KiB");
}
