//! `--by` on its own: sums, means, day counts and the chart's steps.

use super::*;

fn day(text: &str) -> NaiveDate {
    crate::model::parse_date(text).unwrap()
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
