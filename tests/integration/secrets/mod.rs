//! The key and passwords never shown: in traces, errors and every recorded run (`leaks`), in
//! base URLs and key commands (`beyond_the_key`), against hostile service text (`secret_scrub`,
//! `foreign_text`), and `auth login | status | logout` (`auth`).

mod auth;
mod beyond_the_key;
mod foreign_text;
mod leaks;
mod secret_scrub;
