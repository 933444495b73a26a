#!/usr/bin/env bash
# Builds the fuzz targets (FuzzTargets.swift with the library's sources, one module, libFuzzer and
# AddressSanitizer) and runs each for a fixed time from its seed corpus.
#
#   Tests/Fuzz/run.sh [SECONDS] [TARGET ...]    default: 20 s for each of the seven targets
#
# Prints one line per target: its executions, and "0 crashes" or the input that failed (kept in
# .build-fuzz/artifacts/). Exits non-zero if any target crashed or broke its property. The seed
# corpus in the repository is read, never written: what the fuzzer finds goes to .build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(sse lines link disposition dates url arguments)

out=${ENDPOINTKIT_FUZZ_OUT:-.build-fuzz}  # a folder of its own lets a long run go on while the sources change
mkdir -p "$out/artifacts"
binary="$out/fuzz"
# The five products with no dependency; the trait-gated ones (the transport, the generator) and
# the generator's command line are not what the fuzz targets read.
products=(Sources/EndpointKit Sources/EndpointKitTesting Sources/EndpointKitContract Sources/EndpointKitTools Sources/EndpointKitMCP)
if [ ! -x "$binary" ] || [ -n "$(find "${products[@]}" Tests/Fuzz/FuzzTargets.swift -newer "$binary" -name '*.swift' | head -1)" ]; then
    echo "== Building the fuzz targets (libFuzzer + AddressSanitizer, optimized)"
    # The products' sources as one module (so that internal parsers are reachable): copies without
    # their imports of each other.
    rm -rf "$out/src"
    mkdir -p "$out/src"
    for file in $(find "${products[@]}" -name '*.swift' | sort); do
        sed -E '/^import EndpointKit(Contract|Testing|Tools)?$/d' "$file" > "$out/src/$(echo "$file" | tr '/' '_')"
    done
    # ENDPOINTKIT_FUZZ_OPTIMIZE=-Onone skips the optimizer for short runs (CI); -O by default.
    swiftc -sanitize=fuzzer,address -parse-as-library "${ENDPOINTKIT_FUZZ_OPTIMIZE:--O}" -swift-version 6 \
        -enable-upcoming-feature ExistentialAny -module-name EndpointKit -package-name EndpointKit \
        "$out"/src/*.swift Tests/Fuzz/FuzzTargets.swift -o "$binary" 2>&1 | { grep -v "Cannot export local symbol" || true; }
    [ -x "$binary" ] || { echo "the fuzz targets did not build"; exit 1; }
fi

failed=0
for target in "${targets[@]}"; do
    corpus="$out/corpus/$target"
    mkdir -p "$corpus"
    cp -n Tests/Fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    log="$out/$target.log"
    status=0
    # Leak detection is off: the Swift runtime's caches and the targets' lazy globals live for the
    # whole process, which LeakSanitizer reports as leaks at exit. Memory use is bounded instead.
    ASAN_OPTIONS=detect_leaks=0 ENDPOINTKIT_FUZZ_TARGET=$target "$binary" "$corpus" -max_total_time="$seconds" -max_len=4096 -timeout=10 -detect_leaks=0 \
        -rss_limit_mb=2048 -artifact_prefix="$out/artifacts/$target-" -print_final_stats=1 > "$log" 2>&1 || status=$?
    runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
    if [ "$status" -eq 0 ]; then
        echo "fuzz $target: ${runs:-?} executions in ${seconds} s, 0 crashes"
    else
        failed=1
        echo "fuzz $target: FAILED after ${runs:-?} executions (exit $status); see $log"
        grep -E "property violated|ERROR: |Fatal error|SUMMARY" "$log" | head -5 || true
    fi
done
exit $failed
