#!/usr/bin/env python3
"""What an analyst would write instead of the tool: one fees query to csv on stdout, with
`requests` and `csv`. Usage: export.py BASE_URL KEY START END (benches/bench.py runs it)."""

import csv
import sys

import requests

base, key, start, end = sys.argv[1:5]
answer = requests.post(f"{base}/api/chain-insights/fees", headers={"X-API-Key": key},
                       json={"chain": "ETHEREUM", "start_date": start, "end_date": end}, timeout=30)
answer.raise_for_status()
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["date", "fees"])
for record in answer.json():
    out.writerow([record["date"], record["fees"]])
