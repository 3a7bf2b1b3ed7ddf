//! Where `fees_per_user` is left empty for want of a divisor, so that a run can say why.

use bigdecimal::Zero;
use chrono::NaiveDate;

use super::is_per_user;
use crate::model::{Chain, Column, Dataset, Metric, Number};

/// The rows whose `fees_per_user` is left empty for want of a divisor: fees there, but no
/// active user (a day with 0 actives, or a period whose actives are 0 on every day), as
/// (date, chain), in row order. Empty when `fees_per_user` is not among the columns.
pub(crate) fn undivided(data: &Dataset) -> Vec<(NaiveDate, Option<Chain>)> {
    let find = |f: &dyn Fn(&Column) -> bool| data.columns.iter().position(f);
    let (Some(per_user), Some(fees), Some(users)) = (
        find(&is_per_user),
        find(&|c| c.is_value_of(Metric::Fees)),
        find(&|c| c.is_value_of(Metric::ActiveUsers)),
    ) else {
        return Vec::new();
    };
    let zero = |n: &Number| n.to_decimal().is_ok_and(|d| d.is_zero());
    (data.rows.iter())
        .filter(|row| row.values[per_user].is_none() && row.values[fees].is_some())
        .filter(|row| row.values[users].as_ref().is_some_and(zero))
        .map(|row| (row.date, row.chain))
        .collect()
}
