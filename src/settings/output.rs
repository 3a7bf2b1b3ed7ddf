//! The output defaults a config file may hold (`format`, `color`, `decimals`, `chains`), each
//! with its source: what a query uses when its flag is not given. The flags always win; the
//! query applies them (the format's name is checked there: the formats are render's).

use super::environment::Environment;
use super::keys::{ColorChoice, ConfigKey};
use super::limits;
use super::precedence::{from_layers, pick, Layer, Source, Sourced, Sources};
use super::tuning::within;
use crate::error::{Failure, Result};
use crate::model::ChainArg;

/// The output defaults of one run, as the config file (or the default) gives them.
#[derive(Clone, Debug, Default)]
pub(crate) struct OutputDefaults {
    /// Config `format`: a format's name as written, used for stdout without `--format`.
    pub format: Option<Sourced<String>>,
    /// `--color`, else what NO_COLOR / CLICOLOR_FORCE / CLICOLOR=0 say, else config `color`.
    pub color: ColorChoice,
    /// Config `decimals`, used without `--decimals`.
    pub decimals: Option<u32>,
    /// Config `chains`, used without `--chain`.
    pub chains: Option<Sourced<Vec<ChainArg>>>,
}

/// The colour variables that decide for every run, in anstyle-query's order, and the choice
/// each stands for: NO_COLOR (set and not empty), CLICOLOR_FORCE (not `0`), CLICOLOR=0.
fn color_variable(env: &Environment) -> Option<(ColorChoice, &'static str)> {
    let set = |name: &str| env.get(name).filter(|v| !v.is_empty());
    if set("NO_COLOR").is_some() {
        return Some((ColorChoice::Never, "NO_COLOR"));
    }
    if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return Some((ColorChoice::Always, "CLICOLOR_FORCE"));
    }
    (set("CLICOLOR") == Some("0")).then_some((ColorChoice::Never, "CLICOLOR"))
}

/// The defaults from `layers`, each source recorded in `sources` for `config show`; the colour
/// from `--color` (`flag`), the environment, then the file.
pub(super) fn resolve(
    flag: Option<ColorChoice>,
    env: &Environment,
    layers: &[Layer],
    sources: &mut Sources,
) -> Result<OutputDefaults> {
    let color = match (flag, color_variable(env)) {
        (Some(choice), _) => Sourced {
            value: choice,
            source: Source::Flag("--color"),
        },
        (None, Some((choice, var))) => Sourced {
            value: choice,
            source: Source::Env(var),
        },
        (None, None) => pick(None, layers, |l| l.color, ColorChoice::Auto),
    };
    let decimals = from_layers(layers, |l| l.decimals);
    if let Some(decimals) = &decimals {
        within(ConfigKey::Decimals, limits::DECIMALS, decimals)?;
    }
    let format = from_layers(layers, |l| l.format.clone());
    if let Some(format) = &format {
        sources.0.insert(ConfigKey::Format, format.source.clone());
    }
    let chains = match from_layers(layers, |l| l.chains.clone()) {
        Some(text) => Some(chains(text)?),
        None => None,
    };
    if let Some(chains) = &chains {
        sources.0.insert(ConfigKey::Chains, chains.source.clone());
    }
    Ok(OutputDefaults {
        format,
        color: sources.take(ConfigKey::Color, color),
        decimals: decimals.map(|d| sources.take(ConfigKey::Decimals, d)),
        chains,
    })
}

/// Config `chains` parsed as `--chain` parses its comma list.
fn chains(text: Sourced<String>) -> Result<Sourced<Vec<ChainArg>>> {
    let parsed: std::result::Result<Vec<ChainArg>, String> =
        text.value.split(',').map(ChainArg::parse).collect();
    match parsed {
        Ok(value) => Ok(Sourced {
            value,
            source: text.source,
        }),
        Err(why) => Err(Failure::config(format!(
            "chains '{}' from {}: {why}",
            text.value, text.source
        ))),
    }
}
