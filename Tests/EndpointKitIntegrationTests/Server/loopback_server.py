#!/usr/bin/env python3
"""A small HTTP/1.1 server on 127.0.0.1 for EndpointKit's integration tests.

It listens on two free ports (the second one is "another origin" for redirect tests), prints
"READY <port> <other-port>" and serves until its standard input closes, so it ends with the test
process that started it.

Routes (any method):
  /respond?status=&type=&body=   that status, Content-Type and body (no Content-Type if type is empty)
  /basic-auth                    401 with a Basic challenge
  /redirect/STATUS/PATH          that redirect status with Location: /PATH (same origin)
  /redirect-away/STATUS/PATH     that redirect status with Location: http://127.0.0.1:OTHER/PATH
  /slow?seconds=                 waits, then 200 JSON {"slept": seconds}
  anything else                  200 JSON echo: method, raw request target, decoded path, parsed
                                 query, headers (lowercased names) and body text
"""
import json
import os
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # keep test output quiet
        pass

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        split = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(split.query, keep_blank_values=True)
        route = split.path

        if route == "/respond":
            status = int(query.get("status", ["200"])[0])
            content_type = query.get("type", ["application/json"])[0]
            text = query.get("body", [""])[0].encode()
            self.reply(status, content_type or None, text)
        elif route == "/basic-auth":
            self.reply(401, "application/json", b'{"error":"credentials required"}',
                       {"WWW-Authenticate": 'Basic realm="tests"'})
        elif route.startswith("/redirect/") or route.startswith("/redirect-away/"):
            _, kind, status, target = route.split("/", 3)
            origin = "" if kind == "redirect" else "http://127.0.0.1:%d" % OTHER_PORT
            self.reply(int(status), "text/plain", b"moved", {"Location": origin + "/" + target})
        elif route == "/slow":
            seconds = float(query.get("seconds", ["5"])[0])
            time.sleep(seconds)
            self.reply(200, "application/json", json.dumps({"slept": seconds}).encode())
        else:
            self.reply(200, "application/json", json.dumps({
                "method": self.command,
                "target": self.path,
                "path": urllib.parse.unquote(split.path),
                "query": query,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
            }).encode())

    def reply(self, status, content_type, body, headers=None):
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and status not in (204, 304):
            self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = handle_any


OTHER_PORT = 0


def main():
    global OTHER_PORT
    servers = [ThreadingHTTPServer(("127.0.0.1", 0), Handler) for _ in range(2)]
    OTHER_PORT = servers[1].server_address[1]
    for server in servers:
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print("READY", *(server.server_address[1] for server in servers), flush=True)
    sys.stdin.read()  # returns when the parent process goes away
    os._exit(0)


if __name__ == "__main__":
    main()
