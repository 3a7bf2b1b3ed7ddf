#!/usr/bin/env python3
"""The chain-metrics benchmark: the tool against curl + jq and against the loopback limit.

Starts the sandbox (the release binary's `sandbox` command) on 127.0.0.1, then measures, as
medians of alternating runs, the figures of BENCHMARKS.md. Needs curl and jq (apt-get install
curl jq) and python3-venv (the Python comparison installs `requests` into benches/.venv, nothing
global). Usage: python3 benches/bench.py [--runs N] [--only a,b,c,...]. It prints a Markdown
report on stdout, and writes the growth curve's figures and chart (benches/growth.csv, .svg).
"""

import argparse
import csv
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
# BENCH_BIN: measure that binary instead of building this tree's (e.g. an older commit's).
BIN = os.environ.get("BENCH_BIN") or os.path.join(TARGET, "release", "chain-metrics")
KEY = "bench-key-0000000000"
FEES = "/api/chain-insights/fees"
PATHS = [FEES, "/api/chain-insights/active_users", "/api/social-metrics/official-account"]
CHAINS = ["ETHEREUM", "ARBITRUM", "BSC", "OPTIMISM", "BASE", "POLYGON"]
HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, ".venv")
YEAR = ("2023-01-01", "2023-12-31")
DECADE = ("2015-01-01", "2024-12-31")


def run(argv, env=None, shell=False):
    """Runs one command to completion; returns (wall seconds, cpu seconds)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, shell=shell)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode()
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"benchmark command failed: {argv}\n{err}")
    return wall, usage.ru_utime + usage.ru_stime


def peak_rss(argv, env=None, shell=False):
    """The command's peak RSS in KiB, measured by /usr/bin/time (GNU time) around it.

    Not from this process's wait4: a child's ru_maxrss starts at the RSS of the process that
    forked it (Linux keeps the high-water mark across exec), so a command started from this
    Python process never shows less than this process's own size. /usr/bin/time is small."""
    with tempfile.NamedTemporaryFile(prefix="chain-metrics-bench-rss-") as out:
        command = ["sh", "-c", argv] if shell else argv
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + command, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return int(out.read().decode().split()[-1])


def alternate(commands, runs):
    """Runs the commands in turn, `runs` rounds after one warm-up; medians per command of
    (wall, cpu, peak RSS KiB), the RSS from three more runs under /usr/bin/time."""
    for argv, env, shell in commands.values():
        run(argv, env, shell)
    samples = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, env, shell) in commands.items():
            samples[name].append(run(argv, env, shell))
    rss = {name: [] for name in commands}
    for _ in range(3):
        for name, (argv, env, shell) in commands.items():
            rss[name].append(peak_rss(argv, env, shell))
    return {
        name: (statistics.median(s[0] for s in values), statistics.median(s[1] for s in values),
               statistics.median(rss[name]))
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


class Foreign:
    """benches/foreign_server.py in front of a sandbox: the same records newest first, members
    reversed, never compressed."""

    def __init__(self, sandbox):
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "foreign_server.py"), sandbox.url],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.url = self.proc.stdout.readline().decode().strip()

    def close(self):
        self.proc.kill()
        self.proc.wait()


def venv_python():
    """benches/.venv's python with `requests` (made on first use; nothing installed globally)."""
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    if subprocess.run([python, "-c", "import requests"], capture_output=True).returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "--quiet", "requests"], check=True)
    return python


