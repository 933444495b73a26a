#!/usr/bin/env python3
"""A small HTTP/1.1 server on 127.0.0.1 for EndpointKit's integration tests.

It listens on two free ports (the second one is "another origin" for redirect tests) and a third
one that plays an FTP server (it greets, then records every command line it receives), prints
"READY <port> <other-port> <ftp-port>" and serves until its standard input closes, so it ends with
the test process that started it.

Routes (any method):
  /respond?status=&type=&body=&header=Name:Value
                                 that status, Content-Type, body and extra headers (no Content-Type
                                 if type is empty; header= may repeat)
  /file-crc32?path=              size and CRC-32 of a local file, as JSON
  /auth/whoami                   who the Authorization header (Bearer or Basic), an X-API-Key header
                                 or an api_key query parameter says the caller is; 401 without any
  /tokens/REALM/configure?access=&refresh=&refresh_ok=
                                 a token realm whose access token has expired and whose refresh
                                 token is valid (refresh_ok=1) or revoked (0); counters reset
  /tokens/REALM/refresh          exchanges {"refresh_token"} for new tokens (slowly, 0.2 s), counted
  /tokens/REALM/me               200 with a valid access token, else 401 (WWW-Authenticate: Bearer)
  /tokens/REALM/stats            {"refreshes": n, "me_calls": n}
  /flaky/KEY?fail=&status=&retry_after=&retry_after_date=
                                 the first `fail` calls for KEY answer `status` (with Retry-After
                                 seconds, or an HTTP date that many seconds ahead), later ones 200
  /attempts/KEY                  {"attempts": n, "times": [...]}: the calls /flaky saw for KEY
  /echo-raw                      200 with the request body as the response body, under the request's
                                 Content-Type
  /multipart                     parses a multipart/form-data body with werkzeug (Flask's parser)
                                 and answers JSON: the Content-Type, every field as [name, value],
                                 every file as field, filename, content type, size, CRC-32 and (up to
                                 64 KiB) base64 bytes

  /echo-page?status=&format=     the request's credentials echoed back as a careless server would:
                                 format=json|html|text, with that status; the raw request target,
                                 every header, the Basic pair decoded, each header value
                                 percent-encoded (upper- and lowercase hex) and form-encoded
  /basic-auth                    401 with a Basic challenge
  /seen?prefix=                  {"paths": [...]}: every request target received so far that starts
                                 with prefix (to prove that nothing was sent)
  /ftp-log                       {"connections": n, "commands": [...]}: what the FTP listener received
  .../redirect-to?status=&location=
                                 that redirect status with exactly that Location (any prefix path)
  /set-cookie?cookie=            200 with Set-Cookie: <cookie>; Path=/
  /gzip-bomb?mb=                 a gzip-encoded body of that many MiB of zeros (about 1 KiB per MiB)
  /big?mb=&chunked=              that many MiB of zeros with Content-Length (or chunked=1: without),
                                 as fast as the socket takes
  /trickle?every=&count=         Content-Length count, then one byte every `every` seconds
  /cut?sent=&declared=           declares Content-Length `declared`, sends `sent` bytes, closes
  /malformed                     a status line and a Content-Length that is not a number, then closes
  /redirect/STATUS/PATH          that redirect status with Location: /PATH (same origin)
  /redirect-early/STATUS/PATH    the same, answered before the body is read, then the connection closed
                                 (a lingering close, as nginx's)
  /redirect-draining/STATUS/PATH the same, answered before the body is read, which is then read and
                                 dropped on a connection kept open (nginx's `return 307`)
  /redirect-away/STATUS/PATH     that redirect status with Location: http://127.0.0.1:OTHER/PATH
  /slow?seconds=&key=&until=     waits, then 200 JSON {"slept": seconds}; counts the calls for key;
                                 with until=N, stops waiting once N calls for key waited at once
                                 that are waiting at the same time
  /concurrency/KEY               {"max": n}: the most /slow calls for KEY that waited at once
  /pages/link?page=&per=&total=&loop=&fail_at=
                                 a JSON array page of numbers with a relative Link rel="next" (loop=1:
                                 page 2's next is page 2 again; fail_at=N: page N answers 500)
  /pages/next-page?_token=       Kinto-style {"data": [...]} with an absolute Next-Page header
  /pages/cursor?cursor=          {"items": [...], "next_cursor": ...} (two pages, then null)
  /pages/number?page=            a JSON array page, empty after page 3
  /etag/KEY?version=             {"key", "version"} with ETag "KEY-version"; 304 to a matching
                                 If-None-Match; /etag-count/KEY says how many 200s and 304s it sent
  /upload-start/NAME...          202 with a relative Location for an upload session (which echoes)
  /rate-limit/KEY?style=&reset=  first answer: no requests left for `reset` s, in the style of GitHub,
                                 OpenAI, the IETF or a 429 with Retry-After; later ones: some left.
                                 Times of the requests at /attempts/KEY
  /gate/KEY                      answers once /gate-open/KEY has been asked for (or after 20 s)
  /stream/...                    streaming routes: Server-Sent Events, JSON Lines, downloads (see streams.py)
  anything else                  200 JSON echo: method, raw request target, decoded path, parsed
                                 query, headers (lowercased names) and body text
"""
import base64
import io
import json
import os
import re
import socket
import sys
import threading
import time
import urllib.parse
import zlib

