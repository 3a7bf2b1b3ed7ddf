"""Under attack: (h) a hostile body of 3,000,000 tiny records and its gzip twin at --jobs 1, 8
and 32, against the memory bound the tests hold; (m) merging into a 10 MB, 100 MB (and, with
--big, 1 GB) export file: peak RSS against twice the file's size, time per row."""

import datetime
import os
import re
import shutil
import statistics
import tempfile
import time

from harness import BIN, CHAINS, ROOT, Failed, Sandbox, Server, mib, ms, timed, tool_env

BIG = False
JOBS = (1, 8, 32)
# fees: 32 days, a request a day; report: 2 days of 18 requests each, 36 requests.
HOSTILE = {
    "fees": ["fees", "-c", "eth", "-s", "2024-01-01", "-e", "2024-02-01"],
    "report": ["report", "-c", "all", "-s", "2024-01-01", "-e", "2024-01-02"],
}


def stated_bound():
    """The peak RSS bound (KiB) a run against a hostile body must stay under, and where it is
    stated: the docs' "stays under N MiB at any `--jobs`" (docs/*.md) where they state one,
    else the bound tests/integration/wire/bounded.rs holds (`PEAK_KIB`)."""
    docs = os.path.join(ROOT, "docs")
    for name in sorted(os.listdir(docs)):
        if name.endswith(".md"):
            text = open(os.path.join(docs, name)).read()
            found = re.search(r"stays under \**([0-9]+) MiB at any `--jobs`", text)
            if found:
                return int(found.group(1)) * 1024, f"docs/{name}"
    test = "tests/integration/wire/bounded.rs"
    text = open(os.path.join(ROOT, test)).read()
    found = re.search(r"const PEAK_KIB[^=]*=\s*([0-9_]+)(?:\s*\*\s*([0-9_]+))?\s*;", text)
    if not found:
        raise Failed("no memory bound stated in docs/*.md nor PEAK_KIB in " + test)
    return int(found.group(1).replace("_", "")) * int((found.group(2) or "1").replace("_", "")), f"{test} `PEAK_KIB`"


def hostile(runs, say, checks):
    """(h) report and fees, --chunk-days 1, at --jobs 1, 8 and 32, against a server whose every
    answer is 3,000,000 records `{"date":"2024-01-01"}` (66 MB), plain and gzip; the worst
    peak RSS of three runs each (the tool refuses the answer: exit 8)."""
    bound, source = stated_bound()
    results = {}
    for mode in ("plain", "gzip"):
        with Server("hostile_server.py", mode) as server:
            env = tool_env(server.url)
            for command, words in HOSTILE.items():
                for jobs in JOBS:
                    argv = [BIN, *words, "--chunk-days", "1", "--jobs", str(jobs), "--retries", "0", "-f", "csv"]
                    samples = [timed(argv, env, codes=(0, 8)) for _ in range(3)]
                    results[(command, jobs, mode)] = (
                        max(s[2] for s in samples), statistics.median(s[0] for s in samples),
                        sorted({s[3] for s in samples}))
    say("## (h) under attack: 3,000,000 tiny records a body (66 MB; gzip twin), `--chunk-days 1`\n")
    say(f"Bound: {mib(bound)} peak RSS, as stated in {source}. Worst of 3 runs.\n")
    say("| command | --jobs | body | peak RSS | wall | exit |\n|---|---|---|---|---|---|")
    for (command, jobs, mode), (rss, wall, codes) in results.items():
        say(f"| {command} | {jobs} | {mode} | {mib(rss)} | {ms(wall)} | {','.join(map(str, codes))} |")
    say("")
    for command in HOSTILE:
        for jobs in JOBS:
            plain, compressed = results[(command, jobs, "plain")], results[(command, jobs, "gzip")]
            worst = max(plain[0], compressed[0])
            checks.add(f"(h) hostile body, {command} --jobs {jobs}, peak RSS (plain / gzip)",
                       f"{mib(plain[0])} / {mib(compressed[0])}", worst, f"< {mib(bound)}", bound, below=True)
    decided(say, checks)
    # Stop at once (issue 45): a refused run ends within 100 ms of the deciding answer. The
    # deciding answer is the first body's refusal, as at --jobs 1; the wall beyond --jobs 1's is
    # an upper bound on the time after it (it also holds the server's slower first body while it
    # sends 8 or 32 at once).
    for command in HOSTILE:
        for jobs in JOBS[1:]:
            beyond = [results[(command, jobs, m)][1] - results[(command, 1, m)][1] for m in ("plain", "gzip")]
            checks.add(f"(h) refused run, {command} --jobs {jobs}, wall beyond --jobs 1's (plain / gzip)",
                       f"{ms(beyond[0])} / {ms(beyond[1])}", max(beyond), "<= 100.0 ms", 0.1)


def decided(say, checks, runs=5):
    """Stop at once (issue 45), measured directly: `fees` over 32 days at `--jobs 32`, the
    hostile server in `hold` mode (only the first window's answer comes; the 31 others wait
    30 s), without and with `--keep-going` (one chain: its failure decides that run too). The
    time from the moment the deciding body starts (the server's clock) to the tool's exit (this
    process's: the same machine's time.time()), median of `runs`."""
    argv = [BIN, *HOSTILE["fees"], "--chunk-days", "1", "--jobs", "32", "--retries", "0", "-f", "csv"]
    gaps = {}
    with Server("hostile_server.py", "plain", "3000000", "hold") as server:
        env = tool_env(server.url)
        for name, extra in (("fees", []), ("fees --keep-going", ["--keep-going"])):
            samples = []
            for _ in range(runs):
                timed(argv + extra, env, codes=(8,))
                ended = time.time()
                line = server.proc.stdout.readline().decode().split()
                if len(line) != 2 or line[0] != "deciding":
                    raise Failed(f"the hostile server did not say when it answered: {line}")
                samples.append(ended - float(line[1]))
            gaps[name] = (statistics.median(samples), max(samples))
    say("Stop at once: `fees` over 32 days at `--jobs 32`, 31 answers held 30 s, the first "
        f"refused; from the deciding body's start to the exit, median (worst) of {runs}:\n")
    for name, (median, worst) in gaps.items():
        say(f"- {name}: {ms(median)} ({ms(worst)})")
        checks.add(f"(h) refused run, {name} --jobs 32, deciding answer to exit (31 held)",
                   ms(median), median, "<= 100.0 ms", 0.1)
    say("")


