"""Streaming routes of the loopback server (EndpointKit issue 14), under /stream/:

  /stream/sse/SCRIPT             a scripted text/event-stream, sent in pieces with a flush after each:
                                 chat (5 OpenAI-style chunks 20 ms apart, then [DONE]), edge (BOM,
                                 comments, CRLF and CR line ends, multi-line data, a UTF-8 character
                                 split between two writes, retry, then [DONE]), anthropic-error
                                 (an event, then `event: error`, then the connection stays open),
                                 openai-error (`data: {"error": ...}`)
  /stream/reconnect/KEY          first connection: retry: 100, events id 1 and 2, half an event,
                                 then a dropped connection; next ones: events after Last-Event-ID,
                                 then [DONE]; /stream/reconnect-log/KEY lists the Last-Event-IDs seen
  /stream/endless/KEY?every=&pad=&limit=
                                 an event every `every` seconds forever (or `limit` events, then
                                 silence with the connection open), each carrying its send time;
                                 /stream/closed/KEY says whether (and after how many events) the
                                 client closed the connection, and when
  /stream/jsonl?rows=&every=&bad=  JSON Lines rows {"n", "name"} (CRLF after even rows, a blank line
                                 after row 1); bad=K makes line K invalid
  /stream/download/NAME?size=&ignore_range=&cut_first=&gzip=&version=&ignore_if_range=&bare_206=&disposition=
                                 `size` bytes (byte i is (i + version) % 251) with ETag and Last-Modified,
                                 honouring Range and If-Range (unless ignore_range=1; ignore_if_range=1
                                 honours Range whatever If-Range says, as a broken proxy does), 416 past
                                 the end; the first cut_first requests for NAME close after half the
                                 body; bare_206=1 sends a 206 without ETag or Last-Modified;
                                 disposition= is sent as Content-Disposition
  /stream/download-log/NAME      the Range and If-Range headers of each request for NAME
  /stream/upload-size            {"size": n}: the request body's length
  /stream/tokens/REALM/events    the chat stream for a valid access token of /tokens/REALM, else 401
"""
import json
import socket
import time

STATE = {"reconnect": {}, "closed": {}, "downloads": {}}


def handle(handler, route, query, body, lock, realms):
    """Serves `route` if it is a streaming route; returns whether it did."""
    if not route.startswith("/stream/"):
        return False
    parts = route.split("/")[2:]
    kind = parts[0]
    if kind == "sse":
        sse(handler, parts[1])
    elif kind == "reconnect":
        reconnect(handler, parts[1], lock)
    elif kind == "reconnect-log":
        with lock:
            seen = list(STATE["reconnect"].get(parts[1], []))
        handler.reply(200, "application/json", json.dumps({"last_event_ids": seen}).encode())
    elif kind == "endless":
        endless(handler, parts[1], query, lock)
    elif kind == "closed":
        with lock:
            closed = dict(STATE["closed"].get(parts[1], {"closed": False, "events": 0}))
        handler.reply(200, "application/json", json.dumps(closed).encode())
    elif kind == "jsonl":
        jsonl(handler, query)
    elif kind == "download":
        download(handler, parts[1], query, lock)
    elif kind == "download-log":
        with lock:
            log = list(STATE["downloads"].get(parts[1], {}).get("log", []))
        handler.reply(200, "application/json", json.dumps({"requests": log}).encode())
    elif kind == "upload-size":
        handler.reply(200, "application/json", json.dumps({"size": len(body)}).encode())
    elif kind == "tokens":
        realm = realms.get(parts[1])
        token = handler.headers.get("Authorization", "")[len("Bearer "):]
        with lock:
            if realm is not None:
                realm["me_calls"] += 1
            valid = realm is not None and token in realm["valid_access"]
        if not valid:
            handler.reply(401, "application/json", b'{"error":"invalid_token"}',
                          {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        else:
            sse(handler, "chat")
    else:
        handler.reply(404, "application/json", b'{"error":"no such stream"}')
    return True


def start(handler, content_type="text/event-stream", headers=None):
    """Status and headers of a body that ends when the connection closes."""
    handler.send_response(200)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Cache-Control", "no-cache")
    # Apple's URLSession may hold the first bytes back to sniff the content type (up to 512): a
    # stream's first event must reach the reader when it is sent, on every platform.
    handler.send_header("X-Content-Type-Options", "nosniff")
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.close_connection = True


def send(handler, data, pause=0.0):
    handler.wfile.write(data)
    handler.wfile.flush()
    if pause:
        time.sleep(pause)


def chat_chunk(text):
    return ("data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": text}}]}) + "\n\n").encode()