def floor_and_export(runs, say, checks):
    """The floor (a one-day query against one curl) and (a), the 365-day export, against
    curl | jq and a short Python script (requests + csv)."""
    sandbox = Sandbox(0)
    env = tool_env(sandbox.url)
    day = "2023-06-01"
    python = venv_python()
    export = os.path.join(HERE, "export.py")
    jq = "jq -r '.[] | [.date,.fees] | @csv'"
    try:
        r = alternate({
            "day": ([BIN, "fees", "-c", "eth", "-s", day, "-e", day, "-f", "csv"], env, False),
            "curl day": (curl(sandbox.url, FEES, "ETHEREUM", day, day), None, True),
            "tool": ([BIN, "fees", "-c", "eth", "-s", YEAR[0], "-e", YEAR[1], "-f", "csv"], env, False),
            "curl+jq": (f"{curl(sandbox.url, FEES, 'ETHEREUM', *YEAR)} | {jq}", None, True),
            "python": ([python, export, sandbox.url, KEY, *YEAR], None, False),
        }, runs)
        d = alternate({"version": ([BIN, "--version"], None, False)}, runs * 3)
    finally:
        sandbox.close()
    say("## Floor: a one-day fees query vs one curl request (plain HTTP)\n")
    say(f"- chain-metrics: {ms(r['day'][0])} ({ms(r['day'][1])} CPU, {r['day'][2] / 1024:.1f} MiB); "
        f"curl: {ms(r['curl day'][0])}; ratio **{r['day'][0] / r['curl day'][0]:.2f}x** (target <= 0.6x)\n")
    say("## (a) one 365-day fees query to csv vs curl | jq vs Python (requests + csv)\n")
    say("| command | wall | CPU (user+sys) | peak RSS | tool's ratio |\n|---|---|---|---|---|")
    for name, label in (("tool", "chain-metrics"), ("curl+jq", "curl \\| jq"), ("python", "Python requests + csv")):
        wall, cpu, rss = r[name]
        say(f"| {label} | {ms(wall)} | {ms(cpu)} | {rss / 1024:.1f} MiB | {r['tool'][0] / wall:.2f}x |")
    say("")
    say("## (d) startup and size\n")
    say(f"- `chain-metrics --version`: {ms(d['version'][0])} (target < 5 ms)")
    say(f"- stripped release binary: {os.path.getsize(BIN) / 1024 / 1024:.2f} MiB\n")
    checks += [
        ("floor: one-day query vs one curl", r['day'][0] / r['curl day'][0], "<= 0.6x", 0.6),
        ("(a) fees to csv vs curl \\| jq", r['tool'][0] / r['curl+jq'][0], "<= 0.25x", 0.25),
        ("(a) fees to csv vs Python requests + csv", r['tool'][0] / r['python'][0], "(figure)", None),
        ("(d) --version (ms)", d['version'][0] * 1000, "< 5", 5),
    ]


def concurrency(runs, say, checks):
    """(b) and (b2): report --chain all over a year, 50 ms latency, plain HTTP and HTTPS."""
    sandbox = Sandbox(50)
    env = tool_env(sandbox.url)
    report = [BIN, "report", "-c", "all", "-s", YEAR[0], "-e", YEAR[1], "-f", "csv"]
    sequential = " && ".join(
        f"{curl(sandbox.url, path, chain, *YEAR)} > /dev/null" for chain in CHAINS for path in PATHS)
    try:
        b = alternate({
            "default": (report, env, False),
            "jobs18": (report + ["--jobs", "18"], env, False),
            "sequential": (sequential, None, True),
            "single": (curl(sandbox.url, FEES, "ETHEREUM", *YEAR), None, True),
        }, runs)
    finally:
        sandbox.close()
    h = https_runs(YEAR, runs)
    say("## (b) report --chain all, 365 days (18 requests), 50 ms server latency\n")
    say(f"- default settings: {ms(b['default'][0])}; 18 sequential curls: {ms(b['sequential'][0])}; "
        f"ratio **{b['default'][0] / b['sequential'][0]:.2f}x** (target <= 0.25x)")
    say(f"- --jobs 18: {ms(b['jobs18'][0])}; one single curl request: {ms(b['single'][0])}; "
        f"ratio **{b['jobs18'][0] / b['single'][0]:.2f}x** (target <= 1.2x)\n")
    say("## (b2) the same over HTTPS with a private CA (`--ca-bundle`), 50 ms server latency\n")
    say(f"- default settings: {ms(h['default'][0])}")
    say(f"- --jobs 18: {ms(h['jobs18'][0])}; one single curl request over HTTPS (--cacert): "
        f"{ms(h['single'][0])}; ratio **{h['jobs18'][0] / h['single'][0]:.2f}x** (target <= 1.2x)\n")
    checks += [
        ("(b) report, default vs 18 sequential curls", b['default'][0] / b['sequential'][0], "<= 0.25x", 0.25),
        ("(b) report --jobs 18 vs one curl", b['jobs18'][0] / b['single'][0], "<= 1.2x", 1.2),
        ("(b2) HTTPS: report --jobs 18 vs one curl", h['jobs18'][0] / h['single'][0], "<= 1.2x", 1.2),
    ]


