//! Where the certificates to trust come from besides the platform's store: `--ca-bundle`,
//! CHAIN_METRICS_CA_BUNDLE or the `ca_bundle` key, and SSL_CERT_FILE / SSL_CERT_DIR.

use std::path::{Path, PathBuf};

use rustls::pki_types::{pem::PemObject, CertificateDer};

use super::config::ConfigLocation;
use super::precedence::{first_given, named, Layer};
use super::Flags;
use super::{Environment, Source, Sourced, ENV_CA_BUNDLE};
use crate::system::ownership::{self, NotRead};

/// Certificates trusted besides the platform's store: `--ca-bundle` (or its variable or key),
/// and `SSL_CERT_FILE` / `SSL_CERT_DIR` as curl, Python and OpenSSL read them.
#[derive(Clone, Debug, Default)]
pub(crate) struct TrustSources {
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

/// Every PEM certificate of a CA bundle, each parsed as the verifier will parse a root; or
/// why the file cannot be one (unreadable, not PEM, no certificate). The one check of a
/// bundle, for `config set ca_bundle` and for the client that trusts it.
pub(crate) fn bundle_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let shown = path.display();
    let pem = read_bundle_file(path).map_err(|e| not_read("CA bundle", path, e))?;
    let mut roots = Vec::new();
    for der in CertificateDer::pem_slice_iter(&pem) {
        let der = der.map_err(|e| format!("CA bundle {shown} is not PEM ({e:?})"))?;
        rustls::RootCertStore::empty()
            .add(der.clone())
            .map_err(|e| format!("CA bundle {shown}: a certificate cannot be a root ({e})"))?;
        roots.push(der);
    }
    if roots.is_empty() {
        return Err(format!("CA bundle {shown} holds no PEM certificate"));
    }
    Ok(roots)
}

/// More than any bundle of CA certificates (Debian's whole store is about 200 KiB): a larger
/// file, or one that never ends (`/dev/zero`), is refused rather than read into memory.
pub(crate) const MAX_BUNDLE_BYTES: u64 = 4 * 1024 * 1024;

/// The bytes of a file of certificates, read only when it is trusted (see
/// `system::ownership`: whoever can change it chooses whom the run trusts) and no larger than
/// [`MAX_BUNDLE_BYTES`].
pub(crate) fn read_bundle_file(path: &Path) -> Result<Vec<u8>, NotRead> {
    ownership::read_trusted(path, MAX_BUNDLE_BYTES)
}

/// Why a file of certificates (`what`: "CA bundle", "SSL_CERT_FILE") was not read, in words.
pub(crate) fn not_read(what: &str, path: &Path, e: NotRead) -> String {
    match e {
        NotRead::Untrusted(refused) => format!("{what} {}; {}", refused.why, refused.hint),
        other => format!("cannot read {what} {}: {other}", path.display()),
    }
}
