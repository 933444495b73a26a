#!/usr/bin/env python3
"""A real rate limiter nobody on EndpointKit wrote: FastAPI with slowapi (over the `limits`
package, fixed windows in memory), served by uvicorn on a free port of 127.0.0.1. Prints
"READY <port>" and serves until standard input closes.

Routes:
  /limited/KEY  {"ok": true}, at most 5 per 2 seconds for each KEY (so each test has a budget of
                its own); past it 429 with Retry-After. Every answer carries slowapi's
                X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds).
  /refused/KEY  how many requests for KEY were refused with 429 so far
"""
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from slowapi import Limiter
from slowapi.errors import RateLimitExceeded

from uvicorn_serve import serve

REFUSED = {}
limiter = Limiter(key_func=lambda request: request.path_params.get("key", ""), headers_enabled=True)
app = FastAPI()
app.state.limiter = limiter


@app.exception_handler(RateLimitExceeded)
async def refused(request: Request, error: RateLimitExceeded):
    key = request.path_params.get("key", "")
    REFUSED[key] = REFUSED.get(key, 0) + 1
    response = JSONResponse({"error": f"Rate limit exceeded: {error.detail}"}, status_code=429)
    return request.app.state.limiter._inject_headers(response, request.state.view_rate_limit)


@app.get("/limited/{key}")
@limiter.limit("5/2seconds")
async def limited(request: Request, response: Response, key: str):
    return {"ok": True}


@app.get("/refused/{key}")
async def refused_count(key: str):
    return {"refused": REFUSED.get(key, 0)}


if __name__ == "__main__":
    serve(app)
