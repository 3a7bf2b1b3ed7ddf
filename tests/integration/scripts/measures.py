"""The derived measures of a long csv (date,chain,<metric>...), computed independently of the
tool with Python's decimal module: argv = start end decimals rolling chains metric."""
import csv
import datetime
import sys
from decimal import ROUND_HALF_EVEN, Decimal, getcontext

getcontext().prec = 400
start, end = (datetime.date.fromisoformat(a) for a in sys.argv[1:3])
decimals, rolling, chains, metric = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split(","), sys.argv[6]
rows = list(csv.DictReader(sys.stdin))
days = [start + datetime.timedelta(n) for n in range((end - start).days + 1)]
value = {(r["date"], r["chain"]): Decimal(r[metric]) for r in rows if r[metric] != ""}
step = Decimal(1).scaleb(-decimals)


def text(x):
    return "" if x is None else format(x, "f")


def rounded(x):
    return x.quantize(step, rounding=ROUND_HALF_EVEN)


def measures(chain, day):
    i = days.index(day)
    here = value.get((day.isoformat(), chain))
    prev = value.get((days[i - 1].isoformat(), chain)) if i > 0 else None
    change = here - prev if here is not None and prev is not None else None
    pct = rounded(change * 100 / abs(prev)) if change is not None and prev != 0 else None
    seen = [value[(d.isoformat(), chain)] for d in days[: i + 1] if (d.isoformat(), chain) in value]
    mean = rounded(sum(seen[-rolling:]) / rolling) if here is not None and len(seen) >= rolling else None
    upto = [value.get((d.isoformat(), chain)) for d in days[: i + 1]]
    cumulative = None if None in upto else sum(upto)
    others = [value.get((day.isoformat(), c)) for c in chains]
    total = None if None in others else sum(others)
    share = rounded(here * 100 / total) if here is not None and total else None
    return [change, pct, mean, cumulative, share]


out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["date", "chain", metric] + [metric + s for s in ["_change", "_change_pct", f"_rolling_{rolling}", "_cumulative", "_share_pct"]])
for r in rows:
    derived = measures(r["chain"], datetime.date.fromisoformat(r["date"]))
    out.writerow([r["date"], r["chain"], r[metric]] + [text(x) for x in derived])
