#!/usr/bin/env python3
"""The chain-metrics benchmark: every figure of BENCHMARKS.md, each against its target.

Starts the sandbox (the release binary's `sandbox` command) on 127.0.0.1 and the Python servers
of benches/ (foreign_server.py, hostile_server.py), then measures, as medians of alternating
runs, each section's figures, and ends with one table: figure, measured, target, pass or miss.
Needs curl and jq, python3-venv (the Python comparison installs `requests` into benches/.venv,
nothing global), GNU time (/usr/bin/time), and for the pictures chromium-headless-shell.

Usage: python3 benches/bench.py [--runs N] [--only floor,b,...] [--big] [--all] [--markdown FILE]
(sections: see --help; `newcomer`, minutes long, runs only when named or with --all; --big adds
the 1 GB merge). It prints the report as Markdown on stdout with the table as plain text last,
writes the whole of it as Markdown to FILE with --markdown, and writes the growth curve's
figures and chart (benches/growth.csv, .svg). A section that cannot be measured is a miss in the
table; the others still run.
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

sys.dont_write_bytecode = True  # benches/ keeps no __pycache__ of its modules

import attack  # noqa: E402
import newcomer  # noqa: E402
import pictures  # noqa: E402
import postgres  # noqa: E402
from harness import (  # noqa: E402
    BIN, CHAINS, DECADE, FEES, HERE, KEY, PATHS, ROOT, YEAR, Checks, Failed, Foreign,
                     Sandbox, alternate, curl, mib, ms, run, timed, tool_env)

VENV = os.path.join(HERE, ".venv")


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
        f"curl: {ms(r['curl day'][0])}; ratio **{r['day'][0] / r['curl day'][0]:.2f}x** (target <= 0.45x)\n")
    say("## (a) one 365-day fees query to csv vs curl | jq vs Python (requests + csv)\n")
    say("| command | wall | CPU (user+sys) | peak RSS | tool's ratio |\n|---|---|---|---|---|")
    for name, label in (("tool", "chain-metrics"), ("curl+jq", "curl \\| jq"), ("python", "Python requests + csv")):
        wall, cpu, rss = r[name]
        say(f"| {label} | {ms(wall)} | {ms(cpu)} | {rss / 1024:.1f} MiB | {r['tool'][0] / wall:.2f}x |")
    say("")
    say("## (d) startup and size\n")
    say(f"- `chain-metrics --version`: {ms(d['version'][0])} (target <= 2 ms)")
    say(f"- the stripped binary (`dist` profile, PostgreSQL client in): {mib_of(BIN)} (target <= 6 MiB)\n")
    day_ratio = r['day'][0] / r['curl day'][0]
    checks.add("floor: one-day query vs one curl (plain HTTP)",
               f"{ms(r['day'][0])} vs {ms(r['curl day'][0])}: {day_ratio:.2f}x", day_ratio, "<= 0.45x", 0.45)
    jq_ratio = r['tool'][0] / r['curl+jq'][0]
    checks.add("(a) 365-day fees to csv vs curl \\| jq",
               f"{ms(r['tool'][0])} vs {ms(r['curl+jq'][0])}: {jq_ratio:.2f}x", jq_ratio, "<= 0.2x", 0.2)
    py_ratio = r['tool'][0] / r['python'][0]
    checks.add("(a) the same vs Python requests + csv",
               f"{ms(r['tool'][0])} vs {ms(r['python'][0])}: {py_ratio:.2f}x")
    checks.add("(d) --version", ms(d['version'][0]), d['version'][0] * 1000, "<= 2 ms", 2)
    checks.add("(d) stripped binary (dist)", mib_of(BIN), os.path.getsize(BIN) / 1024 / 1024, "<= 6 MiB", 6)


def mib_of(path):
    return f"{os.path.getsize(path) / 1024 / 1024:.2f} MiB"


def parallel_curl(env, year, cacert=None):
    """`curl --parallel --parallel-max 18` making the 18 requests `report -c all --jobs 18`
    makes: the tool's own `--dry-run` lines (same URLs, bodies, headers, the key header), plus
    the `Accept-Encoding: gzip` the tool sends; bodies to /dev/null, not decoded. Checked once:
    18 answers of 200."""
    lines = subprocess.run([BIN, "report", "--dry-run", "-c", "all", "-s", year[0], "-e", year[1], "--jobs", "18"],
                           env=env, check=True, capture_output=True, text=True).stdout.splitlines()
    requests = [line for line in lines if line.startswith("curl ")]
    if len(requests) != 18:
        raise Failed(f"report --dry-run printed {len(requests)} curl lines, not 18")
    transfers = []
    for line in requests:
        words = [w.replace("$CHAIN_METRICS_API_KEY", KEY) for w in shlex.split(line)[1:] if w != "-sS"]
        if cacert and "--cacert" not in words:
            words += ["--cacert", cacert]
        transfers.append(words + ["-H", "Accept-Encoding: gzip", "--fail", "-o", "/dev/null"])
    together = lambda extra: ["curl", "--parallel", "--parallel-immediate", "--parallel-max", "18", "-sS"] + [
        word for n, words in enumerate(transfers) for word in (["--next"] if n else []) + words + extra]
    argv = together([])
    codes = subprocess.run(together(["-w", "%{http_code}\\n"]), check=True, capture_output=True,
                           text=True).stdout.split()
    if codes != ["200"] * 18:
        raise Failed(f"curl --parallel did not get 18 answers of 200: {codes}")
    return argv


def concurrency_runs(year, runs, tls):
    """report --chain all over `year`, 50 ms server latency, plain HTTP or HTTPS (a private CA),
    against curl: one request, the 18 one after another (plain HTTP), the 18 at once."""
    with Sandbox(50, tls=tls) as sandbox:
        env = tool_env(sandbox.url)
        extra = ""
        if tls:
            env["CHAIN_METRICS_CA_BUNDLE"] = sandbox.ca
            extra = f"--cacert '{sandbox.ca}'"
        report = [BIN, "report", "-c", "all", "-s", year[0], "-e", year[1], "-f", "csv"]
        commands = {
            "default": (report, env, False),
            "jobs18": (report + ["--jobs", "18"], env, False),
            "parallel": (parallel_curl(env, year, sandbox.ca if tls else None), None, False),
            "single": (curl(sandbox.url, FEES, "ETHEREUM", *year, extra), None, True),
        }
        if not tls:
            commands["sequential"] = (" && ".join(
                f"{curl(sandbox.url, path, chain, *year)} > /dev/null" for chain in CHAINS for path in PATHS),
                None, True)
        return alternate(commands, runs)


def concurrency(runs, say, checks):
    """(b), (b2), (b3): report --chain all over a year, 50 ms latency, plain HTTP and HTTPS,
    against curl one request at a time, one request, and the 18 with curl --parallel."""
    b = concurrency_runs(YEAR, runs, tls=False)
    h = concurrency_runs(YEAR, runs, tls=True)
    say("## (b) report --chain all, 365 days (18 requests), 50 ms server latency\n")
    say("| run | plain HTTP | HTTPS (private CA) |\n|---|---|---|")
    for name, label in (("default", "report, default settings (8 jobs)"), ("jobs18", "report --jobs 18"),
                        ("parallel", "curl --parallel --parallel-immediate --parallel-max 18, the same 18 requests"),
                        ("single", "one curl request"), ("sequential", "18 curls one after another")):
        https = ms(h[name][0]) if name in h else "-"
        say(f"| {label} | {ms(b[name][0])} | {https} |")
    say("")
    ratio = lambda r, a, z: r[a][0] / r[z][0]
    checks.add("(b) report, default vs 18 sequential curls",
               f"{ms(b['default'][0])} vs {ms(b['sequential'][0])}: {ratio(b, 'default', 'sequential'):.2f}x",
               ratio(b, 'default', 'sequential'), "<= 0.25x", 0.25)
    checks.add("(b) report --jobs 18 vs one curl, plain HTTP",
               f"{ms(b['jobs18'][0])} vs {ms(b['single'][0])}: {ratio(b, 'jobs18', 'single'):.2f}x",
               ratio(b, 'jobs18', 'single'), "<= 1.2x", 1.2)
    checks.add("(b2) report --jobs 18 vs one curl, HTTPS",
               f"{ms(h['jobs18'][0])} vs {ms(h['single'][0])}: {ratio(h, 'jobs18', 'single'):.2f}x",
               ratio(h, 'jobs18', 'single'), "<= 1.2x", 1.2)
    checks.add("(b3) report --jobs 18 vs curl --parallel-immediate (18), plain HTTP",
               f"{ms(b['jobs18'][0])} vs {ms(b['parallel'][0])}: {ratio(b, 'jobs18', 'parallel'):.2f}x",
               ratio(b, 'jobs18', 'parallel'), "<= 1.0x", 1.0)
    checks.add("(b3) report --jobs 18 vs curl --parallel-immediate (18), HTTPS",
               f"{ms(h['jobs18'][0])} vs {ms(h['parallel'][0])}: {ratio(h, 'jobs18', 'parallel'):.2f}x",
               ratio(h, 'jobs18', 'parallel'), "<= 0.85x", 0.85)


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
    warm = e['warm cache'][0] / e['cold cache'][0]
    say(f"\nWarm against cold: **{warm:.2f}x** the wall time.\n")
    checks.add("(e) warm cache vs cold, report over a year",
               f"{ms(e['warm cache'][0])} vs {ms(e['cold cache'][0])}: {warm:.2f}x", warm, "<= 0.15x", 0.15)


def decade(runs, say, checks):
    """(c) report --chain all over ten years, per format, against the sandbox and against a
    server that sends the records in another order; the outputs must be the same. Then the
    trades that need no change to the tool: fewer jobs (pooled connections) and a smaller
    socket receive buffer (c2)."""
    argv = [BIN, "report", "-c", "all", "-s", DECADE[0], "-e", DECADE[1], "-f"]
    with Sandbox(0) as sandbox, Foreign(sandbox) as foreign:
        for fmt in ("csv", "json", "table"):
            outputs = {subprocess.run(argv + [fmt], env=tool_env(url), check=True, capture_output=True).stdout
                       for url in (sandbox.url, foreign.url)}
            if len(outputs) != 1:
                raise Failed(f"the foreign server's {fmt} output differs from the sandbox's")
        c = alternate({
            (server, fmt): (argv + [fmt], tool_env(url), False)
            for server, url in (("sandbox", sandbox.url), ("foreign", foreign.url))
            for fmt in ("csv", "json", "table")
        }, runs)
    say("## (c) report --chain all, 10 years (21,918 rows)\n")
    say("Foreign: the same records newest first, members reversed, uncompressed "
        "(benches/foreign_server.py); the outputs are byte for byte the sandbox's.\n")
    say("| server | format | wall | tool CPU (user+sys) | peak RSS |\n|---|---|---|---|---|")
    for (server, fmt), (wall, cpu, rss) in c.items():
        say(f"| {server} | {fmt} | {ms(wall)} | {ms(cpu)} | {rss / 1024:.1f} MiB |")
    say("")
    for server in ("sandbox", "foreign"):
        rss = {fmt: c[(server, fmt)][2] for fmt in ("csv", "json", "table")}
        checks.add(f"(c) 10-year report, peak RSS, {server} (csv/json/table)",
                   " / ".join(mib(v) for v in rss.values()), max(rss.values()) / 1024, "<= 11 MiB", 11)
    worst_cpu = max(cpu for _, cpu, _ in c.values())
    checks.add("(c) 10-year report, worst tool CPU", ms(worst_cpu), worst_cpu, "< 0.5 s", 0.5, below=True)
    trades(runs, say, checks)


def trades(runs, say, checks):
    """(c2) what fewer pooled connections (`--jobs`) and a smaller socket receive buffer (the
    kernel's tcp_rmem, set in a network namespace of the benchmark's own) buy in peak RSS, and
    what they cost in wall time against 50 ms of server latency."""
    argv = [BIN, "report", "-c", "all", "-s", DECADE[0], "-e", DECADE[1], "-f", "csv"]
    jobs = (1, 2, 4, 8)
    with Sandbox(0) as sandbox, Foreign(sandbox) as foreign:
        rss = alternate({n: (argv + ["--jobs", str(n)], tool_env(foreign.url), False) for n in jobs}, 1)
    with Sandbox(50) as slow:
        wall = alternate({n: (argv + ["--jobs", str(n)], tool_env(slow.url), False) for n in jobs}, runs)
    say("## (c2) the trades: fewer jobs, a smaller receive buffer (10-year csv report)\n")
    say("| `--jobs` (connections) | peak RSS, foreign server | wall, sandbox with 50 ms latency |\n|---|---|---|")
    for n in jobs:
        say(f"| {n} | {mib(rss[n][2])} | {ms(wall[n][0])} |")
    say("")
    checks.add("(c2) 10-year csv, foreign server, peak RSS at --jobs 1/2/4/8",
               " / ".join(mib(rss[n][2]) for n in jobs))
    checks.add("(c2) the same, wall with 50 ms latency at --jobs 1/2/4/8",
               " / ".join(ms(wall[n][0]) for n in jobs))
    probes = receive_buffers()
    if probes is None:
        say("Receive buffer: not measured (needs `unshare -n` as root for a network namespace).\n")
        checks.add("(c2) receive buffer (tcp_rmem max) trade", "not measured: no network namespace")
        return
    say("Receive buffer (`net.ipv4.tcp_rmem` in a network namespace of the benchmark's own, so "
        "both ends of loopback; the tool asks nothing of the socket itself):\n")
    say("| tcp_rmem max | peak RSS, foreign | peak RSS, sandbox | wall, foreign |\n|---|---|---|---|")
    for label, (foreign_rss, sandbox_rss, foreign_wall) in probes.items():
        say(f"| {label} | {mib(foreign_rss)} | {mib(sandbox_rss)} | {ms(foreign_wall)} |")
    say("")
    checks.add("(c2) foreign server peak RSS by receive buffer max (" + " / ".join(probes) + ")",
               " / ".join(mib(v[0]) for v in probes.values()))


RMEM = {"namespace default": None, "256 KiB": 262144, "64 KiB": 65536, "16 KiB": 16384}


def receive_buffers():
    """Runs `bench.py --rmem-probe MAX` in a new network namespace per receive buffer size;
    None where no namespace can be made."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return None
    out = {}
    for label, most in RMEM.items():
        done = subprocess.run(["unshare", "-n", sys.executable, os.path.abspath(__file__),
                               "--rmem-probe", str(most or 0)], capture_output=True, text=True)
        if done.returncode != 0:
            return None
        out[label] = tuple(float(x) for x in done.stdout.split()[-3:])
    return out


