#!/usr/bin/env bash
# Runs every benchmark in release mode and prints one table of absolute figures and ratios, all
# measured in this run.
#
#   Benchmarks/run.sh            the full run (about 10 minutes on 2 cores)
#   Benchmarks/run.sh --smoke    CI's pass, all in debug: every target builds, and all but the harness's
#                                run a few iterations; its figures mean nothing
set -euo pipefail
cd "$(dirname "$0")"

calls=2000
few=10; many=60   # calls per callgrind run; instructions per call = difference / (many - few)
configuration=release
if [ "${1:-}" = "--smoke" ]; then
    export BENCH_SMOKE=1
    calls=50
    few=1; many=3
    # All in debug: the smoke pass shows that everything still builds, and runs what can run in
    # debug; its figures mean nothing. A release build of the server's dependencies (Hummingbird,
    # SwiftNIO) takes over ten minutes on two cores; in debug they are shared with the example's
    # build. The harness's targets (ordo-one/benchmark) are built but not run: built in debug they
    # crash at start (SIGSEGV, with benchmark 1.38.1 and Swift 6.3), and their release build and
    # run were about 6 of CI's minutes. The full run builds and runs them in release.
    configuration=debug
fi
export BENCH_CALLS=$calls

tmp=$(mktemp -d)
results="$tmp/results"
mkdir -p "$results"

# CI builds the example and the benchmarks in one scratch folder, so that the server's Hummingbird and
# SwiftNIO are built once; the first build there plans afresh, as the example's plan may be there
# (see .ci/run).
side=(); fresh=()
[ -n "${ENDPOINTKIT_SIDE_BUILD:-}" ] && side=(--scratch-path "$ENDPOINTKIT_SIDE_BUILD") && fresh=(--disable-build-manifest-caching)
bin() { swift build "${side[@]}" -c "$1" --show-bin-path; }

echo "== Building (in $configuration$([ -z "${BENCH_SMOKE:-}" ] && echo ", the harness's targets in release"))"
swift build "${side[@]}" "${fresh[@]}" -c "$configuration" --product BenchServer
for product in InstructionCount StreamingBench MCPLatency; do
    swift build "${side[@]}" -c "$configuration" --product "$product"
done
if [ -n "${BENCH_SMOKE:-}" ]; then
    # The harness's targets, compiled as they are written; not run (see above).
    for product in ClientOverhead EndToEnd; do
        swift build "${side[@]}" -c debug --product "$product"
    done
else
    # The harness's targets (in release) and its tool (which it builds in debug) are built here on
    # every core: the harness itself runs on one core (below).
    swift build "${side[@]}" "${fresh[@]}" -c release --product ClientOverhead
    swift build "${side[@]}" -c release --product EndToEnd
    swift build "${side[@]}" --product BenchmarkTool
fi
bin=$(bin "$configuration")

# With two or more cores, the server runs on core 0 and the benchmarks on core 1, so that they do not
# compete for a core (without this, identical contenders differed by up to 6% end to end).
server_cpu=(); client_cpu=()
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
    server_cpu=(taskset -c 0); client_cpu=(taskset -c 1)
fi

echo "== Starting the loopback server"
mkfifo "$tmp/server-stdin"
"${server_cpu[@]}" "$bin/BenchServer" < "$tmp/server-stdin" > "$tmp/server.out" &
server=$!
exec 3>"$tmp/server-stdin"   # the server runs while this stays open
trap 'exec 3>&-; wait "$server" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 1 100); do
    grep -q READY "$tmp/server.out" 2>/dev/null && break
    sleep 0.1
done
port=$(awk '/READY/ {print $2}' "$tmp/server.out")
[ -n "$port" ] || { echo "the benchmark server did not start"; exit 1; }
export BENCH_ORIGIN="http://127.0.0.1:$port"
echo "listening on $BENCH_ORIGIN"

if [ -n "${BENCH_SMOKE:-}" ]; then
    echo "== The harness's benchmarks (ClientOverhead, EndToEnd): built, not run in the smoke pass"
else
    echo "== Running the benchmarks"
    "${client_cpu[@]}" swift package "${side[@]}" --allow-writing-to-package-directory benchmark \
        --format histogramPercentiles --path "$results" --no-progress --quiet
fi

echo "== MCP: what a tools/call adds to the same call made directly (paired, median of 200 rounds)"
"${client_cpu[@]}" "$bin/MCPLatency" "$BENCH_ORIGIN" $([ -n "${BENCH_SMOKE:-}" ] && echo --smoke) > "$results/mcp.tsv"

echo "== Counting instructions per call, in memory and over loopback (valgrind callgrind)"
: > "$results/instructions.tsv"
# Hashing seeds and addresses fixed, so that counts repeat run to run (within ±0.1%).
no_aslr=(); command -v setarch >/dev/null 2>&1 && no_aslr=(setarch "$(uname -m)" -R)
contenders=(EndpointKit MCP MCP-guarded snake snake-all explicit explicit-all openapi raw-loopback EndpointKit-loopback openapi-loopback)
# The smoke pass proves the counting runs, on one contender in memory and one over loopback.
[ -n "${BENCH_SMOKE:-}" ] && contenders=(EndpointKit EndpointKit-loopback)
for contender in "${contenders[@]}"; do
    for operation in GET POST; do
        count() {
            SWIFT_DETERMINISTIC_HASHING=1 "${client_cpu[@]}" "${no_aslr[@]}" \
                valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                "$bin/InstructionCount" "$contender" "$operation" "$1" 2>&1 | awk '/Collected/ {print $4}'
        }
        a=$(count "$few"); b=$(count "$many")
        printf '%s\t%s\t%s\n' "$contender" "$operation" $(( (b - a) / (many - few) )) >> "$results/instructions.tsv"
    done
