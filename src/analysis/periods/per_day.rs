//! `--per-day`: each summed value of a `--by` period drawn as its mean per covered day, so
//! that a partial period and a short month compare honestly with whole, long ones.

use crate::model::{divide, Aggregation, Column, Dataset, Measure, Number};
use bigdecimal::BigDecimal;

/// Whether `--per-day` divides the column: a metric's own value summed by `--by` (fees, the
/// social counts), not a mean (`active_users_avg`), `days`, nor a derived measure.
fn divided(column: &Column) -> bool {
    column.measure() == Some(Measure::Value) && column.aggregation() == Some(Aggregation::Sum)
}

/// The columns [`per_day`] makes of `columns`: each summed value renamed `…_per_day`.
pub(crate) fn per_day_columns(columns: &[Column]) -> Vec<Column> {
    let named = |c: &Column| match divided(c) {
        true => c.with_measure(Measure::PerDay).unwrap_or(*c),
        false => *c,
    };
    columns.iter().map(named).collect()
}

/// Each summed value of a rolled-up row over the days its period covers (the row's
/// [`Coverage`](crate::model::Coverage)`.days`), exactly, rounded half to even to `decimals`.
/// Rows without a coverage (daily rows) are left as they are. Fails, naming the value, on a
/// number too large to divide exactly.
pub(crate) fn per_day(mut data: Dataset, decimals: u32) -> Result<Dataset, String> {
    let at: Vec<bool> = data.columns.iter().map(divided).collect();
    for row in &mut data.rows {
        let Some(days) = row.coverage.map(|c| c.days).filter(|d| *d > 0) else {
            continue;
        };
        let days = BigDecimal::from(days);
        for (value, _) in row.values.iter_mut().zip(&at).filter(|(_, on)| **on) {
            let Some(number) = value.as_ref() else {
                continue;
            };
            let sum = number
                .to_decimal()
                .map_err(|why| format!("cannot divide {} by its days: {why}", row.date))?;
            *value = divide(&sum, &days, decimals).map(|mean| Number::from_decimal(&mean));
        }
    }
    data.columns = per_day_columns(&data.columns);
    Ok(data)
}
