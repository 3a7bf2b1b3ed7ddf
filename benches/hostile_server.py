#!/usr/bin/env python3
"""A hostile server for the benchmark: every answer is 3,000,000 tiny records.

Usage: python3 benches/hostile_server.py [plain|gzip] [COUNT] [hold]. It listens on 127.0.0.1
(a free port, printed on stdout as a URL) and answers every POST with COUNT (default 3,000,000)
records `{"date":"2024-01-01"}` in the shape of the endpoint asked (a bare array;
`{"data":[...]}` for the official account): 66,000,001 bytes, within the tool's 64 MiB cap on a
body. `gzip`: when the request says `Accept-Encoding: gzip` (the tool always does) the same
body goes gzip-compressed, its twin of a few hundred KB on the wire; `plain` never compresses.
`hold`: only the request whose window starts 2024-01-01 (the first of `fees -c eth -s
2024-01-01 --chunk-days 1`, the one that decides the run) is answered at once, and the moment
its body starts is printed on stdout as `deciding SECONDS` (time.time()); every other answer
waits 30 s first.
"""

import gzip
import http.server
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "gzip"
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 3_000_000
HOLD = len(sys.argv) > 3 and sys.argv[3] == "hold"
RECORD = b'{"date":"2024-01-01"}'


def bodies(count):
    array = b"[" + b",".join([RECORD] * count) + b"]"
    plain = {"array": array, "data": b'{"data":' + array + b"}"}
    if MODE == "plain":
        return plain, None
    return plain, {shape: gzip.compress(body, 9) for shape, body in plain.items()}


PLAIN, GZIP = bodies(COUNT)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        asked = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        deciding = b'"start_date":"2024-01-01"' in asked
        if HOLD and not deciding:
            time.sleep(30)
        shape = "data" if "official-account" in self.path else "array"
        compressed = GZIP is not None and "gzip" in self.headers.get("Accept-Encoding", "")
        body = (GZIP if compressed else PLAIN)[shape]
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if compressed:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if HOLD and deciding:
            print(f"deciding {time.time()}", flush=True)
        try:
            view = memoryview(body)
            for at in range(0, len(body), 1 << 16):
                self.wfile.write(view[at:at + (1 << 16)])
        except (BrokenPipeError, ConnectionResetError):
            # The tool stops reading once the records bound is passed.
            self.close_connection = True

    def log_message(self, *args):
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