def cache(runs, say, checks):
    """(e) the response cache: report --chain all over a year, cold against warm, 50 ms latency."""
    sandbox = Sandbox(50)
    try:
        e = cache_runs(sandbox.url, YEAR, runs)
    finally:
        sandbox.close()
    say("## (e) report --chain all, 365 days, 50 ms server latency: the response cache\n")
    say("| run | requests | wall | tool CPU (user+sys) | peak RSS |\n|---|---|---|---|---|")
    for name, requests in (("no cache", 18), ("cold cache", 18), ("warm cache", 0)):
        wall, cpu, rss = e[name]
        say(f"| {name} | {requests} | {ms(wall)} | {ms(cpu)} | {rss / 1024:.1f} MiB |")
    say(f"\nWarm against cold: **{e['warm cache'][0] / e['cold cache'][0]:.2f}x** the wall time.\n")
    checks.append(("(e) warm cache vs cold", e['warm cache'][0] / e['cold cache'][0], "<= 0.15x", 0.15))


def decade(runs, say, checks):
    """(c) report --chain all over ten years, per format, against the sandbox and against a
    server that sends the records in another order; the outputs must be the same."""
    sandbox = Sandbox(0)
    foreign = Foreign(sandbox)
    argv = [BIN, "report", "-c", "all", "-s", DECADE[0], "-e", DECADE[1], "-f"]
    try:
        for fmt in ("csv", "json", "table"):
            outputs = {subprocess.run(argv + [fmt], env=tool_env(url), check=True, capture_output=True).stdout
                       for url in (sandbox.url, foreign.url)}
            if len(outputs) != 1:
                sys.exit(f"the foreign server's {fmt} output differs from the sandbox's")
        c = alternate({
            (server, fmt): (argv + [fmt], tool_env(url), False)
            for server, url in (("sandbox", sandbox.url), ("foreign", foreign.url))
            for fmt in ("csv", "json", "table")
        }, runs)
    finally:
        foreign.close()
        sandbox.close()
    say("## (c) report --chain all, 10 years (21,918 rows)\n")
    say("Foreign: the same records newest first, members reversed, uncompressed "
        "(benches/foreign_server.py); the outputs are byte for byte the sandbox's.\n")
    say("| server | format | wall | tool CPU (user+sys) | peak RSS |\n|---|---|---|---|---|")
    for (server, fmt), (wall, cpu, rss) in c.items():
        say(f"| {server} | {fmt} | {ms(wall)} | {ms(cpu)} | {rss / 1024:.1f} MiB |")
    say("")
    worst = max(rss for _, _, rss in c.values()) / 1024
    checks += [
        ("(c) 10-year report, worst peak RSS (MiB)", worst, "<= 12", 12),
        ("(c) 10-year report, worst tool CPU (s)", max(cpu for _, cpu, _ in c.values()), "< 0.5", 0.5),
    ]


GROWTH_DAYS = (1, 10, 100, 1000, 3653)


