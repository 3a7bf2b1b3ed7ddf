//! The period arithmetic on its own: period starts and ends, sums, means and day counts.

use super::*;

fn day(text: &str) -> NaiveDate {
    crate::model::dates::parse_date(text).unwrap()
}

fn n(text: &str) -> Option<Number> {
    Number::from_json_token(text)
}

/// A row of the given cells.
fn row(date: &str, chain: Option<Chain>, values: Vec<Option<Number>>) -> Row {
    Row {
        date: day(date),
        chain,
        values,
        coverage: None,
    }
}

fn texts(row: &Row) -> String {
    let cells: Vec<String> = (row.values.iter())
        .map(|v| v.as_ref().map_or(String::new(), |n| n.as_str().into()))
        .collect();
    cells.join(",")
}

#[test]
fn periods_start_on_their_first_day() {
    // A day, the first day of its period, and the period's last day.
    let cases = [
        (Period::Week, "2025-01-01", "2024-12-30", "2025-01-05"),
        (Period::Week, "2024-12-29", "2024-12-23", "2024-12-29"),
        (Period::Week, "2021-01-03", "2020-12-28", "2021-01-03"),
        (Period::Week, "2024-01-01", "2024-01-01", "2024-01-07"),
        (Period::Month, "2024-02-29", "2024-02-01", "2024-02-29"),
        (Period::Month, "2023-02-14", "2023-02-01", "2023-02-28"),
        (Period::Quarter, "2024-03-31", "2024-01-01", "2024-03-31"),
        (Period::Quarter, "2024-04-01", "2024-04-01", "2024-06-30"),
        (Period::Quarter, "2024-12-31", "2024-10-01", "2024-12-31"),
        (Period::Year, "2024-12-31", "2024-01-01", "2024-12-31"),
        (Period::Day, "2024-05-17", "2024-05-17", "2024-05-17"),
    ];
    for (by, date, start, end) in cases {
        assert_eq!(by.start(day(date)), day(start), "{by:?} {date}");
        assert_eq!(by.last_day(day(start)), day(end), "{by:?} {start}");
    }
}

#[test]
fn means_round_half_to_even_exactly() {
    let mean = |values: &[&str]| {
        let sum: BigDecimal = values
            .iter()
            .map(|v| n(v).unwrap().to_decimal().unwrap())
            .sum();
        let count = BigDecimal::from(values.len() as u64);
        divide(&sum, &count, 0).unwrap().to_plain_string()
    };
    assert_eq!(mean(&["1", "2"]), "2"); // 1.5
    assert_eq!(mean(&["2", "3"]), "2"); // 2.5
    assert_eq!(mean(&["0", "1"]), "0"); // 0.5
    assert_eq!(mean(&["1", "2", "2"]), "2"); // 1.67
    assert_eq!(mean(&["1", "1", "2"]), "1"); // 1.33
    assert_eq!(mean(&["5E+3", "1.5e1"]), "2508"); // 2507.5
    assert_eq!(mean(&["-3", "-2"]), "-2"); // -2.5
    assert_eq!(
        mean(&[
            "9999999999999999999999999999999",
            "9999999999999999999999999999998"
        ]),
        "9999999999999999999999999999998" // ...998.5, to the even neighbour
    );
}

#[test]
fn rows_add_up_per_period_and_chain_in_the_asked_order() {
    let row = |date: &str, chain, fees: &str, users: &str| {
        row(date, Some(chain), vec![n(fees), n(users)])
    };
    let data = Dataset {
        chain_column: true,
        columns: vec![
            Column::value(Metric::Fees),
            Column::value(Metric::ActiveUsers),
        ],
        rows: vec![
            row("2024-01-30", Chain::Ethereum, "0.1", "3"),
            row("2024-01-31", Chain::Ethereum, "0.2", ""),
            row("2024-01-31", Chain::Base, "5E+3", "4"),
            row("2024-02-01", Chain::Base, "", ""),
        ],
    };
    let chains = [Chain::Base, Chain::Ethereum];
    let months = aggregate(data, &chains, Period::Month, None).unwrap();
    assert_eq!(
        months.header(),
        ["date", "chain", "days", "fees", "active_users_avg"]
    );
    let got: Vec<_> = months
        .rows
        .iter()
        .map(|r| (r.date.to_string(), r.chain, texts(r)))
        .collect();
    let base = Some(Chain::Base);
    let expected = [
        ("2024-01-01", base, "1,5000,4"),
        ("2024-01-01", Some(Chain::Ethereum), "2,0.3,3"),
        ("2024-02-01", base, "0,,"),
    ];
    assert_eq!(
        got,
        expected.map(|(d, c, t)| (d.to_owned(), c, t.to_owned()))
    );
}

