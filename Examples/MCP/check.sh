#!/usr/bin/env bash
# Runs Examples/MCP/check.py (the official MCP Python SDK against Demo --mcp and --mcp-http) in a
# virtual environment of its own under Examples/.build, made on first use.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv="$here/../.build/mcp-python"
if ! "$venv/bin/python" -c "import mcp" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "mcp==2.3.0"
fi
swift build --package-path "$here/.." --product Demo >/dev/null
"$venv/bin/python" "$here/check.py" "$here/../.build/debug/Demo"
