//! Certificates made by the tests (a CA and the leaves it signs, rcgen), and TLS under the
//! scripted server: the real rustls on both sides, on 127.0.0.1.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::pki_types::{pem::PemObject, CertificateDer, PrivateKeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::{server::TlsStream, TlsAcceptor};

/// A certificate authority of the tests' own: no machine trusts it.
pub struct TestCa {
    pub pem: String,
    issuer: Issuer<'static, KeyPair>,
}

/// A server certificate and its key, PEM.
#[derive(Clone)]
pub struct Leaf {
    pub pem: String,
    pub key_pem: String,
}

/// Valid from `from` days from today to `to` days from today.
fn valid(params: &mut CertificateParams, from: i64, to: i64) {
    use chrono::Datelike;
    let day = |offset: i64| {
        let date = chrono::Utc::now().date_naive() + chrono::TimeDelta::days(offset);
        rcgen::date_time_ymd(date.year(), date.month() as u8, date.day() as u8)
    };
    params.not_before = day(from);
    params.not_after = day(to);
}

impl TestCa {
    pub fn new() -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params
            .distinguished_name
            .push(DnType::CommonName, "chain-metrics test CA");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        valid(&mut params, -1, 30);
        let key = KeyPair::generate().unwrap();
        let pem = params.self_signed(&key).unwrap().pem();
        TestCa {
            pem,
            issuer: Issuer::new(params, key),
        }
    }

    /// A leaf for 127.0.0.1, localhost and chain-metrics.test, valid today.
    pub fn leaf(&self) -> Leaf {
        self.leaf_for(&["127.0.0.1", "localhost", "chain-metrics.test"], -1, 30)
    }

    /// A leaf for `names`, valid from `from` days from today to `to` (both negative: expired).
    pub fn leaf_for(&self, names: &[&str], from: i64, to: i64) -> Leaf {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut params = CertificateParams::new(names).unwrap();
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        valid(&mut params, from, to);
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        Leaf {
            pem: cert.pem(),
            key_pem: key.serialize_pem(),
        }
    }
}

impl TestCa {
    /// A client certificate for the user `name` (its common name), valid today.
    pub fn client_leaf(&self, name: &str) -> Leaf {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        valid(&mut params, -1, 30);
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        Leaf {
            pem: cert.pem(),
            key_pem: key.serialize_pem(),
        }
    }
}

/// The provider rustls needs before the tests' own reqwest clients are built.
pub fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

fn acceptor(leaf: &Leaf) -> TlsAcceptor {
    let chain = CertificateDer::pem_slice_iter(leaf.pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_slice(leaf.key_pem.as_bytes()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    TlsAcceptor::from(Arc::new(config))
}

/// A TCP listener with TLS on top, counting the connections it accepted (handshake or not).
pub struct TlsListener {
    done: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    address: SocketAddr,
}

impl TlsListener {
    /// Within the runtime that serves: the accepting runs as its task.
    pub fn new(listener: TcpListener, leaf: &Leaf, connections: Arc<AtomicUsize>) -> TlsListener {
        let acceptor = acceptor(leaf);
        let address = listener.local_addr().unwrap();
        let (send, done) = mpsc::channel(16);
        tokio::spawn(async move {
            while let Ok((tcp, from)) = listener.accept().await {
                connections.fetch_add(1, Ordering::SeqCst);
                let (acceptor, send) = (acceptor.clone(), send.clone());
                tokio::spawn(async move {
                    if let Ok(tls) = acceptor.accept(tcp).await {
                        let _ = send.send((tls, from)).await;
                    }
                });
            }
        });
        TlsListener { done, address }
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.done.recv().await {
            Some(accepted) => accepted,
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.address)
    }
}