import streams
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Server(ThreadingHTTPServer):
    request_queue_size = 256  # tests open 100 connections at once; the default backlog of 5 drops SYNs
    daemon_threads = True


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
        with STATE_LOCK:
            SEEN.append(self.path)
        if LOG:
            LOG.write(f"{time.time():.3f} > {self.command} {self.path[:120]}\n")
        split = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(split.query, keep_blank_values=True)
        route = split.path
        if route == "/multipart":
            return self.multipart()
        if route == "/malformed":
            # No HTTP parser can read this head: a client says so, and names what it got.
            self.read_body()
            self.close_connection = True
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: twelve\r\n\r\nhello")
            return
        if route.startswith("/redirect-early/"):
            # As nginx's `return 307` does when it closes: the answer goes before the body is read;
            # then the server stops sending, drops the rest of the body and closes (`linger`).
            _, _, status, target = route.split("/", 3)
            self.close_connection = True
            self.reply(int(status), "text/plain", b"moved", {"Location": "/" + target, "Connection": "close"})
            return self.linger()
        if route.startswith("/redirect-draining/"):
            # As nginx's `return 307` does on a kept-alive connection: the answer goes before the
            # body is read, then the body is read and thrown away, and the connection stays open.
            _, _, status, target = route.split("/", 3)
            self.reply(int(status), "text/plain", b"moved", {"Location": "/" + target})
            self.wfile.flush()
            self.read_body()
            return
        body = self.read_body()
        try:
            self.route(route, query, body, split)
        except OSError:  # BrokenPipeError, ConnectionResetError
            self.close_connection = True  # the client stopped reading: expected in limit tests

    def route(self, route, query, body, split):
        if streams.handle(self, route, query, body, STATE_LOCK, REALMS):
            return
        if route == "/seen":
            prefix = query.get("prefix", [""])[0]
            with STATE_LOCK:
                paths = [path for path in SEEN if path.startswith(prefix)]
            return self.reply(200, "application/json", json.dumps({"paths": paths}).encode())
        if route == "/ftp-log":
            with STATE_LOCK:
                log = {"connections": FTP_LOG["connections"], "commands": list(FTP_LOG["commands"])}
            return self.reply(200, "application/json", json.dumps(log).encode())
        if route.endswith("/redirect-to"):
            location = query.get("location", [""])[0]
            return self.reply(int(query.get("status", ["302"])[0]), "text/plain", b"moved", {"Location": location})
        if route == "/set-cookie":
            return self.reply(200, "application/json", b"{}", {"Set-Cookie": query["cookie"][0] + "; Path=/"})
        if route == "/gzip-bomb":
            data = gzip_bomb(int(query.get("mb", ["1024"])[0]))
            return self.reply(200, "application/json", data, {"Content-Encoding": "gzip"})
        if route == "/big":
            size = int(query.get("mb", ["1"])[0]) << 20
            chunked = query.get("chunked", ["0"])[0] == "1"
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Transfer-Encoding" if chunked else "Content-Length", "chunked" if chunked else str(size))
            self.end_headers()
            block = bytes(1 << 20)
            for _ in range(size >> 20):
                self.wfile.write(b"100000\r\n" + block + b"\r\n" if chunked else block)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
            return
        if route == "/trickle":
            every, count = float(query.get("every", ["1"])[0]), int(query.get("count", ["10"])[0])
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            # Apple's URLSession may hold the first bytes back to sniff the content type (up to
            # 512); the test counts the first byte before a pause, so sniffing is ruled out.
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Content-Length", str(count))
            self.end_headers()
            for _ in range(count):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(every)
            return
        if route == "/cut":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", query.get("declared", ["1000"])[0])
            self.end_headers()
            self.wfile.write(b"{" + b" " * (int(query.get("sent", ["10"])[0]) - 1))
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return

        if route.startswith("/flaky-cut/"):
            attempt = record_attempt(route[len("/flaky-cut/"):])
            if attempt <= int(query.get("fail", ["0"])[0]):
                return self.route("/cut", {"sent": ["5"], "declared": ["500"]}, b"", split)
            return self.reply(200, "application/json", json.dumps({"attempts": attempt}).encode())
        if route == "/echo-page":
            return self.echo_page(query)
        if route == "/respond":
            status = int(query.get("status", ["200"])[0])
            content_type = query.get("type", ["application/json"])[0]
            text = query.get("body", [""])[0].encode()
            headers = dict(item.split(":", 1) for item in query.get("header", []))
            self.reply(status, content_type or None, text, headers)
        elif route == "/auth/whoami":
            self.whoami(query)
        elif route.startswith("/tokens/"):
            self.tokens(route, body)
        elif route.startswith("/flaky/"):
            attempt = record_attempt(route[len("/flaky/"):])
            if attempt <= int(query.get("fail", ["0"])[0]):
                headers = {}
                if "retry_after" in query:
                    headers["Retry-After"] = query["retry_after"][0]
                if "retry_after_date" in query:
                    headers["Retry-After"] = formatdate(time.time() + float(query["retry_after_date"][0]), usegmt=True)
                self.reply(int(query.get("status", ["503"])[0]), "application/json", b'{"error":"try again"}', headers)
            else:
                self.reply(200, "application/json", json.dumps({"attempts": attempt}).encode())
        elif route.startswith("/rate-limit/"):
            # The first answer says the budget is spent until `reset` seconds from now, in the
            # `style` of one API; later answers say some is left. /attempts/KEY has the times.
            attempt = record_attempt(route[len("/rate-limit/"):])
            reset = float(query.get("reset", ["2"])[0])
            remaining = 0 if attempt == 1 else 5
            style = query.get("style", ["github"])[0]
            status = 200
            if style == "github":
                headers = {"X-RateLimit-Remaining": str(remaining), "X-RateLimit-Reset": str(time.time() + reset)}
            elif style == "openai":
                headers = {"x-ratelimit-remaining-requests": str(remaining), "x-ratelimit-reset-requests": "%gs" % reset}
            elif style == "ietf":
                headers = {"RateLimit": '"default";r=%d;t=%g' % (remaining, reset), "RateLimit-Policy": '"default";q=5;w=60'}
            else:  # retry-after: a 429 first
                headers = {"Retry-After": "%d" % reset} if attempt == 1 else {}
                status = 429 if attempt == 1 else 200
            self.reply(status, "application/json", json.dumps({"attempt": attempt}).encode(), headers)
        elif route.startswith("/gate/"):
            # Answers once /gate-open/KEY is asked for (or after 20 s).
            key = route[len("/gate/"):]
            with STATE_LOCK:
                gate = GATES.setdefault(key, threading.Event())
            gate.wait(20)
            self.reply(200, "application/json", json.dumps({"key": key, "opened": gate.is_set()}).encode())
        elif route.startswith("/gate-open/"):
            with STATE_LOCK:
                GATES.setdefault(route[len("/gate-open/"):], threading.Event()).set()
            self.reply(200, "application/json", b"{}")
        elif route.startswith("/attempts/"):
            with STATE_LOCK:
                times = list(ATTEMPTS.get(route[len("/attempts/"):], []))
            self.reply(200, "application/json", json.dumps({"attempts": len(times), "times": times}).encode())
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
            key = query.get("key", [""])[0]
            until = int(query.get("until", ["0"])[0])
            with STATE_LOCK:
                active = CONCURRENCY.setdefault(key, {"now": 0, "max": 0})
                active["now"] += 1
                active["max"] = max(active["max"], active["now"])
            # With until=N, the wait ends early once N calls for the key have been waiting at once,
            # so a test asserts that they overlapped without betting on how fast a busy machine is.
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                with STATE_LOCK:
                    if until and active["max"] >= until:
                        break
                time.sleep(min(0.02, max(0, deadline - time.monotonic())))
            with STATE_LOCK:
                active["now"] -= 1
            self.reply(200, "application/json", json.dumps({"slept": seconds}).encode())
        elif route.startswith("/pages/"):
            self.pages(route[len("/pages/"):], query)
        elif route.startswith("/etag/"):
            key = route[len("/etag/"):]
            etag = '"%s-%s"' % (key, query.get("version", ["1"])[0])
            with STATE_LOCK:
                counts = ETAGS.setdefault(key, {"full": 0, "not_modified": 0})
                unchanged = self.headers.get("If-None-Match") == etag
                counts["not_modified" if unchanged else "full"] += 1
            if unchanged:
                return self.reply(304, None, b"", {"ETag": etag})
            self.reply(200, "application/json", json.dumps({"key": key, "version": query.get("version", ["1"])[0]}).encode(),
                       {"ETag": etag})
        elif route.startswith("/etag-count/"):
            with STATE_LOCK:
                counts = dict(ETAGS.get(route[len("/etag-count/"):], {"full": 0, "not_modified": 0}))
            self.reply(200, "application/json", json.dumps(counts).encode())
        elif route.startswith("/upload-start/"):
            name = route[len("/upload-start/"):]
            self.reply(202, None, b"", {"Location": "/v2/%s/blobs/uploads/session-1?_state=s%%2B1" % name,
                                         "Docker-Upload-UUID": "session-1"})
        elif route.startswith("/concurrency/"):
            with STATE_LOCK:
                seen = CONCURRENCY.get(route[len("/concurrency/"):], {"max": 0})["max"]
            self.reply(200, "application/json", json.dumps({"max": seen}).encode())
        else:
            self.reply(200, "application/json", json.dumps({
                "method": self.command,
                "target": self.path,
                "path": urllib.parse.unquote(split.path),
                "query": query,
                "headers": {name.lower(): value for name, value in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
                "body_base64": base64.b64encode(body).decode(),
            }).encode())

    def pages(self, kind, query):
        def number(name, default):
            return int(query.get(name, [str(default)])[0])
        if kind == "link":
            page, per, total = number("page", 1), number("per", 2), number("total", 5)
            if page == number("fail_at", 0):
                return self.reply(500, "application/json", b'{"error":"page failed"}')
            items = list(range((page - 1) * per + 1, min(page * per, total) + 1))
            headers = {}
            if page * per < total:
                following = 2 if query.get("loop") == ["1"] and page >= 2 else page + 1
                rest = urllib.parse.urlencode({k: v[0] for k, v in query.items() if k != "page"})
                headers["Link"] = '</pages/link?page=%d&%s>; rel="next", </pages/link?page=1&%s>; rel="first"' % (following, rest, rest)
            return self.reply(200, "application/json", json.dumps(items).encode(), headers)
        if kind == "next-page":
            token = query.get("_token", [""])[0]
            pages = {"": (["a", "b"], "t+1"), "t+1": (["c", "d"], "t/2"), "t/2": (["e"], None)}
            data, following = pages[token]
            headers = {}
            if following:
                headers["Next-Page"] = "http://127.0.0.1:%d/pages/next-page?_limit=2&_token=%s" % (
                    self.server.server_address[1], urllib.parse.quote(following, safe=""))
            return self.reply(200, "application/json", json.dumps({"data": data}).encode(), headers)
        if kind == "cursor":
            cursor = query.get("cursor", [""])[0]
            pages = {"": (["x1", "x2"], "c:2"), "c:2": (["x3"], None)}
            items, following = pages[cursor]
            return self.reply(200, "application/json", json.dumps({"items": items, "next_cursor": following}).encode())
        if kind == "number":
            page = number("page", 1)
            items = [page * 10, page * 10 + 1] if page <= 3 else []
            return self.reply(200, "application/json", json.dumps(items).encode())
        self.reply(404, "application/json", b'{"error":"no such pages"}')

    def whoami(self, query):
        authorization = self.headers.get("Authorization", "")
        if authorization.startswith("Bearer "):
            who = {"scheme": "bearer", "token": authorization[len("Bearer "):]}
        elif authorization.startswith("Basic "):
            user, _, password = base64.b64decode(authorization[len("Basic "):]).decode("utf-8").partition(":")
            who = {"scheme": "basic", "user": user, "password": password}
        elif self.headers.get("X-API-Key"):
            who = {"scheme": "api-key-header", "key": self.headers["X-API-Key"]}
        elif "api_key" in query:
            who = {"scheme": "api-key-query", "key": query["api_key"][0]}
        else:
            return self.reply(401, "application/json", b'{"error":"unauthenticated"}')
        self.reply(200, "application/json", json.dumps(who).encode())

    def tokens(self, route, body):
        _, _, realm_name, action = route.split("/", 3)
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        with STATE_LOCK:
            if action == "configure":
                REALMS[realm_name] = {
                    "valid_access": set(), "refresh": query["refresh"][0],
                    "refresh_ok": query.get("refresh_ok", ["1"])[0] == "1", "refreshes": 0, "me_calls": 0,
                }
                return self.reply(204, None, b"")
            realm = REALMS[realm_name]
            if action == "stats":
                return self.reply(200, "application/json", json.dumps(
                    {"refreshes": realm["refreshes"], "me_calls": realm["me_calls"]}).encode())
            if action == "me":
                realm["me_calls"] += 1
                token = self.headers.get("Authorization", "")[len("Bearer "):]
                if token in realm["valid_access"]:
                    return self.reply(200, "application/json", json.dumps({"ok": True, "token": token}).encode())
                return self.reply(401, "application/json", b'{"error":"invalid_token"}',
                                  {"WWW-Authenticate": 'Bearer error="invalid_token"'})
            if action == "refresh":
                realm["refreshes"] += 1
                number = realm["refreshes"]
                sent = json.loads(body or b"{}").get("refresh_token")
                accepted = realm["refresh_ok"] and sent == realm["refresh"]
                if accepted:
                    access, realm["refresh"] = "access-%d" % number, "refresh-%d" % number
                    realm["valid_access"] = {access}
        if action != "refresh":
            return self.reply(404, "application/json", b'{"error":"no such action"}')
        time.sleep(0.2)  # a slow token server widens the window for concurrent refreshes
        if not accepted:
            return self.reply(400, "application/json", b'{"error":"invalid_grant"}')
        self.reply(200, "application/json", json.dumps(
            {"access_token": access, "refresh_token": "refresh-%d" % number, "expires_in": 60}).encode())

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

    def echo_page(self, query):
        status = int(query.get("status", ["200"])[0])
        kind = query.get("format", ["json"])[0]
        authorization = self.headers.get("Authorization", "")
        basic = ""
        if authorization.startswith("Basic "):
            basic = base64.b64decode(authorization[6:]).decode(errors="replace")
        headers = {name: value for name, value in self.headers.items()}
        quoted = {name: urllib.parse.quote(value, safe="") for name, value in headers.items()}
        facts = {
            "target": self.path,
            "unquoted_target": urllib.parse.unquote_plus(self.path),
            "headers": headers,
            "quoted": quoted,
            "lower": {name: re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), value) for name, value in quoted.items()},
            "form": {name: urllib.parse.quote_plus(value) for name, value in headers.items()},
            "basic": basic,
        }
        if kind == "json":
            self.reply(status, "application/json", json.dumps(facts).encode())
        elif kind == "html":
            rows = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in facts.items() if isinstance(v, str))
            rows += "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in headers.items())
            self.reply(status, "text/html", f"<html><body><h1>Error</h1><table>{rows}</table></body></html>".encode())
        else:
            self.reply(status, "text/plain", "\n".join(f"{k}={v}" for k, v in facts.items()).encode())

    def linger(self, seconds=10.0):
        """Closes as nginx's lingering close does: stops sending, then reads and drops what the
        client still sends, until it closes or `seconds` pass. Closed at once, a socket with
        unread bytes resets the connection, and the reset can reach the client before it read the
        answer, which is then lost (URLError -1 under load, in this suite)."""
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(seconds)
            until = time.monotonic() + seconds
            while time.monotonic() < until and self.connection.recv(1 << 16):
                pass
        except OSError:
            pass

    def reply(self, status, content_type, body, headers=None):
        if LOG:
            LOG.write(f"{time.time():.3f} < {status} {self.command} {self.path[:120]}\n")
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
# ENDPOINTKIT_LOOPBACK_LOG=FILE: one line per request as it arrives (>) and as its answer starts (<),
# with the time: for finding what a slow test waited for.
LOG = open(os.environ["ENDPOINTKIT_LOOPBACK_LOG"], "a", buffering=1) if os.environ.get("ENDPOINTKIT_LOOPBACK_LOG") else None
STATE_LOCK = threading.Lock()
REALMS = {}
ATTEMPTS = {}
GATES = {}
SEEN = []
FTP_LOG = {"connections": 0, "commands": []}
BOMBS = {}
CONCURRENCY = {}
ETAGS = {}


