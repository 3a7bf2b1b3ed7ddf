//! The sandbox's TCP listener: counts connections (to show keep-alive) and resets them on demand.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};

use super::fault::FaultKind;
use super::ServiceState;

/// Wraps the listener so a `reset` fault happens below HTTP, where axum cannot reach.
pub(super) struct FaultyListener {
    pub inner: TcpListener,
    pub shared: Arc<ServiceState>,
}

impl axum::serve::Listener for FaultyListener {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            let (stream, addr) = match self.inner.accept().await {
                Ok(accepted) => accepted,
                // Out of file descriptors and the like: wait a moment rather than spin.
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            };
            let connection = self.shared.next_connection();
            let reset =
                self.shared.behaviour.faults.iter().any(|f| {
                    f.kind == FaultKind::Reset && f.active(self.shared.attempts_seen() + 1)
                });
            if !reset {
                self.shared.log(&format!("connection {connection} opened"));
                return (stream, addr);
            }
            let attempt = self.shared.next_attempt();
            self.shared.log(&format!(
                "#{attempt} connection {connection} reset (fault reset)"
            ));
            // Zero linger turns the close into an RST: the client sees "connection reset".
            let _ = stream.set_zero_linger();
            drop(stream);
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}