def sse(handler, script):
    start(handler)
    if script == "chat":
        for word in ["Hello", ",", " world", "!", " Bye."]:
            send(handler, chat_chunk(word), 0.02)
        send(handler, b"data: [DONE]\n\n")
    elif script == "edge":
        pieces = [
            b"\xef\xbb", b"\xbf: a comment\r\n",
            b"event: greet\r\ndata: line one\r\ndata: line two\r\nid: 7\r\n\r\n",
            b"data: cr only\r\rdata: caf\xc3", b"\xa9\n\n",
            b"data\n\n",
            b"retry: 1500\nid\ndata:  two spaces\n\n",
            b"event: ping\ndata: {\"n\":\n", b"data: 1}\n\n",
            b"data: [DONE]\n\n",
            b"data: after the end\n\n",
        ]
        for piece in pieces:
            send(handler, piece, 0.01)
    elif script == "anthropic-error":
        send(handler, b"event: content_block_delta\ndata: {\"text\": \"Hi\"}\n\n")
        send(handler, b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n')
        time.sleep(5)  # the client stops reading on its own
    elif script == "openai-error":
        send(handler, chat_chunk("Hi"))
        send(handler, b'data: {"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}\n\n')
        time.sleep(5)


def reconnect(handler, key, lock):
    with lock:
        seen = STATE["reconnect"].setdefault(key, [])
        seen.append(handler.headers.get("Last-Event-ID"))
        attempt = len(seen)
    start(handler)
    if attempt == 1:
        send(handler, b"retry: 100\nid: 1\ndata: one\n\nid: 2\ndata: two\n\n")
        send(handler, b"id: 99\ndata: half an ev")
        handler.connection.shutdown(socket.SHUT_RDWR)
        return
    last = int(handler.headers.get("Last-Event-ID") or 0)
    send(handler, ("id: %d\ndata: %s\n\n" % (last + 1, ["zero", "one", "two", "three", "four"][min(last + 1, 4)])).encode())
    send(handler, b"data: [DONE]\n\n")


def endless(handler, key, query, lock):
    every = float(query.get("every", ["0.05"])[0])
    pad = "x" * int(query.get("pad", ["0"])[0])
    limit = int(query.get("limit", ["0"])[0])
    start(handler)
    n = 0
    try:
        while True:
            if limit and n >= limit:
                time.sleep(0.05)
                handler.wfile.write(b": still here\n")  # a comment, which also notices a close
                handler.wfile.flush()
                continue
            send(handler, ("id: %d\ndata: {\"n\": %d, \"sent\": %.6f, \"pad\": \"%s\"}\n\n" % (n, n, time.time(), pad)).encode())
            n += 1
            with lock:
                STATE["closed"][key] = {"closed": False, "events": n}
            if every:
                time.sleep(every)
    except OSError:
        with lock:
            STATE["closed"][key] = {"closed": True, "events": n, "at": time.time()}
        raise


def jsonl(handler, query):
    rows = int(query.get("rows", ["5"])[0])
    every = float(query.get("every", ["0"])[0])
    bad = int(query.get("bad", ["0"])[0])
    start(handler, "application/jsonl")
    for n in range(1, rows + 1):
        line = b"{not json" if n == bad else json.dumps({"n": n, "name": "row %d" % n}).encode()
        send(handler, line + (b"\r\n" if n % 2 == 0 else b"\n") + (b"\n" if n == 1 else b""), every)


def pattern(start, end):
    return bytes(i % 251 for i in range(start, end))


def download(handler, name, query, lock):
    size = int(query.get("size", ["100000"])[0])
    version = int(query.get("version", ["0"])[0])
    etag = '"%s-%d"' % (name, size) if version == 0 else '"%s-%d-v%d"' % (name, size, version)
    with lock:
        entry = STATE["downloads"].setdefault(name, {"count": 0, "log": []})
        entry["count"] += 1
        count = entry["count"]
        entry["log"].append({"range": handler.headers.get("Range"), "if_range": handler.headers.get("If-Range")})
    cut = count <= int(query.get("cut_first", ["0"])[0])
    headers = {"ETag": etag, "Last-Modified": "Tue, 0%d Sep 2026 10:00:00 GMT" % (1 + version % 9), "Accept-Ranges": "bytes"}
    if "disposition" in query:
        headers["Content-Disposition"] = query["disposition"][0]
    first, status = 0, 200
    requested = handler.headers.get("Range", "")
    if requested.startswith("bytes=") and query.get("ignore_range", ["0"])[0] != "1":
        if_range = handler.headers.get("If-Range")
        if if_range is None or if_range == etag or query.get("ignore_if_range", ["0"])[0] == "1":
            first = int(requested[len("bytes="):].split("-")[0])
            if first >= size:
                return handler.reply(416, "text/plain", b"", {"Content-Range": "bytes */%d" % size})
            status = 206
            headers["Content-Range"] = "bytes %d-%d/%d" % (first, size - 1, size)
            if query.get("bare_206", ["0"])[0] == "1":
                del headers["ETag"], headers["Last-Modified"]
    handler.send_response(status)
    handler.send_header("Content-Type", "application/octet-stream")
    handler.send_header("Content-Length", str(size - first))
    for header, value in headers.items():
        handler.send_header(header, value)
    handler.end_headers()
    end = first + (size - first) // 2 if cut else size
    block = 1 << 16
    for offset in range(first, end, block):
        handler.wfile.write(pattern(offset + version, min(offset + block, end) + version) if size <= 4 << 20 else bytes(min(block, end - offset)))
    handler.wfile.flush()
    if cut:
        handler.close_connection = True
        handler.connection.shutdown(socket.SHUT_RDWR)
