#!/usr/bin/env python3
"""Server-Sent Events from an implementation nobody on EndpointKit wrote: sse-starlette, served by
uvicorn on a free port of 127.0.0.1. Prints "READY <port>" and serves until standard input closes.

Routes:
  /events     five "update" events with ids 1-5 and JSON data, one with multi-line data, a
              "retry" field, then the stream ends (sse-starlette's own framing: CRLF line ends)
  /endless/KEY  an event every 20 ms until the client goes away; /closed/KEY says whether it has
"""
import asyncio
import json

from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from uvicorn_serve import serve

CLOSED = {}


async def events(request):
    async def generate():
        for n in range(1, 6):
            yield ServerSentEvent(data=json.dumps({"n": n, "word": ["alpha", "beta", "gamma", "delta", "epsilon"][n - 1]}),
                                  event="update", id=str(n), retry=2000 if n == 1 else None)
            await asyncio.sleep(0.01)
        yield ServerSentEvent(data="first line\nsecond line", event="note", id="6")
    return EventSourceResponse(generate())


async def endless(request):
    key = request.path_params["key"]
    CLOSED[key] = False

    async def generate():
        n = 0
        try:
            while True:
                yield {"data": json.dumps({"n": n}), "id": str(n)}
                n += 1
                await asyncio.sleep(0.02)
        finally:
            CLOSED[key] = True  # cancelled when the client disconnects
    return EventSourceResponse(generate())


async def closed(request):
    return JSONResponse({"closed": CLOSED.get(request.path_params["key"], False)})


app = Starlette(routes=[
    Route("/events", events),
    Route("/endless/{key}", endless),
    Route("/closed/{key}", closed),
])


if __name__ == "__main__":
    serve(app)
