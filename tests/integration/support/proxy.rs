//! A proxy written for the tests (std threads): CONNECT tunnels for https, absolute-form
//! forwarding for http, recording each request head it saw in clear. The name
//! `chain-metrics.test` resolves only here (to 127.0.0.1), so a request that reaches a
//! service by that name went through this proxy.

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

pub struct TestProxy {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    seen: Arc<Mutex<Vec<String>>>,
}

impl TestProxy {
    /// A proxy answering CONNECT with `status` (200 opens the tunnel; 407, 502 refuse).
    pub fn start(status: u16) -> TestProxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen: Arc<Mutex<Vec<String>>> = Arc::default();
        let log = seen.clone();
        thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let log = log.clone();
                thread::spawn(move || {
                    let _ = serve(client, status, &log);
                });
            }
        });
        TestProxy { url, seen }
    }

    /// The request heads it received, in order.
    pub fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

fn serve(client: TcpStream, status: u16, log: &Mutex<Vec<String>>) -> std::io::Result<()> {
    let mut reader = BufReader::new(client.try_clone()?);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    log.lock().unwrap().push(head.clone());
    let mut parts = head.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut to_client = client;
    if method == "CONNECT" {
        if status != 200 {
            write!(
                to_client,
                "HTTP/1.1 {status} Refused\r\nContent-Length: 0\r\n\r\n"
            )?;
            return Ok(());
        }
        let upstream = TcpStream::connect(resolve(target))?;
        to_client.write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")?;
        return pipe(reader, to_client, upstream);
    }
    // Forwarding: "GET http://host:port/path HTTP/1.1" goes on in origin form, one per connection.
    let rest = target.strip_prefix("http://").unwrap_or(target);
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut upstream = TcpStream::connect(resolve(authority))?;
    let mut out = format!("{method} {path} HTTP/1.1\r\n");
    for line in head.lines().skip(1) {
        let lower = line.to_ascii_lowercase();
        if !lower.starts_with("connection:") && !lower.starts_with("proxy-") {
            out.push_str(&format!("{line}\r\n"));
        }
    }
    out.push_str("Connection: close\r\n\r\n");
    upstream.write_all(out.as_bytes())?;
    pipe(reader, to_client, upstream)
}

/// Copies both ways until either side closes (`from_client` may hold bytes already read).
fn pipe(
    mut from_client: BufReader<TcpStream>,
    mut to_client: TcpStream,
    upstream: TcpStream,
) -> std::io::Result<()> {
    let mut up_write = upstream.try_clone()?;
    let mut up_read = upstream;
    let sending = thread::spawn(move || {
        let _ = std::io::copy(&mut from_client, &mut up_write);
        let _ = up_write.shutdown(Shutdown::Write);
    });
    let _ = std::io::copy(&mut up_read, &mut to_client);
    let _ = to_client.shutdown(Shutdown::Both);
    let _ = sending.join();
    Ok(())
}

fn resolve(authority: &str) -> String {
    match authority.rsplit_once(':') {
        Some((host, port)) if host.ends_with(".test") => format!("127.0.0.1:{port}"),
        _ => authority.to_owned(),
    }
}
