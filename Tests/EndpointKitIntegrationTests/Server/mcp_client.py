"""Drives EndpointKit's MCP server with the official MCP Python SDK (`mcp` from PyPI), over stdio,
at protocol version 2025-11-25 (initialize) and at 2026-07-28 (stateless, with confirmations).

    python mcp_client.py COMMAND ARG... -- KEY

The server is COMMAND ARG... (this test binary, run again as the MCP server). Prints one JSON report
on standard output: what the SDK saw (initialize, tools/list with every definition parsed as the
SDK's Tool, calls, an error result), what raw JSON-RPC exchanges saw (cancellation, an unknown
method, a malformed message, and whether every line of the server's standard output was a
JSON-RPC message), and the round-trip latency of tools/call.
"""
import asyncio
import json
import os
import statistics
import sys
import time

import anyio
import mcp.types as types
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def with_sdk(command, args, env, key):
    report = {}
    params = StdioServerParameters(command=command, args=args, env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            report["protocol_version"] = initialized.protocol_version
            report["server_name"] = initialized.server_info.name
            listed = await session.list_tools()
            report["tools"] = [tool.name for tool in listed.tools]
            report["valid_tools"] = all(isinstance(tool, types.Tool) for tool in listed.tools)
            report["output_schemas"] = {tool.name: tool.output_schema is not None for tool in listed.tools}
            report["read_only"] = {tool.name: bool(tool.annotations and tool.annotations.read_only_hint) for tool in listed.tools}

            echoed = await session.call_tool("echo_query", {"term": "mcp " + key, "limit": 3})
            report["echo_query"] = {
                "is_error": echoed.is_error,
                "structured": echoed.structured_content,
                "text": echoed.content[0].text,
            }
            created = await session.call_tool("echo_create", {"name": "Ada " + key})
            report["echo_create"] = {"is_error": created.is_error, "structured": created.structured_content}
            bad = await session.call_tool("echo_query", {"term": 7})
            report["bad_arguments"] = {"is_error": bad.is_error, "text": bad.content[0].text}
            # A list payload, and an object cut at the result size limit: the SDK checks structured
            # content against each tool's outputSchema and raises when they disagree.
            for name, call in (("list", lambda: session.call_tool("number_page", {"page": 1})),
                               ("cut", lambda: session.call_tool("echo_query", {"term": "x" * 40000}))):
                try:
                    result = await call()
                    report[name] = {"is_error": result.is_error, "structured": result.structured_content,
                                    "texts": [item.text for item in result.content]}
                except Exception as error:  # the SDK's refusal, reported for the test to show
                    report[name] = {"raised": f"{type(error).__name__}: {error}"}

            latencies = []
            for _ in range(30):
                start = time.perf_counter()
                await session.call_tool("echo_query", {"term": "latency"})
                latencies.append((time.perf_counter() - start) * 1000)
            report["latency_ms"] = {"median": statistics.median(latencies), "min": min(latencies), "max": max(latencies)}
    return report


async def current_revision(command, args, env, key):
    """The same server at protocol version 2026-07-28: stateless, writes confirmed by the user
    through the SDK's elicitation callback (MRTR), lists as structured content as they are."""
    report = {"asked": []}
    params = StdioServerParameters(command=command, args=args, env=env)

    def answering(action):
        async def callback(context, request):
            report["asked"].append(request.message)
            if action == "accept":
                return types.ElicitResult(action="accept", content={"confirm": True})
            return types.ElicitResult(action=action)
        return callback

    async with Client(params, mode="2026-07-28", elicitation_callback=answering("accept")) as client:
        report["protocol_version"] = client.session.protocol_version
        listed = await client.list_tools()
        report["tools"] = [tool.name for tool in listed.tools]
        report["list_schema"] = next(tool.output_schema for tool in listed.tools if tool.name == "number_page")
        numbers = await client.call_tool("number_page", {"page": 1})
        report["list"] = {"is_error": numbers.is_error, "structured": numbers.structured_content}
        created = await client.call_tool("echo_create", {"name": "Grace " + key})
        report["accepted"] = {"is_error": created.is_error, "structured": created.structured_content}
    async with Client(params, mode="2026-07-28", elicitation_callback=answering("decline")) as client:
        declined = await client.call_tool("echo_create", {"name": "Nobody " + key})
        report["declined"] = {"is_error": declined.is_error, "text": declined.content[0].text}
    # The SDK's default: it probes server/discover, finds 2026-07-28 and stays there.
    async with Client(params) as client:
        report["auto_version"] = client.session.protocol_version
        report["discovered"] = client.session.discover_result.supported_versions
    return report


async def raw(command, args, env, key):
    """JSON-RPC lines written and read by hand, for what the SDK hides."""
    process = await asyncio.create_subprocess_exec(
        command, *args, env={**os.environ, **env},
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    lines = []

    def send(message):
        text = message if isinstance(message, str) else json.dumps(message)
        process.stdin.write((text + "\n").encode())

    async def until(request_id):
        while True:
            line = await asyncio.wait_for(process.stdout.readline(), 60)
            if not line:
                raise RuntimeError("the server closed its output")
            lines.append(line.decode())
            message = json.loads(line)
            if message.get("id") == request_id:
                return message

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})
    await until(1)
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    # A call the server holds, then its cancellation: no answer may come for it.
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
          "params": {"name": "slow_call", "arguments": {"seconds": 30, "key": key}}})
    await asyncio.sleep(1.0)
    send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2, "reason": "test"}})
    send({"jsonrpc": "2.0", "id": 3, "method": "resources/list"})
    unknown = await until(3)
    send("{not json")
    malformed = await until(None)
    send({"jsonrpc": "2.0", "id": 4, "method": "ping"})
    await until(4)
    # A key twice in a tool's arguments (Python's json cannot write that, so the text is by hand).
    send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo_query","arguments":{"term":"a","term":"b"}}}')
    duplicated = await until(5)
    send('{"jsonrpc":"2.0","id":null,"method":"ping"}')
    null_id = await until(None)
    await asyncio.sleep(1.0)  # time for a wrong answer to id 2 to show up before the close
    process.stdin.close()
    rest = await asyncio.wait_for(process.stdout.read(), 60)
    lines += [line for line in rest.decode().splitlines() if line.strip()]
    await asyncio.wait_for(process.wait(), 60)
    messages = []
    for line in lines:
        try:
            messages.append(json.loads(line))
        except ValueError:
            messages.append({"not_json": line})
    return {
        "unknown_method": unknown.get("error", {}).get("code"),
        "duplicated": {"is_error": duplicated.get("result", {}).get("isError"),
                       "text": duplicated.get("result", {}).get("content", [{}])[0].get("text")},
        "null_id": null_id.get("error", {}).get("code"),
        "malformed": malformed.get("error", {}).get("code"),
        "answered_cancelled": any(message.get("id") == 2 for message in messages),
        "only_protocol_on_stdout": all(message.get("jsonrpc") == "2.0" for message in messages),
        "exit_status": process.returncode,
    }


async def main():
    split = sys.argv.index("--")
    command, args, key = sys.argv[1], sys.argv[2:split], sys.argv[split + 1]
    env = {"ENDPOINTKIT_MCP_ORIGIN": os.environ["ENDPOINTKIT_MCP_ORIGIN"]}
    report = await with_sdk(command, args, env, key)
    report["current"] = await current_revision(command, args, env, key)
    report["raw"] = await raw(command, args, env, key)
    print(json.dumps(report))


anyio.run(main)
