//! Which certificates the client trusts: the platform's store (rustls-platform-verifier) plus
//! extra PEM roots, or only the in-process sandbox's own certificate.

use std::path::{Path, PathBuf};

use reqwest::blocking::ClientBuilder;
use reqwest::Certificate;
use rustls::pki_types::CertificateDer;

use crate::error::{Failure, Result};
use crate::settings::{bundle_certificates, TrustSources};

/// The certificates one client trusts.
pub enum Roots {
    /// The platform's store, plus `--ca-bundle` and SSL_CERT_FILE / SSL_CERT_DIR.
    Platform(TrustSources),
    /// Only this certificate (PEM): the built-in sandbox's, for its one run.
    Only(Vec<u8>),
}

/// rustls needs a process-wide crypto provider before any client is built: ring (reqwest's
/// default, aws-lc-rs, costs 2 MiB and half a minute of build).
pub fn install_crypto() {
    // An error means one is installed already: a second client in the same run.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// `builder` trusting `roots`; an unreadable or empty bundle is exit 3 naming the file.
pub fn trusting(builder: ClientBuilder, roots: &Roots) -> Result<ClientBuilder> {
    match roots {
        Roots::Only(pem) => {
            let certs = Certificate::from_pem_bundle(pem)
                .map_err(|e| Failure::config(format!("the sandbox's certificate: {e}")))?;
            Ok(builder.tls_certs_only(certs))
        }
        Roots::Platform(sources) => Ok(builder.tls_certs_merge(extra_roots(sources)?)),
    }
}

fn extra_roots(sources: &TrustSources) -> Result<Vec<Certificate>> {
    let mut roots = Vec::new();
    if let Some(bundle) = &sources.ca_bundle {
        roots.extend(read_bundle(&bundle.value).map_err(|e| {
            Failure::config(format!("{e} (from {})", bundle.source))
                .with_hint("name a readable file of PEM certificates (-----BEGIN CERTIFICATE-----)")
        })?);
    }
    if let Some(file) = &sources.ssl_cert_file {
        roots.extend(ssl_cert_file(file)?);
    }
    let dirs: Vec<PathBuf> = sources
        .ssl_cert_dir
        .iter()
        .flat_map(std::env::split_paths)
        .collect();
    for dir in &dirs {
        // OpenSSL skips a folder it cannot read; so does this.
        roots.extend(usable(
            rustls_native_certs::load_certs_from_paths(None, Some(dir)).certs,
        ));
    }
    if sources.ssl_cert_file.is_some() || !dirs.is_empty() {
        roots.extend(distro_store(&dirs));
    }
    Ok(roots)
}

/// A CA bundle: every PEM certificate in it, each usable as a root (checked where
/// `config set` checks it too).
pub fn read_bundle(path: &Path) -> Result<Vec<Certificate>, String> {
    let shown = path.display();
    bundle_certificates(path)?
        .iter()
        .map(|der| Certificate::from_der(der).map_err(|e| format!("CA bundle {shown}: {e}")))
        .collect()
}

/// SSL_CERT_FILE, read here so that it counts on macOS and Windows too (their verifiers ignore
/// it); set but unreadable or empty, it is an error rather than a store silently emptied.
fn ssl_cert_file(file: &Path) -> Result<Vec<Certificate>> {
    let loaded = rustls_native_certs::load_certs_from_paths(Some(file), None);
    let refused = |why: String| {
        Failure::config(format!("SSL_CERT_FILE={}: {why}", file.display()))
            .with_hint("point SSL_CERT_FILE at a PEM file of CA certificates, or unset it")
    };
    if let Some(e) = loaded.errors.first() {
        return Err(refused(e.to_string()));
    }
    if loaded.certs.is_empty() {
        return Err(refused("holds no PEM certificate".into()));
    }
    Ok(usable(loaded.certs))
}

/// On Linux and the BSDs the platform store is replaced by SSL_CERT_FILE / SSL_CERT_DIR when
/// either is set; reading the distribution's store here keeps them additions, as CLI.md has it.
/// A distribution folder already read as an SSL_CERT_DIR entry (`loaded`) is not read again:
/// hundreds of small files each time.
fn distro_store(loaded: &[PathBuf]) -> Vec<Certificate> {
    if cfg!(any(target_vendor = "apple", windows)) {
        return Vec::new();
    }
    let loaded: Vec<PathBuf> = loaded
        .iter()
        .filter_map(|d| d.canonicalize().ok())
        .collect();
    let dirs = openssl_probe::candidate_cert_dirs()
        .filter(|dir| dir.canonicalize().is_ok_and(|d| !loaded.contains(&d)));
    usable(
        dirs.flat_map(|dir| rustls_native_certs::load_certs_from_paths(None, Some(dir)).certs)
            .collect(),
    )
}

/// System stores hold a few certificates rustls cannot use as roots: skipped, as the verifier
/// skips them.
fn usable(certs: Vec<CertificateDer<'static>>) -> Vec<Certificate> {
    certs
        .into_iter()
        .filter(|der| rustls::RootCertStore::empty().add(der.clone()).is_ok())
        .filter_map(|der| Certificate::from_der(&der).ok())
        .collect()
}
