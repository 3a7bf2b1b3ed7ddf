"""Rows of a csv sorted by one column's exact decimal value (gaps last, ties in their order),
then cut to the first N, independently of the tool: argv = column desc|asc N."""
import csv
import sys
from decimal import Decimal

column, direction, top = sys.argv[1], sys.argv[2], int(sys.argv[3])
reader = csv.DictReader(sys.stdin)
rows = list(reader)
valued = [r for r in rows if r[column] != ""]
gaps = [r for r in rows if r[column] == ""]
valued.sort(key=lambda r: Decimal(r[column]), reverse=direction == "desc")
out = csv.DictWriter(sys.stdout, reader.fieldnames, lineterminator="\n")
out.writeheader()
out.writerows((valued + gaps)[:top])
