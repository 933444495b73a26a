#!/usr/bin/env bash
# Fuzzes the generator's loader and mapper with libFuzzer and AddressSanitizer: each input is read
# as an OpenAPI document and, when it loads, generated with every option (Sources/GeneratorFuzz).
# Any input may be refused; none may trap, hang (20 s) or take more than 4 GB.
#
#   Generator/Fuzz/run.sh [SECONDS]     default: 600; seeds: the test documents and the demo's
#
# Prints libFuzzer's final figures and "0 crashes", or the input that failed (kept in
# .build-fuzz/artifacts/). What the fuzzer finds goes to .build-fuzz/corpus/; the seeds are read only.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
out=.build-fuzz
flags=(-c release --scratch-path "$out" -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)

echo "== Building the generator with libFuzzer and AddressSanitizer"
swift build "${flags[@]}" --target GeneratorFuzz 2>&1 | grep -E "error|warning: " || true
# SwiftPM would link an executable with a main of its own; libFuzzer brings main, so the fuzz
# target is a library whose objects are linked here.
objects=$(find "$out"/release/{GeneratorFuzz,EndpointKitGenerator,OpenAPIKit,OpenAPIKit30,OpenAPIKitCompat,OpenAPIKitCore,Yams,CYaml}.build -name '*.o')
swiftc -sanitize=fuzzer,address $objects -o "$out/generator-fuzz" 2>&1 | { grep -v "Cannot export local symbol" || true; }
[ -x "$out/generator-fuzz" ] || { echo "the generator's fuzz target did not build"; exit 1; }

mkdir -p "$out/corpus" "$out/artifacts"
cp -n Tests/EndpointKitGeneratorTests/Documents/* ../Examples/OpenAPI/openapi.yaml "$out/corpus/" 2>/dev/null || true
log="$out/fuzz.log"
status=0
ASAN_OPTIONS=detect_leaks=0 "$out/generator-fuzz" "$out/corpus" -max_total_time="$seconds" -max_len=65536 -timeout=20 \
    -rss_limit_mb=4096 -detect_leaks=0 -artifact_prefix="$out/artifacts/" -print_final_stats=1 > "$log" 2>&1 || status=$?
runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
coverage=$(grep -oE "cov: [0-9]+" "$log" | tail -1)
if [ "$status" -eq 0 ]; then
    echo "generator fuzz: ${runs:-?} documents in ${seconds} s, ${coverage:-cov: ?} edges, $(ls "$out/corpus" | wc -l) inputs in the corpus, 0 crashes"
else
    grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$log" | head -20
    echo "generator fuzz: a crash (exit $status); the input is in $out/artifacts/"
    exit 1
fi
