//! Where the certificates to trust come from besides the platform's store: `--ca-bundle`,
//! CHAIN_METRICS_CA_BUNDLE or the `ca_bundle` key, and SSL_CERT_FILE / SSL_CERT_DIR.

use std::path::PathBuf;

use super::config_file::ConfigLocation;
use super::precedence::{first_given, named, Layer};
use super::Flags;
use super::{Environment, Source, Sourced, ENV_CA_BUNDLE};

/// Certificates trusted besides the platform's store: `--ca-bundle` (or its variable or key),
/// and `SSL_CERT_FILE` / `SSL_CERT_DIR` as curl, Python and OpenSSL read them.
#[derive(Clone, Debug, Default)]
pub struct TrustSources {
    pub ca_bundle: Option<Sourced<PathBuf>>,
    pub ssl_cert_file: Option<PathBuf>,
    /// Folders, separated as in PATH.
    pub ssl_cert_dir: Option<String>,
}

/// `--ca-bundle`, CHAIN_METRICS_CA_BUNDLE or `ca_bundle` (relative to the config file's
/// folder), and the SSL_CERT_* variables.
pub(super) fn sources(
    env: &Environment,
    flags: &Flags,
    layers: &[Layer],
    config: &ConfigLocation,
) -> TrustSources {
    let env_bundle = env
        .get(ENV_CA_BUNDLE)
        .map(|v| (PathBuf::from(v), ENV_CA_BUNDLE));
    let mut ca_bundle = first_given(
        named(flags.ca_bundle.clone(), "--ca-bundle"),
        env_bundle,
        layers,
        |l| l.ca_bundle.clone(),
    );
    if let Some(bundle) = ca_bundle
        .as_mut()
        .filter(|b| matches!(b.source, Source::File | Source::Profile(_)))
    {
        if let Some(folder) = config.path.parent() {
            bundle.value = folder.join(&bundle.value);
        }
    }
    TrustSources {
        ca_bundle,
        ssl_cert_file: env.get("SSL_CERT_FILE").map(PathBuf::from),
        ssl_cert_dir: env.get("SSL_CERT_DIR").map(str::to_owned),
    }
}
