//! `--dry-run`: the curl command lines equivalent to a run's requests, runnable in bash as
//! printed. The key stays in the environment (`$CHAIN_METRICS_API_KEY`), never in the text; a
//! user name in the base URL becomes `-u NAME`, and curl asks for the password.

use reqwest::Url;

use crate::client::{endpoint_url, FIXED_HEADERS, KEY_HEADER};
use crate::fetched::Request;
use crate::settings::without_credentials;
use crate::settings::MethodChoice;
use crate::settings::ENV_KEY;
use crate::system::foreign;
use crate::system::shell::quote_always as quote;

/// One curl command line per request, in the order the queries are given.
pub(crate) fn curl_lines(
    base_url: &Url,
    method: MethodChoice,
    requests: &[Request],
) -> Vec<String> {
    let method = match method {
        MethodChoice::Get => "GET",
        MethodChoice::Auto | MethodChoice::Post => "POST",
    };
    let headers: Vec<String> = FIXED_HEADERS
        .iter()
        .map(|(name, value)| format!("-H {}", quote(&format!("{name}: {value}"))))
        .collect();
    let (base_url, user) = split_user(base_url);
    requests
        .iter()
        .map(|request| {
            format!(
                "curl -sS{user} -X {method} {} -H \"{KEY_HEADER}: ${ENV_KEY}\" {} --data-raw {}",
                // A key inside the base URL's path is masked, as in every message.
                quote(&foreign::mask_secrets(&endpoint_url(
                    &base_url,
                    request.endpoint
                ))),
                headers.join(" "),
                quote(&request.body().to_json()),
            )
        })
        .collect()
}

/// The base URL without its user and password, and the curl option for them: ` -u 'NAME'`,
/// so that curl asks for the password rather than the line showing it (` -u 'NAME:'` for a
/// URL with a user and no password, which is what the client sends then).
fn split_user(base_url: &Url) -> (Url, String) {
    if base_url.username().is_empty() && base_url.password().is_none() {
        return (base_url.clone(), String::new());
    }
    let name = percent_encoding::percent_decode_str(base_url.username()).decode_utf8_lossy();
    let user = match base_url.password() {
        Some(_) => format!(" -u {}", quote(&name)),
        None => format!(" -u {}", quote(&format!("{name}:"))),
    };
    (without_credentials(base_url), user)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_in_the_base_url_becomes_a_curl_option_and_the_password_is_asked() {
        let url = |text: &str| Url::parse(text).unwrap();
        let (bare, user) = split_user(&url("https://ann%20b:s3cret@h.example/v2"));
        assert_eq!(
            (bare.as_str(), user.as_str()),
            ("https://h.example/v2", " -u 'ann b'")
        );
        let (bare, user) = split_user(&url("https://ann@h.example/"));
        assert_eq!(
            (bare.as_str(), user.as_str()),
            ("https://h.example/", " -u 'ann:'")
        );
        let (bare, user) = split_user(&url("https://h.example/"));
        assert_eq!((bare.as_str(), user.as_str()), ("https://h.example/", ""));
    }
}
