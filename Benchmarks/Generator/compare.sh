#!/usr/bin/env bash
# EndpointKit's generator against Apple's swift-openapi-generator 1.14.3, side by side in one run,
# on the same real document: Prefect's REST API (prefect 3.9.1 from PyPI, a FastAPI server that
# publishes its own OpenAPI 3.1 document: 188 operations, 550 KB; 187 compared, see below). Prints lines of generated code,
# clean debug compile time of the generated module (median of three interleaved builds, the
# dependencies built beforehand) and generation time, with each target met or MISSED.
#
#   Benchmarks/Generator/compare.sh           the full comparison (builds Apple's generator once: ~10 min)
#   Benchmarks/Generator/compare.sh --smoke   EndpointKit's side only, debug generator, one build (CI):
#                                             it proves the real document still generates and compiles
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache="$root/Benchmarks/.build-generator-compare"   # kept between runs: the venv, Apple's generator
mkdir -p "$cache"
smoke=0; [ "${1:-}" = "--smoke" ] && smoke=1
rounds=3; [ $smoke = 1 ] && rounds=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
calc() { python3 -c "print($1)"; }   # arithmetic without bc, which a new machine may lack
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo "== The document: Prefect's REST API, from prefect 3.9.1"
if ! "$cache/python/bin/python" -c "import prefect" 2>/dev/null; then
    python3 -m venv "$cache/python"
    "$cache/python/bin/pip" install --quiet --disable-pip-version-check "prefect==3.9.1"
fi
"$cache/python/bin/python" -c "
import json
from prefect.server.api.server import create_app
print(json.dumps(create_app().openapi()))" > "$work/prefect.json" 2>/dev/null
# Both generators read the same document, prepared as a user of Apple's generator must: it refuses
# integer bounds written as floats (`minimum: 0.0`), which are rewritten as integers, and the code
# it writes for one operation (POST /ui/flows/next-runs) does not compile (an enum it refers to is
# never declared), so that operation is left out: 187 operations remain.
python3 - "$work/prefect.json" "$work/prefect-fixed.json" <<'PY'
import json, sys
def fix(node):
    if isinstance(node, dict):
        if node.get("type") == "integer":
            for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
                if isinstance(node.get(key), float) and node[key].is_integer():
                    node[key] = int(node[key])
        for value in node.values(): fix(value)
    elif isinstance(node, list):
        for value in node: fix(value)
document = json.load(open(sys.argv[1]))
fix(document)
del document["paths"]["/ui/flows/next-runs"]["post"]
json.dump(document, open(sys.argv[2], "w"))
PY
echo "$(wc -c < "$work/prefect.json") bytes"

# Release, as a user runs it; the smoke pass reuses the debug build the generator's tests made.
configuration=release; [ $smoke = 1 ] && configuration=debug
echo "== EndpointKit's generator ($configuration)"
swift build -c $configuration --package-path "$root/Generator" --product endpointkit-generate >/dev/null
generator="$root/Generator/.build/$configuration/endpointkit-generate"
for _ in $(seq 1 $rounds); do
    start=$(now)
    "$generator" "$work/prefect-fixed.json" --output "$work/ek-out" --fall-back 2> "$work/ek-report" >/dev/null
    calc "$(now) - $start"
done | median > "$work/ek-generate"
echo "fell back: $(grep -c '^fell back' "$work/ek-report" || true) places (each named with its JSON path)"

package() {  # name, dependencies, target dependencies
    mkdir -p "$work/$1/Sources/PrefectAPI"
    cat > "$work/$1/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "$1",
    platforms: [.macOS(.v13)],
    dependencies: [$2],
    targets: [.target(name: "PrefectAPI", dependencies: [$3])],
    swiftLanguageModes: [.v6]
)
MANIFEST
}
package ek ".package(name: \"EndpointKit\", path: \"$root\")" ".product(name: \"EndpointKit\", package: \"EndpointKit\")"
cp "$work/ek-out/"*.swift "$work/ek/Sources/PrefectAPI/"
swift build --package-path "$work/ek" --target EndpointKit >/dev/null