def rmem_probe(most):
    """Inside a fresh network namespace: loopback up, tcp_rmem's max set to `most` (0: the
    namespace's default), then the 10-year csv report's peak RSS (median of 3) against the
    foreign server and the sandbox, and its wall against the foreign server."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    if most:
        with open("/proc/sys/net/ipv4/tcp_rmem", "w") as f:
            f.write(f"4096 {min(most, 131072)} {most}")
    argv = [BIN, "report", "-c", "all", "-s", DECADE[0], "-e", DECADE[1], "-f", "csv"]
    with Sandbox(0) as sandbox, Foreign(sandbox) as foreign:
        r = alternate({"foreign": (argv, tool_env(foreign.url), False),
                       "sandbox": (argv, tool_env(sandbox.url), False)}, 3)
    print(r["foreign"][2], r["sandbox"][2], r["foreign"][0])


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
    # Linear in rows over a constant floor: the CPU each row adds from 1 to 1,000 days and
    # from 1,000 to 3,653 days are within 1.5 of each other (a cost growing with n per row
    # would show several times more in the second span).
    per_row = lambda a, z: (g[str(z)][1] - g[str(a)][1]) / (6 * (z - a))
    first, second = per_row(1, 1000), per_row(1000, 3653)
    bend = second / first if first > 0 else float("inf")
    checks.add("(g) growth 1 to 3,653 days: CPU per row added, 1,000-3,653 vs 1-1,000 days",
               f"{second * 1e6:.2f} vs {first * 1e6:.2f} us: {bend:.2f}x", bend, "<= 1.5x (linear)", 1.5)
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


def wire(runs, say, checks):
    """(f) bytes on the wire for the largest ten-year body."""
    f = wire_bytes(DECADE)
    say("## (f) bytes on the wire, official-account body, one chain, 10 years\n")
    say(f"- uncompressed: {f['identity']:,} bytes; gzip (what the tool asks for): {f['gzip']:,} bytes; "
        f"**{f['gzip'] / f['identity']:.2f}x**\n")
    checks.add("(f) bytes on the wire, ten-year official-account body",
               f"{f['gzip']:,} B gzip vs {f['identity']:,} B: {f['gzip'] / f['identity']:.2f}x")


SECTIONS = {"floor": floor_and_export, "b": concurrency, "e": cache, "c": decade, "g": growth,
            "f": wire, "h": attack.hostile, "m": attack.merge, "p": pictures.pictures,
            "q": postgres.postgres, "newcomer": newcomer.newcomer}
# Run by default; the rest only when named in --only (or --all).
DEFAULT = ("floor", "b", "e", "c", "g", "f", "h", "m", "p", "q")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", help="sections, comma-separated: " + ",".join(SECTIONS)
                        + f" (default: {','.join(DEFAULT)}; newcomer only when named or with --all)")
    parser.add_argument("--all", action="store_true", help="every section, the newcomer's included")
    parser.add_argument("--big", action="store_true", help="also merge a 1 GB file in section m")
    parser.add_argument("--markdown", metavar="FILE", help="also write the report and the table as Markdown to FILE")
    parser.add_argument("--rmem-probe", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rmem_probe is not None:
        return rmem_probe(args.rmem_probe)
    only = list(SECTIONS) if args.all else (args.only.split(",") if args.only else list(DEFAULT))
    unknown = [name for name in only if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {','.join(unknown)}: the sections are {','.join(SECTIONS)}")
    runs = args.runs
    for tool in ("curl", "jq"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is needed: apt-get install {tool}")
    if not os.environ.get("BENCH_BIN"):
        subprocess.run(["cargo", "build", "--profile", "dist", "--locked", "--quiet"], cwd=ROOT, check=True)
    attack.BIG = args.big
    out, checks = [], Checks()
    say = out.append
    load = lambda: " / ".join(f"{x:.2f}" for x in os.getloadavg())
    say(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, binary {BIN} "
        f"({commit()}); {runs} alternating runs for the floor and (a), {max(5, runs // 3)} for the rest, "
        f"medians. Sections: {','.join(only)}{' (1 GB merge included)' if args.big else ''}.\n")
    shown = 0
    for name in only:
        before = load()
        started = time.perf_counter()
        print(f"[bench] section {name}, load average {before}", file=sys.stderr, flush=True)
        try:
            SECTIONS[name](runs if name == "floor" else max(5, runs // 3), say, checks)
        except Exception as error:  # noqa: BLE001 (one section failing must not lose the others)
            say(f"## section {name}: not measured\n\n```\n{str(error).strip()[:3000]}\n```\n")
            checks.failed(name, error)
        say(f"_(section {name}: load average {before} before, {load()} after; "
            f"{time.perf_counter() - started:.0f} s)_\n")
        # Each section as it ends, so a run cut short keeps what it measured.
        print("\n".join(out[shown:]), flush=True)
        shown = len(out)
        write_markdown(args.markdown, out, checks)
    say(f"Load average after: {load()}.\n")
    print("\n".join(out[shown:]))
    write_markdown(args.markdown, out, checks)
    print("## Targets\n")
    print(checks.text())
    misses = sum(1 for row in checks if row[3] == "miss")
    print(f"\n{sum(1 for row in checks if row[3] == 'pass')} pass, {misses} miss", file=sys.stderr)


def write_markdown(path, out, checks):
    if path:
        with open(path, "w") as f:
            f.write("\n".join(out) + "\n## Targets\n\n" + checks.markdown() + "\n")


def commit():
    done = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True, text=True)
    return "commit " + done.stdout.strip() if done.returncode == 0 else "no git"


if __name__ == "__main__":
    main()
