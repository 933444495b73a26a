#!/usr/bin/env bash
# Checks Demo --mcp and --mcp-http with two official MCP clients written independently of EndpointKit:
# the Python SDK (check.py, in a virtual environment of its own under Examples/.build, made on first
# use) and the Swift SDK (SwiftClient/, a side package).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# CI builds the example and the benchmarks in one scratch folder (see .ci/run).
side=(); [ -n "${ENDPOINTKIT_SIDE_BUILD:-}" ] && side=(--scratch-path "$ENDPOINTKIT_SIDE_BUILD")
venv="$here/../.build/mcp-python"
if ! "$venv/bin/python" -c "import mcp" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "mcp==2.3.0"
fi
swift build --package-path "$here/.." "${side[@]}" --product Demo >/dev/null
demo="$(swift build --package-path "$here/.." "${side[@]}" --show-bin-path)/Demo"
"$venv/bin/python" "$here/check.py" "$demo"

# The second, independent client: the official MCP Swift SDK, in a side package of its own.
swift build --package-path "$here/SwiftClient" --product mcp-swift-check >/dev/null
"$here/SwiftClient/.build/debug/mcp-swift-check" "$demo"