contenders=(ek)
if [ $smoke = 0 ]; then
    echo "== Apple's swift-openapi-generator 1.14.3 (release)"
    if [ ! -x "$cache/apple/.build/release/swift-openapi-generator" ]; then
        rm -rf "$cache/apple"
        git clone --quiet --depth 1 --branch 1.14.3 https://github.com/apple/swift-openapi-generator "$cache/apple"
        swift build -c release --package-path "$cache/apple" --product swift-openapi-generator >/dev/null
    fi
    printf 'generate:\n  - types\n  - client\naccessModifier: internal\n' > "$work/apple-config.yaml"
    for _ in $(seq 1 $rounds); do
        start=$(now)
        "$cache/apple/.build/release/swift-openapi-generator" generate "$work/prefect-fixed.json" \
            --config "$work/apple-config.yaml" --output-directory "$work/apple-out" >/dev/null 2>&1
        calc "$(now) - $start"
    done | median > "$work/apple-generate"
    package apple ".package(url: \"https://github.com/apple/swift-openapi-runtime\", exact: \"1.13.4\"), .package(url: \"https://github.com/apple/swift-openapi-urlsession\", exact: \"1.4.0\")" \
        ".product(name: \"OpenAPIRuntime\", package: \"swift-openapi-runtime\"), .product(name: \"OpenAPIURLSession\", package: \"swift-openapi-urlsession\")"
    cp "$work/apple-out/"*.swift "$work/apple/Sources/PrefectAPI/"
    swift build --package-path "$work/apple" --target OpenAPIURLSession >/dev/null
    contenders=(ek apple)
fi

echo "== Clean debug builds of the generated module, interleaved ($rounds each)"
for round in $(seq 1 $rounds); do
    for contender in "${contenders[@]}"; do
        # A clean build of this module alone: its objects, dependency records and module go; the
        # build plan (output-file-map.json) stays, or SwiftPM cannot build it again.
        find "$work/$contender/.build/debug/PrefectAPI.build" -type f \( -name '*.o' -o -name '*.swiftdeps' -o -name '*.priors' -o -name '*.d' -o -name '*.dia' \) -delete 2>/dev/null || true
        rm -rf "$work/$contender/.build/debug/Modules/PrefectAPI."*
        start=$(now)
        swift build --package-path "$work/$contender" --target PrefectAPI > "$work/$contender-build.log" 2>&1 \
            || { grep "error:" "$work/$contender-build.log" | head -20; exit 1; }
        calc "$(now) - $start" >> "$work/$contender-compile"
        grep -c "warning:" "$work/$contender-build.log" > "$work/$contender-warnings" || true
    done
done

lines() { cat "$work/$1/Sources/PrefectAPI/"*.swift | wc -l; }
echo
ek_lines=$(lines ek); ek_compile=$(median < "$work/ek-compile"); ek_generate=$(cat "$work/ek-generate")
if [ $smoke = 0 ]; then
    printf '| %-34s | %12s | %12s | %8s |\n' "Prefect REST API (187 operations)" "EndpointKit" "Apple 1.14.3" "ratio"
    printf '|%s|%s|%s|%s|\n' "------------------------------------" "--------------" "--------------" "----------"
    apple_lines=$(lines apple); apple_compile=$(median < "$work/apple-compile"); apple_generate=$(cat "$work/apple-generate")
    printf '| %-34s | %12s | %12s | %8.3f |\n' "lines of generated code" "$ek_lines" "$apple_lines" "$(calc "$ek_lines / $apple_lines")"
    printf '| %-34s | %11.1fs | %11.1fs | %8.3f |\n' "clean debug build of the module" "$ek_compile" "$apple_compile" "$(calc "$ek_compile / $apple_compile")"
    printf '| %-34s | %12s | %12s | %8s |\n' "compiler warnings" "$(cat "$work/ek-warnings")" "$(cat "$work/apple-warnings")" ""
    printf '| %-34s | %11.2fs | %11.2fs | %8.3f |\n' "generation" "$ek_generate" "$apple_generate" "$(calc "$ek_generate / $apple_generate")"
    echo
    verdict() { if [ "$(calc "$1")" = True ]; then echo met; else echo MISSED; fi; }
    echo "lines ≤ 1/4 of Apple's: $(verdict "$ek_lines * 4 <= $apple_lines")"
    echo "compile time ≤ 1/3 of Apple's: $(verdict "$ek_compile * 3 <= $apple_compile")"
else
    printf '| %-34s | %12s |\n' "Prefect REST API (187 operations)" "EndpointKit"
    printf '|%s|%s|\n' "------------------------------------" "--------------"
    printf '| %-34s | %12s |\n' "lines of generated code" "$ek_lines"
    printf '| %-34s | %11.1fs |\n' "clean debug build of the module" "$ek_compile"
    printf '| %-34s | %11.2fs |\n' "generation" "$ek_generate"
fi
if [ $smoke = 0 ]; then
    echo "generation of the $(($(wc -c < "$work/prefect-fixed.json") / 1000)) KB document under 5 s: $([ "$(calc "$ek_generate < 5")" = True ] && echo met || echo MISSED)"
fi
