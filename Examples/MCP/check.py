"""Checks `Demo --mcp` (stdio) and `Demo --mcp-http` (Streamable HTTP at /mcp of the demo's
Hummingbird server, with authorization; `--open` without; `--authorization-server` with tokens of a
small OAuth authorization server started here, which the SDK's OAuth client goes through) with the
official MCP Python SDK, at protocol versions 2025-11-25 and 2026-07-28, and prints the tools/call
round trip.

    python check.py PATH/TO/Demo

Exits 1 with the reason when anything differs from what README promises.
"""
import base64
import hashlib
import http.server
import json
import secrets
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import anyio
import httpx2
import mcp.types as types
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken


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
    check(code == 401 and response.headers.get("www-authenticate") == f'Bearer scope="cheers:read", resource_metadata="{metadata_url}"',
          f"a request without a token got {code} {response.headers}, not 401 naming the first scope and the metadata")
    code, response = await status(bare | {"Authorization": "Bearer forged"})
    check(code == 401 and 'error="invalid_token"' in response.headers.get("www-authenticate", ""), f"a forged token got {code}")
    with urllib.request.urlopen(metadata_url, timeout=30) as response:
        document = json.loads(response.read())
    check(document["resource"] == endpoint and document["scopes_supported"] == ["cheers:read"], f"the metadata document {document}")
    purchase = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "purchase_cheer", "arguments": {"identifier": "cheer.large", "transaction_id": 7}}}
    code, response = await status(good | {"Authorization": "Bearer demo-reader"}, body=purchase)
    check(code == 403 and response.headers.get("www-authenticate", "").startswith('Bearer error="insufficient_scope", scope="cheers:write"'),
          f"a reader's purchase got {code} {response.headers}, not 403 insufficient_scope")
    # A batch (2025-03-26) whose tool call the reader's token does not allow: refused whole.
    code, response = await status(good | {"Authorization": "Bearer demo-reader", "MCP-Protocol-Version": "2025-03-26"}, body=[purchase])
    check(code == 403 and 'error="insufficient_scope"' in response.headers.get("www-authenticate", ""),
          f"a reader's batched purchase got {code} {response.headers}, not 403")
    code, response = await status(good | {"MCP-Protocol-Version": "2025-11-25"}, body=[ping])
    check(code == 400, f"a batch at 2025-11-25 got {code}, not 400")
    code, response = await status(good | {"Authorization": "Bearer demo buyer"})
    check(code == 400 and 'error="invalid_request"' in response.headers.get("www-authenticate", ""), f"a malformed Authorization got {code}")
    print("Streamable HTTP: Origin (403), MCP-Protocol-Version (400), Accept (406), Content-Type (415), GET (405), notifications (202), "
          "no or a forged token (401 with the metadata document), too small a scope (403, alone or in a batch), "
          "a batch at 2025-11-25 (400), a malformed Authorization (400)")


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


