"""(q) PostgreSQL: the ten-year `report -c all` upserted into a table with `-o postgresql://…
--merge`, against the glue it replaces (the same report written as csv, `\\copy` into a staging
table and upserted from there with `INSERT … ON CONFLICT DO UPDATE`, in one transaction, as
docs/postgresql.md's "before" describes). Both upsert into a table already holding every row (a
cron day's worst case: every value rewritten), on a throw-away cluster on a Unix socket
(Debian's postgresql; initdb and the server run as `nobody` when the benchmark runs as root)."""

import glob
import os
import shutil
import subprocess
import tempfile

from harness import BIN, DECADE, Failed, Sandbox, alternate, ms, tool_env

COLUMNS = ("fees", "active_users", "reply", "retweet", "tweet", "quote")


def server_bin():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if not found:
        raise Failed("no PostgreSQL server: apt-get install postgresql")
    return os.path.dirname(found[-1])


class Cluster:
    """initdb + pg_ctl in a folder of its own, on a socket there, trusting local users."""

    def __init__(self):
        self.bin = server_bin()
        self.dir = tempfile.mkdtemp(prefix="chain-metrics-bench-pg-")
        self.as_server = []
        if os.geteuid() == 0:
            os.chown(self.dir, 65534, 65534)
            self.as_server = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        data = os.path.join(self.dir, "data")
        self.server("initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync")
        options = f"-k {self.dir} -c listen_addresses= -c fsync=off"
        self.server("pg_ctl", "-D", data, "-l", os.path.join(self.dir, "log"), "-w", "-o", options, "start")
        self.psql("CREATE DATABASE metrics", database="postgres")

    def server(self, program, *args):
        subprocess.run(self.as_server + [os.path.join(self.bin, program), *args], check=True,
                       cwd=self.dir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def env(self, base):
        return dict(base, PGHOST=self.dir, PGUSER="postgres", PGDATABASE="metrics")

    def psql(self, sql, database="metrics"):
        subprocess.run([os.path.join(self.bin, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1",
                        "-h", self.dir, "-U", "postgres", "-d", database, "-c", sql], check=True,
                       stdout=subprocess.DEVNULL)

    def close(self):
        try:
            self.server("pg_ctl", "-D", os.path.join(self.dir, "data"), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def postgres(runs, say, checks):
    folder = tempfile.mkdtemp(prefix="chain-metrics-bench-postgres-")
    cluster = None
    try:
        cluster = Cluster()
        with Sandbox(0) as sandbox:
            measure(cluster, folder, sandbox, runs, say, checks)
    finally:
        if cluster:
            cluster.close()
        shutil.rmtree(folder, ignore_errors=True)


def measure(cluster, folder, sandbox, runs, say, checks):
    env = cluster.env(tool_env(sandbox.url, XDG_CACHE_HOME=os.path.join(folder, "cache")))
    report = [BIN, "report", "-c", "all", "-s", DECADE[0], "-e", DECADE[1]]
    merge = report + ["-o", "postgresql:///metrics", "--merge"]
    csv = os.path.join(folder, "report.csv")
    cells = ", ".join(f"{c} numeric" for c in COLUMNS)
    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in COLUMNS)
    psql = os.path.join(cluster.bin, "psql")
    # The glue: the csv export, then one psql session: \copy into a temporary staging table and
    # upsert into the table the tool made (its columns; the tool's own table is the target).
    glue_sql = (
        "BEGIN;\n"
        f"CREATE TEMP TABLE staging (date date, chain text, {cells}) ON COMMIT DROP;\n"
        f"\\copy staging FROM '{csv}' WITH (FORMAT csv, HEADER)\n"
        f"INSERT INTO glued SELECT * FROM staging ON CONFLICT (date, chain) DO UPDATE SET {updates};\n"
        "COMMIT;\n"
    )
    script = os.path.join(folder, "glue.sql")
    with open(script, "w") as f:
        f.write(glue_sql)
    glue = (f"{' '.join(report)} -o {csv} && {psql} -X -q -v ON_ERROR_STOP=1 -f {script}")
    # Both tables full before the timed runs: the first merge makes the tool's; the glue's is a
    # copy of it, with the same key.
    subprocess.run(merge, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cluster.psql("CREATE TABLE glued (LIKE report INCLUDING ALL); INSERT INTO glued SELECT * FROM report")
    result = alternate({"tool": (merge, env, False), "glue": (glue, env, True)}, runs)
    tool, glued = result["tool"][0], result["glue"][0]
    say("## (q) PostgreSQL: ten-year report upserted into a full table\n")
    say(f"- `report -c all` over {DECADE[0]}..{DECADE[1]} (21,918 rows) with "
        f"`-o postgresql:///metrics --merge`: {ms(tool)}; the glue (csv export, then `\\copy` into a "
        f"staging table and `INSERT … ON CONFLICT DO UPDATE`, one transaction): {ms(glued)}; "
        f"**{tool / glued:.2f}x**\n")
    checks.add("(q) ten-year report --merge into PostgreSQL vs csv + psql \\copy + upsert",
               f"{ms(tool)} vs {ms(glued)}: {tool / glued:.2f}x", tool / glued, "<= 2x", 2.0)