#[test]
fn a_number_beyond_any_float_is_refused_by_name() {
    let data = Dataset {
        chain_column: false,
        columns: vec![Column::value(Metric::Fees)],
        rows: vec![row(
            "2024-01-03",
            Some(Chain::Ethereum),
            vec![n("1e999999999")],
        )],
    };
    assert_eq!(
        aggregate(data, &[Chain::Ethereum], Period::Week, None).unwrap_err(),
        "cannot add up ETHEREUM fees of 2024-01-03: 1e999999999 is beyond the range of a number \
         (an exponent beyond ±1000)"
    );
}

#[test]
fn steps_cover_each_period_within_the_range() {
    let data = Dataset {
        chain_column: false,
        columns: vec![Column::days(), Column::value(Metric::Fees).rolled_up()],
        rows: vec![
            row("2024-01-29", None, vec![n("2"), n("5")]),
            row("2024-02-05", None, vec![n("1"), n("7")]),
        ],
    };
    let range = DayRange {
        start: day("2024-02-03"),
        end: day("2024-02-05"),
    };
    let steps = steps(data, Period::Week, &range);
    assert_eq!(steps.header(), ["date", "fees"]);
    let got: Vec<_> = steps
        .rows
        .iter()
        .map(|r| (r.date.to_string(), texts(r)))
        .collect();
    let expected = [
        ("2024-02-03", "5"),
        ("2024-02-04", "5"),
        ("2024-02-05", "7"),
    ];
    assert_eq!(got, expected.map(|(d, t)| (d.to_owned(), t.to_owned())));
}

#[test]
fn periods_step_forward_and_back_and_know_their_length() {
    let steps = [
        (Period::Day, "2024-02-28", "2024-02-29", 1),
        (Period::Week, "2024-12-30", "2025-01-06", 7),
        (Period::Month, "2024-02-01", "2024-03-01", 29),
        (Period::Month, "2023-02-01", "2023-03-01", 28),
        (Period::Quarter, "2024-10-01", "2025-01-01", 92),
        (Period::Year, "2024-01-01", "2025-01-01", 366),
    ];
    for (by, start, next, length) in steps {
        assert_eq!(by.next(day(start)), Some(day(next)), "{by:?} {start}");
        assert_eq!(by.back(day(next), 1), Some(day(start)), "{by:?} {next}");
        assert_eq!(by.length(day(start)), length, "{by:?} {start}");
    }
    assert_eq!(
        Period::Quarter.back(day("2024-04-01"), 4),
        Some(day("2023-04-01"))
    );
    assert_eq!(Period::Year.back(day("2024-01-01"), i64::MAX), None);
    assert_eq!(Period::Day.next(NaiveDate::MAX), None);
    let month = Period::Month;
    assert_eq!(month.last_whole_end(day("2024-02-29")), day("2024-02-29"));
    assert_eq!(month.last_whole_end(day("2024-02-28")), day("2024-01-31"));
    let range = DayRange {
        start: day("2024-01-31"),
        end: day("2024-03-01"),
    };
    let starts = ["2024-01-01", "2024-02-01", "2024-03-01"].map(day);
    assert_eq!(Period::Month.starts(&range), starts);
    let within = Period::Month.within(day("2024-01-01"), &range);
    assert_eq!(
        (within.start, within.end),
        (day("2024-01-31"), day("2024-01-31"))
    );
}

#[test]
fn rolled_up_rows_carry_their_coverage() {
    let data = Dataset {
        chain_column: false,
        columns: vec![Column::value(Metric::Fees)],
        rows: ["2024-02-05", "2024-02-07", "2024-03-01"]
            .map(|date| row(date, None, vec![n("1")]))
            .to_vec(),
    };
    let months = aggregate(data, &[], Period::Month, None).unwrap();
    let coverage: Vec<_> = months.rows.iter().map(|r| r.coverage).collect();
    assert_eq!(
        coverage,
        [
            Some(Coverage { days: 2, of: 29 }),
            Some(Coverage { days: 1, of: 31 })
        ]
    );
    assert_eq!(months.rows[0].values[0], n("2"));
}

#[test]
fn per_user_divides_the_fees_by_the_exact_mean_of_the_daily_actives() {
    let columns = vec![
        Column::value(Metric::Fees),
        Column::value(Metric::ActiveUsers),
    ];
    // Users 1, 2 and 2 (one day without): the mean shown is 2, the exact one 5/3.
    let rows = [
        ("2024-01-01", "1", "1"),
        ("2024-01-02", "1", "2"),
        ("2024-01-03", "1", "2"),
        ("2024-01-04", "1", ""),
    ];
    let data = Dataset {
        chain_column: false,
        columns,
        rows: rows
            .map(|(date, fees, users)| row(date, None, vec![n(fees), n(users)]))
            .to_vec(),
    };
    let weeks = aggregate(data, &[], Period::Week, Some(4)).unwrap();
    assert_eq!(
        weeks.header(),
        ["date", "days", "fees", "active_users_avg", "fees_per_user"]
    );
    // 4 / (5 / 3) = 2.4, where 4 / 2 would be 2.
    assert_eq!(texts(&weeks.rows[0]), "4,4,2,2.4000");
}
