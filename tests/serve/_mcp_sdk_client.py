"""Drive one patchgym episode with the official MCP Python SDK over MCP's streamable HTTP transport.

Usage: python _mcp_sdk_client.py URL SOLUTION.patch

Connects to URL (`.../mcp?task_id=...`), initializes (which opens the session's episode), lists the
tools, reads a file, applies the patch, submits, and prints one JSON line: the protocol version,
the tool names, whether the instructions name the task, and the submit's reward and stop reason.
"""
import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


def field(result, *names):
    """A result field under the SDK's spelling, whichever it uses (snake_case or camelCase)."""
    for name in names:
        if hasattr(result, name):
            return getattr(result, name)
    raise AttributeError(names[0])


async def main(url, patch_path):
    with open(patch_path, encoding="utf-8") as f:
        patch = f.read()
    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            init = await session.initialize()
            tools = await session.list_tools()
            read = await session.call_tool("read_file", {"path": "stats/summary.py"})
            await session.call_tool("apply_patch", {"patch": patch})
            submit = await session.call_tool("submit", {"status": "solved", "summary": "sorted"})
            facts = field(submit, "structured_content", "structuredContent")
            print(json.dumps({
                "protocol_version": field(init, "protocol_version", "protocolVersion"),
                "tools": [t.name for t in tools.tools],
                "instructions_name_the_task": "median" in (init.instructions or ""),
                "read_ok": not field(read, "is_error", "isError") and "def median" in read.content[0].text,
                "reward": facts["reward"],
                "stop_reason": facts["stop_reason"],
            }))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
