"""fees_per_user of a one-chain report csv (date,fees,active_users,...), computed independently
of the tool with Python's decimal module: argv = decimals."""
import csv
import sys
from decimal import ROUND_HALF_EVEN, Decimal, getcontext

getcontext().prec = 400
step = Decimal(1).scaleb(-int(sys.argv[1]))
reader = csv.reader(sys.stdin)
header = next(reader)
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(header[:2] + ["fees_per_user"] + header[2:])
for row in reader:
    fees, users = row[1], row[2]
    ratio = ""
    if fees and users and Decimal(users) != 0:
        ratio = format((Decimal(fees) / Decimal(users)).quantize(step, rounding=ROUND_HALF_EVEN), "f")
    out.writerow(row[:2] + [ratio] + row[2:])
