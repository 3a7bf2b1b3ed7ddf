//! TLS to PostgreSQL as libpq's `sslmode` has it, on rustls (ring, as the service's client):
//! `verify-full` checks the chain and the host name, `verify-ca` the chain alone, `require`,
//! `prefer` and `allow` encrypt without checking (unless `sslrootcert` names roots, when
//! `require` checks the chain, as libpq). The roots: `sslrootcert` alone when given (as
//! libpq), else the system's store as the service's client reads it (SSL_CERT_FILE too). A
//! client certificate (`sslcert`, `sslkey`) is sent when the server asks for one.

use std::future::Future;
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use postgres::tls::{ChannelBinding, MakeTlsConnect, TlsConnect, TlsStream};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A client certificate and its key (`sslcert`, `sslkey`, PGSSLCERT, PGSSLKEY, or
/// `~/.postgresql/postgresql.crt` and `.key` when there, as libpq).
#[derive(Clone, Debug)]
pub(crate) struct ClientCert {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// libpq's `sslmode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SslMode {
    Disable,
    Allow,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    pub(super) fn parse(text: &str) -> Option<SslMode> {
        Some(match text {
            "disable" => SslMode::Disable,
            "allow" => SslMode::Allow,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            _ => return None,
        })
    }
}

/// How a server's certificate is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// The chain to a trusted root, and the host name.
    Full,
    /// The chain alone.
    Chain,
    /// Nothing: the connection is encrypted, not authenticated (`require`, `prefer`).
    Nothing,
}

/// The rustls connector of one connection, made for its `sslmode`.
#[derive(Clone)]
pub(super) struct Tls {
    config: Arc<ClientConfig>,
}

impl Tls {
    /// The connector `sslmode` asks for; the roots read when it checks certificates. A root
    /// file that cannot be read is the reason, in words.
    pub(super) fn new(
        mode: SslMode,
        rootcert: Option<&Path>,
        client: Option<&ClientCert>,
    ) -> Result<Tls, String> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let check = match mode {
            SslMode::VerifyFull => Check::Full,
            SslMode::VerifyCa => Check::Chain,
            SslMode::Require if rootcert.is_some() => Check::Chain,
            _ => Check::Nothing,
        };
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let webpki = match check {
            Check::Nothing => None,
            _ => {
                let roots = Arc::new(roots(rootcert)?);
                let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
                    .build()
                    .map_err(|e| e.to_string())?;
                Some(webpki)
            }
        };
        let verifier = Arc::new(Verifier {
            webpki,
            check,
            algorithms: provider.signature_verification_algorithms,
        });
        let builder = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .dangerous()
            .with_custom_certificate_verifier(verifier);
        let config = match client {
            Some(client) => {
                let (chain, key) = client_cert(client)?;
                let config = builder.with_client_auth_cert(chain, key);
                config.map_err(|e| format!("sslcert {}: {e}", client.cert.display()))?
            }
            None => builder.with_no_client_auth(),
        };
        Ok(Tls {
            config: Arc::new(config),
        })
    }
}

/// The client's certificate chain and key, read as libpq reads them: a key others may read is
/// refused (it should be 0600).
fn client_cert(
    client: &ClientCert,
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), String> {
    let (cert, key) = (client.cert.display(), client.key.display());
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&client.cert)
        .and_then(|certs| certs.collect())
        .map_err(|e| format!("sslcert {cert}: cannot read its certificate ({e})"))?;
    if chain.is_empty() {
        return Err(format!("sslcert {cert}: holds no PEM certificate"));
    }
    let metadata = std::fs::metadata(&client.key)
        .map_err(|e| format!("sslkey {key}: cannot read the certificate's private key ({e})"))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if metadata.permissions().mode() & 0o077 != 0 {
            return Err(format!(
                "sslkey {key}: others may read this private key; give it mode 0600, as libpq \
                    asks"
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = metadata;
    let private = PrivateKeyDer::from_pem_file(&client.key)
        .map_err(|e| format!("sslkey {key}: cannot read a PEM private key ({e})"))?;
    Ok((chain, private))
}

/// The roots: `sslrootcert` alone (`system`: the system's store), else the system's store.
fn roots(rootcert: Option<&Path>) -> Result<RootCertStore, String> {
    let mut store = RootCertStore::empty();
    match rootcert.filter(|p| *p != Path::new("system")) {
        Some(file) => {
            let shown = file.display();
            let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(file)
                .and_then(|certs| certs.collect())
                .map_err(|e| format!("sslrootcert {shown}: cannot read its certificates ({e})"))?;
            if certs.is_empty() {
                return Err(format!("sslrootcert {shown}: holds no PEM certificate"));
            }
            store.add_parsable_certificates(certs);
        }
        None => {
            store.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
        }
    }
    match store.is_empty() {
        true => Err(
            "no CA certificate to check the server's with: name a PEM file with \
            sslrootcert (or PGSSLROOTCERT)"
                .to_owned(),
        ),
        false => Ok(store),
    }
}

/// The server's certificate checked as `check` says: by webpki (the host name left out for
/// `verify-ca`), or not at all for `require`, `prefer`, `allow` without roots. The handshake's
/// signatures are checked either way (so the session is with the holder of the certificate's
/// key), with the provider's algorithms as webpki checks them.
#[derive(Debug)]
struct Verifier {
    /// webpki's check of the chain and the name; none for [`Check::Nothing`].
    webpki: Option<Arc<WebPkiServerVerifier>>,
    check: Check,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(webpki) = &self.webpki else {
            return Ok(ServerCertVerified::assertion());
        };
        let verified =
            webpki.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now);
        match verified {
            // webpki checks the chain before the name: a wrong name alone means a good chain.
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if self.check == Check::Chain => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

impl<S> MakeTlsConnect<S> for Tls
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    type Stream = Stream<S>;
    type TlsConnect = Connect;
    type Error = io::Error;

    /// A host name rustls cannot take (a Unix socket has none, and never uses TLS) fails only
    /// if a TLS connection is tried.
    fn make_tls_connect(&mut self, domain: &str) -> io::Result<Connect> {
        let name = ServerName::try_from(domain.to_owned())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()));
        Ok(Connect {
            config: self.config.clone(),
            name,
        })
    }
}

/// One TLS handshake to come.
pub(super) struct Connect {
    config: Arc<ClientConfig>,
    name: io::Result<ServerName<'static>>,
}

impl<S> TlsConnect<S> for Connect
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    type Stream = Stream<S>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<Stream<S>>> + Send>>;

    fn connect(self, stream: S) -> Self::Future {
        Box::pin(async move {
            let connector = tokio_rustls::TlsConnector::from(self.config);
            let stream = connector.connect(self.name?, stream).await?;
            Ok(Stream(stream))
        })
    }
}

/// A TLS connection to the server. No channel binding: SCRAM authenticates without it, as
/// libpq does with `channel_binding=prefer` when the server offers no binding to us.
pub(super) struct Stream<S>(tokio_rustls::client::TlsStream<S>);

impl<S: AsyncRead + AsyncWrite + Unpin> TlsStream for Stream<S> {
    fn channel_binding(&self) -> ChannelBinding {
        ChannelBinding::none()
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for Stream<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for Stream<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}
