//! What goes over the network and what comes back: requests, `--raw` and `--dry-run`
//! (`requests`), TLS and proxies (`tls`, `proxy`), timeouts and retries (`reliability`), hostile
//! bodies bounded (`bounded`), requests abandoned once the outcome is decided (`abandoned`),
//! broken servers named (`diagnoses`), each sandbox fault (`fault_matrix`), the sandbox as a
//! service (`sandbox`), the loopback rules (`rules`) and rows written as the answers come
//! (`streamed`).

mod abandoned;
pub(crate) mod bounded;
mod diagnoses;
mod fault_matrix;
mod proxy;
mod reliability;
mod requests;
mod rules;
mod sandbox;
mod streamed;
mod tls;
