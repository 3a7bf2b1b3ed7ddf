//! The sandbox: a reference implementation of SERVICE.md on loopback, with synthetic data.

mod body;
mod data;
mod fault;
mod injection;
mod listener;
mod request;
mod server;
mod tls;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub(crate) use self::fault::Fault;
use self::listener::FaultyListener;
use self::server::app;
pub(crate) use self::tls::{self_signed, SandboxCertificate};

/// Which methods the sandbox answers (the other gets 405).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Methods {
    Both,
    Post,
    Get,
}

/// How the sandbox behaves.
#[derive(Clone, Debug)]
pub(crate) struct Behaviour {
    pub key: String,
    pub methods: Methods,
    pub latency: Duration,
    pub fail_rate: f64,
    /// Faults to show, in order (see `fault::FAULT_HELP`).
    pub faults: Vec<Fault>,
    /// Log each connection and request on stderr (the standalone sandbox, not `--sandbox`).
    pub log: bool,
}

/// What every request handler sees: the behaviour, and counters of attempts and connections.
pub(crate) struct ServiceState {
    behaviour: Behaviour,
    attempts: AtomicU64,
    connections: AtomicU64,
    /// Requests being answered now: logged with each answer, so that a test sees how many a
    /// client had in flight at once.
    in_flight: AtomicU64,
}

/// One request being answered; counted out when dropped.
struct InFlight<'a>(&'a ServiceState);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

impl ServiceState {
    fn new(behaviour: Behaviour) -> Arc<ServiceState> {
        // Its log lines quote what clients sent, which may hold the key: masked there too.
        crate::system::foreign::register_secret(&behaviour.key);
        Arc::new(ServiceState {
            behaviour,
            attempts: AtomicU64::new(0),
            connections: AtomicU64::new(0),
            in_flight: AtomicU64::new(0),
        })
    }

    /// Counts one attempt (a request, or a connection reset by a fault) and returns its number.
    fn next_attempt(&self) -> u64 {
        self.attempts.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// Counts a request in while it is answered (until the guard drops, an answer the client
    /// gave up on included); with how many are, this one included.
    fn arrive(&self) -> (InFlight<'_>, u64) {
        let count = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        (InFlight(self), count)
    }

    fn attempts_seen(&self) -> u64 {
        self.attempts.load(Ordering::SeqCst)
    }

    fn next_connection(&self) -> u64 {
        self.connections.fetch_add(1, Ordering::SeqCst) + 1
    }

    fn log(&self, line: &str) {
        if self.behaviour.log {
            crate::system::diag::status(format!("sandbox: {line}"));
        }
    }
}

/// A sandbox serving on a background thread; dropping it stops it.
pub(crate) struct Running {
    pub url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
}

/// Starts the sandbox on `listen` in the background (over HTTPS with `tls`) and returns once
/// it accepts connections.
pub(crate) fn start(
    listen: SocketAddr,
    behaviour: Behaviour,
    tls: Option<SandboxCertificate>,
) -> std::io::Result<Running> {
    let runtime = runtime()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind(listen))?;
    let url = url(listener.local_addr()?, tls.is_some());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let stopped = async {
            let _ = stopped.await;
        };
        let _ = runtime.block_on(serve_on(listener, behaviour, tls.as_ref(), stopped));
    });
    Ok(Running {
        url,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// What to say when `listen` is no loopback address (`0.0.0.0`, a LAN address): the sandbox
/// is then reachable from other machines, which the user asked for by naming it, and is told.
pub(crate) fn exposure(listen: SocketAddr) -> Option<String> {
    let ip = listen.ip();
    (!ip.is_loopback()).then(|| {
        let reach = match ip.is_unspecified() {
            true => "every network interface of this machine",
            false => "that network interface",
        };
        format!(
            "the sandbox listens on {listen}, not loopback: {reach}, so other machines can reach \
            it (the default, --listen 127.0.0.1:8080, keeps it to this one)"
        )
    })
}

/// Serves on `listen` (over HTTPS with `tls`) until the process ends; `ready` gets the URL
/// once it accepts connections.
pub(crate) fn serve(
    listen: SocketAddr,
    behaviour: Behaviour,
    tls: Option<&SandboxCertificate>,
    ready: impl FnOnce(&str),
) -> std::io::Result<()> {
    let runtime = runtime()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen).await?;
        ready(&url(listener.local_addr()?, tls.is_some()));
        serve_on(listener, behaviour, tls, std::future::pending()).await
    })
}

fn url(address: SocketAddr, tls: bool) -> String {
    let scheme = if tls { "https" } else { "http" };
    format!("{scheme}://{address}")
}

async fn serve_on(
    listener: tokio::net::TcpListener,
    behaviour: Behaviour,
    tls: Option<&SandboxCertificate>,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let shared = ServiceState::new(behaviour);
    let listener = FaultyListener {
        inner: listener,
        shared: shared.clone(),
    };
    match tls {
        None => {
            axum::serve(listener, app(shared))
                .with_graceful_shutdown(stop)
                .await
        }
        Some(certificate) => {
            let listener = tls::TlsListener::new(listener, certificate)?;
            axum::serve(listener, app(shared))
                .with_graceful_shutdown(stop)
                .await
        }
    }
}
