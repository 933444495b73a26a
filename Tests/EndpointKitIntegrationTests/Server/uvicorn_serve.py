"""Serves an ASGI app with uvicorn on a free port of 127.0.0.1, as the Swift tests expect of a
third-party server (PythonScriptServer): prints "READY <port>", then serves until standard input
closes, which happens when the test process exits."""
import os
import socket
import sys
import threading

import uvicorn


def serve(app):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    print("READY", sock.getsockname()[1], flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    server.run(sockets=[sock])
