"""A load-balancing worker with the Python standard library only.

RunPod runs any HTTP server on PORT with GET /ping on PORT_HEALTH (200 ready, 204 initialising).
Try it against the mock:  compute-contract mock --worker my-lb=examples/lb-workers/worker.py
then create an endpoint named my-lb of type LOAD_BALANCER and call /lb/<endpoint id>/generate.

INIT_PINGS (env): how many /ping requests answer 204 before the worker reports ready (default 0).
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PORT = int(os.environ.get("PORT", "80"))
PORT_HEALTH = int(os.environ.get("PORT_HEALTH", str(PORT)))
INIT_PINGS = int(os.environ.get("INIT_PINGS", "0"))
pings = 0
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # keep stderr for real problems
        pass

    def send_json(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def read_body(self):
        length = int(self.headers.get("content-length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        global pings
        url = urlsplit(self.path)
        if url.path == "/ping":
            with lock:
                pings += 1
                starting = pings <= INIT_PINGS
            if starting:
                self.send_response(204)
                self.end_headers()
            else:
                self.send_json(200, {"status": "healthy"})
            return
        if url.path == "/stream":
            self.send_response(200)
            self.send_header("content-type", "text/plain")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            for word in ["one ", "two ", "three"]:
                chunk = word.encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
                time.sleep(0.05)
            self.wfile.write(b"0\r\n\r\n")
            return
        if url.path == "/cut":
            # Closes the connection in the middle of its answer.
            self.wfile.write(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial")
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if url.path == "/close":
            # Closes the connection before answering at all.
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if url.path == "/hold":
            ms = int(parse_qs(url.query).get("ms", ["200"])[0])
            time.sleep(ms / 1000)
        self.send_json(200, {"pid": os.getpid(), "path": url.path, "query": parse_qs(url.query)})

    def do_POST(self):
        url = urlsplit(self.path)
        body = self.read_body()
        self.send_json(200, {
            "pid": os.getpid(),
            "method": "POST",
            "path": url.path,
            "query": parse_qs(url.query),
            "body": body.decode("utf-8", "replace"),
            "custom": self.headers.get("x-custom"),
            # Every header but the key (the conformance suite's echo contract: {method, path, query, headers, body});
            # whether a key arrived is said, never its value.
            "headers": {name.lower(): value for name, value in self.headers.items() if name.lower() != "authorization"},
            "authorization": "forwarded" if self.headers.get("authorization") else None,
            "endpoint": os.environ.get("RUNPOD_ENDPOINT_ID"),
            "greeting": os.environ.get("GREETING"),
        })


def main():
    server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    print(f"listening on {PORT} (health {PORT_HEALTH})", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
