#!/usr/bin/env bash
# Runs one AFL++ target for SECONDS (default 900) on the seeds of fuzz/seeds/TARGET, then prints
# the figures RESULTS.md records (from AFL++'s fuzzer_stats). Build first:
#   cargo afl build --release --locked        (in fuzz/)
# Usage: fuzz/run.sh TARGET [SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
target=$1
seconds=${2:-900}
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
mkdir -p out
# A cache input opens a SQLite file: more time per input than the others.
cargo afl fuzz -i "seeds/$target" -o "out/$target" -V "$seconds" -t 2000 \
  "target/release/$target" > "out-$target.log" 2>&1 || true
stats="out/$target/default/fuzzer_stats"
grep -E '^(start_time|last_update|run_time|execs_done|execs_per_sec|corpus_count|saved_crashes|saved_hangs|stability|bitmap_cvg) ' "$stats"
