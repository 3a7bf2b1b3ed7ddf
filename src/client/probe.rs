//! Second looks at a failed connection, to name what it is rather than blame the network: is
//! the port of an http:// URL speaking TLS, and what status did the proxy refuse a tunnel with.
//! Each is one short exchange that carries no key.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use reqwest::Url;

/// Whether the server at `url`'s host and port answers a TLS ClientHello with a TLS record
/// (a handshake or an alert): then an http:// URL names a TLS port, whatever the plain request
/// got (a TLS server may just close on it).
pub(super) fn speaks_tls(url: &Url, timeout: Duration) -> bool {
    let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
        return false;
    };
    let Some(hello) = client_hello(host) else {
        return false;
    };
    let Some(mut stream) = connect(host, port, timeout) else {
        return false;
    };
    let mut head = [0u8; 2];
    stream.write_all(&hello).is_ok()
        && stream.read_exact(&mut head).is_ok()
        && matches!(head, [0x15 | 0x16, 0x03])
}

/// The first bytes a TLS client sends, made by rustls itself (no connection is verified).
fn client_hello(host: &str) -> Option<Vec<u8>> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .ok()?
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_no_client_auth();
    let name =
        rustls::pki_types::ServerName::try_from(host.trim_matches(['[', ']']).to_owned()).ok()?;
    let mut connection = rustls::ClientConnection::new(Arc::new(config), name).ok()?;
    let mut hello = Vec::new();
    connection.write_tls(&mut hello).ok()?;
    Some(hello)
}

/// The status a proxy answers `CONNECT host:port` with, asked as reqwest asks it (with the
/// proxy URL's user and password as basic credentials); `None` if it cannot be learnt.
pub(super) fn tunnel_status(proxy: &Url, target: &Url, timeout: Duration) -> Option<u16> {
    let host = proxy.host_str()?;
    let mut stream = connect(host, proxy.port_or_known_default()?, timeout)?;
    let authority = format!("{}:{}", target.host_str()?, target.port_or_known_default()?);
    let mut request = format!("CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n");
    if !proxy.username().is_empty() || proxy.password().is_some() {
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        };
        let pair = format!(
            "{}:{}",
            decode(proxy.username()),
            decode(proxy.password().unwrap_or(""))
        );
        let encoded = base64::engine::general_purpose::STANDARD.encode(pair);
        request.push_str(&format!("Proxy-Authorization: Basic {encoded}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).ok()?;
    // "HTTP/1.1 403"
    std::str::from_utf8(&head[9..12]).ok()?.parse().ok()
}

fn connect(host: &str, port: u16, timeout: Duration) -> Option<TcpStream> {
    let address = (host.trim_matches(['[', ']']), port)
        .to_socket_addrs()
        .ok()?
        .next()?;
    let stream = TcpStream::connect_timeout(&address, timeout).ok()?;
    stream.set_read_timeout(Some(timeout)).ok()?;
    stream.set_write_timeout(Some(timeout)).ok()?;
    Some(stream)
}
