# swift-nio against flowpkg's own HTTP layer (FlowHTTP), issue 33: binary size, start-up,
# `serve` throughput within and past its connection budget, and cold build time.
# Benchmarks/NIOHTTP is the NIO side: `plain-hello` (a static Swift program that prints a
# line), `nio-hello` (the same with NIOCore, NIOPosix and NIOHTTP1 linked in and reachable)
# and `nio-serve` (NIOHTTP1's server pipeline answering a module's bytes to a GET with the
# token, 401 without). The cold builds run only with BENCH_COLD_BUILD=1 (minutes each).

benchmark_http_layer() {
  need_apt ab apache2-utils || { echo "benchmarks: ab (apache2-utils) is needed" >&2; return 1; }
  # BENCH_NIO_PACKAGE and BENCH_NIO_BUILD: another copy of Benchmarks/NIOHTTP and its build folder.
  local work="$BENCH_WORK/http_layer" nio="${BENCH_NIO_BUILD:-$BENCH_WORK/http_layer/nio}"
  mkdir -p "$work"
  echo "benchmarks: building Benchmarks/NIOHTTP (release, static)" >&2
  (cd "${BENCH_NIO_PACKAGE:-Benchmarks/NIOHTTP}" && swift build -c release --static-swift-stdlib --disable-local-rpath \
    -Xlinker --no-export-dynamic --scratch-path "$nio" >&2) || return 1
  local name
  for name in plain-hello nio-hello nio-serve; do
    cp "$nio/release/$name" "$work/$name"
    strip --strip-all "$work/$name"
  done
  local plain_size nio_size flowpkg_size
  plain_size=$(stat -c %s "$work/plain-hello")
  nio_size=$(stat -c %s "$work/nio-hello")
  flowpkg_size=$(stat -c %s "$FLOWPKG")

  # URLSession's cost, which FlowHTTP's comments cite ("about 9 ms more at every start"): a
  # dynamic program with Foundation against one that also links FoundationNetworking (and so
  # libcurl's dependencies), URLSession reachable.
  if [[ ! -x "$work/foundation-networking" ]]; then
    printf 'import Foundation\nprint("hello", Date().timeIntervalSince1970 > 0)\n' >"$work/foundation.swift"
    printf 'import FoundationNetworking\nif CommandLine.arguments.count > 5 { _ = URLSession.shared }\nprint("hello")\n' \
      >"$work/foundation-networking.swift"
    swiftc -O "$work/foundation.swift" -o "$work/foundation" >&2 || return 1
    swiftc -O "$work/foundation-networking.swift" -o "$work/foundation-networking" >&2 || return 1
  fi
  # Start-up: what linking NIO adds to every process, beside flowpkg run's own start.
  declare -F startup_workload >/dev/null || source Benchmarks/startup.sh
  startup_workload || return 1
  local rounds table
  rounds=$(startup_rounds)
  table=$(python3 Benchmarks/startup.py "$rounds" \
    "static Swift program, prints a line::$work/plain-hello" \
    "the same + NIOCore, NIOPosix, NIOHTTP1::$work/nio-hello" \
    "flowpkg run tiny.luapkg::$FLOWPKG run $BENCH_WORK/startup/tiny.luapkg" \
    "dynamic Swift program with Foundation::$work/foundation" \
    "the same + FoundationNetworking (URLSession)::$work/foundation-networking") || return 1

  # Throughput: one module of 2 KB, GET with the token, `ab` with 16 and then 128 concurrent
  # clients (flowpkg serve answers 64 token holders at once and 503 beyond; nio-serve answers
  # every request on its event loops).
  mkdir -p "$work/project/Sources"
  head -c 2048 /dev/zero | tr '\0' 'x' | sed 's/^/-- /' >"$work/project/Sources/main.lua"
  printf '{\n  "name": "Served",\n  "identifier": "com.example.served",\n  "version": "1.0.0",\n  "startModule": "main",\n  "sources": ["Sources"]\n}\n' \
    >"$work/project/flowpkg.json"
  "$FLOWPKG" serve "$work/project" --port 0 --token bench-token >"$work/serve.log" 2>&1 &
  local serve_pid=$! url=""
  for _ in $(seq 1 100); do
    url=$(sed -n 's/^Serving .* at //p' "$work/serve.log" | head -1)
    [[ -n "$url" ]] && break
    sleep 0.1
  done
  "$work/nio-serve" "$work/nio.port" "$work/project/Sources/main.lua" &
  local nio_pid=$!
  for _ in $(seq 1 100); do [[ -s "$work/nio.port" ]] && break; sleep 0.1; done
  local nio_url="http://127.0.0.1:$(cat "$work/nio.port")" requests=${BENCH_HTTP_REQUESTS:-5000} rows="" c server target
  for c in 16 128; do
    for server in flowpkg nio; do
      if [[ $server == flowpkg ]]; then target="$url/v1/module?name=main"; else target="$nio_url/v1/module?name=main"; fi
      local out rps failed non2xx
      out=$(ab -q -n "$requests" -c "$c" -H "Authorization: Bearer bench-token" "$target" 2>&1)
      rps=$(sed -n 's/^Requests per second: *\([0-9.]*\).*/\1/p' <<<"$out")
      failed=$(sed -n 's/^Failed requests: *\([0-9]*\).*/\1/p' <<<"$out")
      non2xx=$(sed -n 's/^Non-2xx responses: *\([0-9]*\).*/\1/p' <<<"$out")
      rows+="| $([[ $server == flowpkg ]] && echo "flowpkg serve (FlowHTTP)" || echo "nio-serve (NIOHTTP1)") | $c | $rps | ${failed:-0} | ${non2xx:-0} |"$'\n'
    done
  done
  kill "$serve_pid" "$nio_pid" 2>/dev/null
  wait "$serve_pid" "$nio_pid" 2>/dev/null

  local build_rows=""
  if [[ "${BENCH_COLD_BUILD:-0}" == 1 ]]; then
    local start
    rm -rf "$work/cold-nio" "$work/cold-flowhttp"
    start=$EPOCHREALTIME
    (cd Benchmarks/NIOHTTP && swift build -c release --product nio-hello --scratch-path "$work/cold-nio" >/dev/null 2>&1)
    build_rows+="| NIOCore + NIOPosix + NIOHTTP1 (nio-hello), release | $(printf '%.0f' "$(echo "$EPOCHREALTIME - $start" | bc -l)") |"$'\n'
    start=$EPOCHREALTIME
    swift build -c release --target FlowHTTP --scratch-path "$work/cold-flowhttp" >/dev/null 2>&1
    build_rows+="| FlowHTTP + FlowSupport, release | $(printf '%.0f' "$(echo "$EPOCHREALTIME - $start" | bc -l)") |"$'\n'
  fi

  BENCH_TABLES+=("HTTP layer: binary size (stripped, bytes)

| binary | bytes |
|---|---:|
| static Swift program, prints a line | $plain_size |
| the same + NIOCore, NIOPosix, NIOHTTP1 | $nio_size |
| flowpkg (release, FlowHTTP inside) | $flowpkg_size |

HTTP layer: start-up, median of $rounds alternating runs (milliseconds)

| row | wall ms | wall ratio | CPU ms | CPU ratio |
|---|---:|---|---:|---|
$table

HTTP layer: GET of a 2 KB module with the token, $requests requests (ab)

| server | concurrent clients | requests/s | failed | non-2xx |
|---|---:|---:|---:|---:|
${rows%$'\n'}${build_rows:+

HTTP layer: cold build (seconds)

| what | seconds |
|---|---:|
${build_rows%$'\n'}}")
}
