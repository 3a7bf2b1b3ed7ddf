//! The profile a run reads: the selected `[profiles.NAME]` table over the file's top level,
//! and the error that lists the profiles there when the one named is missing.

use super::config::{ConfigLocation, FileSettings};
use super::precedence::{Layer, Source, Sourced};
use super::{again, FileUse};
use crate::error::{Failure, Result};

/// The file's layers, highest first: the selected profile's table, then the top level.
pub(super) fn layers<'a>(
    file: &'a FileSettings,
    profile: Option<&Sourced<String>>,
    config: &ConfigLocation,
    file_use: FileUse,
) -> Result<Vec<Layer<'a>>> {
    let table = match profile {
        Some(name) if file_use == FileUse::Read => find_profile(file, &name.value, config)?,
        Some(name) => file.profiles.as_ref().and_then(|p| p.get(&name.value)),
        None => None,
    };
    Ok(table
        .zip(profile)
        .map(|(t, name)| (t, Source::Profile(name.value.clone())))
        .into_iter()
        .chain([(file, Source::File)])
        .collect())
}

/// The selected profile's table; one missing from the file is an error listing those there.
fn find_profile<'a>(
    file: &'a FileSettings,
    name: &str,
    config: &ConfigLocation,
) -> Result<Option<&'a FileSettings>> {
    let profiles = file.profiles.as_ref();
    let found = profiles.and_then(|p| p.get(name));
    if found.is_some() {
        return Ok(found);
    }
    let known: Vec<&str> = profiles
        .into_iter()
        .flatten()
        .map(|(n, _)| n.as_str())
        .collect();
    let known = if known.is_empty() {
        "none".to_owned()
    } else {
        known.join(", ")
    };
    Err(Failure::config(format!(
        "profile '{name}' is not in config file {} (profiles there: {known})",
        config.path.display()
    ))
    .with_hint(format!(
        "add it with: chain-metrics{} config set KEY VALUE (or auth login)",
        again(config, Some(name))
    )))
}
