#!/usr/bin/env bash
# Exports the demo's OpenAPI document (Demo --openapi) to openapi.yaml and regenerates
# Sources/OpenAPIRoundTrip/Generated from it with swift-openapi-generator 1.14.3. The generated
# code is committed, as building the generator's plugin in every CI run would cost minutes;
# .ci/openapi-roundtrip checks that openapi.yaml still matches what Demo exports.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
swift run --package-path "$here/.." Demo --openapi > "$here/openapi.yaml"
work=$(mktemp -d)
git clone --quiet --depth 1 --branch 1.14.3 https://github.com/apple/swift-openapi-generator "$work/generator"
swift build --package-path "$work/generator" --product swift-openapi-generator
out="$here/../Sources/OpenAPIRoundTrip/Generated"
find "$out" -name '*.swift' -delete
"$work/generator/.build/debug/swift-openapi-generator" generate "$here/openapi.yaml" \
    --config "$here/openapi-generator-config.yaml" --output-directory "$out"
rm -rf "$work"
