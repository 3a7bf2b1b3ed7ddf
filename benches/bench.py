#!/usr/bin/env python3
"""The chain-metrics benchmark: the tool against curl + jq and against the loopback limit.

Starts the sandbox (the release binary's `sandbox` command) on 127.0.0.1, then measures, as
medians of alternating runs, the figures of BENCHMARKS.md. Needs curl and jq (apt-get install
curl jq). Usage: python3 benches/bench.py [--runs N]. It prints a Markdown report on stdout.
"""

import argparse
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
BIN = os.path.join(TARGET, "release", "chain-metrics")
KEY = "bench-key-0000000000"
FEES = "/api/chain-insights/fees"
PATHS = [FEES, "/api/chain-insights/active_users", "/api/social-metrics/official-account"]
CHAINS = ["ETHEREUM", "ARBITRUM", "BSC", "OPTIMISM", "BASE", "POLYGON"]


def run(argv, env=None, shell=False):
    """Runs one command to completion; returns (wall seconds, cpu seconds, peak RSS KiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, shell=shell)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode()
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"benchmark command failed: {argv}\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def alternate(commands, runs):
    """Runs the commands in turn, `runs` rounds after one warm-up; medians per command."""
    for argv, env, shell in commands.values():
        run(argv, env, shell)
    samples = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, env, shell) in commands.items():
            samples[name].append(run(argv, env, shell))
    return {
        name: tuple(statistics.median(s[i] for s in values) for i in range(3))
        for name, values in samples.items()
    }


class Sandbox:
    """The release binary's sandbox on 127.0.0.1; with `tls`, over HTTPS with a fresh
    self-signed certificate written to `self.ca` (the private CA the client is given)."""

    def __init__(self, latency_ms, tls=False):
        argv = [BIN, "sandbox", "--listen", "127.0.0.1:0", "--key", KEY, "--latency", str(latency_ms)]
        self.folder = tempfile.mkdtemp(prefix="chain-metrics-bench-")
        self.ca = os.path.join(self.folder, "ca.pem")
        if tls:
            argv += ["--tls", "--cert-out", self.ca]
        self.proc = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={"PATH": os.environ["PATH"]},
        )
        self.url = self.proc.stdout.readline().decode().strip()

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def tool_env(url):
    return {"PATH": os.environ["PATH"], "HOME": "/nonexistent", "CHAIN_METRICS_BASE_URL": url,
            "CHAIN_METRICS_API_KEY": KEY}


def curl(url, path, chain, start, end, extra=""):
    body = f'{{"chain":"{chain}","start_date":"{start}","end_date":"{end}"}}'
    return (f"curl -sS --fail {extra} -X POST -H 'X-API-Key: {KEY}' "
            f"-H 'Content-Type: application/json' -d '{body}' '{url}{path}'")


def https_runs(year, runs):
    """report --chain all over `year` over HTTPS with a private CA, 50 ms server latency."""
    sandbox = Sandbox(50, tls=True)
    env = dict(tool_env(sandbox.url), CHAIN_METRICS_CA_BUNDLE=sandbox.ca)
    report = [BIN, "report", "-c", "all", "-s", year[0], "-e", year[1], "-f", "csv"]
    try:
        return alternate({
            "default": (report, env, False),
            "jobs18": (report + ["--jobs", "18"], env, False),
            "single": (curl(sandbox.url, FEES, "ETHEREUM", *year, f"--cacert '{sandbox.ca}'"), None, True),
        }, runs)
    finally:
        sandbox.close()


def wire_bytes(decade):
    """Bytes on the wire for the largest ten-year body (the official account), as the tool
    asks for it (Accept-Encoding: gzip) and without compression."""
    sandbox = Sandbox(0)
    path = "/api/social-metrics/official-account"
    try:
        sizes = {}
        for name, extra in (("identity", "-H 'Accept-Encoding: identity'"),
                            ("gzip", "-H 'Accept-Encoding: gzip'")):
            command = curl(sandbox.url, path, "ETHEREUM", *decade, extra + " -o /dev/null -w '%{size_download}'")
            sizes[name] = int(subprocess.run(command, shell=True, check=True, capture_output=True).stdout)
        return sizes
    finally:
        sandbox.close()


def cache_runs(url, year, runs):
    """report --chain all over `year` without the cache, with an emptied one, with a full one."""
    folder = tempfile.mkdtemp(prefix="chain-metrics-bench-cache-")
    env = dict(tool_env(url), XDG_CACHE_HOME=folder)
    report = [BIN, "report", "-c", "all", "-s", year[0], "-e", year[1], "-f", "csv"]
    # The cold run starts from no file: the shell removes it (about 1 ms of its own).
    cold = f"rm -rf '{folder}/chain-metrics' && {shlex.join(report + ['--cache'])}"
    try:
        # A separate warm-up fills the cache that the warm runs read.
        run(report + ["--cache"], env)
        warm = alternate({"warm cache": (report + ["--cache"], env, False)}, runs)
        others = alternate({
            "no cache": (report, env, False),
            "cold cache": (cold, env, True),
        }, runs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return dict(others, **warm)


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    for tool in ("curl", "jq"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is needed: apt-get install {tool}")
    subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=ROOT, check=True)
    out = []
    say = out.append
    say(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
        f"{runs} alternating runs per figure, medians.\n")

    # (a) one 365-day fees query to csv, against curl | jq on the same server.
    sandbox = Sandbox(0)
    env = tool_env(sandbox.url)
    year = ("2023-01-01", "2023-12-31")
    jq = "jq -r '.[] | [.date,.fees] | @csv'"
    a = alternate({
        "tool": ([BIN, "fees", "-c", "eth", "-s", year[0], "-e", year[1], "-f", "csv"], env, False),
        "curl+jq": (f"{curl(sandbox.url, FEES, 'ETHEREUM', *year)} | {jq}", None, True),
    }, runs)
    say("## (a) one 365-day fees query to csv vs curl | jq\n")
    say(f"- chain-metrics: {ms(a['tool'][0])}; curl | jq: {ms(a['curl+jq'][0])}; "
        f"ratio **{a['tool'][0] / a['curl+jq'][0]:.2f}x** (target <= 1.0x)\n")

    # (d) startup and binary size.
    d = alternate({"version": ([BIN, "--version"], None, False)}, runs * 3)
    size = os.path.getsize(BIN)
    sandbox.close()

    # (b) report --chain all, 365 days, 50 ms server latency.
    sandbox = Sandbox(50)
    env = tool_env(sandbox.url)
    sequential = " && ".join(
        f"{curl(sandbox.url, path, chain, *year)} > /dev/null" for chain in CHAINS for path in PATHS)
    b = alternate({
        "default": ([BIN, "report", "-c", "all", "-s", year[0], "-e", year[1], "-f", "csv"], env, False),
        "jobs18": ([BIN, "report", "-c", "all", "-s", year[0], "-e", year[1], "-f", "csv", "--jobs", "18"], env, False),
        "sequential": (sequential, None, True),
        "single": (curl(sandbox.url, FEES, "ETHEREUM", *year), None, True),
    }, max(5, runs // 3))
    sandbox.close()
    say("## (b) report --chain all, 365 days (18 requests), 50 ms server latency\n")
    say(f"- default settings: {ms(b['default'][0])}; 18 sequential curls: {ms(b['sequential'][0])}; "
        f"ratio **{b['default'][0] / b['sequential'][0]:.2f}x** (target <= 0.25x)")
    say(f"- --jobs 18: {ms(b['jobs18'][0])}; one single curl request: {ms(b['single'][0])}; "
        f"ratio **{b['jobs18'][0] / b['single'][0]:.2f}x** (target <= 1.3x)\n")

    # (b2) the same over HTTPS, trusting a private CA (the sandbox's own certificate).
    h = https_runs(year, max(5, runs // 3))
    say("## (b2) the same over HTTPS with a private CA (`--ca-bundle`), 50 ms server latency\n")
    say(f"- default settings: {ms(h['default'][0])}")
    say(f"- --jobs 18: {ms(h['jobs18'][0])}; one single curl request over HTTPS (--cacert): "
        f"{ms(h['single'][0])}; ratio **{h['jobs18'][0] / h['single'][0]:.2f}x** (target <= 1.5x)\n")

    # (e) the response cache: report --chain all over a year, cold against warm, 50 ms latency.
    sandbox = Sandbox(50)
    e = cache_runs(sandbox.url, year, max(5, runs // 3))
    sandbox.close()
    say("## (e) report --chain all, 365 days, 50 ms server latency: the response cache\n")
    say("| run | requests | wall | tool CPU (user+sys) | peak RSS |\n|---|---|---|---|---|")
    for name, requests in (("no cache", 18), ("cold cache", 18), ("warm cache", 0)):
        wall, cpu, rss = e[name]
        say(f"| {name} | {requests} | {ms(wall)} | {ms(cpu)} | {rss / 1024:.1f} MiB |")
    say(f"\nWarm against cold: **{e['warm cache'][0] / e['cold cache'][0]:.2f}x** the wall time.\n")

    # (c) report --chain all over ten years, per format.
    sandbox = Sandbox(0)
    env = tool_env(sandbox.url)
    decade = ("2015-01-01", "2024-12-31")
    c = alternate({
        fmt: ([BIN, "report", "-c", "all", "-s", decade[0], "-e", decade[1], "-f", fmt], env, False)
        for fmt in ("csv", "json", "table")
    }, max(5, runs // 3))
    sandbox.close()
    say("## (c) report --chain all, 10 years (21,918 rows)\n")
    say("| format | wall | tool CPU (user+sys) | peak RSS |\n|---|---|---|---|")
    for fmt, (wall, cpu, rss) in c.items():
        say(f"| {fmt} | {ms(wall)} | {ms(cpu)} | {rss / 1024:.1f} MiB |")
    say("\nTargets: peak RSS <= 14 MiB, tool time < 0.5 s.\n")

    # (f) compression: what a ten-year body costs on the wire.
    f = wire_bytes(decade)
    say("## (f) bytes on the wire, official-account body, one chain, 10 years\n")
    say(f"- uncompressed: {f['identity']:,} bytes; gzip (what the tool asks for): {f['gzip']:,} bytes; "
        f"**{f['gzip'] / f['identity']:.2f}x**\n")

    say("## (d) startup and size\n")
    say(f"- `chain-metrics --version`: {ms(d['version'][0])} (target < 5 ms)")
    say(f"- stripped release binary: {size / 1024 / 1024:.2f} MiB\n")
    worst_rss = max(rss for _, _, rss in c.values()) / 1024
    checks = [
        ("(a) fees to csv vs curl \\| jq", a['tool'][0] / a['curl+jq'][0], "<= 1.0x", 1.0),
        ("(b) report, default vs 18 sequential curls", b['default'][0] / b['sequential'][0], "<= 0.25x", 0.25),
        ("(b) report --jobs 18 vs one curl", b['jobs18'][0] / b['single'][0], "<= 1.3x", 1.3),
        ("(b2) HTTPS: report --jobs 18 vs one curl", h['jobs18'][0] / h['single'][0], "<= 1.5x", 1.5),
        ("(c) 10-year report, worst peak RSS (MiB)", worst_rss, "<= 14", 14),
        ("(d) --version (ms)", d['version'][0] * 1000, "< 5", 5),
        ("(e) warm cache vs cold", e['warm cache'][0] / e['cold cache'][0], "<= 0.15x", 0.15),
    ]
    say("## Targets\n")
    say("| figure | measured | target | holds |\n|---|---|---|---|")
    for name, value, target, limit in checks:
        say(f"| {name} | {value:.2f} | {target} | {'yes' if value <= limit else '**no**'} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
