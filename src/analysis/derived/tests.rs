use super::*;
use crate::model::column_named;

/// The names of the columns.
fn names(data: &Dataset) -> Vec<String> {
    data.columns.iter().map(Column::name).collect()
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2024, 1, d).unwrap()
}

fn range(first: u32, last: u32) -> DayRange {
    DayRange {
        start: day(first),
        end: day(last),
    }
}

/// Rows of `columns`, each written `day chain value...` (chain `E` or `B`, a value `-` for a
/// gap) and separated by commas: `"1 E 0.1 5, 2 E - 6"`.
fn table(columns: &[&str], rows: &str) -> Dataset {
    let row = |text: &str| {
        let cells: Vec<&str> = text.split_whitespace().collect();
        Row {
            date: day(cells[0].parse().unwrap()),
            chain: Some(if cells[1] == "E" { E } else { B }),
            values: (cells[2..].iter())
                .map(|cell| match *cell {
                    "-" => None,
                    cell => Number::from_json_token(cell),
                })
                .collect(),
            coverage: None,
        }
    };
    Dataset {
        chain_column: true,
        columns: columns.iter().map(|c| column_named(c)).collect(),
        rows: rows.split(',').map(row).collect(),
    }
}

/// Rows of fees alone: `"1 E 0.1, 2 E -"`.
fn fees(rows: &str) -> Dataset {
    table(&["fees"], rows)
}

/// The cells of column `name` as text, gaps `-`.
fn column(data: &Dataset, name: &str) -> Vec<String> {
    let i = data.columns.iter().position(|c| c.name() == name).unwrap();
    data.rows
        .iter()
        .map(|r| {
            r.values[i]
                .as_ref()
                .map_or("-".into(), |n| n.as_str().into())
        })
        .collect()
}

fn asked(f: impl FnOnce(&mut Measures)) -> Measures {
    let mut m = Measures::default();
    f(&mut m);
    m
}

/// `data` with the measures `f` asks, by day over days `first..=last`.
fn measured(
    data: Dataset,
    chains: &[Chain],
    (first, last): (u32, u32),
    f: impl FnOnce(&mut Measures),
) -> Dataset {
    derive(data, &asked(f), chains, Period::Day, &range(first, last)).unwrap()
}

const E: Chain = Chain::Ethereum;
const B: Chain = Chain::Base;

#[test]
fn change_is_exact_and_a_gap_or_a_missing_day_stays_a_gap() {
    // 2024-01-03 has no row at all; 2024-01-05 has a row without a value.
    let d = fees("1 E 0.1, 2 E 0.3, 4 E 2, 5 E -, 6 E -1, 7 E 0.5");
    let change = asked(|m| m.change = true);
    let out = derive(d, &change, &[E], Period::Day, &range(1, 7)).unwrap();
    assert_eq!(names(&out), ["fees", "fees_change", "fees_change_pct"]);
    assert_eq!(
        column(&out, "fees_change"),
        ["-", "0.2", "-", "-", "-", "1.5"]
    );
    // 0.2 / 0.1 = 200 %; -1 to 0.5 is +1.5 of a size-1 value: +150 %
    assert_eq!(
        column(&out, "fees_change_pct"),
        ["-", "200.00", "-", "-", "-", "150.00"]
    );
}

#[test]
fn rolling_mean_waits_for_n_values_and_skips_gaps() {
    let d = fees("1 E 1, 2 E 2, 3 E -, 4 E 4, 5 E 0.005");
    let out = measured(d, &[E], (1, 5), |m| m.rolling = Some(3));
    assert_eq!(names(&out), ["fees", "fees_rolling_3"]);
    // (1+2+4)/3 = 2.333.. ; (2+4+0.005)/3 = 2.00166..
    assert_eq!(
        column(&out, "fees_rolling_3"),
        ["-", "-", "-", "2.33", "2.00"]
    );
}

#[test]
fn cumulative_stops_at_the_first_gap_and_skips_active_users() {
    let columns = ["fees", "active_users"];
    let d = table(&columns, "1 E 0.1 5, 2 E 0.2 6, 3 E - 7, 4 E 1 8");
    let out = measured(d, &[E], (1, 4), |m| m.cumulative = true);
    assert_eq!(names(&out), ["fees", "fees_cumulative", "active_users"]);
    assert_eq!(column(&out, "fees_cumulative"), ["0.1", "0.3", "-", "-"]);
}

#[test]
fn share_needs_every_chain_of_the_date() {
    let d = fees("1 E 1, 1 B 2, 2 E 5, 3 E 0, 3 B 0");
    let out = measured(d, &[E, B], (1, 3), |m| m.share = true);
    // 1/3 = 33.333.. %, 2/3 = 66.666.. %; day 2 lacks BASE; day 3 totals zero
    assert_eq!(
        column(&out, "fees_share_pct"),
        ["33.33", "66.67", "-", "-", "-"]
    );
}

#[test]
fn per_user_divides_fees_by_users_of_the_same_row() {
    let columns = ["fees", "active_users", "tweet"];
    let d = table(&columns, "1 E 10 4 1, 2 E 10 0 1, 3 E 1 - 1");
    let m = asked(|m| {
        m.per_user = true;
        m.decimals = 4;
    });
    let out = derive(d, &m, &[E], Period::Day, &range(1, 3)).unwrap();
    assert_eq!(
        names(&out),
        ["fees", "fees_per_user", "active_users", "tweet"]
    );
    assert_eq!(column(&out, "fees_per_user"), ["2.5000", "-", "-"]);
}

#[test]
fn periods_are_compared_with_the_previous_period_and_days_passes_through() {
    let d = table(&["days", "fees"], "1 E 7 10, 8 E 7 15");
    let m = asked(|m| m.change = true);
    let out = derive(d, &m, &[E], Period::Week, &range(1, 14)).unwrap();
    assert_eq!(
        names(&out),
        ["days", "fees", "fees_change", "fees_change_pct"]
    );
    assert_eq!(column(&out, "fees_change_pct"), ["-", "50.00"]);
}

#[test]
fn a_huge_exponent_is_refused_naming_it() {
    let d = fees("1 E 1e99999");
    let change = asked(|m| m.change = true);
    let err = derive(d, &change, &[E], Period::Day, &range(1, 1));
    assert_eq!(
        err.unwrap_err(),
        "cannot compute with ETHEREUM fees of 2024-01-01: 1e99999 is beyond the range of a number \
        (an exponent beyond ±1000)"
    );
}

#[test]
fn a_per_user_column_made_by_the_roll_up_moves_after_the_fees_group() {
    let columns = ["days", "fees", "active_users_avg", "fees_per_user"];
    let d = table(&columns, "1 E 7 10 3 3.33, 8 E 7 20 4 5.00");
    let m = asked(|m| {
        m.change = true;
        m.per_user = true;
    });
    let out = derive(d, &m, &[E], Period::Week, &range(1, 14)).unwrap();
    assert_eq!(
        names(&out),
        [
            "days",
            "fees",
            "fees_change",
            "fees_change_pct",
            "fees_per_user",
            "active_users_avg",
            "active_users_avg_change",
            "active_users_avg_change_pct"
        ]
    );
    // Taken as the roll-up made it, not divided again by the rounded mean.
    assert_eq!(column(&out, "fees_per_user"), ["3.33", "5.00"]);
}