def merge_file(path, rows, width):
    """An export in the tool's csv layout for `report -c all` (`date,chain,fees,active_users,
    reply,retweet,tweet,quote`, rows by date then chain in the tool's order), `rows` rows from
    2015-01-08 on, each value's number text `width` digits long (the tool keeps number texts as
    the service sent them). Dates are bounded (2015-01-01 to today), so a big file needs long
    rows: the calendar holds at most 6 rows a day."""
    digits = ("1234567890" * (width // 10 + 1))[:width]
    counts = ",".join([digits] * 4)
    day = datetime.date(2015, 1, 8)
    with open(path, "w") as out:
        out.write("date,chain,fees,active_users,reply,retweet,tweet,quote\n")
        written = 0
        while written < rows:
            for chain in CHAINS[: rows - written]:
                out.write(f"{day},{chain},{written}.{digits},{digits},{counts}\n")
                written += 1
            day += datetime.timedelta(days=1)


def merge_runs(env, folder, rows, width, runs):
    """Merges `report -c all` of 2015-01-01..07 (42 rows, new) into a file of `rows` rows:
    one run to add them, then `runs` timed runs; (size, wall, cpu, worst peak RSS KiB)."""
    path = os.path.join(folder, f"merge-{rows}.csv")
    merge_file(path, rows, width)
    argv = [BIN, "report", "-c", "all", "-s", "2015-01-01", "-e", "2015-01-07", "-o", path, "--merge"]
    timed(argv, env)
    size = os.path.getsize(path)
    samples = [timed(argv, env) for _ in range(runs)]
    os.remove(path)
    return (size, statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples),
            max(s[2] for s in samples))


def merge(runs, say, checks):
    """(m) --merge into an existing export of 10 MB, 100 MB and (--big) 1 GB."""
    # Rows 45.6 KB long, so that the decade's 21,918 rows are 1 GB: the sizes differ by rows.
    width = 7_600
    sizes = {"10 MB": 219, "100 MB": 2_192} | ({"1 GB": 21_918} if BIG else {})
    folder = tempfile.mkdtemp(prefix="chain-metrics-bench-merge-")
    try:
        with Sandbox(0) as sandbox:
            env = tool_env(sandbox.url)
            floor = merge_runs(env, folder, 1, width, runs)
            results = {}
            for label, rows in sizes.items():
                if label == "1 GB":
                    projected = results["100 MB"][3] * 10
                    if projected > 0.6 * available_kib():
                        results[label] = None
                        checks.add("(m) merge into a 1 GB file", f"not run: projected {mib(projected)} peak, "
                                   f"{mib(available_kib())} available", None, "<= 2x file size", 2)
                        continue
                results[label] = merge_runs(env, folder, rows, width, runs if rows < 10_000 else 2)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    say("## (m) `report -c all -s 2015-01-01 -e 2015-01-07 -o FILE --merge` into a big export\n")
    say(f"Rows of {width}-digit number texts (about {(6 * width + 60) / 1000:.1f} KB a row): dates "
        "before 2015 or after today are refused in a merge file, so the calendar holds at most "
        "6 rows a day and a big file needs long rows; the sizes differ by their rows. Per-row "
        "time: wall above the one-row file's, over the rows.\n")
    say("| file | rows | bytes | wall | CPU | peak RSS | RSS / size | per row (wall) |\n"
        "|---|---|---|---|---|---|---|---|")
    per_row = {}
    for label, rows in {"1 row": 1, **sizes}.items():
        r = floor if label == "1 row" else results.get(label)
        if r is None:
            continue
        size, wall, cpu, rss = r
        per_row[label] = (wall - floor[1]) / rows if rows > 1 else None
        shown = f"{per_row[label] * 1e6:.1f} us" if per_row[label] is not None else "-"
        say(f"| {label} | {rows:,} | {size:,} | {ms(wall)} | {ms(cpu)} | {mib(rss)} | "
            f"{rss * 1024 / size:.2f}x | {shown} |")
        if rows > 1:
            checks.add(f"(m) merge into a {label} file, peak RSS", f"{mib(rss)} for {size / 1e6:.0f} MB: "
                       f"{rss * 1024 / size:.2f}x", rss * 1024 / size, "<= 2x file size", 2)
    say("")
    measured = [label for label in sizes if per_row.get(label)]
    if len(measured) >= 2:
        first, last = per_row[measured[0]], per_row[measured[-1]]
        checks.add(f"(m) merge time per row, {measured[-1]} vs {measured[0]}",
                   " / ".join(f"{per_row[m] * 1e6:.1f} us" for m in measured) + f": {last / first:.2f}x",
                   last / first, "<= 1.5x (linear)", 1.5)


def available_kib():
    for line in open("/proc/meminfo"):
        if line.startswith("MemAvailable:"):
            return int(line.split()[1])
    return 0
