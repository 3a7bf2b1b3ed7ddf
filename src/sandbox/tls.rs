//! HTTPS for the sandbox: a fresh self-signed certificate (rcgen), and tokio-rustls under
//! axum's server through its `Listener` trait, each handshake in its own task so that a client
//! speaking plain HTTP holds up no one.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::Listener;
use rustls::pki_types::{pem::PemObject, CertificateDer, PrivateKeyDer};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_rustls::{server::TlsStream, TlsAcceptor};

use super::listener::FaultyListener;

/// A certificate and its private key, both PEM.
pub(crate) struct SandboxCertificate {
    pub pem: String,
    key_pem: String,
}

/// A self-signed certificate for the loopback names, valid from yesterday for 30 days: short,
/// with the server-auth usage and the names as SANs, as macOS requires of server certificates.
pub(crate) fn self_signed() -> Result<SandboxCertificate, String> {
    let names = ["127.0.0.1", "::1", "localhost"].map(String::from).to_vec();
    let mut params = rcgen::CertificateParams::new(names).map_err(|e| e.to_string())?;
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "chain-metrics sandbox");
    params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
    let day = |offset: i64| {
        use chrono::Datelike;
        let date = chrono::Utc::now().date_naive() + chrono::TimeDelta::days(offset);
        rcgen::date_time_ymd(date.year(), date.month() as u8, date.day() as u8)
    };
    params.not_before = day(-1);
    params.not_after = day(30);
    let key = rcgen::KeyPair::generate().map_err(|e| e.to_string())?;
    let cert = params.self_signed(&key).map_err(|e| e.to_string())?;
    Ok(SandboxCertificate {
        pem: cert.pem(),
        key_pem: key.serialize_pem(),
    })
}

fn acceptor(certificate: &SandboxCertificate) -> std::io::Result<TlsAcceptor> {
    let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
    let chain = CertificateDer::pem_slice_iter(certificate.pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| invalid(format!("{e:?}")))?;
    let key = PrivateKeyDer::from_pem_slice(certificate.key_pem.as_bytes())
        .map_err(|e| invalid(format!("{e:?}")))?;
    // Its own provider: the server needs no process-wide default.
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(|b| b.with_no_client_auth().with_single_cert(chain, key))
        .map_err(|e| invalid(e.to_string()))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// The sandbox's listener with TLS on top: connections are accepted (and reset on demand)
/// below it, and handed on once their handshake is done.
pub(super) struct TlsListener {
    done: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    address: SocketAddr,
}

impl TlsListener {
    /// Must be called within the runtime that serves: the accepting runs as its task.
    pub(super) fn new(
        mut inner: FaultyListener,
        certificate: &SandboxCertificate,
    ) -> std::io::Result<TlsListener> {
        let acceptor = acceptor(certificate)?;
        let address = inner.local_addr()?;
        let (send, done) = mpsc::channel(64);
        tokio::spawn(async move {
            loop {
                let (tcp, from) = inner.accept().await;
                let (acceptor, send, shared) =
                    (acceptor.clone(), send.clone(), inner.shared.clone());
                tokio::spawn(async move {
                    let handshake =
                        tokio::time::timeout(Duration::from_secs(10), acceptor.accept(tcp));
                    match handshake.await {
                        Ok(Ok(tls)) => {
                            let _ = send.send((tls, from)).await;
                        }
                        Ok(Err(e)) => shared.log(&format!("TLS handshake from {from} failed: {e}")),
                        Err(_) => shared.log(&format!("TLS handshake from {from} timed out")),
                    }
                });
            }
        });
        Ok(TlsListener { done, address })
    }
}

impl Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.done.recv().await {
            Some(accepted) => accepted,
            // The accepting task is gone only when the runtime stops: wait for that.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.address)
    }
}
