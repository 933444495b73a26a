"""Checks `Demo --mcp` (stdio) and `Demo --mcp-http` (Streamable HTTP at /mcp of the demo's
Hummingbird server, with authorization; `--open` without) with the official MCP Python SDK, at
protocol versions 2025-11-25 and 2026-07-28, and prints the tools/call round trip.

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
import httpx2
import mcp.types as types
from mcp import Client, ClientSession, StdioServerParameters
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
    confused client would send, and a client without a token or with too small a one."""
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    good = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json", "Authorization": "Bearer demo-buyer"}
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
    bare = {key: value for key, value in good.items() if key != "Authorization"}
    code, response = await status(bare)
    metadata_url = endpoint.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")
    check(code == 401 and response.headers.get("www-authenticate") == f'Bearer resource_metadata="{metadata_url}"',
          f"a request without a token got {code} {response.headers}, not 401 naming the metadata")
    code, response = await status(bare | {"Authorization": "Bearer forged"})
    check(code == 401 and 'error="invalid_token"' in response.headers.get("www-authenticate", ""), f"a forged token got {code}")
    with urllib.request.urlopen(metadata_url, timeout=30) as response:
        document = json.loads(response.read())
    check(document["resource"] == endpoint and document["scopes_supported"] == ["cheers:write"], f"the metadata document {document}")
    purchase = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "purchase_cheer", "arguments": {"identifier": "cheer.large", "transaction_id": 7}}}
    code, response = await status(good | {"Authorization": "Bearer demo-reader"}, body=purchase)
    check(code == 403 and response.headers.get("www-authenticate", "").startswith('Bearer error="insufficient_scope", scope="cheers:write"'),
          f"a reader's purchase got {code} {response.headers}, not 403 insufficient_scope")
    print("Streamable HTTP: Origin (403), MCP-Protocol-Version (400), Accept (406), Content-Type (415), GET (405), notifications (202), "
          "no or a forged token (401 with the metadata document), too small a scope (403)")


async def current_revision(endpoint):
    """Protocol version 2026-07-28 through the SDK's Client: the purchase asked about and sent when
    the user accepts, not sent when the user declines; a reader cannot buy."""
    asked = []

    def answering(action):
        async def callback(context, request):
            asked.append(request.message)
            return types.ElicitResult(action="accept", content={"confirm": True}) if action == "accept" else types.ElicitResult(action=action)
        return callback

    def connect(token, callback):
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
        return Client(streamable_http_client(endpoint, http_client=http), mode="2026-07-28", elicitation_callback=callback)

    async with connect("demo-buyer", answering("accept")) as client:
        check(client.session.protocol_version == "2026-07-28", f"2026-07-28: negotiated {client.session.protocol_version}")
        history = await client.call_tool("cheer_history", {"user_id": 42})
        check(not history.is_error and history.structured_content["history"][0]["creator"] == "user42", f"2026-07-28: history {history}")
        branches = await client.call_tool("list_branches", {"owner": "apple", "repo": "swift", "per_page": 2})
        check(isinstance(branches.structured_content, list), f"2026-07-28: a list is structured content as it is: {branches.structured_content}")
        start = time.perf_counter()
        bought = await client.call_tool("purchase_cheer", {"identifier": "cheer.large", "transaction_id": 7})
        confirmed_ms = (time.perf_counter() - start) * 1000
        check(bought.structured_content == {"balance": 200}, f"2026-07-28: accepted purchase {bought}")
        check(len(asked) == 1 and asked[0].startswith("Allow the tool purchase_cheer to send POST /api/v2/purchase_cheer"), f"2026-07-28: asked {asked}")
        start = time.perf_counter()
        await client.call_tool("cheer_history", {"user_id": 1})
        plain_ms = (time.perf_counter() - start) * 1000
    async with connect("demo-buyer", answering("decline")) as client:
        declined = await client.call_tool("purchase_cheer", {"identifier": "cheer.large", "transaction_id": 8})
        check(declined.is_error and "The user declined" in declined.content[0].text, f"2026-07-28: declined purchase {declined}")
    print(f"2026-07-28: a confirmed purchase (two round trips and the user's answer) took {confirmed_ms:.2f} ms, "
          f"a read {plain_ms:.2f} ms; declined: nothing sent")


async def open_server(demo):
    """`Demo --mcp-http --open`: no authorization, so a write from anyone is refused, whichever
    revision the client speaks; reads work."""
    server = subprocess.Popen([demo, "--mcp-http", "--open"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        endpoint = server.stdout.readline().strip().removeprefix("MCP endpoint: ")
        async with Client(endpoint, mode="2026-07-28") as client:
            history = await client.call_tool("cheer_history", {"user_id": 42})
            check(not history.is_error, f"open server: history {history}")
            refused = await client.call_tool("purchase_cheer", {"identifier": "cheer.large", "transaction_id": 7})
            check(refused.is_error and "has not identified" in refused.content[0].text, f"open server: 2026-07-28 purchase {refused}")
        async with streamable_http_client(endpoint) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                initialized = await session.initialize()
                check(initialized.protocol_version == "2025-11-25", f"open server: legacy {initialized.protocol_version}")
                refused = await session.call_tool("purchase_cheer", {"identifier": "cheer.large", "transaction_id": 7})
                check(refused.is_error and "has not identified" in refused.content[0].text, f"open server: 2025-11-25 purchase {refused}")
    finally:
        server.stdin.close()
        server.wait(timeout=60)
    print("Streamable HTTP without authorization: reads served, writes refused at 2026-07-28 and 2025-11-25")


async def main(demo):
    async with stdio_client(StdioServerParameters(command=demo, args=["--mcp"])) as (read, write):
        async with ClientSession(read, write) as session:
            await exercise(session, "stdio")

    server = subprocess.Popen([demo, "--mcp-http"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        check(line.startswith("MCP endpoint: "), f"--mcp-http printed {line!r}")
        endpoint = line.removeprefix("MCP endpoint: ")
        buyer = httpx2.AsyncClient(headers={"Authorization": "Bearer demo-buyer"})
        async with streamable_http_client(endpoint, http_client=buyer) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                await exercise(session, "Streamable HTTP")
        await transport_rules(endpoint)
        await current_revision(endpoint)
    finally:
        server.stdin.close()
        server.wait(timeout=60)
    await open_server(demo)
    print("MCP example: stdio and Streamable HTTP answered as the official client expects")


anyio.run(main, sys.argv[1])
