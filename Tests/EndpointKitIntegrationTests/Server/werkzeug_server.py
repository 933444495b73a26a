#!/usr/bin/env python3
"""A WSGI app served as a small project serves one: werkzeug's `make_server` with its default
request handler (one request at a time, answers in HTTP/1.0, the connection closed after each), on
a free port of 127.0.0.1. Prints "READY <port>" and serves until standard input closes.

Routes:
  /read-then-redirect/STATUS/KEY  reads the whole request body first (as a framework does before
                                  the view runs), then answers STATUS with Location /inspect/KEY,
                                  an empty body and Content-Length: 0
  /inspect/KEY                    what arrived: {"key", "size", "crc32", "content_type"} of the
                                  body, or of the first file of a multipart body, with "filename"
"""
import json
import os
import sys
import threading
import zlib

from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response


def app(environ, start_response):
    request = Request(environ)
    parts = request.path.strip("/").split("/")
    if parts[0] == "read-then-redirect" and len(parts) == 3:
        # The whole body, before any answer, as a view reads it: a form's files, or the data.
        if request.mimetype == "multipart/form-data":
            request.files
        else:
            request.get_data()
        answer = Response(b"", status=int(parts[1]), headers={"Location": "/inspect/" + parts[2]})
    elif parts[0] == "inspect" and len(parts) == 2:
        if request.mimetype == "multipart/form-data":
            upload = next(iter(request.files.values()), None)
            data = upload.read() if upload else b""
            extra = {"filename": upload.filename if upload else None}
        else:
            data = request.get_data()
            extra = {}
        answer = Response(
            json.dumps({"key": parts[1], "size": len(data), "crc32": zlib.crc32(data), "content_type": request.mimetype, **extra}),
            mimetype="application/json")
    else:
        answer = Response(b"no such route", status=404)
    return answer(environ, start_response)


server = make_server("127.0.0.1", 0, app)
print("READY", server.server_port, flush=True)
threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
server.serve_forever()
