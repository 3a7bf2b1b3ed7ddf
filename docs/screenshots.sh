#!/usr/bin/env bash
# Makes the README's picture, docs/readme-report.svg, again: the README's own report example
# (`report --chain all --last 90 --by week`) against the built-in sandbox, drawn as an SVG on a
# fixed day (faketime; Debian: apt-get install faketime) so that its bytes stay the same; the
# test docs::readme_picture makes it the same way and fails when it differs.
# Makes docs/report-html.png, docs/report-svg.png and docs/fees-log.png again: the sandbox's report (every chain,
# --by week from a Wednesday, so the first week is partial; BASE with a two-week gap) as HTML
# and SVG, and its fees on a log scale (--scale log), photographed by headless Chromium
# (Debian: apt-get install chromium-headless-shell). Run from anywhere: docs/screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --locked --quiet
bin=target/debug/chain-metrics
work=$(mktemp -d)
trap 'kill "$sandbox" 2>/dev/null || true; rm -rf "$work"' EXIT

# A fixed port: the pictures name the service they came from, the same every time.
"$bin" sandbox --listen 127.0.0.1:47023 --key docs-key --fault gap:base:2024-02-05..2024-02-18 \
  >"$work/url" 2>/dev/null &
sandbox=$!
for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.1; done
export CHAIN_METRICS_BASE_URL=$(head -n1 "$work/url") CHAIN_METRICS_API_KEY=docs-key
export SOURCE_DATE_EPOCH=1735689600 # 2025-01-01: the page says when it was made
query=(report -c all -s 2024-01-03 -e 2024-03-31 --by week)
"$bin" "${query[@]}" -o "$work/report.html" 2>/dev/null
"$bin" "${query[@]}" -o "$work/report.svg" 2>/dev/null
"$bin" fees "${query[@]:1}" --scale log -o "$work/fees-log.svg" 2>/dev/null

shot() { # page, png, width, height
  chromium-headless-shell --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$work/profile" --screenshot="$2" --window-size="$3,$4" "file://$1" 2>/dev/null
}
svg_height=$(grep -o 'height="[0-9]*"' "$work/report.svg" | head -n1 | tr -dc 0-9)
shot "$work/report.html" docs/report-html.png 1040 1500
shot "$work/report.svg" docs/report-svg.png 960 "$svg_height"
log_height=$(grep -o 'height="[0-9]*"' "$work/fees-log.svg" | head -n1 | tr -dc 0-9)
shot "$work/fees-log.svg" docs/fees-log.png 960 "$log_height"
# No config of the user's: a fresh home.
env -u CHAIN_METRICS_CONFIG -u CHAIN_METRICS_PROFILE HOME="$work" XDG_CONFIG_HOME="$work/config" TZ=UTC \
  SOURCE_DATE_EPOCH=1735689600 faketime '2025-01-01 12:00:00' "$bin" --sandbox report --chain all \
  --last 90 --by week --output docs/readme-report.svg 2>/dev/null
echo "wrote docs/readme-report.svg, docs/report-html.png, docs/report-svg.png and docs/fees-log.png"
