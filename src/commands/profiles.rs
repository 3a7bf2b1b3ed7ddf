//! `config profiles`: the `[profiles.NAME]` tables of the config file, the one in use marked
//! with where it was chosen (`--profile` or `CHAIN_METRICS_PROFILE`), as `git branch` marks
//! the current branch.

use crate::output::write_stdout;
use crate::settings::Settings;
use crate::system::diag;

/// One name a line, the selected profile marked `*` and followed by its source; stderr says
/// when none is selected (the file's top level applies) or the selected one is not there.
pub(super) fn list(settings: &Settings) -> anyhow::Result<()> {
    let file = settings.config.load_or_new()?;
    let names: Vec<&String> = file.profiles.iter().flatten().map(|(n, _)| n).collect();
    let selected = settings.profile.as_ref();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    write_stdout(|out| {
        for name in &names {
            match selected.filter(|s| s.value == **name) {
                Some(s) => writeln!(out, "* {name:<width$}  (from {})", source_name(s))?,
                None => writeln!(out, "  {name}")?,
            }
        }
        Ok(())
    })?;
    let at = format!("config file {}", settings.config.path.display());
    match selected {
        None if names.is_empty() => diag::note(format!(
            "{at} has no profiles; add one with: chain-metrics{} --profile NAME config set KEY \
            VALUE",
            settings.again()
        )),
        None => diag::note(format!(
            "no profile is selected (the default): the top level of {at} applies; select one \
            with --profile NAME or CHAIN_METRICS_PROFILE"
        )),
        Some(s) if !names.contains(&&s.value) => diag::warning(format!(
            "profile '{}' (from {}) is not in {at}",
            s.value,
            source_name(s)
        )),
        Some(_) => {}
    }
    Ok(())
}

/// Where the selection came from, as the user set it: `--profile`, `CHAIN_METRICS_PROFILE`.
fn source_name(selected: &crate::settings::Sourced<String>) -> String {
    use crate::settings::Source;
    match &selected.source {
        Source::Flag(flag) => (*flag).to_owned(),
        Source::Env(var) => (*var).to_owned(),
        other => other.to_string(),
    }
}
