//! `--dry-run`: the curl command lines equivalent to a run's requests, runnable in bash as
//! printed. The key stays in the environment (`$CHAIN_METRICS_API_KEY`), never in the text.

use reqwest::Url;

use crate::client::Query;
use crate::settings::config_file::MethodChoice;

/// One curl command line per query, in the order the queries are given.
pub fn curl_lines(base_url: &Url, method: MethodChoice, queries: &[Query]) -> Vec<String> {
    let method = match method {
        MethodChoice::Get => "GET",
        MethodChoice::Auto | MethodChoice::Post => "POST",
    };
    let base = base_url.as_str().trim_end_matches('/');
    queries
        .iter()
        .map(|query| {
            let url = format!("{base}{}", query.endpoint.path());
            let body = serde_json::to_string(&query.body()).expect("a plain struct serialises");
            format!(
                "curl -sS -X {method} {} -H \"X-API-Key: $CHAIN_METRICS_API_KEY\" -H 'Content-Type: application/json' -H 'Accept: application/json' -H {} --data-raw {}",
                quote(&url),
                quote(concat!("User-Agent: chain-metrics/", env!("CARGO_PKG_VERSION"))),
                quote(&body),
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
