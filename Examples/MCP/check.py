"""Checks `Demo --mcp` (stdio) and `Demo --mcp-http` (Streamable HTTP at /mcp of the demo's
Hummingbird server) with the official MCP Python SDK, and prints the tools/call round trip.

    python check.py PATH/TO/Demo

Exits 1 with the reason when anything differs from what README promises.
"""
import statistics
import subprocess
import sys
import time

import json
import urllib.error
import urllib.request

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def check(condition, what):
    if not condition:
        print(f"MCP example check failed: {what}")
        sys.exit(1)


async def exercise(session, transport):
    initialized = await session.initialize()
    check(initialized.server_info.name == "endpointkit-demo", f"{transport}: server name {initialized.server_info.name}")
    listed = await session.list_tools()
    names = [tool.name for tool in listed.tools]
    check(names == ["purchase_cheer", "cheer_history", "list_branches"], f"{transport}: tools {names}")
    history = await session.call_tool("cheer_history", {"user_id": 42})
    check(not history.is_error, f"{transport}: cheer_history failed: {history.content}")
    check(history.structured_content["history"][0]["creator"] == "user42", f"{transport}: {history.structured_content}")
    bought = await session.call_tool("purchase_cheer", {"identifier": "cheer.large", "transaction_id": 7})
    check(bought.structured_content == {"balance": 200}, f"{transport}: purchase {bought.structured_content}")
    # A list payload: structured under "result", which the SDK checks against the output schema.
    branches = await session.call_tool("list_branches", {"owner": "apple", "repo": "swift", "per_page": 2})
    check(not branches.is_error and isinstance(branches.structured_content["result"], list),
          f"{transport}: list_branches {branches.structured_content} {branches.content}")
    refused = await session.call_tool("purchase_cheer", {"identifier": "cheer.large"})
    check(refused.is_error and "transaction_id" in refused.content[0].text, f"{transport}: missing argument {refused.content}")
    rejected = await session.call_tool("purchase_cheer", {"identifier": "", "transaction_id": 7})
    check(rejected.is_error and "422" in rejected.content[0].text, f"{transport}: the server's 422 {rejected.content}")
    latencies = []
    for _ in range(30):
        start = time.perf_counter()
        await session.call_tool("cheer_history", {"user_id": 1})
        latencies.append((time.perf_counter() - start) * 1000)
    print(f"{transport}: tools/call round trip through the official client, median {statistics.median(latencies):.2f} ms "
          f"(min {min(latencies):.2f}, max {max(latencies):.2f}, 30 calls)")


async def transport_rules(endpoint):
    """Streamable HTTP's rules, with raw requests: what a browser page elsewhere, an old or a
    confused client would send."""
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    good = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    async def status(headers, method="POST", body=ping):
        data = json.dumps(body).encode() if method == "POST" else None
        request = urllib.request.Request(endpoint, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                response.content = response.read()
                return response.status, response
        except urllib.error.HTTPError as refused:
            refused.content = refused.read()
            return refused.code, refused
    code, _ = await status(good | {"Origin": "http://attacker.example"})
    check(code == 403, f"a POST from http://attacker.example got {code}, not 403")
    code, _ = await status(good | {"Origin": "http://localhost:5173"})
    check(code == 200, f"a POST from a page on localhost got {code}, not 200")
    code, _ = await status(good | {"MCP-Protocol-Version": "1999-01-01"})
    check(code == 400, f"an unsupported MCP-Protocol-Version got {code}, not 400")
    code, _ = await status(good | {"Accept": "text/html"})
    check(code == 406, f"Accept: text/html got {code}, not 406")
    code, _ = await status(good | {"Content-Type": "text/plain"})
    check(code == 415, f"Content-Type: text/plain got {code}, not 415")
    code, response = await status(good, method="GET")
    check(code == 405 and response.headers.get("allow") == "POST", f"GET got {code} {response.headers}, not 405 with Allow: POST")
    code, response = await status(good, body={"jsonrpc": "2.0", "method": "notifications/initialized"})
    check(code == 202 and response.content == b"", f"a notification got {code} {response.content!r}, not 202 with no body")
    code, response = await status(good)
    check(code == 200 and "mcp-session-id" not in response.headers, f"a ping got {code} {response.headers}")
    print("Streamable HTTP: Origin (403), MCP-Protocol-Version (400), Accept (406), Content-Type (415), GET (405), notifications (202)")


async def main(demo):
    async with stdio_client(StdioServerParameters(command=demo, args=["--mcp"])) as (read, write):
        async with ClientSession(read, write) as session:
            await exercise(session, "stdio")

    server = subprocess.Popen([demo, "--mcp-http"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        check(line.startswith("MCP endpoint: "), f"--mcp-http printed {line!r}")
        async with streamable_http_client(line.removeprefix("MCP endpoint: ")) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                await exercise(session, "Streamable HTTP")
        await transport_rules(line.removeprefix("MCP endpoint: "))
    finally:
        server.stdin.close()
        server.wait(timeout=60)
    print("MCP example: stdio and Streamable HTTP answered as the official client expects")


anyio.run(main, sys.argv[1])
