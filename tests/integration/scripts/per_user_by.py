"""fees_per_user of a one-chain report csv (date,fees,active_users,...) rolled up into ISO weeks,
computed independently of the tool with Python's decimal module: each week's fees over the exact
mean of its daily actives (argv[1] = decimals), and, when argv[2] is `rounded`, over that mean
rounded half to even to a whole number first (the figure a wrong division would give). One
line per week: its Monday, then the value (empty when the week has no fees or no actives)."""
import csv
import datetime
import sys
from decimal import ROUND_HALF_EVEN, Decimal, getcontext

getcontext().prec = 400
step = Decimal(1).scaleb(-int(sys.argv[1]))
rounded = len(sys.argv) > 2 and sys.argv[2] == "rounded"
reader = csv.reader(sys.stdin)
next(reader)
weeks = {}
for row in reader:
    day = datetime.date.fromisoformat(row[0])
    monday = day - datetime.timedelta(days=day.weekday())
    week = weeks.setdefault(monday, [Decimal(0), 0, Decimal(0), 0])
    if row[1]:
        week[0] += Decimal(row[1])
        week[1] += 1
    if row[2]:
        week[2] += Decimal(row[2])
        week[3] += 1
for monday in sorted(weeks):
    fees, fee_days, users, user_days = weeks[monday]
    ratio = ""
    if fee_days and user_days and users != 0:
        mean = users / user_days
        if rounded:
            mean = mean.quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
        ratio = format((fees / mean).quantize(step, rounding=ROUND_HALF_EVEN), "f")
    print(f"{monday},{ratio}")