def record_attempt(key):
    """Notes the time of a request for `key` (GET /attempts/KEY lists them); returns its number."""
    with STATE_LOCK:
        seen = ATTEMPTS.setdefault(key, [])
        seen.append(time.time())
        return len(seen)
BOMB_LOCK = threading.Lock()


def gzip_bomb(megabytes):
    """A gzip stream of `megabytes` MiB of zeros, made once per size (under its own lock, so that
    other requests are not held up while it is made)."""
    with BOMB_LOCK:
        if megabytes not in BOMBS:
            compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
            block = bytes(1 << 20)
            BOMBS[megabytes] = b"".join(compressor.compress(block) for _ in range(megabytes)) + compressor.flush()
        return BOMBS[megabytes]


def serve_ftp(listener):
    """Greets like an FTP server and records every command line; it never stores anything."""
    def session(connection):
        with connection:
            connection.sendall(b"220 ready\r\n")
            for line in connection.makefile("rb"):
                with STATE_LOCK:
                    FTP_LOG["commands"].append(line.decode("utf-8", "replace").strip())
                connection.sendall(b"530 not logged in\r\n")
    while True:
        connection, _ = listener.accept()
        with STATE_LOCK:
            FTP_LOG["connections"] += 1
        threading.Thread(target=session, args=(connection,), daemon=True).start()


def main():
    global OTHER_PORT
    servers = [Server(("127.0.0.1", 0), Handler) for _ in range(2)]
    OTHER_PORT = servers[1].server_address[1]
    for server in servers:
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
    ftp = socket.socket()
    ftp.bind(("127.0.0.1", 0))
    ftp.listen(16)
    threading.Thread(target=serve_ftp, args=(ftp,), daemon=True).start()
    print("READY", *(server.server_address[1] for server in servers), ftp.getsockname()[1], flush=True)
    sys.stdin.read()  # returns when the parent process goes away
    os._exit(0)


if __name__ == "__main__":
    main()
