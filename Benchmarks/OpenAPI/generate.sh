#!/usr/bin/env bash
# Regenerates Sources/Contenders/OpenAPIGenerated from openapi.yaml with swift-openapi-generator 1.14.3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
git clone --quiet --depth 1 --branch 1.14.3 https://github.com/apple/swift-openapi-generator "$work/generator"
swift build --package-path "$work/generator" --product swift-openapi-generator
out="$here/../Sources/Contenders/OpenAPIGenerated"
find "$out" -name '*.swift' -delete
"$work/generator/.build/debug/swift-openapi-generator" generate "$here/openapi.yaml" \
    --config "$here/openapi-generator-config.yaml" --output-directory "$out"
rm -rf "$work"
