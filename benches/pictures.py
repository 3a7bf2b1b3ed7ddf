"""(p) Pictures: the ten-year `report -c all` page (-f html) and svg, their size and the time
to write them; headless Chromium opening the ten-year page against a 90-day one; `render FILE`
of a ten-year export against drawing the same from the query's warm cache."""

import os
import shutil
import subprocess
import tempfile

from harness import BIN, DECADE, Failed, Sandbox, alternate, ms, tool_env

# The browser the picture tests open pages in (tests/integration/pictures/browser.rs), with
# the same flags.
BROWSERS = ("chromium-headless-shell", "chromium")
BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
QUARTER = ("2024-10-03", "2024-12-31")


def browser(page, profile):
    name = next((b for b in BROWSERS if shutil.which(b)), None)
    if name is None:
        raise Failed("no headless Chromium: apt-get install chromium-headless-shell")
    return [name, *BROWSER_FLAGS, f"--user-data-dir={profile}", "--dump-dom", f"file://{page}"]


def pictures(runs, say, checks):
    folder = tempfile.mkdtemp(prefix="chain-metrics-bench-pictures-")
    try:
        with Sandbox(0) as sandbox:
            measure(folder, sandbox, runs, say, checks)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure(folder, sandbox, runs, say, checks):
    env = tool_env(sandbox.url, XDG_CACHE_HOME=os.path.join(folder, "cache"),
                   SOURCE_DATE_EPOCH="1700000000")
    report = lambda span: [BIN, "report", "-c", "all", "-s", span[0], "-e", span[1]]
    files = {name: os.path.join(folder, name) for name in
             ("decade.html", "decade.svg", "quarter.html", "quarter.svg", "export.csv", "rendered.html",
              "cached.html")}
    # Written once to have them, then timed, alternating.
    for name, span in (("decade.html", DECADE), ("decade.svg", DECADE), ("quarter.html", QUARTER),
                       ("quarter.svg", QUARTER)):
        subprocess.run(report(span) + ["-o", files[name]], env=env, check=True, capture_output=True)
    subprocess.run(report(DECADE) + ["-f", "csv", "-o", files["export.csv"]], env=env, check=True)
    subprocess.run(report(DECADE) + ["-f", "html", "--cache", "-o", files["cached.html"]], env=env, check=True)
    written = alternate({
        "html": (report(DECADE) + ["-o", files["decade.html"]], env, False),
        "svg": (report(DECADE) + ["-o", files["decade.svg"]], env, False),
    }, runs)
    drawn = alternate({
        "render": ([BIN, "render", files["export.csv"], "-f", "html", "-o", files["rendered.html"]], env, False),
        "cache": (report(DECADE) + ["-f", "html", "--cache", "-o", files["cached.html"]], env, False),
    }, runs)
    profile = os.path.join(folder, "profile")
    opened = alternate({
        "decade": (browser(files["decade.html"], profile), {"PATH": os.environ["PATH"], "HOME": folder}, False),
        "quarter": (browser(files["quarter.html"], profile), {"PATH": os.environ["PATH"], "HOME": folder}, False),
    }, runs)
    size = {name: os.path.getsize(files[name]) for name in ("decade.html", "decade.svg", "quarter.html", "quarter.svg")}
    say("## (p) pictures: `report -c all` over ten years as a page and an svg\n")
    say("| what | bytes | wall | tool CPU | peak RSS |\n|---|---|---|---|---|")
    for name, key in (("decade.html", "html"), ("decade.svg", "svg")):
        wall, cpu, rss = written[key]
        say(f"| `-f {key} -o`, 10 years | {size[name]:,} | {ms(wall)} | {ms(cpu)} | {rss / 1024:.1f} MiB |")
    say(f"| 90-day page ({QUARTER[0]} to {QUARTER[1]}) | {size['quarter.html']:,} | | | |")
    say(f"| 90-day svg, six chains | {size['quarter.svg']:,} | | | |")
    say("")
    say(f"Headless Chromium (`{browser('x', 'y')[0]} --dump-dom`, the tests' flags), wall: ten-year page "
        f"{ms(opened['decade'][0])}, 90-day page {ms(opened['quarter'][0])}.\n")
    say(f"`render export.csv -f html` (ten-year csv export, {os.path.getsize(files['export.csv']):,} B): "
        f"{ms(drawn['render'][0])}; the query drawn from its warm cache (`--cache`): {ms(drawn['cache'][0])}.\n")
    for name, key in (("decade.html", "html"), ("decade.svg", "svg")):
        checks.add(f"(p) ten-year {key}, size", f"{size[name]:,} B", size[name], "<= 2 MB", 2_000_000)
        checks.add(f"(p) ten-year {key}, written (-o) in", ms(written[key][0]), written[key][0], "< 0.5 s", 0.5,
                   below=True)
    checks.add("(p) 90-day six-chain svg, size", f"{size['quarter.svg']:,} B", size["quarter.svg"],
               "<= 250 KB", 250_000)
    ratio = opened["decade"][0] / opened["quarter"][0]
    checks.add("(p) Chromium opening the ten-year page vs a 90-day page",
               f"{ms(opened['decade'][0])} vs {ms(opened['quarter'][0])}: {ratio:.2f}x", ratio, "<= 2.5x", 2.5)
    ratio = drawn["render"][0] / drawn["cache"][0]
    checks.add("(p) render FILE -f html (ten-year export) vs the query from its warm cache",
               f"{ms(drawn['render'][0])} vs {ms(drawn['cache'][0])}: {ratio:.2f}x", ratio, "<= 1.5x", 1.5)
