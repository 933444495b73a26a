#!/usr/bin/env python3
"""The server of the streaming benchmarks (Sources/StreamingBench): Python's standard library only,
on a free port of 127.0.0.1. Prints "READY <port>" and serves until standard input closes.

  /sse/timed?count=&every=   `count` events `every` seconds apart, each carrying its send time
                             (time.time(), taken just before the write and flush)
  /sse/fast?count=           `count` small events as fast as the socket takes them
  /sse/one-write?count=      `count` small events, each in a write and flush of its own (how LLM
                             token streams arrive)
  /bytes/endless/KEY         zeros in 1 MiB writes as fast as the socket takes them, until the
                             client goes away; /closed/KEY then also says how many bytes were sent
  /jsonl?mb=                 about `mb` MiB of JSON Lines, as fast as the socket takes them
  /download?mb=              `mb` MiB of zeros with Content-Length
  /sse/endless/KEY           an event every 10 ms until the client goes away; /closed/KEY answers
                             {"closed": bool, "at": the time the server saw the connection closed}
"""
import json
import socket
import select
import os
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CLOSED = {}
SENT = {}
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def head(self, content_type, length=None):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        if length is None:
            self.close_connection = True
        else:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def do_GET(self):
        split = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(split.query)
        arg = lambda name, default: query.get(name, [default])[0]
        path = split.path
        try:
            if path == "/sse/timed":
                self.head("text/event-stream")
                every = float(arg("every", "0.02"))
                for n in range(int(arg("count", "100"))):
                    self.wfile.write(b'data: {"n": %d, "sent": %.6f}\n\n' % (n, time.time()))
                    self.wfile.flush()
                    time.sleep(every)
            elif path == "/sse/fast":
                self.head("text/event-stream")
                count = int(arg("count", "100000"))
                for start in range(0, count, 1000):
                    self.wfile.write(b"".join(b'id: %d\ndata: {"n": %d, "name": "event number %d"}\n\n' % (n, n, n)
                                              for n in range(start, min(start + 1000, count))))
                self.wfile.flush()
            elif path == "/sse/one-write":
                self.head("text/event-stream")
                for n in range(int(arg("count", "100000"))):
                    self.wfile.write(b'data: {"n": %d, "name": "token %d"}\n\n' % (n, n))
                    self.wfile.flush()
            elif path.startswith("/bytes/endless/"):
                key = path.rsplit("/", 1)[1]
                self.head("application/octet-stream")
                block = bytes(1 << 20)
                sent = 0
                try:
                    while True:
                        self.wfile.write(block)
                        sent += len(block)
                        with LOCK:
                            SENT[key] = sent
                except OSError:
                    with LOCK:
                        CLOSED[key] = time.time()
            elif path == "/jsonl":
                self.head("application/jsonl")
                line = b'{"n": 1, "name": "a row of JSON Lines", "values": [1, 2, 3, 4, 5, 6, 7, 8]}\n'
                block = line * ((1 << 20) // len(line))
                for _ in range(int(arg("mb", "1024"))):
                    self.wfile.write(block)
                self.wfile.flush()
            elif path == "/download":
                size = int(arg("mb", "1024")) << 20
                self.head("application/octet-stream", size)
                block = bytes(1 << 20)
                for _ in range(size >> 20):
                    self.wfile.write(block)
            elif path.startswith("/sse/endless/"):
                key = path.rsplit("/", 1)[1]
                self.head("text/event-stream")
                n = 0
                try:
                    while True:
                        self.wfile.write(b'data: {"n": %d}\n\n' % n)
                        self.wfile.flush()
                        n += 1
                        # Between events, watch the socket: the client's close (FIN or RST) is seen
                        # when it happens, not at the next write that fails (20 ms later or more).
                        readable, _, _ = select.select([self.connection], [], [], 0.01)
                        if readable and not self.connection.recv(1, socket.MSG_PEEK):
                            raise OSError("the client closed the connection")
                except OSError:
                    with LOCK:
                        CLOSED[key] = time.time()
            elif path.startswith("/closed/"):
                with LOCK:
                    at = CLOSED.get(path.rsplit("/", 1)[1])
                    sent = SENT.get(path.rsplit("/", 1)[1], 0)
                body = json.dumps({"closed": at is not None, "at": at or 0, "sent": sent}).encode()
                self.head("application/json", len(body))
                self.wfile.write(body)
            else:
                self.head("application/json", 2)
                self.wfile.write(b"{}")
        except OSError:
            self.close_connection = True


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("READY", server.server_address[1], flush=True)
    sys.stdin.read()
    os._exit(0)


if __name__ == "__main__":
    main()
