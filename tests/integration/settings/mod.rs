//! Where settings come from (`precedence`), `config path | show | get | set | unset`
//! (`config`), and what fuzzing found in config files and base URLs (`fuzz_findings`).

mod config;
mod fuzz_findings;
mod precedence;
