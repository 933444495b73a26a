#!/usr/bin/env python3
"""A small HTTP/1.1 server on 127.0.0.1 for EndpointKit's integration tests.

It listens on two free ports (the second one is "another origin" for redirect tests), prints
"READY <port> <other-port>" and serves until its standard input closes, so it ends with the test
process that started it.

Routes (any method):
  /respond?status=&type=&body=&header=Name:Value
                                 that status, Content-Type, body and extra headers (no Content-Type
                                 if type is empty; header= may repeat)
  /file-crc32?path=              size and CRC-32 of a local file, as JSON
  /echo-raw                      200 with the request body as the response body, under the request's
                                 Content-Type
  /multipart                     parses a multipart/form-data body with werkzeug (Flask's parser)
                                 and answers JSON: the Content-Type, every field as [name, value],
                                 every file as field, filename, content type, size, CRC-32 and (up to
                                 64 KiB) base64 bytes

  /basic-auth                    401 with a Basic challenge
  /redirect/STATUS/PATH          that redirect status with Location: /PATH (same origin)
  /redirect-away/STATUS/PATH     that redirect status with Location: http://127.0.0.1:OTHER/PATH
  /slow?seconds=                 waits, then 200 JSON {"slept": seconds}
  anything else                  200 JSON echo: method, raw request target, decoded path, parsed
                                 query, headers (lowercased names) and body text
"""
import base64
import io
import json
import os
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # keep test output quiet
        pass

    def read_body(self):
        """The whole request body, from Content-Length or chunked transfer coding."""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def handle_any(self):
        split = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(split.query, keep_blank_values=True)
        route = split.path
        if route == "/multipart":
            return self.multipart()
        body = self.read_body()

        if route == "/respond":
            status = int(query.get("status", ["200"])[0])
            content_type = query.get("type", ["application/json"])[0]
            text = query.get("body", [""])[0].encode()
            headers = dict(item.split(":", 1) for item in query.get("header", []))
            self.reply(status, content_type or None, text, headers)
        elif route == "/file-crc32":
            crc, size = 0, 0
            with open(query["path"][0], "rb") as file:
                while chunk := file.read(1 << 20):
                    crc, size = zlib.crc32(chunk, crc), size + len(chunk)
            self.reply(200, "application/json", json.dumps({"size": size, "crc32": crc}).encode())
        elif route == "/echo-raw":
            self.reply(200, self.headers.get("Content-Type"), body)
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

    def multipart(self):
        from werkzeug.formparser import parse_form_data  # pip install werkzeug

        chunked = self.headers.get("Transfer-Encoding", "").lower() == "chunked"
        stream = io.BytesIO(self.read_body()) if chunked else self.rfile
        length = stream.getbuffer().nbytes if chunked else int(self.headers.get("Content-Length") or 0)
        environ = {
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(length),
            "wsgi.input": stream,
        }
        _, form, files = parse_form_data(environ, max_form_memory_size=None)
        described = []
        for field, upload in files.items(multi=True):
            crc, size, head = 0, 0, b""
            while True:
                chunk = upload.stream.read(1 << 20)
                if not chunk:
                    break
                crc = zlib.crc32(chunk, crc)
                size += len(chunk)
                if len(head) < 65536:
                    head += chunk[: 65536 - len(head)]
            described.append({
                "field": field, "filename": upload.filename, "content_type": upload.content_type,
                "size": size, "crc32": crc, "base64": base64.b64encode(head).decode() if size <= 65536 else None,
            })
        self.reply(200, "application/json", json.dumps({
            "content_type": self.headers.get("Content-Type"),
            "content_length": self.headers.get("Content-Length"),
            "transfer_encoding": self.headers.get("Transfer-Encoding"),
            "fields": [[name, value] for name, value in form.items(multi=True)],
            "files": described,
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
