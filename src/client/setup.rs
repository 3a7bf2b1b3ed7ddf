//! The reqwest client behind [`super::Client`]: headers, timeouts, redirects, the roots it
//! trusts, the proxy, and what a failed build means to the user.

use reqwest::blocking::ClientBuilder;

use super::transport::{self, same_origin_redirects};
use super::trust;
use super::{ClientOptions, FIXED_HEADERS};
use crate::error::{Exit, Failure, Result};
use crate::settings::{ProxyChoice, Settings};

pub(super) fn http_client(
    options: &ClientOptions,
    settings: &Settings,
) -> Result<reqwest::blocking::Client> {
    trust::install_crypto();
    let builder = reqwest::blocking::Client::builder()
        .default_headers(fixed_headers())
        .timeout(settings.timeout)
        .connect_timeout(settings.connect_timeout)
        .redirect(same_origin_redirects());
    let builder = trust::trusting(builder, &options.roots)?;
    with_proxy(builder, options.proxy.as_ref())?
        .build()
        .map_err(|e| setup_failure(&e))
}

/// Always an explicit choice: reqwest's own reading of the variables would proxy loopback too
/// and drop a value it cannot parse without a word.
fn with_proxy(builder: ClientBuilder, proxy: Option<&ProxyChoice>) -> Result<ClientBuilder> {
    let Some(proxy) = proxy else {
        return Ok(builder.no_proxy());
    };
    // A user:password in the URL becomes the Proxy-Authorization header.
    let proxy = reqwest::Proxy::all(proxy.url.as_str()).map_err(|e| {
        Failure::config(format!(
            "proxy {}: {}",
            proxy.describe(),
            transport::innermost(&e)
        ))
    })?;
    Ok(builder.proxy(proxy))
}

/// The client cannot be built: on Linux, when no CA certificate could be loaded at all.
fn setup_failure(e: &reqwest::Error) -> Failure {
    let why = transport::innermost(e);
    if why.contains("CA certificates") {
        return Failure::config(format!("no CA certificates to trust: {why}")).with_hint(
            "install the ca-certificates package, or name a PEM file with SSL_CERT_FILE or \
            --ca-bundle",
        );
    }
    Failure::new(Exit::Internal, format!("cannot set up HTTP: {why}"))
}

/// [`FIXED_HEADERS`] as reqwest takes them.
fn fixed_headers() -> reqwest::header::HeaderMap {
    FIXED_HEADERS
        .iter()
        .map(|(name, value)| {
            (
                reqwest::header::HeaderName::from_bytes(name.as_bytes())
                    .expect("the fixed header names are valid"),
                reqwest::header::HeaderValue::from_static(value),
            )
        })
        .collect()
}