def start_authorization_server():
    """A small OAuth 2.1 authorization server on 127.0.0.1, written for this check: metadata
    (RFC 8414), dynamic client registration (RFC 7591), the authorization endpoint (it authorizes at
    once, as if the user had agreed, and records the scope asked for), the token endpoint with PKCE
    (S256) and the resource parameter, and introspection (RFC 7662), which the demo asks about each
    token. Returns its issuer, the scopes asked for in order, and the server."""
    asked, codes, tokens = [], {}, {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send_json(self, status, value):
            body = json.dumps(value).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            if url.path == "/.well-known/oauth-authorization-server":
                self.send_json(200, {
                    "issuer": issuer, "authorization_endpoint": f"{issuer}/authorize", "token_endpoint": f"{issuer}/token",
                    "registration_endpoint": f"{issuer}/register", "introspection_endpoint": f"{issuer}/introspect",
                    "response_types_supported": ["code"], "grant_types_supported": ["authorization_code", "refresh_token"],
                    "code_challenge_methods_supported": ["S256"], "token_endpoint_auth_methods_supported": ["none"],
                    "authorization_response_iss_parameter_supported": True})
            elif url.path == "/authorize":
                query = dict(urllib.parse.parse_qsl(url.query))
                asked.append(query.get("scope", ""))
                code = secrets.token_urlsafe(16)
                codes[code] = query
                location = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": query["state"], "iss": issuer})
                self.send_response(302)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()
            else:
                self.send_json(404, {"error": "not_found"})

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if self.path == "/register":
                self.send_json(201, json.loads(body) | {"client_id": f"client-{secrets.token_hex(4)}", "token_endpoint_auth_method": "none"})
                return
            form = dict(urllib.parse.parse_qsl(body.decode()))
            if self.path == "/token":
                grant = codes.pop(form.get("code", ""), None)
                verifier = form.get("code_verifier", "").encode()
                challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier).digest()).rstrip(b"=").decode()
                if grant is None or challenge != grant["code_challenge"] or form.get("redirect_uri") != grant["redirect_uri"]:
                    self.send_json(400, {"error": "invalid_grant"})
                    return
                token = secrets.token_urlsafe(24)
                tokens[token] = {"active": True, "sub": "buyer", "scope": grant.get("scope", ""), "aud": grant.get("resource")}
                self.send_json(200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600, "scope": grant.get("scope", "")})
            elif self.path == "/introspect":
                self.send_json(200, tokens.get(form.get("token", ""), {"active": False}))
            else:
                self.send_json(404, {"error": "not_found"})

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    issuer = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return issuer, asked, server


class MemoryStorage:
    """The SDK's token storage, in memory."""
    def __init__(self):
        self.tokens, self.client = None, None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


async def oauth_step_up(demo):
    """`Demo --mcp-http --authorization-server ISSUER`: the SDK's OAuth client discovers the
    authorization server from the 401, asks first for the one scope the challenge names
    (`cheers:read`), reads with that token, and when a purchase is answered 403
    `insufficient_scope`, asks for `cheers:read cheers:write` and buys."""
    issuer, asked, authorization_server = start_authorization_server()
    server = subprocess.Popen([demo, "--mcp-http", "--authorization-server", issuer], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    redirects = []

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args):
            return None

    async def redirect_handler(url):
        # The user's browser: the authorization server answers with a redirect back to the client.
        try:
            urllib.request.build_opener(NoRedirect).open(url, timeout=30)
        except urllib.error.HTTPError as redirect:
            redirects.append(redirect.headers["Location"])

    async def callback_handler():
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(redirects[-1]).query))
        return AuthorizationCodeResult(code=query["code"], state=query.get("state"), iss=query.get("iss"))

    try:
        endpoint = server.stdout.readline().strip().removeprefix("MCP endpoint: ")
        provider = OAuthClientProvider(
            server_url=endpoint,
            client_metadata=OAuthClientMetadata(client_name="endpointkit-check", redirect_uris=["http://127.0.0.1:9/callback"]),
            storage=MemoryStorage(), redirect_handler=redirect_handler, callback_handler=callback_handler)
        async with streamable_http_client(endpoint, http_client=httpx2.AsyncClient(auth=provider, timeout=60)) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                history = await session.call_tool("cheer_history", {"user_id": 42})
                check(not history.is_error, f"OAuth: history {history}")
                check(asked == ["cheers:read"], f"OAuth: the first authorization asked for {asked}, not the one scope the 401 named")
                bought = await session.call_tool("purchase_cheer", {"identifier": "cheer.large", "transaction_id": 9})
                check(bought.structured_content == {"balance": 200}, f"OAuth: purchase after step-up {bought}")
                check(asked == ["cheers:read", "cheers:read cheers:write"], f"OAuth: the step-up asked for {asked}")
    finally:
        server.stdin.close()
        server.wait(timeout=60)
        authorization_server.shutdown()
    print(f"OAuth with the SDK's client: asked first for {asked[0]!r}, stepped up on 403 to {asked[1]!r}, the purchase sent")


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
    await oauth_step_up(demo)
    print("MCP example: stdio and Streamable HTTP answered as the official client expects")


anyio.run(main, sys.argv[1])