done

echo "== Streaming: latency, memory, downloads against curl (the Python server and nginx), cancellation"
mkfifo "$tmp/stream-stdin"
python3 streaming_server.py < "$tmp/stream-stdin" > "$tmp/stream.out" &
exec 4>"$tmp/stream-stdin"   # the streaming server runs while this stays open
for _ in $(seq 1 100); do
    grep -q READY "$tmp/stream.out" 2>/dev/null && break
    sleep 0.1
done
stream_port=$(awk '/READY/ {print $2}' "$tmp/stream.out")
[ -n "$stream_port" ] || { echo "the streaming benchmark server did not start"; exit 1; }
smoke_flag=(); [ -n "${BENCH_SMOKE:-}" ] && smoke_flag=(--smoke)

# nginx on 127.0.0.1 serves the file the download row fetches (EndpointKit against `curl -o`): a
# sparse file, so that the disk adds nothing to either. Installed from Debian when missing.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
    apt-get update && apt-get install -y --no-install-recommends nginx
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
mkdir -p "$tmp/nginx/logs"
truncate -s "$([ -n "${BENCH_SMOKE:-}" ] && echo 16 || echo 1024)M" "$tmp/nginx/big.bin"
nginx_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$tmp/nginx/nginx.conf" <<CONF
daemon off;
$([ "$(id -u)" = 0 ] && echo "user root;")
worker_processes 1;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/logs/error.log;
events { worker_connections 64; }
http {
    access_log off;
    sendfile on;
    client_body_temp_path $tmp/nginx/body;
    proxy_temp_path $tmp/nginx/proxy;
    fastcgi_temp_path $tmp/nginx/fastcgi;
    uwsgi_temp_path $tmp/nginx/uwsgi;
    scgi_temp_path $tmp/nginx/scgi;
    types { application/octet-stream bin; }
    server { listen 127.0.0.1:$nginx_port; root $tmp/nginx; }
}
CONF
"${server_cpu[@]}" "$nginx_bin" -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" &
nginx_pid=$!
trap 'kill "$nginx_pid" 2>/dev/null || true; exec 3>&-; wait "$server" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 1 100); do
    curl -s -o /dev/null -r 0-0 "http://127.0.0.1:$nginx_port/big.bin" && break
    sleep 0.1
done
curl -s -o /dev/null -r 0-0 "http://127.0.0.1:$nginx_port/big.bin" || { echo "nginx did not start"; cat "$tmp/nginx/logs/error.log"; exit 1; }
export BENCH_NGINX_ORIGIN="http://127.0.0.1:$nginx_port"

"${client_cpu[@]}" "$bin/StreamingBench" "http://127.0.0.1:$stream_port" "${smoke_flag[@]}" > "$results/streaming.tsv"
exec 4>&-
kill "$nginx_pid" 2>/dev/null || true

echo "== Measuring the build cost of the library"
seconds_to_build() {  # a clean debug build of target $2 of the package at $1, in a new scratch folder
    rm -rf "$tmp/scratch"
    local start end
    start=$(date +%s.%N)
    swift build --package-path "$1" --target "$2" --scratch-path "$tmp/scratch" > "$tmp/build.log" 2>&1
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.1f}')"
}
# SwiftPM's fixed cost (manifest, planning, linking a one-line module), to tell it apart from
# EndpointKit's own compile time.
mkdir -p "$tmp/empty/Sources/Empty"
printf '// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: "Empty", targets: [.target(name: "Empty")])\n' > "$tmp/empty/Package.swift"
echo 'public let empty = 0' > "$tmp/empty/Sources/Empty/Empty.swift"
if [ -n "${BENCH_SMOKE:-}" ]; then
    # Two clean builds give no figure worth reading in a smoke pass: left out.
    empty_seconds=-; build_seconds=-
else
    empty_seconds=$(seconds_to_build "$tmp/empty" Empty)
    build_seconds=$(seconds_to_build .. EndpointKit)
fi
files=$(find ../Sources/EndpointKit -name '*.swift' | wc -l)
lines=$(find ../Sources/EndpointKit -name '*.swift' -exec cat {} + | wc -l)
code_lines=$(find ../Sources/EndpointKit -name '*.swift' -exec cat {} + | grep -cvE '^\s*(//|$)')

echo
BENCH_BUILD_SECONDS=$build_seconds python3 summarize.py "$results" "$calls"
echo
echo "Streaming (figure, value, unit, target, verdict):"
column -t -s $'\t' "$results/streaming.tsv" 2>/dev/null || cat "$results/streaming.tsv"
echo
echo "MCP (figure, value, unit, how):"
column -t -s $'\t' "$results/mcp.tsv" 2>/dev/null || cat "$results/mcp.tsv"
echo
echo "Build: clean debug build of the EndpointKit target ${build_seconds} s" \
     "(a one-line package: ${empty_seconds} s); ${files} files, ${lines} lines" \
     "(${code_lines} without comments and blank lines)."
echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
     "$(swift --version 2>/dev/null | head -n 1)"
