//! The guides of docs/ run as written: the recipes for exact numbers in jq, DuckDB and pandas
//! (`recipes`), and the cron and systemd guide against the man page and contrib/ (`cron_docs`).

mod cron_docs;
mod recipes;
