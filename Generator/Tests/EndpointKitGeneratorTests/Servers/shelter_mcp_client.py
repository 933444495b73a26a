"""Drives the generated shelter MCP server (ShelterMCP, built from the shelter's document with
--mcp-server) with the official MCP Python SDK over stdio, and prints what it saw as one JSON
object on standard output for ShelterMCPTests to check.

    python shelter_mcp_client.py PATH/TO/ShelterMCP ORIGIN
"""
import json
import sys

import os

import anyio
import mcp.types as types
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(server, origin):
    seen = {}
    parameters = StdioServerParameters(command=server, args=["--origin", origin])
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            seen["server"] = initialized.server_info.name
            listed = await session.list_tools()
            seen["tools"] = {
                tool.name: {
                    "description": tool.description,
                    "readOnly": tool.annotations.read_only_hint,
                    "destructive": tool.annotations.destructive_hint,
                    "required": tool.input_schema.get("required", []),
                }
                for tool in listed.tools
            }
            # A read: the first page, checked by the SDK against the tool's output schema.
            page = await session.call_tool("list_animals", {"limit": 2})
            seen["list"] = {"isError": page.is_error, "structured": page.structured_content}
            # A write: the server keeps it, and the test reads it back through the generated API.
            created = await session.call_tool("create_animal", {"name": "Mochi", "details": {"species": "cat", "indoor": True}, "tags": ["mcp"]})
            seen["create"] = {"isError": created.is_error, "structured": created.structured_content}
            # A bad argument: an error result naming what to fix, from the generated types.
            refused = await session.call_tool("create_animal", {"name": "Nope", "details": {"species": "bird"}})
            seen["refused"] = {"isError": refused.is_error, "text": refused.content[0].text}
    # Protocol version 2026-07-28: the write is confirmed by the user (the SDK's elicitation
    # callback), and not sent when the user declines.
    def answering(action):
        async def callback(context, request):
            seen.setdefault("asked", []).append(request.message)
            return types.ElicitResult(action="accept", content={"confirm": True}) if action == "accept" else types.ElicitResult(action=action)
        return callback
    async with Client(parameters, mode="2026-07-28", elicitation_callback=answering("accept")) as client:
        created = await client.call_tool("create_animal", {"name": "Kiki", "details": {"species": "cat", "indoor": False}})
        seen["confirmed"] = {"isError": created.is_error, "structured": created.structured_content}
    async with Client(parameters, mode="2026-07-28", elicitation_callback=answering("decline")) as client:
        declined = await client.call_tool("create_animal", {"name": "Never", "details": {"species": "cat", "indoor": False}})
        seen["declined"] = {"isError": declined.is_error, "text": declined.content[0].text}
    # SHELTER_MCP_CONFIRM=strict: a client that cannot ask its user is refused a write.
    strict = StdioServerParameters(command=server, args=["--origin", origin], env={**os.environ, "SHELTER_MCP_CONFIRM": "strict"})
    async with stdio_client(strict) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            refused = await session.call_tool("create_animal", {"name": "Strict", "details": {"species": "cat", "indoor": True}})
            seen["strict"] = {"isError": refused.is_error, "text": refused.content[0].text}
    print(json.dumps(seen))


anyio.run(main, sys.argv[1], sys.argv[2])
