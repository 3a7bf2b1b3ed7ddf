//! The client of a query run: the configured service, or a sandbox started for the run; and
//! the hint a rejected key gets.

use crate::client::Client;
use crate::commands::{client, random_key, sandbox::self_signed};
use crate::error::{Exit, Failure};
use crate::sandbox::{self, Behaviour, Methods, Running};
use crate::settings::ApiKey;
use crate::settings::Settings;
use crate::system::diag;

/// The client for this run: the configured service, or a sandbox started for it (returned too,
/// since it serves only as long as it is kept).
pub(super) fn connect(settings: &Settings) -> anyhow::Result<(Client, Option<Running>)> {
    let (base_url, key, sandbox) = if settings.sandbox {
        let key = ApiKey::new(&random_key()?)
            .ok_or_else(|| Failure::new(Exit::Internal, "the sandbox key came out empty"))?;
        let behaviour = Behaviour {
            key: key.expose().to_owned(),
            methods: Methods::Both,
            latency: std::time::Duration::ZERO,
            fail_rate: 0.0,
            faults: Vec::new(),
            log: false,
        };
        // Over HTTPS, so that the quickstart takes the production path; failing to listen is
        // the same failure as `chain-metrics sandbox` failing to listen: the machine's setup.
        let failed = |e: String| {
            Failure::new(
                Exit::Config,
                format!("cannot start the built-in sandbox: {e}"),
            )
        };
        let certificate = self_signed()?;
        let pem = certificate.pem.clone();
        let listen = "127.0.0.1:0".parse().expect("a socket address");
        let sandbox = sandbox::start(listen, behaviour, Some(certificate))
            .map_err(|e| failed(e.to_string()))?;
        diag::note(format!(
            "--sandbox: synthetic data from the built-in sandbox at {}",
            sandbox.url
        ));
        let url = reqwest::Url::parse(&sandbox.url).expect("the sandbox URL parses");
        (url, key, Some((sandbox, pem)))
    } else {
        (settings.service_url()?, settings.api_key()?, None)
    };
    let pem = sandbox.as_ref().map(|(_, pem)| pem.as_str());
    let client = client(settings, base_url, key, pem)?;
    Ok((client, sandbox.map(|(running, _)| running)))
}

/// A rejected key gets a hint naming where the key came from.
pub(super) fn add_key_hint(failure: Failure, settings: &Settings) -> Failure {
    if failure.exit != Exit::KeyRejected {
        return failure;
    }
    let source = settings
        .key
        .as_ref()
        .map_or_else(|| "the sandbox".to_owned(), |k| k.source.to_string());
    failure.with_hint(format!(
        "the key came from {source}; check it, or set another in CHAIN_METRICS_API_KEY"
    ))
}
