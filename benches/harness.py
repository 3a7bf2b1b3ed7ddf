"""What every section of benches/bench.py measures with: running a command (wall time around
it, CPU from wait4 for that process alone), its peak RSS (GNU /usr/bin/time), alternating
groups of commands with medians, the release binary's sandbox, the foreign server, and the
list of figures checked against their targets (the final table)."""

import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
# BENCH_BIN: measure that binary instead of building this tree's (e.g. an older commit's).
# Otherwise the `dist` profile's: the binary the packages and the published releases ship
# (fat LTO, one codegen unit), not the quick-to-build `release` a newcomer's `cargo run` makes.
BIN = os.environ.get("BENCH_BIN") or os.path.join(TARGET, "dist", "chain-metrics")
KEY = "bench-key-0000000000"
FEES = "/api/chain-insights/fees"
PATHS = [FEES, "/api/chain-insights/active_users", "/api/social-metrics/official-account"]
CHAINS = ["ETHEREUM", "ARBITRUM", "BSC", "OPTIMISM", "BASE", "POLYGON"]
HERE = os.path.dirname(os.path.abspath(__file__))
YEAR = ("2023-01-01", "2023-12-31")
DECADE = ("2015-01-01", "2024-12-31")


# Where a command's stdout goes: /dev/null opened write-only, as a shell's `> /dev/null` opens
# it. Not subprocess.DEVNULL: Python opens that read-write, which is what Rust's standard library
# puts in place of a stdout closed before the run (`>&-`), and the tool refuses to write its
# data to a closed stdout (exit 9).
DISCARD = open(os.devnull, "wb")


class Failed(Exception):
    """A benchmark command that did not end as expected: its section is reported as not
    measured (a miss in the table), and the other sections still run."""


def run(argv, env=None, shell=False, codes=(0,)):
    """Runs one command to completion; returns (wall seconds, cpu seconds)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=DISCARD, stderr=subprocess.PIPE, env=env, shell=shell)
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) not in codes:
        raise Failed(f"benchmark command failed ({os.waitstatus_to_exitcode(status)}): {argv}\n{err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def timed(argv, env=None, shell=False, codes=(0,), cwd=None):
    """One run under GNU /usr/bin/time: (wall s, cpu s, peak RSS KiB, exit code).

    The peak RSS is not this process's wait4: a child's ru_maxrss starts at the RSS of the
    process that forked it (Linux keeps the high-water mark across exec), so a command started
    from this Python process never shows less than this process's own size. /usr/bin/time is
    small."""
    with tempfile.NamedTemporaryFile(prefix="chain-metrics-bench-rss-") as out:
        command = ["sh", "-c", argv] if shell else argv
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", out.name] + command, env=env,
                              stdout=DISCARD, stderr=subprocess.PIPE, cwd=cwd)
        wall = time.perf_counter() - start
        if done.returncode not in codes:
            raise Failed(f"benchmark command failed ({done.returncode}): {argv}\n"
                         f"{done.stderr.decode(errors='replace')[-2000:]}")
        user, system, rss = out.read().decode().split()[-3:]
        return wall, float(user) + float(system), int(rss), done.returncode


def peak_rss(argv, env=None, shell=False, codes=(0,)):
    """The command's peak RSS in KiB (see `timed`)."""
    return timed(argv, env, shell, codes)[2]


def alternate(commands, runs, codes=(0,)):
    """Runs the commands in turn, `runs` rounds after one warm-up; medians per command of
    (wall, cpu, peak RSS KiB), the RSS from three more runs under /usr/bin/time."""
    for argv, env, shell in commands.values():
        run(argv, env, shell, codes)
    samples = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, env, shell) in commands.items():
            samples[name].append(run(argv, env, shell, codes))
    rss = {name: [] for name in commands}
    for _ in range(3):
        for name, (argv, env, shell) in commands.items():
            rss[name].append(peak_rss(argv, env, shell, codes))
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
        if not self.url:
            raise Failed(f"the sandbox did not start: {argv}")

    def close(self):
        import shutil
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


class Server:
    """A Python server of benches/ (foreign_server.py, hostile_server.py) on 127.0.0.1: it
    prints its URL on its first line."""

    def __init__(self, script, *args):
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, script), *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.url = self.proc.stdout.readline().decode().strip()
        if not self.url:
            raise Failed(f"{script} did not start")

    def close(self):
        self.proc.kill()
        self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


class Foreign(Server):
    """benches/foreign_server.py in front of a sandbox: the same records newest first, members
    reversed, never compressed."""

    def __init__(self, sandbox):
        super().__init__("foreign_server.py", sandbox.url)


def tool_env(url, **extra):
    return dict({"PATH": os.environ["PATH"], "HOME": "/nonexistent", "CHAIN_METRICS_BASE_URL": url,
                 "CHAIN_METRICS_API_KEY": KEY}, **extra)


def curl(url, path, chain, start, end, extra=""):
    body = f'{{"chain":"{chain}","start_date":"{start}","end_date":"{end}"}}'
    return (f"curl -sS --fail {extra} -X POST -H 'X-API-Key: {KEY}' "
            f"-H 'Content-Type: application/json' -d '{body}' '{url}{path}'")


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


class Checks(list):
    """Every figure of the run, each with its target: the final table."""

    def add(self, figure, measured, value=None, target="(figure)", limit=None, below=False):
        """`value` against `limit` (at most, or strictly below with `below`); a figure with no
        limit is shown with "-". `value` None with a limit: not measured, a miss."""
        if limit is None:
            verdict = "-"
        elif value is None:
            verdict = "miss"
        else:
            verdict = "pass" if (value < limit if below else value <= limit) else "miss"
        self.append((figure, measured, target, verdict))

    def failed(self, section, error):
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        self.append((f"section {section}", f"not measured: {first[:160]}", "runs", "miss"))

    def markdown(self):
        lines = ["| figure | measured | target | result |", "|---|---|---|---|"]
        for figure, measured, target, verdict in self:
            shown = f"**{verdict}**" if verdict == "miss" else verdict
            lines.append(f"| {figure} | {measured} | {target} | {shown} |")
        return "\n".join(lines)

    def text(self):
        rows = [("figure", "measured", "target", "result")] + [
            tuple(c.replace("\\|", "|").replace("`", "") for c in row) for row in self]
        widths = [min(70, max(len(r[i]) for r in rows)) for i in range(4)]
        out = []
        for n, row in enumerate(rows):
            out.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
            if n == 0:
                out.append("  ".join("-" * w for w in widths))
        return "\n".join(out)
