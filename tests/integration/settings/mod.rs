//! Where settings come from (`precedence`), `config path | show | get | set | unset`
//! (`config`), what fuzzing found in config files and base URLs (`fuzz_findings`), and the
//! output defaults a config file holds, with `config profiles` (`output_defaults`).

mod config;
mod fuzz_findings;
mod output_defaults;
mod precedence;
