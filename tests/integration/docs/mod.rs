//! The guides of docs/ run as written: the recipes for exact numbers in jq, DuckDB, pandas,
//! sqlite3 and PostgreSQL (`recipes`), the cron and systemd guide against the man page and
//! contrib/ (`cron_docs`), and what the guides name and show: the service, the sandbox's
//! faults, every command of the exports guide, the README's first command, the man-page install
//! recipes under man-db's `man` (`guides`); the README's one picture, its report example as
//! the screenshot script draws it now (`readme_picture`).

mod cron_docs;
mod guides;
mod readme_picture;
mod recipes;