def growth(runs, say, checks):
    """(g) report --chain all -f csv over 1 to 3,653 days ending 2024-12-31, and --by month over
    3,653 days: wall, CPU and peak RSS; writes benches/growth.csv and benches/growth.svg."""
    import datetime
    end = datetime.date(2024, 12, 31)
    sandbox = Sandbox(0)
    env = tool_env(sandbox.url)
    commands = {}
    for days in GROWTH_DAYS:
        start = (end - datetime.timedelta(days=days - 1)).isoformat()
        commands[str(days)] = ([BIN, "report", "-c", "all", "-s", start, "-e", end.isoformat(), "-f", "csv"], env, False)
    commands["3653 --by month"] = (commands["3653"][0] + ["--by", "month"], env, False)
    try:
        g = alternate(commands, runs)
    finally:
        sandbox.close()
    say("## (g) growth: report --chain all -f csv over n days (6 chains, 6 values a row)\n")
    say("| days | rows | wall | tool CPU (user+sys) | peak RSS |\n|---|---|---|---|---|")
    with open(os.path.join(HERE, "growth.csv"), "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["days", "rows", "wall_ms", "cpu_ms", "peak_rss_mib"])
        for name, (wall, cpu, rss) in g.items():
            rows = 6 * int(name.split()[0]) if "month" not in name else 6 * 120
            say(f"| {name} | {rows:,} | {ms(wall)} | {ms(cpu)} | {rss / 1024:.1f} MiB |")
            writer.writerow([name, rows, f"{wall * 1000:.1f}", f"{cpu * 1000:.1f}", f"{rss / 1024:.2f}"])
    say("")
    points = [(days, g[str(days)]) for days in GROWTH_DAYS]
    with open(os.path.join(HERE, "growth.svg"), "w") as out:
        out.write(growth_svg(points))


def growth_svg(points):
    """Three panels (wall ms, CPU ms, peak RSS MiB) against days asked, both axes linear from 0,
    so that cost linear in rows over a constant floor shows as a straight line."""
    width, height, pad = 260, 200, 40
    panels = [("wall (ms)", 0, 1000), ("CPU user+sys (ms)", 1, 1000), ("peak RSS (MiB)", 2, 1 / 1024)]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{3 * width}" height="{height + 30}" '
             f'font-family="sans-serif" font-size="11">',
             f'<rect width="100%" height="100%" fill="white"/>',
             f'<text x="10" y="{height + 22}">report --chain all -f csv against days asked (6 rows a day); '
             'measured by benches/bench.py</text>']
    last = points[-1][0]
    for n, (title, index, scale) in enumerate(panels):
        left = n * width + pad
        values = [v[index] * scale for _, v in points]
        top = max(values) * 1.1
        x = lambda d: left + d / last * (width - pad - 25)
        y = lambda v: height - pad + 10 - v / top * (height - pad - 20)
        parts.append(f'<text x="{left}" y="14" font-weight="bold">{title}</text>')
        parts.append(f'<line x1="{left}" y1="{y(0)}" x2="{x(last)}" y2="{y(0)}" stroke="#888"/>')
        parts.append(f'<line x1="{left}" y1="{y(0)}" x2="{left}" y2="{y(top)}" stroke="#888"/>')
        for tick in (0, top / 2, top):
            parts.append(f'<text x="{left - 4}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.0f}</text>')
        for days in (0, 1000, 2000, last):
            parts.append(f'<text x="{x(days):.1f}" y="{y(0) + 14}" text-anchor="middle">{days:,}</text>')
        line = " ".join(f"{x(d):.1f},{y(v):.1f}" for (d, _), v in zip(points, values))
        parts.append(f'<polyline points="{line}" fill="none" stroke="#1f77b4" stroke-width="2"/>')
        for (days, _), v in zip(points, values):
            parts.append(f'<circle cx="{x(days):.1f}" cy="{y(v):.1f}" r="3" fill="#1f77b4">'
                         f'<title>{days:,} days: {v:.1f}</title></circle>')
    parts.append("</svg>\n")
    return "\n".join(parts)


SECTIONS = {"floor": floor_and_export, "b": concurrency, "e": cache, "c": decade, "g": growth}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections: " + ",".join(SECTIONS) + ",f")
    args = parser.parse_args()
    runs, only = args.runs, args.only.split(",")
    for tool in ("curl", "jq"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is needed: apt-get install {tool}")
    if not os.environ.get("BENCH_BIN"):
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=ROOT, check=True)
    out, checks = [], []
    say = out.append
    say(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average before "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {runs} alternating runs per figure "
        f"({max(5, runs // 3)} for b, c, e, g), medians.\n")
    for name, section in SECTIONS.items():
        if name in only:
            section(runs if name == "floor" else max(5, runs // 3), say, checks)
    if "f" in only:
        f = wire_bytes(DECADE)
        say("## (f) bytes on the wire, official-account body, one chain, 10 years\n")
        say(f"- uncompressed: {f['identity']:,} bytes; gzip (what the tool asks for): {f['gzip']:,} bytes; "
            f"**{f['gzip'] / f['identity']:.2f}x**\n")
    say(f"Load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}.\n")
    say("## Targets\n")
    say("| figure | measured | target | holds |\n|---|---|---|---|")
    for name, value, target, limit in checks:
        holds = "-" if limit is None else ("yes" if value <= limit else "**no**")
        say(f"| {name} | {value:.2f} | {target} | {holds} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
