#!/usr/bin/env python3
"""A foreign server for the benchmark: the sandbox's answers in another order.

Usage: python3 benches/foreign_server.py SANDBOX_URL. It listens on 127.0.0.1 (a free port,
printed on stdout as a URL), forwards each POST to the sandbox uncompressed, and answers the
same records newest first, with each record's members in reverse order (`"quote":0, ...,
"date":"..."`), never gzip-compressed: the shape SERVICE.md allows and the sandbox never sends.
Number texts are kept exactly as the sandbox wrote them, so the tool's output must not change.
"""

import decimal
import http.server
import json
import sys
import urllib.request

UPSTREAM = sys.argv[1] if len(sys.argv) > 1 else ""
ANSWERS = {}


def value(v):
    if v is None:
        return "null"
    if isinstance(v, (decimal.Decimal, int)) and not isinstance(v, bool):
        return str(v)
    return json.dumps(v)


def record(members):
    return "{" + ",".join(f"{json.dumps(k)}:{value(v)}" for k, v in reversed(list(members.items()))) + "}"


def reorder(body):
    """The same body, records newest first and members reversed."""
    top = json.loads(body, parse_float=decimal.Decimal)
    records = top["data"] if isinstance(top, dict) else top
    array = "[" + ",".join(record(r) for r in reversed(records)) + "]"
    return ('{"data":' + array + "}" if isinstance(top, dict) else array).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        sent = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        key = (self.path, sent)
        if key not in ANSWERS:
            request = urllib.request.Request(UPSTREAM + self.path, data=sent, method="POST", headers={
                "X-API-Key": self.headers.get("X-API-Key", ""),
                "Content-Type": "application/json", "Accept-Encoding": "identity"})
            with urllib.request.urlopen(request) as answer:
                ANSWERS[key] = reorder(answer.read())
        body = ANSWERS[key]
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
