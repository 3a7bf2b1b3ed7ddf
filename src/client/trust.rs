//! Which certificates the client trusts: the platform's store (rustls-platform-verifier) plus
//! extra PEM roots, or only the in-process sandbox's own certificate.

use std::path::{Path, PathBuf};

use reqwest::blocking::ClientBuilder;
use reqwest::Certificate;
use rustls::pki_types::{pem::PemObject, CertificateDer};

use crate::error::{Failure, Result};
use crate::settings::{bundle_certificates, not_read, read_bundle_file, TrustSources};
use crate::system::ownership;

/// The certificates one client trusts.
pub(crate) enum Roots {
    /// The platform's store, plus `--ca-bundle` and SSL_CERT_FILE / SSL_CERT_DIR.
    Platform(TrustSources),
    /// No connection of this run can use TLS (a plain-http base URL, no https proxy): a
    /// `--ca-bundle` is still checked, but no store is loaded (about 290 certificates, most of
    /// a short run's time), SSL_CERT_FILE's included.
    PlainHttp(TrustSources),
    /// Only this certificate (PEM): the built-in sandbox's, for its one run.
    Only(Vec<u8>),
}

/// rustls needs a process-wide crypto provider before any client is built: ring (reqwest's
/// default, aws-lc-rs, costs 2 MiB and half a minute of build).
pub(super) fn install_crypto() {
    // An error means one is installed already: a second client in the same run.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// Where distributions keep their one bundle of CA certificates (as openssl-probe looks).
const DISTRO_BUNDLES: [&str; 6] = [
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
    "/etc/ssl/ca-bundle.pem",
    "/etc/ssl/cert.pem",
    "/usr/local/share/certs/ca-root-nss.crt",
];

/// `builder` trusting `roots`; an unreadable or empty bundle is exit 3 naming the file.
pub(super) fn trusting(builder: ClientBuilder, roots: &Roots) -> Result<ClientBuilder> {
    match roots {
        Roots::Only(pem) => {
            let certs = Certificate::from_pem_bundle(pem)
                .map_err(|e| Failure::config(format!("the sandbox's certificate: {e}")))?;
            Ok(builder.tls_certs_only(certs))
        }
        // `--ca-bundle` is still checked: it was named for this tool, and is usually small.
        Roots::PlainHttp(sources) => match &sources.ca_bundle {
            Some(bundle) => Ok(builder.tls_certs_only(bundle_roots(bundle)?)),
            None => Ok(builder.tls_certs_only(Vec::new())),
        },
        Roots::Platform(sources) if cfg!(any(target_vendor = "apple", windows)) => {
            Ok(builder.tls_certs_merge(extra_roots(sources)?))
        }
        // Elsewhere the platform verifier is webpki over the distribution's store, which it
        // reads twice (the bundle file and the hashed folder hold the same certificates): the
        // one bundle file is read instead.
        Roots::Platform(sources) => {
            let mut roots = extra_roots(sources)?;
            if sources.ssl_cert_file.is_none() && sources.ssl_cert_dir.is_none() {
                roots.extend(distro_store(&[], None));
            }
            if roots.is_empty() {
                return Err(Failure::config(
                    "no CA certificates to trust: the system's store is missing or empty",
                )
                .with_hint(
                    "install the ca-certificates package, or name a PEM file with \
                    SSL_CERT_FILE or --ca-bundle",
                ));
            }
            Ok(builder.tls_certs_only(roots))
        }
    }
}

/// The roots the user named (`--ca-bundle`, SSL_CERT_FILE), read and checked as for HTTPS.
fn named_roots(sources: &TrustSources) -> Result<Vec<Certificate>> {
    let mut roots = Vec::new();
    if let Some(bundle) = &sources.ca_bundle {
        roots.extend(bundle_roots(bundle)?);
    }
    if let Some(file) = &sources.ssl_cert_file {
        roots.extend(ssl_cert_file(file)?);
    }
    Ok(roots)
}

fn bundle_roots(bundle: &crate::settings::Sourced<PathBuf>) -> Result<Vec<Certificate>> {
    read_bundle(&bundle.value).map_err(|e| {
        Failure::config(format!("{e} (from {})", bundle.source))
            .with_hint("name a readable file of PEM certificates (-----BEGIN CERTIFICATE-----)")
    })
}

fn extra_roots(sources: &TrustSources) -> Result<Vec<Certificate>> {
    let mut roots = named_roots(sources)?;
    let dirs: Vec<PathBuf> = sources
        .ssl_cert_dir
        .iter()
        .flat_map(std::env::split_paths)
        .collect();
    for dir in &dirs {
        // Whoever can add a file there chooses whom the run trusts.
        ownership::check_folder_of_files(dir).map_err(|refused| {
            Failure::config(format!("SSL_CERT_DIR: {}", refused.why)).with_hint(refused.hint)
        })?;
        // OpenSSL skips a folder it cannot read; so does this.
        roots.extend(usable(
            rustls_native_certs::load_certs_from_paths(None, Some(dir)).certs,
        ));
    }
    if sources.ssl_cert_file.is_some() || !dirs.is_empty() {
        roots.extend(distro_store(&dirs, sources.ssl_cert_file.as_deref()));
    }
    Ok(roots)
}

/// A CA bundle: every PEM certificate in it, each usable as a root (checked where
/// `config set` checks it too).
pub(super) fn read_bundle(path: &Path) -> Result<Vec<Certificate>, String> {
    let shown = path.display();
    bundle_certificates(path)?
        .iter()
        .map(|der| Certificate::from_der(der).map_err(|e| format!("CA bundle {shown}: {e}")))
        .collect()
}

/// SSL_CERT_FILE, read here so that it counts on macOS and Windows too (their verifiers ignore
/// it); set but unreadable or empty, it is an error rather than a store silently emptied.
fn ssl_cert_file(file: &Path) -> Result<Vec<Certificate>> {
    let refused = |why: String| {
        Failure::config(why)
            .with_hint("point SSL_CERT_FILE at a PEM file of CA certificates, or unset it")
    };
    let pem = read_bundle_file(file).map_err(|e| refused(not_read("SSL_CERT_FILE", file, e)))?;
    let shown = file.display();
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&pem)
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| refused(format!("SSL_CERT_FILE={shown}: not PEM ({e:?})")))?;
    if certs.is_empty() {
        return Err(refused(format!(
            "SSL_CERT_FILE={shown}: holds no PEM certificate"
        )));
    }
    Ok(usable(certs))
}

/// On Linux and the BSDs the platform store is replaced by SSL_CERT_FILE / SSL_CERT_DIR when
/// either is set; reading the distribution's store here keeps them additions, as CLI.md has it.
/// Its one bundle file when there is one (`ca-certificates.crt` on Debian); else its folders,
/// but not one already read as an SSL_CERT_DIR entry (`loaded`): hundreds of small files. A
/// bundle already read as SSL_CERT_FILE (`loaded_file`) is not read again.
fn distro_store(loaded: &[PathBuf], loaded_file: Option<&Path>) -> Vec<Certificate> {
    if cfg!(any(target_vendor = "apple", windows)) {
        return Vec::new();
    }
    if let Some(bundle) = DISTRO_BUNDLES.iter().map(Path::new).find(|p| p.is_file()) {
        // SSL_CERT_FILE naming the distribution's own bundle: read once.
        let same = |file: &Path| file.canonicalize().ok() == bundle.canonicalize().ok();
        if loaded_file.is_some_and(same) {
            return Vec::new();
        }
        let certs = rustls_native_certs::load_certs_from_paths(Some(bundle), None).certs;
        if !certs.is_empty() {
            return usable(certs);
        }
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
