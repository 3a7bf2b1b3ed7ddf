//! The guides of docs/ run as written: the recipes for exact numbers in jq, DuckDB and pandas
//! (`recipes`), the cron and systemd guide against the man page and contrib/ (`cron_docs`), and
//! what the guides name: the service, the sandbox's faults (`guides`).

mod cron_docs;
mod guides;
mod recipes;
