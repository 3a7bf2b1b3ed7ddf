//! `--dry-run`: the curl command lines equivalent to a run's requests, runnable in bash as
//! printed. The key stays in the environment (`$CHAIN_METRICS_API_KEY`), never in the text.

use reqwest::Url;

use crate::client::{endpoint_url, Request, FIXED_HEADERS, KEY_HEADER};
use crate::settings::config_file::MethodChoice;
use crate::settings::ENV_KEY;

/// One curl command line per request, in the order the queries are given.
pub fn curl_lines(base_url: &Url, method: MethodChoice, requests: &[Request]) -> Vec<String> {
    let method = match method {
        MethodChoice::Get => "GET",
        MethodChoice::Auto | MethodChoice::Post => "POST",
    };
    let headers: Vec<String> = FIXED_HEADERS
        .iter()
        .map(|(name, value)| format!("-H {}", quote(&format!("{name}: {value}"))))
        .collect();
    requests
        .iter()
        .map(|request| {
            format!(
                "curl -sS -X {method} {} -H \"{KEY_HEADER}: ${ENV_KEY}\" {} --data-raw {}",
                quote(&endpoint_url(base_url, request.endpoint)),
                headers.join(" "),
                quote(&request.body().to_json()),
            )
        })
        .collect()
}

/// Quotes a word for bash: single quotes, each `'` inside written as `'\''`.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_quotes_survive_quoting() {
        assert_eq!(quote("a'b"), r"'a'\''b'");
        assert_eq!(quote("$HOME"), "'$HOME'");
    }
}
