"""(n) The newcomer's commands, each from a fresh `git clone` of this tree (its committed HEAD)
with an empty target folder: the README's first command with the cargo registry as it is on
this machine, the same with an empty CARGO_HOME (every crate downloaded from crates.io first),
`cargo install --locked --path .` into a scratch root, and the test command, `.ci/test`; where
the time goes. Slow (minutes): run only when named (`--only newcomer`) or with `--all`."""

import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time

from harness import ROOT, Failed


def readme_first_command():
    """The README's first command, as it stands (its first ```sh block)."""
    readme = open(os.path.join(ROOT, "README.md")).read()
    block = re.search(r"```sh\n(.*?)\n", readme)
    if not block:
        raise Failed("README.md has no ```sh block")
    return shlex.split(block.group(1))


FIRST = readme_first_command()


def clone(folder):
    path = os.path.join(folder, "chain-metrics")
    subprocess.run(["git", "clone", "--quiet", ROOT, path], check=True)
    return path


def env_for(path, cargo_home=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHAIN_METRICS") and k != "RUST_BACKTRACE"}
    env["CARGO_TARGET_DIR"] = os.path.join(path, "target")
    if cargo_home:
        # An empty cargo home: no registry index, no crate sources. rustup's toolchains stay
        # where RUSTUP_HOME says (not under CARGO_HOME), so `cargo` still finds its compiler.
        os.makedirs(cargo_home, exist_ok=True)
        env["CARGO_HOME"] = cargo_home
        env.setdefault("RUSTUP_HOME", os.path.expanduser("~/.rustup"))
    return env


def timed_lines(argv, cwd, env, limit):
    """Runs `argv`, stdout and stderr together; (wall, exit code, [(seconds in, line)])."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = []
    for raw in proc.stdout:
        lines.append((time.perf_counter() - start, raw.decode(errors="replace").rstrip()))
        if time.perf_counter() - start > limit:
            proc.kill()
            break
    code = proc.wait()
    return time.perf_counter() - start, code, lines


def slowest_units(path, count=6):
    """The longest compile units of cargo's --timings report: [(name, seconds)]."""
    report = os.path.join(path, "target", "cargo-timings", "cargo-timing.html")
    text = open(report).read()
    found = re.search(r"const UNIT_DATA = (\[.*?\]);\n", text, re.S)
    if not found:
        return []
    units = json.loads(found.group(1))
    units.sort(key=lambda u: -u["duration"])
    named = lambda u: u["name"] + (f" ({u['target'].strip()})" if u.get("target", "").strip() else "")
    return [(named(u), u["duration"]) for u in units[:count]]


def first_command(folder, cargo_home=None):
    path = clone(folder)
    # --timings only adds cargo's report of where the time went (target/cargo-timings).
    # Before the `--` that ends cargo's own arguments.
    at = FIRST.index("--")
    argv = FIRST[:at] + ["--timings"] + FIRST[at:]
    wall, code, lines = timed_lines(argv, path, env_for(path, cargo_home), 1800)
    if code != 0:
        raise Failed("the README's first command failed:\n" + "\n".join(l for _, l in lines[-15:]))
    built = next((t for t, l in lines if "Running `" in l), wall)
    return wall, built, slowest_units(path)


def install(folder):
    """`cargo install --locked --path .` from a fresh clone into a scratch root: (wall, size)."""
    path = clone(folder)
    root = os.path.join(folder, "root")
    argv = ["cargo", "install", "--locked", "--quiet", "--path", ".", "--root", root]
    wall, code, lines = timed_lines(argv, path, env_for(path), 1800)
    if code != 0:
        raise Failed("cargo install failed:\n" + "\n".join(l for _, l in lines[-15:]))
    return wall, os.path.getsize(os.path.join(root, "bin", "chain-metrics"))


def test_command(folder):
    path = clone(folder)
    wall, code, lines = timed_lines([".ci/test"], path, env_for(path), 3600)
    if code != 0:
        raise Failed(".ci/test failed:\n" + "\n".join(l for _, l in lines[-15:]))
    compiling = next((t for t, l in lines if l.strip().startswith("Compiling ")), 0.0)
    finished = next((t for t, l in lines if "Finished `test` profile" in l), compiling)
    passed = sum(int(m.group(1)) for _, l in lines for m in [re.search(r"test result: ok\. (\d+) passed", l)] if m)
    return wall, compiling, finished, passed


def newcomer(runs, say, checks):
    """Each figure is said as soon as it is measured, so that one command failing (a test of
    `.ci/test`) loses none of the others."""
    folder = tempfile.mkdtemp(prefix="chain-metrics-bench-newcomer-")
    jobs = os.environ.get("CARGO_BUILD_JOBS", f"unset ({os.cpu_count()} cores)")
    fresh = lambda: (shutil.rmtree(folder, ignore_errors=True), os.makedirs(folder))
    say("## (n) the newcomer's commands, each from a fresh clone, empty target folder\n")
    say(f"CARGO_BUILD_JOBS {jobs}; the cargo registry already on the machine unless said.\n")
    try:
        load = os.getloadavg()[0]
        wall, built, units = first_command(folder)
        say(f"- README's first command `{' '.join(FIRST)}`: **{wall:.0f} s** (build {built:.0f} s, then "
            f"the run); load average {load:.2f} at its start. Slowest units (`--timings`): "
            + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in units) + ".")
        checks.add("(n) README's first command from a clean clone", f"{wall:.0f} s (build {built:.0f} s)",
                   wall, "<= 100 s (quiet machine)", 100)
        fresh()
        load = os.getloadavg()[0]
        cold, cold_built, _ = first_command(folder, cargo_home=os.path.join(folder, "cargo-home"))
        say(f"- the same with an empty CARGO_HOME (crates downloaded first): **{cold:.0f} s** (build "
            f"{cold_built:.0f} s); load average {load:.2f} at its start.")
        checks.add("(n) the same, crates not yet downloaded", f"{cold:.0f} s (build {cold_built:.0f} s)",
                   cold, "<= 150 s (quiet machine)", 150)
        fresh()
        load = os.getloadavg()[0]
        installed, size = install(folder)
        say(f"- `cargo install --locked --path .`: **{installed:.0f} s**, a {size / 1024 / 1024:.2f} MiB "
            f"binary; load average {load:.2f} at its start.")
        checks.add("(n) cargo install --locked --path .", f"{installed:.0f} s", installed,
                   "<= 100 s (quiet machine)", 100)
        fresh()
        load = os.getloadavg()[0]
        test_wall, setup, build_done, passed = test_command(folder)
        say(f"- `.ci/test`: **{test_wall:.0f} s**: packages and venv {setup:.0f} s, compile "
            f"{build_done - setup:.0f} s, the tests {test_wall - build_done:.0f} s ({passed} passed); load "
            f"average {load:.2f} at its start.\n")
        checks.add("(n) .ci/test from a clean clone",
                   f"{test_wall / 60:.1f} min (setup {setup:.0f} s, compile {build_done - setup:.0f} s, "
                   f"tests {test_wall - build_done:.0f} s)", test_wall, "<= 4 min", 240)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
