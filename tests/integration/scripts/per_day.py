"""--per-day of a one-chain fees csv (date,fees) rolled up into calendar months, computed
independently of the tool with Python's decimal module: each month's sum of fees over the days
that have a value, rounded half to even to argv[1] decimals. One line per month: its first day,
the days covered, then the mean per day."""
import csv
import datetime
import sys
from decimal import ROUND_HALF_EVEN, Decimal, getcontext

getcontext().prec = 400
step = Decimal(1).scaleb(-int(sys.argv[1]))
reader = csv.reader(sys.stdin)
next(reader)
months = {}
for row in reader:
    day = datetime.date.fromisoformat(row[0])
    month = months.setdefault(day.replace(day=1), [Decimal(0), 0])
    if row[1]:
        month[0] += Decimal(row[1])
        month[1] += 1
for first in sorted(months):
    total, days = months[first]
    mean = format((total / days).quantize(step, rounding=ROUND_HALF_EVEN), "f")
    print(f"{first},{days},{mean}")
